"""The whole pipeline on the fake NVML: NvmlSource -> hub -> history, alerts, recording.

A GPU is lost mid-run and comes back; a card overheats and throttles. Checks
what the dashboard and the sessions command will see.
"""
from __future__ import annotations

import math

from services.settings import AlertSettings
from services.telemetry.alerts import AlertEngine, Rule
from services.telemetry.hub import TelemetryHub
from services.telemetry.model import DeviceState
from services.telemetry.nvml_source import NvmlSource
from services.telemetry.recorder import Recorder
from services.telemetry.session_store import SessionStore
from tests.fakes.fake_nvml import FakeNvml, FakeProcess


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def build(tmp_path, fake):
    mono, wall = Clock(1000.0), Clock(1_800_000_000.0)
    source = NvmlSource(fake, sysfs_root=tmp_path, clock=mono, runtime_pm=False)
    hub = TelemetryHub(source, clock=mono, wall=wall)
    engine = AlertEngine(AlertSettings(temperature_c=83, temperature_for_s=5), clock=wall)
    recorder = Recorder(tmp_path / "recordings", clock=mono)
    hub.alerts, hub.recorder = engine, recorder
    hub.add_listener(recorder.on_snapshot)
    hub.add_listener(engine.evaluate)
    hub.add_stop_callback(recorder.close)

    def step(n: int = 1) -> None:
        for _ in range(n):
            mono.t += 1.0
            wall.t += 1.0
            hub.tick()

    return hub, engine, step


def test_gpu_lost_and_back_through_the_whole_pipeline(tmp_path):
    fake = FakeNvml(2)
    hub, engine, step = build(tmp_path, fake)
    hub.tick()
    assert [g.name for g in hub.devices] == ["NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 4090"]
    step(9)
    fake.gpus[1].lost = True
    step(5)
    assert hub.latest.samples[1].state == DeviceState.LOST
    lost_alerts = [a for a in engine.recent() if a.rule == Rule.GPU_LOST]
    assert len(lost_alerts) == 1 and lost_alerts[0].gpu_index == 1
    fake.gpus[1].lost = False
    step(30)  # past the source's retry back-off
    assert [s.state for s in hub.latest.samples] == [DeviceState.OK, DeviceState.OK]
    t, util = hub.history.series(1, "utilization_pct")
    assert util[0] == 87 and math.isnan(util[12]) and util[-1] == 87  # a gap, not zeros
    _, util0 = hub.history.series(0, "utilization_pct")
    assert not any(math.isnan(v) for v in util0)  # the other GPU kept working
    fake.gpus[1].lost = True
    step(3)
    assert len([a for a in engine.recent() if a.rule == Rule.GPU_LOST]) == 2  # re-armed
    hub.stop()
    [session] = SessionStore(tmp_path / "recordings").list()
    assert session.samples == len(hub.history)
    summary = SessionStore(tmp_path / "recordings").summary(session.id)
    assert summary.gpus[0].throttle_seconds["power_cap"] > 40  # the fake reports SwPowerCap


def test_overheating_card_throttles_alerts_and_carries_slow_fields(tmp_path):
    fake = FakeNvml(1)
    gpu = fake.gpus[0]
    hub, engine, step = build(tmp_path, fake)
    hub.tick()
    reads_before = fake.calls["nvmlDeviceGetFanSpeed"]
    step(4)
    # Fan and processes are SLOW fields: read every fifth second, carried over in between.
    assert fake.calls["nvmlDeviceGetFanSpeed"] == reads_before
    assert hub.latest.samples[0].fan_pct == 64
    step(1)
    assert fake.calls["nvmlDeviceGetFanSpeed"] == reads_before + 1
    assert hub.latest.samples[0].processes[0].pid == 4242
    gpu.temperature, gpu.throttle_mask, gpu.sm_clock = 86, 0x20, 2100  # SwThermalSlowdown
    gpu.compute = [FakeProcess(4242, 17000 * 2**20), FakeProcess(5151, 3000 * 2**20)]
    step(10)
    rules = [a.rule for a in engine.recent()]
    assert rules.count(Rule.THROTTLE_THERMAL) == 1 and rules.count(Rule.TEMPERATURE) == 1
    spans = hub.history.throttle_intervals(0, "sw_thermal")
    assert len(spans) == 1 and spans[0][1] - spans[0][0] >= 9
    assert hub.history.seconds_in_reason(0)["sw_thermal"] >= 9
    assert {p.pid for p in hub.latest.samples[0].processes} == {4242, 5151}
    hub.stop()


def test_no_driver_is_a_state_and_the_hub_keeps_trying(tmp_path):
    from tests.fakes.fake_nvml import NVML_ERROR_LIBRARY_NOT_FOUND

    fake = FakeNvml(1, init_error=NVML_ERROR_LIBRARY_NOT_FOUND)
    hub, engine, step = build(tmp_path, fake)
    snap = hub.tick()
    assert snap.status.state == DeviceState.NO_DRIVER and snap.samples == ()
    step(40)
    # One retry loop (NvmlSource's, 2 s doubling): tries at 0, 2, 6, 14 and 30 s, not one per loop per tick.
    assert fake.calls["nvmlInitWithFlags"] == 5
    fake.init_error = None  # the driver got installed
    step(30)
    assert hub.status.state == DeviceState.OK
    assert hub.latest.samples[0].utilization_pct == 87
    hub.stop()
