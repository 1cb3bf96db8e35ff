"""NvmlProcessProbe against a stand-in for nvidia-ml-py at the function level."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from services.hybrid.nvidia import NvidiaUnavailable, NvmlProcessProbe


class NVMLError(Exception):
    def __init__(self, value):
        super().__init__(f"NVML error {value}")
        self.value = value


class FakePynvml:
    NVMLError = NVMLError

    def __init__(self, init_error=None, util_error=None):
        self.init_error, self.util_error = init_error, util_error
        self.shut = False

    def nvmlInit(self):
        if self.init_error is not None:
            raise NVMLError(self.init_error)

    def nvmlShutdown(self):
        self.shut = True

    def nvmlDeviceGetCount(self):
        return 1

    def nvmlDeviceGetHandleByIndex(self, index):
        return ("handle", index)

    def nvmlDeviceGetName(self, handle):
        return b"NVIDIA GeForce RTX 4060 Laptop GPU"

    def nvmlDeviceGetPciInfo(self, handle):
        return SimpleNamespace(busId=b"00000000:01:00.0")

    def nvmlDeviceGetComputeRunningProcesses(self, handle):
        return [SimpleNamespace(pid=700, usedGpuMemory=3 * 2 ** 30)]

    def nvmlDeviceGetGraphicsRunningProcesses(self, handle):
        return [SimpleNamespace(pid=700, usedGpuMemory=None), SimpleNamespace(pid=800, usedGpuMemory=64 * 2 ** 20)]

    def nvmlDeviceGetProcessUtilization(self, handle, since):
        if self.util_error is not None:
            raise NVMLError(self.util_error)
        sample = lambda pid, sm, ts: SimpleNamespace(pid=pid, timeStamp=ts, smUtil=sm, memUtil=0, encUtil=0, decUtil=3)
        return [sample(700, 80, since + 1), sample(700, 92, since + 2), sample(800, 4, since + 1)]


def test_lists_utilisation_and_names():
    fake = FakePynvml()
    probe = NvmlProcessProbe(fake)
    (gpu,) = probe.gpus()
    assert (gpu.name, gpu.pci_bus_id) == ("NVIDIA GeForce RTX 4060 Laptop GPU", "0000:01:00.0")
    procs = {p.pid: p for p in probe.processes()}
    assert procs[700].kind == "compute+graphics" and procs[700].used_mib == 3072.0
    assert procs[800].kind == "graphics" and procs[800].used_mib == 64.0
    util = {u.pid: u for u in probe.utilization_since(1000)}
    assert util[700].sm_pct == 92.0 and util[800].decoder_pct == 3.0  # busiest sample per process
    probe.close()
    assert fake.shut


def test_no_samples_yet_is_an_empty_answer():
    assert NvmlProcessProbe(FakePynvml(util_error=6)).utilization_since(0) == []  # NVML_ERROR_NOT_FOUND


def test_driver_missing_is_one_line():
    with pytest.raises(NvidiaUnavailable, match="NVIDIA driver not reachable"):
        NvmlProcessProbe(FakePynvml(init_error=12))
