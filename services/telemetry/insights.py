"""Training-run insights: what is slowing this GPU down, in plain words.

``analyze(history, snapshot, system)`` looks at the last couple of minutes in
the history plus the newest snapshot and returns ``Insight`` objects with a
translated title, a detail sentence and the usual fixes. Nothing here is a
guess dressed up as a fact: when neither the CPU nor the disk explains a
starved GPU, it says that nothing visible does.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from services.i18n import Msg, translate
from services.telemetry.history import History
from services.telemetry.model import DeviceState, GpuInfo, GpuSample, ProcessSample, Snapshot, SystemSample
from services.telemetry.throttle import BY_CODE, warning_codes

WINDOW_S = 120.0  # judge utilisation over two minutes: long enough to see a pattern, short enough to be "now"
MIN_SAMPLES = 30  # fewer readings than that (the app just started) say nothing yet
# A bare CUDA context takes a few hundred MiB; a gigabyte or more means a model
# or a dataset is on the card, i.e. a job that should be keeping it busy.
HOLDS_MEMORY_MIB = 1024.0
# A fed training loop keeps the GPU above ~90 %. Under 60 % on average, more
# than a third of the run is lost; repeated drops to ~0 % mean the GPU waits
# for its next batch.
LOW_UTIL_PCT = 60.0
NEAR_ZERO_PCT = 5.0
ZERO_SHARE = 0.2
# iowait this high means cores sit idle waiting on storage (a desktop under a
# training load shows ~1 %).
IOWAIT_BOUND_PCT = 15.0
# The whole CPU is busy: workers cannot prepare batches any faster.
CPU_BOUND_PCT = 85.0
# One process at ~100 % of one core while the rest of the CPU is free: a
# single-threaded input pipeline (DataLoader with num_workers=0, or the GIL).
ONE_CORE_PCT = (90.0, 115.0)
# Clock drops are judged only under real load; at low load clocks fall by design.
CLOCK_LOAD_PCT = 30.0
PEAK_WINDOW_S = 1800.0  # "the clock this card holds under load here": the last 30 min
CLOCK_DROP_PCT = 15.0  # unexplained drops smaller than this are GPU Boost's normal wander
# GPU Boost gives up speed in steps as the core warms, and these cards' default
# temperature target is 83 °C; 80 °C warns a little before the hard throttle.
HOT_C = 80.0
# NVML reports memory temperature on HBM data-centre parts only (NVML_FI_DEV_MEMORY_TEMP); their
# "Memory Max Operating Temp" in nvidia-smi -q is 85 °C (A100, HBM2e) to 95 °C (H100, HBM3).
# Two minutes at 85 °C or more is named apart from the core's temperature.
MEMORY_HOT_C = 85.0
# Without a sweep, the suggested cut: 10 % of the current limit (the default step).
LIMIT_STEP = 0.10


@dataclass(frozen=True, slots=True)
class Insight:
    code: str  # stable id: gpu_starved_cpu, gpu_starved_process, gpu_starved_disk, gpu_starved_unknown,
    #            clocks_throttled, clocks_dropped, running_hot, memory_hot
    gpu_index: int
    severity: str  # "info" | "warning"
    title: Msg
    detail: Msg
    fixes: tuple[Msg, ...] = ()
    since: float | None = None  # wall time the condition began, when known
    # A fix the app can apply (with preview and undo): lower the power limit to this many watts.
    suggested_limit_w: float | None = None

    def to_json(self) -> dict:
        return {"code": self.code, "gpu_index": self.gpu_index, "severity": self.severity,
                "title": str(self.title), "detail": str(self.detail), "fixes": [str(f) for f in self.fixes],
                "since": self.since, "suggested_limit_w": self.suggested_limit_w}


FIX_WORKERS = translate("Insights", "Give the DataLoader more worker processes (num_workers, e.g. the number of CPU cores minus one) and keep them alive between epochs (persistent_workers=True).")
FIX_PIN = translate("Insights", "Use pin_memory=True and .to(device, non_blocking=True) so copies to the GPU overlap with compute.")
FIX_GPU_PREPROCESS = translate("Insights", "Move decoding and augmentation to the GPU (for example NVIDIA DALI or torchvision transforms on GPU tensors), or pre-process the dataset once and cache it.")
FIX_STORAGE = translate("Insights", "Put the dataset on a local SSD/NVMe (not a network share or a hard disk), or cache it in RAM if it fits.")
FIX_SHARDS = translate("Insights", "Pack many small files into larger shards (WebDataset, TFRecord, LMDB) and raise prefetch_factor.")
FIX_PROFILE = translate("Insights", "Profile one training step (torch.profiler): look for .item()/.cpu() calls that synchronise every step, logging that blocks, or a batch size too small to fill the GPU.")
FIX_AIRFLOW = translate("Insights", "Improve airflow: clean dust filters, add or speed up case fans, leave space between cards.")
FIX_FAN_CURVE = translate("Insights", "Use a more aggressive fan curve for long runs.")
FIX_POWER_LIMIT = translate("Insights", "Lower the power limit a little (for example nvidia-smi -pl): a 10-20% lower limit usually costs only a few percent of speed and runs much cooler.")
FIX_POWER_NORMAL = translate("Insights", "Being held at the power limit is normal under a heavy load. If the card allows it, a higher limit or an undervolt gives more speed.")
FIX_CABLES = translate("Insights", "Check the power cables and adapters are fully seated and the power supply is large enough for the card's peaks.")
FIX_PSU_PAGE = translate("Insights", "Size the power supply and check the cables for this card on the Build & PSU page (python main.py psu).")
FIX_SET_LIMIT = translate("Insights", "Lower the power limit to {watts} W ({how}): python main.py power --set-limit {watts} --gpu {gpu}; undo with power --undo.")
HOW_SWEEP = translate("Insights", "the limit your sweep recommends")
HOW_STEP = translate("Insights", "10% lower; a sweep measures what it costs: python main.py power --sweep")
FIX_MEMORY_COOLING = translate("Insights", "The memory, not the core, is hot: check the airflow over the card's memory side (server fans, blanking panels, inlet temperature); a lower power limit also cools it.")


def analyze(history: History, snapshot: Snapshot | None, system: SystemSample | None = None,
            sweep_limits: dict[str, float] | None = None) -> list[Insight]:
    """Insights for every GPU in ``snapshot`` (the newest reading).

    ``sweep_limits``: UUID -> the limit a saved efficiency sweep recommends for that GPU; a heat
    or power-cap insight then offers that limit instead of a 10% cut."""
    if snapshot is None:
        return []
    system = system if system is not None else snapshot.system
    infos = {g.index: g for g in snapshot.gpus}
    out: list[Insight] = []
    for sample in snapshot.samples:
        if sample.state != DeviceState.OK:
            continue
        info = infos.get(sample.index)
        starved = _starved(history, snapshot.t, sample, system)
        if starved:
            out.append(starved)
        suggested = _suggested_limit(sample, info, (sweep_limits or {}).get(sample.uuid))
        out += _clocks(history, snapshot.t, sample, suggested)
        hot = _hot(sample, info, suggested)
        if hot:
            out.append(hot)
        memory_hot = _memory_hot(history, snapshot.t, sample)
        if memory_hot:
            out.append(memory_hot)
    return out


def _suggested_limit(sample: GpuSample, info: GpuInfo | None,
                     from_sweep: float | None) -> tuple[float, Msg] | None:
    """(watts, the fix's line) for a lower power limit, or None when it cannot be lower."""
    current = sample.power_limit_w
    if current is None:
        return None
    if from_sweep is not None and from_sweep < current - 1:
        watts, how = float(round(from_sweep)), HOW_SWEEP
    else:
        watts, how = float(round(current * (1 - LIMIT_STEP))), HOW_STEP
    return watts, FIX_SET_LIMIT.format(watts=f"{watts:g}", how=how, gpu=sample.index)


def _finite_mean(a: np.ndarray) -> float | None:
    a = a[np.isfinite(a)]
    return float(a.mean()) if a.size else None


def _key(sample: GpuSample) -> int | str:
    """How the history knows this GPU: its UUID (an index can move to another card)."""
    return sample.uuid or sample.index


def _holders(sample: GpuSample) -> list[ProcessSample]:
    if not sample.processes:
        return []
    return [p for p in sample.processes
            if "compute" in p.kind and (p.used_mib is None or p.used_mib >= HOLDS_MEMORY_MIB)]


def _starved(history: History, t1: float, sample: GpuSample, system: SystemSample | None) -> Insight | None:
    holders = _holders(sample)
    if not holders:
        return None
    t0 = t1 - WINDOW_S
    _, util = history.series(_key(sample), "utilization_pct", t0, t1)
    util = util[np.isfinite(util)]
    if util.size < MIN_SAMPLES:
        return None
    mean_util = float(util.mean())
    zero_share = float((util <= NEAR_ZERO_PCT).mean())
    if mean_util >= LOW_UTIL_PCT and zero_share < ZERO_SHARE:
        return None
    _, cpu_series = history.system_series("cpu_pct", t0, t1)
    _, iowait_series = history.system_series("iowait_pct", t0, t1)
    _, read_series = history.system_series("disk_read_mib_s", t0, t1)
    cpu = _finite_mean(cpu_series)
    iowait = _finite_mean(iowait_series)
    read = _finite_mean(read_series)
    if cpu is None and system is not None:
        cpu, iowait, read = system.cpu_pct, system.iowait_pct, system.disk_read_mib_s
    busiest = max(holders, key=lambda p: p.cpu_pct or 0.0)
    proc_cpu = busiest.cpu_pct
    pattern = (translate("Insights", "keeps dropping to 0%") if zero_share >= ZERO_SHARE
               else translate("Insights", "stays low"))
    args = dict(gpu=sample.index, util=round(mean_util), pattern=pattern, process=busiest.name, pid=busiest.pid,
                cpu=_fmt(cpu), proc_cpu=_fmt(proc_cpu), iowait=_fmt(iowait), read=_fmt(read))
    title = translate("Insights", "GPU {gpu} is waiting for data").format(**args)
    if iowait is not None and iowait >= IOWAIT_BOUND_PCT:
        return Insight("gpu_starved_disk", sample.index, "warning", title, translate(
            "Insights", "Utilisation {pattern} (average {util}% over 2 minutes) while {process} (PID {pid}) holds GPU memory. The disk is the bottleneck: the CPU waits on storage {iowait}% of the time, reading {read} MiB/s."
        ).format(**args), (FIX_STORAGE, FIX_SHARDS, FIX_WORKERS), t0)
    if cpu is not None and cpu >= CPU_BOUND_PCT:
        return Insight("gpu_starved_cpu", sample.index, "warning", title, translate(
            "Insights", "Utilisation {pattern} (average {util}% over 2 minutes) while {process} (PID {pid}) holds GPU memory. The CPU is the bottleneck: it is {cpu}% busy overall ({process} itself uses {proc_cpu}%), so batches are not ready in time."
        ).format(**args), (FIX_GPU_PREPROCESS, FIX_WORKERS, FIX_PIN), t0)
    if proc_cpu is not None and ONE_CORE_PCT[0] <= proc_cpu <= ONE_CORE_PCT[1]:
        return Insight("gpu_starved_process", sample.index, "warning", title, translate(
            "Insights", "Utilisation {pattern} (average {util}% over 2 minutes). {process} (PID {pid}) uses one full CPU core ({proc_cpu}%) while the CPU as a whole is only {cpu}% busy: its data loading runs on a single thread."
        ).format(**args), (FIX_WORKERS, FIX_PIN, FIX_GPU_PREPROCESS), t0)
    return Insight("gpu_starved_unknown", sample.index, "info", title, translate(
        "Insights", "Utilisation {pattern} (average {util}% over 2 minutes) while {process} (PID {pid}) holds GPU memory, but neither the CPU ({cpu}% busy) nor the disk ({iowait}% iowait) looks like the bottleneck."
    ).format(**args), (FIX_PROFILE, FIX_WORKERS, FIX_PIN), t0)


def _clock_peak(history: History, gpu: int | str, t1: float) -> float | None:
    _, cols = history.series_many(gpu, ("sm_clock_mhz", "utilization_pct"), t1 - PEAK_WINDOW_S, t1)
    clocks, util = cols["sm_clock_mhz"], cols["utilization_pct"]
    loaded = clocks[np.isfinite(clocks) & np.isfinite(util) & (util >= 50)]
    if loaded.size < MIN_SAMPLES:
        return None
    return float(np.percentile(loaded, 95))


def _clocks(history: History, t1: float, sample: GpuSample,
            suggested: tuple[float, Msg] | None = None) -> list[Insight]:
    clock, util = sample.sm_clock_mhz, sample.utilization_pct
    if clock is None or util is None or util < CLOCK_LOAD_PCT:
        return []
    peak = _clock_peak(history, _key(sample), t1)
    drop = (peak - clock) / peak * 100.0 if peak else None
    codes = warning_codes(sample.throttle_reasons)
    if codes:
        code = codes[0]
        since = _since(history, _key(sample), code, t1)
        reason = BY_CODE[code]
        args = dict(gpu=sample.index, reason=reason.label, explanation=reason.explanation, clock=_fmt(clock),
                    peak=_fmt(peak), drop=_fmt(drop), since=_clock_time(since))
        if drop is not None and drop >= 1.0:
            detail = translate(
                "Insights", "{explanation} The SM clock is {clock} MHz, {drop}% below the {peak} MHz this card holds under load here, since {since}."
            ).format(**args)
        else:
            detail = translate("Insights", "{explanation} The SM clock is {clock} MHz; held back since {since}.").format(**args)
        fixes: tuple[Msg, ...]
        limit_w = None
        if code in ("sw_thermal", "hw_thermal"):
            fixes = (FIX_AIRFLOW, FIX_FAN_CURVE)
            if suggested is not None:
                limit_w, line = suggested
                fixes += (line,)
            else:
                fixes += (FIX_POWER_LIMIT,)
        elif code == "power_cap":
            fixes = (FIX_POWER_NORMAL,)
            if suggested is not None:  # the same work for less heat and power, at a small cost in speed
                limit_w, line = suggested
                fixes += (line,)
        elif code in ("hw_slowdown", "hw_power_brake"):
            fixes = (FIX_CABLES, FIX_PSU_PAGE, FIX_AIRFLOW)
        else:
            fixes = ()
        severity = "info" if code == "power_cap" else "warning"
        return [Insight("clocks_throttled", sample.index, severity,
                        translate("Insights", "GPU {gpu} clocks held back: {reason}").format(**args),
                        detail, fixes, since, limit_w)]
    if drop is not None and drop >= CLOCK_DROP_PCT and util >= 50:
        args = dict(gpu=sample.index, clock=_fmt(clock), peak=_fmt(peak), drop=_fmt(drop))
        return [Insight("clocks_dropped", sample.index, "info",
                        translate("Insights", "GPU {gpu} clocks dropped").format(**args),
                        translate("Insights", "The SM clock is {clock} MHz, {drop}% below the {peak} MHz this card holds under load here, and the driver reports no throttle reason.").format(**args),
                        (), None)]
    return []


def _since(history: History, gpu: int | str, code: str, t1: float) -> float:
    spans = history.throttle_intervals(gpu, code, t1 - 24 * 3600.0, t1)
    if spans and spans[-1][1] >= t1 - 10.0:
        return spans[-1][0]
    return t1


def _hot(sample: GpuSample, info: GpuInfo | None, suggested: tuple[float, Msg] | None = None) -> Insight | None:
    temp = sample.temperature_c
    if temp is None or temp < HOT_C:
        return None
    args = dict(gpu=sample.index, temp=_fmt(temp))
    limit_fix = (suggested[1],) if suggested is not None else (FIX_POWER_LIMIT,)
    return Insight("running_hot", sample.index, "warning",
                   translate("Insights", "GPU {gpu} is at {temp} °C and losing speed to heat").format(**args),
                   translate("Insights", "Above 80 °C the card gives up clock speed to stay within its temperature target, so the same job runs slower; long runs at this heat also age the card faster.").format(**args),
                   (FIX_AIRFLOW, FIX_FAN_CURVE, *limit_fix), None,
                   suggested[0] if suggested is not None else None)


def _memory_hot(history: History, t1: float, sample: GpuSample) -> Insight | None:
    """Sustained memory temperature, named apart from the core's (only HBM parts report it)."""
    if sample.memory_temperature_c is None or sample.memory_temperature_c < MEMORY_HOT_C:
        return None
    _, temps = history.series(_key(sample), "memory_temperature_c", t1 - WINDOW_S, t1)
    temps = temps[np.isfinite(temps)]
    if temps.size < MIN_SAMPLES or float(temps.min()) < MEMORY_HOT_C:
        return None
    args = dict(gpu=sample.index, temp=_fmt(float(temps.mean())), core=_fmt(sample.temperature_c))
    return Insight("memory_hot", sample.index, "warning",
                   translate("Insights", "GPU {gpu} memory is at {temp} °C (the core is at {core} °C)").format(**args),
                   translate("Insights", "The memory temperature has stayed at {temp} °C or more for two minutes. Hot memory slows itself down (less bandwidth, so slower token generation) and ages faster, even while the core temperature looks fine.").format(**args),
                   (FIX_MEMORY_COOLING,), None)


def _fmt(value: float | None) -> str:
    if value is None:
        return "?"
    return str(int(round(value)))


def _clock_time(t: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(t))
