"""Buy or rent: each card of the build against renting that card in the cloud.

The sums come from ``services.hardware.rent.buy_vs_rent_per_card`` and the dated prices
from ``services.hardware.money`` (``main.py psu --card-price/--cloud-rate`` prints the
same); this box keeps the amounts the user typed for each card, in the display currency.
"""
from __future__ import annotations

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QGridLayout, QGroupBox, QLabel, QSizePolicy, QWidget

from gui.i18n import render
from services.hardware import money
from services.hardware.catalog import Catalog, Gpu
from services.hardware.psu_result import Result
from services.hardware.rent import buy_vs_rent_per_card
from services.hardware.report import cloud_provider_text


class RentBox(QGroupBox):
    """One card of the build at a time: its price, resale and cloud rate, where those come from, and the outcome."""

    def __init__(self, catalog: Catalog, cur: money.Currency, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Buy or rent? Each card against renting that card"))
        rent = QGridLayout(self)
        self.rent_card_combo = QComboBox(self)
        self.rent_card_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.rent_card_combo.setMinimumContentsLength(10)
        self.card_price_spin = QDoubleSpinBox(self)
        self.resale_spin = QDoubleSpinBox(self)
        self.cloud_spin = QDoubleSpinBox(self)
        for spin, top, step in ((self.card_price_spin, 10000000, 50), (self.resale_spin, 10000000, 50), (self.cloud_spin, 1000, 0.05)):
            spin.setRange(0, top)
            spin.setSingleStep(step)
            spin.setPrefix(cur.symbol)
            spin.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.cloud_spin.setDecimals(2)
        self.cloud_spin.setSuffix(self.tr("/h"))
        self.card_price_spin.setDecimals(0)
        self.resale_spin.setDecimals(0)
        rent.addWidget(QLabel(self.tr("Card")), 0, 0)
        rent.addWidget(self.rent_card_combo, 0, 1, 1, 2)
        for column, (label, spin) in enumerate(((self.tr("Card price"), self.card_price_spin),
                                                (self.tr("Resale later"), self.resale_spin),
                                                (self.tr("Cloud price"), self.cloud_spin))):
            title = QLabel(label)
            title.setWordWrap(True)
            rent.addWidget(title, 1, column)
            rent.addWidget(spin, 2, column)
            rent.setColumnStretch(column, 1)
        self.cloud_source_label = QLabel("", self)
        self.cloud_source_label.setWordWrap(True)
        self.cloud_source_label.setProperty("role", "muted")
        self.rent_result_label = QLabel("", self)
        self.rent_result_label.setWordWrap(True)
        rent.addWidget(self.cloud_source_label, 3, 0, 1, 3)
        rent.addWidget(self.rent_result_label, 4, 0, 1, 3)
        self.catalog = catalog
        self._cur = cur
        self._gpus: list[Gpu] = []
        self._result: Result | None = None
        self._card_prices: dict[str, float] = {}  # card key -> price, display currency
        self._cloud_rates: dict[str, float] = {}  # card key -> cloud price per hour, display currency
        self.rent_card_combo.currentIndexChanged.connect(self._on_rent_card_changed)
        self.card_price_spin.valueChanged.connect(self._on_card_price_edited)
        self.cloud_spin.valueChanged.connect(self._on_cloud_rate_edited)
        self.resale_spin.valueChanged.connect(self._update_buy_vs_rent)

    # ---- Public API

    def set_cards(self, gpus: list[Gpu]) -> None:
        """Fill the card picker; each card keeps the user's amounts, else the dated defaults."""
        self._gpus = list(gpus)
        keep = self.rent_card_combo.currentIndex()
        with QSignalBlocker(self.rent_card_combo):
            self.rent_card_combo.clear()
            for gpu in {g.key: g for g in self._gpus}.values():  # two identical cards: one entry
                self.rent_card_combo.addItem(gpu.name.removeprefix("GeForce "), gpu.key)
            count = self.rent_card_combo.count()
            self.rent_card_combo.setCurrentIndex(min(max(keep, 0), count - 1) if count else -1)
        for gpu in self._gpus:
            if gpu.key not in self._card_prices:
                dated = money.default_card_price(self.catalog, gpu, self._cur)
                self._card_prices[gpu.key] = dated.amount if dated else 0.0
            if gpu.key not in self._cloud_rates:
                rate = money.default_cloud_rate(self.catalog, gpu, self._cur)
                self._cloud_rates[gpu.key] = rate.amount if rate else 0.0
        self._on_rent_card_changed()

    def show_result(self, result: Result) -> None:
        self._result = result
        self._update_buy_vs_rent()

    def set_currency(self, new: money.Currency) -> None:
        """Show every amount in ``new``: amounts entered are converted at the dated rate, a card
        whose local price is on file takes that price."""
        old, self._cur = self._cur, new

        def convert(amount: float) -> float:
            return new.from_usd(old.to_usd(amount))

        self._card_prices = {k: convert(v) for k, v in self._card_prices.items()}
        self._cloud_rates = {k: convert(v) for k, v in self._cloud_rates.items()}
        for gpu in self._gpus:
            dated = money.default_card_price(self.catalog, gpu, new)
            if dated is not None and not dated.converted:
                self._card_prices[gpu.key] = dated.amount
        with QSignalBlocker(self.resale_spin):
            self.resale_spin.setValue(convert(self.resale_spin.value()))
        for spin in (self.card_price_spin, self.resale_spin, self.cloud_spin):
            spin.setPrefix(new.symbol)
        self._on_rent_card_changed()

    # ---- Slots

    def _selected_gpu(self) -> Gpu | None:
        key = self.rent_card_combo.currentData()
        return next((g for g in self._gpus if g.key == key), None)

    def _on_rent_card_changed(self, *_args) -> None:
        gpu = self._selected_gpu()
        with QSignalBlocker(self.card_price_spin), QSignalBlocker(self.cloud_spin):
            self.card_price_spin.setValue(self._card_prices.get(gpu.key, 0.0) if gpu else 0.0)
            self.cloud_spin.setValue(self._cloud_rates.get(gpu.key, 0.0) if gpu else 0.0)
        notes, tips = self._price_notes(gpu) if gpu is not None else ([], [])
        self.cloud_source_label.setText(" ".join(notes))
        self.cloud_source_label.setToolTip("\n".join(t for t in tips if t))
        self._update_buy_vs_rent()

    def _price_notes(self, gpu: Gpu) -> tuple[list[str], list[str]]:
        """Where the card's price and cloud rate come from: notes to show, and their sources for the tooltip."""
        cat, cur = self.catalog, self._cur
        notes: list[str] = []
        tips: list[str] = []
        dated = money.default_card_price(cat, gpu, cur)
        if dated is not None:
            notes.append(self.tr("Card price on file: {note}.").format(note=render(dated.note(cur))))
            tips.append(dated.source)
        cloud = cat.cloud_prices.get(gpu.key)
        local = money.default_cloud_rate(cat, gpu, cur)
        if local is not None and not local.converted and cur.code != "USD":
            notes.append(self.tr("Cloud price: {note}; edit it to today's price.").format(note=render(money.cloud_rate_note(local))))
            tips.append(local.source)
        elif cloud:
            text = self.tr("Cloud price read {date} from {provider}; edit it to today's price.").format(
                date=cloud.read, provider=render(cloud_provider_text(cloud)))
            if cur.code != "USD":
                text += " " + self.tr("Converted from USD.")
            notes.append(text)
            tips.append(cloud.source)
        else:
            notes.append(self.tr("No cloud price on file for this card: enter one."))
        if cur.code == "CNY":
            notes.append(self.tr("No dated AutoDL price was found in our sources: enter the price you see there."))
        return notes, tips

    def _on_card_price_edited(self, value: float) -> None:
        gpu = self._selected_gpu()
        if gpu is not None:
            self._card_prices[gpu.key] = value
        self._update_buy_vs_rent()

    def _on_cloud_rate_edited(self, value: float) -> None:
        gpu = self._selected_gpu()
        if gpu is not None:
            self._cloud_rates[gpu.key] = value
        self._update_buy_vs_rent()

    def _update_buy_vs_rent(self, *_args) -> None:
        r = self._result
        if r is None or not self._gpus:
            self.rent_result_label.setText(self.tr("Add a card to compare buying with renting."))
            return
        rows = buy_vs_rent_per_card(r, [self._card_prices.get(g.key) or None for g in r.build.gpus],
                                    [self._cloud_rates.get(g.key) or None for g in r.build.gpus],
                                    self.resale_spin.value(), self._cur.symbol)
        # The card the picker names (rows of identical cards are alike: the first one).
        selected = self._selected_gpu()
        picked = next((row for row in rows if selected is not None and row.gpu.key == selected.key), None)
        rows = [picked] if picked is not None else rows[:1]  # a result not yet recomputed for a new card: its first
        lines = []
        for row in rows:
            text = render(row.message)
            if row.outcome is not None:
                text += " " + self.tr("({w} W of the PC's power: {cost}/h)").format(
                    w=round(row.power_share_w), cost=f"{self._cur.symbol}{row.outcome.energy_usd_per_hour:.3f}")
            lines.append(text)
        self.rent_result_label.setText("<br>".join(lines))
