"""The build tab's input boxes: cards, other parts, use and power supply.

Each box owns its controls: it says what the person did through its signals and
answers the page's questions (``counts()``, ``efficiency()``...); the page never
reaches into a box's widgets (tests may, to click them).
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QCompleter,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gui.psu.widgets import card_combo
from services.hardware import money
from services.hardware.catalog import Cpu, Gpu
from services.hardware.build import EFFICIENCY_LEVELS, PsuStandard, Usage


class GpuPickerBox(QGroupBox):
    """The cards in the build: a list, a catalogue search to add one, and "Use this PC".

    Signals:
        add_requested(object, str): Add or Enter: the picked card's catalogue key (None when the
            text was typed rather than picked) and the text in the search field.
        remove_requested(int): Remove: the row of the selected card.
        detect_requested(): "Use this PC".
    """

    add_requested = Signal(object, str)
    remove_requested = Signal(int)
    detect_requested = Signal()

    def __init__(self, gpus: tuple[Gpu, ...], parent: QWidget | None = None) -> None:
        super().__init__(QCoreApplication.translate("PsuPage", "Graphics cards"), parent)
        gpu_layout = QVBoxLayout(self)
        self.gpu_list = QListWidget(self)
        self.gpu_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.gpu_list.setMaximumHeight(84)
        gpu_layout.addWidget(self.gpu_list)
        add_row = QHBoxLayout()
        self.gpu_combo = card_combo(gpus, self)
        self.gpu_combo.setCurrentIndex(-1)
        self.gpu_combo.lineEdit().setPlaceholderText(QCoreApplication.translate("PsuPage", "Type a card, e.g. 4090 or 4060 laptop"))
        self.add_button = QPushButton(QCoreApplication.translate("PsuPage", "Add"), self)
        self.add_button.setProperty("primary", True)
        self.remove_button = QPushButton(QCoreApplication.translate("PsuPage", "Remove"), self)
        add_row.addWidget(self.gpu_combo, 1)
        add_row.addWidget(self.add_button)
        add_row.addWidget(self.remove_button)
        gpu_layout.addLayout(add_row)
        detect_row = QHBoxLayout()
        self.detected_label = QLabel("", self)
        self.detected_label.setWordWrap(True)
        self.detected_label.setProperty("role", "muted")
        self.detect_button = QPushButton(QCoreApplication.translate("PsuPage", "Use this PC"), self)
        self.detect_button.setToolTip(QCoreApplication.translate("PsuPage", "Replace the cards and CPU with the ones found in this computer"))
        detect_row.addWidget(self.detected_label, 1)
        detect_row.addWidget(self.detect_button, 0, Qt.AlignmentFlag.AlignTop)
        gpu_layout.addLayout(detect_row)
        self.gpu_combo.lineEdit().returnPressed.connect(self._on_add)
        self.add_button.clicked.connect(self._on_add)
        self.remove_button.clicked.connect(lambda: self.remove_requested.emit(self.gpu_list.currentRow()))
        self.detect_button.clicked.connect(self.detect_requested)

    # ---- Public API
    def show_cards(self, lines: list[str]) -> None:
        """The build's cards, one line each; the last is selected, Remove is on when there is one."""
        self.gpu_list.clear()
        self.gpu_list.addItems(lines)
        if lines:
            self.gpu_list.setCurrentRow(len(lines) - 1)
        self.remove_button.setEnabled(bool(lines))

    def say(self, text: str) -> None:
        """The line under the list: what was detected, or why a typed card was not added."""
        self.detected_label.setText(text)

    # ---- Slots
    def _on_add(self) -> None:
        typed = self.gpu_combo.currentText().strip()
        index = self.gpu_combo.currentIndex()
        key = self.gpu_combo.currentData()
        picked = key if key and index >= 0 and self.gpu_combo.itemText(index) == typed else None
        self.add_requested.emit(picked, typed)


