"""One row of an nvidia-smi CSV log read: the known columns (any subset, any order, with or without units),
the cells converted, and a tick's values made into GpuInfo and GpuSample."""
from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from collections.abc import Callable

from services.telemetry.fields import GPU_FIELDS, METRIC_FIELDS, FieldSpec
from services.telemetry.model import DeviceState, GpuInfo, GpuSample
from services.telemetry.recording import T_MAX, T_MIN
from services.telemetry.throttle import BY_CODE, decode

NOT_AVAILABLE = {"", "n/a", "[n/a]", "[not supported]", "not supported", "[unknown error]",
                 "[insufficient permissions]", "[gpu requires reset]", "[gpu is lost]", "unknown"}
LOST_VALUES = {"[gpu is lost]", "[gpu requires reset]"}
TIMESTAMP_FORMATS = ("%Y/%m/%d %H:%M:%S.%f", "%Y/%m/%d %H:%M:%S", "%Y-%m-%d %H:%M:%S.%f",
                     "%Y-%m-%dT%H:%M:%S.%f", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S")


@dataclass(frozen=True, slots=True)
class Column:
    field: str  # GpuSample field, or "info:<GpuInfo field>", or a special key
    kind: str  # "float" | "int" | "pstate" | "mask" | "active" | "str"


def _sample_column(spec: FieldSpec) -> Column:
    if spec.role == "reasons":
        return Column("throttle_mask", "mask")
    if spec.name == "pstate":
        return Column("pstate", "pstate")  # "P2"
    if spec.role == "key":
        return Column(spec.name, "int" if spec.name == "index" else "str")
    return Column(spec.name, "int" if spec.integer else "float")


# nvidia-smi query names (lower case, units stripped) -> where the value goes: the sample
# fields' names from the field table, then the GPU facts and the special columns.
COLUMNS: dict[str, Column] = {
    **{name: _sample_column(spec) for spec in GPU_FIELDS for name in spec.smi},
    "power.default_limit": Column("info:power_limit_default_w", "float"),
    "clocks.gr": Column("graphics_clock", "float"),  # used for the SM clock when that is absent
    "clocks.current.graphics": Column("graphics_clock", "float"),
    "clocks.max.sm": Column("info:sm_clock_max_mhz", "float"),
    "clocks.max.memory": Column("info:mem_clock_max_mhz", "float"),
    "clocks.max.mem": Column("info:mem_clock_max_mhz", "float"),
    "pcie.link.gen.max": Column("info:pcie_gen_max", "int"),
    "pcie.link.gen.gpumax": Column("info:pcie_gen_max", "int"),
    "pcie.link.width.max": Column("info:pcie_width_max", "int"),
    "name": Column("info:name", "str"),
    "gpu_name": Column("info:name", "str"),
    "pci.bus_id": Column("info:pci_bus_id", "str"),
    "gpu_bus_id": Column("info:pci_bus_id", "str"),
    "driver_version": Column("info:driver_version", "str"),
    "timestamp": Column("timestamp", "str"),
}
# One-reason columns, e.g. clocks_throttle_reasons.sw_thermal_slowdown = Active
_REASON_SUFFIX = {
    "gpu_idle": "gpu_idle",
    "applications_clocks_setting": "clocks_setting",
    "sw_power_cap": "power_cap",
    "hw_slowdown": "hw_slowdown",
    "sync_boost": "sync_boost",
    "sw_thermal_slowdown": "sw_thermal",
    "hw_thermal_slowdown": "hw_thermal",
    "hw_power_brake_slowdown": "hw_power_brake",
    "display_clocks_setting": "display_clocks",
}
for _prefix in ("clocks_throttle_reasons", "clocks_event_reasons"):
    for _suffix, _code in _REASON_SUFFIX.items():
        COLUMNS[f"{_prefix}.{_suffix}"] = Column(f"reason:{_code}", "active")

_UNIT_RE = re.compile(r"\s*\[[^\]]*\]\s*$")
_NUMBER_RE = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)")


def column_key(header: str) -> str:
    """'utilization.gpu [%]' -> 'utilization.gpu'."""
    return _UNIT_RE.sub("", header.strip()).strip().lower()


def parse_timestamp(text: str) -> float | None:
    """Seconds since the epoch, or None: unreadable, or outside 1970-2100 (recording.T_MIN..T_MAX),
    which no real log holds and which would make the replay's time line absurdly long."""
    t = _parse_timestamp(text)
    return t if t is not None and T_MIN <= t <= T_MAX else None


