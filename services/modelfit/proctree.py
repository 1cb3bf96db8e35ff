"""The processes a measurement follows: one process and its descendants, and whose they are."""
from __future__ import annotations

from typing import Any


class ProcessTree:
    """The measured process and its descendants, through psutil."""

    def __init__(self, pid: int, psutil_module: Any = None) -> None:
        if psutil_module is None:
            import psutil
            psutil_module = psutil
        self._psutil = psutil_module
        self.pid = pid
        self.denied = False  # its children could not be listed (another user's process on Windows)

    def pids(self) -> set[int]:
        ps = self._psutil
        found = {self.pid}
        try:
            for child in ps.Process(self.pid).children(recursive=True):
                found.add(child.pid)
        except (ps.NoSuchProcess, ps.ZombieProcess):
            pass
        except (ps.AccessDenied, OSError):
            self.denied = True
        return found


def process_owner(pid: int, psutil_module: Any = None) -> str | None:
    if psutil_module is None:
        import psutil
        psutil_module = psutil
    try:
        return psutil_module.Process(pid).username()
    except Exception:  # unknown owner: said as unknown
        return None


def current_user() -> str | None:
    try:
        import getpass

        return getpass.getuser()
    except Exception:
        return None
