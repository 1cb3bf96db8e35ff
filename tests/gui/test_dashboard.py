"""The dashboard with 0, 1 and 2 GPUs, state changes, and the process model."""
from __future__ import annotations

import argparse
import time

import numpy as np
import pytest

from gui.app import build_context
from gui.monitor.bridge import TelemetryBridge
from gui.monitor.dashboard import DashboardPage
from services.telemetry.model import DeviceState, GpuSample, Snapshot, SourceStatus
from tests.gui.fake_hub import FakeHub, snapshot


@pytest.fixture
def context(app_paths):
    return build_context(argparse.Namespace(demo=False), app_paths)


def _page(qtbot, context, hub) -> DashboardPage:
    context.telemetry = hub
    page = DashboardPage(context.settings_store, context.paths, context.telemetry_control)
    qtbot.addWidget(page)
    page.resize(1100, 760)
    page.show()
    qtbot.waitExposed(page)
    return page


def _stop(page: DashboardPage) -> None:
    page.shutdown()
    page.bridge.close()


def _feed(hub: FakeHub, n_gpus: int, seconds: int = 120, **kwargs) -> float:
    t_end = time.time()
    for k in range(seconds):
        hub.push(snapshot(n_gpus, t_end - seconds + k + 1, **kwargs))
    return t_end


def _delivered(qtbot, page: DashboardPage, hub: FakeHub) -> None:
    """Wait until the page holds the hub's newest snapshot (the bridge queues them)."""
    latest = hub.latest
    qtbot.waitUntil(lambda: page._snapshot is latest, timeout=2000)


@pytest.mark.parametrize("n_gpus", [1, 2, 4])
def test_cards_show_live_values(qtbot, context, n_gpus):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    with qtbot.waitSignal(page.repainted, timeout=2000):
        _feed(hub, n_gpus)
    cards = page.cards()
    assert sorted(cards) == list(range(n_gpus))
    card = cards[0]
    assert card.tile_util.value.text() == "95 %"
    assert card.tile_temp.value.text() == "74 °C"
    assert "RTX 4090" in card.title.text()
    assert card.state_badge.text() == "Working"
    assert page.stack.currentIndex() == 1
    # One process table for every GPU: a row per process and GPU, labelled with its GPU.
    view = page.process_view
    qtbot.waitUntil(lambda: view.model.rowCount() == n_gpus, timeout=2000)
    assert sorted(view.model.process(r).gpu_label for r in range(n_gpus)) == [f"GPU {i}" for i in range(n_gpus)]
    # The graphs got the history, thinned but with its range intact.
    item = card.graphs.curves["util"][0][1]
    x, y = item.xData, item.yData
    assert len(x) > 0 and np.nanmax(y) == 95.0
    _stop(page)


