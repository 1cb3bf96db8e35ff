"""Launch and check: start a program with the GPU preference applied, poll until it does
GPU work (bounded time) and report where it landed."""
from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass
from collections.abc import Callable

import psutil

from services.hybrid.model import Basis, ProcessReport, ScanResult
from services.hybrid.preference import PlanError
from services.i18n import translate

Scanner = Callable[[list[int], float, threading.Event | None], ScanResult]


@dataclass(frozen=True, slots=True)
class LaunchReport:
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    pid: int
    outcome: str  # "landed" | "timeout" | "exited" | "stopped"
    report: ProcessReport | None  # the program (or a child of it) with the strongest evidence
    waited_s: float
    returncode: int | None
    notes: tuple = ()  # Msg: what the user should know about how it was started


def _family(pid: int) -> list[int]:
    try:
        return [pid] + [c.pid for c in psutil.Process(pid).children(recursive=True)]
    except psutil.Error:
        return [pid]


_RANK = {Basis.MEASURED: 3, Basis.CONTEXT: 2, Basis.LIBRARIES: 1, Basis.NOTHING: 0}


def _best(reports: tuple[ProcessReport, ...]) -> ProcessReport | None:
    if not reports:
        return None
    return max(reports, key=lambda r: (_RANK[r.basis], r.work_pct or 0.0, r.memory_mib or 0.0))


def launch_and_check(argv: list[str], env: tuple[tuple[str, str], ...], scan: Scanner, timeout_s: float = 20.0,
                     poll_s: float = 1.0, stop: threading.Event | None = None,
                     on_progress: Callable[[float, ProcessReport | None], None] | None = None) -> LaunchReport:
    if not argv:
        raise PlanError(translate("Hybrid", "Name the program to start"))
    full_env = dict(os.environ)
    full_env.update(dict(env))
    try:
        # An argument list, never a shell string; its own session so it outlives this check.
        proc = subprocess.Popen(argv, env=full_env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
    except FileNotFoundError as exc:
        raise PlanError(translate("Hybrid", "No program at {path}").format(path=argv[0])) from exc
    except PermissionError as exc:
        raise PlanError(translate("Hybrid", "{path} is not executable").format(path=argv[0])) from exc
    except OSError as exc:
        raise PlanError(translate("Hybrid", "Could not start {path}: {error}").format(
            path=argv[0], error=exc.strerror or str(exc))) from exc
    started = time.monotonic()
    best: ProcessReport | None = None
    outcome = "timeout"
    while True:
        elapsed = time.monotonic() - started
        if stop is not None and stop.is_set():
            outcome = "stopped"
            break
        if elapsed >= timeout_s:
            break
        family = _family(proc.pid)
        result = scan(family, min(poll_s, max(0.1, timeout_s - elapsed)), stop)
        candidate = _best(tuple(r for r in result.processes if r.pid in family))
        if candidate is not None and (best is None or _RANK[candidate.basis] >= _RANK[best.basis]):
            best = candidate
        if on_progress is not None:
            on_progress(time.monotonic() - started, best)
        if best is not None and best.basis in (Basis.MEASURED, Basis.CONTEXT):
            outcome = "landed"
            break
        if proc.poll() is not None and len(_family(proc.pid)) <= 1:
            outcome = "exited"
            break
    return LaunchReport(argv=tuple(argv), env=tuple(env), pid=proc.pid, outcome=outcome, report=best,
                        waited_s=time.monotonic() - started, returncode=proc.poll())
