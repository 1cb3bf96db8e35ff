"""A horizontal stacked bar of the memory breakdown against the GPU's memory line."""
from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

# One colour per component code (services.modelfit.request.COMPONENTS).
COLORS = {
    "weights": "#3b6fb6", "lora_adapters": "#8e6cc0", "gradients": "#d98c1f", "optimizer": "#c4572b",
    "kv_cache": "#2f9e8f", "activations": "#76b900", "logits": "#a3c95c", "engine_buffers": "#6b7c93",
    "cuda_graphs": "#9aa5b1", "allocator": "#bcccdc", "cuda_context": "#52606d",
}


class MemoryBar(QWidget):
    """Segments (label, GiB, colour) stacked left to right; a line marks the budget."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._segments: list[tuple[str, str, float]] = []  # (code, label, gib)
        self._budget: float | None = None
        self._budget_label = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(92)

    def sizeHint(self) -> QSize:
        return QSize(600, 92)

    def set_data(self, segments: list[tuple[str, str, float]], budget_gib: float | None, budget_label: str) -> None:
        self._segments = [s for s in segments if s[2] > 0]
        self._budget = budget_gib
        self._budget_label = budget_label
        self.setToolTip("\n".join(f"{label}: {gib:.2f} GiB" for _, label, gib in self._segments))
        self.update()

    def segments(self) -> list[tuple[str, str, float]]:
        return list(self._segments)

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        total = sum(g for _, _, g in self._segments)
        scale_max = max(total, self._budget or 0.0, 1e-9) * 1.08
        left, right = 8.0, self.width() - 8.0
        width = right - left
        bar_top, bar_h = 30.0, 34.0
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#e4e7eb"))
        painter.drawRoundedRect(QRectF(left, bar_top, width, bar_h), 4, 4)
        x = left
        small = QFont(self.font())
        small.setPointSizeF(max(7.0, self.font().pointSizeF() * 0.85))
        painter.setFont(small)
        for code, label, gib in self._segments:
            w = width * gib / scale_max
            painter.setBrush(QColor(COLORS.get(code, "#9aa5b1")))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawRect(QRectF(x, bar_top, w, bar_h))
            text = f"{label} {gib:.1f}"
            if painter.fontMetrics().horizontalAdvance(text) + 8 < w:
                painter.setPen(QColor("#ffffff"))
                painter.drawText(QRectF(x, bar_top, w, bar_h), Qt.AlignmentFlag.AlignCenter, text)
            x += w
        # total above the bar end
        painter.setPen(QColor("#1f2933"))
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        total_text = f"{total:.1f} GiB"
        tx = min(max(left, x - painter.fontMetrics().horizontalAdvance(total_text)), right - painter.fontMetrics().horizontalAdvance(total_text))
        painter.drawText(QRectF(tx, 6, painter.fontMetrics().horizontalAdvance(total_text) + 4, 20),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, total_text)
        if self._budget:
            bx = left + width * self._budget / scale_max
            fits = total <= self._budget
            pen = QPen(QColor("#3f7d00" if fits else "#c62828"), 2, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.drawLine(int(bx), int(bar_top - 6), int(bx), int(bar_top + bar_h + 6))
            painter.setFont(small)
            label = self._budget_label
            lw = painter.fontMetrics().horizontalAdvance(label)
            lx = min(max(left, bx - lw / 2), right - lw)
            painter.drawText(QRectF(lx, bar_top + bar_h + 8, lw + 4, 18), Qt.AlignmentFlag.AlignLeft, label)
        painter.end()
