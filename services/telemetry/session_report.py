"""Recorded sessions as readable text for the terminal (``main.py sessions``).

Translated through the same catalog as the app; the JSON output of the
command stays English with stable field names.
"""
from __future__ import annotations

import time

from services.textwidth import align_columns
from services.i18n import Catalog, Msg
from services.i18n import translate
from services.telemetry.session_store import SessionInfo, SessionSummary
from services.telemetry.throttle import BY_CODE, REASONS

_HEADERS = (
    translate("SessionsReport", "ID"),
    translate("SessionsReport", "Start"),
    translate("SessionsReport", "Duration"),
    translate("SessionsReport", "Samples"),
    translate("SessionsReport", "Source"),
    translate("SessionsReport", "GPUs"),
)
_NO_SESSIONS = translate("SessionsReport", "No recorded sessions in {folder}")
_UNREADABLE = translate("SessionsReport", "unreadable: {problem}")
_SESSION = translate("SessionsReport", "Session {id}: started {start}, {duration} long, {samples} samples")
_GPU = translate("SessionsReport", "GPU {index} {name}: temperature mean {mean_temp} °C, peak {peak_temp} °C; utilisation mean {util} %; power mean {power} W; energy {energy} Wh")
_THROTTLED = translate("SessionsReport", "Clocks held back: {reasons}")
_NOT_THROTTLED = translate("SessionsReport", "Clocks never held back")
_EXPORTED = translate("SessionsReport", "{rows} rows written to {file}")
_DASH = "-"


def when(t: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) if t is not None else _DASH


def duration(seconds: float | None) -> str:
    if seconds is None:
        return _DASH
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def _num(value: float | None, digits: int = 0) -> str:
    return _DASH if value is None else f"{value:.{digits}f}"


# What a recording's ``source`` meta value is called for a person (the JSON keeps the value itself).
SOURCE_NAMES = {
    "simulated": translate("Recording", "demo (simulated)"),
    "nvml": translate("Recording", "this computer"),
    "replay": translate("Recording", "replay"),
}


def source_name(source: str | None) -> Msg | str:
    if not source:
        return _DASH
    return SOURCE_NAMES.get(source, source)


def render_list(sessions: list[SessionInfo], folder: str, catalog: Catalog) -> str:
    tr = catalog.render
    if not sessions:
        return tr(_NO_SESSIONS.format(folder=folder))
    rows = [[tr(h) for h in _HEADERS]]
    notes = []
    for s in sessions:
        if s.problem:
            notes.append(f"{s.id}  {tr(_UNREADABLE.format(problem=s.shown_problem))}")
            continue
        rows.append([s.id, when(s.start), duration(s.duration_s), str(s.samples), tr(source_name(s.source)),
                     ", ".join(s.gpus) or _DASH])
    return "\n".join(_align(rows) + notes)


def render_summary(summary: SessionSummary, catalog: Catalog) -> str:
    tr = catalog.render
    s = summary.session
    lines = [tr(_SESSION.format(id=s.id, start=when(s.start), duration=duration(s.duration_s), samples=s.samples))]
    for g in summary.gpus:
        lines.append("  " + tr(_GPU.format(
            index=g.index, name=g.name, mean_temp=_num(g.mean_temperature_c, 1), peak_temp=_num(g.peak_temperature_c),
            util=_num(g.mean_utilization_pct, 1), power=_num(g.mean_power_w), energy=_num(g.energy_wh, 1))))
        held = [f"{tr(BY_CODE[r.code].label)} {duration(g.throttle_seconds.get(r.code, 0.0))}"
                for r in REASONS if r.warn and g.throttle_seconds.get(r.code, 0.0) >= 1.0]
        lines.append("    " + (tr(_THROTTLED.format(reasons=", ".join(held))) if held else tr(_NOT_THROTTLED)))
    return "\n".join(lines)


def render_exported(rows: int, file: str, catalog: Catalog) -> str:
    return catalog.render(_EXPORTED.format(rows=rows, file=file))


def _align(rows: list[list[str]]) -> list[str]:
    return align_columns(rows)
