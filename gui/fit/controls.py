"""Small builders for the fit page's controls: every one reports a change through ``on_change``."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QSpinBox

# The app theme pads spin boxes; give the arrow buttons their own room.
SPIN_STYLE = "QSpinBox { padding-right: 18px; } QSpinBox::up-button, QSpinBox::down-button { width: 16px; }"
DOUBLE_SPIN_STYLE = SPIN_STYLE.replace("QSpinBox", "QDoubleSpinBox")


def compact(combo: QComboBox) -> None:
    # Long entries must not widen the control column past the window.
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(12)
    combo.currentTextChanged.connect(combo.setToolTip)  # the whole entry when the box cuts it


def combo(items: list[tuple[str, object]], on_change: Callable[..., None]) -> QComboBox:
    box = QComboBox()
    compact(box)
    for text, data in items:
        box.addItem(text, data)
    box.currentIndexChanged.connect(on_change)
    return box


def check(text: str, tip: str, on_change: Callable[..., None]) -> QCheckBox:
    box = QCheckBox(text)
    box.setToolTip(tip)
    box.toggled.connect(on_change)
    return box


def spin(low: int, high: int, value: int, step: int, on_change: Callable[..., None], suffix: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setValue(value)
    box.setSingleStep(step)
    box.setSuffix(suffix)
    box.setGroupSeparatorShown(True)
    box.setStyleSheet(SPIN_STYLE)
    box.valueChanged.connect(on_change)
    return box


def double_spin(low: float, high: float, step: float, value: float, on_change: Callable[..., None]) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setSingleStep(step)
    box.setDecimals(2)
    box.setValue(value)
    box.setStyleSheet(DOUBLE_SPIN_STYLE)
    box.valueChanged.connect(on_change)
    return box


def set_data(box: QComboBox, data) -> None:
    """Select the entry carrying ``data``; an unknown value leaves the box as it is."""
    index = box.findData(data)
    if index >= 0:
        box.setCurrentIndex(index)
