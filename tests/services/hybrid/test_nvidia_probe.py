"""NvmlProcessProbe through the app's NVML wrapper and the shared fake nvidia-ml-py (tests/fakes/fake_nvml.py)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from services.hybrid.nvidia import NvidiaUnavailable, NvmlProcessProbe
from tests.fakes.fake_nvml import (
    NVML_ERROR_LIBRARY_NOT_FOUND, NVML_ERROR_NOT_FOUND, NVML_ERROR_NOT_SUPPORTED, OLD_DRIVER_MISSING, FakeNvml,
    FakeProcess, NVMLError, make_gpu,
)


class FakeNvmlWithProcessUtilization(FakeNvml):
    """The shared fake lacks nvmlDeviceGetProcessUtilization; this adds it with the binding's shape
    (a list of c_nvmlProcessUtilizationSample_t-like objects: pid, timeStamp, smUtil, memUtil, encUtil, decUtil)."""

    def __init__(self, *args, utilization=None, utilization_error=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.utilization = utilization or {}  # pid -> list of smUtil samples
        self.utilization_error = utilization_error

    def nvmlDeviceGetProcessUtilization(self, handle, last_seen):
        self._gpu(handle, "nvmlDeviceGetProcessUtilization")
        if self.utilization_error is not None:
            raise NVMLError(self.utilization_error)
        if not self.utilization:
            raise NVMLError(NVML_ERROR_NOT_FOUND)  # no samples since last_seen
        return [SimpleNamespace(pid=pid, timeStamp=last_seen + i + 1, smUtil=sm, memUtil=0, encUtil=0, decUtil=2)
                for pid, values in self.utilization.items() for i, sm in enumerate(values)]


def laptop_gpu(**overrides):
    values = dict(name="NVIDIA GeForce RTX 4060 Laptop GPU", bus_id="00000000:01:00.0",
                  compute=[FakeProcess(700, 3 * 2 ** 30)],
                  graphics=[FakeProcess(700, None), FakeProcess(800, 64 * 2 ** 20)])
    return make_gpu(0, **{**values, **overrides})


def test_lists_utilisation_and_names():
    fake = FakeNvmlWithProcessUtilization([laptop_gpu()], utilization={700: [80, 92], 800: [4]})
    probe = NvmlProcessProbe(module=fake)
    (gpu,) = probe.gpus()
    assert (gpu.name, gpu.pci_bus_id) == ("NVIDIA GeForce RTX 4060 Laptop GPU", "0000:01:00.0")
    procs = {p.pid: p for p in probe.processes()}
    assert procs[700].kind == "compute+graphics" and procs[700].used_mib == 3072.0
    assert procs[800].kind == "graphics" and procs[800].used_mib == 64.0
    util = {u.pid: u for u in probe.utilization_since(1000)}
    assert util[700].sm_pct == 92.0 and util[800].decoder_pct == 2.0  # busiest sample per process
    probe.close()
    assert fake.initialized == 0


def test_no_samples_yet_is_asked_again_but_unsupported_is_not():
    fake = FakeNvmlWithProcessUtilization([laptop_gpu()])
    probe = NvmlProcessProbe(module=fake)
    assert probe.utilization_since(0) == [] and probe.utilization_since(0) == []
    assert fake.calls["nvmlDeviceGetProcessUtilization"] == 2
    fake.utilization_error = NVML_ERROR_NOT_SUPPORTED
    probe.utilization_since(0)
    probe.utilization_since(0)
    assert fake.calls["nvmlDeviceGetProcessUtilization"] == 3


def test_old_driver_process_lists_through_v1():
    fake = FakeNvmlWithProcessUtilization([laptop_gpu()], missing=OLD_DRIVER_MISSING)
    procs = {p.pid: p for p in NvmlProcessProbe(module=fake).processes()}
    assert procs[700].used_mib == 3072.0 and procs[800].kind == "graphics"


def test_shared_fake_without_utilisation_still_lists_processes():
    probe = NvmlProcessProbe(module=FakeNvml([laptop_gpu()]))
    assert probe.utilization_since(0) == [] and len(probe.processes()) == 2


def test_driver_missing_is_one_line():
    with pytest.raises(NvidiaUnavailable) as info:
        NvmlProcessProbe(module=FakeNvml(init_error=NVML_ERROR_LIBRARY_NOT_FOUND))
    assert str(info.value.message).startswith("The NVIDIA driver (its NVML library) was not found.")
    from services.i18n import Catalog
    assert "NVIDIA" in Catalog.load("zh_CN").render(info.value.message)


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_service_joins_nvml_to_the_sysfs_gpu_and_names_it(tmp_path):
    import os

    from services.hybrid.model import Basis, Placement
    from services.hybrid.service import HybridService
    from tests.fakes.hybrid_fakes import INTEL_IGPU, NVIDIA_DGPU, build_sysfs

    me = os.getpid()
    fake = FakeNvmlWithProcessUtilization([laptop_gpu(compute=[FakeProcess(me, 2 ** 30)], graphics=[])],
                                          utilization={me: [66]})
    service = HybridService(platform="linux", sysfs_root=build_sysfs(tmp_path, [INTEL_IGPU, NVIDIA_DGPU]),
                            nvidia_factory=lambda: (NvmlProcessProbe(module=fake), None), backup_dir=tmp_path / "b")
    inventory = service.inventory()
    assert inventory.by_pci("0000:01:00.0").name == "NVIDIA GeForce RTX 4060 Laptop GPU"
    report = service.scan(0.01, pids=[me], inventory=inventory).process(me)
    assert (report.placement, report.basis, report.work_pct) == (Placement.NVIDIA, Basis.MEASURED, 66.0)
    service.close()
    assert fake.initialized == 0
