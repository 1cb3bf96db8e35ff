from __future__ import annotations

import pytest

from services.setup.diagnosis import diagnose
from services.setup.doctor import collect_facts
from services.setup.os_release import parse_os_release
from services.setup.probes import parse_lspci_nnk, parse_proc_driver_version, read_secure_boot, SECURE_BOOT_EFIVAR
from services.setup.python_env import find_python_envs
from services.setup.rules import load_rules

from .machine import NO_NVML, SYSFS_SYMLINKS, FakeNvml, Machine, os_release, recorded

RULES = load_rules()
PY = "/home/li/.venv/bin/python"


def codes(report):
    return [f.code for f in report.findings]


def run(machine: Machine, nvml, python: str | None = PY):
    facts = collect_facts(machine.runner, machine.root, python=python, nvml_module=nvml, system="linux")
    return diagnose(facts, RULES, python)


@pytest.fixture
def machine(tmp_path):
    return Machine(tmp_path)


def test_lspci_parse_finds_display_devices_only():
    gpus = parse_lspci_nnk(recorded("lspci-4090-nvidia.txt"))
    assert [(g.pci_id, g.driver) for g in gpus] == [("8086:a780", "i915"), ("10de:2684", "nvidia")]
    assert gpus[1].name == "NVIDIA Corporation AD102 [GeForce RTX 4090]"
    assert gpus[1].address == "0000:01:00.0"
    laptop = parse_lspci_nnk(recorded("lspci-laptop-3050-nodriver.txt"))
    assert laptop[1].driver is None and laptop[1].modules == ("nvidiafb", "nouveau")


def test_proc_driver_version_flavours():
    assert parse_proc_driver_version(recorded("proc-driver-version-open-570.txt")) == ("570.133.07", "open")
    assert parse_proc_driver_version(recorded("proc-driver-version-prop-535.txt")) == ("535.183.01", "proprietary")
    assert parse_proc_driver_version("") == (None, None)


def test_os_release_families():
    fam = {n: parse_os_release(os_release(n)).family for n in (
        "ubuntu-20.04", "ubuntu-22.04", "ubuntu-24.04", "debian-11", "debian-12", "debian-13", "fedora-41",
        "arch", "linuxmint-22", "pop-22.04", "opensuse-tumbleweed", "opensuse-leap-15.6")}
    assert fam == {
        "ubuntu-20.04": "ubuntu", "ubuntu-22.04": "ubuntu", "ubuntu-24.04": "ubuntu", "debian-11": "debian",
        "debian-12": "debian", "debian-13": "debian", "fedora-41": "fedora", "arch": "arch",
        "linuxmint-22": "ubuntu", "pop-22.04": "ubuntu", "opensuse-tumbleweed": "suse",
        "opensuse-leap-15.6": "suse",
    }
    assert parse_os_release(os_release("debian-13")).codename == "trixie"


def test_secure_boot_from_efivar_when_mokutil_missing(machine):
    machine.write(SECURE_BOOT_EFIVAR, b"\x06\x00\x00\x00\x01")
    assert read_secure_boot(machine.root, machine.runner) == "enabled"
    machine.write(SECURE_BOOT_EFIVAR, b"\x06\x00\x00\x00\x00")
    assert read_secure_boot(machine.root, machine.runner) == "disabled"


def test_secure_boot_legacy_bios(machine):
    assert read_secure_boot(machine.root, machine.runner) == "not_uefi"


