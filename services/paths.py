"""Where the app keeps its files.

``GPU_ASSISTANT_HOME`` moves config and data under one folder: the tests set it
so they never touch the user's real settings or recordings.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

# resources/ is found in services.resources (services.i18n needs it without importing this module)
from services.resources import RESOURCES_DIR, find_resources_dir, resource_path  # noqa: F401 - re-exported
from services.i18n import Msg, TranslatableError
from services.version import APP_ID

HOME_ENV = "GPU_ASSISTANT_HOME"


@dataclass(frozen=True, slots=True)
class AppPaths:
    config_dir: Path
    data_dir: Path

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def recordings_dir(self) -> Path:
        return self.data_dir / "recordings"

    @classmethod
    def default(cls) -> "AppPaths":
        home = os.environ.get(HOME_ENV)
        if home:
            root = Path(home)
            return cls(config_dir=root / "config", data_dir=root / "data")
        return cls(
            config_dir=Path(_platformdirs().user_config_dir(APP_ID, appauthor=False)),
            data_dir=Path(_platformdirs().user_data_dir(APP_ID, appauthor=False)),
        )


class UnsafePathError(TranslatableError, ValueError):
    """A path the app must not open or write: ``str()`` is one line for the user, in English.

    ``message`` is the same sentence as a translatable ``Msg`` (the CLI and the GUI show it in the
    user's language; ``str(exc)`` and JSON output stay English).
    """



def _kind_of(mode: int) -> "Msg | None":
    """What a non-regular file is, in words; None for a regular file or a folder."""
    import stat

    from services.i18n import translate

    if stat.S_ISFIFO(mode):
        return translate("Paths", "a named pipe (FIFO)")
    if stat.S_ISCHR(mode):
        return translate("Paths", "a character device")
    if stat.S_ISBLK(mode):
        return translate("Paths", "a block device")
    if stat.S_ISSOCK(mode):
        return translate("Paths", "a socket")
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return translate("Paths", "not a regular file")


def check_regular_file(path: str | os.PathLike, option: str = "", *, may_be_missing: bool = False,
                       may_be_folder: bool = True) -> None:
    """Refuse, before anything opens it, a path that is empty or names a FIFO, device or socket.

    Opening a FIFO for reading waits for a writer forever, and writing to a device node or
    replacing it with a plain file is never what the user meant, so every path-taking option of
    every command goes through here first. A missing file is left to the caller (an input says
    "not found" in its own words; an output is created) unless ``may_be_missing`` is False and
    the caller wants it said here. Folders are left to the caller too unless ``may_be_folder`` is
    False. Raises ``UnsafePathError`` with the option's name in the message.
    """
    from services.i18n import translate

    text = os.fspath(path)
    if not str(text).strip():
        if option:
            raise UnsafePathError(translate("Paths", "{option} needs a file name, not an empty string").format(
                option=option))
        raise UnsafePathError(translate("Paths", "needs a file name, not an empty string"))
    # "--csv PATH ..." or "PATH ..." (today's English: the sentence is stripped when no option is named)
    label = f"{option} " if option else ""
    shown = str(text) if option else str(text).lstrip()
    try:
        st = os.stat(text)  # follows links: a link to a FIFO is a FIFO
    except FileNotFoundError:
        if may_be_missing and _file_on_the_way(text):  # Windows says "not found" where Linux says ENOTDIR
            raise UnsafePathError(translate("Paths", "{option}{path}: a part of the path is a file, not a folder").format(
                option=label, path=shown)) from None
        if may_be_missing:
            return
        raise UnsafePathError(translate("Paths", "{option}{path}: no such file").format(
            option=label, path=shown)) from None
    except OSError as exc:  # name too long, a file where a folder should be, no permission
        if may_be_missing and exc.errno in (20,):  # ENOTDIR: a part of the path is a file
            raise UnsafePathError(translate("Paths", "{option}{path}: a part of the path is a file, not a folder").format(
                option=label, path=shown)) from None
        raise UnsafePathError(translate("Paths", "{option}{path}: cannot use it ({reason})").format(
            option=label, path=shown, reason=exc.strerror or str(exc))) from None
    import stat

    if stat.S_ISDIR(st.st_mode):
        if not may_be_folder:
            raise UnsafePathError(translate("Paths", "{option}{path} is a folder; give a file name").format(
                option=label, path=shown))
        return
    kind = _kind_of(st.st_mode)
    if kind is not None:
        raise UnsafePathError(translate("Paths", "{option}{path} is {kind}, not a regular file; refusing to use it").format(
            option=label, path=shown, kind=kind))


def _file_on_the_way(text: str) -> bool:
    """Whether the nearest existing folder above ``text`` is in fact a file (notes.txt/shot.png)."""
    for parent in Path(text).parents:
        if parent.exists():
            return not parent.is_dir()
    return False


def _platformdirs():
    """Imported when a path is first needed: commands that read no settings skip its cost."""
    import platformdirs

    return platformdirs
