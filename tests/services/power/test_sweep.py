"""The efficiency sweep against the scripted NVML, nvidia-smi and workload runner."""
from __future__ import annotations

import pytest

from services.power import store
from services.power.limits import REASON_SWEEP, REFUSED_PRIVILEGE, LimitJournal, PowerLimitSetter
from services.power.model import COPY, MATMUL, PowerError, recommend, recommended_limit
from services.power.sweep import GpuAccess, SweepConfig, plan_limits, run_sweep
from services.power.workload import NO_TORCH
from services.telemetry.nvml import PowerLimits
from services.telemetry.nvml_source import NvmlSource
from tests.fakes.power_fakes import FakeClock, ScriptedWorkloadRunner, scripted_fake, smi_runner


@pytest.fixture
def machine(tmp_path):
    fake = scripted_fake()
    source = NvmlSource(fake, runtime_pm=False)
    source.open()
    gpu = GpuAccess(source, 0)
    journal = LimitJournal(tmp_path / "journal.json")
    clock = FakeClock()

    def make(refuse=None, **runner_kw):
        runner = smi_runner(fake, refuse)
        setter = PowerLimitSetter(runner, journal, "sudo", gpu.limit_w, clock=clock)
        workload = ScriptedWorkloadRunner(fake, clock, **runner_kw)
        return setter, workload, runner

    yield fake, gpu, journal, clock, make
    source.close()


def test_plan_limits_follow_the_constraints():
    limits = PowerLimits(current_w=450.0, default_w=450.0, min_w=300.0, max_w=600.0)
    assert plan_limits(limits, SweepConfig()) == [450.0, 405.0, 360.0, 315.0, 300.0]
    assert plan_limits(limits, SweepConfig(limits_w=(100, 700, 450))) == [600.0, 450.0, 300.0]
    with pytest.raises(PowerError):
        plan_limits(PowerLimits(None, None, None, None), SweepConfig())


def test_full_sweep_measures_recommends_and_restores(machine):
    fake, gpu, journal, clock, make = machine
    setter, workload, runner = make()
    sweep = run_sweep(gpu, setter, workload, SweepConfig(seconds=20), clock=clock)
    assert sweep.complete and sweep.restored is True and not sweep.notes
    assert sweep.limits_w == [450.0, 405.0, 360.0, 315.0, 270.0]
    assert fake.gpus[0].power_limit_mw == 450_000  # back where it was
    assert journal.load() == []
    matmul = sweep.points_of(MATMUL)
    assert [p.limit_w for p in matmul] == sweep.limits_w
    # Power comes from the energy counter and follows the limit (the matmul asks for all 450 W).
    assert [round(p.power_w) for p in matmul] == [450, 405, 360, 315, 270]
    assert matmul[0].value > matmul[-1].value and matmul[-1].per_watt > matmul[0].per_watt
    assert matmul[0].power_capped_share == 0.0 and matmul[-1].power_capped_share == 1.0
    # The copy asks for about 306 W: limits above that cost it nothing.
    copy = sweep.points_of(COPY)
    assert copy[0].value == copy[2].value and copy[-1].value < copy[0].value
    rec = recommend(sweep, MATMUL)
    assert rec is not None and rec.share >= 0.95 and rec.limit_w == 405.0
    assert recommend(sweep, COPY).limit_w == 270.0  # memory-bound: barely slower at 60 %
    assert recommended_limit(sweep) == 405.0
    assert recommend(sweep, MATMUL, keep_share=0.85).limit_w < 405.0
    # Commands ran as argument lists, elevated, -i index and -pl watts.
    assert runner.smi_calls[0] == ("sudo", "nvidia-smi", "-i", "0", "-pl", "405")
    assert runner.smi_calls[-1] == ("sudo", "nvidia-smi", "-i", "0", "-pl", "450")


def test_refused_privilege_measures_at_the_current_limit(machine):
    fake, gpu, journal, clock, make = machine
    setter, workload, _ = make(refuse="privilege")
    sweep = run_sweep(gpu, setter, workload, SweepConfig(seconds=10), clock=clock)
    assert not sweep.complete and sweep.restored is None
    assert {p.limit_w for p in sweep.points} == {450.0} and len(sweep.points) == 2
    assert str(REFUSED_PRIVILEGE) in str(sweep.notes[0])
    assert fake.gpus[0].power_limit_mw == 450_000 and journal.load() == []


def test_refused_by_the_driver_when_the_first_limit_needs_a_change(machine):
    fake, gpu, journal, clock, make = machine
    fake.gpus[0].power_limit_mw = 400_000  # the user runs below the default
    setter, workload, _ = make(refuse="driver")
    sweep = run_sweep(gpu, setter, workload, SweepConfig(seconds=10), clock=clock)
    assert {p.limit_w for p in sweep.points} == {400.0}  # measured where the card is
    assert "not supported in current scope" in str(sweep.notes[0])
    assert fake.gpus[0].power_limit_mw == 400_000 and journal.load() == []


def test_gpu_lost_mid_sweep_keeps_points_and_says_so(machine):
    fake, gpu, journal, clock, make = machine
    setter, workload, _ = make(lose_gpu_at=3)  # during the first job at 405 W
    sweep = run_sweep(gpu, setter, workload, SweepConfig(seconds=10), clock=clock)
    assert len(sweep.points) == 2 and not sweep.complete
    assert "stopped answering" in str(sweep.notes[0]) and "GPU is lost" in str(sweep.notes[0])
    # The card cannot be reached to restore it: the journal keeps the change for the next start.
    assert sweep.restored is False and journal.load()[0].previous_w == 450.0
    fake.gpus[0].lost = False  # it came back (a reset, a reboot would also clear the limit)
    outcomes = PowerLimitSetter(smi_runner(fake), journal, "none", gpu.limit_w).restore_interrupted_sweeps()
    assert [o.ok for o in outcomes] == [True]
    assert fake.gpus[0].power_limit_mw == 450_000 and journal.load() == []


