"""The dashboard, tray and sessions dialog on the real telemetry services (simulated source, recorder, alerts)."""
from __future__ import annotations

import argparse
import contextlib
import re
import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("services.telemetry.factory")

from gui.app import build_context
from gui.main_window import MainWindow
from gui.monitor.tray import TrayController
from services.telemetry.factory import DEMO_PREHISTORY_S, build_hub

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture
def context(app_paths):
    ctx = build_context(argparse.Namespace(demo=True), app_paths)
    yield ctx
    if ctx.telemetry is not None:
        ctx.telemetry.stop()


def _demo_hub(context, record=None):
    settings = context.settings_store.settings
    return build_hub(demo=True, replay=None, settings=settings, paths=context.paths, record=record)


def test_demo_run_fills_two_cards_insights_and_processes(qtbot, context):
    context.telemetry = _demo_hub(context)
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.resize(1280, 820)
    window.show()
    page = window.show_page("dashboard")
    context.telemetry.tick()  # hours of prehistory plus the first reading
    qtbot.waitUntil(lambda: len(page.cards()) == 2, timeout=3000)
    page.set_window(24 * 3600)
    page.repaint_now()
    card = page.cards()[0]
    assert "RTX 4090" in card.title.text()
    assert card.tile_util.value.text().endswith("%")
    item = card.graphs.curves["util"][0][1]
    x = item.xData
    assert 100 < len(x) <= 2 * 2 * card.graphs.plots["util"].vb.width() + 4  # thinned, not 10,800 points
    assert x[-1] - x[0] > 0.9 * DEMO_PREHISTORY_S  # but spanning the hours of prehistory
    qtbot.waitUntil(lambda: page.process_view.model.rowCount() >= 1, timeout=5000)
    assert page.toolbar.source_label.text().startswith("Demo")
    window.shutdown()
    page.bridge.close()


def test_alert_fires_to_notification_dashboard_and_session_log(qtbot, context):
    context.settings_store.settings.alerts.memory_pct = 50.0  # the demo's cards sit above this
    context.telemetry = _demo_hub(context, record=True)  # the demo is recorded only when asked
    tray = TrayController(context.settings_store, context.telemetry_control, tray_available=True)
    window = MainWindow(context)
    qtbot.addWidget(window)
    tray.attach_window(window)
    page = window.show_page("dashboard")
    with qtbot.waitSignal(tray.notified, timeout=3000) as notified:
        context.telemetry.tick()
    assert "memory" in notified.args[1] and "full" in notified.args[1]
    qtbot.waitUntil(lambda: len(page.alerts_shown()) >= 1)
    assert tray.session_log and "memory" in tray.session_log[0]
    assert re.search(r"\[(info|warning|critical)\]", tray.session_log[0])  # the severity, not its enum name
    recording = context.telemetry.recorder.path if hasattr(context.telemetry.recorder, "path") else None
    context.telemetry.stop()
    files = sorted(context.paths.recordings_dir.glob("*.sqlite"))
    assert files, "the session was recorded"
    with contextlib.closing(sqlite3.connect(files[-1])) as conn:  # sqlite3's own "with" does not close it
        # each alert names its GPU by UUID, the key of the recording's GPUs
        rules = [r[0] for r in conn.execute("SELECT alerts.rule FROM alerts JOIN gpus ON alerts.uuid = gpus.uuid")]
    assert "memory_full" in rules
    assert recording is None or Path(recording) == files[-1]
    tray.shutdown()
    window.shutdown()
    page.bridge.close()


def test_show_the_demo_button_restarts_the_hub_on_the_simulated_source(qtbot, context):
    from services.telemetry.factory import UnavailableSource
    from services.telemetry.hub import TelemetryHub
    from services.telemetry.model import DeviceState

    context.demo = False
    context.telemetry = TelemetryHub(UnavailableSource(DeviceState.NO_DRIVER, "libnvidia-ml.so.1: not found"))
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.show()
    page = window.show_page("dashboard")
    context.telemetry.tick()
    qtbot.waitUntil(lambda: page.no_gpu.title.text() == "No NVIDIA driver found")
    assert "libnvidia-ml" in page.no_gpu.technical.text()
    old = context.telemetry
    page.no_gpu.demo_button.click()
    assert context.telemetry is not old and context.demo
    assert page.bridge.hub is context.telemetry
    context.telemetry.stop()  # the test drives it by hand instead
    context.telemetry.tick()
    qtbot.waitUntil(lambda: len(page.cards()) == 2, timeout=3000)
    assert page.stack.currentIndex() == 1
    window.shutdown()
    page.bridge.close()


def test_after_leaving_the_demo_the_no_driver_panel_offers_the_demo_again(qtbot, context):
    """The page asks the controller for the live choice each time it explains, not once when built."""
    from gui.monitor.controller import TelemetryController
    from gui.monitor.dashboard import DashboardPage
    from services.telemetry.factory import UnavailableSource
    from services.telemetry.model import DeviceState

    assert context.telemetry_control is not None
    context.telemetry_control.close()
    control = TelemetryController(
        context, live_source=lambda: UnavailableSource(DeviceState.NO_DRIVER, "libnvidia-ml.so.1: not found"))
    context.telemetry_control = control
    control.attach(start=False)  # the demo, built while it is the live choice
    page = DashboardPage(context.settings_store, context.paths, control)
    qtbot.addWidget(page)
    page.show()
    try:
        control.start_live()  # "Leave the demo" on a computer without a driver
        qtbot.waitUntil(lambda: page.no_gpu.title.text() == "No NVIDIA driver found", timeout=5000)
        assert not control.demo and page.no_gpu.demo_button.isVisibleTo(page)
    finally:
        page.shutdown()
        control.close()
        page.bridge.close()


