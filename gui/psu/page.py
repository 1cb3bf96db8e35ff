"""Build & PSU page: a build list with live totals, where the watts go, warnings
inline, buy-vs-rent, and up to three cards side by side.

Everything shown comes from ``services.hardware`` (the CLI prints the same);
this module only lays it out. Recomputing is cheap, so every edit recomputes
at once: no timers, no threads.
"""
from __future__ import annotations

import html

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidgetItem,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gui.context import AppContext
from gui.i18n import render
from gui.psu.results import ResultPanel
from gui.psu.inputs import GpuPickerBox, PartsBox, PsuBox, RentBox
from gui.psu.widgets import SEGMENT_COLOURS, Segment, card_combo
from services.hardware import detect, money
from services.hardware.catalog import (
    Catalog,
    CatalogError,
    Gpu,
    find_gpu_for_build,
    load_catalog,
    suggest_cpus,
    suggest_gpus,
)
from services.hardware.compare import (
    Task,
    cheapest_fitting,
    compare_specs,
    estimate_from_params,
    rank_cards,
)
from services.hardware.psu import (
    Build,
    BuildError,
    PsuStandard,
    Result,
    Severity,
    Usage,
    Verdict,
    buy_vs_rent_per_card,
    calculate,
)
from services.hardware.report import cloud_provider_text, gpu_pick_text
from services.modelfit.workload import estimate_with_modelfit, modelfit_model_names

SEVERITY_COLOURS = {Severity.INFO: "#4e79a7", Severity.WARNING: "#d18b00", Severity.PROBLEM: "#c0392b"}
VERDICT_COLOURS = {Verdict.OK: "#2e8b57", Verdict.TIGHT: "#d18b00", Verdict.INSUFFICIENT: "#c0392b"}
EXAMPLE_GPU, EXAMPLE_CPU = "rtx-4090", "Ryzen 9 9950X"
MAX_COMPARED = 3


