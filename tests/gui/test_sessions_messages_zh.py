"""The sessions dialog and the dashboard say why a recording or log cannot be read in the UI's
language; in English the lines are the ones the services give (``str()``), unchanged."""
from __future__ import annotations

import argparse
import re

import pytest
from PySide6.QtWidgets import QMessageBox

from gui.app import build_context
from gui.i18n import TranslatorSet
from gui.main_window import MainWindow
from gui.monitor.sessions import SessionsDialog
from services.telemetry.factory import build_hub

CJK = re.compile(r"[\u4e00-\u9fff]")
DAMAGED = "session-20200101-000000.sqlite"


@pytest.fixture
def context(app_paths):
    ctx = build_context(argparse.Namespace(demo=True), app_paths)
    yield ctx
    if ctx.telemetry is not None:
        ctx.telemetry.stop()


@pytest.fixture
def damaged(context):
    folder = context.paths.recordings_dir
    folder.mkdir(parents=True, exist_ok=True)
    (folder / DAMAGED).write_bytes(b"this is no database")
    return folder / DAMAGED


@pytest.fixture(params=["zh_CN", "en"])
def language(request, qapp):
    translators = TranslatorSet()
    translators.install(qapp, request.param)
    yield request.param
    translators.install(qapp, "en")


def _problem_box(dialog: SessionsDialog) -> QMessageBox:
    return dialog.findChild(QMessageBox, "sessionsProblem")


def test_an_unreadable_session_is_explained_in_the_ui_language(qtbot, context, damaged, language):
    dialog = SessionsDialog(context.paths.recordings_dir, context.hubs, context.telemetry_control)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == 1
    dialog.select_rows(0)
    assert not dialog.open_button.isEnabled()
    details = dialog.details.toPlainText()
    tooltip = dialog.table.item(0, 0).toolTip()
    if language == "zh_CN":
        assert f"{DAMAGED}：不是可读取的录制文件（file is not a database）" in details
        assert tooltip == f"{DAMAGED}：不是可读取的录制文件（file is not a database）"
    else:
        assert f"{DAMAGED}: not a readable recording (file is not a database)" in details
        assert tooltip == f"{DAMAGED}: not a readable recording (file is not a database)"
        assert not CJK.search(details + tooltip)


def test_a_log_that_cannot_be_opened_is_explained_in_the_ui_language(qtbot, context, tmp_path, language):
    bad = tmp_path / "empty.csv"
    bad.write_text("", encoding="utf-8")
    context.telemetry = build_hub(demo=True, replay=None, settings=context.settings_store.settings, paths=context.paths)
    dialog = SessionsDialog(context.paths.recordings_dir, context.hubs, context.telemetry_control)
    qtbot.addWidget(dialog)
    assert not dialog.open_path(str(bad))
    box = _problem_box(dialog)
    assert box is not None
    if language == "zh_CN":
        assert box.text() == f"{bad}：文件是空的"
    else:
        assert box.text() == f"{bad}: the file is empty"
    box.close()
    assert context.telemetry.live is not None  # the running monitoring is kept


def test_a_failed_replay_on_the_dashboard_says_why_in_chinese(qtbot, context, tmp_path, qapp):
    bad = tmp_path / "broken.csv"
    bad.write_text("this is not, an nvidia-smi log\n1,2\n", encoding="utf-8")
    translators = TranslatorSet()
    translators.install(qapp, "zh_CN")
    try:
        context.telemetry = build_hub(demo=False, replay=str(bad), settings=context.settings_store.settings,
                                      paths=context.paths)
        status = context.telemetry.source.open()
        assert status.message == f"{bad}: not an nvidia-smi CSV log or a GPU Assistant recording"  # logs, JSON
        window = MainWindow(context)
        qtbot.addWidget(window)
        window.show()
        page = window.show_page("dashboard")
        context.telemetry.start()
        qtbot.waitUntil(lambda: "broken.csv" in page.no_gpu.technical.text(), timeout=3000)
        assert page.no_gpu.technical.text() == f"{bad}：不是 nvidia-smi CSV 日志，也不是 GPU 助手录制文件"
        window.shutdown()
        page.bridge.close()
    finally:
        translators.install(qapp, "en")
