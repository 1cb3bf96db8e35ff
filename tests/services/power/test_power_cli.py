"""``python main.py power`` on the scripted machine: sweep, set, undo, keep, saved sweeps."""
from __future__ import annotations

import json

import pytest

from cli import power
from services.power.limits import REASON_SWEEP, default_journal
from services.power.model import PowerError
from services.power.workload import NO_TORCH
from services.telemetry.nvml_source import NvmlSource
from tests.cli_helpers import CJK, english_system, run  # noqa: F401 - a fixture
from tests.fakes.fake_nvml import NVML_ERROR_LIBRARY_NOT_FOUND, FakeNvml, FakeProcess
from tests.fakes.power_fakes import FakeClock, ScriptedWorkloadRunner, scripted_fake, smi_runner


@pytest.fixture
def machine(monkeypatch, english_system):  # noqa: F811
    fake = scripted_fake()
    clock = FakeClock()
    state = {"refuse": None, "workload": ScriptedWorkloadRunner(fake, clock), "runners": []}

    def runner():
        r = smi_runner(fake, state["refuse"])
        state["runners"].append(r)
        return r

    monkeypatch.setattr(power, "make_source", lambda: NvmlSource(fake, runtime_pm=False))
    monkeypatch.setattr(power, "make_runner", runner)
    monkeypatch.setattr(power, "make_workload", lambda python: state["workload"])
    monkeypatch.setattr(power, "sweep_clock", lambda: clock)
    monkeypatch.setattr(power, "elevation", lambda: "sudo")
    monkeypatch.setattr(power, "system_name", lambda: "linux")
    monkeypatch.setattr(power, "smi_present", lambda: True)
    return fake, state


def smi_calls(state) -> list:
    return [c for r in state["runners"] for c in r.smi_calls]


def test_sweep_prints_the_table_saves_and_restores(machine, capsys):
    fake, state = machine
    code, out, err = run(["power", "--sweep", "--seconds", "10", "--percent", "100,80,60"], capsys)
    assert code == 0, err
    assert "TFLOP/s" in out and "GB/s" in out and "recommended:" in out and "saved:" in out
    assert "[1/6] 450 W: matmul" in err
    assert fake.gpus[0].power_limit_mw == 450_000 and default_journal().load() == []
    code, out, _ = run(["power", "--list"], capsys)
    assert code == 0 and "3 points" not in out and "6 points" in out
    saved = out.split()[0]
    code, out, _ = run(["power", "--show", saved[:15]], capsys)
    assert code == 0 and "recommended:" in out
    code, out, err = run(["power", "--compare", saved, saved, "--json"], capsys)
    assert code == 0, err
    assert {r["change"] for r in json.loads(out)} == {0.0}


def test_sweep_dry_run_shows_commands_and_changes_nothing(machine, capsys):
    fake, state = machine
    code, out, _ = run(["power", "--sweep", "--percent", "100,70", "--dry-run"], capsys)
    assert code == 0
    assert "sudo nvidia-smi -i 0 -pl 315" in out and "gpu_workload.py --kind matmul" in out
    assert "nothing was changed" in out and smi_calls(state) == [] and state["workload"].jobs == []


