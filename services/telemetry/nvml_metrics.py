"""How each GPU metric is read from NVML: the entry points to try (newest first) and the conversions.

``NvmlSource`` asks through ``MetricReader``, so one failing metric costs only that
metric; the plan keeps the call details (struct versions, enum values, fallbacks
for older drivers and bindings) out of the source's bookkeeping.
"""
from __future__ import annotations

import functools
import time
from typing import Any, NamedTuple
from collections.abc import Callable

from services.telemetry.nvml import (
    ERROR_NOT_FOUND, ERROR_NOT_SUPPORTED, Attempt, DeviceFailure, Nvml, clean, error_code,
)

_MIB = 2**20
# nvml.h enum values (part of the C ABI, identical in every binding version).
_TEMPERATURE_GPU = 0
_THRESHOLD_SHUTDOWN = 0
_THRESHOLD_SLOWDOWN = 1
_CLOCK_SM = 1
_CLOCK_MEM = 2
_ERROR_CORRECTED = 0
_ERROR_UNCORRECTED = 1
_VOLATILE_ECC = 0
FEATURE_ENABLED = 1
PSTATE_UNKNOWN = 32
_FI_DEV_MEMORY_TEMP = 82
_MEMORY_V2 = 0x02000028  # nvmlMemory_v2: struct version tag for nvmlDeviceGetMemoryInfo_v2
_FIELD_VALUE_ATTR = {0: "dVal", 1: "uiVal", 2: "ulVal", 3: "ullVal", 4: "sllVal", 5: "siVal", 6: "usVal"}


class MetricReader:
    """``Nvml.query`` for one GPU's read, where one failing metric is only that metric.

    An unknown NVML error on the power reading or the process list leaves that value out
    (None) and the GPU stays OK; only when every metric of the read failed, or the error
    is about the whole GPU (lost, driver gone, reset), does the GPU go to an error state.
    """

    # Errors that say the whole GPU (or the driver) is gone, whatever the metric.
    # GPU_IS_LOST, DRIVER_NOT_LOADED, RM version mismatch, UNINITIALIZED, RESET_REQUIRED, INSUFFICIENT_POWER
    WHOLE_GPU = frozenset({15, 9, 18, 1, 16, 8})

    def __init__(self, nvml: Nvml) -> None:
        self._nvml = nvml
        self.answered = 0
        self.failed: list[tuple[str, DeviceFailure]] = []

    def __call__(self, device: str, metric: str, attempts: Any, convert: Callable[[Any], Any] | None = None) -> Any:
        calls = self._nvml.calls
        try:
            value = self._nvml.query(device, metric, attempts, convert)
        except DeviceFailure as failure:
            if failure.code in self.WHOLE_GPU:
                raise
            self.failed.append((metric, failure))
            return None
        if self._nvml.calls != calls:  # the driver answered (a metric known unsupported asks nothing)
            self.answered += 1
        return value

    def check(self) -> None:
        """Raise the first failure when nothing at all could be read (the GPU itself is failing)."""
        if self.failed and not self.answered:
            raise self.failed[0][1]


