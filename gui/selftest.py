"""``--self-test``: prove that this build (checkout or bundle) works, offscreen.

It opens every page that is part of the build (in English, then in Chinese),
calls a page's own ``self_test() -> str | None`` when it has one (None: fine;
text: the problem), renders the dashboard on the simulated source, runs one
estimate of each calculator through its headless command, and checks that the
resources, translations and Qt plugins a bundle needs are really there. One
line per check; exit 0 when all passed, 1 with the failed checks named.

It runs against a throw-away settings/data folder, so it never writes into the
user's settings, window state or session history.
"""
from __future__ import annotations

import argparse
import contextlib
import faulthandler
import json
import math
import os
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator, Sequence

from PySide6.QtCore import QCoreApplication, QEventLoop, QSettings, QTimer, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QIcon, QImage, QImageReader
from PySide6.QtWidgets import QApplication

from gui.context import AppContext
from gui.i18n import TranslatorSet
from gui.monitor.controller import TelemetryController
from gui.pages import PAGES, PageSpec
from services.paths import AppPaths, resource_path
from services.settings import SettingsStore

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"
# The whole run is killed (with a traceback of where it hung) after this long.
WATCHDOG_S = 180
# How long the dashboard gets to receive and draw simulated samples.
DASHBOARD_SETTLE_MS = 2500
# The demo fills hours of history before its first live reading.
TELEMETRY_TIMEOUT_S = 30.0

# One estimate per calculator, through the same headless command a user runs.
# name -> (arguments, JSON fields that must hold positive numbers)
CALCULATOR_RUNS: dict[str, tuple[list[str], list[str]]] = {
    "fit": (["--params-b", "7", "--json"], ["total_gib"]),
    "psu": (["--gpu", "RTX 4090", "--json"], ["sustained_w", "recommended_psu_w"]),
}
# Offscreen-only noise that says nothing about the build.
BENIGN_QT_MESSAGES = ("propagateSizeHints", "QFont::setPointSizeF")


@dataclass(frozen=True, slots=True)
class CheckResult:
    name: str
    status: str  # PASS | FAIL | SKIP
    detail: str = ""

    def line(self) -> str:
        return f"{self.status}  {self.name:<22} {self.detail}".rstrip()


class QtMessageLog:
    """Collects Qt's warnings, and Python exceptions raised in slots, timers and paint events
    (PySide6 hands those to ``sys.excepthook`` and carries on), while the checks run."""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.errors: list[str] = []
        self.exceptions: list[str] = []
        self._previous = None
        self._previous_hook = None

    def __enter__(self) -> "QtMessageLog":
        self._previous = qInstallMessageHandler(self._handle)
        self._previous_hook = sys.excepthook
        sys.excepthook = self._on_exception
        return self

    def __exit__(self, *exc: object) -> None:
        qInstallMessageHandler(self._previous)
        sys.excepthook = self._previous_hook

    def _on_exception(self, kind, value, tb) -> None:
        self.exceptions.append(f"{kind.__name__}: {value}")
        traceback.print_exception(kind, value, tb, file=sys.stderr)

    def _handle(self, kind: QtMsgType, _context: object, message: str) -> None:
        if any(b in message for b in BENIGN_QT_MESSAGES):
            return
        if kind in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
            self.errors.append(message)
        elif kind == QtMsgType.QtWarningMsg:
            self.warnings.append(message)


