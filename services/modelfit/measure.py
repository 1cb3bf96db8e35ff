"""Measure a run: the GPU memory one process and its children hold, sampled often, per GPU.

A ``Measurement`` follows one process (launched here or attached to by PID) and, on each
``sample()``, adds up what the GPU driver reports for that process and every child it has
started, on each GPU. What is counted is what ``nvidia-smi`` shows per process: NVML's per-process
``usedGpuMemory`` (Linux, Windows TCC) or, on Windows WDDM where NVML does not know it, the
"GPU Process Memory" Dedicated Usage counter. Only the measured processes are looked at: the
dashboard's own sampling rate is not touched.

Nothing here raises on a bad run: a command that does not start, a PID that is gone, a process of
another user or a GPU lost mid-run each give a ``MeasureError`` (before anything is measured) or a
note on the result, which keeps every sample taken so far.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Iterable, Mapping, Sequence

from services.i18n import Msg, translate
from services.modelfit.errors import MeasureError
from services.modelfit.probes import GpuRef, MemoryProbe, NvmlProcessProbe, ProbeReading, WindowsCounterProbe
from services.modelfit.proctree import ProcessTree, current_user, process_owner
from services.modelfit.request import GIB

# 10 Hz: a training step of a small model on a big card lasts ~0.1-1 s and its peak (the optimizer
# step, the loss backward) persists in the caching allocator's reserved memory, which is what the
# driver reports, so a peak is missed only when the allocator releases memory within 100 ms.
SAMPLE_INTERVAL_S = 0.1
# A process that never shows on a GPU within this time after it ended "never touched the GPU".
EXITED_AT_ONCE_S = 1.0
# The whole GPU's memory must rise at least this much for the device-wide fallback to call it the run's
# (a CUDA context alone is 0.3 GiB or more; the desktop's own use moves by a few MiB).
DEVICE_RISE_GIB = 0.25


def default_probe(module: Any = None, counters: Any = None) -> MemoryProbe:
    """NVML where it knows per-process memory; the Windows counters on Windows when NVML is absent
    (``counters``: a CounterSource, the real pdh.dll one by default)."""
    try:
        return NvmlProcessProbe(module)
    except MeasureError as nvml_error:
        if sys.platform != "win32" and counters is None:
            raise
        reason = nvml_error.message
    from services.hybrid.windows import PdhCounterSource, WinRegistry, read_windows_inventory

    names: dict[str, str] = {}
    if counters is None:
        try:
            inventory = read_windows_inventory(WinRegistry())
            names = {str(a.luid): a.name for a in inventory.adapters if getattr(a, "luid", None)}
        except Exception:  # names are a nicety; the counters still count
            names = {}
    try:
        source = counters if counters is not None else PdhCounterSource()
        source.sample(0.0)  # once now: a machine without the counters is said before anything runs
    except OSError as exc:
        raise MeasureError(translate(
            "Measure", "cannot read GPU memory per process: {nvml}; and the GPU performance counters could not be read: {reason}").format(
            nvml=reason, reason=str(exc))) from None
    return WindowsCounterProbe(source, names)

# ---------------------------------------------------------------- one measurement
@dataclass(frozen=True, slots=True)
class MemorySample:
    t_s: float  # seconds since the measurement started
    used_gib: Mapping[str, float]  # GPU key -> the tree's memory there
    device_gib: Mapping[str, float] = field(default_factory=dict)  # GPU key -> whole GPU, less its use at the start


@dataclass
class MeasureResult:
    """What a measurement found, kept as far as it got."""

    gpus: tuple[GpuRef, ...]
    samples: list[MemorySample] = field(default_factory=list)
    peak_gib: dict[str, float] = field(default_factory=dict)  # per GPU the run touched
    peak_at_s: dict[str, float] = field(default_factory=dict)
    pids_seen: set[int] = field(default_factory=set)
    exit_code: int | None = None
    duration_s: float = 0.0
    status: str = "running"  # running | measured | no_gpu | exited_at_once | stopped | gpu_lost
    notes: list[Msg | str] = field(default_factory=list)
    unknown_memory: bool = False  # the driver listed a process of the tree without its memory
    device_wide: bool = False  # the peak is the GPU's used memory less its use at the start (see ProbeReading)

    @property
    def busiest_gpu(self) -> str | None:
        return max(self.peak_gib, key=lambda k: self.peak_gib[k]) if self.peak_gib else None

    @property
    def peak_busiest_gib(self) -> float | None:
        key = self.busiest_gpu
        return self.peak_gib[key] if key is not None else None

    @property
    def touched_gpu(self) -> bool:
        return bool(self.peak_gib)

    def gpu(self, key: str) -> GpuRef | None:
        return next((g for g in self.gpus if g.key == key), None)


STATUS_TEXT: dict[str, Msg] = {
    "running": translate("Measure", "measuring"),
    "measured": translate("Measure", "measured"),
    "no_gpu": translate("Measure", "the process never used the GPU"),
    "exited_at_once": translate("Measure", "the process ended at once, before using the GPU"),
    "stopped": translate("Measure", "stopped before the process ended"),
    "gpu_lost": translate("Measure", "the GPU was lost during the run"),
}


class Measurement:
    """Samples one process tree; ``sample()`` is called every ``SAMPLE_INTERVAL_S`` by the front end."""

    def __init__(self, probe: MemoryProbe, pid: int, *, popen: subprocess.Popen | None = None,
                 tree: ProcessTree | None = None, clock: Callable[[], float] = time.monotonic,
                 psutil_module: Any = None) -> None:
        self.probe = probe
        self.pid = pid
        self.popen = popen
        self._clock = clock
        self._start = clock()
        self._tree = tree or ProcessTree(pid, psutil_module)
        self._psutil = psutil_module
        self.result = MeasureResult(tuple(probe.gpus()))
        self._lost: set[str] = set()
        self._denied_noted = False
        self._ended = False
        self._baseline: dict[str, float] = {}

    # -- starting
    @classmethod
    def launch(cls, probe: MemoryProbe, argv: Sequence[str], *, cwd: str | None = None,
               env: Mapping[str, str] | None = None, stdout: Any = None, **kw: Any) -> "Measurement":
        """Start ``argv`` (an argument list, never a shell string) with its output passed through
        (``stdout``: where its standard output goes instead, e.g. our stderr under ``--json``)."""
        if not argv:
            raise MeasureError(translate("Measure", "no command to run: give it after --"))
        if cwd is not None and not os.path.isdir(cwd):
            raise MeasureError(translate("Measure", "the working folder {path} does not exist").format(path=cwd))
        full_env = None
        if env:
            full_env = dict(os.environ)
            full_env.update(env)
        try:
            popen = subprocess.Popen(list(argv), cwd=cwd, env=full_env, stdout=stdout)  # an argument list, no shell
        except FileNotFoundError:
            raise MeasureError(translate("Measure", "command not found: {command}").format(command=argv[0])) from None
        except PermissionError:
            raise MeasureError(translate("Measure", "cannot run {command}: permission denied").format(command=argv[0])) from None
        except OSError as exc:
            raise MeasureError(translate("Measure", "cannot run {command}: {reason}").format(
                command=argv[0], reason=exc.strerror or str(exc))) from None
        return cls(probe, popen.pid, popen=popen, **kw)

    @classmethod
    def attach(cls, probe: MemoryProbe, pid: int, *, psutil_module: Any = None, **kw: Any) -> "Measurement":
        """Follow a process that is already running."""
        ps = psutil_module
        if ps is None:
            import psutil
            ps = psutil
        try:
            alive = ps.pid_exists(pid) and ps.Process(pid).status() != ps.STATUS_ZOMBIE
        except (ps.NoSuchProcess, ps.ZombieProcess):
            alive = False
        except ps.AccessDenied:
            alive = True
        if not alive:
            raise MeasureError(translate("Measure", "process {pid} is not running (it ended before measuring started?)").format(pid=pid))
        run = cls(probe, pid, psutil_module=ps, **kw)
        owner, me = process_owner(pid, ps), current_user()
        if owner and me and owner.split("\\")[-1] != me.split("\\")[-1]:
            run.result.notes.append(translate(
                "Measure", "process {pid} belongs to {owner}: the driver may not show its memory to {me} (measure as that user, or as administrator/root)").format(
                pid=pid, owner=owner, me=me))
        return run

    # -- while it runs
    @property
    def elapsed_s(self) -> float:
        return self._clock() - self._start

    def alive(self) -> bool:
        if self._ended:
            return False
        if self.popen is not None:
            code = self.popen.poll()
            if code is not None:
                self.result.exit_code = code
                return False
            return True
        ps = self._psutil
        if ps is None:
            import psutil
            ps = psutil
        try:
            return ps.Process(self.pid).status() != ps.STATUS_ZOMBIE
        except (ps.NoSuchProcess, ps.ZombieProcess):
            return False
        except ps.AccessDenied:
            return ps.pid_exists(self.pid)

    def sample(self) -> MemorySample:
        """One look: the tree's memory on each GPU. Never raises."""
        pids = self._tree.pids()
        if self._tree.denied and not self._denied_noted:
            self._denied_noted = True
            self.result.notes.append(translate(
                "Measure", "the children of process {pid} cannot be listed (access denied): only the process itself is counted").format(pid=self.pid))
        try:
            reading = self.probe.read()
        except Exception as exc:  # a probe must not end the measurement with a traceback
            reading = ProbeReading({}, {"*": str(exc)})
        now = self.elapsed_s
        used: dict[str, float] = {}
        for key, per_pid in reading.used.items():
            total = 0.0
            found = False  # a measured process with a figure (WDDM lists processes without one)
            for pid in pids & per_pid.keys():
                value = per_pid[pid]
                found = found or value is not None
                self.result.pids_seen.add(pid)
                if value is None:
                    self.result.unknown_memory = True
                else:
                    total += value
            if found:
                used[key] = total / GIB
                if used[key] > self.result.peak_gib.get(key, -1.0):
                    self.result.peak_gib[key] = used[key]
                    self.result.peak_at_s[key] = now
        for key, why in reading.failed.items():
            if key not in self._lost:
                self._lost.add(key)
                ref = self.result.gpu(key)
                self.result.notes.append(translate("Measure", "{gpu}: {reason}; the measurement keeps what it had").format(
                    gpu=ref.name if ref else key, reason=why))
        device: dict[str, float] = {}
        for key, total in reading.device_used.items():
            base = self._baseline.setdefault(key, total)
            device[key] = max(0.0, total - base) / GIB
        point = MemorySample(now, used, device)
        self.result.samples.append(point)
        return point

    # -- the end
    def finish(self, *, stopped: bool = False) -> MeasureResult:
        """Close the result: status, duration, and a note for each odd case."""
        self._ended = True
        res = self.result
        res.duration_s = self.elapsed_s
        if self.popen is not None and res.exit_code is None and not stopped:
            res.exit_code = self.popen.poll()
        if self._lost:
            res.status = "gpu_lost"
        elif stopped:
            res.status = "stopped"
        elif not res.touched_gpu:
            res.status = "exited_at_once" if res.duration_s < EXITED_AT_ONCE_S else "no_gpu"
        else:
            res.status = "measured"
        if not res.touched_gpu and not self._lost and self._device_fallback(res):
            res.status = "stopped" if stopped else "measured"
        if res.unknown_memory:
            res.notes.append(translate(
                "Measure", "the driver listed the process without its memory (Windows WDDM, or another user's process): the peak may be too low"))
        return res

    def _device_fallback(self, res: MeasureResult) -> bool:
        """No measured PID ever showed in the driver's list, yet a GPU's used memory rose: count the
        rise (a container's PIDs differ from the host PIDs NVML reports)."""
        peaks: dict[str, tuple[float, float]] = {}
        for point in res.samples:
            for key, gib in point.device_gib.items():
                if gib > peaks.get(key, (0.0, 0.0))[0]:
                    peaks[key] = (gib, point.t_s)
        rose = {k: v for k, v in peaks.items() if v[0] >= DEVICE_RISE_GIB}
        if not rose:
            return False
        res.device_wide = True
        for key, (gib, at) in rose.items():
            res.peak_gib[key], res.peak_at_s[key] = gib, at
        res.samples = [MemorySample(p.t_s, {k: p.device_gib.get(k, 0.0) for k in rose}, p.device_gib) for p in res.samples]
        res.notes.append(translate(
            "Measure", "the driver's process list never showed the measured processes (a container with its own process IDs?): the peak is the GPU's used memory less what was in use at the start, so other programs' memory counts too"))
        return True


