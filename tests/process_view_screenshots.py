"""The Dashboard on the demo's two GPUs once its process view shows the spill alert, as a PNG (for reviews
of the process view, issue 26):

    python -m tests.process_view_screenshots --screenshot OUT.png [--size 1024x640] [--lang zh_CN]

The demo's inference server fills its card's memory, then spills into shared system memory a few
seconds in; ``main.py --demo --screenshot`` takes its picture before that, so this waits for the
alert's banner (at most 30 s) and then saves the window.
"""
from __future__ import annotations

import os
import sys
import time


def screenshot(path: str, size: tuple[int, int], language: str) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QTimer

    from cli.front import build_parser
    from gui.app import (
        AppController, attach_telemetry, build_context, create_application, save_screenshot,
        start_telemetry_soon, wait_for_first_reading,
    )
    from gui.monitor.processes import ProcessView

    args = build_parser().parse_args(["--demo", "--lang", language, "--screenshot", path])
    app = create_application()
    context = build_context(args)
    attach_telemetry(context, args, start=False)
    controller = AppController(app, context, language_override=language)
    window = controller.build_window("dashboard", restore=False)
    start_telemetry_soon(context)
    window.resize(*size)
    window.show()
    wait_for_first_reading(context)
    view = window.findChild(ProcessView)
    deadline = time.monotonic() + 30.0
    while view is not None and not view.banner.isVisible() and time.monotonic() < deadline:
        loop = QEventLoop()
        QTimer.singleShot(200, loop.quit)
        loop.exec()
    shown = view is not None and view.banner.isVisible()
    ok = save_screenshot(window, path, settle_ms=600)
    controller.shutdown(save_state=False)
    window.quit()
    if not shown:
        print("the spill alert did not show within 30 s", file=sys.stderr)
        return 1
    print(path)
    return 0 if ok else 1


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="the Dashboard's process view with the demo's spill alert, as a PNG")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--size", default="1280x820")
    parser.add_argument("--lang", default="en")
    a = parser.parse_args()
    w, h = (int(x) for x in a.size.split("x"))
    sys.exit(screenshot(a.screenshot, (w, h), a.lang))