def read_plan(nvml: Nvml, handle: Any, wall_clock: Callable[[], float] = time.time) -> dict[str, tuple[Attempt, ...]]:
    """How to read each metric of one GPU, newest entry point first.

    ``wall_clock`` is the CPU clock (seconds since the epoch) NVML stamps its per-process
    samples with; the process utilisation window is measured back from it.
    """
    h = (handle,)

    def one(function: str, *args: Any) -> tuple[Attempt, ...]:
        return (Attempt(function, h + args),)

    return {
        "name": one("nvmlDeviceGetName"),
        "pci": (Attempt("nvmlDeviceGetPciInfo_v3", h), Attempt("nvmlDeviceGetPciInfo", h)),
        "utilization": one("nvmlDeviceGetUtilizationRates"),
        "memory": (Attempt("nvmlDeviceGetMemoryInfo", h, {"version": _MEMORY_V2}),
                   Attempt("nvmlDeviceGetMemoryInfo", h)),
        "temperature": (Attempt("nvmlDeviceGetTemperatureV", h + (_TEMPERATURE_GPU,)),
                        Attempt("nvmlDeviceGetTemperature", h + (_TEMPERATURE_GPU,))),
        "memory_temperature": (Attempt(functools.partial(_field_value, nvml), (handle, _FI_DEV_MEMORY_TEMP)),),
        "power": one("nvmlDeviceGetPowerUsage"),
        "power_limit": (Attempt("nvmlDeviceGetEnforcedPowerLimit", h),
                        Attempt("nvmlDeviceGetPowerManagementLimit", h)),
        "power_limit_default": one("nvmlDeviceGetPowerManagementDefaultLimit"),
        "energy": one("nvmlDeviceGetTotalEnergyConsumption"),
        "sm_clock": one("nvmlDeviceGetClockInfo", _CLOCK_SM),
        "mem_clock": one("nvmlDeviceGetClockInfo", _CLOCK_MEM),
        "sm_clock_max": one("nvmlDeviceGetMaxClockInfo", _CLOCK_SM),
        "mem_clock_max": one("nvmlDeviceGetMaxClockInfo", _CLOCK_MEM),
        "pstate": (Attempt("nvmlDeviceGetPerformanceState", h), Attempt("nvmlDeviceGetPowerState", h)),
        "throttle": (Attempt("nvmlDeviceGetCurrentClocksEventReasons", h),
                     Attempt("nvmlDeviceGetCurrentClocksThrottleReasons", h)),
        "throttle_supported": (Attempt("nvmlDeviceGetSupportedClocksEventReasons", h),
                               Attempt("nvmlDeviceGetSupportedClocksThrottleReasons", h)),
        "temp_slowdown": one("nvmlDeviceGetTemperatureThreshold", _THRESHOLD_SLOWDOWN),
        "temp_shutdown": one("nvmlDeviceGetTemperatureThreshold", _THRESHOLD_SHUTDOWN),
        "fan": one("nvmlDeviceGetFanSpeed"),
        "pcie_gen": one("nvmlDeviceGetCurrPcieLinkGeneration"),
        "pcie_width": one("nvmlDeviceGetCurrPcieLinkWidth"),
        "pcie_gen_max": one("nvmlDeviceGetMaxPcieLinkGeneration"),
        "pcie_width_max": one("nvmlDeviceGetMaxPcieLinkWidth"),
        "encoder": one("nvmlDeviceGetEncoderUtilization"),
        "decoder": one("nvmlDeviceGetDecoderUtilization"),
        "ecc_mode": one("nvmlDeviceGetEccMode"),
        "ecc_corrected": one("nvmlDeviceGetTotalEccErrors", _ERROR_CORRECTED, _VOLATILE_ECC),
        "ecc_uncorrected": one("nvmlDeviceGetTotalEccErrors", _ERROR_UNCORRECTED, _VOLATILE_ECC),
        "processes_compute": tuple(Attempt(f"nvmlDeviceGetComputeRunningProcesses_{v}", h,
                                           validate=plausible_process_list) for v in ("v3", "v2", "v1")),
        "process_utilization": (Attempt(functools.partial(process_utilization, nvml, wall_clock=wall_clock),
                                        h),),
        "processes_graphics": tuple(Attempt(f"nvmlDeviceGetGraphicsRunningProcesses_{v}", h,
                                            validate=plausible_process_list) for v in ("v3", "v2", "v1")),
    }


