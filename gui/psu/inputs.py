"""The build tab's input boxes: cards, other parts, use and power supply.

Each box only builds its controls; the page wires them to its calculation.
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
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
from services.hardware.psu import EFFICIENCY_LEVELS, PsuStandard, Usage


class GpuPickerBox(QGroupBox):
    """The cards in the build: a list, a catalogue search to add one, and "Use this PC"."""

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


class PartsBox(QGroupBox):
    """The CPU and the counts of the other parts that draw power."""

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


class PsuBox(QGroupBox):
    """How the PC is used, the power supply it has, and the electricity price."""

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
