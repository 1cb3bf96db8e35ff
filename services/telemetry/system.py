"""CPU, RAM, swap and disk readings, and the CPU use, name and user of GPU processes.

Rates and percentages come from deltas between two calls of the same probe,
kept in the probe itself: no psutil module-level state (``cpu_percent()``
without an interval shares one baseline with every other caller in the
process), no blocking ``interval=`` sleeps.

On Linux the memory figures and a process's name and user come from ``/proc``
(``services/telemetry/procfs.py``, psutil's rules); psutil reads the rates, and
everything on other systems. It is loaded on first use, so a probe without
rates (a one-shot snapshot) on Linux never loads it.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Any
from collections.abc import Callable

from services.telemetry import procfs
from services.telemetry.model import SystemSample

_MIB = 2**20
# Below this much wall time between two readings the CPU tick counters
# (10 ms granularity on Linux) give noise, not a percentage.
_MIN_INTERVAL_S = 0.05


class SystemProbe:
    """Reads the host's load; one instance per sampler (it keeps baselines).

    ``rates=False`` is for a single reading: the CPU, I/O-wait and disk rates and
    a process's CPU use need two readings, so they stay None and their counters
    are never read. ``psutil_module`` and ``read_memory`` replace the host for
    tests; by default memory comes from ``/proc`` on Linux, from psutil elsewhere.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, psutil_module: Any = None,
                 read_memory: Callable[[], procfs.HostMemory | None] | None = None,
                 rates: bool = True) -> None:
        self._clock = clock
        self._ps_module = psutil_module
        self._rates = rates
        if read_memory is None:
            read_memory = _linux_memory if psutil_module is None and _LINUX else self._psutil_memory
        self._read_memory = read_memory
        # psutil's logical count on Linux is os.cpu_count() too; elsewhere it knows processor groups.
        self._cpu_count = os.cpu_count() if psutil_module is None and _LINUX else self._ps.cpu_count(logical=True)
        self._last_cpu: Any = None
        self._last_disk: Any = None
        self._last_t: float | None = None
        self._processes: dict[int, Any] = {}  # pid -> psutil.Process, for cpu_percent deltas
        self._primed: set[int] = set()

    @property
    def _ps(self) -> Any:
        if self._ps_module is None:
            import psutil  # loaded on first use: a one-shot reading on Linux never needs it

            self._ps_module = psutil
        return self._ps_module

    def sample(self, now: float) -> SystemSample:
        """``now`` is the wall-clock stamp of the sample; rates use the probe's clock."""
        t = self._clock()
        elapsed = None if self._last_t is None else t - self._last_t
        cpu_pct = iowait_pct = None
        cpu = self._safe(self._ps.cpu_times) if self._rates else None
        if cpu is not None and self._last_cpu is not None and elapsed and elapsed >= _MIN_INTERVAL_S:
            cpu_pct, iowait_pct = _cpu_percentages(self._last_cpu, cpu)
        disk_read = disk_write = None
        disk = self._safe(self._ps.disk_io_counters) if self._rates else None
        if disk is not None and self._last_disk is not None and elapsed and elapsed >= _MIN_INTERVAL_S:
            disk_read = max(0.0, (disk.read_bytes - self._last_disk.read_bytes) / _MIB / elapsed)
            disk_write = max(0.0, (disk.write_bytes - self._last_disk.write_bytes) / _MIB / elapsed)
        if elapsed is None or elapsed >= _MIN_INTERVAL_S:
            self._last_cpu, self._last_disk, self._last_t = cpu, disk, t
        memory = self._safe(self._read_memory) or _NO_MEMORY
        return SystemSample(
            t=now,
            cpu_pct=cpu_pct,
            cpu_count=self._cpu_count,
            ram_used_mib=(_mib(memory.total - memory.available)
                          if memory.total is not None and memory.available is not None else None),
            ram_total_mib=_mib(memory.total),
            swap_used_mib=_mib(memory.swap_used),
            swap_total_mib=_mib(memory.swap_total),
            disk_read_mib_s=disk_read,
            disk_write_mib_s=disk_write,
            iowait_pct=iowait_pct,
        )

    def process_cpu_pct(self, pid: int) -> float | None:
        """CPU % of one process since the last call for it (100 = one full core).

        None on the first call for a pid (no baseline yet), for a process
        that is gone or not ours to inspect, and always without rates.
        """
        if not self._rates:
            return None
        proc = self._processes.get(pid)
        try:
            if proc is None:
                proc = self._ps.Process(pid)
                self._processes[pid] = proc
            value = proc.cpu_percent(None)
        except (self._ps.NoSuchProcess, self._ps.AccessDenied, self._ps.ZombieProcess, OSError):
            self._processes.pop(pid, None)
            self._primed.discard(pid)
            return None
        if pid not in self._primed:
            self._primed.add(pid)
            return None
        return float(value)

    def forget_processes(self, keep: set[int]) -> None:
        """Drop cached processes no GPU uses any more (so the cache stays small)."""
        for pid in list(self._processes):
            if pid not in keep:
                del self._processes[pid]
                self._primed.discard(pid)

    def _psutil_memory(self) -> procfs.HostMemory:
        return _memory_of(self._ps, self._safe)

    @staticmethod
    def _safe(fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except (OSError, RuntimeError, AttributeError):
            # No disks visible (containers), restricted /proc: a missing value, not a crash.
            return None


def _cpu_percentages(before: Any, after: Any) -> tuple[float | None, float | None]:
    total = _total(after) - _total(before)
    if total <= 0:
        return None, None
    idle = after.idle - before.idle
    iowait = None
    if hasattr(after, "iowait"):
        iowait = after.iowait - before.iowait
    busy = total - idle - (iowait or 0.0)
    cpu_pct = min(100.0, max(0.0, 100.0 * busy / total))
    iowait_pct = None if iowait is None else min(100.0, max(0.0, 100.0 * iowait / total))
    return cpu_pct, iowait_pct


def _total(times: Any) -> float:
    # On Linux guest time is already inside user/nice; count it once (as psutil does).
    return sum(times) - getattr(times, "guest", 0.0) - getattr(times, "guest_nice", 0.0)


_LINUX = sys.platform.startswith("linux")


_NO_MEMORY = procfs.HostMemory(None, None, None, None)


def _mib(value: int | None) -> float | None:
    return value / _MIB if value is not None else None


def _memory_of(ps: Any, safe: Callable[[Callable[[], Any]], Any]) -> procfs.HostMemory:
    """psutil's figures, each pair on its own: Windows reads swap from performance counters, which
    can be switched off (psutil then raises), and the RAM figures must not go with it."""
    vm, swap = safe(ps.virtual_memory), safe(ps.swap_memory)
    return procfs.HostMemory(total=vm.total if vm is not None else None,
                             available=vm.available if vm is not None else None,
                             swap_total=swap.total if swap is not None else None,
                             swap_used=swap.used if swap is not None else None)


def _linux_memory() -> procfs.HostMemory:
    memory = procfs.read_memory()
    if memory is None:  # no MemAvailable (a kernel before 3.14): psutil estimates it
        import psutil

        memory = _memory_of(psutil, SystemProbe._safe)
    return memory


def process_identity(pid: int, psutil_module: Any = None) -> tuple[str | None, str | None]:
    """(name, user) of a process, None for what cannot be read.

    NVML reports host PIDs; inside a container without ``--pid=host`` they do
    not exist here, and on Windows other users' processes refuse access.
    """
    if psutil_module is None:
        if _LINUX:
            return procfs.process_identity(pid)
        import psutil

        psutil_module = psutil
    try:
        proc = psutil_module.Process(pid)
        with proc.oneshot():
            name = proc.name()
            try:
                user = proc.username()
            except (psutil_module.AccessDenied, KeyError, OSError):
                user = None  # KeyError: a uid with no passwd entry (containers)
        return name, user
    except (psutil_module.NoSuchProcess, psutil_module.ZombieProcess):
        return None, None
    except (psutil_module.AccessDenied, OSError):
        return None, None
