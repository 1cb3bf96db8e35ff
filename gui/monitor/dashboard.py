"""The Dashboard page: a card per GPU with live values and graphs.

Data flow: the hub samples on its worker thread and calls the bridge, which
re-emits each ``Snapshot`` in the GUI thread. The page only stores the newest
snapshot; a 1 Hz timer (running only while the page is visible) repaints the
cards that are on screen from the hub's history. So a burst of snapshots never
costs more than one repaint, and a hidden page costs nothing.
"""
from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QPaintEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QStackedWidget, QVBoxLayout, QWidget

from gui.context import TelemetryControl
from gui.monitor import page_links
from gui.monitor.card import GpuCard
from gui.monitor.card_list import GpuCardList
from gui.monitor.pane_split import PaneSplitter
from gui.monitor.panels import BottomPane, NoGpuPanel, centred
from gui.monitor.strip import GpuStrip
from gui.monitor.toolbar import WINDOWS_S, DashboardToolbar
from gui.widgets.visible_timer import VisibleTimer
from services.paths import AppPaths
from services.program import program_name
from services.settings import SettingsStore
from gui.monitor.widgets import STYLE
from services.telemetry import health
from services.telemetry.feed import TelemetryFeed
from services.telemetry.model import DeviceState, GpuInfo, Snapshot, SourceKind

REPAINT_MS = 1000
INSIGHTS_EVERY_S = 5.0
GRAPH_MIN_INTERVAL_S = 3.0
MAX_ALERTS_SHOWN = 200
NARROW_PAGE_PX = 1030  # page width (window less the 190 px sidebar and margins) below which cards reflow
# A live view never spans less than this, so the first readings do not fill the whole width.
MIN_LIVE_SPAN_S = 60.0


def live_view_start(recorded: tuple[float, float] | None, now: float, window_s: float) -> float:
    """Where a live view starts: the chosen window back from ``now``, but no earlier than the first reading
    (with at least MIN_LIVE_SPAN_S shown), so a fresh start fills the width and widens as data comes in
    instead of sitting at the right edge of a 10-minute window for ten minutes."""
    start = now - window_s
    if recorded is None:
        return start
    return max(start, min(recorded[0], now - MIN_LIVE_SPAN_S))

