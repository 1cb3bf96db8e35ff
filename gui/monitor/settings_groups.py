"""The Settings page's "Monitoring" and "Alerts" groups. Every change is saved at once."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from PySide6.QtWidgets import (
    QCheckBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QSpinBox, QWidget,
)

from services.settings import SettingsStore


def build_sections(settings_store: SettingsStore, parent: QWidget) -> list[QGroupBox]:
    return [MonitorSettingsGroup(settings_store, parent), AlertSettingsGroup(settings_store, parent)]


class _SavingGroup(QGroupBox):
    """A group whose editors write one settings section and save at once."""

    section_name = ""

    def __init__(self, title: str, settings_store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self._store = settings_store
        self.form = QFormLayout(self)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)

    def section(self) -> Any:
        return getattr(self._store.settings, self.section_name)

    def _setter(self, field: str, convert: Callable[[Any], Any] = lambda v: v) -> Callable[[Any], None]:
        def apply(value: Any) -> None:
            value = convert(value)
            if getattr(self.section(), field) != value:
                setattr(self.section(), field, value)
                self._store.save()
        return apply

    def _check(self, text: str, field: str) -> QCheckBox:
        box = QCheckBox(text, self)
        box.setChecked(bool(getattr(self.section(), field)))
        box.toggled.connect(self._setter(field, bool))
        return box

    def _spin(self, field: str, low: float, high: float, suffix: str, step: float = 1.0, decimals: int = 0):
        spin: QSpinBox | QDoubleSpinBox
        if decimals:
            spin = QDoubleSpinBox(self)
            spin.setDecimals(decimals)
            spin.setSingleStep(step)
            convert = float
        else:
            spin = QSpinBox(self)
            spin.setSingleStep(int(step))
            convert = float if isinstance(getattr(self.section(), field), float) else int
        spin.setMinimumWidth(96)
        spin.setRange(low, high)
        spin.setSuffix(suffix)
        spin.setValue(getattr(self.section(), field))
        spin.valueChanged.connect(self._setter(field, convert))
        return spin


class MonitorSettingsGroup(_SavingGroup):
    section_name = "monitor"

    def __init__(self, settings_store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Monitoring"), settings_store, parent)
        # 0.25-10 s: below 0.5 s polling itself starts to cost GPU and CPU time (nvtop #365).
        self.fast_spin = self._spin("fast_interval_s", 0.25, 10.0, " s", step=0.25, decimals=2)
        self.fast_spin.setToolTip(self.tr("Utilisation, memory, power, clocks, temperature and throttling. "
                                          "Below 0.5 s the polling itself starts to cost performance."))
        self.form.addRow(self.tr("Read the GPU every"), self.fast_spin)
        self.slow_spin = self._spin("slow_interval_s", 1.0, 60.0, " s", step=1.0, decimals=1)
        self.slow_spin.setToolTip(self.tr("Fan, PCIe link, processes and ECC change slowly and cost more to read."))
        self.form.addRow(self.tr("Read fan, PCIe and processes every"), self.slow_spin)
        self.record_check = self._check(self.tr("Record every session (open them later with Sessions…)"),
                                        "record_sessions")
        self.form.addRow(self.record_check)
        note = QLabel(self.tr("Interval and recording changes apply the next time monitoring starts."), self)
        note.setProperty("role", "muted")
        note.setWordWrap(True)
        self.form.addRow(note)


class AlertSettingsGroup(_SavingGroup):
    section_name = "alerts"

    def __init__(self, settings_store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Alerts"), settings_store, parent)
        self.enabled_check = self._check(self.tr("Watch the GPUs and alert me about problems"), "enabled")
        self.form.addRow(self.enabled_check)

        self.temp_spin = self._spin("temperature_c", 50, 105, " °C")
        self.temp_for_spin = self._spin("temperature_for_s", 0, 600, " s", step=5)
        row = QHBoxLayout()
        row.addWidget(self.temp_spin)
        row.addWidget(QLabel(self.tr("for at least"), self))
        row.addWidget(self.temp_for_spin)
        row.addStretch(1)
        self.form.addRow(self.tr("Temperature above"), row)
        self.memory_spin = self._spin("memory_pct", 50, 100, " %")
        self.form.addRow(self.tr("GPU memory above"), self.memory_spin)
        self.fan_spin = self._spin("fan_zero_hot_c", 40, 100, " °C")
        self.fan_spin.setToolTip(self.tr("A fan standing still on a hot card usually means a failed fan or a fan curve problem."))
        self.form.addRow(self.tr("Fan at 0% while hotter than"), self.fan_spin)
        self.thermal_check = self._check(self.tr("Clocks lowered because the card is too warm"), "throttle_thermal")
        self.power_check = self._check(self.tr("Clocks lowered by the power limit (common under full load)"),
                                       "throttle_power")
        self.hw_check = self._check(self.tr("Hardware slowdown (overheating or a power supply problem)"),
                                    "throttle_hw_slowdown")
        self.lost_check = self._check(self.tr("A GPU stops answering"), "gpu_lost")
        self.notify_check = self._check(self.tr("Show alerts as desktop notifications"), "notify_desktop")
        for box in (self.thermal_check, self.power_check, self.hw_check, self.lost_check):
            self.form.addRow(box)
        # Process rules: a program spilling into system memory, heavy work on the integrated GPU.
        self.spill_check = self._check(self.tr("A program's GPU memory spills into system memory"), "spill")
        self.spill_check.setToolTip(self.tr(
            "Windows: when a program's GPU memory is full and its shared memory keeps growing, the driver is "
            "moving its data to system memory (sysmem fallback), which runs many times slower."))
        self.spill_spin = self._spin("spill_min_mib", 16, 65536, " MiB", step=64)
        row = QHBoxLayout()
        row.addWidget(self.spill_check)
        row.addWidget(QLabel(self.tr("by more than"), self))
        row.addWidget(self.spill_spin)
        row.addStretch(1)
        self.form.addRow(row)
        self.wrong_gpu_check = self._check(self.tr("Heavy work on the integrated GPU of a hybrid computer"),
                                           "wrong_gpu")
        self.wrong_gpu_check.setToolTip(self.tr(
            "A program doing 3D or compute work on the integrated GPU while an NVIDIA GPU is there usually "
            "runs several times slower; the Hybrid page can move it."))
        self.wrong_busy_spin = self._spin("wrong_gpu_busy_pct", 10, 100, " %", step=5)
        self.wrong_for_spin = self._spin("wrong_gpu_for_s", 0, 600, " s", step=5)
        row = QHBoxLayout()
        row.addWidget(self.wrong_gpu_check)
        row.addWidget(QLabel(self.tr("above"), self))
        row.addWidget(self.wrong_busy_spin)
        row.addWidget(QLabel(self.tr("for"), self))
        row.addWidget(self.wrong_for_spin)
        row.addStretch(1)
        self.form.addRow(row)
        self.form.addRow(self.notify_check)
        self.enabled_check.toggled.connect(self._on_enabled_check_toggled)
        self._on_enabled_check_toggled(self.enabled_check.isChecked())

    def _on_enabled_check_toggled(self, enabled: bool) -> None:
        for widget in (self.temp_spin, self.temp_for_spin, self.memory_spin, self.fan_spin, self.thermal_check,
                       self.power_check, self.hw_check, self.lost_check, self.notify_check, self.spill_check,
                       self.spill_spin, self.wrong_gpu_check, self.wrong_busy_spin, self.wrong_for_spin):
            widget.setEnabled(enabled)
