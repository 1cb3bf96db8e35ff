"""Builds the QApplication and the main window from parsed command-line args."""
from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication

from gui.context import AppContext
from gui.i18n import TranslatorSet, app_display_name, render
from gui.icons import app_icon
from gui.main_window import MainWindow
from gui.monitor.controller import TelemetryController
from gui.pages import PAGES
from services.console import ERROR_LINE, WARNING_LINE  # the commands' lines: --screenshot reads alike
from services.i18n import Msg, resolve_language, translate
from services.paths import AppPaths, resource_path
from services.settings import SettingsStore
from services.version import APP_ID, APP_NAME, DESKTOP_ID, __version__


class AppController:
    """Owns the window, the translators and the shared services for one run."""

    def __init__(self, app: QApplication, context: AppContext, language_override: str | None = None) -> None:
        self.app = app
        self.context = context
        self.translators = TranslatorSet()
        self._language_override = language_override
        self.window: MainWindow | None = None
        self.tray = None  # gui.monitor.tray.TrayController when the app runs with a window
        self._language_setting = context.settings_store.settings.general.language
        context.settings_store.subscribe(self._on_settings_saved)

    def language(self) -> str:
        if self._language_override:
            return self._language_override
        return resolve_language(self.context.settings_store.settings.general.language)

    def build_window(self, page: str | None = None, restore: bool = True) -> MainWindow:
        self.context.language = self.language()
        self.translators.install(self.app, self.context.language)
        # Qt appends this name to window titles: in the window's language, like the title itself
        self.app.setApplicationDisplayName(app_display_name())
        self.window = MainWindow(self.context)
        if self.tray is not None:
            self.tray.attach_window(self.window)
        if restore:
            self.window.restore_state(self.qsettings())
        start = page or (self.qsettings().value("main_window/page", "dashboard", str) if restore else "dashboard")
        if start not in {p.key for p in PAGES}:
            start = "dashboard"
        self.window.show_page(start)
        return self.window

    def qsettings(self) -> QSettings:
        # Beside settings.json, so GPU_ASSISTANT_HOME (the tests) moves the window state too.
        return QSettings(str(self.context.paths.config_dir / "window.ini"), QSettings.Format.IniFormat)

    def rebuild_window(self) -> None:
        """Re-create the window so every text is in the new language."""
        old = self.window
        if old is None:
            return
        key = old.current_key()
        geometry = old.saveGeometry()
        old.quit()
        old.deleteLater()
        window = self.build_window(key)
        window.restoreGeometry(geometry)
        window.show()

    def shutdown(self, save_state: bool = True) -> None:
        if self.tray is not None:
            self.tray.shutdown()
            self.tray = None
        self.context.settings_store.unsubscribe(self._on_settings_saved)
        if self.window is not None:
            if save_state:
                self.window.save_state(self.qsettings())
            self.window.shutdown()
        if self.context.exporter is not None:
            self.context.exporter.stop()
        if self.context.telemetry_control is not None:
            self.context.telemetry_control.close()

    def _on_settings_saved(self, settings) -> None:
        if settings.general.language != self._language_setting:
            self._language_setting = settings.general.language
            if not self._language_override:
                # Let the settings page finish its slot before the window is replaced.
                QTimer.singleShot(0, self.rebuild_window)


def create_application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance() or QApplication(argv or [sys.argv[0]])
    QCoreApplication.setOrganizationName(APP_ID)
    QCoreApplication.setApplicationName(APP_ID)
    QCoreApplication.setApplicationVersion(__version__)
    app.setApplicationDisplayName(APP_NAME)
    # Wayland shells find the task bar icon through the installed .desktop file of this name.
    app.setDesktopFileName(DESKTOP_ID)
    _set_windows_app_id()
    icon = app_icon()
    if not icon.isNull():
        app.setWindowIcon(icon)
    style = resource_path("style", "app.qss")
    if style.exists():
        app.setStyle("Fusion")  # the same widgets on every platform under our style sheet
        app.setStyleSheet(style.read_text(encoding="utf-8"))
    return app


def _set_windows_app_id() -> None:
    """Give the process its own task bar identity on Windows.

    Without it, ``python main.py`` is grouped under python.exe and shows
    Python's icon in the task bar instead of ours.
    """
    if sys.platform != "win32":
        return
    import ctypes

    try:
        ctypes.windll.shell32.SetCurrentProcessExplicitAppUserModelID(DESKTOP_ID)
    except (AttributeError, OSError):
        pass


