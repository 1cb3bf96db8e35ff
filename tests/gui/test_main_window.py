from __future__ import annotations

import argparse

import pytest

from gui.app import AppController, build_context
from gui.main_window import MainWindow
from gui.pages import PAGES


@pytest.fixture
def context(app_paths):
    return build_context(argparse.Namespace(demo=False), app_paths)


def test_every_page_opens(qtbot, context):
    window = MainWindow(context)
    qtbot.addWidget(window)
    for spec in PAGES:
        widget = window.show_page(spec.key)
        assert window.current_key() == spec.key
        assert isinstance(widget, spec.load_class())
    window.shutdown()


def test_language_switch_rebuilds_window_in_chinese(qtbot, qapp, context):
    controller = AppController(qapp, context)
    window = controller.build_window("settings")
    qtbot.addWidget(window)
    assert window.sidebar.item(len(PAGES) - 1).text() == "Settings"
    page = window.page("settings")
    with qtbot.waitSignal(page.language_changed):
        page.language_combo.setCurrentIndex(page.language_combo.findData("zh_CN"))
    qtbot.waitUntil(lambda: controller.window is not window)
    new = controller.window
    qtbot.addWidget(new)
    assert new.sidebar.item(len(PAGES) - 1).text() == "设置"
    assert new.current_key() == "settings"
    # the app is "GPU 助手" everywhere in Chinese (brand, title, About), never "GPU Assistant"
    from PySide6.QtWidgets import QLabel

    brand = new.findChild(QLabel, "sidebarBrand")
    assert brand.text() == "GPU 助手" and new.windowTitle() == "GPU 助手"
    assert new.about_button.text() == "关于 GPU 助手" and qapp.applicationDisplayName() == "GPU 助手"
    controller.translators.install(qapp, "en")
    qapp.setApplicationDisplayName("GPU Assistant")
    controller.shutdown()
