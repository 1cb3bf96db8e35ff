"""Plan only what is broken: the doctor's real findings (from recorded machine output)
decide which steps stay; every step left out says why; --full keeps them all."""
from __future__ import annotations

import json

import pytest

import main
from services.setup.diagnosis import diagnose
from services.setup.doctor import collect_facts
from services.setup.planner import plan_for_report
from services.setup.progress import ProgressStore, step_states
from services.setup.rules import load_rules
from services.setup.system import CommandResult, FakeRunner, SystemRoot
from services.setup.windows import LiveWindowsProbe
from services.setup.windows_plan import WindowsPlanOptions

from .machine import LINUX_DOCTOR, NO_NVML, FakeNvml, Machine, recorded
from .test_windows import text as win_text
from .test_windows import windows_runner

RULES = load_rules()
PY = "/home/li/.venv/bin/python"
PYTORCH_ONLY = ["install-pytorch", "verify-pytorch"]


@pytest.fixture
def machine(tmp_path):
    return Machine(tmp_path / "root")


def report_for(machine: Machine, nvml, python: str | None = PY):
    facts = collect_facts(machine.runner, machine.root, python=python, nvml_module=nvml, system="linux")
    return diagnose(facts, RULES, python)


def plan(machine: Machine, report, full: bool = False):
    return plan_for_report(report, RULES, machine.root, machine.root_dir.parent / "staged", full=full)


def ids(p) -> list[str]:
    return [s.id for s in p.steps]


def skipped(p) -> dict[str, str]:
    return {x.step.id: str(x.reason) for x in p.skipped}


