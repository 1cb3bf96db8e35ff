"""History ring buffer: append and series() cost with 24 h x 2 GPUs, and memory.

    python tests/bench/bench_history.py

Figures are printed as ratios against baselines measured in the same run:
- append: against building the Snapshot the sampler gets anyway (no storage);
- series(): against a bare numpy copy of the same number of values;
- memory: RSS growth after filling 24 h at 1 Hz for 2 GPUs (target < 100 MB).
"""
from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np
import psutil

from services.telemetry.history import History
from services.telemetry.model import Tier
from services.telemetry.simulated import SimulatedSource

DAY = 24 * 3600
START = 1_800_000_000.0


def rss_mib() -> float:
    gc.collect()
    return psutil.Process(os.getpid()).memory_info().rss / 2**20


def timed(fn, repeat: int) -> float:
    """Median seconds per call."""
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main() -> None:
    src = SimulatedSource(start_wall=START)
    # A pool of real snapshots (one hour); the day is filled by re-stamping them.
    pool = src.prehistory(3600)
    tiers = Tier.FAST | Tier.SLOW

    before = rss_mib()
    history = History()
    import dataclasses

    stamped = [dataclasses.replace(s, t=START + k) for k, s in enumerate(pool)]
    t0 = time.perf_counter()
    for k in range(DAY):
        s = stamped[k % 3600]
        history.append(s if k < 3600 else dataclasses.replace(s, t=START + k))
    fill_s = time.perf_counter() - t0
    after = rss_mib()

    # append: steady-state cost per snapshot (2 GPUs) vs producing a snapshot
    one = pool[1800]
    append = timed(lambda: history.append(dataclasses.replace(one, t=START + DAY + 1)), 2000)
    produce = timed(lambda: src.read(tiers, START + 1800), 2000)

    # series: the whole day, one hour, ten minutes; vs a bare numpy copy of as many values
    t_end = START + DAY - 1
    raw = np.random.default_rng(0).random(DAY).astype(np.float32)
    raw_t = np.arange(DAY, dtype=np.float64)
    rows = []
    for label, span in (("24 h", DAY), ("1 h", 3600), ("10 min", 600)):
        s = timed(lambda span=span: history.series(0, "temperature_c", t_end - span, t_end), 200)
        n = len(history.series(0, "temperature_c", t_end - span, t_end)[0])
        base = timed(lambda n=n: (raw[:n].copy(), raw_t[:n].copy()), 200)
        rows.append((label, n, s, base))

    # the same after the ring has wrapped (two segments to join)
    for k in range(DAY, DAY + 6000):
        history.append(dataclasses.replace(stamped[k % 3600], t=START + k))
    t_end = START + DAY + 6000 - 1
    wrapped = timed(lambda: history.series(0, "temperature_c", t_end - DAY, t_end), 200)
    base_w = timed(lambda: (raw.copy(), raw_t.copy()), 200)

    print(f"History, 24 h x 2 GPUs at 1 Hz ({DAY} rows, capacity {history.capacity})")
    print(f"  array memory:          {history.nbytes() / 2**20:7.1f} MiB")
    print(f"  RSS growth after fill: {after - before:7.1f} MiB   (target < 100 MB)")
    print(f"  fill 24 h:             {fill_s:7.2f} s total, {fill_s / DAY * 1e6:.1f} us per snapshot")
    print(f"  append (2 GPUs):       {append * 1e6:7.1f} us   = {append / produce:.2f}x the cost of producing the snapshot "
          f"({produce * 1e6:.1f} us, simulated source)")
    for label, n, s, base in rows:
        print(f"  series {label:>6} ({n:6d} pts): {s * 1e6:8.1f} us   = {s / base:.2f}x a bare numpy copy of t and y "
              f"({base * 1e6:.1f} us)")
    print(f"  series   24 h, wrapped ring: {wrapped * 1e6:8.1f} us   = {wrapped / base_w:.2f}x a bare numpy copy")


if __name__ == "__main__":
    main()
