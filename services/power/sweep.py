"""The efficiency sweep: throughput, power and energy at a few power limits, then the limit back.

For each limit (the default down to the card's minimum) the sweep sets the limit, runs each
workload long enough to reach steady clocks, and averages what NVML reports over the measured
part: power from the energy counter (joules over seconds) where the card has one, else the mean
of the power readings; SM clock, temperatures and fan from the same readings. Whatever happens
(a refused privilege, a lost GPU, a failed workload, Ctrl+C), the original limit is put back
before the sweep returns; if the process is killed, the journal entry written before the change
restores it on the next start.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from collections.abc import Callable, Sequence
from typing import Any

from services.i18n import Msg, translate
from services.power.limits import LIMIT_TOLERANCE_W, REASON_SWEEP, PowerLimitSetter
from services.power.model import COPY, MATMUL, UNITS, PowerError, Sweep, SweepPoint, WorkloadJob
from services.power.workload import WorkloadRunner
from services.telemetry.model import DeviceState, GpuInfo, GpuSample, Tier
from services.telemetry.nvml import DeviceFailure, PowerLimits, read_energy_mj, read_power_limits

# 100/90/80/70/60 % of the default limit, as the example; clamped to what the card accepts.
DEFAULT_SHARES = (1.0, 0.9, 0.8, 0.7, 0.6)
DEFAULT_SECONDS = 25.0  # per point and workload: GPU Boost settles in 5-10 s under a steady load
MIN_SECONDS = 5.0
WARMUP_SHARE = 0.35  # the first third is warm-up, not measured
# A process holding this much GPU memory is a job; a desktop compositor holds less.
BUSY_MIB = 256.0
POWER_CAP = "power_cap"  # services.telemetry.throttle code


@dataclass(frozen=True, slots=True)
class SweepConfig:
    gpu_index: int = 0
    seconds: float = DEFAULT_SECONDS
    shares: Sequence[float] = DEFAULT_SHARES
    limits_w: Sequence[float] = ()  # explicit limits instead of shares
    kinds: Sequence[str] = (MATMUL, COPY)
    keep_share: float = 0.95


@dataclass
class Progress:
    """What the sweep is doing now, for a progress line or bar."""

    step: int
    steps: int
    limit_w: float
    kind: str
    message: Msg | str = ""


class GpuAccess:
    """One GPU through the app's NVML source: its facts, a reading, its limits and energy."""

    def __init__(self, source: Any, index: int) -> None:
        self.source = source  # an opened NvmlSource
        self.index = index
        infos = [g for g in source.devices() if g.index == index]
        if not infos:
            raise PowerError(translate("Power", "there is no NVIDIA GPU {gpu} (see: python main.py monitor --once)").format(gpu=index))
        self.info: GpuInfo = infos[0]

    @property
    def uuid(self) -> str:
        return self.info.uuid

    def _handle(self) -> Any:
        return self.source.nvml.device_call("nvmlDeviceGetHandleByUUID", self.uuid)

    def limits(self) -> PowerLimits:
        return read_power_limits(self.source.nvml, self.uuid, self._handle())

    def limit_w(self, uuid: str | None = None) -> float | None:
        try:
            return self.limits().current_w
        except DeviceFailure:
            return None

    def energy_mj(self) -> int | None:
        return read_energy_mj(self.source.nvml, self.uuid, self._handle())

    def sample(self) -> GpuSample:
        snap = self.source.read(Tier.FAST | Tier.SLOW, time.time())
        for s in snap.samples:
            if s.uuid == self.uuid:
                if s.state != DeviceState.OK:
                    raise DeviceFailure(None, s.describe_state() or s.state.value)
                return s
        raise DeviceFailure(None, translate("Power", "GPU {gpu} is gone").format(gpu=self.index))

    def other_jobs(self, own_pids: Sequence[int] = ()) -> list[tuple[int, str, float]]:
        """(pid, name, MiB) of processes holding real memory on this GPU: the sweep would share it."""
        sample = self.sample()
        return [(p.pid, p.name or "?", p.used_mib or 0.0) for p in sample.processes or ()
                if p.pid not in own_pids and (p.used_mib or 0.0) >= BUSY_MIB]


