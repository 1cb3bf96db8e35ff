"""Small builders for telemetry tests (not a test module)."""
from __future__ import annotations

import sqlite3
from pathlib import Path

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


def recording_with_bad_cells(directory: Path) -> Path:
    """A recording of 10 readings of one GPU where two rows and two values were damaged by hand
    (wrong-typed cells: 'hot', 'P-two', a time of 'yesterday', a GPU of 'zero')."""
    from services.telemetry.recorder import Recorder

    rec = Recorder(directory)
    info = GpuInfo(index=0, name="RTX", uuid="GPU-a")
    for t in range(10):
        rec.on_snapshot(Snapshot(t=1_700_000_000.0 + t, status=SourceStatus(DeviceState.OK), gpus=(info,),
                                 samples=(GpuSample(t=1_700_000_000.0 + t, index=0, uuid="GPU-a",
                                                    temperature_c=60.0, pstate=2),)))
    rec.close()
    conn = sqlite3.connect(rec.path)
    conn.execute("UPDATE samples SET temperature_c = 'hot', pstate = 'P-two' WHERE rowid = 2")
    conn.execute("UPDATE samples SET t = 'yesterday' WHERE rowid = 3")
    conn.execute("UPDATE samples SET gpu = 'zero' WHERE rowid = 4")
    conn.commit()
    conn.close()
    return rec.path
