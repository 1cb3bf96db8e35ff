"""Headless commands: ``python main.py <command>``.

Each command is a module here with ``HELP`` (one line), ``add_arguments(parser)``
and ``run(args) -> int``. ``COMMANDS`` names them; ``main.py`` lists only the
ones whose module exists, so a tool that is not built yet has no dead command.

Exit codes (the same for every command): 0 ok, 1 the check itself failed
(for example "does not fit" is *not* a failure: it is an answer), 2 bad usage or
bad input, 3 no NVIDIA driver / NVML unavailable / no GPU.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from services.program import program_name  # noqa: F401 - both front ends print it

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NO_GPU = 3

# command name -> module (kept one per line so tools can be added independently)
COMMANDS: dict[str, str] = {
    "monitor": "services.cli.monitor",
    "sessions": "services.cli.sessions",
    "fit": "services.cli.fit",
    "psu": "services.cli.psu",
    "doctor": "services.cli.doctor",
    "setup": "services.cli.setup",
    "hybrid": "services.cli.hybrid",
    "exporter": "services.cli.exporter",
}


def _exists(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def available_commands() -> dict[str, str]:
    return {name: mod for name, mod in COMMANDS.items() if _exists(mod)}


def command_available(name: str) -> bool:
    """Whether ``name`` is a command whose module this build has (one look-up, not eight)."""
    return name in COMMANDS and _exists(COMMANDS[name])


def load_command(name: str) -> ModuleType:
    return importlib.import_module(COMMANDS[name])


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit code 2."""


def check_output_file(path: Path) -> None:
    """Refuse, as bad input, a path we could not write a file to (a device node or a FIFO too:
    writing would block, or turn the node into a plain file)."""
    from services.paths import UnsafePathError, check_regular_file

    try:
        check_regular_file(path, may_be_missing=True)
    except UnsafePathError as exc:
        if "is a folder" not in str(exc):
            raise UsageError(str(exc)) from None
    try:
        path.stat()
    except FileNotFoundError:
        pass
    except OSError as exc:  # name too long, no permission on the folder, ...
        raise UsageError(f"cannot use {path}: {exc.strerror or exc}") from None
    if path.is_dir():
        raise UsageError(f"{path} is a folder; give a file name")
    if not path.parent.is_dir():
        raise UsageError(f"folder does not exist: {path.parent}")


# Every option that names a file to read or write, whatever the command: (attribute, option).
PATH_OPTIONS: tuple[tuple[str, str, str], ...] = (
    ("replay", "--replay", "a file name"),
    ("screenshot", "--screenshot", "a file name"),
    ("model", "--model", "a model id or a file name"),
    ("model_config", "--model-config", "a file name"),
    ("os_release", "--os-release", "a file name"),
    ("csv", "--csv", "a file name"),
    ("export", "--export", "a session id (see: sessions --list) or a recording file"),
    ("compare", "--compare", "a session id (see: sessions --list) or a recording file"),
)


def check_path_options(args) -> None:  # noqa: ANN001 - an argparse namespace
    """Refuse '' and FIFOs, devices and sockets in any path option before a command opens one
    (a FIFO would block the open forever). One check at the edge, for every command."""
    for attr, option, what in PATH_OPTIONS:
        value = getattr(args, attr, None)
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if not isinstance(item, str):
                continue
            if not item.strip():
                raise UsageError(f"{option} needs {what}, not an empty string")
            # Only when a path was given: ``monitor --once --json`` names none.
            from services.paths import UnsafePathError, check_regular_file

            try:
                check_regular_file(item, option, may_be_missing=True)
            except UnsafePathError as exc:
                raise UsageError(str(exc)) from None


def fail(message: str, code: int = EXIT_USAGE) -> int:
    """Print a one-line error to stderr and return ``code``."""
    print(f"error: {message}", file=sys.stderr)
    return code
