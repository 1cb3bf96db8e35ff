"""Moves telemetry from the hub's worker thread into the GUI thread.

The hub calls its listeners on its sampling thread. Widgets may only be touched
from the GUI thread, so the listener does nothing but emit a signal of a
QObject that lives in the GUI thread; Qt queues the call across threads.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal, Slot

if TYPE_CHECKING:
    from services.telemetry.alerts import Alert
    from services.telemetry.feed import TelemetryFeed
    from services.telemetry.model import Snapshot


class TelemetryBridge(QObject):
    """One per app run (``TelemetryController.bridge()``); shared by the dashboard and the tray.

    Signals:
        snapshot_received(object): a ``Snapshot``, in the GUI thread.
        alert_raised(object): an ``Alert`` the hub's alert engine fired, in the GUI thread.
        hub_changed(object): the hub was replaced (demo, replay); payload is the new hub or None.
    """

    snapshot_received = Signal(object)
    alert_raised = Signal(object)
    hub_changed = Signal(object)
    _from_worker = Signal(object)  # internal: the cross-thread hop

    def __init__(self, hub: TelemetryFeed | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._hub: TelemetryFeed | None = None
        self._listener = None
        self._alert_listener = None
        self._from_worker.connect(self._on_worker_payload, Qt.ConnectionType.QueuedConnection)
        self.set_hub(hub)

    # ---- Public API
    @property
    def hub(self) -> TelemetryFeed | None:
        return self._hub

    def set_hub(self, hub: TelemetryFeed | None) -> None:
        """Listen to ``hub`` (and its alert engine) from now on; the previous one is no longer heard."""
        if hub is self._hub:
            return
        old = self._hub
        if old is not None:
            if self._listener is not None:
                old.remove_listener(self._listener)
            if self._alert_listener is not None and old.alerts is not None:
                old.alerts.remove_listener(self._alert_listener)
        self._hub = hub
        self._listener = None
        self._alert_listener = None
        if hub is not None:
            # One closure per hub, so a late call from a replaced hub can be told apart.
            def listener(snapshot: Snapshot, source: TelemetryFeed = hub) -> None:
                self._hop(("snapshot", source, snapshot))

            def alert_listener(alert: Alert, source: TelemetryFeed = hub) -> None:
                self._hop(("alert", source, alert))

            self._listener = listener
            hub.add_listener(listener)
            if hub.alerts is not None:
                self._alert_listener = alert_listener
                hub.alerts.add_listener(alert_listener)
        if old is not None or hub is not None:
            self.hub_changed.emit(hub)

    def recent_alerts(self, limit: int = 200) -> list[Alert]:
        """Alerts the hub's engine already holds (a replay's, or those before the page opened)."""
        if self._hub is None or self._hub.alerts is None:
            return []
        return self._hub.alerts.recent(limit)

    def close(self) -> None:
        self.set_hub(None)

    # ---- Worker thread side
    def _hop(self, payload: tuple[str, Any, Any]) -> None:
        """Called by the hub on its worker thread: only hop to the GUI thread."""
        try:
            self._from_worker.emit(payload)
        except RuntimeError:  # the bridge was deleted while the hub was still running
            pass

    # ---- GUI thread side
    @Slot(object)
    def _on_worker_payload(self, payload: tuple[str, Any, Any]) -> None:
        kind, hub, item = payload
        if hub is not self._hub:  # a late call from a hub we already replaced
            return
        if kind == "snapshot":
            self.snapshot_received.emit(item)
        else:
            self.alert_raised.emit(item)
