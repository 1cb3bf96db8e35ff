"""Tray: alerts become notifications and log lines; closing keeps monitoring. Settings groups save at once."""
from __future__ import annotations

import argparse
import time

import pytest

from gui.app import build_context
from gui.main_window import MainWindow
from gui.monitor.settings_groups import AlertSettingsGroup, MonitorSettingsGroup
from gui.icons import app_icon
from gui.monitor.tray import TrayController
from services.settings import SettingsStore
from services.telemetry.model import DeviceState, ProcessSample
from tests.gui.fake_hub import FakeHub, snapshot


@pytest.fixture
def context(app_paths):
    ctx = build_context(argparse.Namespace(demo=False), app_paths)
    ctx.telemetry = FakeHub(alerts=ctx.settings_store.settings.alerts)
    return ctx


def _run_hot(hub: FakeHub, t: float, threaded: bool = False) -> None:
    """Readings at 91 °C for 30 s: the temperature rule (above 83 °C for 30 s by default) fires on the last."""
    hub.push(snapshot(1, t - 30.0, temperature=91.0), threaded=threaded)
    assert hub.alerts is not None and hub.alerts.recent() == []  # hot, but not yet for long enough
    hub.push(snapshot(1, t, temperature=91.0), threaded=threaded)


def test_alert_becomes_notification_and_log_line(qtbot, context):
    tray = TrayController(context.settings_store, context.telemetry_control, tray_available=True)
    with qtbot.waitSignal(tray.notified, timeout=2000) as notified, qtbot.waitSignal(tray.logged, timeout=2000) as logged:
        _run_hot(context.telemetry, time.time(), threaded=True)
    assert notified.args[0] == "GPU 0"
    assert "above 83 °C for 30 s (now 91 °C)" in notified.args[1]
    assert "above 83 °C" in logged.args[0] and "[warning]" in logged.args[0]
    assert tray.session_log == [logged.args[0]]
    tray.shutdown()
    tray.bridge.close()


def test_no_notification_when_switched_off(qtbot, context):
    context.settings_store.settings.alerts.notify_desktop = False
    tray = TrayController(context.settings_store, context.telemetry_control, tray_available=True)
    shown = []
    tray.notified.connect(lambda *a: shown.append(a))
    with qtbot.waitSignal(tray.logged, timeout=2000):
        _run_hot(context.telemetry, time.time())
    assert shown == []  # still logged, not shown
    tray.shutdown()
    tray.bridge.close()


def test_alert_reaches_dashboard_alerts_tab(qtbot, context):
    window = MainWindow(context)
    qtbot.addWidget(window)
    page = window.show_page("dashboard")
    _run_hot(context.telemetry, time.time())
    qtbot.waitUntil(lambda: len(page.alerts_shown()) == 1)
    assert page.tabs.alerts_list.count() == 1  # the alert replaced the "no alerts yet" line
    assert "above 83 °C" in page.tabs.alerts_list.item(0).text()
    assert page.tabs.tabText(2) == "Alerts (1)"
    window.shutdown()
    page.bridge.close()


def test_close_hides_to_tray_and_quit_really_quits(qtbot, context):
    quits = []
    tray = TrayController(context.settings_store, context.telemetry_control, tray_available=True, quit_app=lambda: quits.append(1))
    window = MainWindow(context)
    qtbot.addWidget(window)
    tray.attach_window(window)
    window.show()
    window.close()
    assert not window.isVisible() and window.close_to_tray is not None
    assert not window._quitting  # hidden, not shut down
    tray.show_window()
    assert window.isVisible()
    tray.quit()
    assert quits == [1] and not window.isVisible()
    tray.shutdown()
    tray.bridge.close()


def test_close_really_closes_without_a_tray_or_when_turned_off(qtbot, context):
    tray = TrayController(context.settings_store, context.telemetry_control, tray_available=False)
    assert tray.should_hide_on_close() is False
    tray.shutdown()
    context.settings_store.settings.general.keep_running_in_tray = False
    tray = TrayController(context.settings_store, context.telemetry_control, tray_available=True)
    assert tray.should_hide_on_close() is False
    tray.shutdown()
    tray.bridge.close()


def test_tray_tooltip_follows_snapshots(qtbot, context):
    tray = TrayController(context.settings_store, context.telemetry_control, tray_available=True)
    context.telemetry.push(snapshot(2, time.time(), states={1: DeviceState.LOST}))
    qtbot.waitUntil(lambda: "GPU 0: 74 °C, 95%" in tray.icon.toolTip())
    assert "GPU 1: lost" in tray.icon.toolTip()
    tray.shutdown()
    tray.bridge.close()


