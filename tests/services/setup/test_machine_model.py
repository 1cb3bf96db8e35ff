"""One picture of the machine: GPUs and names (NVML first), the driver (and what failed), the
interpreter the user is in and its PEP 668 state, read from real-format fixtures."""
from __future__ import annotations

import json
import os
import sys

import pytest

import main
from services.setup.card_lookup import resolve_card
from services.setup.diagnosis import diagnose
from services.setup.doctor import collect_facts
from services.setup.doctor_report import MachineFacts
from services.setup.machine import PY_CONDA, PY_PATH, PY_VENV, active_python
from services.setup.permissions import DeviceNode, DevicePermissions
from services.setup.planner import plan_for_report
from services.setup.probes import PciGpu
from services.setup.python_env import PROBE_MARK, STDLIB_QUERY
from services.setup.rules import load_rules

from .machine import FakeNvml, Machine
from .test_plan_matrix import DATA, cli_plan, cli_root  # noqa: F401 - cli_root is a fixture

RULES = load_rules()
VENV = "/opt/torch/.venv"
VENV_PY = f"{VENV}/bin/python3"

# What TORCH_PROBE printed in the H200 machine's venv (torch 2.11.0+cu130, driver 580.159.04).
H200_PROBE = {"python": "3.12.3", "executable": VENV_PY, "torch_version": "2.11.0+cu130", "cuda_build": "13.0",
              "hip": None, "cudnn": 91300, "cuda_available": True,
              "arch_list": ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"], "device_count": 1,
              "device_name": "NVIDIA H200", "capability": [9, 0], "matmul_ok": True, "warnings": []}


def h200_nvml(pci_device_id: int = 0x233510DE):
    fake = FakeNvml(driver="580.159.04", cuda=13000, names=("NVIDIA H200",), capability=(9, 0))
    for gpu in fake.gpus:
        gpu.pci_device_id = pci_device_id
    return fake


def sysfs_gpu(m: Machine, address: str, device: str, cls: str = "0x030200") -> None:
    """A display-class device in /sys/bus/pci/devices as the kernel shows it (no lspci on the machine)."""
    for name, value in (("class", cls), ("vendor", "0x10de"), ("device", f"0x{device}")):
        m.write(f"/sys/bus/pci/devices/{address}/{name}", value + "\n")


def pep668_venv_machine(m: Machine) -> Machine:
    """Ubuntu 24.04 whose system Python is externally managed, and an active venv with a working PyTorch."""
    m.distro("ubuntu-24.04").loaded(None, "nvidia 1 0\n")
    m.write("/proc/driver/nvidia/version",
            "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (dvs-builder@U22-I3-AF03-09-1)  Thu Apr 30 00:57:51 UTC 2026\n"
            "GCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04.1) \n")
    m.write("/usr/lib/python3.12/EXTERNALLY-MANAGED", "[externally-managed]\nError=To install Python packages system-wide, try apt install\n")
    m.modinfo("580.159.04").secure_boot("mokutil-disabled.txt").smi(0, "580.159.04, NVIDIA H200, 00000000:01:00.0\n")
    m.runner.add(["lspci", "-nnk"], 127, "", "lspci: command not found")
    sysfs_gpu(m, "0000:01:00.0", "2335")
    # the venv's interpreter: its stdlib is the system's (/usr/lib/python3.12), but sys.prefix != sys.base_prefix
    m.runner.add([VENV_PY, "-c", STDLIB_QUERY], 0, "/usr/lib/python3.12\n1\n")
    m.runner.add([VENV_PY, "-c"], 0, PROBE_MARK + json.dumps(H200_PROBE) + "\n")
    return m


@pytest.fixture
def machine(tmp_path):
    return Machine(tmp_path / "root")


def report_for(m: Machine, nvml, python: str | None, how: str = PY_VENV, system: str = "linux"):
    facts = collect_facts(m.runner, m.root, python=python, nvml_module=nvml, system=system, python_how=how)
    return diagnose(facts, RULES, python)


