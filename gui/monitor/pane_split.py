"""The Dashboard's split: the cards above, the bottom pane (processes, insights, alerts) below.

Drag the handle to resize the pane, drag it to the bottom (or use the pane's corner button) to
fold it away; the split is remembered across runs.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QSplitter, QWidget

from gui.monitor.panels import BottomPane


class PaneSplitter(QSplitter):
    """``top`` above ``pane``; the state is kept in the ini file ``state_file`` (window.ini)."""

    def __init__(self, state_file: Path, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.setObjectName("dashboardSplitter")
        self._state_file = state_file
        self._pane: BottomPane | None = None
        self._pane_height = 190
        self._save_timer = QTimer(self)  # one write when a drag of the split ends
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(500)
        self._save_timer.timeout.connect(self._save)

    # ---- Public API
    def set_parts(self, top: QWidget, pane: BottomPane) -> None:
        """Put ``top`` above ``pane`` and restore the remembered split."""
        self._pane = pane
        self.addWidget(top)
        self.addWidget(pane)
        self.setCollapsible(0, False)
        self.setCollapsible(1, True)
        self.setStretchFactor(0, 3)
        self.setStretchFactor(1, 1)
        self.setSizes([520, 220])
        self._restore()
        self.splitterMoved.connect(self._on_splitter_moved)
        pane.pane_button.clicked.connect(self._on_pane_button_clicked)
        pane.tabBarClicked.connect(self._on_pane_tab_bar_clicked)
        self._update_pane_button()

    def pane_collapsed(self) -> bool:
        return self.sizes()[1] == 0

    def set_pane_collapsed(self, collapsed: bool) -> None:
        sizes = self.sizes()
        total = sum(sizes)
        if collapsed:
            if sizes[1]:
                self._pane_height = sizes[1]
            self.setSizes([total, 0])
        else:
            height = max(120, min(self._pane_height, total // 2))
            self.setSizes([max(0, total - height), height])
        self._save()
        self._update_pane_button()

    def shutdown(self) -> None:
        """Write a split still waiting to be saved."""
        if self._save_timer.isActive():
            self._save_timer.stop()
            self._save()

    # ---- Internals
    def _update_pane_button(self) -> None:
        if self._pane is not None:
            self._pane.set_folded(self.pane_collapsed())

    def _settings(self) -> QSettings:
        return QSettings(str(self._state_file), QSettings.Format.IniFormat)

    def _restore(self) -> None:
        state = self._settings().value("dashboard/split")
        if state is not None:
            self.restoreState(state)

    def _save(self) -> None:
        self._settings().setValue("dashboard/split", self.saveState())

    # ---- Slots
    def _on_splitter_moved(self, _pos: int, _index: int) -> None:
        sizes = self.sizes()
        if sizes[1]:
            self._pane_height = sizes[1]
        self._update_pane_button()
        self._save_timer.start()

    def _on_pane_button_clicked(self) -> None:
        self.set_pane_collapsed(not self.pane_collapsed())

    def _on_pane_tab_bar_clicked(self, _index: int) -> None:
        if self.pane_collapsed():  # a click on a tab of the folded pane opens it
            self.set_pane_collapsed(False)
