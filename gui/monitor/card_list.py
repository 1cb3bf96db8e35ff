"""The Dashboard's GPU cards: one under another in a scroll area, their graphs on one time axis."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

from gui.monitor.card import GpuCard
from services.telemetry.model import GpuInfo


class GpuCardList(QScrollArea):
    """A ``GpuCard`` per GPU of the newest snapshot; the page draws them.

    ``alert_settings``: the user's alert settings, read by each card at each update.
    ``on_user_range``: called with (t0, t1) when the user pans or zooms any card's graphs.
    """

    def __init__(self, alert_settings: Callable[[], Any], on_user_range: Callable[[float, float], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._alert_settings = alert_settings
        self._on_user_range = on_user_range
        self._cards: dict[int, GpuCard] = {}
        self._key: tuple = ()
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        # Cards reflow to fit; should anything still not fit, it can be scrolled to.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.cards_host = QWidget()
        self.cards_host.setObjectName("DashboardPage")
        self.cards_layout = QVBoxLayout(self.cards_host)
        self.cards_layout.setContentsMargins(0, 0, 4, 0)
        self.cards_layout.setSpacing(10)
        self.setWidget(self.cards_host)

    # ---- Public API
    def cards(self) -> dict[int, GpuCard]:
        """The cards by GPU index (the page's own dict: do not change it)."""
        return self._cards

    def shows(self, gpus: tuple[GpuInfo, ...]) -> bool:
        """True when the cards are those of ``gpus`` (same indices and UUIDs)."""
        return self._key == _key_of(gpus)

    def rebuild(self, gpus: tuple[GpuInfo, ...], narrow: bool) -> None:
        """A new card for each of ``gpus``, in place of the old ones; ``narrow``: see ``set_narrow``."""
        self._key = _key_of(gpus)
        for card in self._cards.values():
            self.cards_layout.removeWidget(card)
            card.deleteLater()
        self._cards.clear()
        while self.cards_layout.count():
            self.cards_layout.takeAt(0)
        master = None
        for info in gpus:
            card = GpuCard(info, self.cards_host, alert_settings=self._alert_settings)
            card.set_min_heights(285 if len(gpus) > 1 else 420, 400 if len(gpus) > 1 else 460)
            card.set_narrow(narrow)
            card.graphs.on_user_range(self._on_user_range)
            if master is None:
                master = card.graphs.master_plot()
            else:
                card.graphs.master_plot().setXLink(master)
            self._cards[info.index] = card
            self.cards_layout.addWidget(card, 1)
            card.show()
        if len(gpus) == 1:
            self.cards_layout.addStretch(0)

    def set_narrow(self, narrow: bool) -> None:
        """Reflow every card (tiles 3 + 3, graphs 3 + 2) when the page is narrow."""
        for card in self._cards.values():
            card.set_narrow(narrow)

    def show_card(self, index: int) -> None:
        """Scroll GPU ``index``'s card into view."""
        card = self._cards.get(index)
        if card is not None:
            self.ensureWidgetVisible(card, 0, 0)

    def has_drawn_history(self) -> bool:
        """True once every card has drawn a curve with at least two points."""
        return bool(self._cards) and all(card.graphs.drawn_points() >= 2 for card in self._cards.values())


def _key_of(gpus: tuple[GpuInfo, ...]) -> tuple:
    return tuple((g.index, g.uuid) for g in gpus)