def _scrolled(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(widget)
    return area


class PsuPage(QWidget):
    """The Build & PSU calculator.

    Signals:
        result_changed(object): the new ``services.hardware.psu.Result`` after any edit.
    """

    result_changed = Signal(object)
    # emitted from the telemetry worker thread; Qt queues it to the GUI thread

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.result: Result | None = None
        self._build_gpus: list[Gpu] = []
        self._prices: dict[str, float] = {}  # card key -> the user's price in the ranking (USD inside)
        self._card_prices: dict[str, float] = {}  # card key -> price for buy vs rent, display currency
        self._cloud_rates: dict[str, float] = {}  # card key -> cloud price per hour, display currency
        self._price_edited = False  # the electricity price is the user's, not the dated default
        self._showing_example = False  # the build is our example, not something the user made
        self._listening = False
        try:
            self.catalog: Catalog | None = load_catalog()
        except CatalogError as exc:
            self.catalog = None
            layout = QVBoxLayout(self)
            layout.addWidget(QLabel(self.tr("The hardware catalogue could not be read: {error}").format(error=str(exc))))
            return
        settings = context.settings_store.settings
        try:
            code = money.resolve_currency_code(
                money.currency_setting(settings.power_cost.currency, settings.power_cost.price_currency),
                getattr(context, "language", "en") or "en")
        except money.CurrencyError:
            code = "USD"  # a hand-edited setting we do not know: fall back, the combo lets the user choose
        self._cur = money.currency(self.catalog, code)
        saved_kwh = money.saved_electricity(self.catalog, self._cur, settings.power_cost.price_per_kwh,
                                            settings.power_cost.price_currency)
        self._price_edited = saved_kwh is not None
        start_kwh = saved_kwh if saved_kwh is not None else money.default_electricity(self.catalog, self._cur).amount

        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 12, 16, 8)
        heading = self.tr("Build & PSU")
        title = QLabel(f"<h2>{heading}</h2>")
        subtitle = QLabel(self.tr("Size the power supply for your build, check cables and PCIe lanes, and compare cards."))
        subtitle.setWordWrap(True)
        subtitle.setProperty("role", "muted")
        outer.addWidget(title)
        outer.addWidget(subtitle)
        self.tabs = QTabWidget(self)
        outer.addWidget(self.tabs, 1)
        self.tabs.addTab(self._make_build_tab(start_kwh), self.tr("Build"))
        self.tabs.addTab(self._make_compare_tab(), self.tr("Compare cards"))
        self._loading = True  # widget changes while we fill them in are not the user's edits
        if not self._restore_saved_build():
            self._prefill()
        control = self.context.telemetry_control
        if self._showing_example and control is not None and self.context.telemetry is not None:
            # the hub finds its GPUs a moment after it starts: take them when they arrive
            self._bridge = control.bridge()
            self._bridge.snapshot_received.connect(self._on_bridge_snapshot_received)
            self._listening = True
        self.recompute()
        self._refresh_money_note()
        self._loading = False
        self._update_comparison()
        self._update_ranking()

    # ---- Layout

    def _adopt(self, box: QWidget, *names: str) -> None:
        """The box's controls under the page's names (the page wires and reads them)."""
        for name in names:
            setattr(self, name, getattr(box, name))

    def _make_build_tab(self, price_per_kwh: float) -> QWidget:
        tab = QWidget()
        row = QHBoxLayout(tab)
        row.setContentsMargins(0, 8, 0, 0)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 8, 0)
        cat = self.catalog
        assert cat is not None

        gpu_box = GpuPickerBox(cat.gpus, left)
        self._adopt(gpu_box, 'add_button', 'detect_button', 'detected_label', 'gpu_combo', 'gpu_list', 'remove_button')
        self.gpu_combo.lineEdit().returnPressed.connect(self._on_add_button_clicked)
        self.detect_button.clicked.connect(self._on_detect_button_clicked)
        self.add_button.clicked.connect(self._on_add_button_clicked)
        self.remove_button.clicked.connect(self._on_remove_button_clicked)
        left_layout.addWidget(gpu_box)

        parts_box = PartsBox(cat.cpus, left)
        self._adopt(parts_box, 'cpu_combo', 'spins')
        for spin in self.spins.values():
            spin.valueChanged.connect(self.recompute)
        self.cpu_combo.currentIndexChanged.connect(self.recompute)
        # a typed CPU counts once the user presses Enter or leaves the field, like a picked one
        self.cpu_combo.lineEdit().returnPressed.connect(self._on_cpu_typed)
        self.cpu_combo.lineEdit().editingFinished.connect(self._on_cpu_typed)
        left_layout.addWidget(parts_box)

        psu_box = PsuBox(self._cur.code, price_per_kwh, left)
        self._adopt(psu_box, 'currency_combo', 'efficiency_combo', 'money_note_label', 'price_spin', 'psu_spin', 'standard_combo', 'usage_combo')
        for combo in (self.usage_combo, self.standard_combo, self.efficiency_combo):
            combo.currentIndexChanged.connect(self.recompute)
        self.psu_spin.valueChanged.connect(self.recompute)
        self.price_spin.valueChanged.connect(self._on_price_spin_changed)
        self.currency_combo.currentIndexChanged.connect(self._on_currency_changed)
        left_layout.addWidget(psu_box)
        left_layout.addStretch(1)
        left_scroll = _scrolled(left)
        left_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        left_scroll.setMinimumWidth(300)
        left_scroll.setMaximumWidth(400)
        row.addWidget(left_scroll)

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(8, 0, 0, 0)
        self.results = ResultPanel(right)
        rl.addWidget(self.results)
        self._adopt(self.results, 'figures', 'sustained_card', 'recommended_card', 'peak_card', 'wall_card', 'verdict_label', 'watt_bar', 'legend_label', 'why_label', 'plan_label', 'warnings_box')
        self.warning_labels: list[QLabel] = []

        rent_box = RentBox(self._cur.symbol, right)
        self._adopt(rent_box, 'card_price_spin', 'cloud_source_label', 'cloud_spin', 'rent_card_combo', 'rent_result_label', 'resale_spin')
        self.rent_card_combo.currentIndexChanged.connect(self._on_rent_card_changed)
        self.card_price_spin.valueChanged.connect(self._on_card_price_edited)
        self.cloud_spin.valueChanged.connect(self._on_cloud_rate_edited)
        self.resale_spin.valueChanged.connect(self._update_buy_vs_rent)
        rl.addWidget(rent_box)
        rl.addStretch(1)
        right_scroll = _scrolled(right)
        right_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # wrap, never scroll sideways
        row.addWidget(right_scroll, 1)
        return tab

    def _make_compare_tab(self) -> QWidget:
        cat = self.catalog
        assert cat is not None
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.setContentsMargins(0, 8, 0, 0)
        pick = QHBoxLayout()
        self.compare_combos: list[QComboBox] = []
        defaults = ["rtx-4090", "rtx-5090", "rtx-3090"]
        for i in range(MAX_COMPARED):
            combo = card_combo(cat.gpus, tab, with_none=self.tr("(none)"))
            combo.setCurrentIndex(max(0, combo.findData(defaults[i])))
            combo.currentIndexChanged.connect(self._update_comparison)
            self.compare_combos.append(combo)
            pick.addWidget(combo, 1)
        layout.addLayout(pick)
        self.compare_table = QTableWidget(0, MAX_COMPARED, tab)
        self.compare_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.compare_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.compare_table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.compare_table.verticalHeader().setDefaultSectionSize(24)
        self.compare_table.setAlternatingRowColors(True)
        layout.addWidget(self.compare_table, 3)
        note = QLabel(self.tr("Tensor figures are dense (no sparsity) at FP32 accumulate, the rate GeForce cards really run for BF16/FP16 training. Marketing 'AI TOPS' (sparse FP4) are never used. Bold: best of the compared cards."))
        note.setWordWrap(True)
        layout.addWidget(note)

        rec_box = QGroupBox(self.tr("Which card for my work and budget?"), tab)
        rec = QVBoxLayout(rec_box)
        inputs = QHBoxLayout()
        self.model_combo = QComboBox(rec_box)
        self.model_combo.addItem(self.tr("by size"), None)
        for name in modelfit_model_names():
            self.model_combo.addItem(name, name)
        self.model_combo.setVisible(self.model_combo.count() > 1)  # only when the model-fit tool is here
        self.model_combo.currentIndexChanged.connect(self._update_ranking)
        self.params_spin = QDoubleSpinBox(rec_box)
        self.params_spin.setRange(0.1, 1000)
        self.params_spin.setValue(8)
        self.params_spin.setSuffix(self.tr(" B params"))
        self.dtype_combo = QComboBox(rec_box)
        for dtype in ("bf16", "fp8", "int8", "int4", "fp32"):
            self.dtype_combo.addItem(dtype, dtype)
        self.task_combo = QComboBox(rec_box)
        self.task_combo.addItem(self.tr("inference"), Task.INFERENCE.value)
        self.task_combo.addItem(self.tr("LoRA fine-tuning"), Task.LORA.value)
        self.task_combo.addItem(self.tr("full training"), Task.FULL_TRAINING.value)
        self.budget_spin = QSpinBox(rec_box)
        self.budget_spin.setRange(0, 100000)
        self.budget_spin.setSingleStep(100)
        self.budget_spin.setValue(int(round(self._cur.from_usd(2000), -2)))  # about $2,000 in the display currency
        self.budget_spin.setPrefix(self._cur.symbol)
        self.budget_spin.setRange(0, 1000000)
        self.budget_spin.setSpecialValueText(self.tr("no budget"))
        inputs.addWidget(QLabel(self.tr("Model")))
        inputs.addWidget(self.model_combo)
        self.model_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_combo.setMinimumContentsLength(14)
        # two rows, so the inputs fit a 1024-pixel window
        second = QHBoxLayout()
        for row, label, widget in ((inputs, None, self.params_spin), (inputs, self.tr("Weights"), self.dtype_combo),
                                   (second, self.tr("Task"), self.task_combo), (second, self.tr("Budget"), self.budget_spin)):
            if label:
                row.addWidget(QLabel(label))
            row.addWidget(widget)
        inputs.addStretch(1)
        second.addStretch(1)
        rec.addLayout(inputs)
        rec.addLayout(second)
        for widget in (self.params_spin, self.budget_spin):
            widget.valueChanged.connect(self._update_ranking)
        for combo in (self.dtype_combo, self.task_combo):
            combo.currentIndexChanged.connect(self._update_ranking)
        self.need_label = QLabel("", rec_box)
        self.need_label.setWordWrap(True)
        rec.addWidget(self.need_label)
        self.rank_table = QTableWidget(0, 6, rec_box)
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
        layout.addWidget(rec_box, 4)
        return tab

    # ---- Public API

    def build(self) -> Build:
        """The build as the widgets describe it."""
        cat = self.catalog
        assert cat is not None
        cpu = self._current_cpu()
        psu_w = self.psu_spin.value()
        return Build(
            gpus=tuple(self._build_gpus), cpu=cpu,
            **{key: spin.value() for key, spin in self.spins.items()},
            usage=Usage(self.usage_combo.currentData()), psu_standard=PsuStandard(self.standard_combo.currentData()),
            efficiency=self.efficiency_combo.currentData(), psu_w=float(psu_w) if psu_w else None,
            price_per_kwh=self.price_spin.value(),
        )

    def _set_rank_headers(self) -> None:
        per = f"{self._cur.symbol}1000"
        self.rank_table.setHorizontalHeaderLabels([
            self.tr("Card"), self.tr("Price"), self.tr("Memory"), self.tr("Fits"),
            self.tr("BF16 TFLOPS per {amount}").format(amount=per), self.tr("GB/s per {amount}").format(amount=per)])

    def _reflow_figures(self, columns: int) -> None:
        self.results.reflow_figures(columns)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self.catalog is not None and hasattr(self, "figures"):
            self._reflow_figures(4 if self.width() >= 1000 else 2)

    def _current_cpu(self):
        """The picked CPU, or the one the typed text names (the CLI's name matching)."""
        cat = self.catalog
        assert cat is not None
        index = self.cpu_combo.currentIndex()
        typed = self.cpu_combo.currentText().strip()
        if index >= 0 and self.cpu_combo.itemText(index) == typed:
            name = self.cpu_combo.currentData()
            return cat.find_cpu(name) if name else None
        return cat.find_cpu(typed) if typed else None

    def shutdown(self) -> None:
        self._stop_listening()

    def add_gpu(self, gpu: Gpu) -> None:
        if len(self._build_gpus) >= 8:
            return
        self._leave_example()
        self._build_gpus.append(gpu)
        self._refresh_gpu_list()
        self._reset_buy_defaults()
        self.recompute()

    def remove_gpu(self, row: int) -> None:
        if 0 <= row < len(self._build_gpus):
            self._leave_example()
            del self._build_gpus[row]
            self._refresh_gpu_list()
            self._reset_buy_defaults()
            self.recompute()

    def recompute(self) -> None:
        if self.catalog is None:
            return
        try:
            result = calculate(self.build(), self.catalog)
        except BuildError as exc:  # the widgets' ranges make this unlikely; say so rather than crash
            self.verdict_label.setText(str(exc))
            return
        self.result = result
        self._show_result(result)
        self._update_buy_vs_rent()
        if not self._loading:
            self._leave_example()  # any edit makes the build the user's own
            self._save_build()
        self.result_changed.emit(result)

    # ---- Rendering

    def _refresh_gpu_list(self) -> None:
        self.gpu_list.clear()
        for gpu in self._build_gpus:
            item = QListWidgetItem(self.tr("{name}  ({tgp} W)").format(name=gpu.name, tgp=round(gpu.tgp_w or 0)))
            self.gpu_list.addItem(item)
        if self._build_gpus:
            self.gpu_list.setCurrentRow(len(self._build_gpus) - 1)
        self.remove_button.setEnabled(bool(self._build_gpus))

    def _show_result(self, r: Result) -> None:
        self.sustained_card.set(f"{r.sustained_w:.0f} W", self.tr("CPU at PL2/PPT, GPUs at full power"))
        self.recommended_card.set(f"{r.recommended_psu_w} W", self.tr("never below {w} W").format(w=round(r.minimum_psu_w)))
        self.peak_card.set(f"{r.peak_10ms_w:.0f} W", self.tr("{w} W for 100 µs").format(w=round(r.peak_100us_w)))
        self.wall_card.set(f"{r.cost.wall_w:.0f} W", self.tr("{cur} {day:.2f} per day ({hours} h)").format(
            cur=self._cur.symbol, day=r.cost.cost_per_day, hours=f"{r.cost.hours_per_day:g}"))
        levels = [self.tr("From the wall at {load}% load, by 80 PLUS level:").format(load=round(r.cost.load_pct))]
        levels += [f"{self.efficiency_combo.itemText(self.efficiency_combo.findData(level))}: {wall:.0f} W ({eff:.1f}%)"
                   for level, eff, wall in r.wall_by_level]
        self.wall_card.setToolTip("\n".join(levels))
        if r.verdict is not None:
            texts = {Verdict.OK: self.tr("Your {w} W PSU is enough."),
                     Verdict.TIGHT: self.tr("Your {w} W PSU is enough, but below our recommendation."),
                     Verdict.INSUFFICIENT: self.tr("Your {w} W PSU is not enough for this build.")}
            colour = VERDICT_COLOURS[r.verdict]
            self.verdict_label.setText(f"<b style='color:{colour}'>{texts[r.verdict].format(w=round(r.build.psu_w or 0))}</b>")
            self.verdict_label.setVisible(True)
        else:
            self.verdict_label.setVisible(False)
        capacity = r.build.psu_w or r.recommended_psu_w
        segments = [Segment(line.key, render(line.label), line.watts) for line in r.lines]
        psu_text = (self.tr("your PSU {w} W") if r.build.psu_w else self.tr("recommended PSU {w} W")).format(w=round(capacity))
        spike_text = self.tr("GPU spikes (10 ms) {w} W").format(w=round(r.peak_10ms_w))
        self.watt_bar.set_segments(segments, capacity, r.peak_10ms_w, psu_text, spike_text)
        legend = []
        for key in ("cpu", "gpu", "board", "ram", "storage", "cooling", "usb"):
            parts = [s for s in segments if s.key == key and s.watts > 0]
            if not parts:
                continue
            watts = sum(s.watts for s in parts)
            name = parts[0].label if len(parts) == 1 else self.tr("{n} GPUs").format(n=len(parts))
            legend.append(f"<span style='color:{SEGMENT_COLOURS[key]}'>&#9632;</span>&nbsp;{_unbroken(name)}&nbsp;{watts:.0f}&nbsp;W")
        legend.append("<b>&#9475;</b>&nbsp;" + _unbroken(psu_text))
        legend.append("<span style='color:#c0392b'><b>&#9478;</b></span>&nbsp;" + _unbroken(spike_text))
        self.legend_label.setText(" &nbsp; ".join(legend))
        why_heading = self.tr("Why {w} W").format(w=r.recommended_psu_w)
        why = [f"<b>{why_heading}</b>", render(r.reason_text())]
        biggest = max(r.candidates, key=lambda c: c.watts)
        for c in r.candidates:
            if c.watts <= 0:
                continue
            text = f"{render(c.label)}: {c.watts:.0f} W"
            why.append(f"<b>{text}</b>" if c is biggest else text)
        missing = r.vendor_missing_text()
        if missing is not None:
            why.append(render(missing))
        if r.boundary is not None:
            why.append(f"<i>{render(r.boundary.message)}</i>")
        self.why_label.setText("<br>".join(why))
        plan_heading = self.tr("Cables and PCIe lanes")
        plan = [f"<b>{plan_heading}</b>"]
        counted: dict[str, int] = {}
        for item in r.connectors.gpus:  # two identical cards: one line, "2 x ..."
            text = render(item.message)
            counted[text] = counted.get(text, 0) + 1
        plan += [f"{n} × {text}" if n > 1 else text for text, n in counted.items()]
        plan.append(render(r.lanes.message))
        self.plan_label.setText("<br>".join(plan))
        self._show_warnings(r)

    def _show_warnings(self, r: Result) -> None:
        for label in self.warning_labels:
            self.warnings_box.removeWidget(label)
            label.deleteLater()
        self.warning_labels = []
        order = {Severity.PROBLEM: 0, Severity.WARNING: 1, Severity.INFO: 2}
        shown = [w for w in r.warnings if w.code not in ("lanes_split", "size_boundary")]  # already in the cards above
        for w in sorted(shown, key=lambda w: order[w.severity]):
            label = QLabel(render(w.message))
            label.setWordWrap(True)
            label.setObjectName(f"warning_{w.code}")
            colour = QColor(SEVERITY_COLOURS[w.severity])
            label.setStyleSheet(
                f"QLabel {{ border-left: 4px solid {colour.name()}; padding: 4px 8px; border-radius: 3px;"
                f" background-color: rgba({colour.red()}, {colour.green()}, {colour.blue()}, 28); }}")
            self.warnings_box.addWidget(label)
            self.warning_labels.append(label)

    def _reset_buy_defaults(self) -> None:
        """Fill the card picker; each card keeps the user's amounts, else the dated defaults."""
        cat = self.catalog
        assert cat is not None
        keep = self.rent_card_combo.currentIndex()
        with QSignalBlocker(self.rent_card_combo):
            self.rent_card_combo.clear()
            for gpu in self._build_gpus:
                self.rent_card_combo.addItem(gpu.name.removeprefix("GeForce "), gpu.key)
            self.rent_card_combo.setCurrentIndex(min(max(keep, 0), len(self._build_gpus) - 1) if self._build_gpus else -1)
        for gpu in self._build_gpus:
            if gpu.key not in self._card_prices:
                dated = money.default_card_price(cat, gpu, self._cur)
                self._card_prices[gpu.key] = dated.amount if dated else 0.0
            if gpu.key not in self._cloud_rates:
                rate = money.default_cloud_rate(cat, gpu, self._cur)
                self._cloud_rates[gpu.key] = rate.amount if rate else 0.0
        self._on_rent_card_changed()

    def _selected_rent_gpu(self) -> Gpu | None:
        key = self.rent_card_combo.currentData()
        return next((g for g in self._build_gpus if g.key == key), None)

    def _on_rent_card_changed(self, *_args) -> None:
        cat = self.catalog
        assert cat is not None
        gpu = self._selected_rent_gpu()
        with QSignalBlocker(self.card_price_spin), QSignalBlocker(self.cloud_spin):
            self.card_price_spin.setValue(self._card_prices.get(gpu.key, 0.0) if gpu else 0.0)
            self.cloud_spin.setValue(self._cloud_rates.get(gpu.key, 0.0) if gpu else 0.0)
        notes: list[str] = []
        tip: list[str] = []
        if gpu is not None:
            dated = money.default_card_price(cat, gpu, self._cur)
            if dated is not None:
                notes.append(self.tr("Card price on file: {note}.").format(note=render(dated.note(self._cur))))
                tip.append(dated.source)
            cloud = cat.cloud_prices.get(gpu.key)
            local = money.default_cloud_rate(cat, gpu, self._cur)
            if local is not None and not local.converted and self._cur.code != "USD":
                notes.append(self.tr("Cloud price: {note}; edit it to today's price.").format(note=render(money.cloud_rate_note(local))))
                tip.append(local.source)
            elif cloud:
                text = self.tr("Cloud price read {date} from {provider}; edit it to today's price.").format(
                    date=cloud.read, provider=render(cloud_provider_text(cloud)))
                if self._cur.code != "USD":
                    text += " " + self.tr("Converted from USD.")
                notes.append(text)
                tip.append(cloud.source)
            else:
                notes.append(self.tr("No cloud price on file for this card: enter one."))
            if self._cur.code == "CNY":
                notes.append(self.tr("No dated AutoDL price was found in our sources: enter the price you see there."))
        self.cloud_source_label.setText(" ".join(notes))
        self.cloud_source_label.setToolTip("\n".join(t for t in tip if t))
        self._update_buy_vs_rent()

    def _on_card_price_edited(self, value: float) -> None:
        gpu = self._selected_rent_gpu()
        if gpu is not None:
            self._card_prices[gpu.key] = value
        self._update_buy_vs_rent()

    def _on_cloud_rate_edited(self, value: float) -> None:
        gpu = self._selected_rent_gpu()
        if gpu is not None:
            self._cloud_rates[gpu.key] = value
        self._update_buy_vs_rent()

    def _update_buy_vs_rent(self) -> None:
        r = self.result
        if r is None or not self._build_gpus:
            self.rent_result_label.setText(self.tr("Add a card to compare buying with renting."))
            return
        rows = buy_vs_rent_per_card(r, [self._card_prices.get(g.key) or None for g in r.build.gpus],
                                    [self._cloud_rates.get(g.key) or None for g in r.build.gpus],
                                    self.resale_spin.value(), self._cur.symbol)
        lines = []
        for row in rows:
            text = render(row.message)
            if row.outcome is not None:
                text += " " + self.tr("({w} W of the PC's power: {cost}/h)").format(
                    w=round(row.power_share_w), cost=f"{self._cur.symbol}{row.outcome.energy_usd_per_hour:.3f}")
            lines.append(text)
        self.rent_result_label.setText("<br>".join(lines))

    def _refresh_money_note(self) -> None:
        cat = self.catalog
        assert cat is not None
        parts = []
        tips = []
        if not self._price_edited:
            default = money.default_electricity(cat, self._cur)
            parts.append(render(money.electricity_note(cat, self._cur, default, with_source=False)))
            tips.append(default.source)
        if self._cur.code != "USD":
            parts.append(self.tr("1 USD = {rate} {code} (rate of {date}).").format(
                rate=f"{self._cur.per_usd:g}", code=self._cur.code, date=self._cur.date))
        if self._cur.rate_text() is not None:
            tips.append(render(self._cur.rate_text()))
        self.money_note_label.setToolTip("\n".join(t for t in tips if t))
        self.money_note_label.setText(" ".join(parts))
        self.money_note_label.setVisible(bool(parts))

    def set_currency(self, code: str) -> None:
        """Show every amount in ``code``; amounts already entered are converted at the dated rate."""
        cat = self.catalog
        assert cat is not None
        new = money.currency(cat, code)
        if new.code == self._cur.code:
            return
        old = self._cur
        self._cur = new

        def convert(amount: float) -> float:
            return new.from_usd(old.to_usd(amount))

        self._card_prices = {k: convert(v) for k, v in self._card_prices.items()}
        self._cloud_rates = {k: convert(v) for k, v in self._cloud_rates.items()}
        # a card whose local price is on file takes it rather than a conversion
        for gpu in self._build_gpus:
            dated = money.default_card_price(cat, gpu, new)
            if dated is not None and not dated.converted:
                self._card_prices[gpu.key] = dated.amount
        with QSignalBlocker(self.price_spin), QSignalBlocker(self.resale_spin), QSignalBlocker(self.budget_spin):
            if self.budget_spin.value():
                self.budget_spin.setValue(int(round(convert(self.budget_spin.value()))))
            if self._price_edited:
                self.price_spin.setValue(convert(self.price_spin.value()))
            else:
                self.price_spin.setValue(money.default_electricity(cat, new).amount)
            self.resale_spin.setValue(convert(self.resale_spin.value()))
        self.price_spin.setSuffix(f" {new.code}/kWh")
        for spin in (self.card_price_spin, self.resale_spin, self.cloud_spin, self.budget_spin):
            spin.setPrefix(new.symbol)
        with QSignalBlocker(self.currency_combo):
            self.currency_combo.setCurrentIndex(self.currency_combo.findData(new.code))
        self._set_rank_headers()
        settings = self.context.settings_store.settings
        settings.power_cost.currency = new.code
        if not self._price_edited:  # marks the choice as the user's (see money.currency_setting)
            settings.power_cost.price_per_kwh = 0.0  # still the dated default, not an old stored figure
            settings.power_cost.price_currency = new.code
        self._refresh_money_note()
        self._on_rent_card_changed()
        self.recompute()
        self._update_ranking()

    def _on_currency_changed(self, _index: int) -> None:
        code = self.currency_combo.currentData()
        if code:
            self.set_currency(code)
            try:
                self.context.settings_store.save()
            except OSError:
                pass

    def _on_price_spin_changed(self, _value: float) -> None:
        if not self._loading:
            self._price_edited = True
            self._refresh_money_note()
        self.recompute()

    def _on_cpu_typed(self) -> None:
        cat = self.catalog
        assert cat is not None
        typed = self.cpu_combo.currentText().strip()
        index = self.cpu_combo.currentIndex()
        if index >= 0 and self.cpu_combo.itemText(index) == typed:
            return  # a picked entry: currentIndexChanged already recomputed
        cpu = cat.find_cpu(typed) if typed else None
        if cpu is None and typed:
            self.detected_label.setText(self.tr("Unknown CPU: {name}. Closest: {names}").format(
                name=typed, names=", ".join(suggest_cpus(typed, cat.cpus))))
            return
        with QSignalBlocker(self.cpu_combo):
            self.cpu_combo.setCurrentIndex(max(0, self.cpu_combo.findData(cpu.name if cpu else None)))
        self.recompute()

    def _update_comparison(self) -> None:
        cat = self.catalog
        assert cat is not None
        chosen = [cat.gpu(c.currentData()) for c in self.compare_combos if c.currentData()]
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

    def _update_ranking(self) -> None:
        cat = self.catalog
        assert cat is not None
        params_b, dtype, task = self.params_spin.value(), self.dtype_combo.currentData(), Task(self.task_combo.currentData())
        model = self.model_combo.currentData()
        self.params_spin.setEnabled(model is None)
        try:
            # the model-fit service; the parameter-count rule when it cannot size this request
            workload = estimate_with_modelfit(model, None if model else params_b, dtype, task)
        except ValueError as exc:
            if model:
                self.need_label.setText(str(exc))  # e.g. that model cannot be trained in fp8
                self.rank_table.setRowCount(0)
                return
            workload = None  # by size: fall back on the rule of thumb
        rough = workload is None
        try:
            workload = workload or estimate_from_params(params_b, dtype, task)
        except ValueError as exc:
            self.need_label.setText(str(exc))
            return
        budget = float(self.budget_spin.value()) or None
        budget_usd = self._cur.to_usd(budget) if budget else None
        ranked = rank_cards(cat.gpus, workload, budget_usd, self._prices)
        need = self.tr("Needs about {gib:.1f} GiB on one GPU ({method}).").format(
            gib=workload.vram_needed_gib, method=render(workload.method))
        if rough:
            need += " " + self.tr("A rough figure from the parameter count; the Model fit page gives a full breakdown.")
        if not any(r.fits and r.price_usd is not None for r in ranked):
            cheapest = cheapest_fitting(cat.gpus, workload, self._prices)
            if cheapest is not None:
                need += " " + self.tr("No card within the budget holds it; the cheapest that does is {gpu} ({price}).").format(
                    gpu=cheapest.gpu.name, price=self._cur.fmt(self._cur.from_usd(cheapest.price_usd or 0.0)))
            elif any(r.fits for r in ranked):
                need += " " + self.tr("Only cards without a price on file hold it: enter what they cost you.")
            else:
                need += " " + self.tr("No single card in the catalogue holds it: split it across GPUs or quantize it.")
        self.need_label.setText(need)
        shown = ranked[:12]
        shown += [r for r in ranked if r.fits and r not in shown]  # every card that holds the work is listed
        blocker = QSignalBlocker(self.rank_table)
        self.rank_table.setRowCount(len(shown))
        yes, no = self.tr("yes"), self.tr("no")
        for i, r in enumerate(shown):
            per_k = 1.0 / self._cur.per_usd  # value per 1000 of the display currency
            cells = [r.gpu.name,
                     self.tr("enter a price") if r.price_usd is None else self._cur.fmt(self._cur.from_usd(r.price_usd)),
                     f"{r.gpu.vram_gb:.0f} GB", yes if r.fits else no,
                     "" if r.tflops_per_kusd is None else f"{r.tflops_per_kusd * per_k:.1f}",
                     "" if r.gbs_per_kusd is None else f"{r.gbs_per_kusd * per_k:.0f}"]
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if j == 0:
                    item.setToolTip(text)  # long names are elided in a narrow window
                if j != 1:
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                else:
                    item.setData(Qt.ItemDataRole.UserRole, r.gpu.key)
                    if not r.price_is_default:
                        item.setFont(QFont(self.rank_table.font().family(), -1, QFont.Weight.Bold))
                    if r.price_usd is None:
                        item.setForeground(QColor("#d18b00"))
                        item.setToolTip(self.tr("No launch price on file: double-click and type what the card costs you."))
                if j == 3:
                    item.setForeground(QColor("#2e8b57" if r.fits else "#c0392b"))
                self.rank_table.setItem(i, j, item)
        del blocker

    # ---- Prefill

    def _prefill(self) -> None:
        cat = self.catalog
        assert cat is not None
        gpus = detect.detected_gpus(self.context.telemetry, cat.gpus)
        cpu = detect.detected_cpu(cat.cpus)
        if gpus or cpu:
            names = [g.name for g in gpus] + ([cpu.name] if cpu else [])
            self.detected_label.setText(self.tr("Detected on this PC: {parts}").format(parts=", ".join(names)))
        if not gpus:
            self._showing_example = True
            gpus = [cat.gpu(EXAMPLE_GPU)]
            if cpu is None:
                cpu = cat.find_cpu(EXAMPLE_CPU)
                self.detected_label.setText(self.tr("Nothing detected: showing an example build. Replace it with yours."))
        with QSignalBlocker(self.cpu_combo):
            self.cpu_combo.setCurrentIndex(max(0, self.cpu_combo.findData(cpu.name if cpu else None)))
        self._build_gpus = list(gpus)
        self._refresh_gpu_list()
        self._reset_buy_defaults()

    def detect_hardware(self) -> bool:
        """Replace the build's cards and CPU with this PC's; False when nothing is found."""
        cat = self.catalog
        assert cat is not None
        gpus = detect.detected_gpus(self.context.telemetry, cat.gpus)
        if not gpus and self.context.telemetry is None:
            gpus = detect.detected_gpus_nvml(cat.gpus)  # the monitor is not running: ask the driver once
        cpu = detect.detected_cpu(cat.cpus)
        if not gpus and cpu is None:
            self.detected_label.setText(self.tr("No NVIDIA GPU or known CPU found on this PC."))
            return False
        names = [g.name for g in gpus] + ([cpu.name] if cpu else [])
        self.detected_label.setText(self.tr("Detected on this PC: {parts}").format(parts=", ".join(names)))
        if gpus:
            self._showing_example = False
            self._build_gpus = list(gpus)
            self._refresh_gpu_list()
            self._reset_buy_defaults()
        if cpu is not None:
            with QSignalBlocker(self.cpu_combo):
                self.cpu_combo.setCurrentIndex(max(0, self.cpu_combo.findData(cpu.name)))
        self.recompute()
        return True

    def _save_build(self) -> None:
        """Remember the build (and the electricity price, shared with the other tools)."""
        if self._showing_example:
            return  # an untouched example is not worth remembering: detect again next time
        settings = self.context.settings_store.settings
        saved = settings.psu
        saved.gpus = [g.key for g in self._build_gpus]
        saved.cpu = self.cpu_combo.currentData() or ""
        for key, spin in self.spins.items():
            setattr(saved, key, spin.value())
        saved.usage = self.usage_combo.currentData()
        saved.psu_standard = self.standard_combo.currentData()
        saved.efficiency = self.efficiency_combo.currentData()
        saved.psu_w = self.psu_spin.value()
        if self._price_edited:  # the dated default is not the user's price: leave it unset
            settings.power_cost.price_per_kwh = self.price_spin.value()
            settings.power_cost.price_currency = self._cur.code
        try:
            self.context.settings_store.save()
        except OSError:
            pass  # a read-only config folder must not break the calculator

    def _restore_saved_build(self) -> bool:
        """Put the last session's build back; False when there is none."""
        cat = self.catalog
        assert cat is not None
        saved = self.context.settings_store.settings.psu
        gpus = []
        for key in saved.gpus[:8]:
            try:
                gpus.append(cat.gpu(str(key)))
            except KeyError:
                continue  # a card a later catalogue renamed: drop it rather than fail
        if not gpus and not saved.cpu:
            return False
        self._build_gpus = gpus
        self.cpu_combo.setCurrentIndex(max(0, self.cpu_combo.findData(saved.cpu or None)))
        for key, spin in self.spins.items():
            value = getattr(saved, key, spin.value())
            spin.setValue(value if isinstance(value, int) else spin.value())  # the spin clamps the range
        for combo, value in ((self.usage_combo, saved.usage), (self.standard_combo, saved.psu_standard),
                             (self.efficiency_combo, saved.efficiency)):
            index = combo.findData(value)
            if index >= 0:
                combo.setCurrentIndex(index)
        self.psu_spin.setValue(saved.psu_w if isinstance(saved.psu_w, int) else 0)
        self.detected_label.setText(self.tr("Your last build. 'Use this PC' fills in this computer's hardware."))
        self._refresh_gpu_list()
        self._reset_buy_defaults()
        return True

    def _leave_example(self) -> None:
        if self._showing_example:
            self._showing_example = False
            self.detected_label.setText("")  # "showing an example" is no longer true

    def waiting_for_devices(self) -> bool:
        """True while the page still listens for the monitored GPUs to replace its example build."""
        return self._listening

    def _stop_listening(self) -> None:
        if self._listening:
            self._listening = False
            self._bridge.snapshot_received.disconnect(self._on_bridge_snapshot_received)

    def _on_bridge_snapshot_received(self, snapshot) -> None:
        gpus = getattr(snapshot, "gpus", ())
        if gpus:
            self._on_devices_arrived(tuple(gpus))

    # ---- Slots

    def _on_devices_arrived(self, infos: tuple) -> None:
        self._stop_listening()
        cat = self.catalog
        if cat is None or not self._showing_example:
            return  # the user has started their own build: leave it alone
        gpus = [g for g in (detect.match_gpu_info(info, cat.gpus) for info in infos) if g is not None]
        if not gpus:
            return
        self._showing_example = False
        self._build_gpus = gpus
        self._refresh_gpu_list()
        self._reset_buy_defaults()
        cpu_name = self.cpu_combo.currentData()
        names = [g.name for g in gpus] + ([cpu_name] if cpu_name and cpu_name != EXAMPLE_CPU else [])
        self.detected_label.setText(self.tr("Detected on this PC: {parts}").format(parts=", ".join(names)))
        self.recompute()

    def _on_detect_button_clicked(self) -> None:
        self.detect_hardware()

    def _on_add_button_clicked(self) -> None:
        cat = self.catalog
        assert cat is not None
        key = self.gpu_combo.currentData()
        typed = self.gpu_combo.currentText().strip()
        index = self.gpu_combo.currentIndex()
        if key and index >= 0 and self.gpu_combo.itemText(index) == typed:
            self.add_gpu(cat.gpu(key))
            return
        match = find_gpu_for_build(typed, cat.gpus)
        if match is None:
            self.detected_label.setText(self.tr("Unknown card: {name}. Closest: {names}").format(
                name=typed, names=", ".join(suggest_gpus(typed, cat.gpus))))
            return
        self.add_gpu(match.gpu)
        if match.passed_over is not None:  # "H100": say that the PCIe card was taken, not the SXM module
            self.detected_label.setText(render(gpu_pick_text(typed, match)))

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
            self._prices[key] = self._cur.to_usd(price)  # entered in the display currency
        else:
            self._prices.pop(key, None)  # an empty or bad entry goes back to the launch price
        self._update_ranking()

    def _on_remove_button_clicked(self) -> None:
        self.remove_gpu(self.gpu_list.currentRow())


def _unbroken(text: str) -> str:
    """One legend entry that never wraps inside itself: no-break spaces, and a word joiner
    beside each non-ASCII character, since Chinese may otherwise break between any two."""
    out: list[str] = []
    for i, c in enumerate(text):
        if i and (ord(c) > 127 or ord(text[i - 1]) > 127):
            out.append("\u2060")
        out.append("&nbsp;" if c == " " else html.escape(c))
    return "".join(out)