def should_start_hidden(args: argparse.Namespace, context: AppContext) -> bool:
    """``--minimized`` (the start-with-Windows entry) or the setting ask to start in the tray."""
    if args.screenshot or args.self_test:
        return False
    return bool(getattr(args, "minimized", False) or context.settings_store.settings.general.start_minimized)


def show_main_window(window: MainWindow, start_hidden: bool) -> str:
    """Show the window, or keep it in the tray; returns 'shown', 'tray' or 'minimized'.

    Hiding is only safe when a tray icon can bring the window back: the tray
    owner says so through ``window.close_to_tray``. Without one the window
    starts minimised to the task bar instead of vanishing.
    """
    if not start_hidden:
        window.show()
        return "shown"
    if window.close_to_tray is not None and window.close_to_tray():
        return "tray"
    window.showMinimized()
    return "minimized"


def build_context(args: argparse.Namespace, paths: AppPaths | None = None) -> AppContext:
    paths = paths or AppPaths.default()
    store = SettingsStore(paths.settings_file)
    store.load()
    context = AppContext(paths=paths, settings_store=store, demo=bool(getattr(args, "demo", False)))
    # A screenshot or self-test run is never recorded; the demo only with --record.
    if getattr(args, "screenshot", None) or getattr(args, "self_test", False):
        record: bool | None = False
    else:
        record = True if getattr(args, "record", False) else None
    context.telemetry_control = TelemetryController(context, record=record)
    return context


def attach_telemetry(context: AppContext, args: argparse.Namespace, start: bool = True,
                     replay_source: object | None = None) -> None:
    """Build (and start) the telemetry hub through the context's controller.

    ``replay_source``: the ``--replay`` file already opened by ``run_app`` (read once, not twice).
    """
    assert context.telemetry_control is not None  # build_context makes it
    context.telemetry_control.attach(replay=replay_source or getattr(args, "replay", None), start=start)


def wait_for_first_reading(context: AppContext, timeout_ms: int = 15000) -> None:
    """Screenshots: let the hub deliver its first snapshot (the demo first fills
    hours of history), so the picture shows readings rather than "Starting"."""
    hub = context.telemetry
    if hub is None:
        return
    loop = QEventLoop()
    poll = QTimer()
    poll.setInterval(50)
    def ready() -> bool:
        return hub.latest is not None and not hub.backfill_pending

    poll.timeout.connect(lambda: loop.quit() if ready() else None)
    QTimer.singleShot(timeout_ms, loop.quit)
    poll.start()
    loop.exec()
    poll.stop()


def wait_for_drawn_page(window: MainWindow, timeout_ms: int = 10000) -> bool:
    """Screenshots: wait until the shown page has drawn its graphs (or explains why it has none).

    Under CPU load the tiles can be filled long before the graphs are; a
    bounded wait on the page's own word avoids a picture with empty plots.
    Pages without graphs are ready at once. Returns whether the page was ready.
    """
    page = window.page(window.current_key())
    drawn = getattr(page, "has_drawn_history", None)
    if drawn is None:
        return True
    explains = getattr(page, "explains_instead_of_cards", lambda: False)

    def ready() -> bool:
        return drawn() or explains()

    if ready():
        return True
    loop = QEventLoop()
    poll = QTimer()
    poll.setInterval(50)
    poll.timeout.connect(lambda: loop.quit() if ready() else None)
    deadline = QTimer()
    deadline.setSingleShot(True)
    deadline.timeout.connect(loop.quit)
    poll.start()
    deadline.start(timeout_ms)
    loop.exec()
    poll.stop()
    deadline.stop()
    return ready()


def start_telemetry_soon(context: AppContext) -> None:
    """Start the hub once the event loop runs: the window paints first, and the
    sampler thread (the demo fills hours of history) does not compete with it."""
    hub = context.telemetry
    if hub is not None:
        QTimer.singleShot(0, hub.start)


def attach_exporter(context: AppContext) -> None:
    """Serve this machine's metrics in the background when Settings say so."""
    if context.telemetry is None:
        return
    from services.exporter.service import ExporterService, current_hub_collector

    # The model, not the first hub: each scrape reads the hub that is current then.
    hubs = context.hubs
    service = ExporterService(lambda: current_hub_collector(hubs))
    service.apply(context.settings_store.settings.exporter)
    context.settings_store.subscribe(lambda settings: service.apply(settings.exporter))
    context.exporter = service


