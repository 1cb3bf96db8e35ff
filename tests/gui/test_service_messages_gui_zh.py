"""In the Chinese GUI, errors that come from the service packages are shown in Chinese: the page
renders the exception's ``Msg`` instead of its English ``str``."""
from __future__ import annotations

import argparse

import pytest

from gui.app import build_context
from gui.i18n import TranslatorSet
from services.hardware import detect


@pytest.fixture
def context(app_paths, monkeypatch):
    monkeypatch.setattr(detect, "detected_cpu_name", lambda: None)
    return build_context(argparse.Namespace(demo=False), app_paths)


@pytest.fixture
def chinese(qapp):
    translators = TranslatorSet()
    translators.install(qapp, "zh_CN")
    yield
    translators.install(qapp, "en")


def test_a_broken_rules_file_is_explained_in_chinese_on_the_setup_page(qtbot, context, chinese, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QLabel

    from gui.setup.page import SetupPage
    from services.setup import rules

    bad = tmp_path / "rules.json"
    bad.write_text("{ not json", encoding="utf-8")
    monkeypatch.setattr(rules, "RULES_FILE", bad)
    page = SetupPage(context.paths, context.setup_machine, context.demo)
    qtbot.addWidget(page)
    try:
        texts = [label.text() for label in page.findChildren(QLabel)]
        shown = [t for t in texts if str(bad) in t]
        assert shown, texts
        assert f"规则文件 {bad} 不是有效的 JSON（第 1 行）" in shown[0]
        assert "not valid JSON" not in shown[0]
    finally:
        page.shutdown()


def test_a_model_that_cannot_be_sized_is_explained_in_chinese_on_the_psu_page(qtbot, context, chinese):
    pytest.importorskip("services.modelfit.estimate")
    from gui.psu.page import PsuPage
    from services.hardware.compare import Task

    page = PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
    qtbot.addWidget(page)
    compare = page.compare
    compare.dtype_combo.setCurrentIndex(compare.dtype_combo.findData("fp8"))
    compare.task_combo.setCurrentIndex(compare.task_combo.findData(Task.FULL_TRAINING.value))
    compare.model_combo.setCurrentIndex(compare.model_combo.findData("Llama-3.1-8B"))
    text = compare.need_label.text()
    assert text.startswith("全参数微调需要 16 位或 32 位权重"), text
    assert "最接近的：" in text and "closest" not in text


def test_a_broken_settings_file_is_explained_in_chinese_on_the_settings_page(qtbot, app_paths, chinese):
    from PySide6.QtWidgets import QLabel

    from gui.settings_page import SettingsPage
    from services.settings import SettingsStore

    app_paths.settings_file.parent.mkdir(parents=True, exist_ok=True)
    app_paths.settings_file.write_bytes(b"{ broken")
    store = SettingsStore(app_paths.settings_file)
    store.load()
    page = SettingsPage(store)
    qtbot.addWidget(page)
    texts = [label.text() for label in page.findChildren(QLabel) if "settings.json" in label.text()]
    assert texts and "settings.json 无法读取；已将其保留为 settings.json.broken-" in texts[0], texts
    assert "unreadable" not in texts[0]
