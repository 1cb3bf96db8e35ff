"""The app icon and the sidebar's line icons.

Sidebar icons are monochrome SVGs drawn with ``currentColor``; they are tinted
here with the palette's text colours, so they read on light and dark themes
and turn white on the selected row like the text beside them.
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
    renderer = QSvgRenderer(QByteArray(svg_text.replace("currentColor", color.name()).encode("utf-8")))
    pixmap = QPixmap(round(size * ratio), round(size * ratio))
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, pixmap.width(), pixmap.height()))
    painter.end()
    pixmap.setDevicePixelRatio(ratio)
    return pixmap


def line_icon(name: str, palette: QPalette) -> QIcon:
    """``resources/icons/<name>.svg`` tinted for ``palette``; a null icon if the file is missing."""
    path: Path = resource_path("icons", f"{name}.svg")
    try:
        svg_text = path.read_text(encoding="utf-8")
    except OSError:
        return QIcon()
    normal = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.WindowText)
    selected = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.HighlightedText)
    disabled = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText)
    icon = QIcon()
    for size in LINE_ICON_SIZES:
        for ratio in (1.0, 2.0):
            icon.addPixmap(_tinted_pixmap(svg_text, normal, size, ratio), QIcon.Mode.Normal)
            icon.addPixmap(_tinted_pixmap(svg_text, selected, size, ratio), QIcon.Mode.Selected)
            icon.addPixmap(_tinted_pixmap(svg_text, disabled, size, ratio), QIcon.Mode.Disabled)
    return icon