def test_healthy_4090(machine):
    machine.distro("ubuntu-24.04").lspci("lspci-4090-nvidia.txt").loaded("proc-driver-version-open-570.txt", "nvidia_uvm 1 0\nnvidia 2 1\n")
    machine.modinfo("570.133.07").secure_boot("mokutil-disabled.txt").smi(0, "570.133.07, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    machine.python(PY, "torch-cu128-4090-ok.json")
    report = run(machine, FakeNvml())
    assert report.worst == "ok"
    assert codes(report) == ["driver_ok", "torch_ok"]
    assert report.gpu.generation == "Ada Lovelace" and report.gpu.sm == "sm_89" and report.gpu.sm_measured
    assert "cuDNN 9.7.1" in str(report.findings[1].detail)
    data = report.to_json()
    assert data["nvml"]["cuda_version"] == "12.8" and data["python"]["cudnn"] == "9.7.1"


def test_5090_on_nouveau_with_old_torch(machine):
    machine.distro("ubuntu-24.04").lspci("lspci-5090-nouveau.txt").loaded(None, "nouveau 1 0\n")
    machine.modinfo(None).secure_boot("mokutil-disabled.txt").smi(9, recorded("nvidia-smi-no-driver.txt"))
    machine.python(PY, "torch-cu124-on-5090.json")
    report = run(machine, NO_NVML)
    assert report.gpu.generation == "Blackwell" and report.gpu.sm == "sm_120"
    assert "nouveau_in_use" in codes(report)
    # nvidia-smi's failure is explained by nouveau; it is not reported twice
    assert "nvidia_smi_failed" not in codes(report)
    arch = next(f for f in report.findings if f.code == "torch_arch_missing")
    cmds = arch.fixes[0].commands
    assert cmds[0] == (PY, "-m", "pip", "uninstall", "-y", "torch")
    # no working driver yet: the newest wheel for sm_120 is recommended
    assert cmds[1][-1] == "https://download.pytorch.org/whl/cu130"


def test_driver_installed_but_secure_boot_blocks(machine):
    machine.distro("fedora-41").lspci("lspci-4090-nvidia.txt").loaded(None, "")
    machine.modinfo("570.133.07").secure_boot("mokutil-enabled.txt").smi(9, recorded("nvidia-smi-no-driver.txt"))
    report = run(machine, NO_NVML, python=None)
    assert codes(report)[0] == "secure_boot_blocks_module"
    assert report.findings[0].fixes[0].step == "enroll-mok"
    assert "no_python_env" in codes(report)


def test_module_installed_not_loaded_without_secure_boot(machine):
    machine.distro("arch").lspci("lspci-4090-nvidia.txt").loaded(None, "")
    machine.modinfo("570.133.07").secure_boot("mokutil-disabled.txt").smi(9, recorded("nvidia-smi-no-driver.txt"))
    assert codes(run(machine, NO_NVML, None))[0] == "module_not_loaded"


def test_no_driver_at_all_on_laptop(machine):
    machine.distro("debian-12").lspci("lspci-laptop-3050-nodriver.txt").loaded(None, "")
    machine.modinfo(None).secure_boot("mokutil-disabled.txt")
    report = run(machine, NO_NVML, None)
    assert report.gpu.generation == "Ampere" and report.gpu.sm == "sm_86"
    assert codes(report)[0] == "driver_not_installed"


def test_library_mismatch_says_reboot(machine):
    machine.distro("ubuntu-22.04").lspci("lspci-1080-nvidia.txt").loaded("proc-driver-version-prop-535.txt", "nvidia 1 0\n")
    machine.modinfo("550.120").secure_boot("mokutil-disabled.txt").smi(18, recorded("nvidia-smi-mismatch.txt"))
    report = run(machine, FakeNvml(init_error=(18, "RM has detected an NVML/RM version mismatch.")), None)
    first = report.findings[0]
    assert first.code == "driver_library_mismatch"
    assert str(first.title) == "Reboot: the loaded module (535.183.01) is older than the libraries (550.120)"
    assert first.fixes[0].commands == (("systemctl", "reboot"),)
    assert report.gpu.generation == "Pascal"


def test_cu130_wheel_on_570_driver_is_too_old(machine):
    machine.distro("ubuntu-24.04").lspci("lspci-4090-nvidia.txt").loaded("proc-driver-version-open-570.txt", "nvidia 1 0\n")
    machine.modinfo("570.133.07").secure_boot("mokutil-disabled.txt").smi(0, "570.133.07, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    machine.python(PY, "torch-cu130-old-driver.json")
    report = run(machine, FakeNvml())
    f = next(f for f in report.findings if f.code == "driver_too_old_for_torch")
    assert "580" in str(f.detail)
    # the alternative: a wheel this driver runs (cu128 needs 570.26 on Linux)
    pip = f.fixes[1].commands[-1]
    assert pip[-1] == "https://download.pytorch.org/whl/cu128"


def test_pascal_gets_cu126_and_proprietary(machine):
    machine.distro("ubuntu-22.04").lspci("lspci-1080-nvidia.txt").loaded("proc-driver-version-prop-535.txt", "nvidia 1 0\n")
    machine.modinfo("535.183.01").secure_boot("mokutil-disabled.txt").smi(0, "535.183.01, NVIDIA GeForce GTX 1080, 00000000:01:00.0\n")
    machine.python(PY, "torch-missing.json")
    report = run(machine, FakeNvml(driver="535.183.01", cuda=12020, names=("NVIDIA GeForce GTX 1080",), capability=(6, 1)))
    f = next(f for f in report.findings if f.code == "torch_missing")
    assert f.fixes[0].commands == ((PY, "-m", "pip", "install", "--upgrade", "torch", "--index-url", "https://download.pytorch.org/whl/cu126"),)
    assert "wrong_module_flavor" not in codes(report)


def test_cpu_build_and_rocm_and_unusable_python(machine):
    machine.distro("ubuntu-24.04").lspci("lspci-4090-nvidia.txt").loaded("proc-driver-version-open-570.txt", "nvidia 1 0\n")
    machine.modinfo("570.133.07").secure_boot("mokutil-disabled.txt").smi(0, "570.133.07, x, y\n")
    machine.python(PY, "torch-cpu-windows.json")
    report = run(machine, FakeNvml())
    assert "torch_cpu_build" in codes(report)
    machine.runner.add([PY, "-c"], 127, "", "not found")
    assert "python_unusable" in codes(run(machine, FakeNvml()))


def test_wrong_flavor_on_blackwell(machine):
    machine.distro("arch").lspci("lspci-5090-nouveau.txt").loaded("proc-driver-version-prop-535.txt", "nvidia 1 0\n")
    machine.modinfo("535.183.01").secure_boot("mokutil-disabled.txt").smi(0, "535.183.01, x, y\n")
    report = run(machine, FakeNvml(driver="535.183.01", cuda=12020, names=("NVIDIA GeForce RTX 5090",), capability=(12, 0)), None)
    assert {"wrong_module_flavor", "driver_too_old_for_gpu"} <= set(codes(report))


def test_no_nvidia_gpu(machine):
    machine.distro("debian-12")
    machine.runner.add(["lspci", "-nnk"], 0, "00:02.0 VGA compatible controller [0300]: Intel Corporation UHD [8086:a780]\n")
    machine.modinfo(None)
    report = run(machine, NO_NVML, None)
    assert codes(report) == ["no_nvidia_gpu"]


@SYSFS_SYMLINKS
def test_sysfs_scan_without_lspci(machine):
    dev = machine.root_dir / "sys/bus/pci/devices/0000:01:00.0"
    dev.mkdir(parents=True)
    (dev / "vendor").write_text("0x10de\n")
    (dev / "device").write_text("0x2b85\n")
    (dev / "class").write_text("0x030000\n")
    drv = machine.root_dir / "sys/bus/pci/drivers/nvidia"
    drv.mkdir(parents=True)
    (dev / "driver").symlink_to(drv)
    machine.distro("arch").modinfo(None)
    facts = collect_facts(machine.runner, machine.root, nvml_module=NO_NVML, system="linux")
    assert [(g.pci_id, g.driver) for g in facts.gpus] == [("10de:2b85", "nvidia")]
    assert diagnose(facts, RULES).gpu.generation == "Blackwell"


def test_unsupported_distro_is_said(machine):
    machine.distro("mageia-8").lspci("lspci-4090-nvidia.txt").loaded(None).modinfo(None)
    report = run(machine, NO_NVML, None)
    assert "distro_unsupported" in codes(report)


def test_find_python_envs(tmp_path):
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / ".venv" / "bin" / "python").write_text("")
    (tmp_path / "miniconda3" / "conda-meta").mkdir(parents=True)
    (tmp_path / "miniconda3" / "bin").mkdir()
    (tmp_path / "miniconda3" / "bin" / "python").write_text("")
    (tmp_path / "miniconda3" / "envs" / "sd" / "bin").mkdir(parents=True)
    (tmp_path / "miniconda3" / "envs" / "sd" / "bin" / "python").write_text("")
    envs = find_python_envs(tmp_path, windows=False)
    assert [(e.name, e.kind) for e in envs] == [("~/.venv", "venv"), ("conda base (miniconda3)", "conda"), ("sd", "conda")]


def test_rules_every_entry_has_a_source():
    import json
    from services.setup.rules import RULES_FILE

    data = json.loads(RULES_FILE.read_text())
    rows = 0

    def walk(node, where):
        nonlocal rows
        if isinstance(node, list):
            for item in node:
                if isinstance(item, dict):
                    rows += 1
                    assert item.get("source"), (where, item)
                walk(item, where)
        elif isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{where}.{key}")

    walk(data, "rules")
    assert rows > 130
    for section in ("hags", "wu_driver_policy", "driver_search", "safe_mode_undo", "ddu_args", "sysmem_fallback"):
        assert data["windows"][section]["source"], section


def test_rules_driver_decisions():
    assert RULES.driver_ok_for_cuda("570.133.07", "12.8", "linux") == "ok"
    assert RULES.driver_ok_for_cuda("550.54.14", "12.8", "linux") == "minor_compat"
    assert RULES.driver_ok_for_cuda("570.133.07", "13.0", "linux") == "too_old"
    assert RULES.driver_ok_for_cuda("581.57", "13.0", "windows") == "ok"
    assert RULES.driver_ok_for_cuda("470.82", "12.1", "linux") == "too_old"
    assert RULES.recommend_variant("sm_120", "570.133.07", "linux").variant.variant == "cu128"
    assert RULES.recommend_variant("sm_120", "580.95.05", "linux").variant.variant == "cu130"
    assert RULES.recommend_variant("sm_61", "580.95.05", "linux").variant.variant == "cu126"
    assert RULES.recommend_variant("sm_70", None, "linux").variant.variant == "cu126"


def test_arch_compatibility_rule():
    from services.setup.rules import arch_supported

    assert arch_supported("sm_89", ["sm_80", "sm_86"])  # same major, lower minor
    assert not arch_supported("sm_120", ["sm_50", "sm_86", "sm_90"])
    assert arch_supported("sm_120", ["sm_90", "compute_120"])  # PTX
    assert not arch_supported("sm_75", ["sm_80", "sm_86"])