def test_snapshots_from_a_worker_thread_reach_the_gui_thread(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    with qtbot.waitSignal(page.bridge.snapshot_received, timeout=2000) as blocker:
        hub.push(snapshot(1, time.time()), threaded=True)
    assert blocker.args[0].gpus[0].index == 0
    qtbot.waitUntil(lambda: 0 in page.cards())
    _stop(page)


def test_zero_gpus_explains_and_offers_setup_and_demo(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    hub.push(Snapshot(t=time.time(), status=SourceStatus(DeviceState.OK)))
    qtbot.waitUntil(lambda: page.no_gpu.title.text() == "No NVIDIA GPU found")
    assert page.stack.currentIndex() == 0
    assert page.no_gpu.demo_button.isVisibleTo(page)
    _stop(page)


@pytest.mark.parametrize("state, words", [
    (DeviceState.NO_DRIVER, "No NVIDIA driver found"),
    (DeviceState.DRIVER_NOT_LOADED, "not loaded"),
    (DeviceState.VERSION_MISMATCH, "Restart"),
    (DeviceState.NO_PERMISSION, "permission"),
])
def test_source_states_are_explained(qtbot, context, state, words):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    hub.push(Snapshot(t=time.time(), status=SourceStatus(state, "NVML: library not found")))
    qtbot.waitUntil(lambda: words in page.no_gpu.title.text())
    assert page.stack.currentIndex() == 0
    assert page.no_gpu.setup_button.isVisibleTo(page)
    assert "library not found" in page.no_gpu.technical.text()
    _stop(page)


def test_setup_button_switches_the_main_window_page(qtbot, context):
    from gui.main_window import MainWindow

    hub = FakeHub()
    context.telemetry = hub
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.show()
    page = window.show_page("dashboard")
    hub.push(Snapshot(t=time.time(), status=SourceStatus(DeviceState.NO_DRIVER)))
    qtbot.waitUntil(lambda: page.no_gpu.setup_button.isVisibleTo(page))
    page.no_gpu.setup_button.click()
    assert window.current_key() == "setup"
    window.shutdown()
    page.bridge.close()


def test_gpu_lost_and_back(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    t = _feed(hub, 2, seconds=30)
    hub.push(snapshot(2, t + 1, states={1: DeviceState.LOST}))
    _delivered(qtbot, page, hub)
    page.repaint_now()
    card = page.cards()[1]
    assert card.state_badge.text() == "GPU lost"
    assert card.state_note.isVisibleTo(page)
    assert card.tile_util.value.text() == "\u2014"  # no stale value
    assert page.cards()[0].state_badge.text() == "Working"
    hub.push(snapshot(2, t + 2))
    _delivered(qtbot, page, hub)
    page.repaint_now()
    assert page.cards()[1].state_badge.text() == "Working"
    assert not page.cards()[1].state_note.isVisibleTo(page)
    assert page.cards()[1].tile_util.value.text() == "95 %"
    _stop(page)


def test_pcie_badge_warns_only_under_load(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    hub.push(snapshot(1, time.time(), util=5.0, pcie_gen=1))
    _delivered(qtbot, page, hub)
    page.repaint_now()
    badge = page.cards()[0].pcie_badge
    assert badge.text() == "PCIe Gen1 x16" and badge.level() == "muted"
    hub.push(snapshot(1, time.time() + 1, util=90.0, pcie_gen=3))
    _delivered(qtbot, page, hub)
    page.repaint_now()
    assert badge.level() == "warn" and "Gen3" in badge.text()
    _stop(page)


def test_throttle_bands_and_seconds(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    t0 = time.time() - 100
    for k in range(100):
        reasons = frozenset({"sw_thermal"}) if 40 <= k < 70 else frozenset()
        hub.push(snapshot(1, t0 + k, throttle=reasons))
    _delivered(qtbot, page, hub)
    page.repaint_now()
    card = page.cards()[0]
    bar = card.graphs.bands[("clocks", "sw_thermal")]
    assert len(bar.opts["x0"]) == 1
    assert bar.opts["x1"][0] - bar.opts["x0"][0] == pytest.approx(30)
    assert "Thermal limit 30 s" in card.band_legend.text()
    _stop(page)


def test_gaps_stay_gaps(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    t0 = time.time() - 60
    for k in range(60):
        s = snapshot(1, t0 + k)
        if 20 <= k < 30:  # the reading is missing, not zero
            s = Snapshot(t=s.t, status=s.status, gpus=s.gpus,
                         samples=(GpuSample(t=s.t, index=0, uuid="GPU-00000000"),))
        hub.push(s)
    _delivered(qtbot, page, hub)
    page.set_window(60)
    page.repaint_now()
    item = page.cards()[0].graphs.curves["util"][0][1]
    y = item.yData
    assert np.isnan(y).sum() >= 10
    assert np.nanmin(y) == 95.0  # no false zeros
    _stop(page)


def test_time_window_and_follow_live(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    t = _feed(hub, 1, seconds=400)
    _delivered(qtbot, page, hub)
    assert context.settings_store.settings.monitor.window_s == 600  # the default
    page.set_window(300)
    (x0, x1), _ = page.cards()[0].graphs.master_plot().vb.viewRange()
    assert x1 - x0 == pytest.approx(300, abs=1)
    assert context.settings_store.settings.monitor.window_s == 300  # remembered
    # A pan by the user stops following; Live brings it back.
    page.cards()[0].graphs._user_range_callback(t - 350, t - 250)
    assert not page.toolbar.live_button.isChecked()
    page.set_follow_live(True)
    (x0, x1), _ = page.cards()[0].graphs.master_plot().vb.viewRange()
    assert x1 == pytest.approx(t, abs=2)
    _stop(page)


def test_hidden_page_stops_its_timer(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    assert page._repaint_timer.isActive()
    page.hide()
    assert not page._repaint_timer.isActive()
    _stop(page)


def test_bridge_ignores_a_replaced_hub(qtbot):
    old, new = FakeHub(), FakeHub()
    bridge = TelemetryBridge(old)
    received = []
    bridge.snapshot_received.connect(received.append)
    bridge.set_hub(new)
    old.push(snapshot(1, time.time()))  # the old hub may still deliver one late tick
    new.push(snapshot(2, time.time()))
    qtbot.waitUntil(lambda: len(received) == 1)
    assert len(received[0].gpus) == 2
    bridge.close()


def test_no_driver_card_in_chinese_shows_the_reason_in_chinese(qtbot, qapp, context, tmp_path):
    from gui.i18n import TranslatorSet
    from services.telemetry.nvml_source import NvmlSource
    from tests.fakes.fake_nvml import NVML_ERROR_LIBRARY_NOT_FOUND, FakeNvml

    status = NvmlSource(FakeNvml(1, init_error=NVML_ERROR_LIBRARY_NOT_FOUND), sysfs_root=tmp_path).open()
    translators = TranslatorSet()
    translators.install(qapp, "zh_CN")
    try:
        hub = FakeHub()
        page = _page(qtbot, context, hub)
        hub.push(Snapshot(t=time.time(), status=status))
        qtbot.waitUntil(lambda: page.no_gpu.technical.text() != "")
        assert page.no_gpu.technical.text() == "未找到 NVIDIA 驱动（缺少 NVML 库）：请安装 NVIDIA 驱动"
        assert "NVML library missing" in status.message  # the English line stays for JSON and logs
        _stop(page)
    finally:
        translators.install(qapp, "en")


def test_has_drawn_history_waits_for_curves_not_for_tiles(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    hub.push(snapshot(2, time.time() - 300))
    _delivered(qtbot, page, hub)
    page.repaint_now()
    assert len(page.cards()) == 2 and page.cards()[0].tile_util.value.text().endswith("%")
    assert not page.has_drawn_history()  # one reading: the tiles show it, the graphs have no line yet
    assert not page.explains_instead_of_cards()
    _feed(hub, 2, seconds=30)
    _delivered(qtbot, page, hub)
    page.repaint_now()
    assert page.has_drawn_history()
    assert page.cards()[1].graphs.drawn_points() >= 2
    _stop(page)


def test_the_gpu_strip_keeps_four_gpus_in_view_at_1024x640(qtbot, context):
    hub = FakeHub()
    page = _page(qtbot, context, hub)
    page.resize(1024 - 190, 640)  # the window less the sidebar
    with qtbot.waitSignal(page.repainted, timeout=2000):
        _feed(hub, 4, seconds=5, throttle=frozenset({"sw_thermal"}))
    strip = page.strip
    assert strip.isVisible()
    assert strip.line_texts(3) == ["95 %", "17.6 / 24 GiB", "74 °C", "320 / 450 W"]
    assert strip.dot_level(0) == "hot"
    # The strip sits above the scrolled cards: every GPU's line is inside the page, not scrolled away.
    qtbot.waitUntil(lambda: strip._lines[3].name.mapTo(page, strip._lines[3].name.rect().topLeft()).y() > 0,
                    timeout=2000)
    for index in range(4):
        line = strip._lines[index].name
        top_left = line.mapTo(page, line.rect().topLeft())
        assert 0 <= top_left.y() and top_left.y() + line.height() <= page.height()
    with qtbot.waitSignal(page.repainted, timeout=2000):
        _feed(hub, 1, seconds=2)
    assert not page.strip.isVisible()  # one GPU: its card says it all
    _stop(page)


def test_a_spill_alert_shows_on_the_process_view_banner(qtbot, context):
    from services.telemetry.alerts import Alert, Rule, Severity

    hub = FakeHub()
    page = _page(qtbot, context, hub)
    with qtbot.waitSignal(page.process_view.table_shown, timeout=2000):
        _feed(hub, 1, seconds=2)
    alert = Alert(hub.latest.t, 0, Rule.SPILL, Severity.WARNING, "the whole story", pid=4242,
                  process_name="python train.py", model="Qwen/Qwen2.5-7B-Instruct", summary="spilled 300 MiB")
    page._on_bridge_alert_raised(alert)
    view = page.process_view
    assert view.banner.isVisible() and view.banner_label.text() == "spilled 300 MiB"
    assert view.banner_label.toolTip() == "the whole story" and view.fit_button.isVisible()
    assert not view.run_on_nvidia_button.isVisible()
    with qtbot.waitSignal(view.open_in_fit, timeout=1000) as asked:
        view.fit_button.click()
    assert asked.args == ["Qwen/Qwen2.5-7B-Instruct"]
    # The process ends: the banner goes with it (once the view shows that reading's table).
    end = hub.latest.t + 1
    hub.push(snapshot(1, end, processes=()))
    qtbot.waitUntil(lambda: view.model.table.t == end, timeout=2000)
    assert not view.banner.isVisible()
    _stop(page)
