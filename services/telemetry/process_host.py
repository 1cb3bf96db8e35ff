"""What the operating system says about the processes on the GPUs (command line, user, start, CPU %,
host memory): psutil, and on Linux ``/proc/PID/stat`` read directly for the per-refresh figures."""
from __future__ import annotations

import functools
import os
import sys
import time
from typing import Any
from collections.abc import Callable, Iterable

from services.telemetry.process_model import HostProcess

_MIB = 2**20
_LINUX = sys.platform.startswith("linux")
_CLK_TCK = os.sysconf("SC_CLK_TCK") if _LINUX else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if _LINUX else 4096


def proc_stat_times(pid: int, proc_root: str = "/proc") -> tuple[float, float] | None:
    """(CPU seconds used, resident MiB) from one read of ``/proc/PID/stat`` (Linux); None if gone.

    The same figures psutil reads (``cpu_times`` user + system from fields 14-15 in clock
    ticks, ``memory_info().rss`` as resident pages), from one file instead of two: with
    hundreds of GPU processes refreshed every second, psutil's per-process cost is most of
    the refresh (tests/bench/bench_process_refresh.py).
    """
    try:  # os.open/os.read: a third of the cost of a buffered file object for one small read
        fd = os.open(f"{proc_root}/{pid}/stat", os.O_RDONLY)
        try:
            data = os.read(fd, 4096)
        finally:
            os.close(fd)
    except OSError:
        return None
    return _stat_figures(data)


def _stat_figures(data: bytes) -> tuple[float, float] | None:
    fields = data[data.rfind(b")") + 2:].split()
    try:
        # After the name: state is fields[0], so utime (field 14) is fields[11], rss (field 24) fields[21].
        return (int(fields[11]) + int(fields[12])) / _CLK_TCK, int(fields[21]) * _PAGE / _MIB
    except (IndexError, ValueError):
        return None


# /proc/PID/stat files kept open between refreshes (pread at 0 reads them again): 0.6 ms instead of
# 1.6 ms for 200 processes. The open file stays with its process: once that ends, reading it fails
# (ESRCH), so a number the system gives to a new process is never read through an old file.
_KEPT_STAT_FILES = 256


