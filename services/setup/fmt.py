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
