"""The process view's Windows side against the real Windows APIs: pdh.dll through the counter
session, psutil's Windows process facts, ending a process with TerminateProcess, the DirectX
adapter registry. Marked ``windows``: they run on Windows and in the Windows lane (Wine, whose
pdh.dll has no "GPU Engine" counters: there the session must fail with one line and the view
must still list the NVML processes)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from services.telemetry.model import DeviceState, GpuInfo, GpuSample, ProcessSample, Snapshot, SourceStatus

pytestmark = pytest.mark.windows

DATA = Path(__file__).resolve().parents[1] / "data" / "windows_counters"


def wddm_snapshot(t: float, pid: int) -> Snapshot:
    sample = GpuSample(t=t, index=0, uuid="GPU-w", memory_total_mib=8192.0,
                       processes=(ProcessSample(pid, "python.exe", None, "compute", None),))
    return Snapshot(t=t, status=SourceStatus(DeviceState.OK), gpus=(GpuInfo(0, "NVIDIA GeForce GTX 1070", "GPU-w"),),
                    samples=(sample,))


def test_the_counter_session_without_gpu_counters_leaves_the_nvml_rows_and_says_why():
    from services.hybrid.gpu_counters import WindowsProcessCounters
    from services.telemetry.processes import ProcessService, PsutilHost

    service = ProcessService(PsutilHost(), counters=WindowsProcessCounters())
    first = service.update(wddm_snapshot(1000.0, os.getpid()))
    second = service.update(wddm_snapshot(1001.0, os.getpid()))
    service.close()
    for table in (first, second):
        if table.counters_problem is not None:  # Wine: no GPU counters
            assert "Pdh" in table.counters_problem and "\n" not in table.counters_problem
    [row] = second.live()
    assert row.pid == os.getpid() and row.used_mib is None  # WDDM: not reported, not 0
    assert row.command_line and "python" in row.command_line.lower()
    assert row.user and row.started_at and row.host_mib > 0


def test_windows_process_sources_read_the_adapter_registry():
    from services.hybrid.gpu_counters import windows_process_sources

    sources = windows_process_sources()
    assert set(sources) <= {"counters", "adapters"}
    if "adapters" in sources:
        adapters = sources["adapters"]((GpuInfo(0, "NVIDIA GeForce GTX 1070", "GPU-w"),))
        assert all(a.key.startswith("0x") for a in adapters)
        sources["counters"].close()


def test_counter_text_from_windows_parses_here_too():
    from services.hybrid.gpu_counters import parse_get_counter, parse_typeperf_csv, per_process

    samples = parse_get_counter((DATA / "get_counter_intel_nvidia.txt").read_text(encoding="utf-8"))
    assert len(samples) == 2 and (6120, "0x00000000_0x0000A18D") in per_process(samples[0])
    rows = parse_typeperf_csv((DATA / "typeperf_spill_gtx1070.csv").read_text(encoding="utf-8"))
    assert len(rows) == 14


def test_end_process_uses_terminate_process():
    import psutil

    from services.telemetry.processes import GpuProcess, end_process, privileged

    child = subprocess.Popen([sys.executable, "-c", "import time; print('up', flush=True); time.sleep(120)"],
                             stdout=subprocess.PIPE)
    try:
        assert child.stdout.readline().strip() == b"up"
        p = psutil.Process(child.pid)
        row = GpuProcess(child.pid, "GPU-w", "GPU 0", 0, False, "python.exe", user=p.username(),
                         started_at=p.create_time())
        result = end_process(row, grace_s=10.0)
        assert result.ok, str(result.message)
        assert isinstance(privileged(), bool)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(30)
        child.stdout.close()
