"""The time axis of the dashboard's plots: local clock times on round steps, hours on long windows, and
the date at midnight."""
from __future__ import annotations

import math
import time

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication

# Tick spacings that divide a day, so a tick lands on local midnight whenever it is in view.
TICK_STEPS_S = (5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 2 * 3600, 3 * 3600, 4 * 3600, 6 * 3600, 8 * 3600,
                12 * 3600, 24 * 3600)
TICK_LABEL_PX = 58  # room one "HH:MM" label needs at 7.5 pt, with a gap


def time_ticks(t0: float, t1: float, width_px: float) -> tuple[float, list[float]]:
    """(spacing, tick times) for a time axis ``width_px`` wide: at most one label per
    TICK_LABEL_PX, on round local times (hours at 6 h and 24 h windows)."""
    span = max(t1 - t0, 1e-6)
    most = max(2, int(width_px // TICK_LABEL_PX))
    step = next((s for s in TICK_STEPS_S if span / s <= most), TICK_STEPS_S[-1])
    offset = time.localtime(t0).tm_gmtoff  # align to the local clock, not to UTC
    first = math.ceil((t0 + offset) / step) * step - offset
    ticks = []
    t = first
    while t <= t1 + 1e-6:
        ticks.append(t)
        t += step
    return step, ticks


def time_label(t: float, step: float, crosses_midnight: bool) -> str:
    """"14:05", "14:05:30" below a minute's spacing, and the date at midnight when the view
    spans more than one day."""
    local = time.localtime(t)
    if crosses_midnight and local.tm_hour == 0 and local.tm_min == 0 and local.tm_sec == 0:
        return QCoreApplication.translate("Graphs", "{month}/{day}").format(month=local.tm_mon, day=local.tm_mday)
    return time.strftime("%H:%M:%S" if step < 60 else "%H:%M", local)


class TimeAxis(pg.AxisItem):
    """The bottom axis: local clock times, hours on long windows, the date at midnight."""

    def __init__(self) -> None:
        super().__init__(orientation="bottom")
        self._step = 60.0
        self._crosses = False

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list:
        step, ticks = time_ticks(minVal, maxVal, size)
        self._step = step
        self._crosses = time.localtime(minVal).tm_yday != time.localtime(maxVal).tm_yday
        return [(step, ticks)]

    def tickStrings(self, values: list[float], scale: float, _spacing: float) -> list[str]:
        return [time_label(v, self._step, self._crosses) for v in values]
