"""The controller the pages use to replace the telemetry hub (demo, live, replay)."""
from __future__ import annotations

import argparse

import pytest

from gui.app import build_context


def test_hubs_are_replaced_in_order_and_the_bridge_follows(qtbot, app_paths, tmp_path):
    context = build_context(argparse.Namespace(demo=False), app_paths)
    control = context.telemetry_control
    first = control.attach(start=False)
    bridge = control.bridge()
    assert bridge.hub is first and control.hub is first
    try:
        with qtbot.waitSignal(bridge.hub_changed, timeout=1000) as changed:
            demo = control.start_demo()
        assert changed.args == [demo] and context.telemetry is demo and context.demo
        with pytest.raises(ValueError):  # an unreadable file says why and keeps the monitoring
            control.open_replay(str(tmp_path / "missing.csv"))
        assert context.telemetry is demo and bridge.hub is demo
        assert demo.running
        again = control.restart()  # back to the live choice: still the demo
        assert again is not demo and context.demo and bridge.hub is again
        assert not demo.running  # the replaced hub stopped sampling
        live = control.start_live()
        assert not context.demo and bridge.hub is live and context.telemetry is live
    finally:
        control.stop()
        bridge.close()
