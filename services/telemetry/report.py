"""Snapshots as JSON, as nvidia-smi-style CSV rows and as a readable table.

The CSV uses the header names ``nvidia-smi --query-gpu=... --format=csv,nounits``
prints (units in the header, bare numbers in the cells, ``[N/A]`` for a value
the GPU does not report), so one parser reads both our logs and nvidia-smi's.
"""
from __future__ import annotations

import time
from typing import Any
from collections.abc import Callable

from services.i18n import Catalog, translate
from services.telemetry import throttle
from services.telemetry.fields import SYSTEM_VALUE_FIELDS
from services.telemetry.model import DeviceState, GpuInfo, GpuSample, Snapshot
from services.telemetry.states import state_label

NA = "[N/A]"  # what nvidia-smi writes for a value that is not available
LOST = "[GPU is lost]"  # what nvidia-smi writes in every reading of a GPU that fell off the bus
# Columns that name the GPU rather than read it: kept in a lost GPU's row.
IDENTITY_COLUMNS = frozenset({"timestamp", "index", "name", "uuid", "pci.bus_id"})

# (header as nvidia-smi prints it, how to get the cell from (info, sample)).
_Getter = Callable[[GpuInfo | None, GpuSample], Any]
CSV_COLUMNS: tuple[tuple[str, _Getter], ...] = (
    ("timestamp", lambda i, s: _smi_timestamp(s.t)),
    ("index", lambda i, s: s.index),
    ("name", lambda i, s: i.name if i else None),
    ("uuid", lambda i, s: s.uuid),
    ("pci.bus_id", lambda i, s: i.pci_bus_id if i else None),
    ("pstate", lambda i, s: f"P{s.pstate}" if s.pstate is not None else None),
    ("temperature.gpu", lambda i, s: s.temperature_c),
    ("temperature.memory", lambda i, s: s.memory_temperature_c),
    ("utilization.gpu [%]", lambda i, s: s.utilization_pct),
    ("utilization.memory [%]", lambda i, s: s.memory_utilization_pct),
    ("memory.used [MiB]", lambda i, s: s.memory_used_mib),
    ("memory.total [MiB]", lambda i, s: s.memory_total_mib),
    ("power.draw [W]", lambda i, s: s.power_w),
    ("enforced.power.limit [W]", lambda i, s: s.power_limit_w),
    ("clocks.current.sm [MHz]", lambda i, s: s.sm_clock_mhz),
    ("clocks.current.memory [MHz]", lambda i, s: s.mem_clock_mhz),
    ("clocks.max.sm [MHz]", lambda i, s: i.sm_clock_max_mhz if i else None),
    ("clocks.max.memory [MHz]", lambda i, s: i.mem_clock_max_mhz if i else None),
    ("fan.speed [%]", lambda i, s: s.fan_pct),
    ("pcie.link.gen.current", lambda i, s: s.pcie_gen),
    ("pcie.link.gen.max", lambda i, s: i.pcie_gen_max if i else None),
    ("pcie.link.width.current", lambda i, s: s.pcie_width),
    ("pcie.link.width.max", lambda i, s: i.pcie_width_max if i else None),
    ("utilization.encoder [%]", lambda i, s: s.encoder_pct),
    ("utilization.decoder [%]", lambda i, s: s.decoder_pct),
    ("clocks_event_reasons.active", lambda i, s: _mask_hex(s.throttle_reasons)),
    ("ecc.errors.corrected.volatile.total", lambda i, s: s.ecc_corrected),
    ("ecc.errors.uncorrected.volatile.total", lambda i, s: s.ecc_uncorrected),
)


def csv_header() -> str:
    return ", ".join(name for name, _ in CSV_COLUMNS)


def csv_rows(snapshot: Snapshot) -> list[str]:
    infos = {info.uuid: info for info in snapshot.gpus}
    rows = []
    for sample in snapshot.samples:
        info = infos.get(sample.uuid)
        if sample.state is DeviceState.LOST:  # lost is not "not supported": say so, as nvidia-smi does
            rows.append(", ".join(_cell(get(info, sample)) if name in IDENTITY_COLUMNS else LOST
                                  for name, get in CSV_COLUMNS))
            continue
        rows.append(", ".join(_cell(get(info, sample)) for _, get in CSV_COLUMNS))
    return rows


def _cell(value: Any) -> str:
    if value is None:
        return NA
    if isinstance(value, float):
        # Integers stay integers (nvidia-smi prints "87", not "87.0"); watts keep 2 decimals.
        return str(int(value)) if value.is_integer() else f"{value:.2f}"
    return str(value).replace(",", " ")  # the separator never appears inside a cell


def _smi_timestamp(t: float) -> str:
    # nvidia-smi's own format: local time, milliseconds.
    return time.strftime("%Y/%m/%d %H:%M:%S", time.localtime(t)) + f".{int((t % 1) * 1000):03d}"


