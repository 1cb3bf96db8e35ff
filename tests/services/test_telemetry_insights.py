from __future__ import annotations

import pytest

from services.i18n import Catalog
from services.telemetry.history import History
from services.telemetry.insights import analyze
from services.telemetry.model import ProcessSample, SystemSample
from services.telemetry.simulated import CPU_BOUND, DISK_BOUND, STEADY_S, THERMAL, SimulatedSource

from tests.services.telemetry_helpers import sample, snap, trainer

START = 1_800_000_000.0


def feed(util_of, system_of, proc=None, seconds=120, **extra):
    h = History(capacity=1000)
    last = None
    for k in range(seconds):
        t = float(k)
        last = snap(t, sample(t, utilization_pct=util_of(k), processes=(proc or trainer(),), **extra),
                    system=system_of(k))
        h.append(last)
    return h, last


def codes(insights):
    return [i.code for i in insights]


def swing(k):
    return 0.0 if k % 4 < 2 else 95.0


def test_starved_by_cpu():
    h, last = feed(swing, lambda k: SystemSample(k, cpu_pct=97.0, iowait_pct=1.0, disk_read_mib_s=80.0))
    [ins] = analyze(h, last, last.system)
    assert ins.code == "gpu_starved_cpu" and ins.severity == "warning"
    text = str(ins.detail)
    assert "CPU is the bottleneck" in text and "97% busy" in text and "PID 4242" in text
    assert any("num_workers" in str(f) for f in ins.fixes)
    assert any("pin_memory" in str(f) for f in ins.fixes)


def test_starved_by_disk():
    h, last = feed(swing, lambda k: SystemSample(k, cpu_pct=25.0, iowait_pct=32.0, disk_read_mib_s=150.0))
    [ins] = analyze(h, last)
    assert ins.code == "gpu_starved_disk"
    assert "32%" in str(ins.detail) and "150 MiB/s" in str(ins.detail)
    assert any("SSD" in str(f) for f in ins.fixes)


def test_single_threaded_loader_in_the_process():
    h, last = feed(lambda k: 40.0, lambda k: SystemSample(k, cpu_pct=12.0, iowait_pct=0.5),
                   proc=trainer(cpu_pct=99.5))
    [ins] = analyze(h, last)
    assert ins.code == "gpu_starved_process"
    assert "one full CPU core" in str(ins.detail)


def test_nothing_visible():
    h, last = feed(swing, lambda k: SystemSample(k, cpu_pct=20.0, iowait_pct=0.5), proc=trainer(cpu_pct=40))
    [ins] = analyze(h, last)
    assert ins.code == "gpu_starved_unknown" and ins.severity == "info"
    assert "neither the CPU" in str(ins.detail)


def test_quiet_when_busy_or_no_job_or_too_little_data():
    busy_h, busy = feed(lambda k: 97.0, lambda k: SystemSample(k, cpu_pct=97.0))
    assert analyze(busy_h, busy) == []
    small = ProcessSample(1, "python", "alex", "compute", 300.0, 5.0)  # a bare context
    idle_h, idle = feed(lambda k: 0.0, lambda k: SystemSample(k, cpu_pct=5.0), proc=small)
    assert analyze(idle_h, idle) == []
    short_h, short = feed(swing, lambda k: SystemSample(k, cpu_pct=97.0), seconds=10)
    assert analyze(short_h, short) == []
    assert analyze(History(capacity=4), None) == []


def test_clocks_held_back_says_why_and_since_when():
    h = History(capacity=2000)
    last = None
    for k in range(1200):
        t = float(k)
        throttled = k >= 1100
        last = snap(t, sample(t, utilization_pct=98, sm_clock_mhz=1650 if throttled else 1860, temperature_c=84 if throttled else 76,
                              throttle_reasons=frozenset({"sw_thermal"}) if throttled else frozenset()))
        h.append(last)
    found = {i.code: i for i in analyze(h, last)}
    ins = found["clocks_throttled"]
    assert ins.since == 1100.0
    assert "Thermal limit" in str(ins.title)
    assert "1650 MHz" in str(ins.detail) and "11% below the 1860 MHz" in str(ins.detail)
    assert "running_hot" in found and "losing speed to heat" in str(found["running_hot"].title)
    zh = Catalog.load("zh_CN")
    assert zh.render(ins.detail) != str(ins.detail)  # translated


def test_unexplained_clock_drop():
    h = History(capacity=2000)
    last = None
    for k in range(200):
        t = float(k)
        last = snap(t, sample(t, utilization_pct=98, sm_clock_mhz=1500 if k == 199 else 1860,
                              throttle_reasons=frozenset()))
        h.append(last)
    assert codes(analyze(h, last)) == ["clocks_dropped"]


@pytest.fixture(scope="module")
def sim_history():
    src = SimulatedSource(start_wall=START)
    snaps = src.prehistory(STEADY_S + max(CPU_BOUND[1], DISK_BOUND[1], THERMAL[1]))
    h = History(capacity=len(snaps) + 1)
    h.load(snaps)
    return h, {round(s.t): s for s in snaps}


@pytest.mark.parametrize("offset, gpu, expected", [
    (CPU_BOUND[0] + 300, 0, "gpu_starved_cpu"),
    (DISK_BOUND[0] + 300, 1, "gpu_starved_disk"),
    (THERMAL[0] + 800, 1, "clocks_throttled"),
    (THERMAL[0] + 1300, 1, "clocks_throttled"),
])
def test_simulated_episodes_are_recognised(sim_history, offset, gpu, expected):
    h, by_t = sim_history
    now = by_t[round(START + STEADY_S + offset)]
    found = [i for i in analyze(h, now) if i.gpu_index == gpu]
    assert expected in codes(found)


def test_steady_training_is_quiet(sim_history):
    h, by_t = sim_history
    now = by_t[round(START + STEADY_S + 2000)]
    assert [i for i in analyze(h, now) if i.severity == "warning"] == []
