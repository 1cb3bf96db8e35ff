from __future__ import annotations

import math

import numpy as np
import pytest

from services.telemetry.history import METRICS, UNKNOWN_BIT, History
from services.telemetry.model import GpuSample

from tests.services.telemetry_helpers import sample, snap


def test_metric_names_are_gpu_sample_fields():
    fields = set(GpuSample.__dataclass_fields__)
    assert set(METRICS) <= fields


def test_append_and_series_keep_none_as_nan():
    h = History(capacity=10)
    h.append(snap(100.0, sample(100.0, utilization_pct=50, temperature_c=None)))
    h.append(snap(101.0, sample(101.0, utilization_pct=60, temperature_c=70)))
    t, y = h.series(0, "utilization_pct")
    assert t.tolist() == [100.0, 101.0]
    assert y.tolist() == [50.0, 60.0]
    _, temp = h.series(0, "temperature_c")
    assert math.isnan(temp[0]) and temp[1] == 70
    assert y.dtype == np.float32 and t.dtype == np.float64


def test_ring_wraps_and_stays_chronological():
    h = History(capacity=5)
    for k in range(12):
        h.append(snap(float(k), sample(float(k), utilization_pct=k)))
    t, y = h.series(0, "utilization_pct")
    assert t.tolist() == [7.0, 8.0, 9.0, 10.0, 11.0]
    assert y.tolist() == [7.0, 8.0, 9.0, 10.0, 11.0]
    assert len(h) == 5
    assert h.time_range() == (7.0, 11.0)


def test_window_across_the_wrap_point():
    h = History(capacity=6)
    for k in range(9):
        h.append(snap(float(k), sample(float(k), power_w=k * 10)))
    t, y = h.series(0, "power_w", t0=4.5, t1=7.0)
    assert t.tolist() == [5.0, 6.0, 7.0]
    assert y.tolist() == [50.0, 60.0, 70.0]
    t, _ = h.series(0, "power_w", t0=100.0)
    assert t.size == 0


def test_returned_arrays_are_copies():
    h = History(capacity=3)
    h.append(snap(1.0, sample(1.0, utilization_pct=1)))
    _, y = h.series(0, "utilization_pct")
    for k in range(2, 6):
        h.append(snap(float(k), sample(float(k), utilization_pct=k)))
    assert y.tolist() == [1.0]


def test_gpu_missing_from_a_snapshot_is_a_gap_not_a_stale_value():
    h = History(capacity=10)
    h.append(snap(1.0, sample(1.0, 0, utilization_pct=10), sample(1.0, 1, utilization_pct=90)))
    h.append(snap(2.0, sample(2.0, 0, utilization_pct=20)))
    _, y1 = h.series(1, "utilization_pct")
    assert y1[0] == 90 and math.isnan(y1[1])
    assert h.gpu_count == 2


def test_unknown_gpu_or_metric():
    h = History(capacity=4)
    h.append(snap(1.0, sample(1.0, utilization_pct=10)))
    t, y = h.series(5, "utilization_pct")
    assert t.tolist() == [1.0] and math.isnan(y[0])
    with pytest.raises(KeyError):
        h.series(0, "no_such_metric")


def test_throttle_intervals_and_seconds():
    h = History(capacity=100)
    pattern = [set(), {"sw_thermal"}, {"sw_thermal"}, {"sw_thermal", "power_cap"}, {"power_cap"}, set(), None,
               {"sw_thermal"}]
    for k, reasons in enumerate(pattern):
        codes = None if reasons is None else frozenset(reasons)
        h.append(snap(float(k), sample(float(k), throttle_reasons=codes)))
    assert h.throttle_intervals(0, "sw_thermal") == [(1.0, 4.0), (7.0, 7.0)]
    assert h.throttle_intervals(0, "power_cap") == [(3.0, 5.0)]
    assert h.throttle_intervals(0, "power_cap", t0=4.0) == [(4.0, 5.0)]
    seconds = h.seconds_in_reason(0)
    # rows 1, 2, 3 and 7 each charge the 1 s since the previous row
    assert seconds["sw_thermal"] == 4.0
    assert seconds["power_cap"] == 2.0
    assert seconds["gpu_idle"] == 0.0
    _, masks = h.throttle_masks(0)
    assert masks[6] & UNKNOWN_BIT


def test_long_gaps_are_not_counted_as_throttled_time():
    h = History(capacity=10)
    h.append(snap(0.0, sample(0.0, throttle_reasons=frozenset({"power_cap"}))))
    h.append(snap(3600.0, sample(3600.0, throttle_reasons=frozenset({"power_cap"}))))
    h.append(snap(3601.0, sample(3601.0, throttle_reasons=frozenset({"power_cap"}))))
    assert h.seconds_in_reason(0)["power_cap"] == 1.0


def test_load_replaces_and_latest():
    h = History(capacity=10)
    h.append(snap(1.0, sample(1.0, utilization_pct=5)))
    snaps = [snap(float(k), sample(float(k), utilization_pct=k)) for k in range(10, 13)]
    h.load(snaps)
    assert h.times().tolist() == [10.0, 11.0, 12.0]
    assert h.latest() is snaps[-1]


def test_system_series():
    from services.telemetry.model import SystemSample

    h = History(capacity=10)
    h.append(snap(1.0, sample(1.0), system=SystemSample(1.0, cpu_pct=50.0, iowait_pct=None)))
    h.append(snap(2.0, sample(2.0)))
    t, cpu = h.system_series("cpu_pct")
    assert cpu[0] == 50 and math.isnan(cpu[1])


def test_24h_two_gpus_fits_the_memory_budget():
    h = History()  # default capacity: at least 24 h at 1 Hz
    assert h.capacity >= 24 * 3600
    h.append(snap(0.0, sample(0.0, 0), sample(0.0, 1)))
    assert h.nbytes() < 100 * 2**20
    # 8 GPUs also stay bounded (allocated only when seen)
    h8 = History()
    assert h8.nbytes() < 5 * 2**20


def test_a_clock_stepping_back_keeps_the_axis_sorted():
    h = History(capacity=10)
    for t in (10.0, 11.0, 5.0, 12.0):
        h.append(snap(t, sample(t, utilization_pct=t)))
    t, y = h.series(0, "utilization_pct", t0=11.0)
    assert t.tolist() == [11.0, 11.0, 12.0]
    assert y.tolist() == [11.0, 5.0, 12.0]
