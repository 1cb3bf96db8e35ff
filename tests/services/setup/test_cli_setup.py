"""The setup and doctor commands on a fake machine (monkeypatched runner, root and NVML)."""
from __future__ import annotations

import json

import pytest

import main
from services.setup import doctor as doctor_module
from services.setup import system as system_module
from services.setup.system import CommandResult

from .machine import LINUX_DOCTOR, NO_NVML, FakeNvml, Machine, recorded

PY = "/home/li/.venv/bin/python"


@pytest.fixture
def machine(tmp_path, monkeypatch):
    m = Machine(tmp_path / "root")
    m.distro("ubuntu-24.04").lspci("lspci-4090-nvidia.txt").loaded("proc-driver-version-open-570.txt", "nvidia 1 0\n")
    m.modinfo("570.133.07").secure_boot("mokutil-disabled.txt").smi(0, "570.133.07, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    m.runner.responses[("apt-get",)] = CommandResult(0, "Reading package lists... Done\n")
    # No interpreter the user is in (no venv, nothing on PATH): the tests below that want one pass --python
    # or set VIRTUAL_ENV themselves.
    for var in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "empty-bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    monkeypatch.setattr(system_module, "SubprocessRunner", lambda *a, **k: m.runner)
    monkeypatch.setattr(system_module, "SystemRoot", lambda *a, **k: m.root)
    monkeypatch.setattr(doctor_module, "SystemRoot", lambda *a, **k: m.root)
    nvml = {"module": FakeNvml()}
    real = doctor_module.read_nvml
    monkeypatch.setattr(doctor_module, "read_nvml", lambda _mod=None: real(nvml["module"]))
    m.nvml = nvml
    return m


@LINUX_DOCTOR
def test_doctor_json_on_a_healthy_machine(machine, capsys):
    assert main.main(["doctor", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["gpu"]["generation"] == "Ada Lovelace" and data["nvml"]["cuda_version"] == "12.8"
    assert [f["code"] for f in data["findings"]] == ["no_python_env", "driver_ok"]


@LINUX_DOCTOR
def test_doctor_exit_3_without_driver(machine, capsys):
    machine.nvml["module"] = NO_NVML
    (machine.root_dir / "proc/driver/nvidia/version").unlink()
    machine.modinfo(None)
    machine.smi(9, recorded("nvidia-smi-no-driver.txt"))
    assert main.main(["doctor"]) == 3
    out = capsys.readouterr().out
    assert "[X] No NVIDIA kernel module is installed" in out and "python main.py setup --run install-driver" in out


@LINUX_DOCTOR
def test_doctor_text_in_chinese(machine, capsys, app_paths):
    app_paths.config_dir.mkdir(parents=True, exist_ok=True)
    app_paths.settings_file.write_text(json.dumps({"general": {"language": "zh_CN"}}))
    main.main(["doctor"])
    assert "驱动 570.133.07 工作正常，最高支持 CUDA 12.8" in capsys.readouterr().out


@LINUX_DOCTOR
def test_doctor_explain(machine, capsys):
    assert main.main(["doctor", "--explain", "Failed to initialize NVML: Driver/library version mismatch"]) == 0
    assert capsys.readouterr().out.startswith("The driver was updated but the old kernel module is still running")
    assert main.main(["doctor", "--explain", "nothing to see"]) == 1


@LINUX_DOCTOR
def test_setup_plan_status_and_dry_run(machine, capsys):
    assert main.main(["setup", "--plan", "--full"]) == 0
    assert "steps for NVIDIA GeForce RTX 4090 on Ubuntu 24.04.1 LTS" in capsys.readouterr().out
    assert main.main(["setup", "--status", "--json", "--full"]) == 0
    rows = {r["id"]: r["check"] for r in json.loads(capsys.readouterr().out)}
    # 570 is installed, the full plan installs 580: its package is not there, so the step is not done
    assert rows["install-driver"] == "not_done" and rows["blacklist-nouveau"] == "not_done" and rows["verify-driver"] == "done"
    machine.runner.add(["dpkg-query", "-W", "-f=${Status}"], 0, "install ok installed")
    assert main.main(["setup", "--status", "--json", "--full"]) == 0
    assert {r["id"]: r["check"] for r in json.loads(capsys.readouterr().out)}["install-driver"] == "done"
    assert main.main(["setup", "--run", "blacklist-nouveau", "--dry-run", "--full"]) == 0
    out = capsys.readouterr().out
    assert "install -D -m 0644" in out and "Dry run: nothing was changed" in out
    assert not (machine.root_dir / "etc/modprobe.d/blacklist-nouveau.conf").exists()


@LINUX_DOCTOR
def test_setup_run_needs_confirmation_then_saves_progress(machine, capsys, app_paths, monkeypatch):
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main.main(["setup", "--run", "update-package-lists", "--full"]) == 2
    assert "refusing to change the system without confirmation" in capsys.readouterr().err
    assert main.main(["setup", "--run", "update-package-lists", "--yes", "--full"]) == 0
    assert ("apt-get", "update") in machine.runner.calls
    progress = json.loads((app_paths.data_dir / "setup" / "progress.json").read_text())
    assert progress["steps"]["update-package-lists"]["state"] == "done"


@LINUX_DOCTOR
def test_setup_undo_of_a_step_never_run(machine, capsys):
    assert main.main(["setup", "--undo", "install-driver", "--yes", "--full"]) == 1
    assert "has not run this step" in capsys.readouterr().out


@LINUX_DOCTOR
def test_setup_unknown_step(machine, capsys):
    assert main.main(["setup", "--run", "frobnicate"]) == 2
    assert "no step 'frobnicate' in this plan" in capsys.readouterr().err


@LINUX_DOCTOR
def test_picked_windows_files_are_remembered_for_this_machine_only(machine, capsys, app_paths):
    progress_file = app_paths.data_dir / "setup" / "progress.json"
    ddu = "C:\\Tools\\DDU\\Display Driver Uninstaller.exe"
    # Another machine's plan (--windows) uses the file but remembers nothing here.
    assert main.main(["setup", "--plan", "--windows", "--gpu", "10de:2684", "--full", "--ddu", ddu, "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert any(ddu in " ".join(c) for s in plan["steps"] for c in s["commands"])
    kept = json.loads(progress_file.read_text(encoding="utf-8")) if progress_file.exists() else {}
    assert kept.get("picked_files", {}) == {}
    # This machine's plan remembers it, as the Setup page's file picker does.
    assert main.main(["setup", "--plan", "--ddu", ddu]) == 0
    capsys.readouterr()
    assert json.loads(progress_file.read_text(encoding="utf-8"))["picked_files"] == {"ddu_exe": ddu}


@pytest.mark.linux_only(reason="a POSIX venv layout (bin/python3) stands for the active environment")
def test_doctor_and_plan_check_the_active_venv_by_default(machine, capsys, monkeypatch, tmp_path):
    # VIRTUAL_ENV names the environment the user is in; its python answers as a venv (sys.prefix !=
    # sys.base_prefix) whose stdlib has PEP 668's marker: not externally managed, PyTorch works.
    from services.setup.python_env import STDLIB_QUERY

    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python3").write_text("")
    python = str(venv / "bin" / "python3")
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    machine.write("/usr/lib/python3.12/EXTERNALLY-MANAGED", "[externally-managed]\n")
    machine.runner.add([python, "-c", STDLIB_QUERY], 0, "/usr/lib/python3.12\n1\n")
    machine.python(python, "torch-cu128-4090-ok.json")
    assert main.main(["doctor", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["machine"]["python"] == {"interpreter": python, "how": "venv", "virtual_env": True, "torch_works": True}
    codes = [f["code"] for f in data["findings"]]
    assert "torch_ok" in codes and "python_externally_managed" not in codes and "no_python_env" not in codes
    assert main.main(["setup", "--plan", "--json"]) == 0
    assert [s["id"] for s in json.loads(capsys.readouterr().out)["steps"]] == ["verify-pytorch"]
