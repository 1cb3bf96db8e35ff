"""The power panel with a saved sweep, rendered to a PNG (for the README's pictures and reviews):

    python -m tests.power_screenshot --screenshot OUT.png --sweep FILE [--compare FILE] [--size 1024x640] [--lang zh_CN]
"""
from __future__ import annotations

from pathlib import Path

from gui.power.panel import SweepPanel


def screenshot(path: str, sweep_file: str, compare_file: str | None, size: tuple[int, int], language: str) -> int:
    """Render the panel with a saved sweep to a PNG (``python -m tests.power_screenshot``)."""
    from PySide6.QtCore import QEventLoop, QTimer

    from gui.app import create_application
    from gui.i18n import TranslatorSet

    app = create_application()
    translators = TranslatorSet()
    translators.install(app, language)
    panel = SweepPanel(0)
    if not panel.load(Path(sweep_file)):
        print(panel.status.text())
        return 2
    if compare_file:
        panel.compare_with(Path(compare_file))
    panel.resize(*size)
    panel.show()
    loop = QEventLoop()
    QTimer.singleShot(800, loop.quit)
    loop.exec()
    ok = panel.grab().save(path, "PNG")
    panel.shutdown()
    panel.close()
    return 0 if ok else 1


if __name__ == "__main__":
    import argparse
    import sys

    parser = argparse.ArgumentParser(description="render the power sweep panel with a saved sweep to a PNG")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--sweep", required=True)
    parser.add_argument("--compare")
    parser.add_argument("--size", default="1280x820")
    parser.add_argument("--lang", default="en")
    a = parser.parse_args()
    w, h = (int(x) for x in a.size.split("x"))
    sys.exit(screenshot(a.screenshot, a.sweep, a.compare, (w, h), a.lang))