class PsutilHost:
    """``HostProbe`` through psutil. What does not change (command line, user, start) is read once per
    process; CPU % and resident memory every refresh, on Linux from ``/proc/PID/stat`` directly,
    elsewhere through one ``psutil.Process`` per pid (CPU % needs the same object twice)."""

    def __init__(self, psutil_module: Any = None, *, proc_root: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._ps_module = psutil_module
        # /proc is read directly on Linux (tests that hand in a psutil stand-in use it throughout).
        self._proc_root = proc_root if proc_root is not None else ("/proc" if _LINUX and psutil_module is None
                                                                   else None)
        self._clock = clock
        self._cpu_seen: dict[int, tuple[float, float]] = {}  # pid -> (clock, CPU seconds) at the last read
        self._procs: dict[int, Any] = {}
        self._fixed: dict[int, tuple[str | None, str | None, str | None, float | None]] = {}
        self._primed: set[int] = set()  # pids read before: cpu_percent has its baseline
        self._stat_files: dict[int, int] = {}  # pid -> its /proc/PID/stat, open (Linux)

    @property
    def _ps(self) -> Any:
        if self._ps_module is None:
            import psutil  # on the first refresh, on the hub's thread: not part of the app's start-up

            self._ps_module = psutil
        return self._ps_module

    def read(self, pids: Iterable[int]) -> dict[int, HostProcess]:
        wanted = set(pids)
        if self._proc_root is not None:
            return self._read_proc(wanted)
        ps = self._ps
        for pid in [p for p in self._procs if p not in wanted]:
            del self._procs[pid]
            self._fixed.pop(pid, None)
        result = {}
        for pid in wanted:
            proc = self._procs.get(pid)
            try:
                if proc is None:
                    proc = self._procs[pid] = ps.Process(pid)
                with proc.oneshot():
                    fixed = self._fixed.get(pid)
                    if fixed is None:
                        fixed = self._fixed[pid] = (
                            _ask(ps, proc.name), _command_line(ps, proc), _ask(ps, proc.username),
                            _ask(ps, proc.create_time))
                    cpu = _ask(ps, functools.partial(proc.cpu_percent, None))
                    memory = _ask(ps, proc.memory_info)
            except (ps.NoSuchProcess, ps.ZombieProcess, ps.AccessDenied, OSError):
                self._procs.pop(pid, None)
                self._fixed.pop(pid, None)
                continue
            first = pid not in self._primed  # psutil's first cpu_percent(None) is a meaningless 0.0
            result[pid] = HostProcess(
                pid=pid, name=fixed[0], command_line=fixed[1], user=fixed[2], started_at=fixed[3],
                cpu_pct=None if cpu is None or first else float(cpu),
                host_mib=memory.rss / _MIB if memory is not None else None)
        self._primed = set(result)
        return result

    def close(self) -> None:
        """Close the /proc files kept open between refreshes."""
        for fd in self._stat_files.values():
            os.close(fd)
        self._stat_files.clear()

    def _stat(self, pid: int) -> tuple[float, float] | None:
        fd = self._stat_files.get(pid)
        if fd is None:
            if len(self._stat_files) >= _KEPT_STAT_FILES:
                return proc_stat_times(pid, self._proc_root or "/proc")
            try:
                fd = self._stat_files[pid] = os.open(f"{self._proc_root}/{pid}/stat", os.O_RDONLY)
            except OSError:
                return None
        try:
            return _stat_figures(os.pread(fd, 4096, 0))
        except OSError:  # the process ended
            os.close(self._stat_files.pop(pid))
            return None

    def _read_proc(self, wanted: set[int]) -> dict[int, HostProcess]:
        for pid in [p for p in self._fixed if p not in wanted]:
            del self._fixed[pid]
            self._cpu_seen.pop(pid, None)
        for pid in [p for p in self._stat_files if p not in wanted]:
            os.close(self._stat_files.pop(pid))
        now = self._clock()
        result = {}
        for pid in wanted:
            figures = self._stat(pid)
            if figures is None:
                self._fixed.pop(pid, None)
                self._cpu_seen.pop(pid, None)
                continue
            cpu_s, rss_mib = figures
            fixed = self._fixed.get(pid)
            if fixed is None:
                fixed = self._fixed[pid] = self._fixed_facts(pid)
            seen = self._cpu_seen.get(pid)
            self._cpu_seen[pid] = (now, cpu_s)
            cpu_pct = None
            if seen is not None and now - seen[0] >= 0.05:  # tick counters: noise below 50 ms
                cpu_pct = max(0.0, (cpu_s - seen[1]) / (now - seen[0]) * 100.0)
            result[pid] = HostProcess(pid=pid, name=fixed[0], command_line=fixed[1], user=fixed[2],
                                      started_at=fixed[3], cpu_pct=cpu_pct, host_mib=rss_mib)
        return result

    def _fixed_facts(self, pid: int) -> tuple[str | None, str | None, str | None, float | None]:
        ps = self._ps
        try:
            proc = ps.Process(pid)
            with proc.oneshot():
                return (_ask(ps, proc.name), _command_line(ps, proc), _ask(ps, proc.username),
                        _ask(ps, proc.create_time))
        except (ps.NoSuchProcess, ps.ZombieProcess, ps.AccessDenied, OSError):
            return (None, None, None, None)


def _ask(ps: Any, fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except (ps.AccessDenied, KeyError, OSError):  # KeyError: a uid without a passwd entry
        return None


def _command_line(ps: Any, proc: Any) -> str | None:
    parts = _ask(ps, proc.cmdline)
    if not parts:
        return None
    return " ".join(f'"{p}"' if (" " in p and not p.startswith('"')) else p for p in parts)
