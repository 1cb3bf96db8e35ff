"""Render the app icon's PNG sizes and the Windows .ico from the SVGs.

    python installer/make_icons.py          # writes resources/icons/hicolor/*/apps/*.png and the .ico
    python installer/make_icons.py --check  # exit 1 if the committed files are not what the SVGs give

The PNGs are committed (the Linux install script and the .ico need them, and a
build machine should not need Qt's SVG renderer to package). Sizes up to 24 px
come from ``gpu-assistant-small.svg``, a pixel-aligned drawing without the chip
pins, which would only blur at that size.
"""
from __future__ import annotations

import argparse
import io
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "resources" / "icons"
APP = "gpu-assistant"
PNG_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
SMALL_MAX = 24
# Sizes Windows asks for (Explorer, task bar, Alt-Tab, the installer's pages).
ICO_SIZES = (16, 20, 24, 32, 40, 48, 64, 256)


def png_path(size: int) -> Path:
    return ICONS / "hicolor" / f"{size}x{size}" / "apps" / f"{APP}.png"


def source_svg(size: int) -> Path:
    return ICONS / (f"{APP}-small.svg" if size <= SMALL_MAX else f"{APP}.svg")


def render_png(svg: Path, size: int) -> bytes:
    """PNG bytes of ``svg`` drawn at ``size`` x ``size`` pixels, antialiased."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg.name} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def bgra_rows(size: int, png: bytes) -> bytes:
    """Bottom-up 32-bit BGRA pixel rows of a PNG, as a Windows DIB wants them."""
    from PySide6.QtGui import QImage

    image = QImage.fromData(png, "PNG").convertToFormat(QImage.Format.Format_ARGB32)
    # Format_ARGB32 is stored as 0xAARRGGBB per pixel, i.e. B, G, R, A bytes on little-endian machines.
    raw = bytes(image.constBits())[: image.sizeInBytes()]
    stride = image.bytesPerLine()
    rows = [raw[y * stride: y * stride + size * 4] for y in range(size)]
    if sys.byteorder != "little":
        rows = [b"".join(r[i:i + 4][::-1] for i in range(0, len(r), 4)) for r in rows]
    return b"".join(reversed(rows))


def dib_entry(size: int, png: bytes) -> bytes:
    """One ICO image as a 32-bit DIB: BITMAPINFOHEADER, XOR pixels, then the 1-bit AND mask."""
    header = struct.pack(
        "<IiiHHIIiiII",
        40,          # biSize
        size,        # biWidth
        size * 2,    # biHeight: XOR + AND mask, as ICO requires
        1,           # biPlanes
        32,          # biBitCount
        0,           # BI_RGB
        0, 0, 0, 0, 0,
    )
    mask_stride = ((size + 31) // 32) * 4  # rows padded to 32 bits; all zero: alpha decides
    return header + bgra_rows(size, png) + bytes(mask_stride * size)


def build_ico(images: dict[int, bytes]) -> bytes:
    """An ICO file: ICONDIR, one ICONDIRENTRY per size, then the images.

    256 px is stored as PNG (Vista and later read it; it keeps the file small),
    smaller sizes as DIBs, which every Windows shell and resource compiler reads.
    """
    sizes = sorted(images)
    blobs = [images[s] if s >= 256 else dib_entry(s, images[s]) for s in sizes]
    out = io.BytesIO()
    out.write(struct.pack("<HHH", 0, 1, len(sizes)))  # reserved, type 1 = icon, count
    offset = 6 + 16 * len(sizes)
    for size, blob in zip(sizes, blobs, strict=True):
        dim = 0 if size >= 256 else size  # 0 means 256 in the one-byte fields
        out.write(struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset))
        offset += len(blob)
    for blob in blobs:
        out.write(blob)
    return out.getvalue()


def expected_files() -> dict[Path, bytes]:
    files = {png_path(s): render_png(source_svg(s), s) for s in PNG_SIZES}
    ico_images = {s: render_png(source_svg(s), s) for s in ICO_SIZES}
    files[ICONS / f"{APP}.ico"] = build_ico(ico_images)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])  # noqa: F841 - QImage text needs it
    stale = []
    for path, data in expected_files().items():
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(path.relative_to(ROOT).as_posix())
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(path.relative_to(ROOT).as_posix())
    if stale:
        print("out of date (run python installer/make_icons.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
