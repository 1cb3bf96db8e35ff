"""Build & PSU page: puts the build tab (inputs.py boxes, results.py, rent.py) and the
compare tab (compare_tab.py) together, reads the build from the inputs, fills it from
this PC's hardware or the last session, and keeps the display currency.

Everything shown comes from ``services.hardware`` (the CLI prints the same).
Recomputing is cheap, so every edit recomputes at once: no timers, no threads.
"""
from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidgetItem,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gui.context import AppContext
from gui.i18n import render
from gui.psu.compare_tab import CompareTab
from gui.psu.inputs import GpuPickerBox, PartsBox, PsuBox
from gui.psu.rent import RentBox
from gui.psu.results import ResultPanel
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
from services.hardware.psu import Build, BuildError, PsuStandard, Result, Usage, calculate
from services.hardware.report import gpu_pick_text

EXAMPLE_GPU, EXAMPLE_CPU = "rtx-4090", "Ryzen 9 9950X"


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
        self._price_edited = False  # the electricity price is the user's, not the dated default
        self._showing_example = False  # the build is our example, not something the user made
        self._listening = False
        try:
            self.catalog: Catalog | None = load_catalog()
        except CatalogError as exc:
            self.catalog = None
            layout = QVBoxLayout(self)
            layout.addWidget(QLabel(self.tr("The hardware catalogue could not be read: {error}").format(error=render(exc.message))))
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
        self.compare = CompareTab(self.catalog, self._cur)
        self.tabs.addTab(self.compare, self.tr("Compare cards"))
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
        self.rent = RentBox(cat, self._cur, right)
        rl.addWidget(self.rent)
        rl.addStretch(1)
        right_scroll = _scrolled(right)
        right_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # wrap, never scroll sideways
        row.addWidget(right_scroll, 1)
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

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self.catalog is not None and hasattr(self, "results"):
            self.results.reflow_figures(4 if self.width() >= 1000 else 2)

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
        self.rent.set_cards(self._build_gpus)
        self.recompute()

    def remove_gpu(self, row: int) -> None:
        if 0 <= row < len(self._build_gpus):
            self._leave_example()
            del self._build_gpus[row]
            self._refresh_gpu_list()
            self.rent.set_cards(self._build_gpus)
            self.recompute()

    def recompute(self) -> None:
        if self.catalog is None:
            return
        try:
            result = calculate(self.build(), self.catalog)
        except BuildError as exc:  # the widgets' ranges make this unlikely; say so rather than crash
            self.results.verdict_label.setText(str(exc))
            return
        self.result = result
        combo = self.efficiency_combo
        self.results.show_result(result, self._cur.symbol, lambda level: combo.itemText(combo.findData(level)))
        self.rent.show_result(result)
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
        old, self._cur = self._cur, new
        self.rent.set_currency(new)
        with QSignalBlocker(self.price_spin):
            if self._price_edited:
                self.price_spin.setValue(new.from_usd(old.to_usd(self.price_spin.value())))
            else:
                self.price_spin.setValue(money.default_electricity(cat, new).amount)
        self.price_spin.setSuffix(f" {new.code}/kWh")
        with QSignalBlocker(self.currency_combo):
            self.currency_combo.setCurrentIndex(self.currency_combo.findData(new.code))
        settings = self.context.settings_store.settings
        settings.power_cost.currency = new.code
        if not self._price_edited:  # marks the choice as the user's (see money.currency_setting)
            settings.power_cost.price_per_kwh = 0.0  # still the dated default, not an old stored figure
            settings.power_cost.price_currency = new.code
        self._refresh_money_note()
        self.recompute()
        self.compare.set_currency(new)

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
        self.rent.set_cards(self._build_gpus)

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
            self.rent.set_cards(self._build_gpus)
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
        self.rent.set_cards(self._build_gpus)
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
        self.rent.set_cards(self._build_gpus)
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

    def _on_remove_button_clicked(self) -> None:
        self.remove_gpu(self.gpu_list.currentRow())