def test_refused_change_still_reports_the_current_limit(machine, capsys):
    fake, state = machine
    state["refuse"] = "privilege"
    code, out, err = run(["power", "--sweep", "--seconds", "10", "--percent", "100,80", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert {p["limit_w"] for p in data["points"]} == {450.0}
    assert "administrator rights were refused" in err and fake.gpus[0].power_limit_mw == 450_000


def test_busy_gpu_is_refused_without_yes(machine, capsys):
    fake, state = machine
    fake.gpus[0].compute = [FakeProcess(777, 9000 * 2**20)]
    code, _, err = run(["power", "--sweep", "--seconds", "10"], capsys)
    assert code == 1 and "is in use by" in err and "--yes" in err and state["workload"].jobs == []


def test_no_torch_is_one_line(machine, capsys):
    fake, state = machine
    state["workload"].fail = PowerError(NO_TORCH.format(python="python3"))
    code, _, err = run(["power", "--sweep", "--seconds", "10"], capsys)
    assert code == 1 and "PyTorch is not installed in python3" in err and "Traceback" not in err
    assert smi_calls(state) == []


def test_set_limit_dry_run_then_set_then_undo(machine, capsys):
    fake, state = machine
    code, out, _ = run(["power", "--set-limit", "350", "--gpu", "0", "--dry-run"], capsys)
    assert code == 0 and "sudo nvidia-smi -i 0 -pl 350" in out and fake.gpus[0].power_limit_mw == 450_000
    code, out, _ = run(["power", "--set-limit", "350", "--gpu", "0"], capsys)
    assert code == 0 and fake.gpus[0].power_limit_mw == 350_000 and "power --undo" in out
    assert "resets when the computer restarts" in out
    assert default_journal().load()[0].previous_w == 450.0
    code, out, _ = run(["power", "--status"], capsys)
    assert "changed by the app from 450 W to 350 W" in out
    code, out, _ = run(["power", "--undo"], capsys)
    assert code == 0 and fake.gpus[0].power_limit_mw == 450_000 and default_journal().load() == []
    code, out, _ = run(["power", "--undo"], capsys)
    assert code == 0 and "nothing to undo" in out


def test_set_limit_out_of_range_and_refused(machine, capsys):
    fake, state = machine
    code, _, err = run(["power", "--set-limit", "100"], capsys)
    assert code == 2 and "outside what GPU 0 accepts (150-600 W)" in err
    state["refuse"] = "driver"
    code, _, err = run(["power", "--set-limit", "300"], capsys)
    assert code == 1 and "not supported in current scope" in err and default_journal().load() == []


def test_killed_sweep_is_restored_by_the_next_command(machine, capsys):
    fake, state = machine
    from services.power.limits import LimitChange

    fake.gpus[0].power_limit_mw = 315_000  # what the killed sweep left
    default_journal().add(LimitChange(fake.gpus[0].uuid, 0, "x", 450.0, 315.0, REASON_SWEEP, 1.0))
    code, out, err = run(["power", "--status"], capsys)
    assert code == 0 and "did not finish" in err and fake.gpus[0].power_limit_mw == 450_000


def test_keep_shows_the_unit_and_undo(machine, capsys):
    fake, state = machine
    code, out, _ = run(["power", "--keep", "--gpu", "0", "--dry-run"], capsys)
    assert code == 0 and "tee /etc/systemd/system/gpu-assistant-power-limit-gpu-" in out
    assert "ExecStart=/usr/bin/nvidia-smi -i GPU-4f1c2a9e-0000-4000-8000-000000000001 -pl 450" in out
    assert "systemctl enable" in out and "nothing was changed" in out and state["runners"] == []
    code, out, _ = run(["power", "--unkeep", "--gpu", "0", "--dry-run"], capsys)
    assert code == 0 and "systemctl disable" in out and "rm -f /etc/systemd/system/" in out


def test_keep_is_refused_without_nvidia_smi_where_the_unit_runs_it(machine, monkeypatch, capsys):
    fake, state = machine
    monkeypatch.setattr(power, "smi_present", lambda: False)
    code, _, err = run(["power", "--keep", "--gpu", "0"], capsys)
    assert code == 1 and "/usr/bin/nvidia-smi is not there" in err and state["runners"] == []
    code, out, err = run(["power", "--keep", "--gpu", "0", "--dry-run"], capsys)
    assert code == 0 and "warning: /usr/bin/nvidia-smi is not there" in err and "systemctl enable" in out
    code, out, err = run(["power", "--unkeep", "--gpu", "0", "--dry-run"], capsys)
    assert code == 0 and "not there" not in err  # undoing never needs it


def test_no_driver_exit_3(monkeypatch, capsys):
    monkeypatch.setattr(power, "make_source", lambda: NvmlSource(FakeNvml(0, init_error=NVML_ERROR_LIBRARY_NOT_FOUND), runtime_pm=False))
    code, _, err = run(["power", "--status"], capsys)
    assert code == 3 and "NVIDIA driver not found" in err


def test_bad_input_is_one_line(machine, capsys, tmp_path):
    code, _, err = run(["power", "--sweep", "--gpu", "5"], capsys)
    assert code == 2 and "there is no NVIDIA GPU 5" in err
    code, _, err = run(["power", "--show", "nothing-here"], capsys)
    assert code == 2 and "no saved sweep named" in err
    bad = tmp_path / "x.sweep.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    code, _, err = run(["power", "--show", str(bad)], capsys)
    assert code == 2 and "cannot read the sweep" in err
    code, _, err = run(["power", "--sweep", "--workloads", "fft"], capsys)
    assert code == 2 and "unknown workload" in err


def test_chinese_output(machine, capsys):
    code, out, err = run(["--lang", "zh_CN", "power", "--sweep", "--seconds", "10", "--percent", "100,60"], capsys)
    assert code == 0 and CJK.search(out) and CJK.search(err)


def test_ctrl_c_restores_and_says_so(machine, capsys):
    fake, state = machine
    state["workload"].interrupt_at = 3  # during the first job below the default
    code, _, err = run(["power", "--sweep", "--seconds", "10", "--percent", "100,80"], capsys)
    assert code == 130 and "the power limit is back at 450 W" in err
    assert fake.gpus[0].power_limit_mw == 450_000 and default_journal().load() == []
