"""The icon set: SVGs render, the committed PNGs and .ico are what the SVGs give, icons are tinted."""
from __future__ import annotations

import struct
import sys
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QImage, QImageReader, QPalette
from PySide6.QtSvg import QSvgRenderer

from gui.icons import app_icon, line_icon, sidebar_colours
from gui.pages import PAGES
from services.paths import resource_path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "installer"))

import make_icons  # noqa: E402


def test_every_sidebar_page_has_a_valid_monochrome_icon():
    for spec in PAGES:
        path = resource_path("icons", f"{spec.icon}.svg")
        assert QSvgRenderer(str(path)).isValid(), path.name
        text = path.read_text()
        # Line icons take their colour from the palette: no colour of their own.
        assert "currentColor" in text and "#" not in text, path.name


def test_committed_pngs_and_ico_are_up_to_date(qapp):
    assert make_icons.main(["--check"]) == 0, "run python installer/make_icons.py and commit the result"


def test_ico_holds_every_size_and_matches_the_pngs(qapp):
    data = resource_path("icons", "gpu-assistant.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind, count) == (0, 1, len(make_icons.ICO_SIZES))
    sizes = []
    for i in range(count):
        width, height, _, _, planes, bits, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        assert planes == 1 and bits == 32
        assert offset + length <= len(data)
        sizes.append(width or 256)
    assert sorted(sizes) == sorted(make_icons.ICO_SIZES)
    reader = QImageReader(str(resource_path("icons", "gpu-assistant.ico")))
    assert reader.imageCount() == count
    for i in range(count):
        reader.jumpToImage(i)
        image = reader.read().convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
        size = image.width()
        expected = QImage.fromData(make_icons.render_png(make_icons.source_svg(size), size), "PNG")
        expected = expected.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
        # Same pixels and orientation (DIB rows are stored bottom-up; the drawing is not symmetric).
        # Compared premultiplied, as Qt's ICO reader holds them, with room for its rounding.
        got, want = bytes(image.constBits()), bytes(expected.constBits())
        assert len(got) == len(want)
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 2, size
        stride = expected.bytesPerLine()
        flipped = b"".join(want[y * stride:(y + 1) * stride] for y in reversed(range(size)))
        assert max(abs(a - b) for a, b in zip(got, flipped, strict=True)) > 50, "the .ico image is upside down"


def test_app_icon_has_hand_made_small_sizes(qapp):
    icon = app_icon()
    assert not icon.isNull()
    available = {s.width() for s in icon.availableSizes()}
    assert {16, 24, 32, 48, 256} <= available
    # 16 px comes from the small drawing, not a scaled-down 512 px one.
    small = icon.pixmap(QSize(16, 16)).toImage()
    assert small.width() == 16


def test_line_icon_is_tinted(qapp):
    icon = line_icon("settings", QColor("#ff0000"), QColor("#00ff00"))
    normal = icon.pixmap(QSize(24, 24)).toImage()
    opaque = [QColor(normal.pixel(x, y)) for x in range(normal.width()) for y in range(normal.height())
              if QColor.fromRgba(normal.pixel(x, y)).alpha() == 255]
    assert opaque and all(c.red() == 255 and c.green() == 0 for c in opaque)
    selected = icon.pixmap(QSize(24, 24), mode=icon.Mode.Selected).toImage()
    assert any(QColor.fromRgba(selected.pixel(x, y)).green() == 255
               for x in range(selected.width()) for y in range(selected.height()))
    assert line_icon("no-such-icon", QColor("red")).isNull()


def test_sidebar_icons_follow_the_style_sheet(qtbot):
    from PySide6.QtWidgets import QListWidget

    dark = QListWidget()
    qtbot.addWidget(dark)
    dark.setStyleSheet("QListWidget { color: #d9e2ec; background: #1f2933; }")
    normal, selected = sidebar_colours(dark)
    assert normal.name() == "#d9e2ec" and selected.name() == "#ffffff"
    light = QListWidget()
    qtbot.addWidget(light)
    light.setStyleSheet("QListWidget { color: #101010; }")
    normal, selected = sidebar_colours(light)
    assert normal.name() == "#101010"
    assert selected == light.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.HighlightedText)
