"""The GPU card's "⋮" menu: the efficiency sweep and "Set power limit" for that card."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMenu, QToolButton, QWidget


def power_menu_button(card: QWidget) -> QToolButton:
    """A small menu button for a card with ``card.info`` (a GpuInfo); the panel module loads on use."""
    button = QToolButton(card)
    button.setObjectName("CardMenuButton")
    button.setText("⋮")
    button.setAutoRaise(True)
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    button.setToolTip(QCoreApplication.translate("PowerMenu", "Power: efficiency sweep, power limit"))
    menu = QMenu(button)
    menu.addAction(QCoreApplication.translate("PowerMenu", "Power efficiency sweep…"), lambda: open_sweep_panel(card))
    menu.addAction(QCoreApplication.translate("PowerMenu", "Set power limit…"), lambda: open_set_limit(card))
    button.setMenu(menu)
    return button


def open_sweep_panel(card: Any) -> QWidget:
    from gui.power.panel import SweepPanel

    panel = SweepPanel(card.info.index, card.info.name, card.window())
    panel.show()
    return panel


def open_set_limit(card: Any) -> QWidget:
    from gui.power.panel import SetLimitDialog

    dialog = SetLimitDialog(card.info.index, None, card.window())
    dialog.open()
    return dialog