def process_events_for(ms: int) -> None:
    """Run the event loop for ``ms`` milliseconds (timers, paints, queued signals)."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def distinct_colours(image: QImage, step: int = 3) -> int:
    """How many different colours a sample grid of ``image`` holds: a blank page has a handful."""
    seen: set[int] = set()
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            seen.add(image.pixel(x, y))
    return len(seen)


# ---- the checks
def seconds_since_process_start() -> float | None:
    """Seconds since this process was started, to about 10 ms; None where that cannot be read.

    On Linux both numbers come from /proc relative to boot (psutil's create_time adds the
    boot time, which /proc gives in whole seconds, so it can be up to 1 s off).
    """
    try:
        if sys.platform.startswith("linux"):
            fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
            started_ticks = int(fields[19])  # field 22 of stat(5): starttime, in clock ticks since boot
            uptime_s = float(Path("/proc/uptime").read_text().split()[0])
            return max(0.0, uptime_s - started_ticks / os.sysconf("SC_CLK_TCK"))
        import psutil

        return max(0.0, time.time() - psutil.Process().create_time())
    except Exception:  # a missing or refused process table only loses the figure
        return None


def check_start_up() -> CheckResult:
    """How long after the process started the main window was first painted (tests/bench reads it)."""
    elapsed = seconds_since_process_start()
    if elapsed is None:
        return CheckResult("start-up", SKIP, "process start time not readable here")
    return CheckResult("start-up", PASS, f"first window painted {elapsed * 1000:.0f} ms after the process started")


def check_resources() -> CheckResult:
    needed = [resource_path("icons", "gpu-assistant.svg"), resource_path("icons", "hicolor", "32x32", "apps", "gpu-assistant.png")]
    needed += [resource_path("icons", f"{spec.icon}.svg") for spec in PAGES]
    missing = [p.name for p in needed if not p.is_file()]
    ts_files = sorted(resource_path("translations").glob("*.ts"))
    qm_missing = [ts.name for ts in ts_files if not ts.with_suffix(".qm").is_file()]
    if missing or qm_missing or not ts_files:
        problems = missing + [f"{name} has no .qm" for name in qm_missing] + ([] if ts_files else ["no translations"])
        return CheckResult("resources", FAIL, "missing: " + ", ".join(problems))
    return CheckResult("resources", PASS, f"{len(needed)} icons, {len(ts_files)} translation files in {resource_path()}")


def check_qt_plugins(app: QApplication) -> CheckResult:
    formats = {bytes(f).decode() for f in QImageReader.supportedImageFormats()}
    problems = [f"image format {f}" for f in ("png", "svg", "ico") if f not in formats]
    if QIcon(str(resource_path("icons", "settings.svg"))).pixmap(24, 24).isNull():
        problems.append("SVG icon engine")
    platform = app.platformName()
    if problems:
        return CheckResult("qt plugins", FAIL, "missing: " + ", ".join(problems))
    return CheckResult("qt plugins", PASS, f"platform {platform}; png, svg, ico, SVG icons")


def bool_references_lost(emissions: int = 16) -> int:
    """How many references to True a Signal(bool) emission loses (0 on a sound binding).

    PySide6 6.12.0 loses one per emission; on Python 3.11 the process then aborts
    (bool_dealloc) once True's count reaches zero. On Python 3.12+ bools are immortal
    and their count never moves, so this reads 0 there whatever the binding does.
    """
    from PySide6.QtCore import QObject, Signal

    class _Emitter(QObject):
        flag = Signal(bool)

    emitter = _Emitter()
    received: list[bool] = []
    emitter.flag.connect(received.append)
    before = sys.getrefcount(True)
    for _ in range(emissions):
        emitter.flag.emit(True)
    received.clear()
    after = sys.getrefcount(True)
    emitter.deleteLater()
    return max(0, before - after)


def check_qt_binding() -> CheckResult:
    import PySide6
    from PySide6.QtCore import qVersion

    # The least of three tries: another thread may touch True's count during one of them,
    # while a faulty binding loses a reference on every emission, every time.
    lost = min(bool_references_lost() for _ in range(3))
    label = f"PySide6 {PySide6.__version__}, Qt {qVersion()}"
    if lost and sys.version_info >= (3, 12):
        # PEP 683: True is immortal from 3.12 on. Its count starts at 2**32 - 1 and a binding's
        # raw decrement only lowers it (seen in the Windows bundle); it is never freed, so no abort.
        return CheckResult("qt binding", PASS, f"{label}; Signal(bool) drops {lost} references to True in 16 "
                           f"emissions, harmless on Python {sys.version_info[0]}.{sys.version_info[1]} (immortal bools)")
    if lost:
        return CheckResult("qt binding", FAIL, f"{label} loses a reference to True on each Signal(bool) "
                           f"({lost} in 16): the app would abort; use another PySide6 version")
    return CheckResult("qt binding", PASS, f"{label}; Signal(bool) keeps its references")


def check_translations(app: QApplication) -> CheckResult:
    translators = TranslatorSet()
    try:
        translators.install(app, "zh_CN")
        ours = QCoreApplication.translate("Pages", "Settings")
        # Qt's own string from qtbase_zh_CN.qm (variables, so lupdate does not copy it into ours).
        qt_context, qt_text = "QPlatformTheme", "Cancel"
        qts = QCoreApplication.translate(qt_context, qt_text)
    finally:
        translators.install(app, "en")
    if ours != "设置":
        return CheckResult("translations", FAIL, f"zh_CN did not load ('Settings' -> {ours!r})")
    if qts != "取消":
        return CheckResult("translations", FAIL, f"Qt's own zh_CN strings did not load ('Cancel' -> {qts!r})")
    return CheckResult("translations", PASS, "zh_CN loads, the app's and Qt's own ('Settings' -> '设置', 'Cancel' -> '取消')")


def check_telemetry(context: AppContext, timeout_s: float = TELEMETRY_TIMEOUT_S) -> CheckResult:
    """The hub runs on the simulated source and delivers a snapshot with every GPU in it."""
    hub = context.telemetry
    if hub is None:
        return CheckResult("telemetry", FAIL, "the telemetry hub did not start")
    deadline = time.monotonic() + timeout_s
    snapshot = hub.latest
    while (snapshot is None or not snapshot.samples) and time.monotonic() < deadline:
        process_events_for(50)
        snapshot = hub.latest
    source = hub.source.name
    if snapshot is None or not snapshot.samples:
        return CheckResult("telemetry", FAIL, f"no reading from the {source} source in {timeout_s:.0f} s")
    state = getattr(snapshot.status.state, "value", snapshot.status.state)
    if state != "ok":
        return CheckResult("telemetry", FAIL, f"{source} source reports {state}: {snapshot.status.message}")
    names = ", ".join(g.name for g in snapshot.gpus) or f"{len(snapshot.samples)} GPUs"
    return CheckResult("telemetry", PASS, f"{source} source: {len(snapshot.samples)} GPUs ({names})")


def check_pages(window, pages: Sequence[PageSpec] = PAGES) -> list[CheckResult]:
    results = []
    for spec in pages:
        name = f"page {spec.key}"
        started = time.perf_counter()
        try:
            widget = window.show_page(spec.key)
            process_events_for(50)
        except Exception as exc:  # any failure of a page is what we report
            results.append(CheckResult(name, FAIL, f"{type(exc).__name__}: {exc}"))
            traceback.print_exc(file=sys.stderr)
            continue
        if not widget.isVisible():
            results.append(CheckResult(name, FAIL, "page did not show"))
            continue
        ms = (time.perf_counter() - started) * 1000
        detail = f"{type(widget).__name__} opened in {ms:.0f} ms"
        # A page may offer its own check: self_test() -> None when fine, else the problem as text.
        own_check = getattr(widget, "self_test", None)
        if callable(own_check):
            try:
                problem = own_check()
            except Exception as exc:
                traceback.print_exc(file=sys.stderr)
                problem = f"{type(exc).__name__}: {exc}"
            if problem:
                results.append(CheckResult(name, FAIL, f"{type(widget).__name__}.self_test(): {problem}"))
                continue
            detail += ", its own self_test() passed"
        results.append(CheckResult(name, PASS, detail))
    return results


def check_dashboard(window, context: AppContext) -> CheckResult:
    if context.telemetry is None:
        return CheckResult("dashboard render", FAIL, "the dashboard is built but the telemetry hub did not start")
    try:
        page = window.show_page("dashboard")
        process_events_for(DASHBOARD_SETTLE_MS)
        deadline = time.monotonic() + TELEMETRY_TIMEOUT_S
        while not page.has_drawn_history() and time.monotonic() < deadline:
            process_events_for(50)
        image = page.grab().toImage()
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        return CheckResult("dashboard render", FAIL, f"{type(exc).__name__}: {exc}")
    colours = distinct_colours(image)
    if image.isNull() or colours < 12:
        return CheckResult("dashboard render", FAIL, f"the page looks blank ({colours} colours)")
    if not page.has_drawn_history():
        # Filled tiles over empty plots pass the colour count: check the curves themselves.
        return CheckResult("dashboard render", FAIL,
                           f"the graphs are empty (no curve with 2 points in {TELEMETRY_TIMEOUT_S:.0f} s)")
    return CheckResult("dashboard render", PASS, f"{image.width()}x{image.height()} px, {colours} colours, simulated source")


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def run_calculator(name: str, argv: list[str], fields: list[str], run_command) -> CheckResult:
    label = f"estimate {name}"
    if run_command is None:
        return CheckResult(label, FAIL, "no command runner was handed to the self-test")
    started = time.perf_counter()
    try:
        code, out, err = run_command(name, argv)
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        return CheckResult(label, FAIL, f"{type(exc).__name__}: {exc}")
    if code is None:
        return CheckResult(label, FAIL, f"this build has no {name!r} command")
    ms = (time.perf_counter() - started) * 1000
    if code != 0:
        return CheckResult(label, FAIL, f"{name} {' '.join(argv)}: exit code {code}: {_last_line(err)}")
    try:
        data = json.loads(out)
    except ValueError:
        return CheckResult(label, FAIL, "the output is not JSON")
    values = {f: data.get(f) if isinstance(data, dict) else None for f in fields}
    bad = [f for f, v in values.items() if not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0]
    if bad:
        return CheckResult(label, FAIL, "missing or not positive: " + ", ".join(bad))
    shown = ", ".join(f"{k}={v:g}" for k, v in values.items())
    return CheckResult(label, PASS, f"{name} {' '.join(argv)} -> {shown} ({ms:.0f} ms)")


# ---- running them
@contextlib.contextmanager
def throwaway_context(language: str) -> Iterator[AppContext]:
    """An AppContext on a temporary home, deleted afterwards."""
    with tempfile.TemporaryDirectory(prefix="gpu-assistant-selftest-") as tmp:
        root = Path(tmp)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(root / "qsettings"))
        paths = AppPaths(config_dir=root / "config", data_dir=root / "data")
        store = SettingsStore(paths.settings_file)
        store.load()
        context = AppContext(paths=paths, settings_store=store, language=language, demo=True)
        context.telemetry_control = TelemetryController(context)
        yield context


@dataclass(frozen=True)
class AppParts:
    """What the self-test starts the way the app does; handed in by the composition root
    (gui.app), so this module never imports it."""

    attach_telemetry: Callable[..., None]  # gui.app.attach_telemetry
    controller_type: Callable[..., Any]  # gui.app.AppController
    # main.run_captured: a headless command run in-process -> (exit code or None, stdout, stderr)
    run_command: Callable[[str, list[str]], tuple[int | None, str, str]] | None = None


def _open_window(app: QApplication, context: AppContext, language: str, parts: AppParts):
    controller = parts.controller_type(app, context, language_override=language)
    window = controller.build_window("settings")
    window.show()
    return window, controller


def _close_window(window, controller) -> None:
    window.shutdown()
    context = controller.context
    context.settings_store.unsubscribe(controller._on_settings_saved)
    window.quit()
    window.deleteLater()
    process_events_for(10)


def check_pages_in_language(window, language: str) -> CheckResult:
    """Open every built page in ``language``; one line for all of them."""
    name = f"pages in {language}"
    results = check_pages(window)
    failed = [r for r in results if r.status == FAIL]
    if failed:
        return CheckResult(name, FAIL, "; ".join(f"{r.name}: {r.detail}" for r in failed))
    title = window.sidebar.item(len(PAGES) - 1).text()
    return CheckResult(name, PASS, f"{len(results)} pages opened (sidebar: {title!r})")


def run_checks(app: QApplication, context: AppContext, args: argparse.Namespace, parts: AppParts,
               report: Callable[[CheckResult], None] = lambda r: None) -> list[CheckResult]:
    """Run every check in order, calling ``report`` as each one finishes."""
    results: list[CheckResult] = []

    def add(result: CheckResult) -> None:
        results.append(result)
        report(result)

    with QtMessageLog() as log:
        telemetry_problem = None
        # As the app does: the hub is built, the window painted, and only then sampling starts.
        try:
            parts.attach_telemetry(context, args, start=False)
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            telemetry_problem = f"the simulated source did not start: {type(exc).__name__}: {exc}"
        try:
            window, controller = _open_window(app, context, "en", parts)
            try:
                window.repaint()
                add(check_start_up())
                if context.telemetry is not None and not telemetry_problem:
                    context.telemetry.start()
                add(check_resources())
                add(check_qt_plugins(app))
                add(check_qt_binding())
                add(check_translations(app))
                if telemetry_problem:
                    add(CheckResult("telemetry", FAIL, telemetry_problem))
                else:
                    add(check_telemetry(context))
                for result in check_pages(window):
                    add(result)
                add(check_dashboard(window, context))
            finally:
                _close_window(window, controller)
            # Every page again in Chinese: a translation with a broken {placeholder} only fails there.
            window, controller = _open_window(app, context, "zh_CN", parts)
            try:
                add(check_pages_in_language(window, "zh_CN"))
            finally:
                _close_window(window, controller)
                controller.translators.install(app, "en")
        finally:
            if context.telemetry is not None:
                context.telemetry.stop()
        for name, (argv, fields) in CALCULATOR_RUNS.items():
            add(run_calculator(name, argv, fields, parts.run_command))
    if log.exceptions:
        add(CheckResult("python errors", FAIL, f"{len(log.exceptions)} in Qt callbacks: " + "; ".join(log.exceptions[:3])))
    else:
        add(CheckResult("python errors", PASS, "none raised in slots, timers or paint events"))
    if log.errors:
        add(CheckResult("qt messages", FAIL, "; ".join(log.errors[:3])))
    else:
        add(CheckResult("qt messages", PASS, f"no errors, {len(log.warnings)} warnings"
                        + (": " + "; ".join(log.warnings[:3]) if log.warnings else "")))
    return results


def summary(results: list[CheckResult]) -> tuple[int, str]:
    """Exit code and the closing line."""
    failed = [r.name for r in results if r.status == FAIL]
    passed = sum(r.status == PASS for r in results)
    skipped = sum(r.status == SKIP for r in results)
    if failed:
        return 1, f"self-test FAILED: {', '.join(failed)} ({len(failed)} of {len(results)} checks)"
    return 0, f"self-test OK: {passed} checks passed, {skipped} skipped"


def run_self_test(app: QApplication, context: AppContext, args: argparse.Namespace, parts: AppParts) -> int:
    """Entry point for ``main.py --self-test``; ``context`` is replaced by a throw-away one."""
    faulthandler.dump_traceback_later(WATCHDOG_S, exit=True)
    started = time.perf_counter()
    try:
        print(f"GPU Assistant self-test ({'bundle' if getattr(sys, 'frozen', False) else 'checkout'}, "
              f"Qt platform {app.platformName()}, QT_QPA_PLATFORM={os.environ.get('QT_QPA_PLATFORM', '')})", flush=True)
        with throwaway_context(context.language) as own_context:
            results = run_checks(app, own_context, args, parts, report=lambda r: print(r.line(), flush=True))
    finally:
        faulthandler.cancel_dump_traceback_later()
    code, line = summary(results)
    print(f"{line} in {time.perf_counter() - started:.1f} s", flush=True)
    return code
