"""Replay of big nvidia-smi logs: time and memory against plain CSV parsing in the same run.

    python tests/bench/bench_replay.py [--mb 133] [--gpus 2]
    python tests/bench/bench_replay.py --mb 20 --gpus 300

A log of the given size is generated (the columns of ``nvidia-smi --query-gpu=... --format=csv -l 1``),
then read three ways:
- baseline: ``csv.reader`` over the file, rows counted and thrown away (the floor for any reader);
- replay: ``open_replay`` (streaming, keeps what the history ring holds);
Figures: replay seconds / baseline seconds, peak memory growth (tracemalloc) per MB of log, and
the rows kept. A line over 128 KiB is added to check that it is skipped with a note.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from services.telemetry.replay import open_replay

HEADER = ("timestamp, index, name, uuid, pstate, temperature.gpu, utilization.gpu [%], utilization.memory [%], "
          "memory.total [MiB], memory.used [MiB], power.draw [W], power.limit [W], clocks.sm [MHz], "
          "clocks.mem [MHz], fan.speed [%], clocks_event_reasons.active")


def write_log(path: Path, megabytes: float, gpus: int) -> int:
    target = int(megabytes * 2**20)
    rows = 0
    t = 1_700_000_000
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(HEADER + "\n")
        written = len(HEADER) + 1
        second = 0
        while written < target:
            stamp = time.strftime("%Y/%m/%d %H:%M:%S", time.localtime(t + second)) + ".123"
            chunk = []
            for g in range(gpus):
                chunk.append(f"{stamp}, {g}, NVIDIA GeForce RTX 4090, GPU-{g:08d}-0000-4000-8000-000000000000, P2, "
                             f"{60 + (second + g) % 20}, {(second * 7 + g) % 100} %, 41 %, 24564 MiB, "
                             f"{18000 + second % 500} MiB, {300 + second % 50}.25 W, 450.00 W, 2520 MHz, "
                             f"10501 MHz, 64 %, 0x0000000000000004\n")
            block = "".join(chunk)
            fh.write(block)
            written += len(block)
            rows += gpus
            second += 1
            if second == 10:  # one over-long line, which must be skipped with a note
                fh.write("x" * (200 * 1024) + "\n")
    return rows


def baseline(path: Path) -> int:
    n = 0
    with open(path, encoding="utf-8", newline="") as fh:
        for _ in csv.reader(fh, skipinitialspace=True):
            n += 1
    return n


def measure(fn):
    tracemalloc.start()
    t0 = time.perf_counter()
    result = fn()
    seconds = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, seconds, peak / 2**20


def measure_untraced(fn):
    t0 = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - t0, 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=40.0)
    parser.add_argument("--gpus", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "run.csv"
        rows = write_log(log, args.mb, args.gpus)
        size_mb = os.path.getsize(log) / 2**20
        import csv as _csv

        _csv.field_size_limit(1 << 30)  # the baseline must get through the long line too
        _, base_s, base_mib = measure(lambda: baseline(log))
        src, replay_s, replay_mib = measure(lambda: open_replay(log))
        _, replay_plain_s, _ = measure_untraced(lambda: open_replay(log))
        _, base_plain_s, _ = measure_untraced(lambda: baseline(log))
        _csv.field_size_limit(128 * 1024)
        kept = sum(len(s.samples) for s in src.snapshots())
        print(f"log: {size_mb:.1f} MB, {rows} rows, {args.gpus} GPUs")
        print(f"baseline csv.reader: {base_s:.2f} s, peak {base_mib:.1f} MiB")
        print(f"replay (streaming): {replay_s:.2f} s, peak {replay_mib:.1f} MiB, {kept} readings kept "
              f"in {len(src.snapshots())} snapshots")
        print(f"untraced: replay {replay_plain_s:.2f} s, baseline {base_plain_s:.2f} s")
        print(f"ratio time replay/baseline (untraced): {replay_plain_s / base_plain_s:.1f}x")
        print(f"peak memory per MB of log: {replay_mib / size_mb:.2f} MiB/MB")
        for note in src.notes:
            print(f"note: {note}")


if __name__ == "__main__":
    main()
