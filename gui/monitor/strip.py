"""A compact line per GPU above the cards: utilisation, memory, temperature, power, a throttle dot.

With two to four GPUs the cards no longer fit on a laptop screen (1024x640); the strip
keeps every GPU's state in view while the cards scroll. Clicking a line shows its card.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QProgressBar, QWidget

from gui.i18n import render
from services.telemetry import throttle
from services.telemetry.model import DeviceState, GpuInfo, GpuSample

_HOT = {"sw_thermal", "hw_thermal", "hw_slowdown", "hw_power_brake"}
STRIP_STYLE = """
#GpuStrip { background: #ffffff; border: 1px solid #d9e2ec; border-radius: 8px; }
#StripName { color: #1f2933; font-weight: 600; }
#StripValue { color: #323f4b; }
#StripBar { border: 1px solid #d9e2ec; border-radius: 3px; background: #f0f4f8; max-height: 8px; }
#StripBar::chunk { background: #3e7bfa; border-radius: 2px; }
"""


class _Line:
    def __init__(self, strip: GpuStrip, info: GpuInfo, row: int, grid: QGridLayout) -> None:
        self.index = info.index
        short = info.name.replace("NVIDIA ", "").replace("GeForce ", "")
        self.name = QLabel(f"GPU {info.index} · {short}", strip)
        self.name.setObjectName("StripName")
        self.name.setToolTip(info.name)
        self.util_bar = QProgressBar(strip)
        self.util_bar.setObjectName("StripBar")
        self.util_bar.setRange(0, 100)
        self.util_bar.setTextVisible(False)
        self.util_bar.setFixedWidth(70)
        self.util = QLabel(strip)
        self.memory = QLabel(strip)
        self.temperature = QLabel(strip)
        self.power = QLabel(strip)
        self.dot = QLabel("●", strip)
        for column, widget in enumerate((self.name, self.util_bar, self.util, self.memory, self.temperature,
                                         self.power, self.dot)):
            if isinstance(widget, QLabel) and widget is not self.name:
                widget.setObjectName("StripValue")
            grid.addWidget(widget, row, column)
        self.widgets = (self.name, self.util_bar, self.util, self.memory, self.temperature, self.power, self.dot)


class GpuStrip(QFrame):
    """Signals:
        gpu_clicked(int): a GPU's line was clicked (the page scrolls to its card).
    """

    gpu_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("GpuStrip")
        self.setStyleSheet(STRIP_STYLE)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(10, 4, 10, 4)
        self._grid.setHorizontalSpacing(14)
        self._grid.setVerticalSpacing(1)
        self._lines: dict[int, _Line] = {}
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    # ---- Public API
    def set_gpus(self, gpus: tuple[GpuInfo, ...]) -> None:
        for line in self._lines.values():
            for widget in line.widgets:
                self._grid.removeWidget(widget)
                widget.deleteLater()
        self._lines.clear()
        for row, info in enumerate(gpus):
            self._lines[info.index] = _Line(self, info, row, self._grid)
        self._grid.setColumnStretch(0, 1)
        # One GPU has its card in full view: the strip is for machines with several.
        self.setVisible(len(gpus) > 1)

    def line_texts(self, index: int) -> list[str]:
        line = self._lines[index]
        return [line.util.text(), line.memory.text(), line.temperature.text(), line.power.text()]

    def dot_level(self, index: int) -> str:
        return self._lines[index].dot.property("level") or ""

    def show_samples(self, samples: dict[int, GpuSample]) -> None:
        for index, line in self._lines.items():
            s = samples.get(index)
            ok = s is not None and s.state is DeviceState.OK
            util = s.utilization_pct if ok else None
            line.util_bar.setValue(int(round(util)) if util is not None else 0)
            line.util.setText(f"{util:.0f} %" if util is not None else "—")
            if ok and s.memory_used_mib is not None and s.memory_total_mib:
                line.memory.setText(self.tr("{used} / {total} GiB").format(
                    used=f"{s.memory_used_mib / 1024:.1f}", total=f"{s.memory_total_mib / 1024:.0f}"))
            else:
                line.memory.setText("—")
            line.temperature.setText(f"{s.temperature_c:.0f} °C" if ok and s.temperature_c is not None else "—")
            if ok and s.power_w is not None:
                limit = f" / {s.power_limit_w:.0f}" if s.power_limit_w else ""
                line.power.setText(f"{s.power_w:.0f}{limit} W")
            else:
                line.power.setText("—")
            self._set_dot(line, s)

    # ---- internals
    def _set_dot(self, line: _Line, s: GpuSample | None) -> None:
        if s is None or s.state is not DeviceState.OK:
            level, colour = "lost", "#c62828"
            tip = render(s.describe_state()) if s is not None and s.describe_state() else self.tr("No reading")
        else:
            codes = throttle.warning_codes(s.throttle_reasons)
            if s.throttle_reasons is None:
                level, colour, tip = "unknown", "#9aa5b1", self.tr("The driver does not report throttling")
            elif not codes:
                level, colour, tip = "ok", "#2e7d32", self.tr("Not throttled")
            else:
                hot = any(c in _HOT for c in codes)
                level, colour = ("hot", "#c62828") if hot else ("limit", "#e08a00")
                tip = self.tr("Clocks held back by: {reasons}").format(
                    reasons=", ".join(render(throttle.BY_CODE[c].label) for c in codes))
        if line.dot.property("level") != level:
            line.dot.setProperty("level", level)
            line.dot.setStyleSheet(f"color: {colour};")
        line.dot.setToolTip(tip)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        y = event.position().y()
        for index, line in self._lines.items():
            geometry = line.name.geometry()
            if geometry.top() - 2 <= y <= geometry.bottom() + 2:
                self.gpu_clicked.emit(index)
                return
        super().mousePressEvent(event)
