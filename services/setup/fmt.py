"""Showing argument lists to people: as a line they could paste into a terminal."""
from __future__ import annotations

import shlex
import subprocess
from typing import Sequence


def command_line(argv: Sequence[str], windows: bool = False) -> str:
    """One pasteable line. Only for display and copying; commands run as lists."""
    if windows:
        return subprocess.list2cmdline(list(argv))
    return shlex.join(list(argv))


def envs_found_heading():
    """Heading the doctor CLI prints above the environments it found."""
    from services.i18n import translate

    return translate("DoctorCli", "Python environments found (test one with --python PATH):")


# ---- words for the CLI's plan and doctor report (codes stay English in JSON) ----------
def step_flag(code: str):
    """'root' | 'admin' | 'reboot' | 'by_hand' -> the word shown next to a step."""
    from services.i18n import translate

    words = {
        "root": translate("SetupCli", "root"),
        "admin": translate("SetupCli", "administrator"),
        "reboot": translate("SetupCli", "reboot"),
        "by_hand": translate("SetupCli", "by hand"),
    }
    return words.get(code, code)


def step_state_word(state: str):
    """Progress state of a step (ProgressStore) or a check result, in words."""
    from services.i18n import translate

    words = {
        "pending": translate("SetupCli", "to do"),
        "done": translate("SetupCli", "done"),
        "skipped": translate("SetupCli", "skipped"),
        "failed": translate("SetupCli", "failed"),
        "undone": translate("SetupCli", "undone"),
        "not_done": translate("SetupCli", "not done"),
        "unknown": translate("SetupCli", "unknown"),
    }
    return words.get(state, state)


def flags_label(flags: list):
    """'(root, reboot)': joined through a translatable pair, so Chinese gets its own comma."""
    from services.i18n import translate

    joined = flags[0]
    for flag in flags[1:]:
        joined = translate("SetupCli", "{first}, {second}").format(first=joined, second=flag)
    return translate("SetupCli", "({flags})").format(flags=joined)


def undo_hint(step_id: str):
    from services.i18n import translate

    return translate("SetupCli", "undo: {command}").format(command=f"python main.py setup --undo {step_id}")


def confirm_question():
    from services.i18n import translate

    return translate("SetupCli", "Run these commands? [y/N] ")


def nothing_changed():
    from services.i18n import translate

    return translate("SetupCli", "nothing was changed")


def secure_boot_word(code: str):
    """probes.read_secure_boot codes -> words ('not_uefi' is a legacy BIOS boot)."""
    from services.i18n import translate

    words = {
        "enabled": translate("DoctorCli", "on"),
        "disabled": translate("DoctorCli", "off"),
        "not_uefi": translate("DoctorCli", "not available (legacy BIOS boot, no UEFI)"),
        "unknown": translate("DoctorCli", "could not be read"),
    }
    return words.get(code, code)


def module_flavor_word(flavor: str | None):
    from services.i18n import translate

    if flavor == "open":
        return translate("DoctorCli", "open kernel modules")
    if flavor == "proprietary":
        return translate("DoctorCli", "proprietary kernel module")
    return translate("DoctorCli", "unknown type")


def doctor_fact_lines(report) -> list:
    """The facts at the top of `doctor`'s text report, as translatable lines."""
    from services.i18n import translate

    f = report.facts
    lines = []
    if f.os:
        lines.append(translate("DoctorCli", "OS: {os}").format(os=f"{f.os.pretty_name} {f.os.kernel}".strip()))
    if report.gpu:
        g = report.gpu
        gen = g.generation or translate("DoctorCli", "generation unknown")
        lines.append(translate("DoctorCli", "GPU: {name} [{pci}] {generation} {sm}").format(name=g.name, pci=g.pci.pci_id, generation=gen, sm=g.sm or ""))
    if f.driver_version:
        cuda = f.nvml.cuda_version if f.nvml and f.nvml.cuda_version else "?"
        lines.append(translate("DoctorCli", "Driver: {driver} (CUDA up to {cuda})").format(driver=f.driver_version, cuda=cuda))
    if f.kernel_module and f.kernel_module.loaded_flavor:
        lines.append(translate("DoctorCli", "Kernel module: {flavor} {version}").format(
            flavor=module_flavor_word(f.kernel_module.loaded_flavor), version=f.kernel_module.loaded_version or ""))
    lines.append(translate("DoctorCli", "Secure Boot: {state}").format(state=secure_boot_word(f.secure_boot)))
    if f.torch and f.torch.ran:
        torch = f.torch.torch_version or translate("DoctorCli", "not installed")
        lines.append(translate("DoctorCli", "Python: {python} ({version}), PyTorch: {torch}").format(python=f.torch.python, version=f.torch.python_version, torch=torch))
    return lines
