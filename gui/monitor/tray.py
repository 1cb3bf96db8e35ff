"""The tray icon: keeps monitoring when the window is closed, and shows alerts.

Alerts come from the hub's alert engine through the bridge. Each one is shown
as a desktop notification (when ``Settings.alerts.notify_desktop`` is on and
the desktop has a tray) and kept in the tray's session log, which the
dashboard's Alerts tab and the recording show too.
"""
from __future__ import annotations

import logging
import time
from typing import Any
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu, QSystemTrayIcon

from gui.context import TelemetryControl
from gui.icons import app_icon
from gui.i18n import render
from services.settings import SettingsStore
from services.telemetry.alerts import Alert, Severity
from services.telemetry.model import DeviceState, Snapshot

log = logging.getLogger(__name__)
NOTIFY_MS = 10_000


class TrayController(QObject):
    """Owns the tray icon and decides what closing the window means.

    Signals:
        notified(str, str): a desktop notification was shown (title, body).
        logged(str): a line was added to the session log.
    """

    notified = Signal(str, str)
    logged = Signal(str)

    def __init__(self, settings_store: SettingsStore, telemetry: TelemetryControl, tray_available: bool | None = None,
                 quit_app: Callable[[], None] | None = None, parent: QObject | None = None) -> None:
        """``settings_store``: whether closing keeps monitoring, and the alert settings;
        ``telemetry``: its bridge brings the alerts."""
        super().__init__(parent)
        self.settings_store = settings_store
        self.control = telemetry
        self.bridge = self.control.bridge()
        self.available = QSystemTrayIcon.isSystemTrayAvailable() if tray_available is None else tray_available
        self.session_log: list[str] = []
        self._window: Any = None
        self._quit_app = quit_app or QApplication.quit
        self._told_about_tray = False
        self.icon: QSystemTrayIcon | None = None
        if self.available:
            self.icon = QSystemTrayIcon(app_icon(), self)
            self.icon.setToolTip(self.tr("GPU Assistant"))
            menu = QMenu()
            self._menu = menu  # QSystemTrayIcon does not own its menu
            self.show_action = QAction(self.tr("Show"), self)
            self.show_action.triggered.connect(self.show_window)
            self.quit_action = QAction(self.tr("Quit"), self)
            self.quit_action.triggered.connect(self.quit)
            menu.addAction(self.show_action)
            menu.addSeparator()
            menu.addAction(self.quit_action)
            self.icon.setContextMenu(menu)
            self.icon.activated.connect(self._on_icon_activated)
            self.icon.show()
        self.bridge.alert_raised.connect(self._on_bridge_alert_raised)
        self.bridge.snapshot_received.connect(self._on_bridge_snapshot_received)

    # ---- Public API
    def attach_window(self, window: Any) -> None:
        """Give a (new) main window the close-to-tray behaviour."""
        self._window = window
        window.close_to_tray = self.should_hide_on_close

    def should_hide_on_close(self) -> bool:
        """Called by MainWindow.closeEvent: True hides the window and keeps monitoring."""
        if not self.available or self.icon is None:
            return False  # no tray on this desktop: closing really closes
        if not self.settings_store.settings.general.keep_running_in_tray:
            return False
        if self._window is not None:
            self._window.hide()
        if not self._told_about_tray:
            self._told_about_tray = True
            self.icon.showMessage(self.tr("GPU Assistant is still monitoring"),
                                  self.tr("It keeps watching your GPUs in the tray. Use Quit in the tray menu to stop."),
                                  QSystemTrayIcon.MessageIcon.Information, NOTIFY_MS)
        return True

    def show_window(self) -> None:
        if self._window is None:
            return
        self._window.showNormal()
        self._window.raise_()
        self._window.activateWindow()

    def quit(self) -> None:
        if self._window is not None:
            self._window.quit()
        self._quit_app()

    def shutdown(self) -> None:
        self.bridge.alert_raised.disconnect(self._on_bridge_alert_raised)
        self.bridge.snapshot_received.disconnect(self._on_bridge_snapshot_received)
        if self.icon is not None:
            self.icon.hide()

    # ---- Slots
    @Slot(object)
    def _on_bridge_alert_raised(self, alert: Alert) -> None:
        text = render(alert.message)
        gpu = alert.gpu_index
        title = self.tr("GPU {index}").format(index=gpu) if gpu is not None else self.tr("GPU Assistant")
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(alert.t))
        line = f"{stamp} [{alert.severity.value}] {title}: {text}"
        self.session_log.append(line)
        log.warning("alert %s on GPU %s: %s", alert.rule.value, gpu, str(alert.message))
        self.logged.emit(line)
        settings = self.settings_store.settings.alerts
        if settings.notify_desktop and self.icon is not None:
            critical = alert.severity is Severity.CRITICAL
            self.icon.showMessage(title, text, QSystemTrayIcon.MessageIcon.Critical if critical
                                  else QSystemTrayIcon.MessageIcon.Warning, NOTIFY_MS)
            self.notified.emit(title, text)

    @Slot(object)
    def _on_bridge_snapshot_received(self, snapshot: Snapshot) -> None:
        if self.icon is None:
            return
        parts = [self.tr("GPU Assistant")]
        for sample in snapshot.samples:
            if sample.state != DeviceState.OK:
                parts.append(self.tr("GPU {index}: {state}").format(index=sample.index, state=sample.state.value))
            elif sample.temperature_c is not None and sample.utilization_pct is not None:
                parts.append(self.tr("GPU {index}: {temp:.0f} °C, {util:.0f}%").format(
                    index=sample.index, temp=sample.temperature_c, util=sample.utilization_pct))
        tooltip = "\n".join(parts)
        if self.icon.toolTip() != tooltip:
            self.icon.setToolTip(tooltip)

    def _on_icon_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            if self._window is not None and self._window.isVisible():
                self._window.hide()
            else:
                self.show_window()
