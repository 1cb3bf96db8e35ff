"""Starting hidden in the tray (--minimized / start_minimized), the About box, the window icon."""
from __future__ import annotations

import argparse

import pytest

from gui.about import AboutDialog, version_report
from gui.app import build_context, should_start_hidden, show_main_window
from gui.main_window import MainWindow
from services.version import APP_NAME, __version__


@pytest.fixture
def context(app_paths):
    return build_context(argparse.Namespace(demo=False), app_paths)


def _args(**kw):
    base = dict(screenshot=None, self_test=False, minimized=False)
    base.update(kw)
    return argparse.Namespace(**base)


def test_start_hidden_from_flag_or_setting(context):
    assert not should_start_hidden(_args(), context)
    assert should_start_hidden(_args(minimized=True), context)
    context.settings_store.settings.general.start_minimized = True
    assert should_start_hidden(_args(), context)
    # A screenshot or a self-test always needs the window.
    assert not should_start_hidden(_args(minimized=True, screenshot="x.png"), context)
    assert not should_start_hidden(_args(minimized=True, self_test=True), context)


def test_hidden_start_uses_the_tray_only_when_there_is_one(qtbot, context):
    window = MainWindow(context)
    qtbot.addWidget(window)
    assert show_main_window(window, start_hidden=False) == "shown"
    assert window.isVisible()
    window.hide()

    window.close_to_tray = lambda: True  # what the tray owner installs when a tray icon is up
    assert show_main_window(window, start_hidden=True) == "tray"
    assert not window.isVisible()

    window.close_to_tray = None  # no tray: never vanish, start minimised to the task bar
    assert show_main_window(window, start_hidden=True) == "minimized"
    assert window.isVisible() and window.isMinimized()
    window.shutdown()


def test_minimized_flag_is_accepted():
    from main import build_parser

    assert build_parser().parse_args(["--minimized"]).minimized is True


def test_window_has_the_app_icon_and_an_about_button(qtbot, context, monkeypatch):
    window = MainWindow(context)
    qtbot.addWidget(window)
    assert not window.windowIcon().isNull()
    assert all(not window.sidebar.item(i).icon().isNull() for i in range(window.sidebar.count()))
    opened = []
    monkeypatch.setattr(AboutDialog, "exec", lambda self: opened.append(self) or 0)
    window.about_button.click()
    assert len(opened) == 1
    opened[0].deleteLater()
    window.shutdown()


def test_about_box_shows_version_and_folders(qtbot, context):
    dialog = AboutDialog(context.paths)
    qtbot.addWidget(dialog)
    texts = " ".join(label.text() for label in dialog.findChildren(type(dialog.report_label)))
    assert __version__ in texts and APP_NAME in texts
    assert str(context.paths.config_dir) in texts and "LGPL" in texts
    assert version_report().startswith(f"{APP_NAME} {__version__}")
    dialog.copy_button.click()
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text() == version_report()


def test_settings_page_saves_start_minimized(qtbot, context):
    from gui.settings_page import SettingsPage
    from services.settings import SettingsStore

    page = SettingsPage(context.settings_store)
    qtbot.addWidget(page)
    assert not page.start_minimized_check.isChecked()
    page.start_minimized_check.setChecked(True)
    reloaded = SettingsStore(context.settings_store.path).load()
    assert reloaded.general.start_minimized is True


def test_windows_gets_its_own_task_bar_identity(monkeypatch):
    import ctypes
    import types

    from gui import app as gui_app
    from services.version import DESKTOP_ID

    calls = []
    shell32 = types.SimpleNamespace(SetCurrentProcessExplicitAppUserModelID=lambda app_id: calls.append(app_id))
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(shell32=shell32), raising=False)
    monkeypatch.setattr(gui_app.sys, "platform", "win32")
    gui_app._set_windows_app_id()
    assert calls == [DESKTOP_ID]
    monkeypatch.setattr(gui_app.sys, "platform", "linux")
    gui_app._set_windows_app_id()
    assert calls == [DESKTOP_ID]


def test_window_title_is_not_doubled_by_the_display_name(qtbot, context, qapp):
    window = MainWindow(context)
    qtbot.addWidget(window)
    # The app's display name is APP_NAME (gui.app.create_application); Qt adds " – <display name>"
    # to every title that does not already end with it (QPlatformWindow::formatWindowTitle).
    title = window.windowTitle()
    shown = title if title.endswith(APP_NAME) else f"{title} \u2013 {APP_NAME}"
    assert shown.count(APP_NAME) == 1, shown
    window.shutdown()


@pytest.mark.parametrize("content", [None, b"\x00\x01\x02 not a log", b"name,score\nada,10\n"])
def test_unreadable_replay_is_one_line_and_exit_2_before_any_window(tmp_path, capsys, monkeypatch, content):
    import main
    from gui import app as app_module

    target = tmp_path / "run.csv"
    if content is not None:
        target.write_bytes(content)
    built = []
    monkeypatch.setattr(app_module, "create_application", lambda *a: built.append(1))
    assert main.main(["--replay", str(target), "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "run.csv" in err and len(err.strip().splitlines()) == 1
    assert not built and not (tmp_path / "x.png").exists()
    # In Chinese, the whole line is Chinese (the file name aside), not an English message behind 错误.
    assert main.main(["--lang", "zh_CN", "--replay", str(target), "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("错误：") and "run.csv" in err and len(err.strip().splitlines()) == 1
    assert "not " not in err and "no such" not in err  # the English message is not behind the prefix


def test_an_unknown_page_is_one_line_in_the_runs_language(tmp_path, capsys):
    import main

    assert main.main(["--page", "nope", "--screenshot", str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err == (
        "error: unknown page 'nope'; pages: dashboard, setup, hybrid, psu, fit, hosts, settings\n")
    assert main.main(["--lang", "zh_CN", "--page", "nope", "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("错误：") and "'nope'" in err and "dashboard, setup" in err


@pytest.mark.parametrize("argv,recordings", [
    (["--demo", "--screenshot", "x.png"], 0),   # a screenshot run is never recorded
    (["--demo"], 0),                            # the demo only when asked
    (["--demo", "--record"], 1),
])
def test_which_runs_leave_a_recorded_session(app_paths, argv, recordings):
    from cli.front import build_parser
    from services.telemetry.session_store import SessionStore

    args = build_parser().parse_args(argv)
    context = build_context(args, app_paths)
    hub = context.telemetry_control.attach(start=False)
    hub.tick()  # the demo's first reading raises alerts, so even a one-reading session is worth keeping
    hub.stop()
    assert len(SessionStore(app_paths.recordings_dir).list()) == recordings
