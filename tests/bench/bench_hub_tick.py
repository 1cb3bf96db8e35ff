"""CPU per sampler step of the full pipeline on the simulated source.

    python tests/bench/bench_hub_tick.py

One step = source read + slow-field carry-over + history append + SQLite
recording (a commit per sampling second) + alert rules. The baseline, measured
in the same run, is the bare ``SimulatedSource.read`` of the same tiers: the
ratio is what the pipeline adds on top of producing the readings.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from services.paths import AppPaths
from services.settings import Settings
from services.telemetry.factory import build_hub
from services.telemetry.insights import analyze
from services.telemetry.model import Tier
from services.telemetry.simulated import SimulatedSource

STEPS = 3000
START = 1_800_000_000.0


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def main() -> None:
    os.environ["GPU_ASSISTANT_HOME"] = tempfile.mkdtemp(prefix="bench-hub-")
    hub = build_hub(demo=True, replay=None, settings=Settings(), paths=AppPaths.default())
    hub.tick()  # backfill and first read outside the measurement
    clock, wall = Clock(0.0), Clock(time.time())
    hub._clock, hub._wall = clock, wall  # drive the schedule at 1 Hz without waiting
    hub.recorder._clock = clock
    hub._next_fast = hub._next_slow = None
    t0 = time.process_time()
    for _ in range(STEPS):
        clock.t += 1.0
        wall.t += 1.0
        hub.tick()
    step = (time.process_time() - t0) / STEPS

    src = SimulatedSource(start_wall=START)
    t0 = time.process_time()
    for k in range(STEPS):
        src.read(Tier.FAST | (Tier.SLOW if k % 5 == 0 else Tier(0)), START + 10_000 + k)
    bare = (time.process_time() - t0) / STEPS

    t0 = time.process_time()
    for _ in range(200):
        analyze(hub.history, hub.latest)
    insights = (time.process_time() - t0) / 200
    hub.stop()
    print(f"Sampler step, 2 simulated GPUs, {STEPS} steps at 1 Hz schedule")
    print(f"  full step:        {step * 1e6:7.1f} us CPU = {step / bare:.2f}x the bare source read ({bare * 1e6:.1f} us)")
    print(f"  at 1 Hz:          {step * 100:.3f} % of one core")
    print(f"  insights analyze: {insights * 1e6:7.1f} us CPU per call (the dashboard runs it every few seconds)")


if __name__ == "__main__":
    main()