def healthy_4090(machine: Machine, distro: str = "ubuntu-24.04", sb: str = "mokutil-disabled.txt") -> Machine:
    machine.distro(distro).lspci("lspci-4090-nvidia.txt").loaded("proc-driver-version-open-570.txt", "nvidia 1 0\n")
    machine.modinfo("570.133.07").secure_boot(sb).smi(0, "570.133.07, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    return machine


@pytest.mark.parametrize("distro", ["ubuntu-24.04", "debian-12", "fedora-41", "arch"])
def test_working_driver_leaves_only_the_pytorch_steps(machine, distro):
    healthy_4090(machine, distro).python(PY, "torch-missing.json")
    report = report_for(machine, FakeNvml())
    p = plan(machine, report)
    assert ids(p) == PYTORCH_ONLY
    why = skipped(p)
    assert "install-driver" in why and "blacklist-nouveau" in why and "reboot" in why
    assert "driver 570.133.07 works and is new enough" in why["install-driver"]
    assert why["blacklist-nouveau"] == "Not needed: nouveau is not loaded"
    assert p.mode == "repair" and p.to_json()["skipped"][0]["reason"].startswith("Not needed: ")
    # the PyTorch build the plan picks is one this driver runs
    assert p.step("install-pytorch").commands[-1][-1] == "https://download.pytorch.org/whl/cu128"
    full = plan(machine, report, full=True)
    assert "install-driver" in ids(full) and not full.skipped and full.mode == "full"


def test_working_pytorch_is_only_verified(machine):
    healthy_4090(machine).python(PY, "torch-cu128-4090-ok.json")
    p = plan(machine, report_for(machine, FakeNvml()))
    assert ids(p) == ["verify-pytorch"]
    # the version the recorded environment reports (torch-cu128-4090-ok.json), not just "works"
    assert skipped(p)["install-pytorch"] == "Not needed: PyTorch 2.7.1+cu128 already works on the GPU"


def test_torch_too_new_for_the_driver_changes_torch_not_the_driver(machine):
    # cu130 on a 570 driver: the plan installs a build this driver runs (cu128) instead of a new driver
    healthy_4090(machine).python(PY, "torch-cu130-old-driver.json")
    report = report_for(machine, FakeNvml())
    assert "driver_too_old_for_torch" in {f.code for f in report.findings}
    p = plan(machine, report)
    assert ids(p) == PYTORCH_ONLY
    assert p.step("install-pytorch").commands[-1][-1].endswith("/cu128")


def test_nouveau_on_a_new_card_gets_driver_blacklist_reboot(machine):
    machine.distro("ubuntu-24.04").lspci("lspci-5090-nouveau.txt").loaded(None, "nouveau 1 0\n")
    machine.modinfo(None).secure_boot("mokutil-disabled.txt").smi(9, recorded("nvidia-smi-no-driver.txt"))
    machine.python(PY, "torch-cu124-on-5090.json")
    p = plan(machine, report_for(machine, NO_NVML))
    assert ids(p) == ["update-package-lists", "install-driver", "blacklist-nouveau", "reboot", "verify-driver",
                      "install-venv-support", "create-venv", "install-pytorch", "verify-pytorch"] or \
        ids(p) == ["update-package-lists", "install-driver", "blacklist-nouveau", "reboot", "verify-driver",
                   "install-pytorch", "verify-pytorch"]
    assert "enroll-mok" not in ids(p)  # Secure Boot is off: the plan has no MOK step at all
    assert any("no NVIDIA driver is installed" in str(n) for n in p.notes)


def test_secure_boot_without_loaded_module_asks_for_mok(machine):
    machine.distro("fedora-41").lspci("lspci-4090-nvidia.txt").loaded(None, "")
    machine.modinfo("570.133.07").secure_boot("mokutil-enabled.txt").smi(9, recorded("nvidia-smi-no-driver.txt"))
    p = plan(machine, report_for(machine, NO_NVML, None))
    assert "enroll-mok" in ids(p) and "reboot" in ids(p)
    # the module is installed: only the key and the restart are missing
    assert "install-driver" not in ids(p) and "is installed" in skipped(p)["install-driver"]


def test_signed_module_loaded_under_secure_boot_needs_no_mok(machine):
    healthy_4090(machine, "ubuntu-24.04", sb="mokutil-enabled.txt").python(PY, "torch-missing.json")
    report = report_for(machine, FakeNvml())
    assert report.facts.secure_boot == "enabled"
    p = plan(machine, report)
    assert "enroll-mok" not in ids(p)
    assert "already loaded under Secure Boot" in skipped(p)["enroll-mok"]
    assert "enroll-mok" in ids(plan(machine, report, full=True))


def test_too_old_driver_for_the_card_is_updated(machine):
    machine.distro("arch").lspci("lspci-5090-nouveau.txt").loaded("proc-driver-version-prop-535.txt", "nvidia 1 0\n")
    machine.modinfo("535.183.01").secure_boot("mokutil-disabled.txt").smi(0, "535.183.01, x, y\n")
    report = report_for(machine, FakeNvml(driver="535.183.01", cuda=12020, names=("NVIDIA GeForce RTX 5090",), capability=(12, 0)), None)
    p = plan(machine, report)
    assert ids(p)[:1] == ["install-driver"] and "reboot" in ids(p) and "verify-driver" in ids(p)
    assert any("too old for this card" in str(n) for n in p.notes)


def test_library_mismatch_is_a_reboot_only(machine):
    machine.distro("ubuntu-22.04").lspci("lspci-1080-nvidia.txt").loaded("proc-driver-version-prop-535.txt", "nvidia 1 0\n")
    machine.modinfo("550.120").secure_boot("mokutil-disabled.txt").smi(18, recorded("nvidia-smi-mismatch.txt"))
    p = plan(machine, report_for(machine, FakeNvml(init_error=(18, "RM has detected an NVML/RM version mismatch.")), None))
    assert "reboot" in ids(p) and "verify-driver" in ids(p)
    assert not {"install-driver", "update-package-lists", "blacklist-nouveau"} & set(ids(p))


@LINUX_DOCTOR
def test_cli_plan_json_lists_skipped_steps_and_full(machine, monkeypatch, capsys, tmp_path):
    from services.setup import doctor as doctor_module
    from services.setup import system as system_module

    healthy_4090(machine)
    monkeypatch.setattr(system_module, "SubprocessRunner", lambda *a, **k: machine.runner)
    monkeypatch.setattr(system_module, "SystemRoot", lambda *a, **k: machine.root)
    monkeypatch.setattr(doctor_module, "SystemRoot", lambda *a, **k: machine.root)
    real = doctor_module.read_nvml
    monkeypatch.setattr(doctor_module, "read_nvml", lambda _mod=None: real(FakeNvml()))
    assert main.main(["setup", "--plan", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "repair" and "install-driver" in {s["id"] for s in data["skipped"]}
    assert "install-driver" not in {s["id"] for s in data["steps"]}
    assert main.main(["setup", "--plan"]) == 0
    out = capsys.readouterr().out
    assert "Not in this plan" in out and "[install-driver]" in out and "--full" in out
    assert main.main(["setup", "--run", "install-driver", "--dry-run"]) == 2
    assert "add --full" in capsys.readouterr().err
    assert main.main(["setup", "--plan", "--json", "--full"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "full" and not data["skipped"] and "install-driver" in {s["id"] for s in data["steps"]}


# ---- Windows ----------------------------------------------------------------------------------
def windows_report(nvml, device: str = "2684", name: str = "NVIDIA GeForce RTX 4090", wmi_driver: str | None = None):
    base = windows_runner(paging="reg-pagingfiles-auto.txt")
    inner = base.handler

    def handler(argv):
        if argv[0] == "powershell.exe" and "Win32_VideoController" in argv[-1]:
            text = win_text("wmi-videocontroller.json").replace("DEV_2684", f"DEV_{device.upper()}").replace("NVIDIA GeForce RTX 4090", name)
            return CommandResult(0, text.replace("32.0.15.6094", wmi_driver) if wmi_driver else text)
        return inner(argv)

    runner = FakeRunner(handler=handler)
    if nvml.init_error is None:
        runner.add(["nvidia-smi"], 0, f"{nvml.driver}, {name}, 00000000:01:00.0\n")
    probe = LiveWindowsProbe(runner)
    facts = collect_facts(runner, python=None, nvml_module=nvml, windows_probe=probe, system="windows")
    return diagnose(facts, RULES)


def win_plan(tmp_path, report, full=False):
    return plan_for_report(report, RULES, SystemRoot(tmp_path), tmp_path / "staged", WindowsPlanOptions(), full=full)


def test_windows_working_driver_gets_only_pytorch(tmp_path):
    report = windows_report(FakeNvml(driver="560.94", cuda=12060))  # WMI says 32.0.15.6094 = 560.94 too
    p = win_plan(tmp_path, report)
    assert ids(p) == PYTORCH_ONLY
    why = skipped(p)
    assert "clean reinstall with DDU" in why["run-ddu"] and "works and is new enough" in why["download-driver"]
    full = win_plan(tmp_path, report, full=True)
    assert {"safe-mode", "run-ddu", "restore-point"} <= set(ids(full))


def test_windows_too_old_driver_is_updated_in_place_first(tmp_path):
    # an RTX 5090 on driver 560.94: Blackwell needs 570 or newer
    report = windows_report(FakeNvml(driver="560.94", cuda=12060, names=("NVIDIA GeForce RTX 5090",), capability=(12, 0)),
                            device="2b85", name="NVIDIA GeForce RTX 5090")
    assert "driver_too_old_for_gpu" in {f.code for f in report.findings}
    p = win_plan(tmp_path, report)
    assert ids(p) == ["download-driver", "install-driver", "verify-driver", "install-pytorch", "verify-pytorch"]
    assert str(p.step("install-driver").title) == "Update the driver in place with the offline package"
    assert "Perform a clean installation" in str(p.step("install-driver").explanation)
    assert not {"safe-mode", "run-ddu"} & set(ids(p))


def test_windows_mixed_install_gets_the_ddu_clean_reinstall(tmp_path):
    # NVML's user-space driver (566.36) is not the one Windows has on the device (560.94): a mixed install
    report = windows_report(FakeNvml(driver="566.36", cuda=12070))
    p = win_plan(tmp_path, report)
    assert {"restore-point", "safe-mode", "run-ddu", "install-driver"} <= set(ids(p))
    assert ids(p).index("restore-point") < ids(p).index("safe-mode") < ids(p).index("run-ddu") < ids(p).index("install-driver")
    assert any("broken or mixed" in str(n) for n in p.notes)


def test_windows_without_any_nvidia_driver_installs_it_without_ddu(tmp_path):
    # a new card on Microsoft's basic display driver: nothing to clean up
    report = windows_report(NO_NVML, name="Microsoft Basic Display Adapter", wmi_driver="10.0.19041.1")
    p = win_plan(tmp_path, report)
    assert ids(p) == ["download-driver", "install-driver", "verify-driver", "install-pytorch", "verify-pytorch"]
    assert str(p.step("install-driver").title) == "Install the driver with the offline package"
    assert "clean reinstall with DDU" in skipped(p)["run-ddu"]


# ---- step states tell the truth ------------------------------------------------------------------
def test_reboot_is_not_done_while_steps_that_need_it_are_pending(machine, tmp_path):
    machine.distro("ubuntu-24.04").lspci("lspci-5090-nouveau.txt").loaded(None, "nouveau 1 0\n")
    machine.modinfo(None).secure_boot("mokutil-disabled.txt").smi(9, recorded("nvidia-smi-no-driver.txt"))
    p = plan(machine, report_for(machine, NO_NVML, None))
    progress = ProgressStore(tmp_path / "p.json")
    progress.adopt(p)
    # the reboot's own check passes (a module is loaded), but the blacklist is still to do
    states = step_states(p, progress, {"reboot": "done", "install-driver": "done", "update-package-lists": "done"})
    assert states["blacklist-nouveau"] == "pending" and states["reboot"] == "pending"
    progress.set_state("blacklist-nouveau", "done")
    states = step_states(p, progress, {"reboot": "done", "install-driver": "done", "update-package-lists": "done"})
    assert states["reboot"] == "done"
    progress.records["blacklist-nouveau"].at -= 100  # ran before the restart
    # a step that needs the reboot ran after the reboot did: it needs another one
    progress.set_state("reboot", "done")
    progress.records["reboot"].at -= 10
    progress.set_state("blacklist-nouveau", "done")
    assert step_states(p, progress, {"install-driver": "done", "update-package-lists": "done"})["reboot"] == "pending"


@pytest.mark.parametrize("distro", ["ubuntu-24.04", "debian-12", "fedora-41", "arch"])
def test_repair_plan_outcome_is_the_driver_that_stays(machine, distro):
    # The full plan picks PyTorch for the driver it would install; when the working driver
    # stays, the PyTorch step and the plan's outcome follow the driver that is there now.
    healthy_4090(machine, distro).python(PY, "torch-missing.json")
    p = plan(machine, report_for(machine, FakeNvml()))
    out = p.to_json()
    assert out["driver"]["from"] == "installed" and out["driver"]["version"] == "570.133.07"
    assert out["pytorch"]["build"] == "cu128" and out["pytorch"]["runs_on_driver"] in ("ok", "minor_compat")
    assert p.step("install-pytorch").commands[-1][-1].endswith("/" + out["pytorch"]["build"])
