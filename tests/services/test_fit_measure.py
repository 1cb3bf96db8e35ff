"""Estimate, then measure: a real child process measured through the fake NVML (nvidia-ml-py level),
stored, listed, exported, and fed back into later estimates."""
from __future__ import annotations

import csv
import json
import os
import sys
from types import SimpleNamespace

import psutil
import pytest

from main import main
from services.modelfit.calibration import Calibration, calibrate, compare, known_for
from services.modelfit.estimate import estimate
from services.modelfit.request import FitRequest
from services.modelfit.catalogue import default_catalogue
from services.modelfit.errors import MeasureError
from services.modelfit.measure import Measurement, revealed_versions, run_to_end
from services.modelfit.probes import NvmlProcessProbe, ProbeReading, WindowsCounterProbe
from services.modelfit.request import GIB
from services.modelfit.measurements import MeasurementStore, export_csv, record, thin
from services.paths import AppPaths
from tests.fakes.fake_nvml import FakeNvml, FakeProcess, make_gpu

# The child starts a grandchild, both stay a little over a second, then exit with code 3.
# On Windows a venv's python.exe is a launcher that starts the base interpreter as its own child
# (https://docs.python.org/3/library/venv.html#how-venvs-work): one process more in the tree than the
# fake NVML's model of it. The children here need only the standard library: run the base interpreter.
PYTHON = getattr(sys, "_base_executable", sys.executable) if sys.platform == "win32" else sys.executable
CHILD = ("import subprocess, sys, time; "
         "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(1.2)']); "
         "time.sleep(1.2); p.wait(); sys.exit(3)")
# Memory the parent holds on each of its successive reads: rises to 5 GiB and falls back.
RISE_FALL_GIB = (0.5, 1, 2, 3, 5, 3, 1)
GRANDCHILD_GIB = 2.0


class TreeNvml(FakeNvml):
    """The fake NVML reporting this test's child processes: the direct child's memory follows
    RISE_FALL_GIB read by read, each grandchild holds GRANDCHILD_GIB; an unrelated process 4242
    holds 17 GiB that must not be counted."""

    def __init__(self, *args, lose_after: int | None = None, **kw):
        super().__init__(*args, **kw)
        self.reads = 0
        self.steps = 0
        self.lose_after = lose_after

    def _processes(self, handle, symbol, kind):
        if kind == "compute":
            self.reads += 1
            if self.lose_after is not None and self.reads > self.lose_after:
                handle.gpu.lost = True
            procs = [FakeProcess(4242, 17 * 2**30)]
            for child in psutil.Process(os.getpid()).children(recursive=False):
                try:
                    grandchildren = child.children(recursive=True)
                except psutil.Error:  # the child has just ended (Windows says so, Linux returns [])
                    grandchildren = []
                # The child's steps wait for its grandchild (Python starts slowly under Wine).
                self.steps += bool(grandchildren)
                step = min(self.steps, len(RISE_FALL_GIB) - 1)
                procs.append(FakeProcess(child.pid, int(RISE_FALL_GIB[step] * GIB)))
                for grandchild in grandchildren:
                    procs.append(FakeProcess(grandchild.pid, int(GRANDCHILD_GIB * GIB)))
            handle.gpu.compute = procs
        return super()._processes(handle, symbol, kind)


def _run_cli(capsys, *args):
    try:
        code = main(["fit", *args])
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def _store() -> MeasurementStore:
    return MeasurementStore(AppPaths.default().recordings_dir)


