"""Sampler cost: CPU time per full sample (all tiers) of 2 GPUs through NvmlSource.

Baseline, measured in the same run: the bare cost of exactly the NVML calls
that sample makes (recorded from a real read, then replayed straight against
the same fake binding, no wrapper, no conversion). The ratio is what the
wrapper, probing, fallbacks, sentinel handling and dataclass building cost on
top of the calls themselves.

    python tests/bench/bench_sampler.py [--samples 3000]

Figures are printed; nothing is asserted (run it, then quote it).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from services.telemetry.model import SystemSample, Tier  # noqa: E402
from services.telemetry.nvml_source import NvmlSource  # noqa: E402
from tests.fakes.fake_nvml import FakeNvml, FakeProcess, make_gpu  # noqa: E402

ALL = Tier.FAST | Tier.SLOW | Tier.STATIC


class Recorder:
    """Passes everything through to the fake and records the NVML calls made."""

    def __init__(self, fake: FakeNvml) -> None:
        self._fake = fake
        self.recording: list | None = None

    def __getattr__(self, name: str):
        target = getattr(self._fake, name)
        if not (name.startswith("nvml") and callable(target)):
            return target

        def call(*args, **kwargs):
            if self.recording is not None:
                self.recording.append((name, target, args, kwargs))
            return target(*args, **kwargs)

        return call


class NoSystem:
    """Stands in for psutil so the ratio measures the NVML side only."""

    def sample(self, now: float) -> SystemSample:
        return SystemSample(t=now)

    def process_cpu_pct(self, pid: int) -> None:
        return None

    def forget_processes(self, keep) -> None:
        pass


def fake_machine() -> FakeNvml:
    me = os.getpid()  # real pids, so the name lookup path is the one a user hits
    return FakeNvml([
        make_gpu(0, compute=[FakeProcess(me, 9000 * 2**20)], graphics=[FakeProcess(me, 9000 * 2**20)]),
        make_gpu(1, name="NVIDIA GeForce RTX 3090", compute=[FakeProcess(os.getppid(), 20000 * 2**20)]),
    ])


def cpu_per_call(fn, samples: int) -> float:
    for _ in range(min(200, samples)):
        fn()
    start = time.process_time()
    for _ in range(samples):
        fn()
    return (time.process_time() - start) / samples


class _NullLib:
    """A stand-in for libnvidia-ml: every symbol succeeds at once and writes nothing."""

    def __getattr__(self, name: str):
        return lambda *args: 0


def real_binding_cost(calls: list, samples: int) -> float | None:
    """CPU time of nvidia-ml-py's own Python wrappers for ``calls`` (ctypes structs,
    byref, lookups, decoding), with a C library that does no work."""
    try:
        import pynvml
    except ImportError:
        return None
    if getattr(pynvml, "nvmlLib", "absent") is not None:
        return None  # a real library is loaded in this process: do not touch it
    plan = []
    for name, _, args, kwargs in calls:
        fn = getattr(pynvml, name, None)
        if fn is None:
            continue
        plan.append((fn, tuple(None if type(a).__name__ == "FakeHandle" else a for a in args), kwargs))
    pynvml.nvmlLib = _NullLib()
    try:
        def bare_binding() -> None:
            for fn, a, k in plan:
                fn(*a, **k)

        return cpu_per_call(bare_binding, samples)
    finally:
        pynvml.nvmlLib = None
        pynvml._nvmlGetFunctionPointer_cache.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=3000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as sysfs:
        # Desktop-like sysfs: runtime PM present, GPUs awake (the check is part of the cost).
        for bus in ("0000:01:00.0", "0000:02:00.0"):
            folder = Path(sysfs, "sys", "bus", "pci", "devices", bus, "power")
            folder.mkdir(parents=True)
            (folder / "runtime_status").write_text("active\n")

        recorder = Recorder(fake_machine())
        source = NvmlSource(recorder, sysfs_root=sysfs, runtime_pm=True, system_probe=NoSystem())
        source.open()
        source.read(ALL, time.time())  # probe once, as the app does at start
        recorder.recording = []
        source.read(ALL, time.time())
        calls = recorder.recording
        recorder.recording = None

        def bare() -> None:
            for _, fn, a, k in calls:
                fn(*a, **k)

        t_source = cpu_per_call(lambda: source.read(ALL, time.time()), args.samples)
        t_bare = cpu_per_call(bare, args.samples)
        t_fast = cpu_per_call(lambda: source.read(Tier.FAST, time.time()), args.samples)

        full = NvmlSource(fake_machine(), sysfs_root=sysfs, runtime_pm=True)
        full.open()
        full.read(ALL, time.time())
        t_full = cpu_per_call(lambda: full.read(ALL, time.time()), max(200, args.samples // 5))
        source.close()
        full.close()
    t_binding = real_binding_cost(calls, args.samples)

    print(f"NVML calls per full sample (2 GPUs, all tiers): {len(calls)}")
    print(f"bare fake NVML calls:            {t_bare * 1e6:8.1f} us CPU per sample   (baseline)")
    print(f"NvmlSource.read(all tiers):      {t_source * 1e6:8.1f} us CPU per sample   "
          f"ratio {t_source / t_bare:.2f}x")
    print(f"NvmlSource.read(FAST tier only): {t_fast * 1e6:8.1f} us CPU per sample")
    print(f"with psutil system + process CPU:{t_full * 1e6:8.1f} us CPU per sample   "
          f"ratio {t_full / t_bare:.2f}x")
    print(f"at 1 Hz the full NVML-side sample is {t_source * 100:.4f} % of one core")
    if t_binding is not None:
        overhead = t_source - t_bare
        print(f"real nvidia-ml-py wrappers, same calls, over a do-nothing C library: {t_binding * 1e6:8.1f} us "
              f"per sample (the Python cost any NVML caller pays before the driver does any work)")
        print(f"wrapper overhead {overhead * 1e6:.1f} us on top of that: "
              f"{(t_binding + overhead) / t_binding:.2f}x the bare binding cost, driver time excluded")


if __name__ == "__main__":
    main()
