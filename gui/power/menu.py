"""The GPU card's "⋮" menu: the efficiency sweep and "Set power limit" for that card."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Slot
from PySide6.QtWidgets import QMenu, QToolButton, QWidget


class PowerMenuButton(QToolButton):
    """A small menu button for a card with ``card.info`` (a GpuInfo); the panel module loads on use.

    The actions call this button's slots, not lambdas: a lambda holding the card would outlive a
    card the dashboard deletes."""

    def __init__(self, card: QWidget) -> None:
        super().__init__(card)
        self._card: Any = card
        self.setObjectName("CardMenuButton")
        self.setText("⋮")
        self.setAutoRaise(True)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setToolTip(QCoreApplication.translate("PowerMenu", "Power: efficiency sweep, power limit"))
        menu = QMenu(self)
        menu.addAction(QCoreApplication.translate("PowerMenu", "Power efficiency sweep…")).triggered.connect(self.open_sweep_panel)
        menu.addAction(QCoreApplication.translate("PowerMenu", "Set power limit…")).triggered.connect(self.open_set_limit)
        self.setMenu(menu)

    @Slot()
    def open_sweep_panel(self) -> QWidget:
        from gui.power.panel import SweepPanel

        info = self._card.info
        panel = SweepPanel(info.index, info.name, self.window())
        panel.show()
        return panel

    @Slot()
    def open_set_limit(self) -> QWidget:
        from gui.power.limit_dialog import SetLimitDialog

        dialog = SetLimitDialog(self._card.info.index, None, self.window())
        dialog.open()
        return dialog


def power_menu_button(card: QWidget) -> QToolButton:
    return PowerMenuButton(card)
