"""Build & PSU page: puts the build tab (inputs.py boxes, results.py, rent.py) and the
compare tab (compare_tab.py) together, reads the build from the inputs, fills it from
this PC's hardware or the last session, and keeps the display currency.

Everything shown comes from ``services.hardware`` (the CLI prints the same).
Recomputing is cheap, so every edit recomputes at once: no timers, no threads.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gui.context import TelemetryControl
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
from services.hardware.build import Build, BuildError, PsuStandard, Usage
from services.hardware.psu import calculate
from services.hardware.psu_result import Result
from services.hardware.report import gpu_pick_text
from services.settings import SettingsStore
from services.telemetry.hub import CurrentHub

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
        result_changed(object): the new ``services.hardware.psu_result.Result`` after any edit.
    """

    result_changed = Signal(object)
    # emitted from the telemetry worker thread; Qt queues it to the GUI thread

    def __init__(self, settings_store: SettingsStore, hubs: CurrentHub, telemetry: TelemetryControl | None = None,
                 language: str = "en", parent: QWidget | None = None) -> None:
        """``hubs``: the monitored hub, whose GPUs fill the build; ``telemetry``: its controller, whose
        bridge brings them once the hub finds them (None: not monitoring); ``language``: the app's,
        for the default currency."""
        super().__init__(parent)
        self.settings_store = settings_store
        self.hubs = hubs
        self._telemetry = telemetry
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
        settings = settings_store.settings
        try:
            code = money.resolve_currency_code(
                money.currency_setting(settings.power_cost.currency, settings.power_cost.price_currency),
                language or "en")
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
        # The word-wrapped subtitle gives the page a height-for-width, which Qt sums from the tabs'
        # preferred height (a full column): the page grew taller than a 640 px window and got a second,
        # outer scroll bar. The tabs take the height there is; each column scrolls on its own.
        self.tabs.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        self.tabs.setMinimumHeight(300)
        outer.addWidget(self.tabs, 1)
        self.tabs.addTab(self._make_build_tab(start_kwh), self.tr("Build"))
        self.compare = CompareTab(self.catalog, self._cur)
        self.tabs.addTab(self.compare, self.tr("Compare cards"))
        self._loading = True  # widget changes while we fill them in are not the user's edits
        if not self._restore_saved_build():
            self._prefill()
        control = self._telemetry
        if self._showing_example and control is not None and self.hubs.hub is not None:
            # the hub finds its GPUs a moment after it starts: take them when they arrive
            self._bridge = control.bridge()
            self._bridge.snapshot_received.connect(self._on_bridge_snapshot_received)
            self._listening = True
        self.recompute()
        self._refresh_money_note()
        self._loading = False

    # ---- Layout

    def _make_build_tab(self, price_per_kwh: float) -> QWidget:
        tab = QWidget()
        row = QHBoxLayout(tab)
        row.setContentsMargins(0, 8, 0, 0)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 8, 0)
        cat = self.catalog
        assert cat is not None

        self.gpu_box = GpuPickerBox(cat.gpus, left)
        self.gpu_box.add_requested.connect(self._on_add_requested)
        self.gpu_box.remove_requested.connect(self.remove_gpu)
        self.gpu_box.detect_requested.connect(self.detect_hardware)
        left_layout.addWidget(self.gpu_box)

        self.parts_box = PartsBox(cat.cpus, left)
        self.parts_box.changed.connect(self.recompute)
        self.parts_box.cpu_typed.connect(self._on_cpu_typed)
        left_layout.addWidget(self.parts_box)

        self.psu_box = PsuBox(self._cur.code, price_per_kwh, left)
        self.psu_box.changed.connect(self.recompute)
        self.psu_box.price_changed.connect(self._on_price_changed)
        self.psu_box.currency_chosen.connect(self._on_currency_chosen)
        left_layout.addWidget(self.psu_box)
        left_layout.addStretch(1)
        left.setMinimumWidth(300)
        left.setMaximumWidth(400)
        row.addWidget(left, 0, Qt.AlignmentFlag.AlignTop)

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(8, 0, 0, 0)
        self.results = ResultPanel(right)
        rl.addWidget(self.results)
        self.rent = RentBox(cat, self._cur, right)
        rl.addWidget(self.rent)
        rl.addStretch(1)
        row.addWidget(right, 1)
        # One scroll bar for the whole tab (the inputs and the results together), never a second one
        # beside it; it wraps, never scrolls sideways.
        scroll = _scrolled(tab)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        return scroll

    # ---- Public API

    def build(self) -> Build:
        """The build as the widgets describe it."""
        cat = self.catalog
        assert cat is not None
        cpu = self._current_cpu()
        psu, psu_w = self.psu_box, self.psu_box.psu_w()
        return Build(
            gpus=tuple(self._build_gpus), cpu=cpu, **self.parts_box.counts(),
            usage=Usage(psu.usage()), psu_standard=PsuStandard(psu.standard()),
            efficiency=psu.efficiency(), psu_w=float(psu_w) if psu_w else None,
            price_per_kwh=psu.price(),
        )

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.catalog is not None and hasattr(self, "results"):
            self.results.reflow_figures(4 if self.width() >= 1000 else 2)

    def _current_cpu(self):
        """The picked CPU, or the one the typed text names (the CLI's name matching)."""
        cat = self.catalog
        assert cat is not None
        if self.parts_box.is_picked():
            name = self.parts_box.picked_cpu()
            return cat.find_cpu(name) if name else None
        typed = self.parts_box.typed_cpu()
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
        self.results.show_result(result, self._cur.symbol, self.psu_box.efficiency_name)
        self.rent.show_result(result)
        if not self._loading:
            self._leave_example()  # any edit makes the build the user's own
            self._save_build()
        self.result_changed.emit(result)

    # ---- Rendering

    def _refresh_gpu_list(self) -> None:
        self.gpu_box.show_cards([self.tr("{name}  ({tgp} W)").format(name=gpu.name, tgp=round(gpu.tgp_w or 0))
                                 for gpu in self._build_gpus])

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
        self.psu_box.show_money_note(" ".join(parts), "\n".join(t for t in tips if t))

    def set_currency(self, code: str) -> None:
        """Show every amount in ``code``; amounts already entered are converted at the dated rate."""
        cat = self.catalog
        assert cat is not None
        new = money.currency(cat, code)
        if new.code == self._cur.code:
            return
        old, self._cur = self._cur, new
        self.rent.set_currency(new)
        if self._price_edited:
            self.psu_box.show_price(new.from_usd(old.to_usd(self.psu_box.price())), new.code)
        else:
            self.psu_box.show_price(money.default_electricity(cat, new).amount, new.code)
        settings = self.settings_store.settings
        settings.power_cost.currency = new.code
        if not self._price_edited:  # marks the choice as the user's (see money.currency_setting)
            settings.power_cost.price_per_kwh = 0.0  # still the dated default, not an old stored figure
            settings.power_cost.price_currency = new.code
        self._refresh_money_note()
        self.recompute()
        self.compare.set_currency(new)

    def _on_currency_chosen(self, code: str) -> None:
        self.set_currency(code)
        try:
            self.settings_store.save()
        except OSError:
            pass

    def _on_price_changed(self, _value: float) -> None:
        if not self._loading:
            self._price_edited = True
            self._refresh_money_note()
        self.recompute()

    def _on_cpu_typed(self, typed: str) -> None:
        cat = self.catalog
        assert cat is not None
        cpu = cat.find_cpu(typed) if typed else None
        if cpu is None and typed:
            self.gpu_box.say(self.tr("Unknown CPU: {name}. Closest: {names}").format(
                name=typed, names=", ".join(suggest_cpus(typed, cat.cpus))))
            return
        self.parts_box.set_cpu(cpu.name if cpu else None)
        self.recompute()

    # ---- Prefill

    def _prefill(self) -> None:
        cat = self.catalog
        assert cat is not None
        gpus = detect.detected_gpus(self._monitored_devices(), cat.gpus)
        cpu = detect.detected_cpu(cat.cpus)
        if gpus or cpu:
            names = [g.name for g in gpus] + ([cpu.name] if cpu else [])
            self.gpu_box.say(self.tr("Detected on this PC: {parts}").format(parts=", ".join(names)))
        if not gpus:
            self._showing_example = True
            gpus = [cat.gpu(EXAMPLE_GPU)]
            if cpu is None:
                cpu = cat.find_cpu(EXAMPLE_CPU)
                self.gpu_box.say(self.tr("Nothing detected: showing an example build. Replace it with yours."))
        self.parts_box.set_cpu(cpu.name if cpu else None)
        self._build_gpus = list(gpus)
        self._refresh_gpu_list()
        self.rent.set_cards(self._build_gpus)

    def _monitored_devices(self) -> tuple:
        hub = self.hubs.hub
        return hub.devices if hub is not None else ()

    def detect_hardware(self) -> bool:
        """Replace the build's cards and CPU with this PC's; False when nothing is found."""
        cat = self.catalog
        assert cat is not None
        gpus = detect.detected_gpus(self._monitored_devices(), cat.gpus)
        if not gpus and self.hubs.hub is None:
            gpus = detect.detected_gpus_nvml(cat.gpus)  # the monitor is not running: ask the driver once
        cpu = detect.detected_cpu(cat.cpus)
        if not gpus and cpu is None:
            self.gpu_box.say(self.tr("No NVIDIA GPU or known CPU found on this PC."))
            return False
        names = [g.name for g in gpus] + ([cpu.name] if cpu else [])
        self.gpu_box.say(self.tr("Detected on this PC: {parts}").format(parts=", ".join(names)))
        if gpus:
            self._showing_example = False
            self._build_gpus = list(gpus)
            self._refresh_gpu_list()
            self.rent.set_cards(self._build_gpus)
        if cpu is not None:
            self.parts_box.set_cpu(cpu.name)
        self.recompute()
        return True

    def _save_build(self) -> None:
        """Remember the build (and the electricity price, shared with the other tools)."""
        if self._showing_example:
            return  # an untouched example is not worth remembering: detect again next time
        settings = self.settings_store.settings
        saved = settings.psu
        saved.gpus = [g.key for g in self._build_gpus]
        saved.cpu = self.parts_box.listed_cpu() or ""
        for key, value in self.parts_box.counts().items():
            setattr(saved, key, value)  # the saved build has a field per count
        psu = self.psu_box
        saved.usage, saved.psu_standard, saved.efficiency = psu.usage(), psu.standard(), psu.efficiency()
        saved.psu_w = psu.psu_w()
        if self._price_edited:  # the dated default is not the user's price: leave it unset
            settings.power_cost.price_per_kwh = psu.price()
            settings.power_cost.price_currency = self._cur.code
        try:
            self.settings_store.save()
        except OSError:
            pass  # a read-only config folder must not break the calculator

    def _restore_saved_build(self) -> bool:
        """Put the last session's build back; False when there is none."""
        cat = self.catalog
        assert cat is not None
        saved = self.settings_store.settings.psu
        gpus = []
        for key in saved.gpus[:8]:
            try:
                gpus.append(cat.gpu(str(key)))
            except KeyError:
                continue  # a card a later catalogue renamed: drop it rather than fail
        if not gpus and not saved.cpu:
            return False
        self._build_gpus = gpus
        self.parts_box.set_cpu(saved.cpu or None, quiet=False)
        self.parts_box.set_counts({key: getattr(saved, key, None) for key in self.parts_box.counts()})
        self.psu_box.choose(saved.usage, saved.psu_standard, saved.efficiency, psu_w=saved.psu_w)
        self.gpu_box.say(self.tr("Your last build. 'Use this PC' fills in this computer's hardware."))
        self._refresh_gpu_list()
        self.rent.set_cards(self._build_gpus)
        return True

    def _leave_example(self) -> None:
        if self._showing_example:
            self._showing_example = False
            self.gpu_box.say("")  # "showing an example" is no longer true

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
        cpu_name = self.parts_box.listed_cpu()
        names = [g.name for g in gpus] + ([cpu_name] if cpu_name and cpu_name != EXAMPLE_CPU else [])
        self.gpu_box.say(self.tr("Detected on this PC: {parts}").format(parts=", ".join(names)))
        self.recompute()

    def _on_add_requested(self, key: str | None, typed: str) -> None:
        cat = self.catalog
        assert cat is not None
        if key:
            self.add_gpu(cat.gpu(key))
            return
        match = find_gpu_for_build(typed, cat.gpus)
        if match is None:
            self.gpu_box.say(self.tr("Unknown card: {name}. Closest: {names}").format(
                name=typed, names=", ".join(suggest_gpus(typed, cat.gpus))))
            return
        self.add_gpu(match.gpu)
        if match.passed_over is not None:  # "H100": say that the PCIe card was taken, not the SXM module
            self.gpu_box.say(render(gpu_pick_text(typed, match)))

