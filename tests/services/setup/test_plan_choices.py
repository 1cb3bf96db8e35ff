"""Choices the plans make from the card and the machine: generation from the PCI id
(rules, pci.ids, names), no open modules or newest wheel for an unknown card, a
driver source that can drive the card on Debian, PEP 668 venvs, Ubuntu's -open."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import main
from services.setup import system as system_module
from services.setup.diagnosis import diagnose
from services.setup.doctor_report import MachineFacts
from services.setup.executor import OWNED_MARK, StepExecutor
from services.setup.os_release import parse_os_release
from services.setup.pci_ids import lookup_device_name, parse_device_name
from services.setup.planner import inputs_for, plan_for_os
from services.setup.probes import UbuntuDriversList, parse_ubuntu_drivers_list, read_ubuntu_drivers
from services.setup.progress import ProgressStore
from services.setup.python_env import STDLIB_QUERY, PythonEnvState, read_externally_managed
from services.setup.rules import load_rules
from services.setup.system import CommandResult, FakeRunner, SystemRoot

from .machine import DATA, RUNS_LINUX_COMMANDS, os_release, recorded

RULES = load_rules()
PCI_IDS = DATA / "pci-ids" / "pci.ids"


def all_args(plan) -> list[str]:
    return [a for s in plan.steps for c in (*s.commands, *s.undo) for a in c]


def plan(tmp_path, distro: str, gpu: str, **kw):
    root = kw.pop("root", tmp_path / "root")
    root.mkdir(parents=True, exist_ok=True)
    inputs = inputs_for(RULES, SystemRoot(root), tmp_path / "staged", gpu, secure_boot="disabled",
                        venv_dir=str(tmp_path / "venvs" / "torch"), **kw)
    return plan_for_os(parse_os_release(os_release(distro)), inputs, RULES)


# ---- 1. generation from the PCI id -------------------------------------------------------
def test_pci_ids_lookup_is_scoped_to_the_vendor():
    text = PCI_IDS.read_text()
    assert parse_device_name(text, "10de", "1b80") == "GP104 [GeForce GTX 1080]"
    assert parse_device_name(text, "10de", "1D81") == "GV100 [TITAN V]"
    assert parse_device_name(text, "10de", "ffff") is None
    assert parse_device_name(text, "10df", "1d81") == "Not an NVIDIA device either"


@pytest.mark.parametrize("where", ["/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids"])
def test_generation_from_the_systems_pci_ids(tmp_path, where):
    root = tmp_path / "root"
    (root / where.lstrip("/")).parent.mkdir(parents=True)
    shutil.copy(PCI_IDS, root / where.lstrip("/"))
    assert lookup_device_name(SystemRoot(root), "1b80") == "GP104 [GeForce GTX 1080]"
    inputs = inputs_for(RULES, SystemRoot(root), tmp_path, "1b80")
    assert inputs.generation.name == "Pascal" and inputs.sm == "sm_61" and inputs.gpu_label == "GeForce GTX 1080"
    assert inputs_for(RULES, SystemRoot(root), tmp_path, "1d81").generation.name == "Volta"


def test_exact_id_in_the_rules_wins_and_unknown_stays_unknown(tmp_path):
    empty = SystemRoot(tmp_path)
    assert inputs_for(RULES, empty, tmp_path, "2b85").generation.name == "Blackwell"
    # NVIDIA's device-id list in the rules: known by the id alone, no pci.ids needed
    assert inputs_for(RULES, empty, tmp_path, "1b80").generation.name == "Pascal"
    unknown = inputs_for(RULES, empty, tmp_path, UNKNOWN_ID)
    assert unknown.generation is None and unknown.sm is None


def test_unknown_card_gets_the_most_compatible_wheel():
    choice = RULES.recommend_variant(None, None, "linux")
    assert choice.variant.variant == "cu126" and choice.most_compatible  # sm_50 ... sm_90
    assert RULES.recommend_variant("sm_61", None, "linux").variant.variant == "cu126"
    assert RULES.recommend_variant("sm_120", None, "linux").variant.variant != "cu126"


# GB10 (DGX Spark): an NVIDIA id in pci.ids but in no device-id block the rules map.
UNKNOWN_ID = "2e12"


@pytest.mark.parametrize("distro", ["arch", "fedora-41"])
def test_unknown_card_never_gets_open_modules(tmp_path, distro):
    p = plan(tmp_path, distro, UNKNOWN_ID)
    step = p.step("install-driver")
    assert step.manual and not step.commands and "580xx" in str(step.explanation)
    assert "nvidia-open" not in all_args(p) and "akmod-nvidia-open" not in all_args(p)
    assert p.step("install-pytorch").commands[-1][-1].endswith("/cu126")
    assert "covers the most GPU generations" in str(p.step("install-pytorch").explanation)


@pytest.fixture
def cli_root(tmp_path, monkeypatch):
    root = tmp_path / "root"
    root.mkdir()
    monkeypatch.setattr(system_module, "SystemRoot", lambda *a, **k: SystemRoot(root))
    return root


def cli_plan(capsys, distro: str, gpu: str) -> dict:
    assert main.main(["setup", "--plan", "--os-release", str(DATA / "os-release" / distro), "--gpu", gpu, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def cli_args(data: dict) -> list[str]:
    return [a for s in data["steps"] for c in s["commands"] + s["undo"] for a in c]


def install_wheel(data: dict) -> str:
    return next(s for s in data["steps"] if s["id"] == "install-pytorch")["commands"][-1][-1]


@pytest.mark.parametrize("distro", ["arch", "fedora-41", "ubuntu-24.04"])
def test_cli_gtx_1080_known_by_its_id_alone(cli_root, capsys, distro):
    data = cli_plan(capsys, distro, "10de:1b80")  # no pci.ids on this machine
    assert "nvidia-open" not in cli_args(data) and "akmod-nvidia-open" not in cli_args(data)
    assert install_wheel(data).endswith("/cu126")
    driver = next(s for s in data["steps"] if s["id"] == "install-driver")
    if distro == "ubuntu-24.04":  # the proprietary 580 branch, by name
        assert ["ubuntu-drivers", "install", "nvidia:580"] in driver["commands"]
    elif distro == "fedora-41":
        assert "akmod-nvidia-580xx" in cli_args(data)
    else:
        assert driver["manual"] and "nvidia-580xx-dkms" in driver["link"]


@pytest.mark.parametrize("distro", ["arch", "fedora-41", "ubuntu-24.04"])
def test_cli_gtx_1080_named_by_pci_ids(cli_root, capsys, distro):
    (cli_root / "usr/share/misc").mkdir(parents=True)
    shutil.copy(PCI_IDS, cli_root / "usr/share/misc/pci.ids")
    data = cli_plan(capsys, distro, "10de:1b80")
    assert "GeForce GTX 1080" in data["summary"] and any("Pascal" in n for n in data["notes"])
    assert "nvidia-open" not in cli_args(data) and install_wheel(data).endswith("/cu126")
    if distro == "fedora-41":
        assert "akmod-nvidia-580xx" in cli_args(data)
    if distro == "arch":
        assert "nvidia-580xx-dkms" in next(s for s in data["steps"] if s["id"] == "install-driver")["link"]


# ---- 2. Debian's packaged driver is too old for Blackwell ------------------------------
def sandbox(root: Path) -> FakeRunner:
    def handler(argv):
        if argv[0] in ("rm", "python3"):
            paths = [a for a in argv[1:] if a.startswith("/")]
            assert paths and all(p.startswith(str(root)) for p in paths), argv
            if argv[0] == "python3":  # 'python3 -m venv DIR': make what venv makes
                (Path(argv[-1]) / "bin").mkdir(parents=True, exist_ok=True)
                (Path(argv[-1]) / "bin" / "python").write_text("")
                (Path(argv[-1]) / "pyvenv.cfg").write_text("home = /usr/bin\n")
                return CommandResult(0)
            done = subprocess.run(list(argv), capture_output=True, text=True)
            return CommandResult(done.returncode, done.stdout, done.stderr)
        return CommandResult(0, "")
    return FakeRunner(handler=handler)


@pytest.mark.parametrize("distro,repo", [("debian-12", "debian12"), ("debian-13", "debian13")])
def test_blackwell_on_debian_uses_nvidias_repository(tmp_path, distro, repo):
    p = plan(tmp_path, distro, "2b85")
    args = all_args(p)
    assert "nvidia-driver" not in args  # the packaged 535/550 cannot drive an RTX 50
    add = p.step("add-nvidia-repository")
    url = f"https://developer.download.nvidia.com/compute/cuda/repos/{repo}/x86_64/cuda-keyring_1.1-1_all.deb"
    assert add.commands[0][-1] == url and add.commands[1][:2] == ("dpkg", "-i") and add.undo == (("dpkg", "--purge", "cuda-keyring"),)
    ids = [s.id for s in p.steps]
    assert ids.index("add-nvidia-repository") < ids.index("update-package-lists") < ids.index("install-driver")
    install = p.step("install-driver")
    assert install.commands[0][-1] == "nvidia-open" and install.undo[0][-1] == "nvidia-open"
    assert any("NVIDIA's CUDA repository" in str(n) for n in p.notes)
    progress = ProgressStore(tmp_path / "p.json")
    runner = sandbox(tmp_path)
    ex = StepExecutor(runner, SystemRoot(tmp_path / "root"), progress, tmp_path / "b")
    for step in (add, install):
        assert ex.run(step).ok and ex.undo(step).ok
    assert ("dpkg", "--purge", "cuda-keyring") in runner.calls


def test_ada_on_debian_keeps_the_packaged_driver(tmp_path):
    p = plan(tmp_path, "debian-12", "2684")
    assert p.step("add-nvidia-repository") is None and "nvidia-driver" in all_args(p)


# ---- 3. PEP 668 -----------------------------------------------------------------------------
def test_externally_managed_is_read_from_the_interpreters_stdlib(tmp_path):
    runner = FakeRunner().add(["python3", "-c"], 0, "/usr/lib/python3.11\n")
    root = tmp_path / "root"
    (root / "usr/lib/python3.11").mkdir(parents=True)
    assert read_externally_managed("python3", runner, SystemRoot(root)).externally_managed is False
    (root / "usr/lib/python3.11/EXTERNALLY-MANAGED").write_text("[externally-managed]\n")
    state = read_externally_managed("python3", runner, SystemRoot(root))
    assert state.externally_managed is True and state.stdlib == "/usr/lib/python3.11"
    assert runner.calls[0] == ("python3", "-c", STDLIB_QUERY)
    assert read_externally_managed("python3", FakeRunner(), SystemRoot(root)).externally_managed is None


def test_pep668_plan_creates_a_venv_and_installs_into_it(tmp_path):
    p = plan(tmp_path, "debian-12", "2684", externally_managed=True)
    venv = str(tmp_path / "venvs" / "torch")
    create = p.step("create-venv")
    assert create.commands == (("python3", "-m", "venv", venv),) and not create.needs_root
    assert create.check.kind == "file_exists" and create.check.paths == (f"{venv}/bin/python",)
    assert p.step("install-venv-support").commands == (("apt-get", "install", "-y", "python3-venv"),)
    assert p.step("install-pytorch").commands[-1][0] == f"{venv}/bin/python"
    assert "EXTERNALLY-MANAGED" in str(create.explanation)
    plain = plan(tmp_path, "fedora-41", "2684", externally_managed=False)
    assert plain.step("create-venv") is None and plain.step("install-pytorch").commands[-1][0] == "python3"
    picked = plan(tmp_path, "arch", "2684", externally_managed=False, python="/home/li/env/bin/python")
    assert picked.step("create-venv") is None  # the person picked an environment pip can use
    system = plan(tmp_path, "arch", "2684", externally_managed=True, python="/usr/bin/python3")
    assert system.step("create-venv").commands == (("/usr/bin/python3", "-m", "venv", venv),)
    assert system.step("install-pytorch").commands[-1][0] == f"{venv}/bin/python"
    unasked = plan(tmp_path, "arch", "2684", python="/home/li/env/bin/python")
    assert unasked.step("create-venv") is None


@RUNS_LINUX_COMMANDS
def test_venv_step_undo_removes_only_a_folder_it_made(tmp_path):
    p = plan(tmp_path, "arch", "2684", externally_managed=True)
    step = p.step("create-venv")
    venv = Path(step.owned_dir)
    ex = StepExecutor(sandbox(tmp_path), SystemRoot(tmp_path / "root"), ProgressStore(tmp_path / "p.json"), tmp_path / "b")
    assert ex.check(step).state == "not_done"
    assert ex.run(step).ok and (venv / OWNED_MARK).is_file() and ex.check(step).state == "done"
    assert any("rm -rf -- " + str(venv) in line for line in ex.describe(step, undo=True))
    assert ex.undo(step).ok and not venv.exists()
    # a folder that was already there is the person's: run may use it, undo leaves it
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    assert ex.run(step).ok and not (venv / OWNED_MARK).exists()
    out = ex.undo(step)
    assert not out.ok and "was not created by GPU Assistant" in str(out.message) and venv.is_dir()


def test_doctor_warns_about_an_externally_managed_python():
    facts = MachineFacts(os=parse_os_release(os_release("debian-12")),
                         python_env=PythonEnvState("python3", "/usr/lib/python3.11", True))
    report = diagnose(facts, RULES)
    finding = next(f for f in report.findings if f.code == "python_externally_managed")
    assert finding.fixes[0].step == "create-venv" and finding.fixes[0].commands[0][:3] == ("python3", "-m", "venv")
    assert "externally-managed-environment" in str(finding.detail)
    clean = diagnose(MachineFacts(os=None, python_env=PythonEnvState("python3", "/usr/lib/python3.12", False)), RULES)
    assert not clean.has("python_externally_managed")


# ---- 5. Ubuntu: the -open variant by generation --------------------------------------------
def test_ubuntu_drivers_list_is_read_in_its_real_format():
    runner = FakeRunner()
    runner.add(["ubuntu-drivers", "list", "--recommended"], 0, recorded("ubuntu-drivers-list-recommended-4090.txt"))
    runner.add(["ubuntu-drivers", "list"], 0, recorded("ubuntu-drivers-list-4090.txt"))
    found = read_ubuntu_drivers(runner)
    assert found.recommended == "nvidia-driver-570" and "nvidia-driver-570-open" in found.packages
    assert parse_ubuntu_drivers_list("nvidia-driver-570-open linux-modules-nvidia-570-open-generic\n") == ("nvidia-driver-570-open",)
    assert read_ubuntu_drivers(FakeRunner()) is None  # ubuntu-drivers not installed


def test_ubuntu_turing_plus_installs_the_open_variant_of_the_recommended_branch(tmp_path):
    listed = UbuntuDriversList(parse_ubuntu_drivers_list(recorded("ubuntu-drivers-list-4090.txt")), "nvidia-driver-570")
    kw = dict(ubuntu_driver_packages=listed.packages, ubuntu_recommended=listed.recommended)
    # the newest desktop -open branch this machine's list offers (575 > the recommended 570)
    ada = plan(tmp_path, "ubuntu-24.04", "2684", **kw)
    assert ada.step("install-driver").commands[-1] == ("ubuntu-drivers", "install", "nvidia:575-open")
    # 575 is older than cu130's 580.65.06: the newest torch build it runs is cu126 (2.14)
    assert ada.outcome.driver_branch == "575" and ada.outcome.pytorch_build == "cu126" and ada.outcome.pytorch_runs == "ok"
    # Pascal has no open modules: the proprietary package of the same branch, by name
    pascal = plan(tmp_path, "ubuntu-24.04", "1b80", **kw)
    assert pascal.step("install-driver").commands[-1] == ("ubuntu-drivers", "install", "nvidia:575")
    # another machine's os-release: the branch comes from the rules' list for noble, never a bare install
    other = plan(tmp_path, "ubuntu-24.04", "2684")
    assert other.step("install-driver").commands[-1] == ("ubuntu-drivers", "install", "nvidia:580-open")
    assert all(c != ("ubuntu-drivers", "install") for s in other.steps for c in s.commands)


def test_pci_ids_also_helps_when_the_name_is_only_the_id(tmp_path):
    root = tmp_path / "root"
    (root / "usr/share/hwdata").mkdir(parents=True)
    shutil.copy(PCI_IDS, root / "usr/share/hwdata/pci.ids")
    inputs = inputs_for(RULES, SystemRoot(root), tmp_path, "13c2", name="10de:13c2")  # sysfs, no lspci
    assert inputs.generation.name == "Maxwell" and inputs.gpu_label == "GeForce GTX 970"


def test_blackwell_on_debian_11_is_a_manual_step_not_the_packaged_driver(tmp_path):
    p = plan(tmp_path, "debian-11", "2b85")
    step = p.step("install-driver")
    assert step.manual and not step.commands and step.link.startswith("https://docs.nvidia.com/")
    assert "nvidia-driver" not in all_args(p)
    assert any("Debian bullseye packages driver 470" in str(n) and "Blackwell cards need 570" in str(n) for n in p.notes)


@pytest.mark.parametrize("listed", [(), ("nvidia-driver-570", "nvidia-driver-570-server")])
def test_rtx_50_on_ubuntu_when_the_list_has_no_open_package(tmp_path, listed):
    # `ubuntu-drivers list` gave nothing, or only closed packages: still the open branch, by name
    p = plan(tmp_path, "ubuntu-24.04", "2b85", ubuntu_driver_packages=listed, ubuntu_recommended="nvidia-driver-570" if listed else "")
    assert p.step("install-driver").commands[-1] == ("ubuntu-drivers", "install", "nvidia:580-open")
    assert p.outcome.driver_module == "open" and p.outcome.pytorch_build == "cu130"


def test_fedora_follows_rpm_fusion_akmod_nvidia_for_every_current_card(tmp_path):
    for gpu in ("1e07", "2684", "2b85"):
        p = plan(tmp_path, "fedora-41", gpu)
        assert p.step("install-driver").commands == (("dnf", "install", "-y", "akmod-nvidia", "xorg-x11-drv-nvidia-cuda"),)
        assert "akmod-nvidia-open" not in all_args(p)