def _field_value(nvml: Nvml, handle: Any, field_id: int) -> Any:
    """One NVML field value (e.g. memory temperature) as a plain number.

    A field carries its own return code; a non-success one is raised as that
    NVMLError so the probing in ``Nvml.query`` treats it like any other call.
    """
    values = nvml.call("nvmlDeviceGetFieldValues", handle, [field_id])
    entry = values[0]
    if entry.nvmlReturn != 0:
        raise nvml.lib.NVMLError(entry.nvmlReturn)
    attr = _FIELD_VALUE_ATTR.get(entry.valueType)
    if attr is None:
        raise nvml.lib.NVMLError(ERROR_NOT_SUPPORTED)
    return getattr(entry.value, attr)


class ProcessUtilization(NamedTuple):
    """One process's share of a GPU's engines over the last sampling window, in %."""

    sm_pct: float | None
    encoder_pct: float | None
    decoder_pct: float | None


# The window the per-process shares are averaged over, as nvidia-smi pmon's one-second rows.
PROCESS_WINDOW_S = 1.0


def process_utilization(nvml: Nvml, handle: Any,
                        wall_clock: Callable[[], float] = time.time) -> dict[int, ProcessUtilization]:
    """pid -> its share of the GPU's engines over the last second (the newest sample per process).

    ``nvmlDeviceGetProcessUtilization(handle, lastSeenTimeStamp)`` returns the samples taken
    after that CPU timestamp (µs since the epoch), and each sample's share is averaged from that
    timestamp on: pass 0, or an old timestamp, and a process that has just started loading the GPU
    reads as a fraction of what it uses now. Seen on an H200 under a steady PyTorch load: 56 % for
    lastSeenTimeStamp 0 while ``nvidia-smi pmon`` showed 98 %; nvtop and nvitop found the same
    (https://github.com/Syllo/nvtop/pull/91, https://github.com/XuehaiPan/nvitop/issues/83).
    So every read asks for the last second, as nvitop does since
    https://github.com/XuehaiPan/nvitop/pull/85: a fixed window that still holds a sample when
    the driver samples less often than we read. NOT_FOUND means "no sample in that window"
    (nvml.h), which is an answer (no process used the GPU), not "unsupported".
    """
    since_us = int((wall_clock() - PROCESS_WINDOW_S) * 1_000_000)
    try:
        samples = nvml.call("nvmlDeviceGetProcessUtilization", handle, since_us)
    except nvml.lib.NVMLError as exc:
        if error_code(exc) == ERROR_NOT_FOUND:
            return {}
        raise
    newest: dict[int, Any] = {}
    for sample in samples:
        pid = int(sample.pid)
        kept = newest.get(pid)
        if kept is None or int(sample.timeStamp) >= int(kept.timeStamp):
            newest[pid] = sample
    return {pid: ProcessUtilization(as_pct(s.smUtil), as_pct(s.encUtil), as_pct(s.decUtil))
            for pid, s in newest.items()}


def plausible_process_list(listed: Any) -> bool:
    """False for a process list read with the wrong struct layout.

    Some R535 drivers (535.98/535.104) shipped a ``_v3`` symbol whose struct
    differs from the one the binding reads (nvitop #75, #89, #94; gpustat
    #161): every entry after the first is shifted, which shows as pid 0,
    pid 0xFFFFFFFF or absurd memory sizes. Then the older entry point is used.
    """
    for proc in listed:
        pid = getattr(proc, "pid", None)
        used = clean(getattr(proc, "usedGpuMemory", None))
        if not isinstance(pid, int) or not 0 < pid < 0xFFFFFFFF:
            return False
        if used is not None and not 0 <= used < 2**48:
            return False
    return True


def as_mib(value: Any) -> float | None:
    value = clean(value)
    return value / _MIB if isinstance(value, (int, float)) else None


def as_float(value: Any) -> float | None:
    value = clean(value)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def scaled(value: Any, factor: float) -> float | None:
    value = as_float(value)
    return value * factor if value is not None else None


def as_pct(value: Any) -> float | None:
    value = as_float(value)
    return value if value is not None and 0.0 <= value <= 100.0 else None


def first_value(value: Any) -> Any:
    return value[0] if isinstance(value, (list, tuple)) and value else None
