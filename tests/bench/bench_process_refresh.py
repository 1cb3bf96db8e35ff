"""CPU cost of refreshing the process view with 200 processes on the GPUs, once a second.

    python tests/bench/bench_process_refresh.py

200 real processes (``sleep``, started here) stand for the programs NVML lists on two
GPUs, 100 each. One refresh is what happens every second:

- on the hub's worker thread: ``ProcessService.update`` (the NVML rows merged with
  psutil's command line, user, start time, CPU % and memory of each process; ended rows
  kept while they fade) and the spill / wrong-GPU rules (``AlertEngine.evaluate_processes``);
- on the GUI thread: ``ProcessView.show_table`` (the model reset, sorting, the selection
  put back), the only part that touches the window.

The baseline, in the same run, is the bare psutil loop the refresh cannot avoid: one
``oneshot()`` with ``cpu_percent`` and ``memory_info`` per process. The budget of issue 26
is 1 % of one core at 1 Hz, i.e. 10 ms of CPU per refresh, all threads together.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import psutil

from services.settings import AlertSettings
from services.telemetry.alerts import AlertEngine
from services.telemetry.model import (
    DeviceState, GpuInfo, GpuSample, ProcessSample, Snapshot, SourceStatus,
)
from services.telemetry.processes import ProcessService, PsutilHost

PROCESSES = 200
REFRESHES = 300
RESCAN_S = 10.0  # services.hybrid.drm_processes.DrmProcessCounters' default


def snapshot(t: float, pids: list[int]) -> Snapshot:
    samples = []
    for index in range(2):
        mine = pids[index::2]
        procs = tuple(ProcessSample(pid=pid, name="sleep", user=None, kind="compute", used_mib=100.0 + k,
                                    sm_pct=float(k % 100), encoder_pct=0.0, decoder_pct=0.0)
                      for k, pid in enumerate(mine))
        samples.append(GpuSample(t=t, index=index, uuid=f"GPU-{index}", state=DeviceState.OK,
                                 memory_total_mib=24576.0, memory_used_mib=20000.0, processes=procs))
    gpus = tuple(GpuInfo(i, "NVIDIA GeForce RTX 4090", f"GPU-{i}", memory_total_mib=24576.0) for i in range(2))
    return Snapshot(t=t, status=SourceStatus(DeviceState.OK), gpus=gpus, samples=tuple(samples))


def main() -> None:
    children = [subprocess.Popen(["sleep", "600"]) for _ in range(PROCESSES)]
    try:
        run([c.pid for c in children])
    finally:
        for child in children:
            child.kill()
        for child in children:
            child.wait()


def run(pids: list[int]) -> None:
    service = ProcessService(PsutilHost())
    engine = AlertEngine(AlertSettings())
    t = time.time()
    for _ in range(2):  # first readings: command lines, users, CPU baselines
        t += 1.0
        engine.evaluate_processes(service.update(snapshot(t, pids)))
    start = time.process_time()
    for _ in range(REFRESHES):
        t += 1.0
        table = service.update(snapshot(t, pids))
        engine.evaluate_processes(table)
    worker = (time.process_time() - start) / REFRESHES
    assert len(table.rows) == PROCESSES and all(r.command_line == "sleep 600" for r in table.rows)

    start = time.process_time()
    for _ in range(REFRESHES):
        snapshot(t, pids)
    building = (time.process_time() - start) / REFRESHES  # the test snapshot itself, not part of the cost
    worker -= building

    procs = [psutil.Process(pid) for pid in pids]
    for p in procs:
        p.cpu_percent(None)
    start = time.process_time()
    for _ in range(REFRESHES):
        for p in procs:
            with p.oneshot():
                p.cpu_percent(None)
                p.memory_info()
    bare = (time.process_time() - start) / REFRESHES

    from PySide6.QtWidgets import QApplication

    from gui.monitor.processes import ProcessView

    app = QApplication.instance() or QApplication([])
    view = ProcessView(None)
    view.resize(1100, 300)
    view.show()
    view.show_table(table)
    view.select(table.rows[PROCESSES // 2].key)
    app.processEvents()
    start = time.process_time()
    for _ in range(REFRESHES // 3):
        view.show_table(table)
        app.processEvents()  # the repaint of the visible rows
    gui = (time.process_time() - start) / (REFRESHES // 3)
    assert view.selected().key == table.rows[PROCESSES // 2].key
    view.shutdown()

    drm_walk, drm_refresh, walked = drm_costs()
    total = worker + gui + drm_refresh
    print(f"Process view refresh, {PROCESSES} processes on 2 GPUs, {REFRESHES} refreshes")
    print(f"  worker thread (service + rules): {worker * 1e3:6.2f} ms CPU = {worker / bare:.2f}x the bare psutil loop "
          f"({bare * 1e3:.2f} ms)")
    print(f"  GUI thread (model, sort, selection, repaint): {gui * 1e3:6.2f} ms CPU")
    print(f"  Linux DRM fdinfo reader (integrated GPU's processes): walking /proc/*/fd of {walked} processes "
          f"{drm_walk * 1e3:.2f} ms CPU, every {RESCAN_S:g} s; {drm_refresh * 1e3:.2f} ms per refresh with it")
    print(f"  at 1 Hz: {total * 100:.2f} % of one core in all (budget 1 %); the GUI thread's share "
          f"{gui * 100:.2f} %")


def drm_costs() -> tuple[float, float, int]:
    """The DRM reader on this machine's real /proc, with the 200 processes in it: one walk of every
    process's fds, and the mean cost per refresh with a walk every RESCAN_S refreshes (a second each)."""
    from services.hybrid.drm_processes import DrmProcessCounters

    walked = sum(1 for name in os.listdir("/proc") if name.isdigit())
    reader = DrmProcessCounters("/proc", rescan_s=RESCAN_S)
    start = time.process_time()
    for _ in range(20):
        reader._scan()
    walk = (time.process_time() - start) / 20
    now = [0]
    reader = DrmProcessCounters("/proc", clock_ns=lambda: now[0], rescan_s=RESCAN_S)
    start = time.process_time()
    for second in range(REFRESHES):
        now[0] = second * 1_000_000_000
        reader.collect()
    refresh = (time.process_time() - start) / REFRESHES
    return walk, refresh, walked


if __name__ == "__main__":
    main()