def limit_reader(source: Any) -> Callable[[str], float | None]:
    """The enforced limit of any GPU of ``source`` by UUID (None when it cannot be read)."""
    def read(uuid: str) -> float | None:
        try:
            handle = source.nvml.device_call("nvmlDeviceGetHandleByUUID", uuid)
            return read_power_limits(source.nvml, uuid, handle).current_w
        except DeviceFailure:
            return None
    return read


def plan_limits(limits: PowerLimits, config: SweepConfig) -> list[float]:
    """Whole-watt limits, highest first, within the card's constraints, without repeats."""
    low, high = limits.min_w, limits.max_w
    if config.limits_w:
        wanted = list(config.limits_w)
    else:
        base = limits.default_w or limits.current_w
        if base is None:
            raise PowerError(translate("Power", "the card does not report its power limit; a sweep needs it"))
        wanted = [base * s for s in config.shares]
    out: list[float] = []
    for w in wanted:
        if low is not None:
            w = max(w, low)
        if high is not None:
            w = min(w, high)
        w = float(round(w))
        if w not in out:
            out.append(w)
    return sorted(out, reverse=True)


class _Stopped(Exception):
    """The user pressed Stop: the running workload is ended at its next tick."""


class _Meter:
    """Readings taken while a workload runs; averages over the measured part."""

    def __init__(self, gpu: GpuAccess, clock: Callable[[], float],
                 should_stop: Callable[[], bool] = lambda: False) -> None:
        self.gpu = gpu
        self.clock = clock
        self.should_stop = should_stop
        self.samples: list[GpuSample] = []
        self.energy: list[tuple[float, int]] = []

    def tick(self, measuring: bool) -> None:
        if self.should_stop():
            raise _Stopped  # the runner kills the workload on the way out
        sample = self.gpu.sample()  # raises DeviceFailure for a lost GPU
        if not measuring:
            return
        self.samples.append(sample)
        energy = self.gpu.energy_mj()
        if energy is not None:
            self.energy.append((self.clock(), energy))

    def point(self, limit_w: float, kind: str, value: float, unit: str, seconds: float) -> SweepPoint:
        def mean(values: list[float | None]) -> float | None:
            vals = [v for v in values if v is not None]
            return sum(vals) / len(vals) if vals else None

        power = energy_j = None
        if len(self.energy) >= 2 and self.energy[-1][0] > self.energy[0][0]:
            (t0, e0), (t1, e1) = self.energy[0], self.energy[-1]
            energy_j = (e1 - e0) / 1000.0
            power = energy_j / (t1 - t0)
        else:
            power = mean([s.power_w for s in self.samples])
            energy_j = power * seconds if power is not None else None
        reasons = [s.throttle_reasons for s in self.samples if s.throttle_reasons is not None]
        capped = sum(1 for r in reasons if POWER_CAP in r) / len(reasons) if reasons else None
        return SweepPoint(limit_w, kind, value, unit, None if power is None else round(power, 1),
                          None if energy_j is None else round(energy_j, 1), round(seconds, 2),
                          mean([s.sm_clock_mhz for s in self.samples]), mean([s.temperature_c for s in self.samples]),
                          mean([s.memory_temperature_c for s in self.samples]), mean([s.fan_pct for s in self.samples]),
                          capped)


