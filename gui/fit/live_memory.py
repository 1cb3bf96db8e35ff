"""The live view of the "Measure a run" tab: the estimate's parts, the measured memory and its peak,
and the measured curve over time."""
from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from gui.fit.bar import COLORS

MEASURED = "#1f2933"
PEAK = "#c62828"
CURVE_POINTS = 400


class LiveMemoryView(QWidget):
    """The estimate's parts as a stacked bar, the measured memory now and its peak below it on the
    same scale, and the measured curve over time with the estimate as a dashed line."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.parts: list[tuple[str, str, float]] = []
        self.estimate_gib = 0.0
        self.now_gib: float | None = None
        self.peak_gib: float | None = None
        self.curve: list[tuple[float, float]] = []
        self.labels = ("", "", "")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(130)

    def sizeHint(self) -> QSize:
        return QSize(560, 200)

    def set_estimate(self, parts: list[tuple[str, str, float]], estimate_gib: float) -> None:
        self.parts = [p for p in parts if p[2] > 0]
        self.estimate_gib = estimate_gib
        self.update()

    def set_measured(self, now: float | None, peak: float | None, curve: list[tuple[float, float]]) -> None:
        self.now_gib, self.peak_gib = now, peak
        self.curve = curve[-CURVE_POINTS:] if len(curve) > CURVE_POINTS else curve
        self.update()

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        top = max(self.estimate_gib, self.peak_gib or 0.0, max((g for _, g in self.curve), default=0.0), 1e-9) * 1.1
        left, right = 8.0, self.width() - 8.0
        width = right - left
        fm_h = p.fontMetrics().height()
        small = QFont(self.font())
        small.setPointSizeF(max(7.0, self.font().pointSizeF() * 0.85))
        est_label, now_label, curve_label = self.labels
        # the estimate, part by part
        y = 2.0
        p.setPen(QColor(MEASURED))
        p.drawText(QRectF(left, y, width, fm_h), Qt.AlignmentFlag.AlignLeft, est_label)
        y += fm_h + 2
        bar_h = 22.0
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#e4e7eb"))
        p.drawRect(QRectF(left, y, width, bar_h))
        x = left
        p.setFont(small)
        for code, label, gib in self.parts:
            w = width * gib / top
            p.setBrush(QColor(COLORS.get(code, "#9aa5b1")))
            p.setPen(Qt.PenStyle.NoPen)
            p.drawRect(QRectF(x, y, w, bar_h))
            if p.fontMetrics().horizontalAdvance(label) + 6 < w:
                p.setPen(QColor("#ffffff"))
                p.drawText(QRectF(x, y, w, bar_h), Qt.AlignmentFlag.AlignCenter, label)
            x += w
        p.setFont(self.font())
        y += bar_h + 4
        # measured: now (filled) and the peak (a red mark)
        p.setPen(QColor(MEASURED))
        p.drawText(QRectF(left, y, width, fm_h), Qt.AlignmentFlag.AlignLeft, now_label)
        y += fm_h + 2
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#e4e7eb"))
        p.drawRect(QRectF(left, y, width, bar_h))
        if self.now_gib is not None:
            p.setBrush(QColor("#52606d"))
            p.drawRect(QRectF(left, y, width * self.now_gib / top, bar_h))
        if self.peak_gib is not None:
            px = left + width * self.peak_gib / top
            p.setPen(QPen(QColor(PEAK), 3))
            p.drawLine(int(px), int(y - 3), int(px), int(y + bar_h + 3))
        ex = left + width * self.estimate_gib / top
        p.setPen(QPen(QColor("#3b6fb6"), 2, Qt.PenStyle.DashLine))
        p.drawLine(int(ex), int(y - 3), int(ex), int(y + bar_h + 3))
        y += bar_h + 6
        # the curve over time against the estimate
        chart = QRectF(left, y + fm_h, width, max(20.0, self.height() - y - fm_h - 4))
        p.setPen(QColor("#52606d"))
        p.drawText(QRectF(left, y, width, fm_h), Qt.AlignmentFlag.AlignLeft, curve_label)
        p.setPen(QPen(QColor("#d3d8de"), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(chart)
        ey = chart.bottom() - chart.height() * self.estimate_gib / top
        p.setPen(QPen(QColor("#3b6fb6"), 1.5, Qt.PenStyle.DashLine))
        p.drawLine(int(chart.left()), int(ey), int(chart.right()), int(ey))
        p.setFont(small)
        p.setPen(QColor("#52606d"))
        p.drawText(QRectF(chart.left() + 4, chart.top() + 2, chart.width() - 8, fm_h),
                   Qt.AlignmentFlag.AlignLeft, f"{top:.1f} GiB")
        if self.curve:
            p.drawText(QRectF(chart.left() + 4, chart.bottom() - fm_h - 2, chart.width() - 8, fm_h),
                       Qt.AlignmentFlag.AlignRight, f"{self.curve[-1][0]:.0f} s")
        p.setFont(self.font())
        if len(self.curve) >= 2:
            t0, t1 = self.curve[0][0], max(self.curve[-1][0], self.curve[0][0] + 1e-6)
            path = QPainterPath()
            for i, (t, g) in enumerate(self.curve):
                px = chart.left() + chart.width() * (t - t0) / (t1 - t0)
                py = chart.bottom() - chart.height() * g / top
                if i == 0:
                    path.moveTo(px, py)
                else:
                    path.lineTo(px, py)
            p.setPen(QPen(QColor(MEASURED), 2))
            p.drawPath(path)
        p.end()