def test_interrupted_sweep_restores_before_it_raises(machine):
    fake, gpu, journal, clock, make = machine
    setter, workload, _ = make(interrupt_at=4)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(gpu, setter, workload, SweepConfig(seconds=10), clock=clock)
    assert fake.gpus[0].power_limit_mw == 450_000 and journal.load() == []


def test_killed_sweep_is_restored_on_next_start(machine):
    fake, gpu, journal, clock, make = machine
    setter, workload, _ = make()
    # The app is killed right after setting 405 W: only the journal entry and the limit remain.
    setter.apply(0, gpu.uuid, gpu.info.name, 450.0, 405.0, REASON_SWEEP)
    assert fake.gpus[0].power_limit_mw == 405_000
    next_start = PowerLimitSetter(smi_runner(fake), journal, "none", gpu.limit_w)
    dry = next_start.restore_interrupted_sweeps(dry_run=True)
    assert dry[0].dry_run and fake.gpus[0].power_limit_mw == 405_000
    assert [o.ok for o in next_start.restore_interrupted_sweeps()] == [True]
    assert fake.gpus[0].power_limit_mw == 450_000 and journal.load() == []
    # A limit the user changed since is not touched.
    setter.apply(0, gpu.uuid, gpu.info.name, 450.0, 405.0, REASON_SWEEP)
    fake.gpus[0].power_limit_mw = 380_000
    assert next_start.restore_interrupted_sweeps() == []
    assert fake.gpus[0].power_limit_mw == 380_000 and journal.load() == []


def test_no_torch_stops_before_any_change(machine):
    fake, gpu, journal, clock, make = machine
    setter, workload, runner = make(fail=PowerError(NO_TORCH.format(python="python3")))
    with pytest.raises(PowerError, match="PyTorch is not installed"):
        run_sweep(gpu, setter, workload, SweepConfig(seconds=10), clock=clock)
    assert runner.smi_calls == [] and journal.load() == []


def test_saved_sweep_round_trips_and_compares(machine, tmp_path):
    fake, gpu, journal, clock, make = machine
    setter, workload, _ = make()
    before = run_sweep(gpu, setter, workload, SweepConfig(seconds=10, shares=(1.0, 0.7)), clock=clock)
    path = store.save(before, tmp_path / "sweeps")
    loaded = store.load(path)
    assert loaded.points == before.points and loaded.gpu_uuid == gpu.uuid
    assert store.resolve(path.name[:8], tmp_path / "sweeps") == path
    after = store.load(path)
    after.points = [p.__class__(**{**p.__dict__, "value": p.value * 1.1}) if hasattr(p, "__dict__") else p
                    for p in after.points]
    rows = store.compare(before, loaded)
    assert rows and all(r.change == 0.0 for r in rows)
    bad = tmp_path / "bad.sweep.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(PowerError, match="cannot read the sweep"):
        store.load(bad)
    assert [s.error is not None for s in store.list_saved(tmp_path)] == [True]


def test_recommendations_on_the_measured_h200_sweep():
    """tests/data/power: an H200's sweep measured with the workload script (its source is in its notes)."""
    from pathlib import Path

    sweep = store.load(Path(__file__).resolve().parents[2] / "data" / "power" / "h200-sweep.sweep.json")
    assert sweep.gpu_name == "NVIDIA H200" and "Source: measured" in sweep.notes[0]
    assert recommend(sweep, MATMUL).limit_w == 700.0  # compute-bound: 560 W keeps only 89 %
    copy = recommend(sweep, COPY)
    assert copy.limit_w == 560.0 and copy.share > 0.99 and round(100 * copy.per_watt_gain) == 7
    assert recommend(sweep, MATMUL, keep_share=0.85).limit_w == 560.0
    assert recommended_limit(sweep) == 700.0


def test_stop_ends_the_running_workload_and_restores(machine):
    fake, gpu, journal, clock, make = machine
    setter, workload, _ = make()
    ticks = []

    def should_stop() -> bool:
        ticks.append(1)
        return len(workload.jobs) >= 3  # pressed during the first job at 405 W

    sweep = run_sweep(gpu, setter, workload, SweepConfig(seconds=10), clock=clock, should_stop=should_stop)
    assert len(workload.jobs) == 3 and len(sweep.points) == 2 and not sweep.complete
    assert str(sweep.notes[0]) == "stopped before the end"
    assert sweep.restored is True and fake.gpus[0].power_limit_mw == 450_000 and journal.load() == []


def test_recommended_limits_for_the_insights(machine, tmp_path):
    fake, gpu, journal, clock, make = machine
    folder = tmp_path / "sweeps"
    assert store.recommended_limits(folder) == {}
    setter, workload, _ = make()
    store.save(run_sweep(gpu, setter, workload, SweepConfig(seconds=10), clock=clock), folder)
    (folder / "zzz-broken.sweep.json").write_text("{", encoding="utf-8")  # skipped, never raised
    assert store.recommended_limits(folder) == {gpu.uuid: 405.0}
