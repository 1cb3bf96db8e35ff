"""The dashboard's panels besides the cards: the explanation shown instead of them, and
the bottom pane of processes, insights and alerts."""
from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QFrame, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton,
    QTabWidget, QTextBrowser, QToolButton, QVBoxLayout, QWidget,
)

from gui.i18n import render
from gui.monitor.processes import ProcessView
from services.i18n import Msg
from services.telemetry import health
from services.telemetry.alerts import Alert, Severity


def centred(panel: QWidget, parent: QWidget | None = None) -> QWidget:
    """A page that holds ``panel`` in the middle of its width, a little above the middle of its height."""
    page = QWidget(parent)
    column = QVBoxLayout(page)
    column.addStretch(1)
    row = QHBoxLayout()
    row.addStretch(1)
    row.addWidget(panel, 4)
    row.addStretch(1)
    column.addLayout(row)
    column.addStretch(2)
    return page


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


class BottomPane(QTabWidget):
    """Processes, insights and alerts under the cards: one tab each.

    The page owns the splitter around it (resizing, folding, remembering the
    split); ``pane_button`` in the tab bar's corner is the fold control it wires.

    Attributes:
        alerts: the alerts shown, oldest first (at most ``max_alerts``).
        no_alerts_label: the line the Alerts tab shows while there are none.
    """

    def __init__(self, parent: QWidget | None = None, max_alerts: int = 200) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        self.max_alerts = max_alerts
        self.alerts: list[Alert] = []
        # Every process on every GPU in one table (gui.monitor.processes); the page gives it the
        # hub's ProcessService and has it follow a replaced hub.
        self.process_view = ProcessView(None, self)
        self.processes_tab = self.process_view
        self.insights_view = QTextBrowser()
        self.insights_view.setOpenLinks(False)
        self.alerts_list = QListWidget()
        self.alerts_list.setWordWrap(True)
        self.alerts_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.addTab(self.processes_tab, self.tr("Processes"))
        self.addTab(self.insights_view, self.tr("Insights"))
        self.addTab(self.alerts_list, self.tr("Alerts"))
        self.no_alerts_label = self.tr("No alerts from this source yet.")
        self.show_no_alerts()
        self.pane_button = QToolButton(self)
        self.pane_button.setAutoRaise(True)
        self.setCornerWidget(self.pane_button, Qt.Corner.TopRightCorner)

    # ---- Public API
    def set_folded(self, folded: bool) -> None:
        """Show on the corner button what a click on it does."""
        self.pane_button.setText("▴" if folded else "▾")
        self.pane_button.setToolTip(self.tr("Show the processes, insights and alerts") if folded
                                    else self.tr("Fold the processes, insights and alerts away"))

    def show_insights(self, insights: list[Any]) -> None:
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
        self.setTabText(1, self.tr("Insights ({count})").format(count=count) if count else self.tr("Insights"))

    def show_no_alerts(self) -> None:
        """Forget the alerts shown (a new source) and say there are none."""
        self.alerts.clear()
        self.alerts_list.clear()
        item = QListWidgetItem(self.no_alerts_label)
        item.setForeground(QColor("#52606d"))
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        self.alerts_list.addItem(item)
        self.setTabText(2, self.tr("Alerts"))

    def add_alert(self, alert: Alert) -> None:
        """The newest alert on top, coloured by severity; the oldest go past ``max_alerts``."""
        if not self.alerts:
            self.alerts_list.clear()  # the "no alerts" line
        self.alerts.append(alert)
        del self.alerts[:-self.max_alerts]
        stamp = time.strftime("%H:%M:%S", time.localtime(alert.t))
        # The title says what happened; the message itself names the GPU.
        item = QListWidgetItem(f"{stamp}   {render(alert.title)} — {render(alert.message)}")
        item.setForeground(QColor("#c62828") if alert.severity is Severity.CRITICAL else QColor("#b44d12")
                           if alert.severity is Severity.WARNING else QColor("#1f2933"))
        self.alerts_list.insertItem(0, item)
        while self.alerts_list.count() > self.max_alerts:
            self.alerts_list.takeItem(self.alerts_list.count() - 1)
        self.setTabText(2, self.tr("Alerts ({count})").format(count=len(self.alerts)))