class DashboardPage(QWidget):
    """Live GPU cards, processes, insights and alerts.

    Signals:
        repainted(): a repaint of the visible cards finished (tests and benchmarks wait on it).
    """

    repainted = Signal()

    def __init__(self, settings_store: SettingsStore, paths: AppPaths, telemetry: TelemetryControl,
                 parent: QWidget | None = None) -> None:
        """``telemetry``: starts and replaces the monitored hub, its bridge brings the readings, and
        it says whether the demo is the live choice (the no-GPU panel offers it otherwise)."""
        super().__init__(parent)
        self.setObjectName("DashboardPage")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(STYLE)
        self.settings_store = settings_store
        self.paths = paths
        self.control = telemetry
        self.bridge = self.control.bridge()
        self._snapshot: Snapshot | None = None
        self._follow_live = True
        self._view: tuple[float, float] | None = None
        self._window_s = self._initial_window()
        self._dirty = True
        self._last_insights = 0.0
        self._last_graphs = 0.0
        self._label_loading = False
        self._replay = False
        self._graphs_loaded = False

        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 12, 16, 12)
        outer.setSpacing(10)
        self.toolbar = DashboardToolbar(self._window_s, self)
        self.toolbar.window_combo.currentIndexChanged.connect(self._on_window_combo_changed)
        self.toolbar.live_button.toggled.connect(self._on_live_button_toggled)
        self.toolbar.back_live_button.clicked.connect(self._on_back_live_button_clicked)
        self.toolbar.leave_demo_button.clicked.connect(self._on_leave_demo_button_clicked)
        self.toolbar.sessions_button.clicked.connect(self._on_sessions_button_clicked)
        outer.addWidget(self.toolbar)

        self.stack = QStackedWidget(self)
        outer.addWidget(self.stack, 1)

        # Page 0: nothing to show, and why.
        self.no_gpu = NoGpuPanel()
        self.no_gpu.setup_requested.connect(self._on_no_gpu_setup_requested)
        self.no_gpu.demo_requested.connect(self._on_no_gpu_demo_requested)
        self.stack.addWidget(centred(self.no_gpu, self))

        # Page 1: the cards above, processes / insights / alerts below.
        # Beside window.ini's other entries (gui.app), so the tests' GPU_ASSISTANT_HOME moves it too.
        self.splitter = PaneSplitter(paths.config_dir / "window.ini", self)
        self.card_list = GpuCardList(lambda: self.settings_store.settings.alerts, self._on_graphs_user_range)
        self.card_list.verticalScrollBar().valueChanged.connect(self._on_scroll_value_changed)
        self.tabs = BottomPane(self.splitter, max_alerts=MAX_ALERTS_SHOWN)
        self.process_view = self.tabs.process_view
        self.process_view.open_in_hybrid.connect(self._on_process_view_open_in_hybrid)
        self.process_view.open_in_fit.connect(self._on_process_view_open_in_fit)
        # Above the cards, outside their scroll area: every GPU's state at a glance.
        self.top = QWidget(self.splitter)
        top_layout = QVBoxLayout(self.top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.setSpacing(8)
        self.strip = GpuStrip(self.top)
        self.strip.hide()
        self.strip.gpu_clicked.connect(self._on_strip_gpu_clicked)
        top_layout.addWidget(self.strip)
        top_layout.addWidget(self.card_list, 1)
        self.splitter.set_parts(self.top, self.tabs)
        self.stack.addWidget(self.splitter)

        # A hidden dashboard costs nothing: the repaint timer runs only while the page is shown.
        self._repaint_timer = VisibleTimer(self, REPAINT_MS, self._on_repaint_timer_timeout,
                                           should_run=lambda: self.bridge.hub is not None, name="dashboard-repaint")
        self._pan_timer = QTimer(self)  # re-fetches soon after a pan/zoom, not on every mouse move
        self._pan_timer.setObjectName("dashboard-pan")
        self._pan_timer.setSingleShot(True)
        self._pan_timer.setInterval(120)
        self._pan_timer.timeout.connect(self._on_pan_timer_timeout)

        self.bridge.snapshot_received.connect(self._on_bridge_snapshot_received)
        self.bridge.alert_raised.connect(self._on_bridge_alert_raised)
        self.bridge.hub_changed.connect(self._on_bridge_hub_changed)
        self._on_bridge_hub_changed(self.bridge.hub)

    # ---- Public API
    def shutdown(self) -> None:
        self.process_view.shutdown()
        self._repaint_timer.stop()
        self._pan_timer.stop()
        self.splitter.shutdown()

    def cards(self) -> dict[int, GpuCard]:
        return dict(self.card_list.cards())

    def set_window(self, seconds: int) -> None:
        index = self.toolbar.window_combo.findData(seconds)
        if index >= 0:
            self.toolbar.window_combo.setCurrentIndex(index)

    def set_follow_live(self, follow: bool) -> None:
        self.toolbar.live_button.setChecked(follow)

    def repaint_now(self) -> None:
        """Repaint the visible cards from the newest snapshot and the history."""
        self._repaint(force=True)

    def has_drawn_history(self) -> bool:
        """True once every GPU card has drawn a curve with at least two points.

        The tiles fill from the first reading; the graphs need the history (the
        demo's hours are loaded just after it), so screenshots and the
        self-test wait for this rather than for the first reading.
        """
        return self.card_list.has_drawn_history()

    def explains_instead_of_cards(self) -> bool:
        """True when a reading came and the page explains why there is nothing to draw."""
        return self._snapshot is not None and self.stack.currentIndex() == 0

    def alerts_shown(self) -> list[Any]:
        return list(self.tabs.alerts)

    # ---- Qt methods
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._dirty = True

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._graphs_loaded and self.bridge.hub is not None:
            # Once the window is on screen, import the plotting code while the first
            # readings are still on their way.
            self._graphs_loaded = True
            QTimer.singleShot(0, _preload_graphs)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.card_list.set_narrow(self._narrow_cards())

    def _narrow_cards(self) -> bool:
        """Cards reflow below about 1250 px of window: six tiles and five graphs no longer fit in a row."""
        return self.width() < NARROW_PAGE_PX

    # ---- Building
    def _initial_window(self) -> int:
        wanted = int(self.settings_store.settings.monitor.window_s)
        return min(WINDOWS_S, key=lambda w: abs(w - wanted))

    # ---- Data in
    @Slot(object)
    def _on_bridge_hub_changed(self, hub: TelemetryFeed | None) -> None:
        self._snapshot = None
        self.tabs.show_no_alerts()
        self._rebuild_cards(())
        self._follow_live = True
        self.toolbar.live_button.setChecked(True)
        if hub is not None:
            self._snapshot = hub.latest
        # The hub's process service (services.telemetry.factory.attach_processes); None: no process view.
        self.process_view.follow(getattr(hub, "processes", None) if hub is not None else None)
        for alert in self.bridge.recent_alerts(MAX_ALERTS_SHOWN):
            self._on_bridge_alert_raised(alert)
        self._replay = hub is not None and not hub.live
        self.toolbar.live_button.setEnabled(not self._replay)
        self.toolbar.back_live_button.setVisible(self._replay)
        self.toolbar.leave_demo_button.setVisible(hub is not None and not self._replay and _source_kind(hub) is SourceKind.SIMULATED)
        if self._replay:
            # A replay does not move: show all of it, then let the user zoom in.
            span = hub.history.time_range()
            if span is not None:
                self._follow_live = False
                self.toolbar.live_button.setChecked(False)
                self._view = (span[0], max(span[1], span[0] + 60))
        self._update_source_label()
        self._repaint_timer.resume()
        self._repaint(force=True)

    @Slot(object)
    def _on_bridge_snapshot_received(self, snapshot: Snapshot) -> None:
        if self._label_loading and not (self.bridge.hub is not None and self.bridge.hub.backfill_pending):
            self._update_source_label()  # the demo's history is in
        first = self._snapshot is None
        self._snapshot = snapshot
        self._dirty = True
        if first:  # show the cards at once rather than up to a second later
            self._repaint(force=True)

    @Slot(object)
    def _on_bridge_alert_raised(self, alert: Any) -> None:
        self.tabs.add_alert(alert)
        self.process_view.show_alert(alert)

    # ---- Bottom pane
    def pane_collapsed(self) -> bool:
        return self.splitter.pane_collapsed()

    def set_pane_collapsed(self, collapsed: bool) -> None:
        self.splitter.set_pane_collapsed(collapsed)

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
        if not self.card_list.shows(snapshot.gpus):
            self._rebuild_cards(snapshot.gpus)
        if not (force or self._dirty):
            return
        self._dirty = False
        t1 = snapshot.t
        assert hub is not None  # cards are only shown with a hub
        history = hub.history
        if self._follow_live or self._view is None:
            self._view = (live_view_start(history.time_range(), t1, self._window_s), t1)
        t0, t1 = self._view
        samples = {s.index: s for s in snapshot.samples}
        now = time.monotonic()
        # Graphs follow at most every GRAPH_MIN_INTERVAL_S (values every tick): a 1-minute window
        # moves about 4 px a second, and redrawing ten plots each second is most of the
        # dashboard's CPU (see tests/bench/bench_dashboard.py idle).
        graphs_slot = force or now - self._last_graphs >= GRAPH_MIN_INTERVAL_S - 0.05
        drew_graphs = False
        for index, card in self.card_list.cards().items():
            if not (force or card.is_on_screen()):
                continue
            sample = samples.get(index)
            seconds = history.seconds_in_reason(index)
            card.update_live(sample, seconds)
            if force or (graphs_slot and card.graphs_due(t0, t1)):
                drew_graphs = True
                card.draw_graphs(card.info, sample, history, index, t0, t1)
        self.strip.show_samples(samples)
        if drew_graphs:
            self._last_graphs = now
        if force or now - self._last_insights >= INSIGHTS_EVERY_S:
            self._last_insights = now
            self.tabs.show_insights(_insights_for(hub, snapshot))
        self.repainted.emit()

    def _show_empty_state_if_needed(self, hub: TelemetryFeed | None, snapshot: Snapshot | None) -> bool:
        """Switch between the cards and the explanation; True when cards are shown."""
        shown = self._cards_or_reason(hub, snapshot)
        self.toolbar.show_window_controls(shown)  # no graphs, nothing to choose a time window for
        return shown

    def _cards_or_reason(self, hub: TelemetryFeed | None, snapshot: Snapshot | None) -> bool:
        demo = self.control.demo
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
            if _source_kind(hub) is SourceKind.SIMULATED:
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
            text = health.state_text(snapshot.status.state) if hub.live else health.REPLAY_FAILED_TEXT
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
        self.strip.set_gpus(gpus)
        self.card_list.rebuild(gpus, self._narrow_cards())

    def _update_source_label(self) -> None:
        hub = self.bridge.hub
        self.toolbar.show_source(hub)
        if hub is not None:
            self._label_loading = _source_kind(hub) is SourceKind.SIMULATED and hub.backfill_pending

    # ---- Slots
    def _on_window_combo_changed(self, _index: int) -> None:
        self._window_s = int(self.toolbar.window_combo.currentData())
        settings = self.settings_store.settings
        if settings.monitor.window_s != self._window_s:
            settings.monitor.window_s = self._window_s
            self.settings_store.save()
        self._follow_live = True
        self.toolbar.live_button.setChecked(True)
        self._repaint(force=True)

    def _on_live_button_toggled(self, checked: bool) -> None:
        self._follow_live = checked
        if checked:
            self._repaint(force=True)

    def _on_graphs_user_range(self, t0: float, t1: float) -> None:
        self._view = (t0, t1)
        if self._follow_live:
            self._follow_live = False
            self.toolbar.live_button.blockSignals(True)
            self.toolbar.live_button.setChecked(False)
            self.toolbar.live_button.blockSignals(False)
        self._pan_timer.start()

    def _on_pan_timer_timeout(self) -> None:
        self._dirty = True
        self._last_graphs = 0.0  # the user moved the view: redraw now, not at the next graph slot
        self._repaint(force=False)

    def _on_scroll_value_changed(self, _value: int) -> None:
        self._dirty = True  # cards that scroll into view get fresh data on the next tick

    def _on_no_gpu_setup_requested(self) -> None:
        page_links.show_setup(self.window())

    def _on_strip_gpu_clicked(self, index: int) -> None:
        self.card_list.show_card(index)

    def _on_process_view_open_in_hybrid(self, pid: int) -> None:
        page_links.show_pid_in_hybrid(self.window(), pid)

    def _on_process_view_open_in_fit(self, model: str) -> None:
        page_links.show_model_in_fit(self.window(), model)

    def _on_no_gpu_demo_requested(self) -> None:
        self.control.start_demo()

    def _on_leave_demo_button_clicked(self) -> None:
        self.control.start_live()

    def _on_back_live_button_clicked(self) -> None:
        self.control.restart()

    def _on_sessions_button_clicked(self) -> None:
        from gui.monitor.sessions import SessionsDialog

        dialog = SessionsDialog(self.paths.recordings_dir, self.control.hubs, self.control, self)
        dialog.open()


def _preload_graphs() -> None:
    import gui.monitor.graphs  # noqa: F401


def _source_kind(hub: TelemetryFeed) -> SourceKind:
    """Live, demo or replay, as the source says."""
    return hub.source.kind


def _insights_for(hub: TelemetryFeed, snapshot: Snapshot) -> list[Any]:
    """Training-run insights for the newest snapshot (``services.telemetry.insights`` does the analysis)."""
    from services.power.store import recommended_limits
    from services.telemetry.insights import analyze

    # A saved efficiency sweep's recommended limit is what a heat or power-cap insight offers.
    return list(analyze(hub.history, snapshot, snapshot.system, sweep_limits=recommended_limits()))
