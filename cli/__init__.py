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
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TextIO

from services.console import ERROR_LINE, NOTE_LINE, WARNING_LINE
from services.i18n import Msg, translate
from services.program import program_name  # noqa: F401 - both front ends print it

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NO_GPU = 3

# command name -> module (kept one per line so tools can be added independently)
COMMANDS: dict[str, str] = {
    "monitor": "cli.monitor",
    "sessions": "cli.sessions",
    "fit": "cli.fit",
    "psu": "cli.psu",
    "doctor": "cli.doctor",
    "setup": "cli.setup",
    "hybrid": "cli.hybrid",
    "exporter": "cli.exporter",
    "power": "cli.power",
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


if TYPE_CHECKING:
    from services.i18n import Catalog


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit code 2.

    Carries a ``Msg`` (translated when printed, see ``fail``) or a plain str; ``str(exc)`` is English.
    """

    @property
    def message(self) -> "Msg | str":
        return self.args[0] if self.args else ""


def refuse_empty(value: "str | None", option: str) -> None:
    """An option given as '' (or spaces) is bad input, never "the option was left out"."""
    if value is not None and not value.strip():
        raise UsageError(translate("Cli", "{option} must not be empty").format(option=option))


CANNOT_USE = translate("Cli", "cannot use {path}: {reason}")
CANNOT_READ = translate("Cli", "cannot read {path}: {reason}")
CANNOT_WRITE = translate("Cli", "cannot write {path}: {reason}")
ALREADY_EXISTS = translate("Cli", "{path} already exists with other content; choose a new file name")


def check_output_file(path: Path) -> None:
    """Refuse, as bad input, a path we could not write a file to (a device node or a FIFO too:
    writing would block, or turn the node into a plain file)."""
    from services.paths import UnsafePathError, check_regular_file

    try:
        check_regular_file(path, may_be_missing=True)
    except UnsafePathError as exc:
        if "is a folder" not in str(exc):
            raise UsageError(exc.message) from None
    try:
        path.stat()
    except FileNotFoundError:
        pass
    except OSError as exc:  # name too long, no permission on the folder, ...
        raise UsageError(CANNOT_USE.format(path=str(path), reason=exc.strerror or str(exc))) from None
    if path.is_dir():
        raise UsageError(translate("Cli", "{path} is a folder; give a file name").format(path=str(path)))
    if not path.parent.is_dir():
        raise UsageError(translate("Cli", "folder does not exist: {folder}").format(folder=str(path.parent)))


# Every option that names a file to read or write, whatever the command: (attribute, option).
_A_FILE = translate("Cli", "a file name")
_A_SESSION = translate("Cli", "a session id (see: sessions --list) or a recording file")
PATH_OPTIONS: tuple[tuple[str, str, Msg], ...] = (
    ("replay", "--replay", _A_FILE),
    ("screenshot", "--screenshot", _A_FILE),
    ("model", "--model", translate("Cli", "a model id or a file name")),
    ("model_config", "--model-config", _A_FILE),
    ("os_release", "--os-release", _A_FILE),
    ("csv", "--csv", _A_FILE),
    ("export", "--export", _A_SESSION),
    ("compare", "--compare", _A_SESSION),
)


def check_path_options(args) -> None:  # an argparse namespace
    """Refuse '' and FIFOs, devices and sockets in any path option before a command opens one
    (a FIFO would block the open forever). One check at the edge, for every command."""
    for attr, option, what in PATH_OPTIONS:
        value = getattr(args, attr, None)
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if not isinstance(item, str):
                continue
            if not item.strip():
                raise UsageError(translate("Cli", "{option} needs {what}, not an empty string").format(
                    option=option, what=what))
            # Only when a path was given: ``monitor --once --json`` names none.
            from services.paths import UnsafePathError, check_regular_file

            try:
                check_regular_file(item, option, may_be_missing=True)
            except UnsafePathError as exc:
                raise UsageError(exc.message) from None


def cli_catalog() -> "Catalog":
    """The translations for this run: ``--lang`` (main.py sets the override), else the settings
    language, else the system's. Read only when a line is printed: ``monitor --once --json`` never
    loads the settings or the catalogue. Never fails: a broken settings or ``.ts`` file gives English."""
    from services.i18n import LANGUAGE_OVERRIDE_ENV, LANGUAGES, Catalog, resolve_language

    language = "auto"
    kept_aside = None
    if os.environ.get(LANGUAGE_OVERRIDE_ENV) not in LANGUAGES:
        try:
            from services.paths import AppPaths
            from services.settings import SettingsStore

            store = SettingsStore(AppPaths.default().settings_file)
            language = store.load().general.language
            # Reading it here moves an unreadable file aside (fit, monitor, sessions read the settings
            # only for the language): say so, once; the next read finds no file to report.
            if store.moved_aside is not None:
                kept_aside = store.load_problem_text or store.load_problem
        except Exception:  # a settings problem must not hide the message
            language = "auto"
    try:
        catalog = Catalog.load(resolve_language(language))
    except Exception:  # nor a broken translation file
        catalog = Catalog()
    if kept_aside is not None:  # printed here: note() would ask for the catalogue again
        print(catalog.render(NOTE_LINE.format(message=kept_aside)), file=sys.stderr)
    return catalog


def render(message: "Msg | str", catalog: "Catalog | None" = None) -> str:
    """``message`` in this run's language (a str is printed as it is)."""
    if not isinstance(message, Msg):
        return str(message)
    return (catalog or cli_catalog()).render(message)


def _line(template: Msg, message: "Msg | str", err: TextIO | None, catalog: "Catalog | None") -> None:
    text = (catalog or cli_catalog()).render(template.format(message=message))
    print(text, file=err or sys.stderr)


def fail(message: "Msg | str", code: int = EXIT_USAGE, *, err: TextIO | None = None,
         catalog: "Catalog | None" = None) -> int:
    """Print a one-line error (``error: ...``, in this run's language) to stderr and return ``code``."""
    _line(ERROR_LINE, message, err, catalog)
    return code


def note(message: "Msg | str", *, err: TextIO | None = None, catalog: "Catalog | None" = None) -> None:
    """Print a ``note: ...`` line to stderr, in this run's language."""
    _line(NOTE_LINE, message, err, catalog)


def warn(message: "Msg | str", *, err: TextIO | None = None, catalog: "Catalog | None" = None) -> None:
    """Print a ``warning: ...`` line to stderr, in this run's language."""
    _line(WARNING_LINE, message, err, catalog)


def info(message: "Msg | str", *, err: TextIO | None = None, catalog: "Catalog | None" = None) -> None:
    """Print a progress line (no prefix) to stderr, in this run's language."""
    print(render(message, catalog), file=err or sys.stderr)