def test_a_child_whose_memory_rises_and_falls_is_measured_end_to_end(capsys, monkeypatch, tmp_path):
    fake = TreeNvml([make_gpu(0)])
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    code, out, err = _run_cli(capsys, "--model", "Qwen/Qwen2.5-0.5B", "--seq", "2048", "--measure",
                              "--cwd", str(tmp_path), "--env", "MEASURE_TEST=1", "--versions", "torch=9.9",
                              "--", PYTHON, "-c", CHILD)
    assert code == 3, err  # the command's own exit code
    assert "Traceback" not in err
    assert "Needs" in out and "Measured: measured" in out
    rows = _store().list()
    assert len(rows) == 1
    row = rows[0]
    # The peak: the child's 5 GiB plus the grandchild's 2 GiB, never the unrelated 17 GiB.
    assert row.peak_gib == pytest.approx(5 + GRANDCHILD_GIB, abs=0.01)
    assert row.exit_code == 3 and row.status == "measured"
    assert row.command == [PYTHON, "-c", CHILD] and row.cwd == str(tmp_path)
    assert row.settings["seq"] == 2048 and row.engine == "transformers" and row.model == "Qwen/Qwen2.5-0.5B"
    assert row.versions["given"] == "torch=9.9" and row.driver == "560.35.03"
    assert row.gpu_name and max(p[1] for p in row.curve) == pytest.approx(7.0, abs=0.01)
    assert f"{row.estimate_gib:.2f}" in out and "off" in out


