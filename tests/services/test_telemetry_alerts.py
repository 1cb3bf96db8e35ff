from __future__ import annotations

from services.i18n import Catalog
from services.settings import AlertSettings
from services.telemetry.alerts import AlertEngine, Rule, Severity
from services.telemetry.model import DeviceState

from tests.services.telemetry_helpers import sample, snap


def run(engine, readings):
    """readings: list of (t, sample kwargs) for GPU 0 -> alerts fired per reading."""
    return [engine.evaluate(snap(t, sample(t, **kw))) for t, kw in readings]


def test_temperature_must_last_then_fires_once_and_rearms_with_hysteresis():
    engine = AlertEngine(AlertSettings(temperature_c=83, temperature_for_s=30))
    fired = run(engine, [(t, {"temperature_c": 85}) for t in range(0, 40)])
    times = [k for k, f in enumerate(fired) if f]
    assert times == [30]  # after 30 s above the limit, once
    alert = fired[30][0]
    assert alert.rule == Rule.TEMPERATURE and alert.severity == Severity.WARNING and alert.gpu_index == 0
    assert "above 83 °C for 30 s (now 85 °C)" in str(alert.message)
    # 81 °C is under the limit but within the 3 °C margin: still the same episode
    assert not any(run(engine, [(t, {"temperature_c": 81}) for t in range(40, 50)]))
    assert not any(run(engine, [(t, {"temperature_c": 85}) for t in range(50, 100)]))
    # cooled to 79 °C: re-armed; a new episode fires again after 30 s
    run(engine, [(100, {"temperature_c": 79})])
    again = run(engine, [(t, {"temperature_c": 86}) for t in range(101, 140)])
    assert [k for k, f in enumerate(again) if f] == [30]


def test_a_short_spike_does_not_fire():
    engine = AlertEngine(AlertSettings(temperature_for_s=30))
    readings = [(t, {"temperature_c": 90 if t % 20 < 10 else 70}) for t in range(0, 200)]
    assert not any(run(engine, readings))


def test_thermal_throttle_fires_once_per_episode_and_ignores_flicker():
    engine = AlertEngine(AlertSettings())
    hot = {"throttle_reasons": frozenset({"sw_thermal"}), "temperature_c": 84}
    calm = {"throttle_reasons": frozenset(), "temperature_c": 80}
    pattern = [hot, calm, hot, calm, hot] + [calm] * 40 + [hot]
    fired = run(engine, list(enumerate(pattern)))
    rules = [a.rule for f in fired for a in f]
    assert rules == [Rule.THROTTLE_THERMAL, Rule.THROTTLE_THERMAL]  # start, then after >= 30 s clear
    assert len(engine.recent()) == 2


def test_power_cap_off_by_default_and_hw_slowdown_critical():
    engine = AlertEngine(AlertSettings())
    fired = run(engine, [(0, {"throttle_reasons": frozenset({"power_cap"})})])
    assert fired == [[]]
    fired = run(engine, [(1, {"throttle_reasons": frozenset({"hw_slowdown"})})])
    assert fired[0][0].rule == Rule.THROTTLE_HW_SLOWDOWN and fired[0][0].severity == Severity.CRITICAL
    assert "Hardware slowdown" in str(fired[0][0].message)
    engine.update_settings(AlertSettings(throttle_power=True))
    fired = run(engine, [(2, {"throttle_reasons": frozenset({"power_cap"}), "power_w": 349.6, "power_limit_w": 350})])
    assert "349.6 W of 350 W" in str(fired[0][0].message)


def test_memory_full_fan_stopped_and_unknown_reasons():
    engine = AlertEngine(AlertSettings(memory_pct=95, fan_zero_hot_c=70))
    fired = run(engine, [
        (0, {"memory_used_mib": 23500, "memory_total_mib": 24564}),  # 95.7 %
        (1, {"memory_used_mib": 23400, "memory_total_mib": 24564}),  # 95.3 %: same episode
        (2, {"memory_used_mib": 22000, "memory_total_mib": 24564}),  # 89.6 %: re-armed
        (3, {"memory_used_mib": 24000, "memory_total_mib": 24564}),
        (4, {"fan_pct": 0, "temperature_c": 75}),
        (5, {"fan_pct": None, "temperature_c": 95, "throttle_reasons": None}),  # unsupported: silent
    ])
    rules = [[a.rule for a in f] for f in fired]
    assert rules == [[Rule.MEMORY_FULL], [], [], [Rule.MEMORY_FULL], [Rule.FAN_STOPPED_HOT], []]
    assert "96% full" in str(fired[0][0].message) or "95.7% full" in str(fired[0][0].message)


def test_gpu_lost_fires_and_rearms_when_back():
    engine = AlertEngine(AlertSettings())
    fired = run(engine, [
        (0, {"state": DeviceState.LOST}),
        (1, {"state": DeviceState.LOST}),
        (2, {"utilization_pct": 10}),
        (3, {"state": DeviceState.LOST}),
    ])
    assert [len(f) for f in fired] == [1, 0, 0, 1]
    assert fired[0][0].severity == Severity.CRITICAL


def test_disabled_and_listeners_and_translation():
    engine = AlertEngine(AlertSettings(enabled=False))
    assert run(engine, [(0, {"state": DeviceState.LOST})]) == [[]]
    engine.update_settings(AlertSettings())
    got = []
    engine.add_listener(got.append)
    run(engine, [(1, {"state": DeviceState.LOST})])
    assert len(got) == 1 and got[0].to_json()["rule"] == "gpu_lost"
    zh = Catalog.load("zh_CN").render(got[0].message)
    assert "GPU 0" in zh and zh != str(got[0].message)


def test_episodes_follow_the_gpu_uuid():
    engine = AlertEngine(AlertSettings())
    a = sample(0, 0, uuid="GPU-x", state=DeviceState.LOST)
    b = sample(0, 1, uuid="GPU-y", state=DeviceState.LOST)
    assert len(engine.evaluate(snap(0, a, b))) == 2


def test_recent_by_count_and_age():
    now = [1000.0]
    engine = AlertEngine(AlertSettings(), clock=lambda: now[0])
    for t in (100.0, 900.0, 990.0):
        engine.evaluate(snap(t, sample(t, uuid=f"GPU-{t}", state=DeviceState.LOST)))
    assert [a.t for a in engine.recent()] == [100.0, 900.0, 990.0]
    assert [a.t for a in engine.recent(2)] == [900.0, 990.0]
    assert [a.t for a in engine.recent(0, within_s=60)] == [990.0]
    engine.clear()
    assert engine.recent() == []
