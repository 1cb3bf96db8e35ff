"""The settings page says which settings were clamped or reset on load, and the setup page says
that a damaged progress.json was set aside: in Chinese under the Chinese translators, and in the
same English as before otherwise."""
from __future__ import annotations

import argparse
import json

import pytest
from PySide6.QtWidgets import QLabel

from gui.app import build_context
from gui.i18n import TranslatorSet
from services.hardware import detect


@pytest.fixture
def chinese(qapp):
    translators = TranslatorSet()
    translators.install(qapp, "zh_CN")
    yield
    translators.install(qapp, "en")


def _settings_page(qtbot, app_paths):
    from gui.settings_page import SettingsPage
    from services.settings import SettingsStore

    app_paths.settings_file.parent.mkdir(parents=True, exist_ok=True)
    app_paths.settings_file.write_text(json.dumps({"exporter": {"port": 99999}, "general": {"language": "klingon"}}),
                                       encoding="utf-8")
    store = SettingsStore(app_paths.settings_file)
    store.load()
    page = SettingsPage(store)
    qtbot.addWidget(page)
    return page


def _settings_page_notes(qtbot, app_paths) -> list[str]:
    page = _settings_page(qtbot, app_paths)
    return [label.text() for label in page.findChildren(QLabel) if "exporter.port" in label.text()]


def test_clamped_settings_are_listed_in_chinese_on_the_settings_page(qtbot, app_paths, chinese):
    texts = _settings_page_notes(qtbot, app_paths)
    assert texts == ["部分已保存的设置超出范围，已更正：exporter.port = 99999 超出范围（1 到 65535）；改用 65535；"
                     "general.language = 'klingon' 不是 auto, en, zh_CN 之一；改用 'auto'"]


def test_clamped_settings_are_listed_in_english(qtbot, app_paths):
    texts = _settings_page_notes(qtbot, app_paths)
    assert texts == ["Some saved settings were out of range and were corrected: exporter.port = 99999 is out of range (1 to 65535); "
                     "using 65535; general.language = 'klingon' is not one of auto, en, zh_CN; using 'auto'"]


def test_the_note_is_under_the_title_not_below_every_section(qtbot, app_paths):
    """Seen without scrolling: the first thing after the page's title."""
    note = _settings_page(qtbot, app_paths).findChild(QLabel, "loadNote")
    assert note is not None and note.parentWidget().layout().indexOf(note) == 1


def test_an_unreadable_settings_file_is_said_as_such(qtbot, app_paths):
    """Not "corrected": the file could not be read at all, and was set aside."""
    from gui.settings_page import SettingsPage
    from services.settings import SettingsStore

    app_paths.settings_file.parent.mkdir(parents=True, exist_ok=True)
    app_paths.settings_file.write_text("{ not json", encoding="utf-8")
    store = SettingsStore(app_paths.settings_file)
    store.load()
    assert not store.load_corrected_only
    page = SettingsPage(store)
    qtbot.addWidget(page)
    texts = [label.text() for label in page.findChildren(QLabel) if "settings.json" in label.text()]
    assert len(texts) == 1 and texts[0].startswith("Your settings file could not be read: settings.json was unreadable")


def _setup_page_problem(qtbot, app_paths, monkeypatch) -> str | None:
    from gui.setup.page import SetupPage
    from services.setup.planner import setup_dir

    monkeypatch.setattr(detect, "detected_cpu_name", lambda: None)
    context = build_context(argparse.Namespace(demo=False), app_paths)
    work = setup_dir(app_paths)
    work.mkdir(parents=True, exist_ok=True)
    (work / "progress.json").write_text("{ not json", encoding="utf-8")
    page = SetupPage(context.paths, context.setup_machine, context.demo)
    qtbot.addWidget(page)
    try:
        label = getattr(page, "progress_problem_label", None)
        return label.text() if label is not None else None
    finally:
        page.shutdown()


def test_a_damaged_progress_file_is_said_in_chinese_on_the_setup_page(qtbot, app_paths, monkeypatch, chinese):
    assert _setup_page_problem(qtbot, app_paths, monkeypatch) == \
        "已保存的安装进度：progress.json 无法读取（JSONDecodeError）；将从头开始记录进度"


def test_a_damaged_progress_file_is_said_in_english_on_the_setup_page(qtbot, app_paths, monkeypatch):
    assert _setup_page_problem(qtbot, app_paths, monkeypatch) == \
        "Saved setup progress: progress.json could not be read (JSONDecodeError); starting fresh"
