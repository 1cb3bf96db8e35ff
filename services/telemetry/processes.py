"""Every process on every GPU: one table for the Dashboard's process view and ``monitor``.

Sources, merged per (process, GPU):

- the snapshot's NVML process lists (memory; compute/graphics; SM, encoder and decoder
  share from ``nvmlDeviceGetProcessUtilization``), every platform;
- on Windows, the "GPU Engine" and "GPU Process Memory" counters
  (``services.hybrid.gpu_counters``, handed in by the front end): dedicated and shared memory apart, and the
  busiest 3D/compute engine, also for processes on the integrated GPU, which NVML
  does not see;
- the operating system (psutil): command line, user, start time, CPU %, host memory.

A value no source has stays None; the table carries, per column, one line saying
why (the view's "not reported" tooltip). A process that ended stays in the table,
marked with when it ended, for ``FADE_S`` seconds (the view fades it out), then goes.

``ProcessService.on_snapshot`` is a hub listener: it runs on the hub's worker thread,
so building the table never blocks the window; the view gets the finished table.
"""
from __future__ import annotations

import functools
import os
import re
import sys
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Protocol
from collections.abc import Callable, Iterable

from services.i18n import Msg, translate
from services.telemetry.model import DeviceState, GpuInfo, Snapshot

# A row for a process that ended stays this long (the view fades it), then goes.
FADE_S = 6.0
_MIB = 2**20

COLUMNS = ("pid", "name", "user", "gpu", "kind", "sm_pct", "gpu_memory", "shared_mib", "video", "cpu_pct",
           "host_mib", "running")

NOT_REPORTED_WHY: dict[str, Msg] = {
    "sm_pct": translate(
        "Processes", "The driver keeps no per-process utilisation samples for this GPU (Windows WDDM, older "
                     "GPUs), and no Windows GPU counter had this process."),
    "gpu_memory": translate(
        "Processes", "The driver does not report this process's GPU memory (Windows WDDM), and the Windows "
                     "GPU Process Memory counters did not list it."),
    "user": translate("Processes", "The system did not let this app see who runs this process."),
    "cpu_pct": translate("Processes", "Needs two readings, or the system did not let this app read it."),
    "host_mib": translate("Processes", "The system did not let this app read this process's memory."),
    "running": translate("Processes", "The system did not tell when this process started."),
}


@dataclass(frozen=True, slots=True)
class AdapterProcess:
    """One process on one adapter, from Windows' GPU counters or Linux's DRM fdinfo. None: not reported."""

    pid: int
    # Which adapter: a Windows LUID "0xHHHHHHHH_0xLLLLLLLL" (services.hybrid.windows.format_luid),
    # or on Linux "pci:" and the DRM device's PCI address (services.hybrid.drm_processes).
    adapter: str
    dedicated_mib: float | None = None
    shared_mib: float | None = None
    busy_pct: float | None = None  # busiest 3D/compute engine
    engine_type: str | None = None  # that engine's type as the driver names it (3D, Compute_0, Cuda ...)
    encoder_pct: float | None = None
    decoder_pct: float | None = None


@dataclass(frozen=True, slots=True)
class HostProcess:
    """What the operating system says about a process; None for what it would not tell."""

    pid: int
    name: str | None
    command_line: str | None
    user: str | None
    started_at: float | None  # wall-clock seconds
    cpu_pct: float | None  # 100 = one full core
    host_mib: float | None  # resident memory


