"""The Dashboard page: a card per GPU with live values and graphs.

Data flow: the hub samples on its worker thread and calls the bridge, which
re-emits each ``Snapshot`` in the GUI thread. The page only stores the newest
snapshot; a 1 Hz timer (running only while the page is visible) repaints the
cards that are on screen from the hub's history. So a burst of snapshots never
costs more than one repaint, and a hidden page costs nothing.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, QSortFilterProxyModel, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QColor, QHideEvent, QPaintEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QFrame, QGridLayout, QHBoxLayout, QHeaderView, QLabel, QListWidget,
    QListWidgetItem, QPushButton, QScrollArea, QSizePolicy, QSplitter, QStackedWidget,
    QTableView, QTabWidget, QTextBrowser, QToolButton, QVBoxLayout, QWidget,
)

from gui.context import AppContext
from gui.i18n import render
from gui.monitor.bridge import TelemetryBridge
from services.program import program_name
from gui.monitor.widgets import (
    DASH, STYLE, Badge, ElidedLabel, MetricTile, ProcessTableModel, format_duration, format_mib,
)
from services.i18n import Msg
from services.telemetry import health, throttle
from services.telemetry.feed import TelemetryFeed
from services.telemetry.model import DeviceState, GpuInfo, GpuSample, Snapshot, SourceKind

REPAINT_MS = 1000
INSIGHTS_EVERY_S = 5.0
GRAPH_MIN_INTERVAL_S = 3.0
MAX_ALERTS_SHOWN = 200
NARROW_PAGE_PX = 1030  # page width (window less the 190 px sidebar and margins) below which cards reflow
# (seconds, label) for the time-window selector; labels are translated in the page.
WINDOWS_S = (60, 300, 600, 1800, 3600, 6 * 3600, 24 * 3600)


def _fmt(value: float | None, unit: str, digits: int = 0) -> str:
    if value is None:
        return DASH
    return f"{value:.{digits}f} {unit}".strip()


class GpuCard(QFrame):
    """Everything about one GPU: header badges, value tiles, graphs, throttle legend."""

    def __init__(self, info: GpuInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("GpuCard")
        self.info = info
        self.sample: GpuSample | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 6)
        layout.setSpacing(5)

        header = QHBoxLayout()
        header.setSpacing(8)
        self.title = QLabel(self)
        self.title.setObjectName("GpuTitle")
        self.subtitle = ElidedLabel("", self)
        self.subtitle.setObjectName("GpuSubtitle")
        self.state_badge = Badge(parent=self)
        self.pstate_badge = Badge(parent=self)
        self.pcie_badge = Badge(parent=self)
        self.throttle_box = QHBoxLayout()
        self.throttle_box.setSpacing(4)
        header.addWidget(self.title)
        header.addWidget(self.subtitle, 1)
        header.addLayout(self.throttle_box)
        header.addWidget(self.pcie_badge)
        header.addWidget(self.pstate_badge)
        header.addWidget(self.state_badge)
        layout.addLayout(header)

        self.state_note = QLabel(self)
        self.state_note.setObjectName("StateNote")
        self.state_note.setWordWrap(True)
        self.state_note.hide()
        layout.addWidget(self.state_note)

        self.tiles_grid = QGridLayout()
        self.tiles_grid.setSpacing(8)
        self.tile_util = MetricTile(self.tr("Utilisation"), self)
        self.tile_memory = MetricTile(self.tr("Memory"), self)
        self.tile_temp = MetricTile(self.tr("Temperature"), self)
        self.tile_power = MetricTile(self.tr("Power"), self)
        self.tile_clock = MetricTile(self.tr("Clocks"), self)
        self.tile_fan = MetricTile(self.tr("Fan"), self)
        self._tiles = (self.tile_util, self.tile_memory, self.tile_temp, self.tile_power, self.tile_clock, self.tile_fan)
        layout.addLayout(self.tiles_grid)

        # pyqtgraph is imported with the first card, not with the page: the window
        # paints sooner, and a machine without a GPU never pays for it.
        from gui.monitor.graphs import GpuGraphs

        self.graphs = GpuGraphs(self)
        self.graphs.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        layout.addWidget(self.graphs, 1)
        self.band_legend = QLabel(self)
        self.band_legend.setObjectName("BandLegend")
        self.band_legend.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.band_legend)
        self._throttle_chips: dict[str, Badge] = {}
        self._lost_since: float | None = None
        self.graphs_view: tuple[float, float] | None = None  # the time range the graphs last drew
        self._narrow: bool | None = None
        self._min_heights = (285, 420)  # (wide, narrow): set by the page for the number of cards
        self.set_narrow(False)
        self._set_title()
        self.update_live(None, {})

    # ---- Public API
    def set_info(self, info: GpuInfo) -> None:
        self.info = info
        self._set_title()

    def set_min_heights(self, wide: int, narrow: int) -> None:
        self._min_heights = (wide, narrow)
        self.setMinimumHeight(narrow if self._narrow else wide)

    def set_narrow(self, narrow: bool) -> None:
        """Six tiles and five graphs in a row, or (narrow window) tiles 3 + 3 and graphs 3 + 2."""
        if narrow == self._narrow:
            return
        self._narrow = narrow
        columns = 3 if narrow else len(self._tiles)
        for tile in self._tiles:
            self.tiles_grid.removeWidget(tile)
        for i, tile in enumerate(self._tiles):
            self.tiles_grid.addWidget(tile, i // columns, i % columns)
        for column in range(len(self._tiles)):
            self.tiles_grid.setColumnStretch(column, 1 if column < columns else 0)
        self.graphs.set_columns(3 if narrow else 5)
        self.setMinimumHeight(self._min_heights[1] if narrow else self._min_heights[0])

    def is_narrow(self) -> bool:
        return bool(self._narrow)

    def graphs_due(self, t0: float, t1: float) -> bool:
        """True when the graphs would look different: the view moved by a pixel or more.

        A 10-minute window on a plot about 190 px wide moves one pixel every 3 s, a
        24-hour one every 7 minutes; redrawing more often costs CPU and shows nothing new.
        """
        if self.graphs_view is None:
            return True
        width_px = max(50, int(self.graphs.master_plot().vb.width()))
        seconds_per_px = (t1 - t0) / width_px
        last0, last1 = self.graphs_view
        return abs(t1 - last1) >= seconds_per_px or abs(t0 - last0) >= seconds_per_px

    def is_on_screen(self) -> bool:
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def update_live(self, sample: GpuSample | None, seconds_in_reason: dict[str, float]) -> None:
        """Header, tiles and the throttle legend from the newest sample."""
        self.sample = sample
        info = self.info
        state = sample.state if sample else DeviceState.OK
        self._update_state(sample, state)
        s = sample if state == DeviceState.OK else None

        # Utilisation
        if s and s.utilization_pct is not None:
            parts = []
            if s.memory_utilization_pct is not None:
                parts.append(self.tr("memory bus {pct:.0f}%").format(pct=s.memory_utilization_pct))
            if s.encoder_pct or s.decoder_pct:
                parts.append(self.tr("enc {enc:.0f}% · dec {dec:.0f}%").format(enc=s.encoder_pct or 0, dec=s.decoder_pct or 0))
            self.tile_util.set_values(f"{s.utilization_pct:.0f} %", " · ".join(parts))
        else:
            self.tile_util.set_values(DASH, "", "ok", self._missing_tip(s))

        # Memory
        fraction = health.memory_fraction(info, s)
        if s and s.memory_used_mib is not None:
            total = s.memory_total_mib or info.memory_total_mib
            detail = self.tr("of {total} ({pct:.0f}%)").format(total=format_mib(total), pct=fraction * 100) if fraction is not None else ""
            level = "hot" if fraction is not None and fraction >= 0.95 else "ok"
            self.tile_memory.set_values(format_mib(s.memory_used_mib), detail, level)
        else:
            self.tile_memory.set_values(DASH, "", "ok", self._missing_tip(s))

        # Temperature
        if s and s.temperature_c is not None:
            parts = []
            if info.temp_slowdown_c is not None:
                parts.append(self.tr("slows at {t:.0f} °C").format(t=info.temp_slowdown_c))
            if s.memory_temperature_c is not None:
                parts.append(self.tr("memory {t:.0f} °C").format(t=s.memory_temperature_c))
            tip = ""
            if info.temp_shutdown_c is not None:
                tip = self.tr("Shuts down at {t:.0f} °C").format(t=info.temp_shutdown_c)
            self.tile_temp.set_values(f"{s.temperature_c:.0f} °C", " · ".join(parts), health.temperature_level(info, s), tip)
        else:
            self.tile_temp.set_values(DASH, "", "ok", self._missing_tip(s))

        # Power
        if s and s.power_w is not None:
            limit = s.power_limit_w or info.power_limit_default_w
            detail = self.tr("limit {w:.0f} W").format(w=limit) if limit else ""
            level = "warm" if limit and s.power_w >= 0.98 * limit else "ok"
            self.tile_power.set_values(f"{s.power_w:.0f} W", detail, level)
        else:
            self.tile_power.set_values(DASH, "", "ok", self._missing_tip(s))

        # Clocks
        if s and s.sm_clock_mhz is not None:
            parts = []
            if info.sm_clock_max_mhz:
                parts.append(self.tr("max {mhz:.0f}").format(mhz=info.sm_clock_max_mhz))
            if s.mem_clock_mhz is not None:
                parts.append(self.tr("mem {mhz:.0f}").format(mhz=s.mem_clock_mhz))
            self.tile_clock.set_values(f"{s.sm_clock_mhz:.0f} MHz", " · ".join(parts))
        else:
            self.tile_clock.set_values(DASH, "", "ok", self._missing_tip(s))

        # Fan
        if s and s.fan_pct is not None:
            level = "hot" if s.fan_pct == 0 and health.temperature_level(info, s) != "ok" else "ok"
            self.tile_fan.set_values(f"{s.fan_pct:.0f} %", self.tr("target speed"), level)
        else:
            self.tile_fan.set_values(DASH, self.tr("no fan reading") if s else "", "ok",
                                     self.tr("Laptops and some cards do not report a fan speed."))

        # Badges
        if s and s.pstate is not None:
            _set_text(self.pstate_badge, f"P{s.pstate}")
            self.pstate_badge.setToolTip(self.tr("Performance state: P0 is full speed, higher numbers save power."))
            self.pstate_badge.show()
        else:
            self.pstate_badge.hide()
        link = health.pcie_link(info, s)
        if s and link.known:
            gen = f"Gen{link.gen}" if link.gen is not None else "Gen?"
            width = f"x{link.width}" if link.width is not None else ""
            _set_text(self.pcie_badge, f"PCIe {gen} {width}".strip() + (" ⚠" if link.warn else ""))
            self.pcie_badge.set_level("warn" if link.warn else "muted")
            tip = render(link.message) if link.message else self.tr("The link runs at its maximum.")
            self.pcie_badge.setToolTip(tip)
            self.pcie_badge.show()
        else:
            self.pcie_badge.hide()
        self._update_throttle_chips(s)
        self._update_band_legend(seconds_in_reason)

    # ---- Internals
    def _set_title(self) -> None:
        self.title.setText(self.tr("GPU {index} · {name}").format(index=self.info.index, name=self.info.name))
        bits = []
        if self.info.pci_bus_id:
            bits.append(self.info.pci_bus_id)
        if self.info.driver_version:
            bits.append(self.tr("driver {version}").format(version=self.info.driver_version))
        self.subtitle.setText("  ".join(bits))

    def _missing_tip(self, sample: GpuSample | None) -> str:
        return self.tr("This GPU does not report this value.") if sample else ""

    def _update_state(self, sample: GpuSample | None, state: DeviceState) -> None:
        text = health.state_text(state)
        if sample is None:
            _set_text(self.state_badge, self.tr("Waiting"))
            self.state_badge.set_level("muted")
        else:
            _set_text(self.state_badge, render(text.title))
            self.state_badge.set_level({DeviceState.OK: "ok", DeviceState.SLEEPING: "info"}.get(state, "bad"))
        self.state_badge.setToolTip(render(text.detail))
        if sample is not None and state == DeviceState.LOST:
            if self._lost_since is None:
                self._lost_since = sample.t
            note = self._lost_note()
            if sample.state_detail:  # the driver's own words, once, for whoever needs them
                self.state_badge.setToolTip(render(sample.describe_state()))
            _set_text(self.state_note, note)
            self.state_note.show()
        elif sample is not None and state != DeviceState.OK:
            self._lost_since = None
            note = render(text.detail)
            detail = render(sample.describe_state()) if sample.state_detail else ""
            if detail and detail not in note:
                note += "\n" + detail
            _set_text(self.state_note, note)
            self.state_note.show()
        else:
            if sample is not None:
                self._lost_since = None
            self.state_note.hide()

    def _lost_note(self) -> str:
        since = time.strftime("%H:%M", time.localtime(self._lost_since or time.time()))
        head = self.tr("Lost since {time}: the GPU stopped answering. Its history is kept and it is retried.").format(
            time=since)
        if is_laptop_gpu(self.info.name):
            advice = self.tr("On a laptop this usually follows sleep or a change of graphics mode; "
                             "if it does not come back, restart the computer.")
        else:
            advice = self.tr("If it does not come back, check its power cables and seating, then restart.")
        return f"{head} {advice}"

    def _update_throttle_chips(self, sample: GpuSample | None) -> None:
        active = set(throttle.warning_codes(sample.throttle_reasons if sample else None))
        for code in list(self._throttle_chips):
            if code not in active:
                chip = self._throttle_chips.pop(code)
                self.throttle_box.removeWidget(chip)
                chip.deleteLater()
        for code in active:
            if code in self._throttle_chips:
                continue
            reason = throttle.BY_CODE[code]
            chip = Badge(render(reason.label), parent=self)
            chip.set_color(reason.color)
            chip.setToolTip(render(reason.explanation))
            self._throttle_chips[code] = chip
            self.throttle_box.addWidget(chip)

    def _update_band_legend(self, seconds_in_reason: dict[str, float]) -> None:
        parts = []
        for reason in throttle.REASONS:
            seconds = seconds_in_reason.get(reason.code, 0.0)
            if not reason.warn or seconds < 1:
                continue
            parts.append(f"<span style='color:{reason.color}'>■</span> {render(reason.label)} {format_duration(seconds)}")
        if parts:
            text = self.tr("Clocks held back this session:") + " " + " &nbsp; ".join(parts)
        else:
            text = self.tr("No clock slowdowns this session.")
        if self.band_legend.text() != text:
            self.band_legend.setText(text)


class NoGpuPanel(QFrame):
    """Shown instead of the cards when there is nothing to draw, and says why.

    Signals:
        setup_requested(): the user wants the Setup page.
        demo_requested(): the user wants the simulated demo.
    """

    setup_requested = Signal()
    demo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("NoGpuPanel")
        self.setMaximumWidth(720)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(28, 24, 28, 24)
        layout.setSpacing(12)
        self.title = QLabel(self)
        self.title.setObjectName("NoGpuTitle")
        self.title.setWordWrap(True)
        self.detail = QLabel(self)
        self.detail.setObjectName("NoGpuDetail")
        self.detail.setWordWrap(True)
        self.technical = QLabel(self)
        self.technical.setObjectName("GpuSubtitle")
        self.technical.setWordWrap(True)
        self.technical.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QHBoxLayout()
        self.setup_button = QPushButton(self.tr("Open Setup"), self)
        self.setup_button.clicked.connect(self.setup_requested)
        self.demo_button = QPushButton(self.tr("Show the demo"), self)
        self.demo_button.setToolTip(self.tr("Run the dashboard on a simulated two-GPU training run."))
        self.demo_button.clicked.connect(self.demo_requested)
        buttons.addWidget(self.setup_button)
        buttons.addWidget(self.demo_button)
        buttons.addStretch(1)
        layout.addWidget(self.title)
        layout.addWidget(self.detail)
        layout.addWidget(self.technical)
        layout.addLayout(buttons)

    def explain(self, text: health.StateText, technical: Msg | str | None, demo_running: bool) -> None:
        self.title.setText(render(text.title))
        self.detail.setText(render(text.detail))
        technical = render(technical)
        self.technical.setText(technical)
        self.technical.setVisible(bool(technical))
        self.setup_button.setVisible(text.setup_helps)
        self.demo_button.setVisible(not demo_running)


class DashboardPage(QWidget):
    """Live GPU cards, processes, insights and alerts.

    Signals:
        repainted(): a repaint of the visible cards finished (tests and benchmarks wait on it).
    """

    repainted = Signal()

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DashboardPage")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(STYLE)
        self.context = context
        self.bridge = TelemetryBridge.for_context(context)
        self._snapshot: Snapshot | None = None
        self._cards: dict[int, GpuCard] = {}
        self._card_key: tuple = ()
        self._follow_live = True
        self._view: tuple[float, float] | None = None
        self._window_s = self._initial_window()
        self._dirty = True
        self._last_insights = 0.0
        self._last_graphs = 0.0
        self._label_loading = False
        self._alerts: list[Any] = []
        self._replay = False
        self._graphs_loaded = False

        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 12, 16, 12)
        outer.setSpacing(10)
        outer.addLayout(self._build_toolbar())

        self.stack = QStackedWidget(self)
        outer.addWidget(self.stack, 1)

        # Page 0: nothing to show, and why.
        empty = QWidget(self)
        empty_layout = QVBoxLayout(empty)
        empty_layout.addStretch(1)
        self.no_gpu = NoGpuPanel(empty)
        self.no_gpu.setup_requested.connect(self._on_no_gpu_setup_requested)
        self.no_gpu.demo_requested.connect(self._on_no_gpu_demo_requested)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.no_gpu, 4)
        row.addStretch(1)
        empty_layout.addLayout(row)
        empty_layout.addStretch(2)
        self.stack.addWidget(empty)

        # Page 1: the cards above, processes / insights / alerts below.
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("dashboardSplitter")
        self.scroll = QScrollArea(self.splitter)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        # Cards reflow to fit; should anything still not fit, it can be scrolled to.
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.cards_host = QWidget()
        self.cards_host.setObjectName("DashboardPage")
        self.cards_layout = QVBoxLayout(self.cards_host)
        self.cards_layout.setContentsMargins(0, 0, 4, 0)
        self.cards_layout.setSpacing(10)
        self.scroll.setWidget(self.cards_host)
        self.scroll.verticalScrollBar().valueChanged.connect(self._on_scroll_value_changed)
        self.tabs = QTabWidget(self.splitter)
        self.tabs.setDocumentMode(True)
        self.processes_tab = QWidget()
        self.processes_layout = QHBoxLayout(self.processes_tab)
        self.processes_layout.setContentsMargins(0, 6, 0, 0)
        self.process_tabs = QTabWidget(self.processes_tab)
        self.process_tabs.setDocumentMode(True)
        self.process_tabs.hide()
        self.processes_layout.addWidget(self.process_tabs, 1)
        self.insights_view = QTextBrowser()
        self.insights_view.setOpenLinks(False)
        self.alerts_list = QListWidget()
        self.alerts_list.setWordWrap(True)
        self.alerts_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tabs.addTab(self.processes_tab, self.tr("Processes"))
        self.tabs.addTab(self.insights_view, self.tr("Insights"))
        self.tabs.addTab(self.alerts_list, self.tr("Alerts"))
        self.no_alerts_label = self.tr("No alerts from this source yet.")
        self._show_no_alerts()
        # The bottom pane: drag the handle to resize it, drag it to the bottom (or use the
        # corner button) to fold it away; the split is remembered across runs.
        self.pane_button = QToolButton(self.tabs)
        self.pane_button.setAutoRaise(True)
        self.pane_button.clicked.connect(self._on_pane_button_clicked)
        self.tabs.setCornerWidget(self.pane_button, Qt.Corner.TopRightCorner)
        self.tabs.tabBarClicked.connect(self._on_tabs_tab_bar_clicked)
        self.splitter.addWidget(self.scroll)
        self.splitter.addWidget(self.tabs)
        self.splitter.setCollapsible(0, False)
        self.splitter.setCollapsible(1, True)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([560, 160])
        self._restore_split()
        self.splitter.splitterMoved.connect(self._on_splitter_moved)
        self._update_pane_button()
        self.stack.addWidget(self.splitter)

        self._process_models: dict[int, ProcessTableModel] = {}
        self._process_views: dict[int, QWidget] = {}
        self._process_empty: dict[int, tuple[QWidget, QLabel]] = {}

        self._repaint_timer = QTimer(self)
        self._repaint_timer.setObjectName("dashboard-repaint")
        self._repaint_timer.setInterval(REPAINT_MS)
        self._repaint_timer.timeout.connect(self._on_repaint_timer_timeout)
        self._pan_timer = QTimer(self)  # re-fetches soon after a pan/zoom, not on every mouse move
        self._pan_timer.setObjectName("dashboard-pan")
        self._pan_timer.setSingleShot(True)
        self._pan_timer.setInterval(120)
        self._pan_timer.timeout.connect(self._on_pan_timer_timeout)
        self._split_save_timer = QTimer(self)  # one write when a drag of the split ends
        self._split_save_timer.setSingleShot(True)
        self._split_save_timer.setInterval(500)
        self._split_save_timer.timeout.connect(self._save_split)

        self.bridge.snapshot_received.connect(self._on_bridge_snapshot_received)
        self.bridge.alert_raised.connect(self._on_bridge_alert_raised)
        self.bridge.hub_changed.connect(self._on_bridge_hub_changed)
        self._on_bridge_hub_changed(self.bridge.hub)

    # ---- Public API
    def shutdown(self) -> None:
        self._repaint_timer.stop()
        self._pan_timer.stop()
        if self._split_save_timer.isActive():
            self._split_save_timer.stop()
            self._save_split()

    def cards(self) -> dict[int, GpuCard]:
        return dict(self._cards)

    def process_model(self, gpu_index: int) -> ProcessTableModel | None:
        return self._process_models.get(gpu_index)

    def set_window(self, seconds: int) -> None:
        index = self.window_combo.findData(seconds)
        if index >= 0:
            self.window_combo.setCurrentIndex(index)

    def set_follow_live(self, follow: bool) -> None:
        self.live_button.setChecked(follow)

    def repaint_now(self) -> None:
        """Repaint the visible cards from the newest snapshot and the history."""
        self._repaint(force=True)

    def has_drawn_history(self) -> bool:
        """True once every GPU card has drawn a curve with at least two points.

        The tiles fill from the first reading; the graphs need the history (the
        demo's hours are loaded just after it), so screenshots and the
        self-test wait for this rather than for the first reading.
        """
        return bool(self._cards) and all(card.graphs.drawn_points() >= 2 for card in self._cards.values())

    def explains_instead_of_cards(self) -> bool:
        """True when a reading came and the page explains why there is nothing to draw."""
        return self._snapshot is not None and self.stack.currentIndex() == 0

    def alerts_shown(self) -> list[Any]:
        return list(self._alerts)

    # ---- Qt methods
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        if self.bridge.hub is not None:
            self._repaint_timer.start()
        self._dirty = True

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        super().paintEvent(event)
        if not self._graphs_loaded and self.bridge.hub is not None:
            # Once the window is on screen, import the plotting code while the first
            # readings are still on their way.
            self._graphs_loaded = True
            QTimer.singleShot(0, _preload_graphs)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        narrow = self._narrow_cards()
        for card in self._cards.values():
            card.set_narrow(narrow)

    def _narrow_cards(self) -> bool:
        """Cards reflow below about 1250 px of window: six tiles and five graphs no longer fit in a row."""
        return self.width() < NARROW_PAGE_PX

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802
        super().hideEvent(event)
        self._repaint_timer.stop()  # a hidden dashboard costs nothing

    # ---- Building
    def _initial_window(self) -> int:
        wanted = int(self.context.settings_store.settings.monitor.window_s)
        return min(WINDOWS_S, key=lambda w: abs(w - wanted))

    def _build_toolbar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        bar.setSpacing(8)
        heading = self.tr("Dashboard")
        title = QLabel(f"<span style='font-size:18px; font-weight:600; color:#1f2933'>{heading}</span>", self)
        # Elided, so a long replay name never makes the page wider than a laptop's window.
        self.source_label = ElidedLabel("", self)
        self.source_label.setObjectName("SourceLabel")
        bar.addWidget(title)
        bar.addSpacing(8)
        bar.addWidget(self.source_label, 1)
        self.window_label = QLabel(self.tr("Time window"), self)
        bar.addWidget(self.window_label)
        self.window_combo = QComboBox(self)
        labels = (self.tr("1 minute"), self.tr("5 minutes"), self.tr("10 minutes"), self.tr("30 minutes"),
                  self.tr("1 hour"), self.tr("6 hours"), self.tr("24 hours"))
        for seconds, label in zip(WINDOWS_S, labels):
            self.window_combo.addItem(label, seconds)
        self.window_combo.setCurrentIndex(WINDOWS_S.index(self._window_s))
        self.window_combo.currentIndexChanged.connect(self._on_window_combo_changed)
        bar.addWidget(self.window_combo)
        self.live_button = QPushButton(self.tr("Live"), self)
        self.live_button.setCheckable(True)
        self.live_button.setChecked(True)
        self.live_button.setToolTip(self.tr("Follow the newest readings. Drag or scroll a graph to look back; "
                                            "press Live to return."))
        self.live_button.toggled.connect(self._on_live_button_toggled)
        bar.addWidget(self.live_button)
        self.back_live_button = QPushButton(self.tr("Back to live"), self)
        self.back_live_button.setToolTip(self.tr("Close the replay and monitor this computer's GPUs again."))
        self.back_live_button.clicked.connect(self._on_back_live_button_clicked)
        self.back_live_button.hide()
        bar.addWidget(self.back_live_button)
        self.leave_demo_button = QPushButton(self.tr("Leave the demo"), self)
        self.leave_demo_button.setToolTip(self.tr("Stop the simulated run and monitor this computer's GPUs."))
        self.leave_demo_button.clicked.connect(self._on_leave_demo_button_clicked)
        self.leave_demo_button.hide()
        bar.addWidget(self.leave_demo_button)
        self.sessions_button = QPushButton(self.tr("Sessions…"), self)
        self.sessions_button.setToolTip(self.tr("Open, compare and export recorded sessions, or open an nvidia-smi log."))
        self.sessions_button.clicked.connect(self._on_sessions_button_clicked)
        bar.addWidget(self.sessions_button)
        return bar

    # ---- Data in
    @Slot(object)
    def _on_bridge_hub_changed(self, hub: Any) -> None:
        self._snapshot = None
        self._alerts.clear()
        self._show_no_alerts()
        self._rebuild_cards(())
        self._follow_live = True
        self.live_button.setChecked(True)
        latest = getattr(hub, "latest", None) if hub is not None else None
        if isinstance(latest, Snapshot):
            self._snapshot = latest
        for alert in self.bridge.recent_alerts(MAX_ALERTS_SHOWN):
            self._on_bridge_alert_raised(alert)
        self._replay = hub is not None and not getattr(hub, "live", True)
        self.live_button.setEnabled(not self._replay)
        self.back_live_button.setVisible(self._replay)
        self.leave_demo_button.setVisible(hub is not None and not self._replay and _source_kind(hub) == "simulated")
        if self._replay:
            # A replay does not move: show all of it, then let the user zoom in.
            span = hub.history.time_range()
            if span is not None:
                self._follow_live = False
                self.live_button.setChecked(False)
                self._view = (span[0], max(span[1], span[0] + 60))
        self._update_source_label()
        if hub is not None and self.isVisible():
            self._repaint_timer.start()
        self._repaint(force=True)

    @Slot(object)
    def _on_bridge_snapshot_received(self, snapshot: Snapshot) -> None:
        if self._label_loading and not getattr(self.bridge.hub, "backfill_pending", False):
            self._update_source_label()  # the demo's history is in
        first = self._snapshot is None
        self._snapshot = snapshot
        self._dirty = True
        if first:  # show the cards at once rather than up to a second later
            self._repaint(force=True)

    @Slot(object)
    def _on_bridge_alert_raised(self, alert: Any) -> None:
        if not self._alerts:
            self.alerts_list.clear()  # the "no alerts" line
        self._alerts.append(alert)
        del self._alerts[:-MAX_ALERTS_SHOWN]
        stamp = time.strftime("%H:%M:%S", time.localtime(alert.t))
        title = getattr(alert, "title", None)  # the message itself names the GPU
        head = f"{render(title)} — " if title is not None else ""
        item = QListWidgetItem(f"{stamp}   {head}{render(alert.message)}")
        severity = str(getattr(getattr(alert, "severity", ""), "value", getattr(alert, "severity", "")))
        item.setForeground(QColor("#c62828") if severity in ("critical", "error") else QColor("#b44d12")
                           if severity == "warning" else QColor("#1f2933"))
        self.alerts_list.insertItem(0, item)
        while self.alerts_list.count() > MAX_ALERTS_SHOWN:
            self.alerts_list.takeItem(self.alerts_list.count() - 1)
        self.tabs.setTabText(2, self.tr("Alerts ({count})").format(count=len(self._alerts)))

    # ---- Bottom pane
    def _show_no_alerts(self) -> None:
        self.alerts_list.clear()
        item = QListWidgetItem(self.no_alerts_label)
        item.setForeground(QColor("#52606d"))
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        self.alerts_list.addItem(item)
        self.tabs.setTabText(2, self.tr("Alerts"))

    def pane_collapsed(self) -> bool:
        return self.splitter.sizes()[1] == 0

    def set_pane_collapsed(self, collapsed: bool) -> None:
        sizes = self.splitter.sizes()
        total = sum(sizes)
        if collapsed:
            if sizes[1]:
                self._pane_height = sizes[1]
            self.splitter.setSizes([total, 0])
        else:
            height = max(120, min(getattr(self, "_pane_height", 190), total // 2))
            self.splitter.setSizes([max(0, total - height), height])
        self._save_split()
        self._update_pane_button()

    def _update_pane_button(self) -> None:
        collapsed = self.pane_collapsed()
        self.pane_button.setText("▴" if collapsed else "▾")
        self.pane_button.setToolTip(self.tr("Show the processes, insights and alerts") if collapsed
                                    else self.tr("Fold the processes, insights and alerts away"))

    def _split_settings(self) -> QSettings:
        # Beside window.ini's other entries (gui.app), so the tests' GPU_ASSISTANT_HOME moves it too.
        return QSettings(str(self.context.paths.config_dir / "window.ini"), QSettings.Format.IniFormat)

    def _restore_split(self) -> None:
        state = self._split_settings().value("dashboard/split")
        if state is not None:
            self.splitter.restoreState(state)

    def _save_split(self) -> None:
        self._split_settings().setValue("dashboard/split", self.splitter.saveState())

    def _on_splitter_moved(self, _pos: int, _index: int) -> None:
        sizes = self.splitter.sizes()
        if sizes[1]:
            self._pane_height = sizes[1]
        self._update_pane_button()
        self._split_save_timer.start()

    def _on_pane_button_clicked(self) -> None:
        self.set_pane_collapsed(not self.pane_collapsed())

    def _on_tabs_tab_bar_clicked(self, _index: int) -> None:
        if self.pane_collapsed():  # a click on a tab of the folded pane opens it
            self.set_pane_collapsed(False)

    # ---- Repainting
    @Slot()
    def _on_repaint_timer_timeout(self) -> None:
        self._repaint(force=False)

    def _repaint(self, force: bool) -> None:
        snapshot = self._snapshot
        hub = self.bridge.hub
        if not self._show_empty_state_if_needed(hub, snapshot):
            return
        assert snapshot is not None
        key = tuple((g.index, g.uuid) for g in snapshot.gpus)
        if key != self._card_key:
            self._rebuild_cards(snapshot.gpus)
        if not (force or self._dirty):
            return
        self._dirty = False
        t1 = snapshot.t
        if self._follow_live or self._view is None:
            self._view = (t1 - self._window_s, t1)
        t0, t1 = self._view
        history = getattr(hub, "history", None)
        samples = {s.index: s for s in snapshot.samples}
        now = time.monotonic()
        # Graphs follow at most every GRAPH_MIN_INTERVAL_S (values every tick): a 1-minute window
        # moves about 4 px a second, and redrawing ten plots each second is most of the
        # dashboard's CPU (see tests/bench/bench_dashboard.py idle).
        graphs_slot = force or now - self._last_graphs >= GRAPH_MIN_INTERVAL_S - 0.05
        drew_graphs = False
        for index, card in self._cards.items():
            if not (force or card.is_on_screen()):
                continue
            sample = samples.get(index)
            seconds = history.seconds_in_reason(index) if history is not None else {}
            card.update_live(sample, seconds)
            if force or (graphs_slot and card.graphs_due(t0, t1)):
                drew_graphs = True
                card.graphs.apply_limits(card.info, sample)
                card.graphs.set_x_range(t0, t1)
                if history is not None:
                    card.graphs.refresh(history, index, t0, t1)
                card.graphs_view = (t0, t1)
        for index, model in self._process_models.items():
            sample = samples.get(index)
            model.set_processes(sample.processes if sample and sample.state == DeviceState.OK else None)
            view, empty = self._process_empty[index]
            has_rows = model.rowCount() > 0
            if view.isHidden() == has_rows:
                view.setVisible(has_rows)
                empty.setVisible(not has_rows)
        if drew_graphs:
            self._last_graphs = now
        if force or now - self._last_insights >= INSIGHTS_EVERY_S:
            self._last_insights = now
            self._update_insights(hub, snapshot)
        self.repainted.emit()

    def _show_empty_state_if_needed(self, hub: Any, snapshot: Snapshot | None) -> bool:
        """Switch between the cards and the explanation; True when cards are shown."""
        shown = self._cards_or_reason(hub, snapshot)
        for control in (self.window_label, self.window_combo, self.live_button):
            control.setVisible(shown)  # no graphs, nothing to choose a time window for
        return shown

    def _cards_or_reason(self, hub: Any, snapshot: Snapshot | None) -> bool:
        demo = bool(self.context.demo)
        if hub is None:
            self.no_gpu.explain(health.StateText(
                self.tr("Monitoring is not running"),
                self.tr("The monitoring service could not be started. Run '{command} monitor --once' in a "
                        "terminal to see the reason, or try the demo.").format(command=program_name()),
                True), None, demo)
            self.stack.setCurrentIndex(0)
            return False
        if snapshot is None:
            # The hub reports every outcome (a missing driver too) as a snapshot; until the first
            # one arrives it is starting (the demo first fills hours of history).
            if _source_kind(hub) == "simulated":
                starting = health.StateText(self.tr("Starting the demo…"), self.tr(
                    "Simulating a two-GPU training run: the first readings come in a moment, "
                    "its past two hours just after."), False)
            else:
                starting = health.StateText(self.tr("Starting…"), self.tr("Waiting for the first readings."), False)
            self.no_gpu.explain(starting, None, True)
            self.stack.setCurrentIndex(0)
            return False
        if snapshot.status.state != DeviceState.OK and not snapshot.gpus:
            # A replay that failed is about the file, not about a GPU or its driver.
            text = health.state_text(snapshot.status.state) if getattr(hub, "live", True) else health.REPLAY_FAILED_TEXT
            self.no_gpu.explain(text, snapshot.status.describe(), demo)
            self.stack.setCurrentIndex(0)
            return False
        if not snapshot.gpus:
            self.no_gpu.explain(health.NO_GPU_TEXT, snapshot.status.describe(), demo)
            self.stack.setCurrentIndex(0)
            return False
        self.stack.setCurrentIndex(1)
        return True

    def _rebuild_cards(self, gpus: tuple[GpuInfo, ...]) -> None:
        self._card_key = tuple((g.index, g.uuid) for g in gpus)
        for card in self._cards.values():
            self.cards_layout.removeWidget(card)
            card.deleteLater()
        self._cards.clear()
        while self.cards_layout.count():
            self.cards_layout.takeAt(0)
        for view in self._process_views.values():
            self.processes_layout.removeWidget(view)
            view.deleteLater()
        self.process_tabs.clear()
        self._process_views.clear()
        self._process_models.clear()
        self._process_empty.clear()
        # Up to two GPUs: their tables side by side; more: one tab per GPU, so names stay readable.
        self.process_tabs.setVisible(len(gpus) > 2)
        master = None
        for info in gpus:
            card = GpuCard(info, self.cards_host)
            card.set_min_heights(285 if len(gpus) > 1 else 420, 400 if len(gpus) > 1 else 460)
            card.set_narrow(self._narrow_cards())
            card.graphs.on_user_range(self._on_graphs_user_range)
            if master is None:
                master = card.graphs.master_plot()
            else:
                card.graphs.master_plot().setXLink(master)
            self._cards[info.index] = card
            self.cards_layout.addWidget(card, 1)
            card.show()
            self._add_process_table(info)
        if len(gpus) == 1:
            self.cards_layout.addStretch(0)

    def _add_process_table(self, info: GpuInfo) -> None:
        box = QWidget(self.processes_tab)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        caption = QLabel(self.tr("GPU {index} · {name}").format(index=info.index, name=info.name), box)
        caption.setObjectName("TileCaption")
        model = ProcessTableModel(box)
        proxy = QSortFilterProxyModel(box)
        proxy.setSourceModel(model)
        proxy.setSortRole(Qt.ItemDataRole.UserRole)
        view = QTableView(box)
        view.setModel(proxy)
        view.setSortingEnabled(True)
        view.sortByColumn(ProcessTableModel.MEMORY, Qt.SortOrder.DescendingOrder)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.verticalHeader().hide()
        view.verticalHeader().setDefaultSectionSize(22)
        header = view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(ProcessTableModel.NAME, QHeaderView.ResizeMode.Stretch)
        view.setAlternatingRowColors(True)
        empty = QLabel(self.tr("No program is using this GPU."), box)
        empty.setObjectName("TileDetail")
        empty.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        empty.setContentsMargins(4, 6, 4, 6)
        layout.addWidget(caption)
        layout.addWidget(view)
        layout.addWidget(empty, 1)
        view.hide()
        self._process_empty[info.index] = (view, empty)
        if self.process_tabs.isVisibleTo(self.processes_tab):
            caption.hide()
            self.process_tabs.addTab(box, self.tr("GPU {index}").format(index=info.index))
        else:
            self.processes_layout.addWidget(box, 1)
        self._process_models[info.index] = model
        self._process_views[info.index] = box

    def _update_insights(self, hub: Any, snapshot: Snapshot) -> None:
        insights = _insights_for(hub, snapshot)
        if not insights:
            html = "<p style='color:#52606d'>" + self.tr(
                "Nothing to report: no bottleneck, slowdown or heat problem seen in this window.") + "</p>"
        else:
            blocks = []
            listed: set[str] = set()  # a fix already given above is not repeated
            for insight in insights:
                fixes = ""
                for fix in getattr(insight, "fixes", None) or ():
                    text = render(fix)
                    if text not in listed:
                        listed.add(text)
                        fixes += f"<li>{text}</li>"
                # The service's titles already name the GPU.
                blocks.append(f"<p><b>{render(insight.title)}</b><br>{render(insight.detail)}</p>"
                              + (f"<ul>{fixes}</ul>" if fixes else ""))
            html = "".join(blocks)
        self.insights_view.setHtml(html)
        count = len(insights)
        self.tabs.setTabText(1, self.tr("Insights ({count})").format(count=count) if count else self.tr("Insights"))

    def _update_source_label(self) -> None:
        hub = self.bridge.hub
        if hub is None:
            self.source_label.setText("")
            return
        kind = _source_kind(hub)
        tip = ""
        if kind == "simulated":
            text = self.tr("Demo: a simulated training run")
            if getattr(hub, "backfill_pending", False):
                text = self.tr("Demo: a simulated training run (loading its past two hours…)")
        elif kind == "replay":
            path = getattr(getattr(hub, "source", None), "path", None)
            span = hub.history.time_range()
            if path is not None and span is not None:
                text = self.tr("Replay of {name}, {start} to {end}").format(
                    name=Path(path).name, start=time.strftime("%Y-%m-%d %H:%M", time.localtime(span[0])),
                    end=time.strftime("%H:%M" if time.localtime(span[0]).tm_yday == time.localtime(span[1]).tm_yday
                                      else "%Y-%m-%d %H:%M", time.localtime(span[1])))
                tip = str(path)
            elif path is not None:
                text = self.tr("Replay of {name}").format(name=Path(path).name)
                tip = str(path)
            else:
                text = self.tr("Replay of a recorded log")
        else:
            text = self.tr("Live from the NVIDIA driver")
        self.source_label.setText(text)
        self.source_label.setToolTip(tip)
        self._label_loading = kind == "simulated" and getattr(hub, "backfill_pending", False)

    # ---- Slots
    def _on_window_combo_changed(self, _index: int) -> None:
        self._window_s = int(self.window_combo.currentData())
        settings = self.context.settings_store.settings
        if settings.monitor.window_s != self._window_s:
            settings.monitor.window_s = self._window_s
            self.context.settings_store.save()
        self._follow_live = True
        self.live_button.setChecked(True)
        self._repaint(force=True)

    def _on_live_button_toggled(self, checked: bool) -> None:
        self._follow_live = checked
        if checked:
            self._repaint(force=True)

    def _on_graphs_user_range(self, t0: float, t1: float) -> None:
        self._view = (t0, t1)
        if self._follow_live:
            self._follow_live = False
            self.live_button.blockSignals(True)
            self.live_button.setChecked(False)
            self.live_button.blockSignals(False)
        self._pan_timer.start()

    def _on_pan_timer_timeout(self) -> None:
        self._dirty = True
        self._last_graphs = 0.0  # the user moved the view: redraw now, not at the next graph slot
        self._repaint(force=False)

    def _on_scroll_value_changed(self, _value: int) -> None:
        self._dirty = True  # cards that scroll into view get fresh data on the next tick

    def _on_no_gpu_setup_requested(self) -> None:
        window = self.window()
        show_page = getattr(window, "show_page", None)
        if callable(show_page):
            show_page("setup")

    def _on_no_gpu_demo_requested(self) -> None:
        from gui.app import restart_telemetry

        restart_telemetry(self.context, demo=True)

    def _on_leave_demo_button_clicked(self) -> None:
        from gui.app import restart_telemetry

        restart_telemetry(self.context, demo=False)

    def _on_back_live_button_clicked(self) -> None:
        from gui.app import restart_telemetry

        restart_telemetry(self.context, demo=self.context.demo)

    def _on_sessions_button_clicked(self) -> None:
        from gui.monitor.sessions import SessionsDialog

        dialog = SessionsDialog(self.context, self)
        dialog.open()


def is_laptop_gpu(name: str) -> bool:
    """NVIDIA names its mobile parts "... Laptop GPU" (RTX 30 onwards), "Max-Q" or "Mobile"."""
    lowered = name.lower()
    return any(word in lowered for word in ("laptop", "max-q", "mobile"))


def _set_text(label: QLabel, text: str) -> None:
    if label.text() != text:  # an unchanged label must not cost a relayout every second
        label.setText(text)


def _preload_graphs() -> None:
    import gui.monitor.graphs  # noqa: F401


def _source_kind(hub: TelemetryFeed) -> SourceKind:
    """Live, demo or replay, as the source says (a ``SourceKind`` compares equal to its value)."""
    return hub.source.kind


def _insights_for(hub: Any, snapshot: Snapshot) -> list[Any]:
    """Training-run insights for the newest snapshot (``services.telemetry.insights`` does the analysis)."""
    history = getattr(hub, "history", None)
    if history is None:
        return []
    try:
        from services.telemetry.insights import analyze
    except ImportError:
        return []
    return list(analyze(history, snapshot, snapshot.system))
