"""At 1024x640 (both languages) the Setup wizard's Run button is in view without scrolling, and
the Build & PSU page has one scroll bar, not a column's beside the page's (issue 30)."""
from __future__ import annotations

import argparse

import pytest
from PySide6.QtWidgets import QScrollArea

from gui.app import build_context
from gui.i18n import TranslatorSet
from gui.main_window import MainWindow


@pytest.fixture(params=["en", "zh_CN"])
def window(request, qtbot, qapp, app_paths):
    translators = TranslatorSet()
    translators.install(qapp, request.param)
    context = build_context(argparse.Namespace(demo=True), app_paths)
    context.language = request.param
    win = MainWindow(context)
    qtbot.addWidget(win)
    win.resize(1024, 640)
    win.show()
    yield win
    win.shutdown()
    translators.install(qapp, "en")


def scrolling(win) -> list[QScrollArea]:
    return [a for a in win.findChildren(QScrollArea) if a.isVisible() and a.verticalScrollBar().isVisible()]


def test_setup_wizard_run_button_in_view(qtbot, window):
    page = window.show_page("setup")
    qtbot.waitUntil(lambda: page.report is not None and not page.busy(), timeout=5000)
    page.open_step("install-pytorch")
    qtbot.waitUntil(lambda: page.wizard.run_button.isVisible())
    button = page.wizard.run_button
    bottom = button.mapTo(window, button.rect().bottomLeft()).y()
    assert bottom <= window.height() and not button.visibleRegion().isEmpty()
    # the page itself does not scroll: only the step's detail may
    assert all(a.objectName() != "pageHolder" for a in scrolling(window))
    assert button.isEnabled()
    button.click()  # the demo shows what would run, and the output is brought into view
    assert "--index-url https://download.pytorch.org/whl/" in page.wizard.step_output.toPlainText()
    qtbot.waitUntil(lambda: not page.wizard.step_output.visibleRegion().isEmpty(), timeout=2000)


def test_psu_page_has_one_scroll_bar(qtbot, window):
    window.show_page("psu")
    qtbot.wait(1)  # the event loop lays the page out
    bars = scrolling(window)
    assert len(bars) == 1 and bars[0].objectName() != "pageHolder"
