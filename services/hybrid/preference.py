"""Putting a program on the NVIDIA GPU, as a plan of exact changes that is shown first,
applied with a backup, and undone from that backup.

Windows: HKCU\\Software\\Microsoft\\DirectX\\UserGpuPreferences, value name = the full exe
path, data = a ';'-terminated token list such as ``GpuPreference=2;SwapEffectUpgradeEnable=1;``.
GpuPreference 0 = let Windows decide, 1 = power saving, 2 = high performance. The other
tokens are kept; no admin rights are needed; it applies when the program next starts.

Linux: a launcher script in ~/.local/bin that sets the PRIME render offload variables
(DRI_PRIME for a Mesa-driven discrete GPU) and a desktop entry in
~/.local/share/applications with PrefersNonDefaultGPU=true (Desktop Entry Spec 1.4).

This module holds what both share: the plan and its changes, and reading the files it changes.
The plans are made in services.hybrid.preference_windows and services.hybrid.preference_linux;
services.hybrid.preference_store applies and undoes them.
"""
from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from services.i18n import Msg, TranslatableError, Translator, translate

_INTERPRETER = re.compile(r"^(python[0-9.]*|pythonw|py|node|java|javaw|bash|sh|dash|zsh|perl|ruby|wine|wine64)(\.exe)?$",
                          re.IGNORECASE)


def is_interpreter(program: str) -> bool:
    """Python, Node, Java, shells ...: the preference then covers every script they run."""
    name = program.replace("\\", "/").rsplit("/", 1)[-1]
    return bool(_INTERPRETER.match(name))


class PlanError(TranslatableError):
    """The change cannot be planned or applied; ``message`` says why in one line."""


@dataclass(frozen=True, slots=True)
class Change:
    """One exact change. kind "registry": target = 'HKCU\\key', name = value name.
    kind "file": target = the file path. before/after None = absent."""

    kind: str
    target: str
    name: str | None
    before: str | None
    after: str | None
    executable: bool = False

    def describe(self) -> Msg:
        """The change in the reader's language (the file's content and the values stay as they are)."""
        if self.kind == "registry":
            return translate("Hybrid", "registry {key}\n  value: {name}\n  before: {before}\n  after:  {after}").format(
                key=self.target, name=self.name or "", before=_show(self.before), after=_show(self.after))
        if self.before is None:
            action = (translate("Hybrid", "create (executable)") if self.executable
                      else translate("Hybrid", "create"))
        elif self.after is None:
            action = translate("Hybrid", "delete")
        else:
            action = (translate("Hybrid", "replace, executable (the old content is kept in the backup)")
                      if self.executable else translate("Hybrid", "replace (the old content is kept in the backup)"))
        body = "" if self.after is None else "\n" + "\n".join("  | " + line for line in self.after.splitlines())
        return translate("Hybrid", "file {path}: {action}{content}").format(path=self.target, action=action, content=body)


def _show(value: str | None) -> Msg | str:
    return translate("Hybrid", "(no value)") if value is None else json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class PreferencePlan:
    program: str
    platform: str
    changes: tuple[Change, ...]
    notes: tuple[Msg, ...]
    launch_env: tuple[tuple[str, str], ...] = ()  # what "Launch and check" sets (Linux)

    def describe(self, tr: Translator | None = None) -> str:
        """Every change, one after the other, rendered with ``tr`` (English without one)."""
        return "\n".join(change.describe().render(tr) for change in self.changes)

    @property
    def is_noop(self) -> bool:
        return all(c.before == c.after for c in self.changes)


# A launcher, a menu entry or a backup of them is a few kB; a bigger file is not one we wrote.
MAX_FILE_BYTES = 4 * 1024 * 1024


def read_file_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file's bytes. Opened without blocking and type-checked, so a FIFO in its place
    is an error rather than a hang; a file over ``limit`` is an error too."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise PlanError(translate("Hybrid", "{path} is not a regular file, so GPU Assistant will not change it").format(path=str(path)))
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise PlanError(translate("Hybrid", "{path} is too large to be a launcher or menu entry; GPU Assistant will not change it").format(path=str(path)))
    return data


def read_file_text(path: Path) -> str | None:
    try:
        return read_file_bytes(path).decode("utf-8")
    except OSError:
        return None
    except UnicodeDecodeError:
        # Reading it lossily would make a backup that cannot restore it: leave such a file alone.
        raise PlanError(translate("Hybrid", "{path} is not UTF-8 text, so GPU Assistant will not change it").format(
            path=str(path))) from None
