"""Per-process attribution, sampled twice over an interval.

Linux: DRM fdinfo engine counters (Intel i915/xe, AMD amdgpu), NVML process lists and
per-process utilisation (NVIDIA), maps/environ as supporting evidence.
Windows: the GPU Engine / GPU Process Memory counters by pid and adapter LUID, plus NVML.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from collections.abc import Callable

from services.hybrid.fdinfo import engine_busy_pct, is_work_engine
from services.hybrid.model import (
    AdapterUse, EngineUse, Inventory, ProcessReport, ScanResult, Vendor, normalize_pci,
)
from services.hybrid.nvidia import NvidiaProcess, NvidiaProcessProbe, NvidiaUtilization
from services.hybrid.procscan_linux import ProcessSnapshot, scan_processes
from services.hybrid.verdict import decide
from services.hybrid.windows import (
    CounterSample, CounterSource, is_work_engtype, parse_engine_instance, parse_memory_instance,
)
from services.i18n import Msg, translate

Waiter = Callable[[float], bool]  # waits up to N seconds; True if asked to stop


def _waiter(stop: threading.Event | None) -> Waiter:
    if stop is None:
        def sleep(seconds: float) -> bool:
            time.sleep(seconds)
            return False  # never stopped

        return sleep
    return stop.wait


def nvidia_adapter_keys(inventory: Inventory, probe: NvidiaProcessProbe | None) -> dict[int, str]:
    """NVML index -> inventory key (by PCI bus id; else in order of the NVIDIA adapters)."""
    if probe is None:
        return {}
    nvidia = [a for a in inventory.adapters if a.vendor is Vendor.NVIDIA]
    mapping: dict[int, str] = {}
    for position, gpu in enumerate(probe.gpus()):
        adapter = inventory.by_pci(gpu.pci_bus_id)
        if adapter is None and position < len(nvidia):
            adapter = nvidia[position]
        mapping[gpu.index] = adapter.key if adapter else f"nvml:{gpu.index}"
    return mapping


def nvidia_uses(
    keys: dict[int, str], processes: list[NvidiaProcess], utilization: list[NvidiaUtilization]
) -> dict[int, list[AdapterUse]]:
    util = {(u.pid, u.gpu_index): u for u in utilization}
    result: dict[int, list[AdapterUse]] = {}
    for proc in processes:
        sample = util.pop((proc.pid, proc.gpu_index), None)
        engines = _nvml_engines(sample)
        key = keys.get(proc.gpu_index, f"nvml:{proc.gpu_index}")
        result.setdefault(proc.pid, []).append(
            AdapterUse(adapter_key=key, source="nvml", engines=engines, memory_mib=proc.used_mib, kind=proc.kind))
    for (pid, index), sample in util.items():  # busy but missing from the lists (rare race)
        key = keys.get(index, f"nvml:{index}")
        result.setdefault(pid, []).append(AdapterUse(adapter_key=key, source="nvml", engines=_nvml_engines(sample)))
    return result


def _nvml_engines(sample: NvidiaUtilization | None) -> tuple[EngineUse, ...]:
    if sample is None:
        return ()
    return (
        EngineUse("SM", sample.sm_pct, True),
        EngineUse("encoder", sample.encoder_pct, False),
        EngineUse("decoder", sample.decoder_pct, False),
    )


def drm_uses(inventory: Inventory, before: ProcessSnapshot | None, after: ProcessSnapshot,
             elapsed_ns: int) -> list[AdapterUse]:
    """One AdapterUse per GPU from the DRM clients seen in both samples."""
    per_adapter: dict[str, tuple[dict[str, float], float | None]] = {}
    for key, client in after.clients.items():
        first = before.clients.get(key) if before else None
        busy = engine_busy_pct(first, client, elapsed_ns) if first else {}
        adapter = inventory.by_pci(client.pdev)
        adapter_key = adapter.key if adapter else f"pci:{normalize_pci(client.pdev)}" if client.pdev else f"drm:{client.driver}"
        engines, memory = per_adapter.get(adapter_key, ({}, None))
        for engine, pct in busy.items():
            engines[engine] = min(100.0, engines.get(engine, 0.0) + pct)
        used = client.memory_used_bytes()
        if used is not None:
            memory = (memory or 0.0) + used / (1024 * 1024)
        per_adapter[adapter_key] = (engines, memory)
    return [
        AdapterUse(adapter_key=key, source="fdinfo",
                   engines=tuple(EngineUse(name, pct, is_work_engine(name)) for name, pct in sorted(engines.items())),
                   memory_mib=memory)
        for key, (engines, memory) in per_adapter.items()
    ]


def build_report(inventory: Inventory, pid: int, name: str, exe: str | None, cmdline: tuple[str, ...],
                 uses: list[AdapterUse], snapshot: ProcessSnapshot | None) -> ProcessReport:
    libraries = snapshot.libraries if snapshot else set()
    env = snapshot.offload_env if snapshot else {}
    nodes = snapshot.device_nodes if snapshot else set()
    readable = snapshot.readable if snapshot else True
    placement, basis, evidence = decide(inventory, uses, libraries, env, nodes, readable)
    return ProcessReport(
        pid=pid, name=name, exe=exe, cmdline=cmdline, uses=tuple(uses), placement=placement, basis=basis,
        evidence=tuple(evidence), libraries=tuple(sorted(libraries)), offload_env=tuple(sorted(env.items())),
        device_nodes=tuple(sorted(nodes)), readable=readable,
    )


class LinuxAttributor:
    def __init__(self, proc_root: Path | str = "/proc", nvidia: NvidiaProcessProbe | None = None,
                 nvidia_status: Msg | None = None, clock_ns: Callable[[], int] = time.monotonic_ns) -> None:
        self.proc_root = Path(proc_root)
        self.clock_ns = clock_ns
        self.nvidia = nvidia
        self.nvidia_status = nvidia_status

    def scan(self, inventory: Inventory, interval_s: float = 1.0, pids: list[int] | None = None,
             stop: threading.Event | None = None, include_all: bool = False) -> ScanResult:
        wait = _waiter(stop)
        first = scan_processes(self.proc_root, pids)
        t0 = self.clock_ns()
        since_us = int(time.time() * 1_000_000)
        stopped = wait(interval_s) if interval_s > 0 else False
        drm_pids = [pid for pid, snap in first.items() if snap.clients]
        second = scan_processes(self.proc_root, drm_pids, deep=False) if not stopped else {}
        elapsed = self.clock_ns() - t0
        nv_processes: list[NvidiaProcess] = []
        nv_util: list[NvidiaUtilization] = []
        keys: dict[int, str] = {}
        if self.nvidia is not None:
            keys = nvidia_adapter_keys(inventory, self.nvidia)
            nv_processes = self.nvidia.processes()
            nv_util = self.nvidia.utilization_since(since_us)
        nv_uses = nvidia_uses(keys, nv_processes, nv_util)
        if pids is not None:
            nv_uses = {pid: uses for pid, uses in nv_uses.items() if pid in pids}

        reports: list[ProcessReport] = []
        unseen = 0
        for pid in sorted(set(first) | set(nv_uses)):
            snap = first.get(pid)
            uses = list(nv_uses.get(pid, []))
            if snap is not None and snap.clients:
                after = second.get(pid)
                if after is not None:
                    after.libraries, after.offload_env, after.readable = snap.libraries, snap.offload_env, snap.readable
                uses += drm_uses(inventory, snap, after or snap, elapsed if after else 0)
            if snap is None:
                name_now = _name_of(self.proc_root, pid)
                if name_now is None:
                    unseen += 1  # ended meanwhile, or NVML sees it in another PID namespace (containers)
                    continue
                reports.append(build_report(inventory, pid, name_now, None, (), uses, None))
                continue
            wanted = snap.has_gpu_evidence or (include_all and bool(snap.cmdline))  # kernel threads have no cmdline
            if not (uses or wanted or pids is not None):
                continue
            reports.append(build_report(inventory, pid, snap.name, snap.exe, snap.cmdline, uses, snap))
        notes: tuple[Msg, ...] = ()
        if unseen:
            notes = (translate("Hybrid", "The NVIDIA driver lists {count} processes that are not visible here "
                                         "(they ended, or run in another container)").format(count=unseen),)
        return ScanResult(inventory=inventory, processes=tuple(reports), interval_s=elapsed / 1e9,
                          nvidia_status=self.nvidia_status, notes=notes)


def _name_of(proc_root: Path, pid: int) -> str | None:
    try:
        return (proc_root / str(pid) / "comm").read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


class WindowsAttributor:
    def __init__(self, counters: CounterSource, nvidia: NvidiaProcessProbe | None = None,
                 nvidia_status: Msg | None = None,
                 process_info: Callable[[int], tuple[str, str | None, tuple[str, ...]] | None] | None = None) -> None:
        self.counters = counters
        self.nvidia = nvidia
        self.nvidia_status = nvidia_status
        self.process_info = process_info or psutil_process_info

    def scan(self, inventory: Inventory, interval_s: float = 1.0, pids: list[int] | None = None,
             stop: threading.Event | None = None, include_all: bool = False) -> ScanResult:
        since_us = int(time.time() * 1_000_000)
        notes: tuple[Msg, ...] = ()
        try:
            sample = self.counters.sample(interval_s)
        except OSError as exc:
            # No "GPU Engine" counters (WDDM before 2.0, broken performance counters, Wine): the
            # NVIDIA evidence below still works; the other adapters have none, and the result says why.
            # lodctr /R: https://learn.microsoft.com/windows-server/administration/windows-commands/lodctr
            sample = CounterSample({}, {}, {})
            notes = (translate("Hybrid", "Windows' GPU performance counters could not be read ({error}): only NVIDIA's own per-process data is shown. 'lodctr /R' in an administrator prompt rebuilds broken counters.").format(error=str(exc)),)
        uses = windows_uses(inventory, sample.engine_utilization, sample.dedicated_bytes, sample.shared_bytes)
        if self.nvidia is not None:
            keys = nvidia_adapter_keys(inventory, self.nvidia)
            for pid, extra in nvidia_uses(keys, self.nvidia.processes(), self.nvidia.utilization_since(since_us)).items():
                uses.setdefault(pid, []).extend(extra)
        reports = []
        for pid in sorted(uses if pids is None else [p for p in pids]):
            info = self.process_info(pid)
            if info is None:
                continue
            name, exe, cmdline = info
            reports.append(build_report(inventory, pid, name, exe, cmdline, uses.get(pid, []), None))
        return ScanResult(inventory=inventory, processes=tuple(reports), interval_s=interval_s,
                          nvidia_status=self.nvidia_status, notes=notes)


def windows_uses(inventory: Inventory, engine: dict[str, float], dedicated: dict[str, float],
                 shared: dict[str, float]) -> dict[int, list[AdapterUse]]:
    """Group counter instances by (pid, adapter LUID).

    Per engine type the engines of that type are summed (Task Manager's way); the program's
    work on an adapter is then its busiest 3D/compute engine type.
    """
    per: dict[tuple[int, str], dict[str, float]] = {}
    for name, value in engine.items():
        inst = parse_engine_instance(name)
        if inst is None:
            continue
        types = per.setdefault((inst.pid, inst.luid), {})
        types[inst.engtype] = types.get(inst.engtype, 0.0) + max(0.0, value)
    memory: dict[tuple[int, str], float] = {}
    for table in (dedicated, shared):
        for name, value in table.items():
            parsed = parse_memory_instance(name)
            if parsed is not None:
                memory[parsed] = memory.get(parsed, 0.0) + max(0.0, value) / (1024 * 1024)
    result: dict[int, list[AdapterUse]] = {}
    for pid, luid in sorted(set(per) | set(memory)):
        adapter = inventory.by_luid(luid)
        key = adapter.key if adapter else f"luid:{luid}"
        types = per.get((pid, luid), {})
        engines = tuple(EngineUse(t, min(100.0, v), is_work_engtype(t)) for t, v in sorted(types.items()))
        mem = memory.get((pid, luid))
        if not any(e.busy_pct > 0 for e in engines) and not mem:
            continue  # a D3D device that did nothing and holds nothing
        result.setdefault(pid, []).append(AdapterUse(adapter_key=key, source="pdh", engines=engines, memory_mib=mem))
    return result


def psutil_process_info(pid: int) -> tuple[str, str | None, tuple[str, ...]] | None:
    import psutil

    try:
        proc = psutil.Process(pid)
        with proc.oneshot():
            name = proc.name()
            try:
                exe = proc.exe() or None
            except (psutil.AccessDenied, OSError):
                exe = None
            try:
                cmdline = tuple(proc.cmdline())
            except (psutil.AccessDenied, OSError):
                cmdline = ()
        return name, exe, cmdline
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return None
    except psutil.AccessDenied:
        return f"pid {pid}", None, ()
