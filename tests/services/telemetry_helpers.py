"""Small builders for telemetry tests (not a test module)."""
from __future__ import annotations

from services.telemetry.model import (
    DeviceState,
    GpuInfo,
    GpuSample,
    ProcessSample,
    Snapshot,
    SourceStatus,
    SystemSample,
)

INFO0 = GpuInfo(index=0, name="NVIDIA GeForce RTX 4090", uuid="GPU-aaaa", memory_total_mib=24564)
INFO1 = GpuInfo(index=1, name="NVIDIA GeForce RTX 3090", uuid="GPU-bbbb", memory_total_mib=24576)


def sample(t: float, index: int = 0, **fields) -> GpuSample:
    fields.setdefault("uuid", "GPU-aaaa" if index == 0 else "GPU-bbbb")
    return GpuSample(t=t, index=index, **fields)


def snap(t: float, *samples: GpuSample, system: SystemSample | None = None,
         state: DeviceState = DeviceState.OK) -> Snapshot:
    infos = tuple(INFO0 if s.index == 0 else INFO1 for s in samples)
    return Snapshot(t=t, status=SourceStatus(state), gpus=infos, samples=samples, system=system)


def trainer(used_mib: float = 18000.0, cpu_pct: float | None = 120.0, pid: int = 4242) -> ProcessSample:
    return ProcessSample(pid, "python train.py", "alex", "compute", used_mib, cpu_pct)
