"""Nothing cut mid-word at 1280: a tile's facts are shown whole or left out (all of them in the
tooltip), the plot titles fit, and commands never wrap inside a URL (issue 30)."""
from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit

from gui.monitor.widgets import MetricTile
from gui.setup.cards import CommandLines

URL_LINE = "/home/li/venvs/sd/bin/python -m pip install --upgrade torch --index-url https://download.pytorch.org/whl/cu126"


def test_tile_leaves_out_whole_facts_and_tooltips_them_all(qtbot):
    tile = MetricTile("Utilisation")
    qtbot.addWidget(tile)
    tile.resize(150, 60)
    tile.show()
    facts = ["memory bus 30%", "enc 12%", "dec 4%"]
    tile.set_values("95 %", facts)
    label = tile.detail
    width = label.contentsRect().width()
    shown = label.shown_text(width)
    assert label.fontMetrics().horizontalAdvance(shown) <= width
    assert shown.endswith("\u2026") and "enc 1" not in shown.replace("enc 12%", "")  # cut, and says so
    assert label.toolTip() == "memory bus 30%\nenc 12%\ndec 4%"
    # Room for the first fact and "…" (whatever the platform's font): whole facts, then "…", never a cut one.
    room = label.fontMetrics().horizontalAdvance("memory bus 30%" + label.SEPARATOR + "\u2026") + 1
    assert label.shown_text(room) == "memory bus 30%" + label.SEPARATOR + "\u2026"
    assert label.shown_text(room - 2).endswith("\u2026")  # less: the first fact cut, still with "…"
    tile.resize(600, 60)  # room for everything: no ellipsis, no tooltip
    qtbot.waitUntil(lambda: label.contentsRect().width() > 400)
    assert label.shown_text(label.contentsRect().width()) == "memory bus 30% · enc 12% · dec 4%"
    assert label.toolTip() == ""


def test_tile_with_one_fact_still_elides(qtbot):
    tile = MetricTile("Clocks")
    qtbot.addWidget(tile)
    tile.set_values("2730 MHz", "a single very long fact that cannot fit anywhere near here")
    assert tile.detail.shown_text(60).endswith("\u2026")


def test_command_lines_scroll_instead_of_wrapping_a_url(qtbot):
    box = CommandLines("python -m pip uninstall -y torch\n" + URL_LINE)
    qtbot.addWidget(box)
    box.resize(300, 100)
    box.show()
    qtbot.waitUntil(lambda: box.horizontalScrollBar().isVisible())
    assert not box.label.wordWrap() and box.label.text().splitlines()[1] == URL_LINE
    # two lines and the scroll bar: the box is as tall as that, not cut
    assert box.height() >= box.label.sizeHint().height() + box.horizontalScrollBar().height()
    box.resize(2000, 100)
    qtbot.waitUntil(lambda: not box.horizontalScrollBar().isVisible())
    assert box.height() == box.label.sizeHint().height()


def test_wizard_output_pane_does_not_wrap(qtbot):
    from gui.setup.wizard_tab import WizardTab

    tab = WizardTab([], [])
    qtbot.addWidget(tab)
    assert tab.step_output.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
    assert tab.step_commands.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
