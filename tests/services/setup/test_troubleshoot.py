from __future__ import annotations

import re

import pytest

from services.setup.diagnosis import diagnose
from services.setup.doctor import collect_facts
from services.setup.rules import load_rules
from services.setup.system import FakeRunner
from services.setup.troubleshoot import explain

from .machine import NO_NVML, Machine, recorded

RULES = load_rules()

OOM = """Traceback (most recent call last):
  File "train.py", line 88, in <module>
    loss.backward()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 22.61 GiB memory in use. Of the allocated memory 18.20 GiB is allocated by PyTorch, and 3.95 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation."""
OLD_DRIVER = "UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver"
SM120 = recorded("torch-cu124-on-5090.json")
CASES = [
    (OOM, "cuda_oom"),
    (OLD_DRIVER, "driver_insufficient"),
    ("RuntimeError: CUDA error: no kernel image is available for execution on the device", "no_kernel_image"),
    ("RuntimeError: CUDA error: invalid device function", "invalid_device_function"),
    (recorded("nvidia-smi-mismatch.txt"), "nvml_mismatch"),
    (recorded("nvidia-smi-no-driver.txt"), "no_driver_comm"),
    ("OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading \"...\\torch\\lib\\cufft64_10.dll\"", "winerror_1455"),
    ("NVIDIA Installer failed. Error code 0x80070002", "win_0x80070002"),
    ("AssertionError: Torch not compiled with CUDA enabled", "cpu_build"),
    ("RuntimeError: CUDA driver version is insufficient for CUDA runtime version", "driver_insufficient"),
    ("NVRM: Xid (PCI:0000:01:00): 79, pid=1234, GPU has fallen off the bus.", "fell_off_bus"),
]


@pytest.mark.parametrize("text,code", CASES)
def test_known_errors(text, code):
    found = explain(text)
    assert found and found[0].code == code


def test_oom_details_are_read_from_the_message():
    d = explain(OOM)[0]
    lines = [str(x) for x in d.on_this_machine]
    assert "It asked for 2.00 GiB while only 1.02 GiB of 23.65 GiB was free." in lines
    assert any("expandable_segments:True" in x for x in lines)


def test_driver_version_in_message_is_decoded():
    d = explain(OLD_DRIVER)[0]
    assert "CUDA up to 11.4" in str(d.on_this_machine[0])


def test_unknown_text():
    assert explain("hello world") == []


def test_tied_to_the_doctor_report(tmp_path):
    m = Machine(tmp_path).distro("ubuntu-24.04").lspci("lspci-5090-nouveau.txt").loaded(None, "nouveau 1 0\n")
    m.modinfo(None).secure_boot("mokutil-disabled.txt").smi(9, recorded("nvidia-smi-no-driver.txt"))
    py = "/home/li/venvs/sd/bin/python"
    m.python(py, "torch-cu124-on-5090.json")
    report = diagnose(collect_facts(m.runner, m.root, python=py, nvml_module=NO_NVML, system="linux"), RULES, py)
    comm = explain(recorded("nvidia-smi-no-driver.txt"), report)[0]
    assert any("nouveau" in str(x) for x in comm.on_this_machine)
    assert comm.fixes[0].step == "blacklist-nouveau"
    arch = explain("CUDA error: no kernel image is available for execution on the device", report)[0]
    assert "Your card is sm_120." in [str(x) for x in arch.on_this_machine]
    assert arch.fixes[0].commands[-1][-1].startswith("https://download.pytorch.org/whl/cu1")


LINUX_ONLY = ("dkms", "mokutil", "lsmod", "modprobe", "systemctl", "nouveau", "apt", "dnf", "initramfs")


@pytest.mark.parametrize("text,code", CASES)
def test_windows_answers_hold_no_linux_commands(text, code):
    found = explain(text, system="windows")
    assert found and found[0].code == code
    for d in found:
        commands = " ".join(" ".join(c) for f in d.fixes for c in f.commands).lower()
        words = (str(d.cause) + " " + commands).lower()
        assert not any(re.search(rf"\b{w}\b", words) for w in LINUX_ONLY), (code, words)


def test_windows_no_driver_answer_points_to_the_offline_package_and_ddu():
    d = explain(recorded("nvidia-smi-no-driver.txt"), system="windows")[0]
    assert "Code 43" in str(d.cause) and "offline package" in str(d.cause) and "DDU" in str(d.cause)
    assert [f.step for f in d.fixes if f.step] == ["install-driver", "block-driver-updates"]
    assert ("pnputil", "/enum-devices", "/class", "Display") in d.fixes[0].commands


def test_the_report_decides_the_platform():
    from services.setup.diagnosis import diagnose

    from .machine import FakeNvml

    facts = collect_facts(FakeRunner(), nvml_module=FakeNvml(), system="windows")
    assert facts.os.system == "windows"
    d = explain(recorded("nvidia-smi-no-driver.txt"), diagnose(facts, RULES))[0]
    assert "DDU" in str(d.cause)
    assert "dkms" in " ".join(" ".join(c) for f in explain(recorded("nvidia-smi-no-driver.txt"), system="linux")[0].fixes for c in f.commands)