def test_replay_of_an_nvidia_smi_log_and_back_to_live(qtbot, context):
    context.telemetry = _demo_hub(context)
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.show()
    page = window.show_page("dashboard")
    csv = next(DATA.glob("nvidia_smi*.csv"))
    context.telemetry_control.open_replay(str(csv))
    qtbot.waitUntil(lambda: len(page.cards()) >= 1, timeout=3000)
    assert page.toolbar.source_label.text().startswith("Replay")
    assert page.toolbar.back_live_button.isVisibleTo(page) and not page.toolbar.live_button.isEnabled()
    first, last = context.telemetry.history.time_range()
    (x0, x1), _ = page.cards()[0].graphs.master_plot().vb.viewRange()
    assert x0 <= first + 1 and x1 >= last - 1  # the whole log is in view
    page.toolbar.back_live_button.click()
    assert context.telemetry.live and context.demo
    context.telemetry.stop()
    window.shutdown()
    page.bridge.close()


def test_a_broken_log_says_why_and_keeps_monitoring(qtbot, context, tmp_path):
    bad = tmp_path / "broken.csv"
    bad.write_text("this is not, an nvidia-smi log\n1,2\n", encoding="utf-8")
    context.telemetry = _demo_hub(context)
    old = context.telemetry
    with pytest.raises(ValueError):
        context.telemetry_control.open_replay(str(bad))
    assert context.telemetry is old


def test_sessions_dialog_lists_compares_exports_and_opens(qtbot, context, tmp_path):
    from gui.monitor.sessions import SessionsDialog

    for _ in range(2):  # two short recorded sessions (kept: the demo's first reading raises alerts)
        hub = _demo_hub(context, record=True)
        hub.tick()
        for _ in range(3):
            hub._next_fast = None  # due now: record a few readings without waiting
            hub.tick()
        hub.stop()
    context.telemetry = _demo_hub(context)
    dialog = SessionsDialog(context.paths.recordings_dir, context.hubs, context.telemetry_control)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == 2
    dialog.select_rows(0)
    assert dialog.open_button.isEnabled()
    assert "Summary" in dialog.details.toPlainText()
    dialog.select_rows(0, 1)
    assert len(dialog.selected()) == 2
    assert "Comparison" in dialog.details.toPlainText()
    assert not dialog.export_button.isEnabled()
    dialog.select_rows(1)
    target = tmp_path / "out.csv"
    rows = dialog.export_selected(target)
    assert rows >= 2 and target.read_text(encoding="utf-8").startswith("timestamp")
    with qtbot.waitSignal(dialog.replay_opened):
        assert dialog.open_path(str(dialog.selected()[0].path))
    assert not context.telemetry.live
    context.telemetry.stop()


def test_sessions_can_be_deleted_after_a_confirmation_but_never_the_one_being_recorded(qtbot, context):
    from PySide6.QtWidgets import QMessageBox

    from gui.monitor.sessions import SessionsDialog

    for _ in range(3):
        hub = _demo_hub(context, record=True)
        hub.tick()
        hub.stop()
    live = _demo_hub(context, record=True)
    live.tick()  # the session being recorded now
    context.telemetry = live
    dialog = SessionsDialog(context.paths.recordings_dir, context.hubs, context.telemetry_control)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == 4
    assert not dialog.delete_button.isEnabled()
    dialog.select_rows(0, 1)
    assert dialog.delete_button.isEnabled()
    dialog.delete_button.click()
    box = dialog.findChild(QMessageBox, "sessionsDelete")
    assert box is not None and "Delete 2 recorded sessions" in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert dialog.table.rowCount() == 4  # cancelled: nothing removed
    ids = [s.id for s in dialog.sessions]
    live_id = live.recorder.session_id
    refused = dialog.delete_sessions(ids)
    assert [sid for sid, _ in refused] == [live_id]  # the live one stays, and says why
    assert [s.id for s in dialog.sessions] == [live_id]
    assert "being recorded now" in dialog.findChild(QMessageBox, "sessionsProblem").text()
    live.stop()


def test_a_replay_that_failed_shows_its_reason_not_starting(qtbot, context, tmp_path):
    # A failed replay hub reaching the dashboard (e.g. built by another caller) must say why.
    bad = tmp_path / "broken.csv"
    bad.write_text("this is not, an nvidia-smi log\n1,2\n", encoding="utf-8")
    context.telemetry = build_hub(demo=False, replay=str(bad), settings=context.settings_store.settings,
                                  paths=context.paths)
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.show()
    page = window.show_page("dashboard")
    context.telemetry.start()
    qtbot.waitUntil(lambda: "broken.csv" in page.no_gpu.technical.text(), timeout=3000)
    assert page.no_gpu.title.text() == "This file cannot be opened"
    assert page.stack.currentIndex() == 0
    window.shutdown()
    page.bridge.close()
