"""Size of the Linux bundle and its start time against ``python main.py`` (measured in the same run).

    python installer/build_linux.py          # first, in the build environment (see README)
    python tests/bench/bench_bundle.py [--bundle dist/gpu-assistant] [--runs 7]

Median of --runs warm runs (one discarded warm-up each), offscreen, with a throw-away
GPU_ASSISTANT_HOME; the ratio is bundle / python main.py:
  first paint  from process start to the main window's first paint, as the self-test reports it
               ("start-up" line): interpreter or bootloader, imports, Qt, the window
  --version    wall clock to exit of the headless path (no Qt): interpreter and bootloader start-up
  --self-test  wall clock to exit of the whole self-test (every page in two languages, the
               dashboard on the simulated source, the estimates; fixed waits included)
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP_ID = "gpu-assistant"


def du_bytes(path: Path) -> tuple[int, int]:
    files = [p for p in path.rglob("*") if p.is_file() and not p.is_symlink()]
    return sum(p.stat().st_size for p in files), len(files)


def biggest(path: Path, count: int = 5) -> list[tuple[int, str]]:
    """The largest top-level entries of _internal/ (folders summed)."""
    internal = path / "_internal"
    sizes = []
    for entry in internal.iterdir():
        if entry.is_symlink():  # PyInstaller links some Qt libraries to the top: count them once
            continue
        size = du_bytes(entry)[0] if entry.is_dir() else entry.stat().st_size
        sizes.append((size, entry.name))
    return sorted(sizes, reverse=True)[:count]


FIRST_PAINT = re.compile(r"first window painted (\d+) ms after the process started")


def time_command(command: list[str], runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """(wall-clock seconds to exit, first-paint seconds from the self-test's output) per run."""
    subprocess.run(command, env=env, cwd=ROOT, capture_output=True, check=True)  # warm-up
    times, paints = [], []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - started)
        match = FIRST_PAINT.search(done.stdout)
        if match:
            paints.append(int(match.group(1)) / 1000)
    return times, paints


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", default=str(ROOT / "dist" / APP_ID))
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    bundle = Path(args.bundle)
    exe = bundle / APP_ID
    if not exe.is_file():
        print(f"error: no bundle at {bundle}; build it first: python installer/build_linux.py", file=sys.stderr)
        return 2

    size, files = du_bytes(bundle)
    print(f"bundle: {bundle} = {size / 2**20:.1f} MiB in {files} files")
    for part_size, name in biggest(bundle):
        print(f"  {part_size / 2**20:7.1f} MiB  _internal/{name}")
    for tarball in sorted(bundle.parent.glob(f"{APP_ID}-*-linux-*.tar.gz")):
        print(f"tarball: {tarball.name} = {tarball.stat().st_size / 2**20:.1f} MiB "
              f"({tarball.stat().st_size / size:.0%} of the bundle)")

    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GPU_ASSISTANT_HOME=home)
        print(f"\nstart time, median of {args.runs} warm runs (ratio = bundle / python main.py):")
        rows = []
        for flag in ("--self-test", "--version"):
            source, source_paint = time_command([sys.executable, str(ROOT / "main.py"), flag], args.runs, env)
            frozen, frozen_paint = time_command([str(exe), flag], args.runs, env)
            if source_paint and frozen_paint:
                rows.append(("first paint", statistics.median(source_paint), statistics.median(frozen_paint)))
            rows.append((flag, statistics.median(source), statistics.median(frozen)))
        for label, s, f in rows:
            print(f"  {label:<12} python main.py {s * 1000:7.0f} ms   bundle {f * 1000:7.0f} ms   ratio {f / s:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