def _parse_timestamp(text: str) -> float | None:
    text = text.strip()
    # Fast path for nvidia-smi's own "2026/11/21 09:15:02.417" (strptime is slow on big logs).
    if len(text) == 23 and text[4] == "/" and text[7] == "/" and text[13] == ":" and text[19] == ".":
        try:
            return dt.datetime(int(text[0:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]),
                               int(text[14:16]), int(text[17:19]), int(text[20:23]) * 1000).timestamp()
        except (ValueError, OverflowError, OSError):
            pass
    for fmt in TIMESTAMP_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).timestamp()
        except (ValueError, OverflowError, OSError):  # year 1 or 9999: out of the platform's range
            continue
    return None


def cell_number(text: str) -> float | None:
    try:
        value = float(text)  # the common case (nounits)
        return value if math.isfinite(value) else None
    except ValueError:
        pass
    match = _NUMBER_RE.match(text)
    return float(match.group(1)) if match else None


def _convert(kind: str, raw: str):
    text = raw.strip()
    if text.lower() in NOT_AVAILABLE:
        return None
    if kind == "str":
        return text
    if kind == "pstate":
        return int(text[1:]) if text[:1].upper() == "P" and text[1:].isdigit() else None
    if kind == "mask":
        try:
            return int(text, 16) if text.lower().startswith("0x") else int(text)
        except ValueError:
            return None
    if kind == "active":
        low = text.lower()
        if low in ("active", "yes", "1"):
            return True
        if low in ("not active", "no", "0"):
            return False
        return None
    value = cell_number(text)
    if value is None:
        raise ValueError(f"not a number: {text!r}")
    return int(value) if kind == "int" else value

_SLOW = object()


def _fast_number(raw: str):
    """The common cells ("87", "87 %", "312.45 W") without regexes; _SLOW for anything else."""
    try:
        value = float(raw)
    except ValueError:
        space = raw.find(" ")
        if space <= 0:
            return _SLOW
        try:
            value = float(raw[:space])
        except ValueError:
            return _SLOW
    if value != value or value in (math.inf, -math.inf):
        return None
    return value


def row_values(row: list[str], header: list[str], known: list[Column | None]) -> dict | None:
    if len(row) != len(header):
        return None
    values: dict = {}
    try:
        for col, raw in zip(known, row, strict=True):
            if col is None:
                continue
            kind = col.kind
            if kind == "float" or kind == "int":
                value = _fast_number(raw)
                if value is _SLOW:
                    if "[" in raw and raw.strip().lower() in LOST_VALUES:
                        values["lost"] = True
                    value = _convert(kind, raw)
                elif value is not None and kind == "int":
                    value = int(value)
            else:
                if "[" in raw and raw.strip().lower() in LOST_VALUES:
                    values["lost"] = True
                value = _convert(kind, raw)
            if value is not None:
                if col.field not in values:
                    values[col.field] = value  # first of two aliases wins
            elif col.field.startswith("reason:"):
                values.setdefault("reason_unknown", True)
    except ValueError:
        return None
    return values

def gpu_info(index: int, values: dict) -> GpuInfo:
    get: Callable[[str], object] = lambda key: values.get(f"info:{key}")
    return GpuInfo(
        index=index,
        name=str(get("name") or f"GPU {index}"),
        uuid=str(values.get("uuid") or f"replay-gpu-{index}"),
        pci_bus_id=get("pci_bus_id"),  # type: ignore[arg-type]
        driver_version=get("driver_version"),  # type: ignore[arg-type]
        memory_total_mib=values.get("memory_total_mib"),
        power_limit_default_w=get("power_limit_default_w"),  # type: ignore[arg-type]
        sm_clock_max_mhz=get("sm_clock_max_mhz"),  # type: ignore[arg-type]
        mem_clock_max_mhz=get("mem_clock_max_mhz"),  # type: ignore[arg-type]
        pcie_gen_max=get("pcie_gen_max"),  # type: ignore[arg-type]
        pcie_width_max=get("pcie_width_max"),  # type: ignore[arg-type]
    )


def gpu_sample(t: float, index: int, uuid: str, values: dict) -> GpuSample:
    reasons = None
    if "throttle_mask" in values:
        reasons = decode(values["throttle_mask"])
    elif any(k.startswith("reason:") for k in values):
        reasons = frozenset(k[7:] for k, v in values.items() if k.startswith("reason:") and v and k[7:] in BY_CODE)
    sm = values.get("sm_clock_mhz", values.get("graphics_clock"))
    fields = {k: v for k, v in values.items() if k in _SAMPLE_FIELDS}
    fields["sm_clock_mhz"] = sm
    state = DeviceState.LOST if values.get("lost") else DeviceState.OK
    return GpuSample(t=t, index=index, uuid=uuid, state=state, throttle_reasons=reasons, **fields)


# Read into GpuSample as they are (the SM clock is set on its own: the graphics clock stands in).
_SAMPLE_FIELDS = frozenset(METRIC_FIELDS) - {"sm_clock_mhz"}
