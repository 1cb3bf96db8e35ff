"""Running a command with administrator rights: pkexec or sudo on Linux, a UAC prompt on
Windows, and the Windows command-line quoting that prompt needs."""
from __future__ import annotations

import os
from collections.abc import Sequence

from services.setup.plan import Argv
from services.setup.system import SystemRoot


def elevate(argv: Argv, mode: str) -> Argv:
    if mode == "pkexec":
        return ("pkexec", *argv)
    if mode == "sudo":
        return ("sudo", *argv)
    if mode == "uac":
        return uac_wrap(argv)
    return tuple(argv)


# PowerShell ends a single-quoted string at any of these, not only at the ASCII apostrophe
# (about_Quoting_Rules; the tokenizer's IsSingleQuote: U+0027, U+2018, U+2019, U+201A, U+201B).
# Inside the string, a quote character written twice stands for itself.
PS_SINGLE_QUOTES = "\u0027\u2018\u2019\u201a\u201b"


def _ps_quote(text: str) -> str:
    """``text`` as a PowerShell single-quoted string literal: nothing in it is expanded or run."""
    return "'" + "".join(c + c if c in PS_SINGLE_QUOTES else c for c in text) + "'"


def windows_command_line(args: Sequence[str]) -> str:
    """Arguments as one Windows command line (the C runtime's quoting, which reg.exe, bcdedit and
    installers parse back with CommandLineToArgvW). Start-Process joins an -ArgumentList array with
    bare spaces, so a value with a space ('Windows NT') would split: it gets one quoted string."""
    import subprocess

    return subprocess.list2cmdline(list(args))


def uac_wrap(argv: Argv) -> Argv:
    """Run one command elevated through a UAC prompt and pass its exit code back."""
    args = f" -ArgumentList {_ps_quote(windows_command_line(argv[1:]))}" if len(argv) > 1 else ""
    script = (
        f"$p = Start-Process -FilePath {_ps_quote(argv[0])}{args} "
        "-Verb RunAs -Wait -PassThru -WindowStyle Hidden; exit $p.ExitCode"
    )
    return ("powershell.exe", "-NoProfile", "-NonInteractive", "-Command", script)


def default_elevation(system: str, gui: bool, root: SystemRoot) -> str:
    if not root.is_real:
        return "none"  # a temporary root (tests) needs no privilege
    if system == "windows":
        return "uac"
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return "none"
    return "pkexec" if gui else "sudo"


def runs_as_user(argv: Argv) -> bool:
    """``reg add/delete HKCU\\...``: the user's own hive. Run as the user, never elevated: an
    administrator's UAC prompt for another account would write that account's HKCU instead."""
    return (len(argv) > 2 and argv[0] == "reg" and argv[1] in ("add", "delete")
            and argv[2].upper().startswith(("HKCU\\", "HKEY_CURRENT_USER\\")))

