"""How much a hybrid-GPU process scan costs on this machine.

    python tests/bench/bench_hybrid_scan.py

Baseline: reading every process's name (/proc/PID/comm), the least any process list does.
Measured against it, in the same run: the scan the page does every 3 s (fds + fdinfo + maps +
environ of every process), the same scan listing every program, and the second-sample re-read.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from services.hybrid.procscan_linux import list_pids, scan_processes

PROC = Path("/proc")


def baseline() -> None:
    for pid in list_pids(PROC):
        try:
            (PROC / str(pid) / "comm").read_text()
        except OSError:
            pass


def deep_scan() -> None:
    scan_processes(PROC)


def shallow_scan() -> None:
    scan_processes(PROC, deep=False)


def timed(func, repeat: int = 15) -> float:
    func()  # warm the dentry cache
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    processes = len(list_pids(PROC))
    base = timed(baseline)
    deep = timed(deep_scan)
    shallow = timed(shallow_scan)
    print(f"processes: {processes}")
    print(f"baseline (read every comm): {base * 1000:.2f} ms")
    print(f"full scan (fds, fdinfo, maps, environ): {deep * 1000:.2f} ms = {deep / base:.1f}x baseline")
    print(f"second-sample scan (fds, fdinfo only): {shallow * 1000:.2f} ms = {shallow / base:.1f}x baseline")
    print(f"full scan per process: {deep / max(1, processes) * 1e6:.0f} us")


if __name__ == "__main__":
    main()
