"""The Dashboard's top row: its title, where the readings come from, the time window, Live, and the
buttons that leave a replay or the demo and open the recorded sessions.

The row only shows; the page connects its controls and decides what they do. Its texts are in
the page's translation context ("DashboardPage"), where they were before the row had a module.
"""
from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from gui.monitor.widgets import ElidedLabel
from services.telemetry.feed import TelemetryFeed
from services.telemetry.model import SourceKind

# The time-window selector's choices, in seconds; their labels are made in DashboardToolbar.
WINDOWS_S = (60, 300, 600, 1800, 3600, 6 * 3600, 24 * 3600)


class DashboardToolbar(QWidget):
    """``window_s``: the time window chosen at first (one of WINDOWS_S)."""

    def __init__(self, window_s: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        bar = QHBoxLayout(self)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.setSpacing(8)
        heading = QCoreApplication.translate("DashboardPage", "Dashboard")
        title = QLabel(f"<span style='font-size:18px; font-weight:600; color:#1f2933'>{heading}</span>", self)
        # Elided, so a long replay name never makes the page wider than a laptop's window.
        self.source_label = ElidedLabel("", self)
        self.source_label.setObjectName("SourceLabel")
        bar.addWidget(title)
        bar.addSpacing(8)
        bar.addWidget(self.source_label, 1)
        self.window_label = QLabel(QCoreApplication.translate("DashboardPage", "Time window"), self)
        bar.addWidget(self.window_label)
        self.window_combo = QComboBox(self)
        labels = (QCoreApplication.translate("DashboardPage", "1 minute"),
                  QCoreApplication.translate("DashboardPage", "5 minutes"),
                  QCoreApplication.translate("DashboardPage", "10 minutes"),
                  QCoreApplication.translate("DashboardPage", "30 minutes"),
                  QCoreApplication.translate("DashboardPage", "1 hour"),
                  QCoreApplication.translate("DashboardPage", "6 hours"),
                  QCoreApplication.translate("DashboardPage", "24 hours"))
        for seconds, label in zip(WINDOWS_S, labels, strict=True):
            self.window_combo.addItem(label, seconds)
        self.window_combo.setCurrentIndex(WINDOWS_S.index(window_s))
        bar.addWidget(self.window_combo)
        self.live_button = QPushButton(QCoreApplication.translate("DashboardPage", "Live"), self)
        self.live_button.setCheckable(True)
        self.live_button.setChecked(True)
        self.live_button.setToolTip(QCoreApplication.translate(
            "DashboardPage", "Follow the newest readings. Drag or scroll a graph to look back; press Live to return."))
        bar.addWidget(self.live_button)
        self.back_live_button = QPushButton(QCoreApplication.translate("DashboardPage", "Back to live"), self)
        self.back_live_button.setToolTip(QCoreApplication.translate(
            "DashboardPage", "Close the replay and monitor this computer's GPUs again."))
        self.back_live_button.hide()
        bar.addWidget(self.back_live_button)
        self.leave_demo_button = QPushButton(QCoreApplication.translate("DashboardPage", "Leave the demo"), self)
        self.leave_demo_button.setToolTip(QCoreApplication.translate(
            "DashboardPage", "Stop the simulated run and monitor this computer's GPUs."))
        self.leave_demo_button.hide()
        bar.addWidget(self.leave_demo_button)
        self.sessions_button = QPushButton(QCoreApplication.translate("DashboardPage", "Sessions…"), self)
        self.sessions_button.setToolTip(QCoreApplication.translate(
            "DashboardPage", "Open, compare and export recorded sessions, or open an nvidia-smi log."))
        bar.addWidget(self.sessions_button)

    # ---- Public API
    def show_source(self, hub: TelemetryFeed | None) -> None:
        """Say where ``hub``'s readings come from (None: nothing)."""
        if hub is None:
            self.source_label.setText("")
            return
        kind = hub.source.kind
        tip = ""
        if kind is SourceKind.SIMULATED:
            text = QCoreApplication.translate("DashboardPage", "Demo: a simulated training run")
            if hub.backfill_pending:
                text = QCoreApplication.translate("DashboardPage", "Demo: a simulated training run (loading its past two hours…)")
        elif kind is SourceKind.REPLAY:
            path = hub.source.path
            span = hub.history.time_range()
            if path is not None and span is not None:
                text = QCoreApplication.translate("DashboardPage", "Replay of {name}, {start} to {end}").format(
                    name=Path(path).name, start=time.strftime("%Y-%m-%d %H:%M", time.localtime(span[0])),
                    end=time.strftime("%H:%M" if time.localtime(span[0]).tm_yday == time.localtime(span[1]).tm_yday
                                      else "%Y-%m-%d %H:%M", time.localtime(span[1])))
                tip = str(path)
            elif path is not None:
                text = QCoreApplication.translate("DashboardPage", "Replay of {name}").format(name=Path(path).name)
                tip = str(path)
            else:
                text = QCoreApplication.translate("DashboardPage", "Replay of a recorded log")
        else:
            text = QCoreApplication.translate("DashboardPage", "Live from the NVIDIA driver")
        self.source_label.setText(text)
        self.source_label.setToolTip(tip)

    def show_window_controls(self, shown: bool) -> None:
        """The time window and Live, shown only while there are graphs to choose them for."""
        for control in (self.window_label, self.window_combo, self.live_button):
            control.setVisible(shown)
