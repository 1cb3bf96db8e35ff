"""The per-GPU graphs: five small time plots on a shared, real time axis.

Drawing rules that keep 24 hours at 1 Hz smooth:
- each curve gets at most about two points per pixel column (min/max per
  bucket, ``services.telemetry.downsample``), fetched only for the visible
  time range, so panning a 24 h window never hands 86,400 points to Qt;
- y ranges are fixed from the card's limits (no auto-range pass over the data);
- NaN (missing readings) is drawn as a gap (``connect='finite'``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF
from PySide6.QtWidgets import QGraphicsItem, QSizePolicy

from gui.monitor.graph_titles import STAT_DIGITS, escape, fitted_title, plain_title, stats_line, title_html, window_stats
from gui.monitor.time_axis import TimeAxis
from services.telemetry import downsample, throttle
from services.telemetry.history import UNKNOWN_BIT, History
from services.telemetry.model import GpuInfo, GpuSample

BAND_FRACTION = 0.09  # throttle bands fill the bottom 9% of each plot, right on the time axis
AXIS_PEN = "#a3adb8"
TEXT_PEN = "#52606d"


@dataclass(frozen=True)
class CurveSpec:
    metric: str  # GpuSample field name, as History.series takes it
    color: str
    scale: float = 1.0
    dashed: bool = False


@dataclass(frozen=True)
class PlotSpec:
    key: str
    curves: tuple[CurveSpec, ...]


PLOTS: tuple[PlotSpec, ...] = (
    PlotSpec("util", (CurveSpec("utilization_pct", "#2563eb"), CurveSpec("memory_utilization_pct", "#9aa5b1"))),
    PlotSpec("memory", (CurveSpec("memory_used_mib", "#0f8a5f", 1 / 1024),)),
    PlotSpec("temperature", (CurveSpec("temperature_c", "#d9480f"), CurveSpec("memory_temperature_c", "#a61e4d"))),
    PlotSpec("power", (CurveSpec("power_w", "#7048e8"), CurveSpec("power_limit_w", "#7048e8", dashed=True))),
    PlotSpec("clocks", (CurveSpec("sm_clock_mhz", "#1c7ed6"),)),
)


class GpuGraphs(pg.GraphicsLayoutWidget):
    """Five linked plots for one GPU.

    Signals (from pyqtgraph's view boxes, re-exposed by ``on_user_range``):
        the callback given to ``on_user_range`` is called with (t0, t1) when the
        user pans or zooms any plot.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setBackground("#ffffff")
        self.setMinimumHeight(150)
        self.ci.layout.setContentsMargins(0, 0, 0, 0)
        self.ci.layout.setHorizontalSpacing(6)
        self.plots: dict[str, pg.PlotItem] = {}
        self.curves: dict[str, list[tuple[CurveSpec, pg.PlotDataItem]]] = {}
        self.bands: dict[tuple[str, str], pg.BarGraphItem] = {}
        self.lines: dict[str, pg.InfiniteLine] = {}
        self._y_ranges: dict[str, tuple[float, float]] = {}
        self._user_range_callback: Callable[[float, float], None] | None = None
        self._title_text: dict[str, str] = {}  # full titles, statistics included
        self._shown_title: dict[str, str] = {}  # as shown: shortened to the plot's width
        self._stats_line: dict[str, str] = {}
        title_font = QFont()
        title_font.setPointSizeF(8)
        self._title_metrics = QFontMetricsF(title_font)
        font = QFont()
        font.setPointSizeF(7.5)
        for column, spec in enumerate(PLOTS):
            axis = TimeAxis()
            plot = self.addPlot(row=0, col=column, axisItems={"bottom": axis})
            plot.setTitle(title_html(spec.key), size="8pt", color=TEXT_PEN)
            # The title spans the left axis too: over a narrow plot it gets the whole column's width.
            plot.layout.removeItem(plot.titleLabel)
            plot.layout.addItem(plot.titleLabel, 0, 0, 1, 2)
            self._title_text[spec.key] = ""
            plot.vb.sigResized.connect(lambda _vb, key=spec.key: self._on_view_box_resized(key))
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.setMouseEnabled(x=True, y=False)
            # No clip-to-view and no auto downsampling: refresh() already hands over only the
            # visible range, thinned to about two points per pixel. With them, every x-range
            # change made pyqtgraph re-process the curves while painting, which queued a
            # second paint of the whole card each refresh.
            plot.showGrid(x=False, y=True, alpha=0.15)  # x grid lines cost a lot of axis painting
            for name in ("bottom", "left"):
                ax = plot.getAxis(name)
                # No SI prefix: pyqtgraph would re-set the axis label's HTML on every range change.
                ax.enableAutoSIPrefix(False)
                ax.setPen(AXIS_PEN)
                ax.setTextPen(TEXT_PEN)
                ax.setStyle(tickFont=font, tickTextOffset=3)
            for name in ("bottom", "left"):
                # Axes are text-heavy to paint (the largest share of a refresh): keep each one as a
                # pixmap that is redrawn only when its ticks change. The left axes (fixed y ranges)
                # then cost a blit per refresh instead of re-rendering their labels and grid.
                plot.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            plot.getAxis("left").setWidth(34)
            plot.getAxis("bottom").setHeight(22)
            plot.vb.disableAutoRange()
            plot.vb.sigRangeChangedManually.connect(self._on_view_range_changed_manually)
            items = []
            for curve_spec in spec.curves:
                # Width 1: Qt draws one-pixel cosmetic lines on its fast path; wider or
                # fractional widths go through the stroker, several times the cost per refresh.
                pen = pg.mkPen(curve_spec.color, width=1,
                               style=Qt.PenStyle.DashLine if curve_spec.dashed else Qt.PenStyle.SolidLine)
                item = plot.plot(pen=pen, connect="finite")
                item.setZValue(10)
                items.append((curve_spec, item))
            self.plots[spec.key] = plot
            self.curves[spec.key] = items
            if column:
                plot.setXLink(self.plots[PLOTS[0].key])
            self.ci.layout.setColumnStretchFactor(column, 1)
            # Equal columns whatever the titles and tick labels want: the layout shares the width
            # by the stretch factors alone.
            plot.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            plot.setMinimumWidth(60)
            _title_not_wider_than_plot(plot)
            plot.titleLabel.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # static text
        self._add_line("temperature", "slowdown", "#e8590c")
        self._add_line("temperature", "shutdown", "#c92a2a")
        self._add_line("memory", "total", "#868e96")
        self._add_line("clocks", "max", "#868e96")
        self.set_y_range("util", 0, 100)

    # ---- Public API
    def master_plot(self) -> pg.PlotItem:
        return self.plots[PLOTS[0].key]

    def on_user_range(self, callback: Callable[[float, float], None]) -> None:
        self._user_range_callback = callback

    def set_columns(self, columns: int) -> None:
        """Lay the five plots out ``columns`` to a row (narrow windows: 3 + 2)."""
        grid = self.ci.layout
        for spec in PLOTS:
            grid.removeItem(self.plots[spec.key])
        for i, spec in enumerate(PLOTS):
            grid.addItem(self.plots[spec.key], i // columns, i % columns)
        for column in range(len(PLOTS)):
            grid.setColumnStretchFactor(column, 1 if column < columns else 0)
        for row in range(2):
            grid.setRowStretchFactor(row, 1 if row <= (len(PLOTS) - 1) // columns else 0)
        grid.setVerticalSpacing(4)

    def set_x_range(self, t0: float, t1: float) -> None:
        (x0, x1), _ = self.master_plot().vb.viewRange()
        if abs(x0 - t0) > 1e-3 or abs(x1 - t1) > 1e-3:
            self.master_plot().setXRange(t0, t1, padding=0)
        self.settle_view()

    def settle_view(self) -> None:
        """Apply a changed view range now rather than while painting.

        pyqtgraph updates a view box's transform lazily, in the paint that follows a range
        change; the curves' bounds change inside that paint and queue a second paint of the
        whole card. Updating the transforms here (cheap) keeps it to one paint per refresh.
        Linked plots of other cards need the same: the page calls this for every card.
        """
        for plot in self.plots.values():
            vb = plot.vb
            if getattr(vb, "_matrixNeedsUpdate", False):
                vb.updateMatrix()

    def set_y_range(self, key: str, y0: float, y1: float) -> None:
        if self._y_ranges.get(key) != (y0, y1):
            self._y_ranges[key] = (y0, y1)
            self.plots[key].setYRange(y0, y1, padding=0)

    def apply_limits(self, info: GpuInfo | None, latest: GpuSample | None) -> None:
        """Fixed y ranges and threshold lines from the card's limits."""
        total = (latest.memory_total_mib if latest else None) or (info.memory_total_mib if info else None)
        self._set_line("memory", "total", total / 1024 if total else None)
        self.set_y_range("memory", 0, (total / 1024 * 1.05) if total else 8.0 * 1.05)
        slowdown = info.temp_slowdown_c if info else None
        shutdown = info.temp_shutdown_c if info else None
        self._set_line("temperature", "slowdown", slowdown)
        top = max(100.0, (slowdown or 0) + 10)
        self._set_line("temperature", "shutdown", shutdown if shutdown is not None and shutdown <= top else None)
        self.set_y_range("temperature", 20, top)
        limit = (latest.power_limit_w if latest else None) or (info.power_limit_default_w if info else None)
        drawn = latest.power_w if latest and latest.power_w is not None else 0.0
        self.set_y_range("power", 0, _nice_ceiling(max(limit or 0.0, drawn, 50.0) * 1.1))
        clock_max = info.sm_clock_max_mhz if info else None
        self._set_line("clocks", "max", clock_max)
        observed = latest.sm_clock_mhz if latest and latest.sm_clock_mhz is not None else 0.0
        self.set_y_range("clocks", 0, _nice_ceiling(max(clock_max or 0.0, observed, 500.0) * 1.05))

    def refresh(self, history: History, gpu_index: int, t0: float, t1: float) -> None:
        """Fetch the visible range from ``history`` and redraw every curve and band."""
        span = max(t1 - t0, 1.0)
        fetch0, fetch1 = t0 - span * 0.05, t1 + span * 0.05
        metrics = [spec.metric for items in self.curves.values() for spec, _ in items]
        t_all, values = history.series_many(gpu_index, metrics, fetch0, fetch1)  # one lock, one time axis
        fetched = {m: (t_all, values[m]) for m in metrics}
        jumps: dict[int, np.ndarray] = {}  # computed once per time axis, shared by its curves
        for key, items in self.curves.items():
            width_px = max(100, int(self.plots[key].vb.width()))
            for position, (spec, item) in enumerate(items):
                t, y = fetched[spec.metric]
                if spec.scale != 1.0:
                    y = y * spec.scale
                if position == 0:  # the plot's main curve: its min / avg / max under the title
                    self._set_stats(key, window_stats(t, y, t0, t1))
                if id(t) not in jumps:
                    jumps[id(t)] = downsample.gap_positions(t)
                t, y = downsample.for_display(t, y, max_points=2 * width_px, jumps=jumps[id(t)])
                item.setData(t, y, connect="finite")
        self._refresh_bands(history, gpu_index, fetch0, fetch1)

    def drawn_points(self) -> int:
        """The most finite points any one curve holds (0 before the first refresh with data)."""
        most = 0
        for items in self.curves.values():
            for _spec, item in items:
                y = item.yData
                if y is not None and len(y):
                    most = max(most, int(np.count_nonzero(np.isfinite(y))))
        return most

    def stats_text(self, key: str) -> str:
        """The title of plot ``key`` as last set, statistics line included (tests read it)."""
        return self._title_text.get(key, "")

    # ---- Internals
    def _set_stats(self, key: str, stats: tuple[float, float, float] | None) -> None:
        line = stats_line(stats, STAT_DIGITS[key])
        self._stats_line[key] = line
        self._fit_title(key)

    def _on_view_box_resized(self, key: str) -> None:
        if key in self._stats_line:
            self._fit_title(key)

    def _fit_title(self, key: str) -> None:
        """Show the title in the width the plot has: elided (full text in the tooltip), never clipped."""
        plot = self.plots[key]
        full = f"{title_html(key)}<br><span style='color:#7b8794'>{escape(self._stats_line[key])}</span>"
        self._title_text[key] = full
        # The title spans the left axis and the plot area; a few pixels go to the label's own margins.
        width_px = max(20.0, plot.vb.width() + plot.getAxis("left").width() - 8)
        text, cut = fitted_title(key, self._stats_line[key], width_px, self._title_metrics)
        tip = f"{plain_title(key)}\n{self._stats_line[key]}" if cut else ""
        if plot.titleLabel.toolTip() != tip:
            plot.titleLabel.setToolTip(tip)
        previous = self._shown_title.get(key)
        if text == previous:  # an unchanged title costs nothing
            return
        self._shown_title[key] = text
        if previous and previous.count("<br>") == text.count("<br>"):
            # Same lines, new numbers: replace the text only. LabelItem.setText would also reset
            # its minimum size and relayout the whole card, repainting every axis each refresh.
            label = plot.titleLabel
            label.text = text
            label.item.setHtml(f"<span style='color: {TEXT_PEN}; font-size: 8pt'>{text}</span>")
            label.resizeEvent(None)  # keep it centred
            return
        plot.setTitle(text, size="8pt", color=TEXT_PEN)
        _title_not_wider_than_plot(plot)

    def _refresh_bands(self, history: History, gpu_index: int, t0: float, t1: float) -> None:
        t, masks = history.throttle_masks(gpu_index, t0, t1)  # one read of the reason bits for every band
        known = (masks & UNKNOWN_BIT) == 0
        for reason in throttle.REASONS:
            if not reason.warn:
                continue
            starts, ends = downsample.active_spans(t, known & ((masks & reason.bit) != 0))
            for key, plot in self.plots.items():
                bar = self.bands.get((key, reason.code))
                if bar is None:
                    if not len(starts):
                        continue
                    color = QColor(reason.color)
                    bar = pg.BarGraphItem(x0=[], x1=[], y0=[], y1=[], brush=color, pen=pg.mkPen(None))
                    bar.setZValue(5)
                    bar.setToolTip(_reason_text(reason))
                    plot.addItem(bar)
                    self.bands[(key, reason.code)] = bar
                y0, y1 = self._y_ranges.get(key, (0.0, 1.0))
                height = (y1 - y0) * BAND_FRACTION
                bar.setOpts(x0=starts, x1=ends, y0=np.full(len(starts), y0), y1=np.full(len(starts), y0 + height))

    def _add_line(self, plot_key: str, name: str, color: str) -> None:
        line = pg.InfiniteLine(angle=0, movable=False, pen=pg.mkPen(color, width=1, style=Qt.PenStyle.DashLine))
        line.setVisible(False)
        line.setZValue(8)
        self.plots[plot_key].addItem(line, ignoreBounds=True)
        self.lines[f"{plot_key}.{name}"] = line

    def _set_line(self, plot_key: str, name: str, value: float | None) -> None:
        line = self.lines[f"{plot_key}.{name}"]
        if value is None:
            line.setVisible(False)
        else:
            if line.value() != value:
                line.setValue(value)
            line.setVisible(True)

    def _on_view_range_changed_manually(self, *_args: Any) -> None:
        if self._user_range_callback is not None:
            (x0, x1), _ = self.master_plot().vb.viewRange()
            self._user_range_callback(x0, x1)


def _title_not_wider_than_plot(plot: pg.PlotItem) -> None:
    """Titles must not decide the column widths: every plot gets the same share.
    (pyqtgraph sets a label's minimum to its text's size on every setText.)"""
    plot.titleLabel.setMinimumWidth(10)
    plot.titleLabel.setPreferredWidth(10)
    plot.titleLabel.updateGeometry()  # drop the layouts' cached size hints of the old text
    plot.layout.invalidate()


def _reason_text(reason: throttle.ThrottleReason) -> str:
    from gui.i18n import render

    return f"{render(reason.label)}: {render(reason.explanation)}"


def _nice_ceiling(value: float) -> float:
    """Round a y-axis top up to 1, 2 or 5 times a power of ten."""
    if value <= 0:
        return 1.0
    exponent = np.floor(np.log10(value))
    base = 10 ** exponent
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if value <= step * base:
            return float(step * base)
    return float(10 * base)