class PartsBox(QGroupBox):
    """The CPU and the counts of the other parts that draw power.

    Signals:
        changed(): a count or the picked CPU changed.
        cpu_typed(str): a CPU name was typed (Enter or leaving the field) rather than picked.
    """

    changed = Signal()
    cpu_typed = Signal(str)

    def __init__(self, cpus: tuple[Cpu, ...], parent: QWidget | None = None) -> None:
        super().__init__(QCoreApplication.translate("PsuPage", "CPU and other parts"), parent)
        parts = QGridLayout(self)
        self.cpu_combo = QComboBox(self)
        self.cpu_combo.setEditable(True)
        self.cpu_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.cpu_combo.addItem(QCoreApplication.translate("PsuPage", "(no CPU)"), None)
        for cpu in cpus:
            self.cpu_combo.addItem(cpu.name, cpu.name)
        self.cpu_combo.completer().setFilterMode(Qt.MatchFlag.MatchContains)
        # A list to pick from, never text filled in: inline completion turned a typed "i9-13900K" into
        # "i9-13900KS", and Enter then took the KS (issue 22). What was typed is matched by the catalogue.
        self.cpu_combo.completer().setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.cpu_combo.setMinimumContentsLength(16)
        self.cpu_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        parts.addWidget(QLabel(QCoreApplication.translate("PsuPage", "CPU")), 0, 0)
        parts.addWidget(self.cpu_combo, 0, 1, 1, 3)
        self.spins: dict[str, QSpinBox] = {}
        specs = [
            ("ram_sticks", QCoreApplication.translate("PsuPage", "RAM sticks"), 2, 16), ("nvme", QCoreApplication.translate("PsuPage", "NVMe SSDs"), 1, 16),
            ("sata_ssd", QCoreApplication.translate("PsuPage", "SATA SSDs"), 0, 24), ("hdd", QCoreApplication.translate("PsuPage", "Hard disks"), 0, 60),
            ("fans", QCoreApplication.translate("PsuPage", "Case fans"), 3, 30), ("aio_pumps", QCoreApplication.translate("PsuPage", "AIO pumps"), 0, 4),
            ("argb_channels", QCoreApplication.translate("PsuPage", "ARGB channels"), 0, 16), ("usb_devices", QCoreApplication.translate("PsuPage", "USB devices"), 2, 20),
        ]
        for i, (key, label, default, limit) in enumerate(specs):
            spin = QSpinBox(self)
            spin.setRange(0, limit)
            spin.setValue(default)
            self.spins[key] = spin
            r, c = 1 + i // 2, (i % 2) * 2
            parts.addWidget(QLabel(label), r, c)
            parts.addWidget(spin, r, c + 1)
            spin.valueChanged.connect(self.changed)
        self.cpu_combo.currentIndexChanged.connect(self.changed)
        # a typed CPU counts once the user presses Enter or leaves the field, like a picked one
        self.cpu_combo.lineEdit().returnPressed.connect(self._on_cpu_text_done)
        self.cpu_combo.lineEdit().editingFinished.connect(self._on_cpu_text_done)

    # ---- Public API
    def picked_cpu(self) -> str | None:
        """The CPU picked from the list, or None when the text was typed (or "(no CPU)")."""
        index = self.cpu_combo.currentIndex()
        if index >= 0 and self.cpu_combo.itemText(index) == self.typed_cpu():
            return self.cpu_combo.currentData()
        return None

    def listed_cpu(self) -> str | None:
        """The list's current entry (None: "(no CPU)"), whatever text the field shows."""
        return self.cpu_combo.currentData()

    def typed_cpu(self) -> str:
        return self.cpu_combo.currentText().strip()

    def is_picked(self) -> bool:
        """True when the field shows an entry of the list (not text the person typed)."""
        index = self.cpu_combo.currentIndex()
        return index >= 0 and self.cpu_combo.itemText(index) == self.typed_cpu()

    def set_cpu(self, name: str | None, quiet: bool = True) -> None:
        """Pick ``name`` ("(no CPU)" when None or unknown); ``quiet``: without ``changed``."""
        index = max(0, self.cpu_combo.findData(name))
        if quiet:
            with QSignalBlocker(self.cpu_combo):
                self.cpu_combo.setCurrentIndex(index)
        else:
            self.cpu_combo.setCurrentIndex(index)

    def counts(self) -> dict[str, int]:
        return {key: spin.value() for key, spin in self.spins.items()}

    def set_counts(self, counts: dict[str, object]) -> None:
        """Each known count that is a whole number (the spin clamps it to its range)."""
        for key, spin in self.spins.items():
            value = counts.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                spin.setValue(value)

    # ---- Slots
    def _on_cpu_text_done(self) -> None:
        if not self.is_picked():
            self.cpu_typed.emit(self.typed_cpu())


