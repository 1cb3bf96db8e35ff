"""The app icon and the sidebar's line icons.

Sidebar icons are monochrome SVGs drawn with ``currentColor``; they are tinted
here with the colour of the text beside them, so they read on the dark sidebar
and on a light theme alike.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer

from services.paths import resource_path

APP_ICON = "gpu-assistant"
# Device-independent sizes the sidebar and menus ask for; each is also drawn at 2x for HiDPI screens.
LINE_ICON_SIZES = (16, 20, 24, 32)


def app_icon() -> QIcon:
    """The app icon with its hand-checked PNG sizes, falling back to the SVG."""
    icon = QIcon()
    hicolor = resource_path("icons", "hicolor")
    if hicolor.is_dir():
        for png in sorted(hicolor.glob(f"*/apps/{APP_ICON}.png")):
            size = int(png.parent.parent.name.split("x")[0])
            icon.addFile(str(png), QSize(size, size))
    svg = resource_path("icons", f"{APP_ICON}.svg")
    if icon.isNull() and svg.exists():
        icon.addFile(str(svg))
    return icon


def _tinted_pixmap(svg_text: str, color: QColor, size: int, ratio: float) -> QPixmap:
    tinted = svg_text.replace("currentColor", color.name(QColor.NameFormat.HexRgb))
    renderer = QSvgRenderer(QByteArray(tinted.encode("utf-8")))
    pixmap = QPixmap(round(size * ratio), round(size * ratio))
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setOpacity(color.alphaF())  # the SVG colour name carries no alpha
    renderer.render(painter, QRectF(0, 0, pixmap.width(), pixmap.height()))
    painter.end()
    pixmap.setDevicePixelRatio(ratio)
    return pixmap


def sidebar_colours(widget) -> tuple[QColor, QColor]:
    """(normal, selected) icon colours matching ``widget``'s item text, after its style sheet applied.

    A style sheet's ``color`` reaches the palette only once the widget is polished. The selected
    text colour of a style sheet (``::item:selected``) never does: on a dark list the selected
    text is white, on a light one it is the palette's highlighted text.
    """
    widget.ensurePolished()
    palette = widget.palette()
    normal = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.Text)
    if normal.lightness() > 128:
        return normal, QColor("#ffffff")
    return normal, palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.HighlightedText)


def line_icon(name: str, normal: QColor, selected: QColor | None = None) -> QIcon:
    """``resources/icons/<name>.svg`` drawn in ``normal`` (and ``selected`` for the selected row).

    A null icon if the file is missing.
    """
    path: Path = resource_path("icons", f"{name}.svg")
    try:
        svg_text = path.read_text(encoding="utf-8")
    except OSError:
        return QIcon()
    selected = selected or normal
    disabled = QColor(normal)
    disabled.setAlphaF(0.4)
    icon = QIcon()
    for size in LINE_ICON_SIZES:
        for ratio in (1.0, 2.0):
            icon.addPixmap(_tinted_pixmap(svg_text, normal, size, ratio), QIcon.Mode.Normal)
            icon.addPixmap(_tinted_pixmap(svg_text, selected, size, ratio), QIcon.Mode.Selected)
            icon.addPixmap(_tinted_pixmap(svg_text, disabled, size, ratio), QIcon.Mode.Disabled)
    return icon