def run_to_end(run: Measurement, *, interval_s: float = SAMPLE_INTERVAL_S,
               on_sample: Callable[[MemorySample], None] | None = None,
               sleep: Callable[[float], None] | None = None,
               clock: Callable[[], float] = time.monotonic) -> MeasureResult:
    """Sample until the process ends (or Ctrl-C: then the child gets it too and is waited for).

    Samples are due every ``interval_s`` from the start, so the time a sample takes does not
    lower the rate below 1 / interval_s; a late sample is not made up with a burst."""
    stopped = False
    due = clock()
    try:
        while True:
            point = run.sample()
            if on_sample is not None:
                on_sample(point)
            if not run.alive():
                break
            due = max(due + interval_s, clock())
            wait = due - clock()
            if wait <= 0:
                continue
            if sleep is not None:
                sleep(wait)
            elif run.popen is not None:
                try:
                    run.popen.wait(timeout=wait)
                except subprocess.TimeoutExpired:
                    pass
            else:
                time.sleep(wait)
    except KeyboardInterrupt:
        # The child is in our process group and got the same Ctrl-C: let it end and keep its exit code.
        stopped = run.popen is None
        if run.popen is not None:
            try:
                run.result.exit_code = run.popen.wait(timeout=30)
            except (subprocess.TimeoutExpired, KeyboardInterrupt):
                run.popen.kill()
                run.result.exit_code = run.popen.wait()
                stopped = True
    return run.finish(stopped=stopped)