@dataclass(frozen=True, slots=True)
class GpuProcess:
    """One process on one GPU, as the view shows it. None: no source reports it."""

    pid: int
    gpu_key: str  # the NVML UUID, or "luid:..." / "pci:..." for an adapter NVML does not see
    gpu_label: str  # "GPU 0", or the adapter's name ("Intel(R) UHD Graphics 630")
    gpu_index: int | None  # NVML index; None for another vendor's GPU
    integrated: bool  # the adapter is an integrated GPU (hybrid machines)
    name: str
    command_line: str | None = None
    user: str | None = None
    kind: str | None = None  # "compute" | "graphics" | "compute+graphics"; None: not from NVML
    sm_pct: float | None = None  # NVML's SM share, or (Windows) the busiest 3D/compute engine
    engine_type: str | None = None  # Windows: that engine's type (3D, Compute_0, Cuda ...)
    used_mib: float | None = None  # GPU memory (dedicated on Windows)
    shared_mib: float | None = None  # Windows: system memory the GPU maps for it (spill goes here)
    gpu_memory_total_mib: float | None = None  # the card's own memory, for the spill rule
    encoder_pct: float | None = None
    decoder_pct: float | None = None
    cpu_pct: float | None = None
    host_mib: float | None = None
    started_at: float | None = None
    ended_at: float | None = None  # set once the process left this GPU

    @property
    def key(self) -> tuple[int, str]:
        return self.pid, self.gpu_key

    def running_s(self, now: float) -> float | None:
        if self.started_at is None:
            return None
        return max(0.0, (self.ended_at or now) - self.started_at)


@dataclass(frozen=True, slots=True)
class ProcessTable:
    """The process view at one moment."""

    t: float
    rows: tuple[GpuProcess, ...] = ()
    adapter_counters: bool = False  # the other adapters' figures (Windows GPU counters, Linux fdinfo) were read
    nvidia_gpus: int = 0  # how many GPUs NVML saw working (the wrong-GPU rule needs one to send work to)
    counters_problem: str | None = None  # why they could not be, one line

    def live(self) -> tuple[GpuProcess, ...]:
        return tuple(r for r in self.rows if r.ended_at is None)

    def find(self, key: tuple[int, str]) -> GpuProcess | None:
        return next((r for r in self.rows if r.key == key), None)


class HostProbe(Protocol):
    def read(self, pids: Iterable[int]) -> dict[int, HostProcess]: ...


class CounterReader(Protocol):
    """Windows' GPU counters per (pid, LUID) (services.hybrid.gpu_counters.WindowsProcessCounters)."""

    def collect(self) -> dict[tuple[int, str], AdapterProcess]: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Adapter:
    """A GPU the counters name (``AdapterProcess.adapter``): which NVML GPU it is, or its own name and kind."""

    key: str
    name: str
    integrated: bool
    nvml_uuid: str | None = None  # set for an NVIDIA adapter matched to an NVML GPU
    memory_total_mib: float | None = None


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
    fields = data[data.rfind(b")") + 2:].split()
    try:
        # After the name: state is fields[0], so utime (field 14) is fields[11], rss (field 24) fields[21].
        return (int(fields[11]) + int(fields[12])) / _CLK_TCK, int(fields[21]) * _PAGE / _MIB
    except (IndexError, ValueError):
        return None


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

    def _read_proc(self, wanted: set[int]) -> dict[int, HostProcess]:
        for pid in [p for p in self._fixed if p not in wanted]:
            del self._fixed[pid]
            self._cpu_seen.pop(pid, None)
        now = self._clock()
        result = {}
        for pid in wanted:
            figures = proc_stat_times(pid, self._proc_root or "/proc")
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