def run_sweep(gpu: GpuAccess, setter: PowerLimitSetter, runner: WorkloadRunner, config: SweepConfig,
              on_progress: Callable[[Progress], None] = lambda p: None,
              clock: Callable[[], float] = time.monotonic, should_stop: Callable[[], bool] = lambda: False) -> Sweep:
    """Measure every workload at every planned limit; the original limit is back when this returns.

    A refused limit change does not end the sweep: it measures at the current limit and says so
    in ``notes``. A lost GPU ends it with the points so far. Raises PowerError only before the
    first change (no limit readable, no PyTorch) and when restoring the original limit failed."""
    limits = gpu.limits()
    if limits.current_w is None:
        raise PowerError(translate("Power", "the card does not report its power limit; a sweep needs it"))
    original = limits.current_w
    first = gpu.sample()
    sweep = Sweep(gpu.info.name, gpu.uuid, gpu.index, gpu.info.driver_version or "", time.time(),
                  first.temperature_c, limits.default_w, limits.min_w, limits.max_w, original,
                  keep_share=config.keep_share, limits_w=plan_limits(limits, config))
    seconds = max(MIN_SECONDS, config.seconds)
    steps = len(sweep.limits_w) * len(config.kinds)
    step = 0
    changed = False
    failure: BaseException | None = None
    try:
        for limit in sweep.limits_w:
            if should_stop():
                sweep.notes.append(translate("Power", "stopped before the end"))
                break
            if abs(limit - (gpu.limit_w() or original)) > LIMIT_TOLERANCE_W:
                outcome = setter.apply(gpu.index, gpu.uuid, gpu.info.name, original, limit, REASON_SWEEP)
                if not outcome.ok:
                    sweep.notes.append(translate("Power", "could not set {watts} W: {reason}").format(
                        watts=f"{limit:g}", reason=outcome.message))
                    if not sweep.points:  # still report what the card does at its current limit
                        _measure(gpu, runner, config, sweep, original, seconds, clock, on_progress, step, steps,
                                 should_stop)
                    break
                changed = True
            for kind in config.kinds:
                step += 1
                on_progress(Progress(step, steps, limit, kind))
                _measure_one(gpu, runner, config, sweep, limit, kind, seconds, clock, should_stop)
        else:
            sweep.complete = True
    except _Stopped:
        sweep.notes.append(translate("Power", "stopped before the end"))
    except DeviceFailure as exc:
        sweep.notes.append(translate("Power", "the GPU stopped answering during the sweep: {reason}").format(
            reason=exc.text or exc.message))
    except PowerError as exc:
        if not sweep.points:
            failure = exc
        sweep.notes.append(exc.message)
    except BaseException as exc:  # Ctrl+C, a bug: restore first, then let it go on
        failure = exc
    finally:
        if changed:
            sweep.restored = _restore(gpu, setter, sweep)
    if failure is not None:
        raise failure
    return sweep


def _measure(gpu: GpuAccess, runner: WorkloadRunner, config: SweepConfig, sweep: Sweep, limit: float,
             seconds: float, clock: Callable[[], float], on_progress: Callable[[Progress], None],
             step: int, steps: int, should_stop: Callable[[], bool]) -> None:
    for kind in config.kinds:
        on_progress(Progress(step, steps, limit, kind))
        _measure_one(gpu, runner, config, sweep, limit, kind, seconds, clock, should_stop)


def _measure_one(gpu: GpuAccess, runner: WorkloadRunner, config: SweepConfig, sweep: Sweep, limit: float,
                 kind: str, seconds: float, clock: Callable[[], float],
                 should_stop: Callable[[], bool] = lambda: False) -> None:
    meter = _Meter(gpu, clock, should_stop)
    job = WorkloadJob(kind, gpu.index, seconds, round(seconds * WARMUP_SHARE, 1))
    result = runner.run(job, meter.tick)
    sweep.points.append(meter.point(limit, kind, result.value, result.unit or UNITS[kind], result.seconds))


def _restore(gpu: GpuAccess, setter: PowerLimitSetter, sweep: Sweep) -> bool:
    """Put the limit from before the sweep back (the journal entry goes once it is back)."""
    changes = [c for c in setter.journal.load() if c.uuid == gpu.uuid and c.reason == REASON_SWEEP]
    ok = True
    for change in reversed(changes):
        outcome = setter.revert(change)
        if not outcome.ok:
            ok = False
            sweep.notes.append(translate(
                "Power", "could not restore {watts} W: {reason}; it is restored at the next start of the app (or the next reboot)").format(
                    watts=f"{change.previous_w:g}", reason=outcome.message))
    return ok
