"""Thinning for display keeps peaks and gaps; plain-words card readings."""
from __future__ import annotations

import numpy as np

from services.telemetry import downsample, health
from services.telemetry.model import DeviceState, GpuInfo, GpuSample


def test_peak_keeps_spikes_and_bounds_the_size():
    t = np.arange(86_400, dtype=float)
    y = np.full(t.size, 95.0)
    y[40_000] = 0.0  # a one-second stall
    y[70_000] = 100.0
    t2, y2 = downsample.peak(t, y, 1000)
    assert t2.size <= 1002
    assert y2.min() == 0.0 and y2.max() == 100.0
    assert np.all(np.diff(t2) >= 0)


def test_missing_readings_stay_gaps_not_zeros():
    t = np.arange(10_000, dtype=float)
    y = np.full(t.size, 50.0)
    y[2000:4000] = np.nan
    t2, y2 = downsample.for_display(t, y, 500)
    assert np.isnan(y2).any()
    assert np.nanmin(y2) == 50.0


def test_a_jump_in_time_is_drawn_as_a_gap():
    t = np.concatenate([np.arange(100.0), np.arange(1000.0, 1100.0)])
    y = np.ones(t.size)
    t2, y2 = downsample.mark_gaps(t, y)
    assert t2.size == t.size + 1 and np.isnan(y2[100])
    assert np.all(np.diff(t2) > 0)


def test_short_series_untouched():
    t = np.arange(10.0)
    y = np.arange(10.0)
    t2, y2 = downsample.for_display(t, y, 500)
    assert np.array_equal(t2, t) and np.array_equal(y2, y)


def test_active_spans():
    t = np.arange(10.0)
    active = np.array([0, 1, 1, 0, 0, 1, 0, 0, 1, 1], dtype=bool)
    starts, ends = downsample.active_spans(t, active)
    assert list(zip(starts, ends, strict=True)) == [(1.0, 3.0), (5.0, 6.0), (8.0, 9.0)]
    assert downsample.active_spans(t, np.zeros(10, dtype=bool))[0].size == 0


INFO = GpuInfo(index=0, name="RTX", uuid="GPU-0", pcie_gen_max=4, pcie_width_max=16, temp_slowdown_c=90.0,
               memory_total_mib=24_000.0)


def _sample(**kw) -> GpuSample:
    return GpuSample(t=0.0, index=0, uuid="GPU-0", **kw)


def test_pcie_downtrained_at_idle_is_normal():
    link = health.pcie_link(INFO, _sample(utilization_pct=2.0, pcie_gen=1, pcie_width=16))
    assert link.below_max and not link.warn
    assert "normal" in str(link.message)


def test_pcie_below_max_under_load_warns():
    link = health.pcie_link(INFO, _sample(utilization_pct=90.0, pcie_gen=4, pcie_width=8))
    assert link.warn
    assert "x8" in str(link.message) and "x16" in str(link.message)


def test_pcie_at_max_under_load_is_fine_and_unknown_is_unknown():
    assert not health.pcie_link(INFO, _sample(utilization_pct=90.0, pcie_gen=4, pcie_width=16)).warn
    assert not health.pcie_link(INFO, _sample(utilization_pct=90.0)).known


def test_temperature_levels():
    assert health.temperature_level(INFO, _sample(temperature_c=70.0)) == "ok"
    assert health.temperature_level(INFO, _sample(temperature_c=82.0)) == "warm"
    assert health.temperature_level(INFO, _sample(temperature_c=91.0)) == "hot"
    no_threshold = GpuInfo(index=0, name="RTX", uuid="GPU-0")
    assert health.temperature_level(no_threshold, _sample(temperature_c=81.0)) == "warm"
    assert health.temperature_level(INFO, _sample()) == "ok"


def test_memory_fraction_uses_the_sample_total_then_the_card():
    assert health.memory_fraction(INFO, _sample(memory_used_mib=12_000.0)) == 0.5
    assert health.memory_fraction(INFO, _sample()) is None


def test_every_state_has_words():
    for state in DeviceState:
        text = health.state_text(state)
        assert str(text.title) and str(text.detail)
    assert health.state_text(DeviceState.NO_DRIVER).setup_helps
    assert not health.state_text(DeviceState.LOST).setup_helps