class ProcessService:
    """Builds the ``ProcessTable`` from each snapshot; a hub listener.

    ``counters``: the Windows counter reader (``win_counters.PdhCounterSession``), None elsewhere.
    ``adapters``: the GPUs the counters name by LUID (from the hybrid inventory).
    """

    def __init__(self, host: HostProbe | None = None, *, counters: CounterReader | None = None,
                 adapters: Iterable[Adapter] | Callable[[tuple[GpuInfo, ...]], Iterable[Adapter]] = (),
                 clock: Callable[[], float] = time.time, fade_s: float = FADE_S) -> None:
        self._host = host if host is not None else PsutilHost()
        self._counters = counters
        # A callable is asked again whenever the set of NVML GPUs changes (it matches them to LUIDs).
        self._find_adapters = adapters if callable(adapters) else None
        self._adapters = {} if callable(adapters) else {a.key.upper(): a for a in adapters}
        self._adapters_for: tuple[str, ...] | None = None
        self._clock = clock
        self._fade_s = fade_s
        self._ended: dict[tuple[int, str], GpuProcess] = {}
        self._previous: dict[tuple[int, str], GpuProcess] = {}
        self._listeners: list[Callable[[ProcessTable], None]] = []
        self._lock = threading.Lock()
        self._latest = ProcessTable(t=0.0)
        self._counters_problem: str | None = None

    # ---- listeners (the view, the alert engine)

    def add_listener(self, fn: Callable[[ProcessTable], None]) -> None:
        with self._lock:
            if fn not in self._listeners:
                self._listeners.append(fn)

    def remove_listener(self, fn: Callable[[ProcessTable], None]) -> None:
        with self._lock:
            if fn in self._listeners:
                self._listeners.remove(fn)

    @property
    def latest(self) -> ProcessTable:
        with self._lock:
            return self._latest

    def on_snapshot(self, snapshot: Snapshot) -> None:
        table = self.update(snapshot)
        with self._lock:
            listeners = list(self._listeners)
        for fn in listeners:
            fn(table)

    def close(self) -> None:
        if self._counters is not None:
            try:
                self._counters.close()
            except OSError:
                pass

    # ---- the table

    def update(self, snapshot: Snapshot, counters: dict[tuple[int, str], AdapterProcess] | None = None
               ) -> ProcessTable:
        """The table for ``snapshot``; ``counters`` (per (pid, LUID)) replaces a live counter read."""
        now = snapshot.t
        infos = {g.uuid: g for g in snapshot.gpus}
        rows: dict[tuple[int, str], dict[str, Any]] = {}
        for sample in snapshot.samples:
            if sample.state is not DeviceState.OK or not sample.processes:
                continue
            info = infos.get(sample.uuid)
            total = sample.memory_total_mib or (info.memory_total_mib if info else None)
            for p in sample.processes:
                rows[(p.pid, sample.uuid)] = dict(
                    pid=p.pid, gpu_key=sample.uuid, gpu_label=f"GPU {sample.index}", gpu_index=sample.index,
                    integrated=False, name=p.name, user=p.user, kind=p.kind, sm_pct=p.sm_pct,
                    used_mib=p.used_mib, gpu_memory_total_mib=total, encoder_pct=p.encoder_pct,
                    decoder_pct=p.decoder_pct, cpu_pct=p.cpu_pct)
        counted = False
        if counters is None and self._counters is not None:
            try:
                counters = self._counters.collect()
                self._counters_problem = None
            except OSError as exc:
                self._counters_problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if counters is not None:
            counted = True
            gpus = tuple(g.uuid for g in snapshot.gpus)
            if self._find_adapters is not None and gpus != self._adapters_for:
                self._adapters_for = gpus
                try:
                    self._adapters = {a.key.upper(): a for a in self._find_adapters(snapshot.gpus)}
                except OSError:
                    self._adapters = {}
            self._merge_counters(rows, counters, snapshot)
        host = self._host.read({pid for pid, _ in rows})
        built: dict[tuple[int, str], GpuProcess] = {}
        for key, values in rows.items():
            h = host.get(key[0])
            if h is not None:
                values["name"] = values.get("name") if values.get("name") not in (None, "?") else (h.name or "?")
                values.update(command_line=h.command_line, user=values.get("user") or h.user,
                              started_at=h.started_at, cpu_pct=h.cpu_pct if h.cpu_pct is not None
                              else values.get("cpu_pct"), host_mib=h.host_mib)
            values.setdefault("name", "?")
            if values["name"] is None:
                values["name"] = "?"
            built[key] = GpuProcess(**values)
        # Rows that went away: kept, marked ended, until they have faded.
        for key, row in self._previous.items():
            if key not in built and key not in self._ended:
                self._ended[key] = replace(row, ended_at=now, sm_pct=None, encoder_pct=None, decoder_pct=None,
                                           cpu_pct=None)
        for key in [k for k, r in self._ended.items() if k in built or now - (r.ended_at or now) >= self._fade_s]:
            del self._ended[key]
        self._previous = built
        table = ProcessTable(t=now, rows=tuple(built.values()) + tuple(self._ended.values()),
                             adapter_counters=counted, counters_problem=self._counters_problem,
                             nvidia_gpus=sum(1 for g in snapshot.samples if g.state is DeviceState.OK))
        with self._lock:
            self._latest = table
        return table

    def _merge_counters(self, rows: dict[tuple[int, str], dict[str, Any]],
                        found: dict[tuple[int, str], AdapterProcess], snapshot: Snapshot) -> None:
        index_by_uuid = {s.uuid: s.index for s in snapshot.samples}
        totals = {s.uuid: s.memory_total_mib for s in snapshot.samples}
        for (pid, luid), c in found.items():
            adapter = self._adapters.get(luid.upper())
            if adapter is not None and adapter.nvml_uuid is not None:
                key = (pid, adapter.nvml_uuid)
                values = rows.get(key)
                if values is None:  # the counters see it before NVML lists it
                    index = index_by_uuid.get(adapter.nvml_uuid)
                    values = rows[key] = dict(
                        pid=pid, gpu_key=adapter.nvml_uuid, gpu_index=index,
                        gpu_label=f"GPU {index}" if index is not None else adapter.name, integrated=False,
                        gpu_memory_total_mib=totals.get(adapter.nvml_uuid) or adapter.memory_total_mib)
            else:
                if c.busy_pct is None and not c.dedicated_mib and not c.shared_mib:
                    continue  # an idle handle on another adapter: not worth a row
                key = (pid, adapter_gpu_key(luid))
                values = rows.setdefault(key, dict(
                    pid=pid, gpu_key=key[1], gpu_label=adapter.name if adapter else luid, gpu_index=None,
                    integrated=bool(adapter and adapter.integrated),
                    gpu_memory_total_mib=adapter.memory_total_mib if adapter else None))
            # WDDM: NVML has no memory or utilisation for the process; the counters do.
            if values.get("used_mib") is None and c.dedicated_mib is not None:
                values["used_mib"] = c.dedicated_mib
            if c.shared_mib is not None:
                values["shared_mib"] = c.shared_mib
            if values.get("sm_pct") is None and c.busy_pct is not None:
                values["sm_pct"], values["engine_type"] = c.busy_pct, c.engine_type
            if values.get("encoder_pct") is None and c.encoder_pct is not None:
                values["encoder_pct"] = c.encoder_pct
            if values.get("decoder_pct") is None and c.decoder_pct is not None:
                values["decoder_pct"] = c.decoder_pct


