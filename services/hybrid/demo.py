"""Hybrid's view of the demo machine (``--demo``): the cards of ``services.demo_machine``.

The PCI devices are written as a small sysfs tree (plain files, no links, so it works on Windows
too) and the driver's GPU list comes from the same description, so the Hybrid page names the cards
the dashboard and Setup show. No program is listed: the demo machine runs none of this computer's.
"""
from __future__ import annotations

from pathlib import Path

from services.demo_machine import DemoMachineSpec, demo_machine_spec
from services.hybrid.model import normalize_pci
from services.hybrid.nvidia import NvidiaGpu, NvidiaProcess, NvidiaProcessProbe, NvidiaUtilization
from services.hybrid.service import HybridService
from services.hybrid.system_mode import CommandResult
from services.i18n import Msg

PCI_CLASS_VGA = 0x030000  # PCI base class 03 (display), subclass 00 (VGA)


class DemoNvidiaProbe:
    """The NVIDIA driver's answers for the demo machine: its GPUs, no processes."""

    def __init__(self, spec: DemoMachineSpec) -> None:
        self._gpus = [NvidiaGpu(index=i, name=g.name, pci_bus_id=normalize_pci(g.pci_bus_id))
                      for i, g in enumerate(spec.gpus)]

    def gpus(self) -> list[NvidiaGpu]:
        return list(self._gpus)

    def processes(self) -> list[NvidiaProcess]:
        return []

    def utilization_since(self, since_us: int) -> list[NvidiaUtilization]:
        return []

    def close(self) -> None:
        pass


class _NoCommands:
    """The demo machine has none of the hybrid tools (prime-select, envycontrol...)."""

    def which(self, name: str) -> str | None:
        return None

    def run(self, argv: list[str], timeout_s: float) -> CommandResult | None:
        return None


def write_demo_sysfs(root: Path, spec: DemoMachineSpec) -> Path:
    """/sys/bus/pci/devices/<address>/{vendor,device,class,boot_vga} for each card, as the kernel writes them."""
    devices = root / "sys/bus/pci/devices"
    devices.mkdir(parents=True, exist_ok=True)
    (root / "sys/class/drm").mkdir(parents=True, exist_ok=True)
    for gpu in spec.gpus:
        vendor, device = gpu.pci_ids
        folder = devices / normalize_pci(gpu.pci_bus_id)
        folder.mkdir(exist_ok=True)
        (folder / "vendor").write_text(f"0x{vendor:04x}\n", encoding="ascii")
        (folder / "device").write_text(f"0x{device:04x}\n", encoding="ascii")
        (folder / "class").write_text(f"0x{PCI_CLASS_VGA:06x}\n", encoding="ascii")
        (folder / "boot_vga").write_text("1\n" if gpu.boot_vga else "0\n", encoding="ascii")
    return root


def demo_service(folder: Path, spec: DemoMachineSpec | None = None) -> HybridService:
    spec = spec or demo_machine_spec()
    root = write_demo_sysfs(folder / "root", spec)
    proc = folder / "proc"
    proc.mkdir(parents=True, exist_ok=True)

    def probe() -> tuple[NvidiaProcessProbe | None, Msg | None]:
        return DemoNvidiaProbe(spec), None

    return HybridService(platform="linux", sysfs_root=root, proc_root=proc, nvidia_factory=probe,
                         runner=_NoCommands(), home=folder / "home", backup_dir=folder / "backups")
