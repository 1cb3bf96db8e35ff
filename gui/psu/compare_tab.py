"""The compare tab: up to three cards side by side, and the catalogue ranked for a piece of work and a budget.

The figures come from ``services.hardware.compare`` (``main.py psu --compare`` and
``--recommend`` print the same); this module lays them out.
"""
from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.i18n import render
from gui.psu.widgets import card_combo
from services.hardware import money
from services.hardware.catalog import Catalog
from services.hardware.compare import (
    RankedCard,
    Task,
    Workload,
    cheapest_fitting,
    compare_specs,
    estimate_from_params,
    listed_cards,
    rank_cards,
)
from services.i18n import Msg
from services.modelfit.workload import estimate_with_modelfit, modelfit_model_names

MAX_COMPARED = 3
DEFAULT_COMPARED = ("rtx-4090", "rtx-5090", "rtx-3090")


class CompareTab(QWidget):
    """The side-by-side comparison and the ranking, amounts in the page's display currency.

    Attributes:
        prices: card key -> the user's price in the ranking, in USD (entered in the display currency).
    """

    def __init__(self, catalog: Catalog, cur: money.Currency, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self._cur = cur
        self.prices: dict[str, float] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 0, 0)
        pick = QHBoxLayout()
        self.compare_combos: list[QComboBox] = []
        for key in DEFAULT_COMPARED[:MAX_COMPARED]:
            combo = card_combo(catalog.gpus, self, with_none=self.tr("(none)"))
            combo.setCurrentIndex(max(0, combo.findData(key)))
            combo.currentIndexChanged.connect(self.update_comparison)
            self.compare_combos.append(combo)
            pick.addWidget(combo, 1)
        layout.addLayout(pick)
        self.compare_table = QTableWidget(0, MAX_COMPARED, self)
        self.compare_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.compare_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.compare_table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.compare_table.verticalHeader().setDefaultSectionSize(24)
        self.compare_table.setAlternatingRowColors(True)
        layout.addWidget(self.compare_table, 3)
        note = QLabel(self.tr("Tensor figures are dense (no sparsity) at FP32 accumulate, the rate GeForce cards really run for BF16/FP16 training. Marketing 'AI TOPS' (sparse FP4) are never used. Bold: best of the compared cards."))
        note.setWordWrap(True)
        layout.addWidget(note)
        layout.addWidget(self._make_ranking_box(), 4)
        self.update_comparison()
        self.update_ranking()

    # ---- Layout

    def _make_ranking_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Which card for my work and budget?"), self)
        rec = QVBoxLayout(box)
        self._make_work_inputs(box, rec)
        self.need_label = QLabel("", box)
        self.need_label.setWordWrap(True)
        rec.addWidget(self.need_label)
        self.rank_table = QTableWidget(0, 6, box)
        self._set_rank_headers()
        self.rank_table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.rank_table.itemChanged.connect(self._on_rank_table_item_changed)
        self.rank_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.rank_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.rank_table.verticalHeader().setVisible(False)
        self.rank_table.verticalHeader().setDefaultSectionSize(24)
        rec.addWidget(self.rank_table)
        price_note = QLabel(self.tr("Prices are US launch prices, converted at the dated rate outside USD; cards without one say 'enter a price'. Double-click a price to enter what the card costs you today."))
        price_note.setWordWrap(True)
        rec.addWidget(price_note)
        return box

    def _make_work_inputs(self, box: QGroupBox, rec: QVBoxLayout) -> None:
        """The work to rank for (a model or a size, weights, task) and the budget, in two rows
        so they fit a 1024-pixel window."""
        self.model_combo = QComboBox(box)
        self.model_combo.addItem(self.tr("by size"), None)
        for name in modelfit_model_names():
            self.model_combo.addItem(name, name)
        self.model_combo.setVisible(self.model_combo.count() > 1)  # only when the model-fit tool is here
        self.model_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_combo.setMinimumContentsLength(14)
        self.params_spin = QDoubleSpinBox(box)
        self.params_spin.setRange(0.1, 1000)
        self.params_spin.setValue(8)
        self.params_spin.setSuffix(self.tr(" B params"))
        self.dtype_combo = QComboBox(box)
        for dtype in ("bf16", "fp8", "int8", "int4", "fp32"):
            self.dtype_combo.addItem(dtype, dtype)
        self.task_combo = QComboBox(box)
        self.task_combo.addItem(self.tr("inference"), Task.INFERENCE.value)
        self.task_combo.addItem(self.tr("LoRA fine-tuning"), Task.LORA.value)
        self.task_combo.addItem(self.tr("full training"), Task.FULL_TRAINING.value)
        self.budget_spin = QSpinBox(box)
        self.budget_spin.setRange(0, 1000000)
        self.budget_spin.setSingleStep(100)
        self.budget_spin.setValue(int(round(self._cur.from_usd(2000), -2)))  # about $2,000 in the display currency
        self.budget_spin.setPrefix(self._cur.symbol)
        self.budget_spin.setSpecialValueText(self.tr("no budget"))
        first, second = QHBoxLayout(), QHBoxLayout()
        for row, label, widget in ((first, self.tr("Model"), self.model_combo), (first, None, self.params_spin),
                                   (first, self.tr("Weights"), self.dtype_combo),
                                   (second, self.tr("Task"), self.task_combo), (second, self.tr("Budget"), self.budget_spin)):
            if label:
                row.addWidget(QLabel(label))
            row.addWidget(widget)
        for row in (first, second):
            row.addStretch(1)
            rec.addLayout(row)
        for spin in (self.params_spin, self.budget_spin):
            spin.valueChanged.connect(self.update_ranking)
        for combo in (self.model_combo, self.dtype_combo, self.task_combo):
            combo.currentIndexChanged.connect(self.update_ranking)

    def _set_rank_headers(self) -> None:
        per = f"{self._cur.symbol}1000"
        self.rank_table.setHorizontalHeaderLabels([
            self.tr("Card"), self.tr("Price"), self.tr("Memory"), self.tr("Fits"),
            self.tr("BF16 TFLOPS per {amount}").format(amount=per), self.tr("GB/s per {amount}").format(amount=per)])

    # ---- Public API

    def set_currency(self, new: money.Currency) -> None:
        """Show amounts in ``new``; a budget already set is converted at the dated rate."""
        old, self._cur = self._cur, new
        with QSignalBlocker(self.budget_spin):
            if self.budget_spin.value():
                self.budget_spin.setValue(int(round(new.from_usd(old.to_usd(self.budget_spin.value())))))
        self.budget_spin.setPrefix(new.symbol)
        self._set_rank_headers()
        self.update_ranking()

    def update_comparison(self) -> None:
        chosen = [self.catalog.gpu(c.currentData()) for c in self.compare_combos if c.currentData()]
        rows = compare_specs(chosen) if chosen else []
        self.compare_table.setColumnCount(max(1, len(chosen)))
        self.compare_table.setHorizontalHeaderLabels([g.name.removeprefix("GeForce ") for g in chosen] or [""])
        self.compare_table.setRowCount(len(rows))
        self.compare_table.setVerticalHeaderLabels([render(row.label) for row in rows])
        bold = QFont(self.compare_table.font())
        bold.setBold(True)
        for i, row in enumerate(rows):
            for j, value in enumerate(row.values):
                item = QTableWidgetItem(render(value))
                if row.best == j:
                    item.setFont(bold)
                    item.setForeground(QColor("#2e8b57"))
                self.compare_table.setItem(i, j, item)

    def update_ranking(self) -> None:
        workload, rough = self._workload()
        if workload is None:
            return
        budget = float(self.budget_spin.value()) or None
        ranked = rank_cards(self.catalog.gpus, workload, self._cur.to_usd(budget) if budget else None, self.prices)
        self.need_label.setText(self._need_text(workload, rough, ranked))
        shown = listed_cards(ranked)
        blocker = QSignalBlocker(self.rank_table)
        self.rank_table.setRowCount(len(shown))
        for i, r in enumerate(shown):
            for j, item in enumerate(self._rank_row(r)):
                self.rank_table.setItem(i, j, item)
        del blocker

    # ---- Ranking

    def _workload(self) -> tuple[Workload | None, bool]:
        """The work to rank for, and whether it is the rough parameter-count figure; None after
        saying in the need label why there is none."""
        params_b, dtype, task = self.params_spin.value(), self.dtype_combo.currentData(), Task(self.task_combo.currentData())
        model = self.model_combo.currentData()
        self.params_spin.setEnabled(model is None)
        try:
            # the model-fit service; the parameter-count rule when it cannot size this request
            workload = estimate_with_modelfit(model, None if model else params_b, dtype, task)
        except ValueError as exc:
            if model:
                message = getattr(exc, "message", None)  # e.g. that model cannot be trained in fp8
                self.need_label.setText(render(message) if isinstance(message, Msg) else str(exc))
                self.rank_table.setRowCount(0)
                return None, False
            workload = None  # by size: fall back on the rule of thumb
        if workload is not None:
            return workload, False
        try:
            return estimate_from_params(params_b, dtype, task), True
        except ValueError as exc:
            self.need_label.setText(str(exc))
            return None, True

    def _need_text(self, workload: Workload, rough: bool, ranked: list[RankedCard]) -> str:
        need = self.tr("Needs about {gib:.1f} GiB on one GPU ({method}).").format(
            gib=workload.vram_needed_gib, method=render(workload.method))
        if rough:
            need += " " + self.tr("A rough figure from the parameter count; the Model fit page gives a full breakdown.")
        if any(r.fits and r.price_usd is not None for r in ranked):
            return need
        cheapest = cheapest_fitting(self.catalog.gpus, workload, self.prices)
        if cheapest is not None:
            need += " " + self.tr("No card within the budget holds it; the cheapest that does is {gpu} ({price}).").format(
                gpu=cheapest.gpu.name, price=self._cur.fmt(self._cur.from_usd(cheapest.price_usd or 0.0)))
        elif any(r.fits for r in ranked):
            need += " " + self.tr("Only cards without a price on file hold it: enter what they cost you.")
        else:
            need += " " + self.tr("No single card in the catalogue holds it: split it across GPUs or quantize it.")
        return need

    def _rank_row(self, r: RankedCard) -> list[QTableWidgetItem]:
        per_k = 1.0 / self._cur.per_usd  # value per 1000 of the display currency
        cells = [r.gpu.name,
                 self.tr("enter a price") if r.price_usd is None else self._cur.fmt(self._cur.from_usd(r.price_usd)),
                 f"{r.gpu.vram_gb:.0f} GB", self.tr("yes") if r.fits else self.tr("no"),
                 "" if r.tflops_per_kusd is None else f"{r.tflops_per_kusd * per_k:.1f}",
                 "" if r.gbs_per_kusd is None else f"{r.gbs_per_kusd * per_k:.0f}"]
        items = [QTableWidgetItem(text) for text in cells]
        items[0].setToolTip(cells[0])  # long names are elided in a narrow window
        for j, item in enumerate(items):
            if j != 1:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
        price = items[1]
        price.setData(Qt.ItemDataRole.UserRole, r.gpu.key)
        if not r.price_is_default:
            price.setFont(QFont(self.rank_table.font().family(), -1, QFont.Weight.Bold))
        if r.price_usd is None:
            price.setForeground(QColor("#d18b00"))
            price.setToolTip(self.tr("No launch price on file: double-click and type what the card costs you."))
        items[3].setForeground(QColor("#2e8b57" if r.fits else "#c0392b"))
        return items

    # ---- Slots

    def _on_rank_table_item_changed(self, item: QTableWidgetItem) -> None:
        key = item.data(Qt.ItemDataRole.UserRole)
        if item.column() != 1 or not key:
            return
        text = item.text().replace(self._cur.symbol, "").replace("$", "").replace(",", "").strip()
        try:
            price = float(text)
        except ValueError:
            price = 0.0
        if price > 0:
            self.prices[key] = self._cur.to_usd(price)  # entered in the display currency
        else:
            self.prices.pop(key, None)  # an empty or bad entry goes back to the launch price
        self.update_ranking()