# ---- the real machine: H200, Ubuntu 24.04 (PEP 668), a venv with torch cu130 -------------------------
def test_active_venv_on_a_pep668_system_is_pytorch_working_and_nothing_to_install(machine):
    report = report_for(pep668_venv_machine(machine), h200_nvml(), VENV_PY)
    codes = {f.code for f in report.findings}
    assert "python_externally_managed" not in codes and "no_python_env" not in codes
    ok = next(f for f in report.findings if f.code == "torch_ok")
    assert str(ok.title) == "PyTorch 2.11.0+cu130 works on NVIDIA H200"
    assert report.worst == "ok"
    # the GPU has NVML's name, not '10de:2335 [10de:2335]', and its generation from the id
    assert report.gpu.name == "NVIDIA H200" and report.gpu.generation == "Hopper" and report.gpu.sm == "sm_90"
    m = report.machine
    assert m.python == VENV_PY and m.python_how == PY_VENV and m.python_env.in_venv is True
    assert m.python_env.marker is True and m.python_env.externally_managed is False
    assert m.torch_works and m.driver.version == "580.159.04" and m.driver.source == "nvml"
    p = plan_for_report(report, RULES, machine.root, machine.root_dir.parent / "staged")
    assert [s.id for s in p.steps] == ["verify-pytorch"]  # nothing to install


def test_system_python_with_the_marker_is_still_externally_managed(machine):
    pep668_venv_machine(machine)
    machine.runner.add(["/usr/bin/python3", "-c", STDLIB_QUERY], 0, "/usr/lib/python3.12\n0\n")
    machine.runner.add(["/usr/bin/python3", "-c"], 0, PROBE_MARK + json.dumps(
        {"python": "3.12.3", "executable": "/usr/bin/python3", "torch_error": "ModuleNotFoundError: No module named 'torch'"}) + "\n")
    report = report_for(machine, h200_nvml(), "/usr/bin/python3", PY_PATH)
    assert report.machine.python_env.externally_managed is True
    assert report.has("python_externally_managed")


def test_conda_env_is_checked_and_is_not_externally_managed(machine):
    pep668_venv_machine(machine)
    conda_py = "/home/li/miniforge3/envs/sd/bin/python"
    # a conda env is its own prefix (no base_prefix difference) and has no marker in its stdlib
    machine.runner.add([conda_py, "-c", STDLIB_QUERY], 0, "/home/li/miniforge3/envs/sd/lib/python3.11\n0\n")
    machine.runner.add([conda_py, "-c"], 0, PROBE_MARK + json.dumps({**H200_PROBE, "python": "3.11.9", "executable": conda_py}) + "\n")
    report = report_for(machine, h200_nvml(), conda_py, PY_CONDA)
    assert report.machine.python_how == PY_CONDA and report.machine.python_env.externally_managed is False
    assert report.has("torch_ok") and not report.has("python_externally_managed")