def save_screenshot(window: MainWindow, path: str, settle_ms: int = 1500) -> bool:
    """Let the window lay out and paint for a moment, then save it as PNG."""
    loop = QEventLoop()
    QTimer.singleShot(settle_ms, loop.quit)
    loop.exec()
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    return window.grab().save(str(target), "PNG")




def say_on_stderr(line: Msg, message: Msg) -> None:
    """One line on stderr in the window's language (its translators are installed by now)."""
    print(render(line.format(message=message)), file=sys.stderr)


def take_screenshot(controller: AppController, window: MainWindow, path: str, size: tuple[int, int],
                    settle_ms: int = 1500) -> int:
    """``--screenshot``: the window at ``size`` saved as a PNG at ``path``, then closed. What went
    wrong is said on stderr in the window's language. Returns the exit code."""
    width, height = size
    window.resize(width, height)
    window.show()
    if (window.width(), window.height()) != (width, height):
        say_on_stderr(WARNING_LINE, translate("App", "the window cannot be {wanted}; the picture is {got}").format(
            wanted=f"{width}x{height}", got=f"{window.width()}x{window.height()}"))
    wait_for_first_reading(controller.context)
    if not wait_for_drawn_page(window):
        say_on_stderr(WARNING_LINE, translate(
            "App", "the graphs were not drawn in time; the picture may show empty plots"))
    ok = save_screenshot(window, path, settle_ms)
    controller.shutdown(save_state=False)
    window.quit()
    if not ok:
        say_on_stderr(ERROR_LINE, translate("App", "could not write {path}").format(path=path))
        return 1
    print(path)
    return 0


def run_app(args: argparse.Namespace,
            run_command: Callable[[str, list[str]], tuple[int | None, str, str]] | None = None,
            replay_source: object | None = None) -> int:
    """``run_command``: main.run_captured, for the self-test's calculator checks. ``replay_source``:
    the ``--replay`` file, already opened and checked by main.py before any window (bad input is one
    line in the run's language and exit 2, not a dashboard waiting forever)."""
    headless = bool(args.screenshot or args.self_test)
    if headless and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = create_application()
    context = build_context(args)
    if args.self_test:
        from gui.selftest import AppParts, run_self_test

        return run_self_test(app, context, args, AppParts(attach_telemetry, AppController, run_command))
    attach_telemetry(context, args, start=False, replay_source=replay_source)
    attach_exporter(context)
    controller = AppController(app, context, language_override=args.lang)
    window = controller.build_window(args.page, restore=not args.screenshot)
    start_telemetry_soon(context)
    if args.screenshot:
        # Screenshots are the same size whatever the last session left.
        return take_screenshot(controller, window, args.screenshot, getattr(args, "window_size", None) or (1280, 820))
    attach_tray(controller, app)
    if getattr(args, "window_size", None):
        window.resize(*args.window_size)
    show_main_window(window, should_start_hidden(args, context))
    from gui.power.recovery import restore_interrupted_sweeps_soon  # a killed sweep's lower limit goes back

    restore_interrupted_sweeps_soon(window)
    app.aboutToQuit.connect(controller.shutdown)
    quit_on_sigterm(app)
    return app.exec()


def quit_on_sigterm(app: QApplication) -> None:
    """``kill``, a logout or systemd stopping the app: quit as from the menu, so monitoring stops
    and the recording gets its end marker. Python runs a signal handler only when it gets
    control, so a light timer hands it control twice a second while Qt waits for events."""
    import signal

    if not hasattr(signal, "SIGTERM") or threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGTERM, lambda *_: app.quit())
    wake = QTimer(app)
    wake.setInterval(500)
    wake.timeout.connect(lambda: None)
    wake.start()
    app.aboutToQuit.connect(wake.stop)


def attach_tray(controller: AppController, app: QApplication) -> None:
    """The tray icon: alerts as notifications, and closing the window can keep monitoring."""
    from gui.monitor.tray import TrayController

    context = controller.context
    assert context.telemetry_control is not None, "gui.app.build_context makes the controller"
    controller.tray = TrayController(context.settings_store, context.telemetry_control, quit_app=app.quit)
    if controller.window is not None:
        controller.tray.attach_window(controller.window)