_VERSION_LINE = re.compile(r"""^__version__\s*=\s*['"]([^'"]+)['"]""", re.MULTILINE)
# Packages with a shared library a GPU process maps, and the file next to it that states the version.
_MAPPED_PACKAGES = {"torch": "version.py", "vllm": "version.py"}


def revealed_versions(pids: Iterable[int], proc_root: str = "/proc") -> dict[str, str]:
    """Versions a running process gives away without being asked: the PyTorch (or vLLM) whose
    libraries it has mapped (Linux /proc/PID/maps; elsewhere nothing)."""
    found: dict[str, str] = {}
    for pid in sorted(pids):
        try:
            with open(f"{proc_root}/{pid}/maps", encoding="utf-8", errors="replace") as handle:
                text = handle.read(8 << 20)
        except OSError:
            continue
        for package, version_file in _MAPPED_PACKAGES.items():
            if package in found:
                continue
            match = re.search(rf"(/\S*?/site-packages/{package})/", text)
            if not match:
                continue
            try:
                with open(os.path.join(match.group(1), version_file), encoding="utf-8") as handle:
                    version = _VERSION_LINE.search(handle.read(4096))
            except OSError:
                continue
            if version:
                found[package] = version.group(1)
    return found


def split_command(text: str, windows: bool | None = None) -> list[str]:
    """A command line typed by a person, as an argument list (it is then run directly, never by a
    shell). POSIX: shell quoting (shlex; ValueError for an unclosed quote). Windows: the rules of
    CommandLineToArgvW, so a pasted ``"C:\\Program Files\\...\\python.exe" train.py`` works: the
    program name ends at the closing quote with no escapes; after it 2n backslashes before a quote
    give n and the quote toggles quoting, 2n+1 give n and a literal quote, other backslashes stay."""
    if windows is None:
        windows = os.name == "nt"
    if not windows:
        import shlex

        return shlex.split(text)
    text = text.strip()
    if not text:
        return []
    # The program name: quoted up to the next quote, else up to whitespace.
    if text[0] == '"':
        end = text.find('"', 1)
        end = len(text) if end < 0 else end
        args, rest = [text[1:end]], text[end + 1:]
    else:
        end = next((i for i, ch in enumerate(text) if ch in " \t"), len(text))
        args, rest = [text[:end]], text[end:]
    current: list[str] = []
    in_word = quoted = False
    i = 0
    while i < len(rest):
        ch = rest[i]
        if ch == "\\":
            n = 0
            while i < len(rest) and rest[i] == "\\":
                n += 1
                i += 1
            if i < len(rest) and rest[i] == '"':
                current.append("\\" * (n // 2))
                if n % 2:
                    current.append('"')
                    i += 1
                in_word = True
            else:
                current.append("\\" * n)
                in_word = True
            continue
        if ch == '"':
            if quoted and i + 1 < len(rest) and rest[i + 1] == '"':
                current.append('"')  # "" inside quotes: a literal quote (msvcrt since 2008)
                i += 2
                continue
            quoted = not quoted
            in_word = True
        elif ch in " \t" and not quoted:
            if in_word:
                args.append("".join(current))
                current, in_word = [], False
        else:
            current.append(ch)
            in_word = True
        i += 1
    if in_word:
        args.append("".join(current))
    return args
