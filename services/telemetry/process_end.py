"""Ending a process from the process view: who may, and terminate-then-kill."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

from services.i18n import Msg, translate
from services.telemetry.process_model import GpuProcess

@dataclass(frozen=True, slots=True)
class EndResult:
    ok: bool
    message: Msg


def current_user() -> str | None:
    try:
        import getpass

        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return None


def privileged() -> bool:
    """Root on POSIX, an elevated process on Windows: may end other users' processes."""
    if sys.platform == "win32":
        try:
            import ctypes

            return bool(ctypes.windll.shell32.IsUserAnAdmin())
        except (AttributeError, OSError):
            return False
    return hasattr(os, "geteuid") and os.geteuid() == 0


def same_user(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return False
    # Windows users come as DOMAIN\name from psutil and as name from getpass.
    return a.rsplit("\\", 1)[-1].casefold() == b.rsplit("\\", 1)[-1].casefold()


def may_end(row: GpuProcess, user: str | None = None, is_privileged: bool | None = None) -> Msg | None:
    """None when this app may end the process; else why not, one line."""
    if row.ended_at is not None:
        return translate("Processes", "{name} ({pid}) has already ended.").format(name=row.name, pid=row.pid)
    if row.pid == os.getpid():
        return translate("Processes", "This is GPU Assistant itself.")
    if is_privileged is None:
        is_privileged = privileged()
    if is_privileged:
        return None
    user = current_user() if user is None else user
    if row.user is None:
        return translate("Processes", "The system does not say who runs {name} ({pid}); ending it needs "
                                      "administrator rights.").format(name=row.name, pid=row.pid)
    if not same_user(row.user, user):
        return translate("Processes", "{name} ({pid}) belongs to {owner}; ending another user's process needs "
                                      "administrator rights (run as root or as administrator).").format(
            name=row.name, pid=row.pid, owner=row.user)
    return None


def end_process(row: GpuProcess, *, psutil_module: Any = None, grace_s: float = 3.0,
                user: str | None = None, is_privileged: bool | None = None) -> EndResult:
    """Ask the process to end (SIGTERM / TerminateProcess), then kill it after ``grace_s``.

    The process must still be the one in the row (same start time): a pid the system
    gave to a new process since is left alone.
    """
    refusal = may_end(row, user, is_privileged)
    if refusal is not None:
        return EndResult(False, refusal)
    if psutil_module is None:
        import psutil
        psutil_module = psutil
    ps = psutil_module
    try:
        proc = ps.Process(row.pid)
        if row.started_at is not None and abs(proc.create_time() - row.started_at) >= 0.5:
            return EndResult(False, translate(
                "Processes", "{name} ({pid}) has already ended; its number now belongs to another program, "
                             "which was left alone.").format(name=row.name, pid=row.pid))
        proc.terminate()
        try:
            proc.wait(timeout=grace_s)
            return EndResult(True, translate("Processes", "{name} ({pid}) has ended.").format(
                name=row.name, pid=row.pid))
        except ps.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=grace_s)
            return EndResult(True, translate(
                "Processes", "{name} ({pid}) did not end when asked and was killed.").format(
                name=row.name, pid=row.pid))
    except (ps.NoSuchProcess, ps.ZombieProcess):
        return EndResult(True, translate("Processes", "{name} ({pid}) has ended.").format(
            name=row.name, pid=row.pid))
    except ps.AccessDenied:
        return EndResult(False, translate(
            "Processes", "The system refused to end {name} ({pid}): it needs administrator rights.").format(
            name=row.name, pid=row.pid))
    except ps.TimeoutExpired:
        return EndResult(False, translate(
            "Processes", "{name} ({pid}) is still running after being killed (stuck in the driver?).").format(
            name=row.name, pid=row.pid))
    except OSError as exc:
        return EndResult(False, translate("Processes", "Could not end {name} ({pid}): {error}").format(
            name=row.name, pid=row.pid, error=exc.strerror or str(exc)))
