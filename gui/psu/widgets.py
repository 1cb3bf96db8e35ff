"""Small widgets of the PSU page: the stacked watt bar and a figure card."""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QFrame,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from services.hardware.catalog import Gpu

# one colour per kind of consumer; readable on light and dark palettes
SEGMENT_COLOURS = {
    "cpu": "#4e79a7", "gpu": "#59a14f", "board": "#9c755f", "ram": "#edc948",
    "storage": "#b07aa1", "cooling": "#76b7b2", "usb": "#ff9da7",
}


@dataclass(frozen=True, slots=True)
class Segment:
    key: str
    label: str
    watts: float


class WattBar(QWidget):
    """A horizontal bar split by where the sustained watts go, on a scale that also holds the
    PSU's rating (a solid marker), the GPU spike level (a dashed red marker) and what the PSU standard
    lets the unit carry for 10 ms (a dotted green marker): a spike left of it is within spec, not an overload."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._segments: list[Segment] = []
        self._capacity_w = 0.0
        self._spike_w = 0.0
        self._allowance_w = 0.0
        self._scale_w = 1.0
        self.setMinimumHeight(44)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_segments(self, segments: list[Segment], capacity_w: float, spike_w: float = 0.0,
                     capacity_text: str = "", spike_text: str = "", allowance_w: float = 0.0,
                     allowance_text: str = "") -> None:
        self._segments = [s for s in segments if s.watts > 0]
        self._capacity_w = max(capacity_w, 0.0)
        self._spike_w = max(spike_w, 0.0)
        self._allowance_w = max(allowance_w, 0.0)
        # the scale holds the load, the PSU, the spikes and the allowance, with a little room at the end
        self._scale_w = max(self._capacity_w, self._spike_w, self._allowance_w,
                            sum(s.watts for s in self._segments), 1.0) * 1.04
        tip = [f"{s.label}: {s.watts:.0f} W" for s in self._segments]
        tip += [t for t in (capacity_text, spike_text, allowance_text) if t]
        self.setToolTip("\n".join(tip))
        self.update()

    def segments(self) -> list[Segment]:
        return list(self._segments)

    def marker_positions(self) -> tuple[float, float]:
        """(PSU, spike) marker positions as fractions of the bar's width."""
        return self._capacity_w / self._scale_w, self._spike_w / self._scale_w

    def allowance_position(self) -> float:
        """The 10 ms allowance marker's position as a fraction of the bar's width (0: none)."""
        return self._allowance_w / self._scale_w

    def sizeHint(self) -> QSize:
        return QSize(400, 44)

    def minimumSizeHint(self) -> QSize:
        return QSize(120, 44)

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        full = QRectF(self.rect()).adjusted(1, 1, -1, -1)
        rect = QRectF(full.left(), full.top() + 8, full.width(), full.height() - 8)  # room above for the markers
        outline = QPainterPath()
        outline.addRoundedRect(rect, 6, 6)
        painter.save()
        painter.setClipPath(outline)
        painter.fillRect(rect, self.palette().color(QPalette.ColorRole.AlternateBase))
        x = rect.left()
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() - 1))
        painter.setFont(font)
        for seg in self._segments:
            width = rect.width() * seg.watts / self._scale_w
            part = QRectF(x, rect.top(), width, rect.height())
            painter.fillRect(part, QColor(SEGMENT_COLOURS.get(seg.key, "#bab0ac")))
            text = f"{seg.watts:.0f} W"
            if painter.fontMetrics().horizontalAdvance(text) + 8 < width:
                painter.setPen(QColor("#ffffff"))
                painter.drawText(part, Qt.AlignmentFlag.AlignCenter, text)
            x += width
        painter.restore()
        painter.setPen(self.palette().color(QPalette.ColorRole.Mid))
        painter.drawPath(outline)
        text_colour = self.palette().color(QPalette.ColorRole.WindowText)
        markers = ((self._allowance_w, Qt.PenStyle.DotLine, QColor("#2f9e44")),
                   (self._capacity_w, Qt.PenStyle.SolidLine, text_colour),
                   (self._spike_w, Qt.PenStyle.DashLine, QColor("#c0392b")))
        for watts, style, colour in markers:
            if watts <= 0:
                continue
            mx = rect.left() + rect.width() * watts / self._scale_w
            pen = QPen(colour, 2.5, style)
            painter.setPen(pen)
            painter.drawLine(QPointF(mx, full.top()), QPointF(mx, rect.bottom()))
        painter.end()


class FigureCard(QFrame):
    """A titled big number, e.g. "Recommended PSU / 1200 W"."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("figureCard")
        self.setProperty("card", True)  # the app theme styles card frames
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(2)
        self.title = QLabel(title, self)
        self.title.setProperty("role", "muted")
        self.title.setWordWrap(True)
        self.value = QLabel("-", self)
        font = self.value.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.value.setFont(font)
        self.detail = QLabel("", self)
        self.detail.setWordWrap(True)
        self.detail.setProperty("role", "muted")
        layout.addWidget(self.title)
        layout.addWidget(self.value)
        layout.addWidget(self.detail)

    def set(self, value: str, detail: str = "", colour: str | None = None) -> None:
        self.value.setText(value)
        self.value.setStyleSheet(f"color: {colour};" if colour else "")
        self.detail.setText(detail)
        self.detail.setVisible(bool(detail))


def card_combo(gpus: tuple[Gpu, ...], parent: QWidget, with_none: str | None = None) -> QComboBox:
    """An editable combo over the catalogue; typing filters by any part of the name."""
    combo = QComboBox(parent)
    combo.setEditable(True)
    combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
    if with_none is not None:
        combo.addItem(with_none, None)
    for gpu in gpus:
        combo.addItem(gpu.name, gpu.key)
    completer = combo.completer()
    completer.setFilterMode(Qt.MatchFlag.MatchContains)
    completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(18)
    return combo
