"""The polling timer the pages share runs only while its page is shown."""
from __future__ import annotations

from PySide6.QtWidgets import QWidget

from gui.widgets.visible_timer import VisibleTimer


def test_runs_while_shown_stops_when_hidden_and_fires_on_show(qtbot):
    page = QWidget()
    qtbot.addWidget(page)
    calls = []
    wanted = [False]
    timer = VisibleTimer(page, 20, lambda: calls.append(1), should_run=lambda: wanted[0], fire_on_show=True)
    page.show()
    assert not timer.isActive() and calls == []  # nothing to do yet
    wanted[0] = True
    timer.resume()
    assert timer.isActive()
    qtbot.waitUntil(lambda: len(calls) >= 2, timeout=2000)
    page.hide()
    assert not timer.isActive()
    calls.clear()
    page.show()
    assert timer.isActive() and calls == [1]  # at once on show, not one interval later
    page.hide()


def test_single_shot_is_rearmed_by_the_page_and_never_while_hidden(qtbot):
    page = QWidget()
    qtbot.addWidget(page)
    calls = []
    timer = VisibleTimer(page, 10, lambda: calls.append(1), fire_on_show=True, single_shot=True)
    page.show()
    assert calls == [1] and not timer.isActive()  # the page's work re-arms it when done
    timer.resume()
    qtbot.waitUntil(lambda: len(calls) == 2, timeout=2000)
    assert not timer.isActive()
    page.hide()
    timer.resume()
    assert not timer.isActive()
