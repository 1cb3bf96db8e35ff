"""Issue 15: "Run on the NVIDIA GPU" only where it can change something; which NVIDIA GPU a program uses."""
from __future__ import annotations

from services.hybrid.model import (
    AdapterUse, Basis, GpuAdapter, GpuKind, Inventory, Placement, ProcessReport, Vendor,
)
from services.hybrid.service import HybridService


def adapter(key: str, vendor: Vendor, name: str, kind: GpuKind) -> GpuAdapter:
    return GpuAdapter(key=key, vendor=vendor, name=name, kind=kind)


def report(placement: Placement, uses=(), exe="/usr/bin/python3", cmdline=("python", "train.py")) -> ProcessReport:
    return ProcessReport(pid=999999, name="python", exe=exe, cmdline=cmdline, uses=tuple(uses),
                         placement=placement, basis=Basis.MEASURED, evidence=())


def service(tmp_path) -> HybridService:
    return HybridService(platform="linux", sysfs_root=tmp_path, proc_root=tmp_path / "proc",
                         nvidia_factory=lambda: (None, None), home=tmp_path / "home", backup_dir=tmp_path / "b")


DESKTOP = Inventory(adapters=(adapter("pci:1", Vendor.NVIDIA, "NVIDIA GeForce RTX 4090", GpuKind.DISCRETE),
                              adapter("pci:2", Vendor.NVIDIA, "NVIDIA GeForce RTX 3090", GpuKind.DISCRETE)),
                    platform="linux")
LAPTOP = Inventory(adapters=(adapter("pci:0", Vendor.INTEL, "Intel UHD", GpuKind.INTEGRATED),
                             adapter("pci:1", Vendor.NVIDIA, "NVIDIA GeForce RTX 4060 Laptop GPU", GpuKind.DISCRETE)),
                   platform="linux")


def test_not_offered_without_an_integrated_gpu(tmp_path):
    offer = service(tmp_path).preference_offer(report(Placement.NONE), DESKTOP)
    assert not offer.offered and "no integrated GPU" in str(offer.reason)


def test_not_offered_for_a_program_measured_on_the_nvidia_gpu(tmp_path):
    offer = service(tmp_path).preference_offer(report(Placement.NVIDIA), LAPTOP)
    assert not offer.offered and "already runs on the NVIDIA GPU" in str(offer.reason)


def test_offered_with_the_whole_command_line(tmp_path):
    offer = service(tmp_path).preference_offer(report(Placement.INTEGRATED), LAPTOP)
    assert offer.offered and offer.program == "/usr/bin/python3" and offer.args == ("train.py",)


def test_names_which_nvidia_gpu_only_when_there_are_two(tmp_path):
    svc = service(tmp_path)
    uses = [AdapterUse(adapter_key="pci:2", source="nvml")]
    assert svc.nvidia_gpu_names(report(Placement.NVIDIA, uses), DESKTOP) == ("NVIDIA GeForce RTX 3090",)
    laptop_uses = [AdapterUse(adapter_key="pci:1", source="nvml")]
    assert svc.nvidia_gpu_names(report(Placement.NVIDIA, laptop_uses), LAPTOP) == ()
