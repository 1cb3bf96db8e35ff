"""Issue 15: the dashboard at laptop sizes, the bottom pane, long time windows, the shell's width."""
from __future__ import annotations

import argparse
import time

import numpy as np
import pytest

from gui.app import build_context
from gui.monitor.dashboard import DashboardPage
from gui.monitor.graph_titles import window_stats
from gui.monitor.time_axis import time_label, time_ticks
from services.telemetry.model import SourceKind
from tests.gui.fake_hub import FakeHub, snapshot


@pytest.fixture
def context(app_paths):
    return build_context(argparse.Namespace(demo=False), app_paths)


def _page(qtbot, context, hub, width=1100, height=760) -> DashboardPage:
    context.telemetry = hub
    page = DashboardPage(context.settings_store, context.paths, context.telemetry_control)
    qtbot.addWidget(page)
    page.resize(width, height)
    page.show()
    qtbot.waitExposed(page)
    return page


def _feed(hub: FakeHub, n_gpus: int, seconds: int = 60) -> None:
    t_end = time.time()
    for k in range(seconds):
        hub.push(snapshot(n_gpus, t_end - seconds + k + 1))


def _local(year, month, day, hour=0, minute=0) -> float:
    return time.mktime((year, month, day, hour, minute, 0, 0, 0, -1))


@pytest.mark.parametrize("window_h", [6, 24])
def test_long_windows_label_hours_on_a_narrow_plot(window_h):
    t1 = _local(2026, 12, 3, 15, 17)
    step, ticks = time_ticks(t1 - window_h * 3600, t1, 190)
    assert step % 3600 == 0 and len(ticks) >= 2  # more than one label, on whole hours
    labels = [time_label(t, step, False) for t in ticks]
    assert all(label.endswith(":00") for label in labels)


def test_a_window_across_midnight_shows_the_date():
    t1 = _local(2026, 12, 3, 9, 0)
    step, ticks = time_ticks(t1 - 24 * 3600, t1, 300)
    labels = [time_label(t, step, True) for t in ticks]
    assert "12/3" in labels  # local midnight, labelled with the date
    assert sum(label.count(":") for label in labels) >= 2  # the other ticks stay clock times


def test_short_windows_label_seconds_below_a_minute_spacing():
    t1 = _local(2026, 12, 3, 9, 0)
    step, ticks = time_ticks(t1 - 60, t1, 400)
    assert step < 60
    assert time_label(ticks[0], step, False).count(":") == 2


def test_window_stats_ignore_gaps_and_the_fetch_margin():
    t = np.arange(0.0, 10.0)
    y = np.array([100, 1, 2, np.nan, 3, 4, 5, 6, 7, 100], dtype=float)
    assert window_stats(t, y, 1.0, 8.5) == (1.0, 4.0, 7.0)
    assert window_stats(t, np.full(10, np.nan), 0, 9) is None


def test_cards_reflow_on_a_laptop_window(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub, width=800, height=600)
    with qtbot.waitSignal(page.repainted, timeout=2000):
        _feed(hub, 2)
    card = page.cards()[0]
    assert card.is_narrow()
    assert card.tiles_grid.rowCount() == 2  # six tiles as 3 + 3
    page.toolbar.source_label.setText("Replay of a-very-long-recording-name-" + "x" * 120 + ".sqlite")
    # The page fits beside the sidebar of a 1024 px window (1024 - 190 - margins).
    assert page.minimumSizeHint().width() <= 800
    page.resize(1300, 800)
    qtbot.waitUntil(lambda: not card.is_narrow(), timeout=2000)
    # Nothing wider than the viewport: no content beyond a scroll bar that is switched off.
    assert page.card_list.cards_host.minimumSizeHint().width() <= page.card_list.viewport().width() + 1
    page.shutdown()
    page.bridge.close()