def _mask_hex(codes: frozenset[str] | None) -> str | None:
    return None if codes is None else f"0x{throttle.encode(codes):016X}"


# ---- JSON


def sample_to_dict(info: GpuInfo | None, sample: GpuSample) -> dict[str, Any]:
    """One GPU for ``monitor --json``: stable keys, English, None for unsupported."""
    codes = sample.throttle_reasons
    return {
        "index": sample.index,
        "name": info.name if info else None,
        "uuid": sample.uuid,
        "pci_bus_id": info.pci_bus_id if info else None,
        "state": sample.state.value,
        "state_detail": sample.state_detail,
        "driver_version": info.driver_version if info else None,
        "cuda_driver_version": info.cuda_driver_version if info else None,
        "temperature_c": sample.temperature_c,
        "temp_slowdown_c": info.temp_slowdown_c if info else None,
        "temp_shutdown_c": info.temp_shutdown_c if info else None,
        "memory_temperature_c": sample.memory_temperature_c,
        "utilization_pct": sample.utilization_pct,
        "memory_utilization_pct": sample.memory_utilization_pct,
        "memory_used_mib": sample.memory_used_mib,
        "memory_total_mib": sample.memory_total_mib if sample.memory_total_mib is not None
        else (info.memory_total_mib if info and sample.state is DeviceState.OK else None),
        "power_w": sample.power_w,
        "power_limit_w": sample.power_limit_w,
        "power_limit_default_w": info.power_limit_default_w if info else None,
        "energy_j": sample.energy_j,
        "sm_clock_mhz": sample.sm_clock_mhz,
        "sm_clock_max_mhz": info.sm_clock_max_mhz if info else None,
        "mem_clock_mhz": sample.mem_clock_mhz,
        "mem_clock_max_mhz": info.mem_clock_max_mhz if info else None,
        "fan_pct": sample.fan_pct,
        "pstate": sample.pstate,
        "pcie_gen": sample.pcie_gen,
        "pcie_gen_max": info.pcie_gen_max if info else None,
        "pcie_width": sample.pcie_width,
        "pcie_width_max": info.pcie_width_max if info else None,
        "encoder_pct": sample.encoder_pct,
        "decoder_pct": sample.decoder_pct,
        "throttle_reasons": None if codes is None else [r.code for r in throttle.REASONS if r.code in codes],
        "ecc_corrected": sample.ecc_corrected,
        "ecc_uncorrected": sample.ecc_uncorrected,
        "processes": None if sample.processes is None else [
            {"pid": p.pid, "name": p.name, "user": p.user, "kind": p.kind,
             "used_mib": p.used_mib, "cpu_pct": p.cpu_pct, "sm_pct": p.sm_pct,
             "encoder_pct": p.encoder_pct, "decoder_pct": p.decoder_pct, "shared_mib": p.shared_mib}
            for p in sample.processes
        ],
    }


def snapshot_to_dict(snapshot: Snapshot, source: str) -> dict[str, Any]:
    infos = {info.uuid: info for info in snapshot.gpus}
    system = snapshot.system
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(snapshot.t)) + f".{int((snapshot.t % 1) * 1000):03d}Z",
        "source": source,
        "status": {"state": snapshot.status.state.value, "message": snapshot.status.message},
        "gpus": [sample_to_dict(infos.get(s.uuid), s) for s in snapshot.samples],
        "system": None if system is None else {name: getattr(system, name) for name in SYSTEM_VALUE_FIELDS},
    }


# ---- table

_HEADERS = (
    translate("MonitorTable", "GPU"),
    translate("MonitorTable", "Name"),
    translate("MonitorTable", "State"),
    translate("MonitorTable", "Temp"),
    translate("MonitorTable", "Util"),
    translate("MonitorTable", "Memory"),
    translate("MonitorTable", "Power"),
    translate("MonitorTable", "Fan"),
    translate("MonitorTable", "SM clock"),
    translate("MonitorTable", "PCIe"),
    translate("MonitorTable", "Clocks held back by"),
)
_PROCESSES = translate("MonitorTable", "Processes")
_SHARED = translate("MonitorTable", " (+{mib} MiB shared)")
_PROCESS_HEADERS = (
    translate("MonitorTable", "PID"),
    translate("MonitorTable", "GPU"),
    translate("MonitorTable", "Name"),
    translate("MonitorTable", "User"),
    translate("MonitorTable", "Type"),
    translate("MonitorTable", "SM"),
    translate("MonitorTable", "GPU memory"),
    translate("MonitorTable", "Video"),
    translate("MonitorTable", "CPU"),
)
_NO_PROCESSES = translate("MonitorTable", "no processes")
_NO_GPU = translate("MonitorTable", "No NVIDIA GPU found.")
_SYSTEM = translate("MonitorTable", "System: CPU {cpu} of {cores} cores, RAM {ram_used} / {ram_total} GiB")
_NONE = translate("MonitorTable", "none")
_PCIE_MAX = translate("MonitorTable", "max Gen{gen} x{width}")
_KINDS = {
    "compute": translate("MonitorTable", "compute"),
    "graphics": translate("MonitorTable", "graphics"),
    "compute+graphics": translate("MonitorTable", "compute+graphics"),
}
_GONE_DASH = "-"