def test_app_icon_is_never_empty(qapp):
    assert not app_icon().isNull()


def test_alert_settings_save_immediately(qtbot, context):
    group = AlertSettingsGroup(context.settings_store)
    qtbot.addWidget(group)
    group.temp_spin.setValue(88)
    group.power_check.setChecked(True)
    group.notify_check.setChecked(False)
    reloaded = SettingsStore(context.settings_store.path)
    alerts = reloaded.load().alerts
    assert alerts.temperature_c == 88.0 and isinstance(alerts.temperature_c, float)
    assert alerts.throttle_power is True and alerts.notify_desktop is False
    group.enabled_check.setChecked(False)
    assert not group.temp_spin.isEnabled()
    assert SettingsStore(context.settings_store.path).load().alerts.enabled is False


def test_monitor_settings_save_immediately(qtbot, context):
    group = MonitorSettingsGroup(context.settings_store)
    qtbot.addWidget(group)
    group.fast_spin.setValue(0.5)
    group.record_check.setChecked(False)
    monitor = SettingsStore(context.settings_store.path).load().monitor
    assert monitor.fast_interval_s == 0.5 and monitor.record_sessions is False


def test_settings_page_has_the_monitor_groups(qtbot, context):
    from gui.settings_page import SettingsPage

    page = SettingsPage(context.settings_store)
    qtbot.addWidget(page)
    titles = [page.sections_layout.itemAt(i).widget().title() for i in range(page.sections_layout.count())]
    assert titles[:2] == ["Monitoring", "Alerts"]


def test_process_rule_settings_save_immediately(qtbot, context):
    group = AlertSettingsGroup(context.settings_store)
    qtbot.addWidget(group)
    group.spill_spin.setValue(512)
    group.wrong_gpu_check.setChecked(False)
    group.wrong_for_spin.setValue(30)
    alerts = SettingsStore(context.settings_store.path).load().alerts
    assert (alerts.spill, alerts.spill_min_mib, alerts.wrong_gpu, alerts.wrong_gpu_for_s) == (True, 512.0, False, 30.0)
    group.enabled_check.setChecked(False)
    assert not group.spill_check.isEnabled() and not group.wrong_busy_spin.isEnabled()


class _Counters:
    """Windows' GPU counters for one program, scripted: dedicated full, then shared memory climbing."""

    def __init__(self) -> None:
        self.shared = [100.0, 100.0, 900.0]

    def collect(self):
        from services.telemetry.processes import AdapterProcess

        shared = self.shared.pop(0) if self.shared else 900.0
        return {(4242, "0x00000000_0x000095CA"): AdapterProcess(4242, "0x00000000_0x000095CA", 23500.0, shared)}

    def close(self):
        pass


def test_a_spill_alert_reaches_the_tray(qtbot, context):
    from services.telemetry.factory import attach_processes
    from services.telemetry.processes import Adapter

    hub = context.telemetry
    attach_processes(hub, hub.alerts, host=_NoHost(), counters=_Counters(), adapters=[
        Adapter("0x00000000_0x000095CA", "NVIDIA GeForce RTX 4090", integrated=False, nvml_uuid="GPU-00000000",
                memory_total_mib=24564.0)])
    tray = TrayController(context.settings_store, context.telemetry_control, tray_available=True)
    t = time.time()
    # Windows WDDM: NVML lists the program without its memory; the counters have it.
    wddm = (ProcessSample(4242, "ollama.exe", None, "compute", None),)
    hub.push(snapshot(1, t - 2, processes=wddm), threaded=True)
    hub.push(snapshot(1, t - 1, processes=wddm), threaded=True)
    with qtbot.waitSignal(tray.notified, timeout=2000) as notified:
        hub.push(snapshot(1, t, processes=wddm), threaded=True)
    assert "spilling into system memory" in notified.args[1] and "800 MiB" in notified.args[1]
    tray.shutdown()
    tray.bridge.close()


class _NoHost:
    def read(self, pids):
        return {}


def test_the_process_view_opens_model_fit_on_the_model_a_spilling_process_runs(qtbot, context):
    window = MainWindow(context)
    qtbot.addWidget(window)
    page = window.show_page("dashboard")
    page.process_view.open_in_fit.emit("Qwen/Qwen2.5-7B-Instruct")
    assert window.current_key() == "fit"
    fit = window.page("fit")
    assert "Qwen2.5" in fit.model_box.search_edit.text()
    assert fit.model_box.model_list.count() >= 1 and "Qwen2.5-7B" in fit.model_box.model_list.currentItem().text()
    window.shutdown()
    page.bridge.close()