class PsuBox(QGroupBox):
    """How the PC is used, the power supply it has, and the electricity price.

    Signals:
        changed(): the use, PSU standard, 80 PLUS level or the PSU's watts changed.
        price_changed(float): the electricity price per kWh changed.
        currency_chosen(str): a currency code was picked.
    """

    changed = Signal()
    price_changed = Signal(float)
    currency_chosen = Signal(str)

    def __init__(self, currency_code: str, price_per_kwh: float, parent: QWidget | None = None) -> None:
        super().__init__(QCoreApplication.translate("PsuPage", "Use and power supply"), parent)
        form = QFormLayout(self)
        self.usage_combo = QComboBox(self)
        self.usage_combo.addItem(QCoreApplication.translate("PsuPage", "Gaming / occasional use"), Usage.GAMING.value)
        self.usage_combo.addItem(QCoreApplication.translate("PsuPage", "Training 24/7"), Usage.TRAINING_24X7.value)
        self.standard_combo = QComboBox(self)
        self.standard_combo.addItem(QCoreApplication.translate("PsuPage", "ATX 3.x with a 12V-2x6 lead"), PsuStandard.ATX3.value)
        self.standard_combo.addItem(QCoreApplication.translate("PsuPage", "ATX 2.x or no 12V-2x6 lead"), PsuStandard.ATX2.value)
        self.efficiency_combo = QComboBox(self)
        names = {"none": QCoreApplication.translate("PsuPage", "not certified"), "white": QCoreApplication.translate("PsuPage", "80 PLUS"), "bronze": QCoreApplication.translate("PsuPage", "Bronze"),
                 "silver": QCoreApplication.translate("PsuPage", "Silver"), "gold": QCoreApplication.translate("PsuPage", "Gold"), "platinum": QCoreApplication.translate("PsuPage", "Platinum"),
                 "titanium": QCoreApplication.translate("PsuPage", "Titanium")}
        for level in EFFICIENCY_LEVELS:
            self.efficiency_combo.addItem(names[level], level)
        self.efficiency_combo.setCurrentIndex(self.efficiency_combo.findData("gold"))
        self.psu_spin = QSpinBox(self)
        self.psu_spin.setRange(0, 3000)
        self.psu_spin.setSingleStep(50)
        self.psu_spin.setSpecialValueText(QCoreApplication.translate("PsuPage", "none: recommend one"))
        self.psu_spin.setSuffix(" W")
        self.currency_combo = QComboBox(self)
        for code in money.CURRENCIES:
            self.currency_combo.addItem(code, code)
        self.currency_combo.setCurrentIndex(self.currency_combo.findData(currency_code))
        self.price_spin = QDoubleSpinBox(self)
        self.price_spin.setRange(0.0, 100.0)
        self.price_spin.setDecimals(3)
        self.price_spin.setSingleStep(0.01)
        self.price_spin.setValue(price_per_kwh)
        self.price_spin.setSuffix(f" {currency_code}/kWh")
        self.money_note_label = QLabel("", self)
        self.money_note_label.setWordWrap(True)
        self.money_note_label.setProperty("role", "muted")
        form.addRow(QCoreApplication.translate("PsuPage", "Use"), self.usage_combo)
        form.addRow(QCoreApplication.translate("PsuPage", "PSU standard"), self.standard_combo)
        form.addRow(QCoreApplication.translate("PsuPage", "80 PLUS level"), self.efficiency_combo)
        form.addRow(QCoreApplication.translate("PsuPage", "Your PSU"), self.psu_spin)
        form.addRow(QCoreApplication.translate("PsuPage", "Currency"), self.currency_combo)
        form.addRow(QCoreApplication.translate("PsuPage", "Electricity"), self.price_spin)
        form.addRow(self.money_note_label)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        for combo in (self.usage_combo, self.standard_combo, self.efficiency_combo):
            combo.currentIndexChanged.connect(self.changed)
        self.psu_spin.valueChanged.connect(self.changed)
        self.price_spin.valueChanged.connect(self.price_changed)
        self.currency_combo.currentIndexChanged.connect(self._on_currency_index)

    # ---- Public API
    def usage(self) -> str:
        return self.usage_combo.currentData()

    def standard(self) -> str:
        return self.standard_combo.currentData()

    def efficiency(self) -> str:
        return self.efficiency_combo.currentData()

    def efficiency_name(self, level: str) -> str:
        """The 80 PLUS level as the list shows it."""
        return self.efficiency_combo.itemText(self.efficiency_combo.findData(level))

    def psu_w(self) -> int:
        """The PSU the person has, in W; 0: none, recommend one."""
        return self.psu_spin.value()

    def price(self) -> float:
        return self.price_spin.value()

    def choose(self, usage: str | None = None, standard: str | None = None, efficiency: str | None = None,
               psu_w: object = None) -> None:
        """Set what is given and known (a saved build); unknown values leave the control as it is."""
        for combo, value in ((self.usage_combo, usage), (self.standard_combo, standard),
                             (self.efficiency_combo, efficiency)):
            index = combo.findData(value) if value is not None else -1
            if index >= 0:
                combo.setCurrentIndex(index)
        if psu_w is not None:
            self.psu_spin.setValue(psu_w if isinstance(psu_w, int) and not isinstance(psu_w, bool) else 0)

    def show_price(self, amount: float, code: str) -> None:
        """The price in ``code`` per kWh, without ``price_changed``: a conversion, not an edit."""
        with QSignalBlocker(self.price_spin):
            self.price_spin.setValue(amount)
        self.price_spin.setSuffix(f" {code}/kWh")
        with QSignalBlocker(self.currency_combo):
            self.currency_combo.setCurrentIndex(self.currency_combo.findData(code))

    def show_money_note(self, text: str, tip: str) -> None:
        self.money_note_label.setToolTip(tip)
        self.money_note_label.setText(text)
        self.money_note_label.setVisible(bool(text))

    # ---- Slots
    def _on_currency_index(self, _index: int) -> None:
        code = self.currency_combo.currentData()
        if code:
            self.currency_chosen.emit(code)
