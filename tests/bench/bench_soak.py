"""Soak: hours of 1 Hz sampling on the simulated source through an injected clock.

    python tests/bench/bench_soak.py [--hours 24]

The real pipeline (TelemetryHub, History sized for 24 h, AlertEngine, insights every 5 s,
SQLite recording with its once-a-second commits) is driven tick by tick with a manual
clock, so 24 h of sampling take minutes, not a day. Figures:
- memory: RSS after the first hour and at the end, growth per hour after the first
  (the history ring is preallocated, so steady state should not grow);
- threads before, during and after ``stop()`` (no thread or timer may be left);
- every second recorded: distinct timestamps in the recording = seconds sampled, no gap;
- the recording's end marker after ``stop()``;
- CPU per simulated second, against the bare ``SimulatedSource.read`` baseline of the same run.
``tests/services/test_soak.py`` runs a short version in the suite.
"""
from __future__ import annotations

import argparse
import gc
import os
import sqlite3
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import psutil

from services.settings import Settings
from services.telemetry.alerts import AlertEngine
from services.telemetry.history import History
from services.telemetry.hub import TelemetryHub
from services.telemetry.insights import analyze
from services.telemetry.model import Tier
from services.telemetry.recorder import Recorder
from services.telemetry.simulated import SimulatedSource

START = 1_800_000_000.0
HOUR = 3600


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@dataclass
class SoakResult:
    seconds: int
    rss_first_hour_mib: float
    rss_end_mib: float
    growth_mib_per_hour: float
    threads_before: int
    threads_during: int
    threads_after: int
    seconds_recorded: int
    largest_gap_s: float
    ended_marker: bool
    alerts: int
    insights: int
    history_rows: int
    cpu_per_tick_us: float
    bare_read_us: float


def rss_mib() -> float:
    gc.collect()
    return psutil.Process(os.getpid()).memory_info().rss / 2**20


def run_soak(seconds: int, directory: Path) -> SoakResult:
    threads_before = threading.active_count()
    clock, wall = Clock(0.0), Clock(START)
    source = SimulatedSource(seed=0, gpus=2, start_wall=START)
    hub = TelemetryHub(source, history=History(capacity=int(24 * HOUR * 1.04)), clock=clock, wall=wall)
    settings = Settings()
    engine = AlertEngine(settings.alerts, clock=wall)
    recorder = Recorder(directory, source_name="simulated", clock=clock)
    alerts = insights = 0

    def on_snapshot(snapshot) -> None:
        nonlocal alerts
        for alert in engine.evaluate(snapshot):
            alerts += 1
            recorder.record_alert(alert.t, alert.gpu_index, alert.rule.value, alert.severity.value, str(alert.message),
                                  alert.gpu_uuid)

    hub.add_listener(recorder.on_snapshot)
    hub.add_listener(on_snapshot)
    hub.add_stop_callback(recorder.close)
    rss_first = rss_mib()
    cpu0 = time.process_time()
    for k in range(seconds):
        clock.t += 1.0
        wall.t += 1.0
        hub.tick()
        if k % 5 == 0:
            insights += len(analyze(hub.history, hub.latest))
        if k == HOUR:
            rss_first = rss_mib()
    cpu = time.process_time() - cpu0
    threads_during = threading.active_count()
    rss_end = rss_mib()
    history_rows = len(hub.history)
    path = recorder.path
    hub.stop()
    threads_after = threading.active_count()
    conn = sqlite3.connect(str(path))
    try:
        times = [row[0] for row in conn.execute("SELECT DISTINCT t FROM samples ORDER BY t")]
        ended = conn.execute("SELECT value FROM meta WHERE key = 'ended_at'").fetchone() is not None
    finally:
        conn.close()
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    bare_src = SimulatedSource(seed=0, gpus=2, start_wall=START)
    bare_src.open()
    n = min(seconds, 3000)
    t0 = time.process_time()
    for k in range(n):
        bare_src.read(Tier.FAST | (Tier.SLOW if k % 5 == 0 else Tier(0)), START + k)
    bare = (time.process_time() - t0) / n
    hours_after_first = max((seconds - HOUR) / HOUR, 1e-9)
    return SoakResult(
        seconds=seconds, rss_first_hour_mib=rss_first, rss_end_mib=rss_end,
        growth_mib_per_hour=(rss_end - rss_first) / hours_after_first if seconds > HOUR else 0.0,
        threads_before=threads_before, threads_during=threads_during, threads_after=threads_after,
        seconds_recorded=len(times), largest_gap_s=max(gaps) if gaps else 0.0, ended_marker=ended,
        alerts=alerts, insights=insights, history_rows=history_rows,
        cpu_per_tick_us=cpu / seconds * 1e6, bare_read_us=bare * 1e6)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hours", type=float, default=24.0)
    args = parser.parse_args()
    seconds = int(args.hours * HOUR)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        r = run_soak(seconds, Path(tmp))
        wall_s = time.perf_counter() - t0
        size = sum(p.stat().st_size for p in Path(tmp).glob("*.sqlite"))
    print(f"soak: {args.hours:g} h of 1 Hz sampling, 2 simulated GPUs, alerts + insights + recording "
          f"({wall_s:.0f} s wall)")
    print(f"  memory: RSS {r.rss_first_hour_mib:.1f} MiB after 1 h, {r.rss_end_mib:.1f} MiB at the end "
          f"-> {r.growth_mib_per_hour:+.2f} MiB per hour after the first")
    print(f"  threads: {r.threads_before} before, {r.threads_during} while sampling, {r.threads_after} after stop()")
    print(f"  recorded: {r.seconds_recorded} of {r.seconds} seconds, largest gap {r.largest_gap_s:g} s, "
          f"end marker {'present' if r.ended_marker else 'MISSING'}, file {size / 2**20:.1f} MiB")
    print(f"  history rows: {r.history_rows}; alerts raised: {r.alerts}; insights shown: {r.insights}")
    print(f"  CPU per simulated second: {r.cpu_per_tick_us:.0f} us = {r.cpu_per_tick_us / r.bare_read_us:.1f}x "
          f"the bare source read ({r.bare_read_us:.0f} us)")


if __name__ == "__main__":
    main()