def test_temperature_title_names_the_memory_line_and_stats_follow(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    with qtbot.waitSignal(page.repainted, timeout=2000):
        _feed(hub, 1)
    page.repaint_now()
    graphs = page.cards()[0].graphs
    assert ">mem<" in graphs.stats_text("temperature")
    assert "min " in graphs.stats_text("util") and "avg " in graphs.stats_text("util")
    page.shutdown()
    page.bridge.close()


def test_bottom_pane_folds_and_the_split_is_remembered(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    with qtbot.waitSignal(page.repainted, timeout=2000):
        _feed(hub, 1)
    page.set_pane_collapsed(True)
    assert page.pane_collapsed()
    page.shutdown()
    page.bridge.close()
    again = _page(qtbot, context, FakeHub())
    with qtbot.waitSignal(again.repainted, timeout=2000):
        _feed(again.bridge.hub, 1)
    assert again.pane_collapsed()  # restored from window.ini
    again.set_pane_collapsed(False)
    assert not again.pane_collapsed()
    again.shutdown()
    again.bridge.close()


def test_empty_tabs_say_so_and_alerts_reset_with_the_source(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    with qtbot.waitSignal(page.repainted, timeout=2000):
        _feed(hub, 1)
    assert page.tabs.alerts_list.item(0).text() == page.tabs.no_alerts_label
    hub.push(snapshot(1, time.time() + 1, throttle=frozenset({"sw_thermal"})))  # the engine: "slowed down by heat"
    qtbot.waitUntil(lambda: page.tabs.tabText(2).endswith("(1)"))
    assert "Slowed down by heat" in page.tabs.alerts_list.item(0).text()
    page.bridge.set_hub(FakeHub())  # a recording was opened
    assert page.tabs.tabText(2) == "Alerts"
    assert page.tabs.alerts_list.count() == 1 and page.tabs.alerts_list.item(0).text() == page.tabs.no_alerts_label
    page.shutdown()
    page.bridge.close()


def test_window_size_option_parses_and_refuses_nonsense():
    import main

    parser = main.build_parser(["--window-size", "1024x640"])
    assert parser.parse_args(["--window-size", "1024x640"]).window_size == (1024, 640)
    with pytest.raises(SystemExit):
        parser.parse_args(["--window-size", "big"])


def test_a_visited_wide_page_does_not_widen_the_window(qtbot, app_paths):
    from PySide6.QtWidgets import QWidget

    from gui.main_window import MainWindow

    context = build_context(argparse.Namespace(demo=False), app_paths)
    window = MainWindow(context)
    qtbot.addWidget(window)
    before = window.minimumSizeHint().width()
    wide = QWidget()
    wide.setMinimumWidth(3000)
    window.stack.widget(0).widget().layout().addWidget(wide)  # a page that cannot be narrower
    assert window.minimumSizeHint().width() == before
    window.shutdown()


def test_replay_label_names_the_file_and_the_demo_can_be_left(qtbot, context, monkeypatch):
    from pathlib import Path

    replay = FakeHub(SourceKind.REPLAY, path=Path("recordings", "run-2026-12-03.jsonl"))
    page = _page(qtbot, context, replay)
    assert "run-2026-12-03.jsonl" in page.toolbar.source_label.text()
    assert page.toolbar.back_live_button.isVisibleTo(page) and not page.toolbar.leave_demo_button.isVisibleTo(page)

    demo = FakeHub(SourceKind.SIMULATED)
    asked = []
    monkeypatch.setattr(context.telemetry_control, "start_live", lambda: asked.append(False))
    page.bridge.set_hub(demo)
    assert page.toolbar.leave_demo_button.isVisibleTo(page)
    page.toolbar.leave_demo_button.click()
    assert asked == [False]  # back to this computer's GPUs
    page.shutdown()
    page.bridge.close()


@pytest.mark.parametrize("name, cables", [("NVIDIA GeForce RTX 4090", True),
                                          ("NVIDIA GeForce RTX 4060 Laptop GPU", False)])
def test_lost_gpu_note_says_since_when_once_and_fits_the_machine(qtbot, context, name, cables):
    import dataclasses

    from services.telemetry.model import DeviceState

    hub = FakeHub()
    page = _page(qtbot, context, hub)
    t = (time.time() // 60 - 1) * 60 + 5  # the readings all fall in one clock minute, whichever the card shows
    for k in range(3):
        snap = snapshot(1, t + k, states={0: DeviceState.LOST} if k else None)
        snap = dataclasses.replace(snap, gpus=(dataclasses.replace(snap.gpus[0], name=name),),
                                   samples=tuple(dataclasses.replace(s, state_detail="GPU has fallen off the bus")
                                                 if k else s for s in snap.samples))
        hub.push(snap)
    qtbot.waitUntil(lambda: page._snapshot is hub.latest, timeout=2000)
    page.repaint_now()
    note = page.cards()[0].state_note.text()
    assert note.startswith("Lost since " + time.strftime("%H:%M", time.localtime(t + 1)))
    assert ("power cables" in note) is cables
    assert "fallen off the bus" not in note  # the driver's line is in the badge's tooltip, not repeated
    page.shutdown()
    page.bridge.close()


@pytest.mark.parametrize("width_px", [180, 230, 350])
def test_a_24_hour_axis_has_at_least_three_labels_at_every_plot_width(width_px):
    t1 = _local(2026, 12, 3, 15, 17)
    step, ticks = time_ticks(t1 - 24 * 3600, t1, width_px)
    assert len(ticks) >= 3 and len(ticks) <= max(2, int(width_px // 58))  # and never more than fit
