"""Showing argument lists to people: as a line they could paste into a terminal."""
from __future__ import annotations

import shlex
import subprocess
from collections.abc import Sequence


def command_line(argv: Sequence[str], windows: bool = False) -> str:
    """One pasteable line. Only for display and copying; commands run as lists."""
    if windows:
        return subprocess.list2cmdline(list(argv))
    # A leading "~/" (a plan for another machine: that user's home) stays outside the quotes, where the
    # shell expands it; shlex.join would write '~/...', a folder named "~".
    return " ".join("~/" + shlex.quote(a[2:]) if a.startswith("~/") and len(a) > 2 else shlex.quote(a)
                    for a in argv)


def printf_command(content: str) -> str:
    """A POSIX shell ``printf`` that writes exactly ``content`` to standard output, on one line:
    each line of the content is one single-quoted argument of a '%s' format (printf never expands
    anything in an argument of %s: no backslash, %, $ or backquote is special there)."""
    lines = content.split("\n")
    if len(lines) > 1 and lines[-1] == "":  # ends with a newline: the format repeats for every line
        lines.pop()
        fmt = "%s\\n"
    else:
        fmt = "%s\\n" * (len(lines) - 1) + "%s"
    return " ".join(["printf", shlex.quote(fmt), *(shlex.quote(line) for line in lines)])


def stdin_pipeline(content: str, argv: Sequence[str]) -> str:
    """``argv`` with ``content`` on its standard input, as one line that runs when pasted into a shell."""
    return printf_command(content) + " | " + command_line(argv)


def envs_found_heading():
    """Heading the doctor CLI prints above the environments it found."""
    from services.i18n import translate

    return translate("DoctorCli", "Python environments found (test one with --python PATH):")


def fact_label(key: str):
    """Labels of the doctor CLI's fact lines (the GUI has its own, in the page)."""
    from services.i18n import translate

    return {
        "os": translate("DoctorCli", "OS"),
        "gpu": translate("DoctorCli", "GPU"),
        "driver": translate("DoctorCli", "Driver"),
        "module": translate("DoctorCli", "Kernel module"),
        "secure_boot": translate("DoctorCli", "Secure Boot"),
        "python": translate("DoctorCli", "Python"),
    }[key]


def fact_line(label, value: str):
    """"Label: value" (a full-width colon in Chinese)."""
    from services.i18n import translate

    return translate("DoctorCli", "{label}: {value}").format(label=label, value=value)


def secure_boot_word(state: str):
    """The probe's stable code (enabled | disabled | not_uefi | unknown) in words."""
    from services.i18n import translate

    words = {
        "enabled": translate("DoctorCli", "on"),
        "disabled": translate("DoctorCli", "off"),
        "not_uefi": translate("DoctorCli", "legacy BIOS boot"),
        "unknown": translate("DoctorCli", "unknown"),
    }
    return words.get(state, state)


def setup_word(code: str):
    """Words for the setup CLI's stable codes: step flags, check results and progress states."""
    from services.i18n import translate

    words = {
        "root": translate("SetupCli", "root"),
        "admin": translate("SetupCli", "admin"),
        "reboot": translate("SetupCli", "reboot"),
        "by hand": translate("SetupCli", "by hand"),
        "not_done": translate("SetupCli", "not done"),
        "unknown": translate("SetupCli", "unknown"),
        "pending": translate("SetupCli", "pending"),
        "done": translate("SetupCli", "done"),
        "skipped": translate("SetupCli", "skipped"),
        "failed": translate("SetupCli", "failed"),
        "undone": translate("SetupCli", "undone"),
    }
    return words.get(code, code)


def undo_hint(command: str):
    from services.i18n import translate

    return translate("SetupCli", "undo: {command}").format(command=command)


def skipped_heading(command: str):
    from services.i18n import translate

    return translate("SetupCli", "Not in this plan (the doctor found them not needed; '{command}' shows every step):").format(command=command)


def pad_columns(text: str, width: int) -> str:
    """Left-align in terminal columns (a Chinese character takes two)."""
    import unicodedata

    cells = sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)
    return text + " " * max(0, width - cells)


def flags_label(flags: list):
    """'(root, reboot)': joined through a translatable pair, so Chinese gets its own comma."""
    from services.i18n import translate

    joined = flags[0]
    for flag in flags[1:]:
        joined = translate("SetupCli", "{first}, {second}").format(first=joined, second=flag)
    return translate("SetupCli", "({flags})").format(flags=joined)


def confirm_question():
    from services.i18n import translate

    return translate("SetupCli", "Run these commands? [y/N] ")


def nothing_changed():
    from services.i18n import translate

    return translate("SetupCli", "nothing was changed")


def module_flavor_word(flavor: str | None):
    """open | proprietary (from the module's license) in words."""
    from services.i18n import translate

    if flavor == "open":
        return translate("DoctorCli", "open kernel modules")
    if flavor == "proprietary":
        return translate("DoctorCli", "proprietary kernel module")
    return translate("DoctorCli", "unknown type")


def generation_word(generation: str | None):
    from services.i18n import translate

    return generation if generation else translate("DoctorCli", "generation unknown")


def torch_line(python: str, python_version: str, torch_version: str | None):
    from services.i18n import translate

    torch = torch_version or translate("DoctorCli", "not installed")
    return translate("DoctorCli", "{python} ({version}), PyTorch: {torch}").format(python=python, version=python_version, torch=torch)


def driver_value(driver: str, cuda: str):
    from services.i18n import translate

    return translate("DoctorCli", "{driver} (CUDA up to {cuda})").format(driver=driver, cuda=cuda)
