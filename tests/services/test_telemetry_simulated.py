from __future__ import annotations

import pytest

from services.telemetry.history import History
from services.telemetry.model import DeviceState, Tier
from services.telemetry.simulated import (
    CPU_BOUND,
    CYCLE_S,
    EVAL_EVERY_S,
    STEADY_S,
    THERMAL,
    SimulatedSource,
)

START = 1_800_000_000.0
ALL = Tier.FAST | Tier.SLOW | Tier.STATIC


@pytest.fixture(scope="module")
def run():
    """The first 4 h 10 min of the simulated run at 1 Hz, in a History."""
    src = SimulatedSource(seed=0, start_wall=START)
    snaps = src.prehistory(STEADY_S + CYCLE_S)
    history = History(capacity=len(snaps) + 1)
    history.load(snaps)
    return src, snaps, history


def test_same_seed_and_time_give_the_same_reading():
    a = SimulatedSource(seed=7, start_wall=START).read(ALL, START + 5000.5)
    b = SimulatedSource(seed=7, start_wall=START).read(ALL, START + 5000.5)
    c = SimulatedSource(seed=8, start_wall=START).read(ALL, START + 5000.5)
    assert a == b
    assert a.samples != c.samples


def test_real_cards_with_their_limits():
    src = SimulatedSource(start_wall=START)
    g0, g1 = src.devices()
    assert g0.name == "NVIDIA GeForce RTX 4090" and g0.power_limit_default_w == 450
    assert g0.sm_clock_max_mhz == 3105 and g0.memory_total_mib == 24564
    assert g1.name == "NVIDIA GeForce RTX 3090" and g1.power_limit_default_w == 350
    assert g1.temp_slowdown_c == 95 and g1.pcie_gen_max == 4 and g1.pcie_width_max == 16
    assert g0.uuid != g1.uuid and g0.uuid.startswith("GPU-")


def test_thermal_episode_sw_thermal_then_power_cap(run):
    _, _, h = run
    a, b = START + STEADY_S + THERMAL[0], START + STEADY_S + THERMAL[1]
    thermal = h.throttle_intervals(1, "sw_thermal", a, b)
    power = h.throttle_intervals(1, "power_cap", a, b)
    assert thermal and power
    assert sum(e - s for s, e in thermal) > 300  # minutes of it, not a blip
    assert thermal[0][0] < power[0][0]  # heat first, then the power limit
    _, temp = h.series(1, "temperature_c", a, b)
    assert temp.max() >= 84
    longest = max(thermal, key=lambda span: span[1] - span[0])
    t, clock = h.series(1, "sm_clock_mhz", longest[0], longest[1])
    assert clock.min() < 1860 - 100  # clocks drop while throttled
    # GPU 0 stays cool and unthrottled by heat
    assert h.throttle_intervals(0, "sw_thermal") == []
    seconds = h.seconds_in_reason(1)
    assert seconds["sw_thermal"] > 300 and seconds["power_cap"] > 300


def test_eval_process_comes_and_goes(run):
    _, snaps, _ = run
    eval_pids = []
    for s in snaps[int(STEADY_S)::10]:
        procs = s.samples[0].processes
        eval_pids.append(next((p.pid for p in procs if p.name == "python eval.py"), None))
    present = [p is not None for p in eval_pids]
    starts = sum(1 for x, y in zip(present, present[1:], strict=False) if not x and y)
    ends = sum(1 for x, y in zip(present, present[1:], strict=False) if x and not y)
    assert starts >= CYCLE_S / EVAL_EVERY_S - 1 and ends >= starts - 1
    distinct = {p for p in eval_pids if p is not None}
    assert len(distinct) >= 2  # a new process each time, as a real job would be
    # memory use rises while it runs
    with_eval = next(s for s in snaps[int(STEADY_S):] if any(p.name == "python eval.py" for p in s.samples[0].processes))
    without = next(s for s in snaps[int(STEADY_S):] if not any(p.name == "python eval.py" for p in s.samples[0].processes))
    assert with_eval.samples[0].memory_used_mib > without.samples[0].memory_used_mib + 2000


def test_gpu1_runs_below_its_pcie_link_under_load(run):
    src, snaps, _ = run
    busy = snaps[int(STEADY_S) + 60]
    g0, g1 = busy.samples
    info1 = src.devices()[1]
    assert (g0.pcie_gen, g0.pcie_width) == (4, 16)
    assert (g1.pcie_gen, g1.pcie_width) == (3, 8)
    assert g1.pcie_width < info1.pcie_width_max and g1.utilization_pct > 80
    idle = snaps[10].samples[0]
    assert idle.pcie_gen == 1 and "gpu_idle" in idle.throttle_reasons


def test_cpu_bottleneck_episode_is_visible(run):
    _, _, h = run
    a, b = START + STEADY_S + CPU_BOUND[0], START + STEADY_S + CPU_BOUND[1]
    _, cpu = h.system_series("cpu_pct", a, b)
    _, util = h.series(0, "utilization_pct", a, b)
    assert cpu.mean() > 90
    assert (util <= 5).mean() > 0.2 and util.max() > 80  # swinging to 0 and back
    _, cpu_before = h.system_series("cpu_pct", a - 600, a - 1)
    assert cpu_before.mean() < 60


def test_fast_only_reads_leave_slow_fields_empty():
    src = SimulatedSource(start_wall=START)
    g = src.read(Tier.FAST, START + 1000).samples[0]
    assert g.fan_pct is None and g.processes is None and g.utilization_pct is not None
    assert g.memory_temperature_c is None  # not reported by GeForce through NVML


def test_energy_counter_grows_with_power():
    src = SimulatedSource(start_wall=START)
    e1 = src.read(ALL, START + 1000).samples[0].energy_j
    e2 = src.read(ALL, START + 1010).samples[0].energy_j
    assert 10 * 300 < e2 - e1 < 10 * 460  # ten seconds at 300-460 W


def test_gpu_lost_window_and_zero_gpus():
    src = SimulatedSource(start_wall=START, gpu_lost_window=(100.0, 200.0))
    assert src.read(ALL, START + 150).samples[1].state == DeviceState.LOST
    assert src.read(ALL, START + 250).samples[1].state == DeviceState.OK
    empty = SimulatedSource(gpus=0, start_wall=START).read(ALL, START)
    assert empty.samples == () and empty.status.state == DeviceState.OK


def test_energy_stays_consistent_across_cycles_and_days():
    src = SimulatedSource(start_wall=START)
    edge = START + STEADY_S + CYCLE_S
    readings = [src.read(ALL, edge + k).samples[1] for k in range(-3, 4)]
    energy = [g.energy_j for g in readings]
    assert all(b > a for a, b in zip(energy, energy[1:], strict=False))
    for a, b in zip(readings, readings[1:], strict=False):  # each second's energy matches the power drawn then
        low, high = sorted((a.power_w, b.power_w))
        assert low - 15 <= b.energy_j - a.energy_j <= high + 15
    week = src.read(ALL, START + 7 * 86400).samples[0].energy_j  # no week-long catch-up loop
    assert week > energy[-1]
    assert len(src._energy[0]) <= STEADY_S + CYCLE_S + 2
