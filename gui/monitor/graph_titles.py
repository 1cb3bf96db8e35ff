"""The titles of the dashboard's plots: each plot's name with its curves' names in their colours (so no legend
is needed) and a line of statistics over the visible window, shortened to the plot's width."""
from __future__ import annotations

from html import escape as _html_escape

import numpy as np
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontMetricsF

STAT_DIGITS = {"util": 0, "memory": 1, "temperature": 0, "power": 0, "clocks": 0}


def window_stats(t: np.ndarray, y: np.ndarray, t0: float, t1: float) -> tuple[float, float, float] | None:
    """(min, mean, max) of the finite readings between t0 and t1, or None when there are none.

    The mean is of the readings (1 Hz samples), which is the time average at a steady rate.
    """
    if not len(t):
        return None
    lo, hi = np.searchsorted(t, (t0, t1))
    window = y[lo:hi]
    window = window[np.isfinite(window)]
    if not window.size:
        return None
    return float(window.min()), float(window.mean()), float(window.max())


def stats_line(stats: tuple[float, float, float] | None, digits: int) -> str:
    if stats is None:
        return QCoreApplication.translate("Graphs", "no readings in this window")
    low, mean, high = (f"{v:.{digits}f}" for v in stats)
    return QCoreApplication.translate("Graphs", "min {low} · avg {mean} · max {high}").format(
        low=low, mean=mean, high=high)


def escape(text: str) -> str:
    """``text`` for a plot title's HTML."""
    return _html_escape(text, quote=False)


def _title_parts(key: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A plot's name and its curves' names with their colours, so no legend is needed."""
    if key == "util":
        return QCoreApplication.translate("Graphs", "Utilisation %"), (
            ("#2563eb", QCoreApplication.translate("Graphs", "GPU")),
            ("#7b8794", QCoreApplication.translate("Graphs", "memory bus")))
    if key == "memory":
        return QCoreApplication.translate("Graphs", "Memory used (GiB)"), ()
    if key == "temperature":
        # short words: "Temperature °C core · memory · slowdown" did not fit a plot at 1280 px
        return QCoreApplication.translate("Graphs", "Temp °C"), (
            ("#d9480f", QCoreApplication.translate("Graphs", "core")),
            ("#a61e4d", QCoreApplication.translate("Graphs", "mem")),
            ("#e8590c", QCoreApplication.translate("Graphs", "slowdown")))
    if key == "power":
        return QCoreApplication.translate("Graphs", "Power W"), (
            ("#7048e8", QCoreApplication.translate("Graphs", "draw")),
            ("#7048e8", QCoreApplication.translate("Graphs", "- - limit")))
    return QCoreApplication.translate("Graphs", "SM clock MHz"), (
        ("#1c7ed6", QCoreApplication.translate("Graphs", "now")),
        ("#868e96", QCoreApplication.translate("Graphs", "max")))


def title_html(key: str, keep: int | None = None) -> str:
    """The title line as HTML; ``keep``: show only that many curve names, then an ellipsis."""
    name, parts = _title_parts(key)
    shown = parts if keep is None else parts[:keep]
    spans = [f"<span style='color:{color}'>{escape(text)}</span>" for color, text in shown]
    if keep is not None and keep < len(parts):
        spans.append("…")
    return " ".join([escape(name), " · ".join(spans)]) if spans else escape(name)


def plain_title(key: str, keep: int | None = None) -> str:
    """The title line as plain text (for measuring and tooltips); ``keep`` as in ``title_html``."""
    name, parts = _title_parts(key)
    shown = [text for _color, text in (parts if keep is None else parts[:keep])]
    if keep is not None and keep < len(parts):
        shown.append("…")
    return f"{name} " + " · ".join(shown) if shown else name


def fitted_title(key: str, stats: str, width_px: float, metrics: QFontMetricsF) -> tuple[str, bool]:
    """The title (HTML, two lines: names and statistics) shortened to ``width_px``.

    Curve names are dropped from the end first (an ellipsis says so), then the plot's
    name and the statistics line are elided. Returns (html, whether anything was cut).
    """
    _name, parts = _title_parts(key)
    line = title_html(key)
    cut = False
    if metrics.horizontalAdvance(plain_title(key)) > width_px:
        cut = True
        keep = len(parts) - 1
        while keep > 0 and metrics.horizontalAdvance(plain_title(key, keep)) > width_px:
            keep -= 1
        if metrics.horizontalAdvance(plain_title(key, keep)) <= width_px:
            line = title_html(key, keep)
        else:
            line = escape(metrics.elidedText(plain_title(key), Qt.TextElideMode.ElideRight, width_px))
    shown_stats = stats
    if metrics.horizontalAdvance(stats) > width_px:
        cut = True
        shown_stats = metrics.elidedText(stats, Qt.TextElideMode.ElideRight, width_px)
    return f"{line}<br><span style='color:#7b8794'>{escape(shown_stats)}</span>", cut