# ---- NVML outranks the PCI bus: WSL2 and containers ------------------------------------------------
def test_wsl2_nvml_without_an_nvidia_pci_device(machine):
    # WSL2: os-release says Ubuntu, the kernel is Microsoft's, /sys/bus/pci has only the Hyper-V
    # display device (no 10de), and there is no /proc/driver/nvidia; NVML (libnvidia-ml from the
    # Windows driver) answers with two GPUs.
    machine.distro("ubuntu-24.04")
    machine.runner.add(["uname", "-r"], 0, "5.15.167.4-microsoft-standard-WSL2\n")
    machine.runner.add(["lspci", "-nnk"], 127, "", "lspci: command not found")
    machine.write("/proc/modules", "")
    machine.modinfo(None).smi(0, "566.36, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    sysfs_gpu(machine, "5582:00:00.0", "5353", cls="0x030000")
    machine.write("/sys/bus/pci/devices/5582:00:00.0/vendor", "0x1414\n")  # Microsoft's virtual GPU
    nvml = FakeNvml(driver="566.36", cuda=12070, names=("NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3060"))
    nvml.gpus[0].pci_device_id, nvml.gpus[1].pci_device_id = 0x268410DE, 0x250310DE
    report = report_for(machine, nvml, None, "")
    assert not report.has("no_nvidia_gpu")
    assert [g.name for g in report.machine.gpus] == ["NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3060"]
    assert all(g.source == "nvml" for g in report.machine.gpus)
    assert report.gpu.pci.device_id == "2684" and report.gpu.generation == "Ada Lovelace"
    assert report.has("driver_ok") and report.has("driver_from_host") and not report.has("driver_not_installed")
    assert "WSL2" in str(next(f for f in report.findings if f.code == "driver_from_host").title)
    # never a Linux driver inside WSL2: only the PyTorch steps
    p = plan_for_report(report, RULES, machine.root, machine.root_dir.parent / "staged")
    assert not {"install-driver", "blacklist-nouveau", "reboot"} & {s.id for s in p.steps}


def test_container_nvml_without_pci_or_kernel_module_tools(machine):
    # a container started with --gpus all: no lspci, no modinfo, /sys/bus/pci not mounted, NVML works
    machine.distro("debian-12")
    machine.runner.add(["lspci", "-nnk"], 127, "", "lspci: command not found")
    machine.runner.add(["modinfo"], 127, "", "modinfo: command not found")
    machine.smi(0, "580.159.04, NVIDIA H200, 00000000:01:00.0\n")
    report = report_for(machine, h200_nvml(), None, "")
    assert not report.has("no_nvidia_gpu") and report.gpu.name == "NVIDIA H200"
    assert report.machine.gpu.pci.pci_id == "10de:2335" and report.machine.gpu.source == "nvml"
    assert report.has("driver_from_host") and report.worst in ("info", "ok")


def test_no_nvml_names_a_sysfs_card_from_the_rules_never_by_its_id_twice(machine):
    machine.distro("ubuntu-24.04").loaded(None).modinfo(None)
    machine.runner.add(["lspci", "-nnk"], 127, "", "lspci: command not found")
    sysfs_gpu(machine, "0000:01:00.0", "2335")
    report = report_for(machine, FakeNvml(init_error=(12, "NVML Shared Library Not Found")), None, "")
    assert report.gpu.name == "H200 SXM 141GB" and report.machine.gpu.source == "pci"
    assert "10de:2335 [10de:2335]" not in json.dumps(report.to_json())


# ---- the interpreter the user is in ------------------------------------------------------------------
@pytest.mark.linux_only(reason="builds POSIX venv layouts (bin/python3) and PATH lookups")
def test_active_python_order(tmp_path):
    venv, conda, bindir = tmp_path / "venv", tmp_path / "conda", tmp_path / "bin"
    for exe in (venv / "bin" / "python3", conda / "bin" / "python3", bindir / "python3"):
        exe.parent.mkdir(parents=True, exist_ok=True)
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
    env = {"VIRTUAL_ENV": str(venv), "CONDA_PREFIX": str(conda), "PATH": str(bindir)}
    assert active_python(env, windows=False) == active_python(env, windows=False)
    assert active_python(env, windows=False).how == PY_VENV
    assert active_python({**env, "VIRTUAL_ENV": ""}, windows=False).path == str(conda / "bin" / "python3")
    found = active_python({"PATH": str(bindir)}, windows=False)
    assert found.path == str(bindir / "python3") and found.how == PY_PATH
    assert active_python({"PATH": str(tmp_path / "nothing")}, windows=False) is None


# ---- wrong advice in plans -----------------------------------------------------------------------------
def test_working_debian_535_with_an_rtx_40_is_not_reinstalled_forever(machine):
    # Debian 12's packaged 535.183.01 drives an RTX 4090: cu126 runs on it through minor-version
    # compatibility (>= 525.60.13), so the plan installs that PyTorch and leaves the driver alone.
    machine.distro("debian-12").lspci("lspci-4090-nvidia.txt").loaded("proc-driver-version-prop-535.txt", "nvidia 1 0\n")
    machine.modinfo("535.183.01").secure_boot("mokutil-disabled.txt").smi(0, "535.183.01, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    machine.python("/home/li/.venv/bin/python", "torch-missing.json")
    report = report_for(machine, FakeNvml(driver="535.183.01", cuda=12020), "/home/li/.venv/bin/python")
    p = plan_for_report(report, RULES, machine.root, machine.root_dir.parent / "staged")
    ids = [s.id for s in p.steps]
    assert "install-driver" not in ids and "reboot" not in ids
    assert ids == ["install-pytorch", "verify-pytorch"]
    assert p.step("install-pytorch").commands[-1][-1].endswith("/cu126")
    assert "driver 535.183.01 works" in str(next(x.reason for x in p.skipped if x.step.id == "install-driver"))


def test_manjaro_uses_mhwd_not_arch_nvidia_open(cli_root, capsys):  # noqa: F811 - the fixture
    data = cli_plan(capsys, "manjaro", "2684")
    install = next(s for s in data["steps"] if s["id"] == "install-driver")
    assert install["commands"] == [["mhwd", "-a", "pci", "nonfree", "0300"]]
    assert not any("nvidia-open" in " ".join(c) for s in data["steps"] for c in s["commands"])


@pytest.mark.parametrize(("text", "device_id"), [("4090", "2684"), ("RTX 3060", "24c7"), ("3060", "24c7"),
                                                  ("h200", "2335"), ("10de:2684", "2684")])
def test_cards_are_found_by_name_or_model_number(text, device_id):
    assert resolve_card(RULES, text)[0] == device_id


def test_setup_gpu_4090_plans_for_the_rtx_4090(cli_root, capsys):  # noqa: F811
    rc = main.main(["setup", "--plan", "--os-release", str(DATA / "os-release" / "ubuntu-24.04"), "--gpu", "4090", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0 and "GeForce RTX 4090 on" in data["summary"]


# ---- permissions ----------------------------------------------------------------------------------------
@pytest.mark.linux_only(reason="POSIX file modes on /dev/nvidia* stand-ins")
@pytest.mark.skipif(sys.platform != "win32" and hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root may open any file, so a refused device file cannot be staged")
def test_device_files_this_user_may_not_open(machine):
    machine.distro("opensuse-tumbleweed").lspci("lspci-4090-nvidia.txt").loaded("proc-driver-version-open-570.txt", "nvidia 1 0\n")
    machine.modinfo("570.133.07").secure_boot("mokutil-disabled.txt").smi(0, "570.133.07, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    node = machine.write("/dev/nvidia0", "")
    node.chmod(0o000)
    report = report_for(machine, FakeNvml(init_error=(4, "Insufficient Permissions")), None, "")
    finding = next(f for f in report.findings if f.code == "device_permission")
    assert "/dev/nvidia0" in str(finding.title) and "0000" in str(finding.detail)


def test_video_group_device_files_get_the_usermod_fix():
    # openSUSE's modprobe.nvidia.install: NVreg_DeviceFileGID=<video> NVreg_DeviceFileMode=0660
    perms = DevicePermissions("li", (DeviceNode("/dev/nvidia0", 0o660, 483, "video", False),
                                     DeviceNode("/dev/nvidiactl", 0o660, 483, "video", False)),
                              (("DeviceFileGID", "483"), ("DeviceFileMode", "432")))
    facts = MachineFacts(os=None, gpus=(PciGpu("0000:01:00.0", "10de", "2684", "AD102 [GeForce RTX 4090]", "nvidia"),),
                         permissions=perms)
    report = diagnose(facts, RULES)
    finding = next(f for f in report.findings if f.code == "device_permission")
    assert "'video'" in str(finding.detail) and "0660" in str(finding.detail)
    assert finding.fixes[0].commands == (("sudo", "usermod", "-aG", "video", "li"),)


def test_sandboxed_gpu_machine_with_a_working_venv_plans_nothing_to_install(machine):
    # A sandbox (gVisor-like): no lspci, no modinfo, no /proc/driver/nvidia, NVML and nvidia-smi work,
    # and the active venv's PyTorch runs on the H200: nothing to install, only the check.
    machine.distro("ubuntu-24.04")
    machine.runner.add(["lspci", "-nnk"], 127, "", "lspci: command not found")
    machine.runner.add(["modinfo"], 127, "", "modinfo: command not found")
    machine.smi(0, "580.159.04, NVIDIA H200, 00000000:01:00.0\n")
    machine.write("/usr/lib/python3.12/EXTERNALLY-MANAGED", "[externally-managed]\n")
    machine.runner.add([VENV_PY, "-c", STDLIB_QUERY], 0, "/usr/lib/python3.12\n1\n")
    machine.runner.add([VENV_PY, "-c"], 0, PROBE_MARK + json.dumps(H200_PROBE) + "\n")
    report = report_for(machine, h200_nvml(), VENV_PY)
    assert [f.code for f in report.findings] == ["driver_from_host", "driver_ok", "torch_ok"]
    p = plan_for_report(report, RULES, machine.root, machine.root_dir.parent / "staged")
    assert [s.id for s in p.steps] == ["verify-pytorch"]
