"""Moves telemetry from the hub's worker thread into the GUI thread.

The hub calls its listeners on its sampling thread. Widgets may only be touched
from the GUI thread, so the listener does nothing but emit a signal of a
QObject that lives in the GUI thread; Qt queues the call across threads.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot

from gui.context import AppContext

EXTRAS_KEY = "telemetry_bridge"


class TelemetryBridge(QObject):
    """One per app run; shared by the dashboard, the tray and the sessions panel.

    Signals:
        snapshot_received(object): a ``Snapshot``, in the GUI thread.
        alert_raised(object): an ``Alert`` the hub's alert engine fired, in the GUI thread.
        hub_changed(object): the hub was replaced (demo, replay); payload is the new hub or None.
    """

    snapshot_received = Signal(object)
    alert_raised = Signal(object)
    hub_changed = Signal(object)
    _from_worker = Signal(object)  # internal: the cross-thread hop

    def __init__(self, hub: Any = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._hub = None
        self._listener = None
        self._from_worker.connect(self._on_worker_snapshot, Qt.ConnectionType.QueuedConnection)
        self.set_hub(hub)

    # ---- Public API
    @classmethod
    def for_context(cls, context: AppContext) -> "TelemetryBridge":
        """The context's bridge, made on first use and kept in ``context.extras``."""
        bridge = context.extras.get(EXTRAS_KEY)
        if bridge is None or bridge.hub is not context.telemetry:
            if bridge is None:
                bridge = cls(context.telemetry)
                context.extras[EXTRAS_KEY] = bridge
            else:
                bridge.set_hub(context.telemetry)
        return bridge

    @property
    def hub(self) -> Any:
        return self._hub

    def set_hub(self, hub: Any) -> None:
        """Listen to ``hub`` from now on (the previous one is no longer heard)."""
        if hub is self._hub:
            return
        old = self._hub
        if old is not None and self._listener is not None and hasattr(old, "remove_listener"):
            old.remove_listener(self._listener)
        self._hub = hub
        self._listener = None
        if hub is not None:
            # One closure per hub, so a late snapshot of a replaced hub can be told apart.
            def listener(snapshot: Any, source: Any = hub) -> None:
                self._on_hub_snapshot(source, snapshot)

            self._listener = listener
            hub.add_listener(listener)
        if old is not None or hub is not None:
            self.hub_changed.emit(hub)

    def close(self) -> None:
        self.set_hub(None)

    # ---- Worker thread side
    def _on_hub_snapshot(self, hub: Any, snapshot: Any) -> None:
        """Called by the hub on its worker thread: only hop to the GUI thread."""
        try:
            self._from_worker.emit((hub, snapshot))
        except RuntimeError:  # the bridge was deleted while the hub was still running
            pass

    # ---- GUI thread side
    @Slot(object)
    def _on_worker_snapshot(self, payload: tuple[Any, Any]) -> None:
        hub, snapshot = payload
        if hub is not self._hub:  # a late snapshot from a hub we already replaced
            return
        self.snapshot_received.emit(snapshot)
        for alert in snapshot_alerts(snapshot):
            self.alert_raised.emit(alert)


def snapshot_alerts(snapshot: Any) -> list[Any]:
    """Alerts that fired on this tick (the hub puts them in ``Snapshot.extra``)."""
    extra = getattr(snapshot, "extra", None) or {}
    return list(extra.get("alerts") or ())
