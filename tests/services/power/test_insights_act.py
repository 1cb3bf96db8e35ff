"""Insights that act: a lower power limit offered for heat and power caps, cables and the PSU page
for a hardware slowdown, and hot memory named apart from the core."""
from __future__ import annotations

from services.telemetry.history import History
from services.telemetry.insights import analyze
from tests.services.telemetry_helpers import sample, snap


def run(reason: str, seconds: int = 200, **fields):
    h = History(capacity=2000)
    last = None
    for k in range(seconds):
        t = float(k)
        last = snap(t, sample(t, utilization_pct=98, sm_clock_mhz=1650, temperature_c=84, power_limit_w=450.0,
                              throttle_reasons=frozenset({reason}), **fields))
        h.append(last)
    return h, last


def test_thermal_throttle_offers_ten_percent_lower_without_a_sweep():
    h, last = run("sw_thermal")
    found = {i.code: i for i in analyze(h, last)}
    ins = found["clocks_throttled"]
    assert ins.suggested_limit_w == 405.0
    assert any("power --set-limit 405 --gpu 0" in str(f) and "power --sweep" in str(f) for f in ins.fixes)
    assert found["running_hot"].suggested_limit_w == 405.0


def test_power_cap_offers_the_sweeps_recommendation():
    h, last = run("power_cap")
    [ins] = [i for i in analyze(h, last, sweep_limits={"GPU-aaaa": 360.0}) if i.code == "clocks_throttled"]
    assert ins.severity == "info" and ins.suggested_limit_w == 360.0
    assert any("--set-limit 360" in str(f) and "your sweep recommends" in str(f) for f in ins.fixes)
    assert ins.to_json()["suggested_limit_w"] == 360.0


def test_hw_slowdown_points_at_cables_and_the_psu_page():
    h, last = run("hw_slowdown")
    [ins] = [i for i in analyze(h, last) if i.code == "clocks_throttled"]
    text = " ".join(str(f) for f in ins.fixes)
    assert "power cables" in text and "Build & PSU page" in text and ins.suggested_limit_w is None


def test_hot_memory_is_named_apart_from_the_core():
    h, last = run("power_cap", memory_temperature_c=92.0)
    [ins] = [i for i in analyze(h, last) if i.code == "memory_hot"]
    assert "memory is at 92 °C (the core is at 84 °C)" in str(ins.title)
    short_h, short = run("power_cap", seconds=10, memory_temperature_c=92.0)
    assert "memory_hot" not in [i.code for i in analyze(short_h, short)]
    cool_h, cool = run("power_cap", memory_temperature_c=70.0)
    assert "memory_hot" not in [i.code for i in analyze(cool_h, cool)]
