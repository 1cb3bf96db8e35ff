"""The hub's replacement is an event its users follow: the in-app exporter, the dashboard's bridge
and the recorder move with demo → this computer's GPUs (NVML over a fake binding) → a recording."""
from __future__ import annotations

import argparse
import urllib.request
from pathlib import Path

from gui.app import attach_exporter, build_context
from gui.monitor.controller import TelemetryController
from services.telemetry.hub import CurrentHub
from services.telemetry.nvml_source import NvmlSource
from tests.fakes.fake_nvml import scenario

DATA = Path(__file__).resolve().parent.parent / "data"


def _scrape(context) -> str:
    server = context.exporter.server
    assert server is not None, context.exporter.status()
    with urllib.request.urlopen(server.url, timeout=5) as response:
        return response.read().decode()


def _model_names(text: str) -> set[str]:
    return {part.split('"')[1] for part in text.split("modelName=")[1:]}


def test_exporter_dashboard_and_recorder_follow_demo_then_nvml_then_replay(qtbot, app_paths, tmp_path):
    context = build_context(argparse.Namespace(demo=True), app_paths)
    settings = context.settings_store.settings
    settings.exporter.run_in_background, settings.exporter.host, settings.exporter.port = True, "127.0.0.1", 0
    settings.monitor.record_sessions = True
    # This computer's GPUs, as NVML over a fake binding (a data-centre card).
    context.telemetry_control = TelemetryController(
        context, live_source=lambda: NvmlSource(scenario("server"), sysfs_root=tmp_path),
        record=True)  # as with --record: the demo is recorded too
    control = context.telemetry_control
    demo = control.attach(start=True)
    attach_exporter(context)
    bridge = control.bridge()
    from gui.monitor.dashboard import DashboardPage

    page = DashboardPage(context.settings_store, context.paths, context.telemetry_control)  # its process view follows the hub through the bridge
    qtbot.addWidget(page)
    try:
        assert page.process_view.service is demo.processes
        qtbot.waitUntil(lambda: bool(demo.latest and demo.latest.samples), timeout=10000)
        assert _model_names(_scrape(context)) == {"NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090"}

        live = control.start_live()  # "Leave the demo"
        assert bridge.hub is live and context.telemetry is live
        assert page.process_view.service is live.processes and live.processes is not demo.processes
        assert demo.recorder is not None and demo.recorder._closed  # the demo's recording ended with it
        qtbot.waitUntil(lambda: bool(live.latest and live.latest.samples), timeout=10000)
        assert _model_names(_scrape(context)) == {"NVIDIA H100 80GB HBM3"}  # not the demo's cards, frozen
        qtbot.waitUntil(lambda: live.recorder.snapshots_written > 0, timeout=5000)  # a recording of its own

        replay = control.open_replay(str(DATA / "nvidia_smi_2gpu_thermal.csv"))
        assert bridge.hub is replay and not replay.live
        assert page.process_view.service is replay.processes
        assert replay.recorder is None  # a replay is not recorded again
        text = _scrape(context)
        assert _model_names(text) == {"NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090"}
        assert "GPU-5f58ef55-8d2a-35ab-445e-595b83844c97" in text  # the log's card, not the demo's
    finally:
        page.shutdown()
        context.exporter.stop()
        control.close()
        bridge.close()


def test_a_subscriber_hears_each_replacement_once_and_a_failing_one_does_not_stop_the_others():
    current = CurrentHub()
    heard: list[object] = []

    def broken(hub):
        raise RuntimeError("a view that was deleted")

    current.subscribe(broken)
    current.subscribe(heard.append)
    current.subscribe(heard.append)  # twice is once
    first, second = object(), object()
    current.replace(first)
    current.replace(first)  # the same hub is no replacement
    current.replace(second)
    current.unsubscribe(heard.append)
    current.replace(None)
    assert heard == [first, second] and current.hub is None