def adapter_gpu_key(adapter: str) -> str:
    """A row's ``gpu_key`` for an adapter NVML does not see: "pci:..." as Linux names it, else "luid:..."."""
    return adapter if adapter.startswith("pci:") else f"luid:{adapter}"


def with_counters(snapshot: Snapshot, found: dict[tuple[int, str], AdapterProcess],
                  adapters: Iterable[Adapter]) -> Snapshot:
    """``snapshot`` with the Windows counters' figures in the NVML processes where NVML has none
    (WDDM): dedicated memory as ``used_mib``, shared memory, the busiest engine as ``sm_pct``.
    ``monitor`` uses it; the process view merges the counters itself (and lists the other GPUs' too)."""
    luids = {a.nvml_uuid: a.key.upper() for a in adapters if a.nvml_uuid}
    found = {(pid, luid.upper()): c for (pid, luid), c in found.items()}
    samples = []
    for sample in snapshot.samples:
        luid = luids.get(sample.uuid)
        if luid is None or not sample.processes:
            samples.append(sample)
            continue
        procs = []
        for p in sample.processes:
            c = found.get((p.pid, luid))
            if c is not None:
                p = replace(
                    p, used_mib=p.used_mib if p.used_mib is not None else c.dedicated_mib, shared_mib=c.shared_mib,
                    sm_pct=p.sm_pct if p.sm_pct is not None else c.busy_pct,
                    encoder_pct=p.encoder_pct if p.encoder_pct is not None else c.encoder_pct,
                    decoder_pct=p.decoder_pct if p.decoder_pct is not None else c.decoder_pct)
            procs.append(p)
        samples.append(replace(sample, processes=tuple(procs)))
    return replace(snapshot, samples=tuple(samples))


# ---- sorting and filtering (the view and ``monitor`` share them)

