"""The PSU page says that the hardware catalogue could not be read in the window's language."""
from __future__ import annotations

import argparse
import json

import pytest
from PySide6.QtWidgets import QLabel

import gui.psu.page as page_module
from gui.app import build_context
from gui.i18n import TranslatorSet
from services.hardware.catalog import load_catalog

REAL_LOAD = load_catalog


@pytest.fixture
def broken_catalogue(tmp_path, monkeypatch):
    (tmp_path / "gpus.json").write_text(json.dumps({"no_gpus": []}), encoding="utf-8")
    monkeypatch.setattr(page_module, "load_catalog", lambda: REAL_LOAD(tmp_path))


def _page_text(qtbot, app_paths) -> list[str]:
    context = build_context(argparse.Namespace(demo=False), app_paths)
    page = page_module.PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
    qtbot.addWidget(page)
    assert page.catalog is None
    return [label.text() for label in page.findChildren(QLabel)]


@pytest.mark.usefixtures("broken_catalogue")
def test_a_broken_catalogue_is_said_in_chinese_on_the_psu_page(qtbot, app_paths, qapp):
    translators = TranslatorSet()
    translators.install(qapp, "zh_CN")
    try:
        texts = _page_text(qtbot, app_paths)
    finally:
        translators.install(qapp, "en")
    assert texts == ["无法读取硬件目录：硬件目录数据格式有误：KeyError('gpus')"]


@pytest.mark.usefixtures("broken_catalogue")
def test_a_broken_catalogue_is_said_in_english_as_before_on_the_psu_page(qtbot, app_paths):
    assert _page_text(qtbot, app_paths) == [
        "The hardware catalogue could not be read: catalogue data is malformed: KeyError('gpus')"]