def render_table(snapshot: Snapshot, catalog: Catalog) -> str:
    """A plain-text table for a terminal (CJK-aware column widths)."""
    tr = catalog.render
    infos = {info.uuid: info for info in snapshot.gpus}
    rows = [[tr(h) for h in _HEADERS]]
    details: list[str] = []
    process_rows: list[list[str]] = []
    for s in snapshot.samples:
        info = infos.get(s.uuid)
        reasons = throttle.warning_codes(s.throttle_reasons)
        reason_text = (", ".join(tr(throttle.BY_CODE[c].label) for c in reasons) if reasons
                       else (tr(_NONE) if s.throttle_reasons is not None else _GONE_DASH))
        rows.append([
            str(s.index),
            info.name if info else "?",
            tr(state_label(s.state)),
            _fmt(s.temperature_c, "{:.0f} °C"),
            _fmt(s.utilization_pct, "{:.0f} %"),
            _pair(s.memory_used_mib, s.memory_total_mib, "{:.0f}", " MiB"),
            _pair(s.power_w, s.power_limit_w, "{:.0f}", " W"),
            _fmt(s.fan_pct, "{:.0f} %"),
            _fmt(s.sm_clock_mhz, "{:.0f} MHz"),
            _pcie(s, info, tr),
            reason_text,
        ])
        why = s.describe_state()
        if s.state is not DeviceState.OK and s.state_detail and why is not None:
            details.append(f"GPU {s.index}: {tr(why)}")
        if s.processes:
            for p in s.processes:
                busy = [f"{label} {v:.0f} %" for label, v in (("enc", p.encoder_pct), ("dec", p.decoder_pct))
                        if v]  # the video engines only when they work
                process_rows.append([
                    str(p.pid), str(s.index), p.name, p.user or _GONE_DASH,
                    tr(_KINDS[p.kind]) if p.kind in _KINDS else p.kind,
                    _fmt(p.sm_pct, "{:.0f} %"), _fmt(p.used_mib, "{:.0f} MiB") + (
                        tr(_SHARED).format(mib=f"{p.shared_mib:.0f}") if p.shared_mib else ""),
                    ", ".join(busy) or _GONE_DASH, _fmt(p.cpu_pct, "{:.0f} %"),
                ])
        elif s.processes is not None and s.state is DeviceState.OK:
            details.append(f"GPU {s.index} {tr(_PROCESSES)}: {tr(_NO_PROCESSES)}")
    lines = _align(rows) if snapshot.samples else [tr(_NO_GPU)]
    if process_rows:
        # Busiest first: SM share, then GPU memory (None last).
        process_rows.sort(key=lambda r: (_number(r[5]), _number(r[6])), reverse=True)
        lines.append(tr(_PROCESSES) + ":")
        lines += ["  " + line for line in _align([[tr(h) for h in _PROCESS_HEADERS]] + process_rows)]
    lines += details
    system = snapshot.system
    if system is not None and system.ram_total_mib:
        lines.append(tr(_SYSTEM.format(
            cpu=_fmt(system.cpu_pct, "{:.0f} %"), cores=system.cpu_count or "?",
            ram_used=f"{(system.ram_used_mib or 0) / 1024:.1f}", ram_total=f"{system.ram_total_mib / 1024:.1f}")))
    return "\n".join(lines)


def _number(cell: str) -> float:
    try:
        return float(cell.split()[0])
    except (ValueError, IndexError):
        return -1.0


def _fmt(value: float | None, pattern: str) -> str:
    return _GONE_DASH if value is None else pattern.format(value)


def _pair(used: float | None, total: float | None, pattern: str, unit: str) -> str:
    if used is None and total is None:
        return _GONE_DASH
    left = _GONE_DASH if used is None else pattern.format(used)
    right = _GONE_DASH if total is None else pattern.format(total)
    return f"{left} / {right}{unit}"


def _pcie(sample: GpuSample, info: GpuInfo | None, tr: Callable[[Any], str]) -> str:
    if sample.pcie_gen is None and sample.pcie_width is None:
        return _GONE_DASH
    text = f"Gen{sample.pcie_gen or '?'} x{sample.pcie_width or '?'}"
    if info and info.pcie_gen_max and info.pcie_width_max:
        text += f" ({tr(_PCIE_MAX.format(gen=info.pcie_gen_max, width=info.pcie_width_max))})"
    return text


def _align(rows: list[list[str]]) -> list[str]:
    from services.textwidth import align_columns  # the table only: JSON and CSV output never measure text

    return align_columns(rows)