def sort_key(column: str, now: float) -> Callable[[GpuProcess], Any]:
    """A key that sorts missing values last whichever way, and text case-blind."""
    def number(value: float | None) -> tuple[int, float]:
        return (0, value) if value is not None else (1, 0.0)

    getters: dict[str, Callable[[GpuProcess], Any]] = {
        "pid": lambda r: (0, r.pid),
        "name": lambda r: (0, r.name.casefold()),
        "user": lambda r: (0, r.user.casefold()) if r.user else (1, ""),
        "gpu": lambda r: (0, r.gpu_index if r.gpu_index is not None else 1000, r.gpu_label),
        "kind": lambda r: (0, r.kind or r.engine_type or "") if (r.kind or r.engine_type) else (1, ""),
        "sm_pct": lambda r: number(r.sm_pct),
        "gpu_memory": lambda r: number(r.used_mib),
        "shared_mib": lambda r: number(r.shared_mib),
        "video": lambda r: number(max(r.encoder_pct or 0.0, r.decoder_pct or 0.0)
                                  if r.encoder_pct is not None or r.decoder_pct is not None else None),
        "cpu_pct": lambda r: number(r.cpu_pct),
        "host_mib": lambda r: number(r.host_mib),
        "running": lambda r: number(r.running_s(now)),
    }
    return getters[column]


def matches(row: GpuProcess, text: str) -> bool:
    """The name filter: every word in the name, the command line or the PID."""
    words = text.casefold().split()
    hay = f"{row.name} {row.command_line or ''} {row.pid}".casefold()
    return all(w in hay for w in words)


# ---- what a command line says about the model it runs (for the Model fit link)

_MODEL_FLAG = re.compile(
    r"(?:^|\s)(?:--model(?:[_-]name(?:[_-]or[_-]path)?|[_-]path|[_-]id)?|-m|--checkpoint)[=\s]+(\"[^\"]+\"|\S+)")
_MODEL_FILE = re.compile(r"(\"[^\"]+\.(?:gguf|safetensors)\"|\S+\.(?:gguf|safetensors))", re.IGNORECASE)
_OLLAMA = re.compile(r"(?:^|[\\/\s])ollama(?:\.exe)?\"?\s+(?:run|serve)\s+(\S+)", re.IGNORECASE)
_HF_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def model_in_command_line(command_line: str | None) -> str | None:
    """The model a command line names (a Hugging Face id, a .gguf/.safetensors file), or None."""
    if not command_line:
        return None
    for pattern in (_MODEL_FLAG, _MODEL_FILE, _OLLAMA):
        for match in pattern.finditer(command_line):
            value = match.group(1).strip('"')
            if pattern is _MODEL_FLAG and not (_HF_ID.match(value) or _MODEL_FILE.match(value)
                                                or "\\" in value or "/" in value):
                continue  # "-m" of "python -m module": not a model
            return value
    return None


# ---- ending a process

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


def adapters_from_inventory(inventory: Any, nvml_gpus: Iterable[Any]) -> list[Adapter]:
    """The counters' adapters (a hybrid ``Inventory``), NVIDIA ones matched to NVML GPUs in order
    (Windows' DirectX registry has no PCI address to match by, as in services.hybrid.attribution)."""
    nvml = list(nvml_gpus)
    result = []
    nvidia_position = 0
    for adapter in getattr(inventory, "adapters", ()):
        if not adapter.luid:
            continue
        uuid = None
        if adapter.is_nvidia and nvidia_position < len(nvml):
            uuid = nvml[nvidia_position].uuid
            nvidia_position += 1
        result.append(Adapter(key=adapter.luid, name=adapter.name,
                              integrated=getattr(adapter.kind, "value", "") == "integrated",
                              nvml_uuid=uuid, memory_total_mib=adapter.dedicated_memory_mib))
    return result


__all__ = [
    "COLUMNS", "FADE_S", "NOT_REPORTED_WHY", "Adapter", "EndResult", "GpuProcess", "HostProcess", "ProcessService",
    "ProcessTable", "PsutilHost", "adapters_from_inventory", "end_process", "matches", "may_end",
    "model_in_command_line", "sort_key",
]
