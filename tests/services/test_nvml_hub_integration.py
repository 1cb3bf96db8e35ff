"""NvmlSource inside the real hub, history and alert engine (fake NVML underneath)."""
from __future__ import annotations

import math

from services.settings import AlertSettings
from services.telemetry.alerts import AlertEngine, Rule
from services.telemetry.hub import TelemetryHub
from services.telemetry.model import DeviceState
from services.telemetry.nvml_source import NvmlSource
from tests.fakes.fake_nvml import FakeNvml


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_gpu_lost_and_back_through_hub_history_and_alerts(tmp_path):
    clock = Clock()
    wall = Clock()
    wall.t = 1_700_000_000.0
    fake = FakeNvml(2)
    source = NvmlSource(fake, sysfs_root=tmp_path, clock=clock)
    hub = TelemetryHub(source, fast_interval_s=1.0, slow_interval_s=5.0, clock=clock, wall=wall)
    engine = AlertEngine(AlertSettings(), clock=wall)
    fired = []
    hub.add_listener(lambda snap: fired.extend(engine.evaluate(snap)))
    states = []
    try:
        for second in range(20):
            if second == 5:
                fake.gpus[1].lost = True
            if second == 9:
                fake.gpus[1].lost = False
            snap = hub.tick()
            if snap is not None:
                states.append([s.state for s in snap.samples])
            clock.t += 1.0
            wall.t += 1.0
    finally:
        hub.stop()
    assert states[0] == [DeviceState.OK, DeviceState.OK]
    assert [DeviceState.OK, DeviceState.LOST] in states
    assert states[-1] == [DeviceState.OK, DeviceState.OK]  # recovered after the backoff
    assert any(a.rule is Rule.GPU_LOST and a.gpu_index == 1 for a in fired)
    assert hub.history.gpu_count >= 2
    _, util = hub.history.series(1, "utilization_pct")
    values = list(util)
    assert any(math.isnan(v) for v in values)  # the outage is a gap, not zeros
    assert values[-1] == 87
    assert 0 not in values
