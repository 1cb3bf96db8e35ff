"""Small building blocks of the dashboard: value tiles, badges, the process model."""
from __future__ import annotations


from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget


DASH = "\u2014"  # shown for a value the GPU does not report

# One palette for the whole dashboard: dark text on light surfaces.
STYLE = """
#DashboardPage { background: #f5f7fa; }
#GpuCard { background: #ffffff; border: 1px solid #d9e2ec; border-radius: 8px; }
#GpuTitle { font-size: 15px; font-weight: 600; color: #1f2933; }
#GpuSubtitle { color: #52606d; }
#MetricTile { background: #f6f8fa; border: 1px solid #e6e9ee; border-radius: 6px; }
#TileCaption { color: #52606d; font-size: 11px; }
#TileValue { color: #1f2933; font-size: 17px; font-weight: 600; }
#TileDetail { color: #52606d; font-size: 11px; }
#MetricTile[level="warm"] { background: #fff6e6; border-color: #f3d19c; }
#MetricTile[level="hot"] { background: #fdecea; border-color: #f1b0aa; }
#Badge { border-radius: 9px; padding: 1px 8px; font-size: 11px; }
#Badge[level="ok"] { background: #e5f4ea; color: #1b6b34; }
#Badge[level="info"] { background: #e8eef8; color: #2d4f86; }
#Badge[level="warn"] { background: #fff1d6; color: #7a4b00; }
#Badge[level="bad"] { background: #fdecea; color: #a1261d; }
#Badge[level="muted"] { background: #eceff3; color: #52606d; }
#BandLegend { color: #52606d; font-size: 11px; }
#StateNote { background: #fff6e6; border: 1px solid #f3d19c; border-radius: 6px; padding: 6px 10px; color: #5c3b00; }
#NoGpuPanel { background: #ffffff; border: 1px solid #d9e2ec; border-radius: 10px; }
#NoGpuTitle { font-size: 18px; font-weight: 600; color: #1f2933; }
#NoGpuDetail { color: #323f4b; font-size: 13px; }
#SourceLabel { color: #52606d; }
"""


def _set_level_property(widget: QWidget, old: str, level: str) -> str:
    """Set the ``level`` property the style sheet colours by; restyle only when it changed."""
    if level != old:
        widget.setProperty("level", level)
        _repolish(widget)
    return level


def _repolish(widget: QWidget) -> None:
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)


class Badge(QLabel):
    """A rounded chip: state, P-state, PCIe link, throttle reason."""

    def __init__(self, text: str = "", level: str = "muted", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setObjectName("Badge")
        self._level = ""
        self.set_level(level)

    def set_level(self, level: str) -> None:
        self._level = _set_level_property(self, self._level, level)

    def level(self) -> str:
        return self._level

    def set_color(self, background: str, foreground: str = "#ffffff") -> None:
        """A free colour (throttle reasons carry their own)."""
        self.setStyleSheet(f"background: {background}; color: {foreground};")


class ElidedLabel(QLabel):
    """A one-line label that ends in "…" when it does not fit; the whole text is its tooltip then."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setMinimumWidth(1)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        rect = self.contentsRect()
        text = self.text()
        shown = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
        tip = text if shown != text else ""
        if self.toolTip() != tip:
            self.setToolTip(tip)
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), shown)


class MetricTile(QFrame):
    """Caption, one big value, one line of detail."""

    def __init__(self, caption: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MetricTile")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 4, 10, 4)
        layout.setSpacing(0)
        self.caption = ElidedLabel(caption, self)
        self.caption.setObjectName("TileCaption")
        self.value = ElidedLabel(DASH, self)
        self.value.setObjectName("TileValue")
        self.detail = ElidedLabel(" ", self)
        self.detail.setObjectName("TileDetail")
        for label in (self.caption, self.value, self.detail):
            # Let a narrow window shrink the tile; the full text stays in the tooltip.
            label.setMinimumWidth(1)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            layout.addWidget(label)
        self._level = ""
        self.set_level("ok")

    def set_values(self, value: str, detail: str = "", level: str = "ok", tooltip: str = "") -> None:
        if self.value.text() != value:
            self.value.setText(value)
        detail = detail or " "
        if self.detail.text() != detail:
            self.detail.setText(detail)
        if self.toolTip() != tooltip:
            self.setToolTip(tooltip)
        self.set_level(level)

    def set_level(self, level: str) -> None:
        self._level = _set_level_property(self, self._level, level)


def format_mib(mib: float | None) -> str:
    if mib is None:
        return DASH
    if mib >= 1024:
        return f"{mib / 1024:.1f} GiB"
    return f"{mib:.0f} MiB"


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return QCoreApplication.translate("Duration", "{s} s").format(s=seconds)
    minutes, sec = divmod(seconds, 60)
    if minutes < 60:
        return QCoreApplication.translate("Duration", "{m} min {s:02d} s").format(m=minutes, s=sec)
    hours, minutes = divmod(minutes, 60)
    return QCoreApplication.translate("Duration", "{h} h {m:02d} min").format(h=hours, m=minutes)
