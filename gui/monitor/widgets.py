"""Small building blocks of the dashboard: value tiles, badges, the process model."""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
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

    def paintEvent(self, event: QPaintEvent) -> None:
        rect = self.contentsRect()
        text = self.text()
        shown = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
        tip = text if shown != text else ""
        if self.toolTip() != tip:
            self.setToolTip(tip)
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), shown)


class PartsLabel(ElidedLabel):
    """One line of facts joined by " · ": the facts that do not fit are left out whole (an ellipsis
    says so), never cut mid-word ("memory bus 30% · en…"); every fact is in the tooltip then."""

    SEPARATOR = " · "

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(" ", parent)
        self._parts: tuple[str, ...] = ()

    def set_parts(self, parts: Sequence[str]) -> None:
        parts = tuple(p for p in parts if p)
        if parts == self._parts:
            return
        self._parts = parts
        self.setText(self.SEPARATOR.join(parts) or " ")
        self._refresh_tip()

    def parts(self) -> tuple[str, ...]:
        return self._parts

    def shown_text(self, width: int) -> str:
        """What fits in ``width`` pixels: whole facts from the start, "…" for the rest."""
        metrics = self.fontMetrics()
        text = self.text()
        if metrics.horizontalAdvance(text) <= width or len(self._parts) < 2:
            return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
        for keep in range(len(self._parts) - 1, 0, -1):
            candidate = self.SEPARATOR.join(self._parts[:keep]) + self.SEPARATOR + "…"
            if metrics.horizontalAdvance(candidate) <= width:
                return candidate
        # Not even one whole fact and the separator: the first fact, cut, still ends in "…" (so that
        # it never looks like all there is when the others are left out).
        return metrics.elidedText(self._parts[0] + "…", Qt.TextElideMode.ElideRight, width)

    def _refresh_tip(self) -> None:
        """Every fact, one a line, while any is left out or cut; none when all are shown."""
        shown = self.shown_text(self.contentsRect().width())
        tip = "\n".join(self._parts) if shown != self.text() else ""
        if self.toolTip() != tip:
            self.setToolTip(tip)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._refresh_tip()

    def paintEvent(self, event: QPaintEvent) -> None:
        rect = self.contentsRect()
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), self.shown_text(rect.width()))


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
        self.detail = PartsLabel(self)
        self.detail.setObjectName("TileDetail")
        for label in (self.caption, self.value, self.detail):
            # Let a narrow window shrink the tile; the full text stays in the tooltip.
            label.setMinimumWidth(1)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            layout.addWidget(label)
        self._level = ""
        self.set_level("ok")

    def set_values(self, value: str, detail: str | Sequence[str] = "", level: str = "ok", tooltip: str = "") -> None:
        """``detail``: one fact or several (shown whole while they fit, all of them in the tooltip)."""
        if self.value.text() != value:
            self.value.setText(value)
        self.detail.set_parts((detail,) if isinstance(detail, str) else tuple(detail))
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
