"""Where the app keeps its files.

``GPU_ASSISTANT_HOME`` moves config and data under one folder: the tests set it
so they never touch the user's real settings or recordings.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from services.version import APP_ID

HOME_ENV = "GPU_ASSISTANT_HOME"


def find_resources_dir(frozen: bool, bundle_dir: str | None, module_file: str) -> Path:
    """Where ``resources/`` is, in a checkout or in a PyInstaller bundle.

    In a checkout it sits beside ``services/``. A PyInstaller build unpacks the
    data files under ``sys._MEIPASS`` (the ``_internal`` folder of a one-folder
    build), which is not where the frozen modules claim to live on every
    version, so the bundle's own directory is asked first.
    """
    if frozen and bundle_dir:
        return Path(bundle_dir) / "resources"
    return Path(module_file).resolve().parent.parent / "resources"


RESOURCES_DIR = find_resources_dir(bool(getattr(sys, "frozen", False)), getattr(sys, "_MEIPASS", None), __file__)


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


def resource_path(*parts: str) -> Path:
    """Path of a file under resources/ (works from a checkout and a bundle)."""
    return RESOURCES_DIR.joinpath(*parts)


class UnsafePathError(ValueError):
    """A path the app must not open or write: ``str()`` is one line for the user."""


def _kind_of(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file or a folder."""
    import stat

    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "not a regular file"


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
    label = f"{option} " if option else ""
    text = os.fspath(path)
    if not str(text).strip():
        raise UnsafePathError(f"{label}needs a file name, not an empty string".strip())
    try:
        st = os.stat(text)  # follows links: a link to a FIFO is a FIFO
    except FileNotFoundError:
        if may_be_missing:
            return
        raise UnsafePathError(f"{label}{text}: no such file".strip()) from None
    except OSError as exc:  # name too long, a file where a folder should be, no permission
        if may_be_missing and exc.errno in (20,):  # ENOTDIR: a part of the path is a file
            raise UnsafePathError(f"{label}{text}: a part of the path is a file, not a folder".strip()) from None
        raise UnsafePathError(f"{label}{text}: cannot use it ({exc.strerror or exc})".strip()) from None
    import stat

    if stat.S_ISDIR(st.st_mode):
        if not may_be_folder:
            raise UnsafePathError(f"{label}{text} is a folder; give a file name".strip())
        return
    kind = _kind_of(st.st_mode)
    if kind is not None:
        raise UnsafePathError(f"{label}{text} is {kind}, not a regular file; refusing to use it".strip())
def _platformdirs():  # noqa: ANN202
    """Imported when a path is first needed: commands that read no settings skip its cost."""
    import platformdirs

    return platformdirs
