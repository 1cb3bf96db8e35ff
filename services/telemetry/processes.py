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

import re
import threading
import time
from dataclasses import replace
from typing import Any
from collections.abc import Callable, Iterable

from services.telemetry.model import DeviceState, GpuInfo, Snapshot
from services.telemetry.process_end import EndResult, current_user, end_process, may_end, privileged, same_user
from services.telemetry.process_host import PsutilHost, proc_stat_times
from services.telemetry.process_model import (
    COLUMNS, FADE_S, NOT_REPORTED_WHY, Adapter, AdapterProcess, CounterReader, GpuProcess, HostProbe, HostProcess,
    ProcessTable,
)


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
        if isinstance(self._host, PsutilHost):  # its /proc files (another host has nothing to close)
            self._host.close()
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
    "COLUMNS", "FADE_S", "NOT_REPORTED_WHY", "Adapter", "AdapterProcess", "CounterReader", "EndResult", "GpuProcess",
    "HostProbe", "HostProcess", "ProcessService", "ProcessTable", "PsutilHost", "adapter_gpu_key",
    "adapters_from_inventory", "current_user", "end_process", "matches", "may_end", "model_in_command_line",
    "privileged", "proc_stat_times", "same_user", "sort_key", "with_counters",
]