def test_a_command_that_never_touches_the_gpu_or_ends_at_once(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", FakeNvml([make_gpu(0)]))
    code, out, err = _run_cli(capsys, "--params-b", "1", "--measure", "--", PYTHON, "-c", "pass")
    assert code == 0 and "Traceback" not in err
    if sys.platform != "win32":  # under Wine Python alone takes over a second to start and end
        assert "ended at once" in out and _store().list()[-1].status == "exited_at_once"
    else:
        assert _store().list()[-1].status in ("exited_at_once", "no_gpu")


def test_a_command_that_does_not_exist(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", FakeNvml([make_gpu(0)]))
    code, _, err = _run_cli(capsys, "--params-b", "1", "--measure", "--", "no-such-command-xyz", "--flag")
    assert code == 2 and "command not found: no-such-command-xyz" in err and "Traceback" not in err


def test_a_pid_that_is_gone(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", FakeNvml([make_gpu(0)]))
    gone = psutil.Popen([PYTHON, "-c", "pass"])
    gone.wait()
    code, _, err = _run_cli(capsys, "--params-b", "1", "--measure", "--pid", str(gone.pid))
    assert code == 2 and f"process {gone.pid} is not running" in err and "Traceback" not in err


def test_no_driver_is_exit_3_and_the_command_is_not_run(capsys, monkeypatch, tmp_path):
    from tests.fakes.fake_nvml import NVML_ERROR_LIBRARY_NOT_FOUND

    monkeypatch.setitem(sys.modules, "pynvml", FakeNvml(0, init_error=NVML_ERROR_LIBRARY_NOT_FOUND))
    marker = tmp_path / "ran"
    code, _, err = _run_cli(capsys, "--params-b", "1", "--measure", "--", PYTHON, "-c",
                            f"open({str(marker)!r}, 'w')")
    assert code == 3 and "NVIDIA driver not found" in err and not marker.exists()


def test_usage_errors_are_one_line(capsys):
    for args, text in ((["--params-b", "1", "--", "python"], "only with --measure"),
                       (["--params-b", "1", "--measure"], "needs a command"),
                       (["--params-b", "1", "--measure", "--pid", "x"], "--pid must be a whole number"),
                       (["--params-b", "1", "--measure", "--env", "NOVALUE", "--", "python"], "NAME=VALUE")):
        code, _, err = _run_cli(capsys, *args)
        assert code == 2 and text in err and "Traceback" not in err, (args, err)


def test_a_gpu_lost_mid_run_keeps_what_was_measured(monkeypatch):
    fake = TreeNvml([make_gpu(0)], lose_after=3)
    probe = NvmlProcessProbe(fake)
    run = Measurement.launch(probe, [PYTHON, "-c", CHILD])
    result = run_to_end(run, interval_s=0.1)
    assert result.status == "gpu_lost" and result.exit_code == 3
    assert result.peak_busiest_gib is not None and result.peak_busiest_gib >= 0.5  # what it had before the loss
    assert any("fallen off the bus" in str(n) for n in result.notes)


def test_attach_follows_a_running_process_and_another_users_process_is_said(monkeypatch):
    fake = TreeNvml([make_gpu(0)])
    child = psutil.Popen([PYTHON, "-c", CHILD])
    try:
        monkeypatch.setattr("services.modelfit.measure.current_user", lambda: "somebody-else")
        run = Measurement.attach(NvmlProcessProbe(fake), child.pid)
        result = run_to_end(run, interval_s=0.1)
    finally:
        child.wait()
    assert result.status == "measured" and result.exit_code is None  # not our child: no exit code to read
    assert result.peak_busiest_gib == pytest.approx(5 + GRANDCHILD_GIB, abs=0.01)
    assert any("belongs to" in str(n) for n in result.notes)


def test_memory_the_driver_does_not_tell_is_said():
    class Probe:
        def gpus(self):
            from services.modelfit.probes import GpuRef
            return (GpuRef("GPU-1", 0, "RTX"),)

        def read(self):
            return ProbeReading({"GPU-1": {os.getpid(): None}})

        def versions(self):
            return {}

    run = Measurement(Probe(), os.getpid())
    run.sample()
    result = run.finish(stopped=True)
    assert result.status == "stopped" and result.unknown_memory
    assert any("without its memory" in str(n) for n in result.notes)


def test_windows_counters_in_the_real_instance_format_sum_a_tree():
    pid = os.getpid()
    sample = SimpleNamespace(engine_utilization={}, shared_bytes={}, dedicated_bytes={
        f"pid_{pid}_luid_0x00000000_0x0000C3B1_phys_0": 3.5 * GIB,
        "pid_4242_luid_0x00000000_0x0000C3B1_phys_0": 9 * GIB,
        f"pid_{pid}_luid_0x00000000_0x0000D0F2_phys_0": 0.25 * GIB,
        "not an instance": 1.0,
    })
    source = SimpleNamespace(sample=lambda interval: sample)
    probe = WindowsCounterProbe(source, {"0x00000000_0x0000C3B1": "NVIDIA GeForce RTX 4070 Laptop GPU"})
    run = Measurement(probe, pid)
    run.sample()
    result = run.finish(stopped=True)
    assert result.peak_gib["0x00000000_0x0000C3B1"] == pytest.approx(3.5)
    assert result.peak_gib["0x00000000_0x0000D0F2"] == pytest.approx(0.25)
    assert result.gpu("0x00000000_0x0000C3B1").name.startswith("NVIDIA GeForce RTX 4070")


def test_unreadable_windows_counters_are_a_note_not_a_crash():
    def broken(interval):
        raise OSError("PdhAddEnglishCounterW failed: 0xC0000BB8")

    run = Measurement(WindowsCounterProbe(SimpleNamespace(sample=broken)), os.getpid())
    run.sample()
    result = run.finish()
    assert result.status == "gpu_lost" and any("counters could not be read" in str(n) for n in result.notes)


def test_no_gpu_at_all_is_a_measure_error():
    with pytest.raises(MeasureError, match="no NVIDIA GPU"):
        NvmlProcessProbe(FakeNvml(0))


# ---------------------------------------------------------------- storage, CSV, calibration
def _est(seq=4096, batch=1, engine="transformers", task="inference"):
    arch = default_catalogue().resolve("Qwen/Qwen2.5-7B").arch
    return estimate(arch, FitRequest(task=task, engine=engine, seq=seq, batch=batch, method="lora" if task == "train" else "full"))


def _stored(est, peak, status="measured", exit_code=0):
    from services.modelfit.measure import MeasureResult, MemorySample
    from services.modelfit.probes import GpuRef

    res = MeasureResult((GpuRef("GPU-1", 0, "NVIDIA H200", 140.0),))
    if peak is not None:
        res.peak_gib["GPU-1"] = peak
        res.samples.append(MemorySample(0.5, {"GPU-1": peak}))
    res.status, res.exit_code = status, exit_code
    return record(est, res, command=["python", "x.py"], cwd=None, pid=1)


def test_store_lists_exports_and_deletes(tmp_path):
    store = MeasurementStore(tmp_path)
    a = store.add(_stored(_est(), 16.0))
    store.add(_stored(_est(seq=8192), None, status="no_gpu"))
    rows = store.list()
    assert [r.id for r in rows] == [a, a + 1] and rows[0].peak_gib == 16.0
    target = tmp_path / "out.csv"
    assert export_csv(rows, target) == 2
    with target.open(encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    assert table[0]["peak_gib"] == "16.000" and table[1]["peak_gib"] == "" and table[0]["seq"] == "4096"
    assert json.loads(table[0]["command"]) == ["python", "x.py"]
    assert store.delete([a]) == 1 and [r.id for r in store.list()] == [a + 1]
    # The recordings list reads *.sqlite only: the measurements file is not taken for a session.
    from services.telemetry.session_store import SessionStore
    assert SessionStore(tmp_path).paths() == []


def test_a_damaged_store_is_one_line(tmp_path):
    from services.modelfit.measurements import StoreError

    (tmp_path / "fit-measurements.sqlite3").write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="cannot"):
        MeasurementStore(tmp_path).list()


def test_thin_keeps_the_peak():
    points = [(i * 0.1, 1.0) for i in range(5000)]
    points[3333] = (333.3, 9.0)
    kept = thin(points, 600)
    assert len(kept) <= 600 and max(p[1] for p in kept) == 9.0


def test_compare_says_where_the_difference_sits():
    est = _est(seq=32768, batch=4)
    fixed, scaling = est.per_gpu_gib - compare(est, 1).scaling_gib, compare(est, 1).scaling_gib
    assert compare(est, est.per_gpu_gib + 0.2).where == "noise"
    short = _est(seq=2048)
    assert compare(short, short.per_gpu_gib + 0.95).where == "context"  # over 5%, under 1 GiB
    assert compare(est, fixed + scaling * 1.5).where == "scaling"
    assert compare(est, est.per_gpu_gib * 3).where == "fixed"


def test_calibration_uses_the_scaling_parts_and_says_on_how_many_runs():
    runs = []
    for seq in (8192, 16384, 32768):
        est = _est(seq=seq)
        fixed, scaling = est.per_gpu_gib - compare(est, 1).scaling_gib, compare(est, 1).scaling_gib
        runs.append(_stored(est, fixed + 1.6 * scaling))
    runs.append(_stored(_est(seq=4096), 3.0, exit_code=1))  # a failed run does not count
    runs.append(_stored(_est(engine="vllm"), 120.0))  # vLLM takes its share: nothing to learn
    cal = calibrate(runs, "transformers", "inference")
    assert isinstance(cal, Calibration) and cal.runs == 3 and cal.factor == pytest.approx(1.6, abs=1e-6)
    target = _est(seq=65536)
    known = known_for(runs, target, 24.0)
    assert known.calibrated_gib == pytest.approx(cal.gib(target))
    assert known.estimate_gib == pytest.approx(target.per_gpu_gib)  # the model's own figure stays as it is
    assert known.calibrated_max_seq is not None and known.calibrated_max_seq < 131072
    lines = [str(x) for x in known.lines()]
    assert any("Calibrated on your transformers runs (3)" in x for x in lines)
    assert any("Measured on this machine" in x and "other settings" in x for x in lines)


def test_later_estimates_show_the_measurement_and_the_calibrated_figure(capsys):
    store = _store()
    est = _est(seq=4096)
    store.add(_stored(est, est.per_gpu_gib + 1.0))
    code, out, _ = _run_cli(capsys, "--model", "Qwen/Qwen2.5-7B", "--seq", "4096", "--gpu", "RTX 4090")
    assert code == 0
    assert "Measured on this machine:" in out and "other settings" not in out
    assert "Calibrated on your transformers runs (1)" in out and "largest context that fits" in out
    code, out, _ = _run_cli(capsys, "--model", "Qwen/Qwen2.5-7B", "--seq", "4096", "--gpu", "RTX 4090", "--json")
    data = json.loads(out)
    assert data["measured_here"]["calibration_runs"] == 1
    assert data["per_gpu_gib"] == pytest.approx(est.per_gpu_gib, abs=0.01)  # never replaced


def test_measurements_command_lists_exports_and_deletes(capsys, tmp_path):
    store = _store()
    ident = store.add(_stored(_est(), 16.0))
    code, out, _ = _run_cli(capsys, "--measurements")
    assert code == 0 and "Qwen/Qwen2.5-7B" in out and "16.00" in out
    code, out, _ = _run_cli(capsys, "--measurements", "--json")
    assert json.loads(out)[0]["peak_gib"] == 16.0
    code, out, _ = _run_cli(capsys, "--measurements", "--csv", str(tmp_path / "m.csv"))
    assert code == 0 and (tmp_path / "m.csv").read_text(encoding="utf-8").startswith("id,date,model")
    code, _, err = _run_cli(capsys, "--measurements", "--csv", str(tmp_path / "no" / "such" / "m.csv"))
    assert code == 1 and "cannot write" in err and "Traceback" not in err
    code, out, _ = _run_cli(capsys, "--delete-measurement", str(ident))
    assert code == 0 and store.list() == []
    code, _, err = _run_cli(capsys, "--delete-measurement", str(ident))
    assert code == 2 and f"no measurement {ident}" in err


@pytest.mark.linux_only
def test_revealed_versions_reads_the_mapped_torch(tmp_path):
    site = tmp_path / "env" / "lib" / "python3.12" / "site-packages" / "torch"
    (site / "lib").mkdir(parents=True)
    (site / "version.py").write_text("__version__ = '2.11.0+cu130'\n", encoding="utf-8")
    (tmp_path / "proc" / "77").mkdir(parents=True)
    (tmp_path / "proc" / "77" / "maps").write_text(
        f"7f00-7f01 r-xp 00000000 08:01 1 {site}/lib/libtorch_cuda.so\n", encoding="utf-8")
    assert revealed_versions([77, 78], proc_root=str(tmp_path / "proc")) == {"torch": "2.11.0+cu130"}


def test_a_container_whose_pids_nvml_does_not_know_falls_back_to_the_gpus_rise():
    """NVML reports host PIDs; inside a container the measured PIDs never show. The GPU's used
    memory still rises: that rise is the measurement, said as such."""
    fake = FakeNvml([make_gpu(0)])
    gpu = fake.gpus[0]
    gpu.mem_used = 1 * 2**30
    gpu.compute = [FakeProcess(999001, None)]  # a host PID the container cannot see
    probe = NvmlProcessProbe(fake)
    run = Measurement(probe, os.getpid())
    for used_gib in (1.0, 1.0, 3.5, 6.0, 4.0):
        gpu.mem_used = int(used_gib * 2**30)
        run.sample()
    result = run.finish()
    assert result.status == "measured" and result.device_wide
    assert result.peak_busiest_gib == pytest.approx(5.0)
    assert any("never showed the measured processes" in str(n) for n in result.notes)


def test_a_short_process_with_no_gpu_rise_is_not_mistaken_for_one():
    fake = FakeNvml([make_gpu(0)])
    run = Measurement(NvmlProcessProbe(fake), os.getpid())
    run.sample()
    fake.gpus[0].mem_used += 50 * 2**20  # the desktop moved by 50 MiB
    run.sample()
    result = run.finish()
    assert result.status == "exited_at_once" and not result.device_wide and result.peak_busiest_gib is None


def test_without_nvml_the_counters_are_tried_and_their_absence_is_one_line():
    from services.modelfit.measure import default_probe
    from tests.fakes.fake_nvml import NVML_ERROR_LIBRARY_NOT_FOUND

    def unreadable(interval):
        raise OSError("PdhAddEnglishCounterW failed: 0xC0000BB8")

    with pytest.raises(MeasureError, match="NVML library missing.*performance counters could not be read"):
        default_probe(FakeNvml(0, init_error=NVML_ERROR_LIBRARY_NOT_FOUND), SimpleNamespace(sample=unreadable))
    sample = SimpleNamespace(engine_utilization={}, shared_bytes={}, dedicated_bytes={})
    probe = default_probe(FakeNvml(0, init_error=NVML_ERROR_LIBRARY_NOT_FOUND), SimpleNamespace(sample=lambda i: sample))
    assert isinstance(probe, WindowsCounterProbe)


def test_samples_are_due_every_interval_whatever_a_sample_costs():
    """10 Hz holds when a sample takes 30 ms: the wait is the rest of the 100 ms."""
    from services.modelfit.probes import GpuRef

    now = [0.0]
    waits: list[float] = []

    class SlowProbe:
        def gpus(self):
            return (GpuRef("GPU-1", 0, "RTX"),)

        def versions(self):
            return {}

        def read(self):
            now[0] += 0.03
            return ProbeReading({"GPU-1": {os.getpid(): 2 * GIB}})

    run = Measurement(SlowProbe(), os.getpid(), clock=lambda: now[0])
    left = [5]

    def alive():
        left[0] -= 1
        return left[0] > 0

    run.alive = alive

    def sleep(seconds):
        waits.append(round(seconds, 6))
        now[0] += seconds

    result = run_to_end(run, interval_s=0.1, sleep=sleep, clock=lambda: now[0])
    assert waits == [0.07] * 4 and len(result.samples) == 5
    assert [round(s.t_s, 2) for s in result.samples] == [0.03, 0.13, 0.23, 0.33, 0.43]


def test_json_keeps_stdout_for_the_json_and_the_commands_output_goes_to_stderr(capfd, monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", TreeNvml([make_gpu(0)]))
    code = main(["fit", "--model", "Qwen/Qwen2.5-0.5B", "--measure", "--json", "--", PYTHON, "-c",
                 "print('hello from the child'); " + CHILD])
    out, err = capfd.readouterr()
    assert code == 3
    data = json.loads(out)
    assert data["measurement"]["peak_gib"] == pytest.approx(7.0, abs=0.01) and data["measurement"]["exit_code"] == 3
    assert data["per_gpu_gib"] > 0 and data["measurement"]["where"] in ("noise", "context", "scaling", "fixed")
    assert "hello from the child" in err and "hello from the child\n" not in out


def test_a_run_within_the_context_noise_calibrates_to_one():
    est = _est(seq=4096)
    cal = calibrate([_stored(est, est.per_gpu_gib + 0.3)], "transformers", "inference")
    assert cal.factor == 1.0 and cal.runs == 1


@pytest.mark.parametrize(("line", "argv"), [
    (r'"C:\Program Files\Python312\python.exe" train.py --bs 4', [r"C:\Program Files\Python312\python.exe", "train.py", "--bs", "4"]),
    (r'python -c "print(\"hi\")"', ["python", "-c", 'print("hi")']),
    (r'C:\tools\x.exe "C:\data dir\\" next', [r"C:\tools\x.exe", "C:\\data dir\\", "next"]),
    (r'prog a\\b a\\\"b "a b"c', ["prog", r"a\\b", r'a\"b', "a bc"]),
    ('prog "say ""hi"""', ["prog", 'say "hi"']),
    ("   ", []),
])
def test_a_windows_command_line_splits_as_commandlinetoargvw(line, argv):
    from services.modelfit.measure import split_command

    assert split_command(line, windows=True) == argv


def test_a_posix_command_line_splits_as_a_shell_would():
    from services.modelfit.measure import split_command

    assert split_command("python 'my script.py' --x \"a b\"", windows=False) == ["python", "my script.py", "--x", "a b"]
    with pytest.raises(ValueError):
        split_command('python -c "unclosed', windows=False)
