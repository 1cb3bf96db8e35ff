"""Linux: which processes keep the GPUs NVML does not see busy, for the process view.

The kernel's DRM usage stats (Documentation/gpu/drm-usage-stats.rst) give every open GPU
context of i915, xe, amdgpu, ... an fdinfo file with its busy time per engine; nvtop and
intel_gpu_top read the same files. ``DrmProcessCounters`` is the process view's
``CounterReader`` on Linux (``services.telemetry.processes``): once per refresh it re-reads the
fdinfo of the contexts it knows and turns the busy time since the last refresh into a share;
every ``rescan_s`` (10 s) it walks ``/proc/*/fd`` again for contexts opened since: walking every fd of
every process costs about as much as the whole rest of the refresh (tests/bench/bench_process_refresh.py),
and the wrong-GPU rule waits 10 s of heavy work anyway.

NVIDIA's own contexts are left out: NVML has them, with more detail. What this adds is the
integrated GPU (and a second vendor's card), so a program that landed there instead of on the
NVIDIA GPU gets a row, and the wrong-GPU rule can see it.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.hybrid.fdinfo import DrmClient, engine_busy_pct, is_work_engine, parse_fdinfo
from services.hybrid.model import normalize_pci
from services.telemetry.processes import Adapter, AdapterProcess

_MIB = 2**20
# Video engines by the names the drivers give them: amdgpu "dec" / "jpeg" and "enc" / "enc_1"; Intel's
# codec engine (i915 "video", xe "vcs") both decodes and encodes, so it counts as decode, as the view
# shows one "video" figure anyway. Video enhancement (i915 "video-enhance", xe "vecs") is neither.
_DECODE_ENGINES = frozenset({"video", "vcs", "dec", "jpeg"})
_ENCODE_ENGINES = frozenset({"enc", "enc_1"})


@dataclass(slots=True)
class _Seen:
    client: DrmClient
    t_ns: int


class DrmProcessCounters:
    """Per (pid, "pci:<address>"): the busiest 3D/compute engine's share, video, and GPU memory."""

    def __init__(self, proc_root: str | os.PathLike[str] = "/proc", *,
                 clock_ns: Callable[[], int] = time.monotonic_ns, rescan_s: float = 10.0,
                 skip_pci: Callable[[], set[str]] | None = None) -> None:
        self._proc = Path(proc_root)
        self._clock_ns = clock_ns
        self._rescan_ns = int(rescan_s * 1e9)
        self._skip_pci = skip_pci  # the NVIDIA GPUs' addresses: NVML reports those
        self._next_scan_ns: int | None = None
        self._fds: dict[int, list[str]] = {}  # pid -> its fds open on /dev/dri
        self._seen: dict[tuple[int, tuple[Any, ...]], _Seen] = {}

    def collect(self) -> dict[tuple[int, str], AdapterProcess]:
        now = self._clock_ns()
        if self._next_scan_ns is None or now >= self._next_scan_ns:
            self._fds = self._scan()
            self._next_scan_ns = now + self._rescan_ns
        skip = self._skip_pci() if self._skip_pci is not None else set()
        result: dict[tuple[int, str], AdapterProcess] = {}
        seen: dict[tuple[int, tuple[Any, ...]], _Seen] = {}
        for pid, fds in list(self._fds.items()):
            clients = self._clients(pid, fds)
            if clients is None:  # the process ended
                del self._fds[pid]
                continue
            for client in clients:
                if client.driver.startswith("nvidia") or not client.pdev:
                    continue
                pci = normalize_pci(client.pdev)
                if pci in skip:
                    continue
                key = (pid, client.key)
                before = self._seen.get(key)
                seen[key] = _Seen(client, now)
                record = _record(pid, f"pci:{pci}", client, before, now)
                merged = result.get((pid, record.adapter))
                result[(pid, record.adapter)] = record if merged is None else _merge(merged, record)
        self._seen = seen
        return result

    def close(self) -> None:
        self._fds.clear()
        self._seen.clear()

    # ---- reading /proc

    def _scan(self) -> dict[int, list[str]]:
        found: dict[int, list[str]] = {}
        try:
            names = os.listdir(self._proc)
        except OSError:
            return found
        for name in names:
            if not name.isdigit():
                continue
            fd_dir = f"{self._proc}/{name}/fd"
            try:
                fds = os.listdir(fd_dir)
            except OSError:  # another user's process, or it ended
                continue
            mine = []
            for fd in fds:
                try:
                    if os.readlink(f"{fd_dir}/{fd}").startswith("/dev/dri/"):
                        mine.append(fd)
                except OSError:
                    continue
            if mine:
                found[int(name)] = mine
        return found

    def _clients(self, pid: int, fds: list[str]) -> list[DrmClient] | None:
        clients: dict[tuple[Any, ...], DrmClient] = {}
        alive = False
        for fd in fds:
            try:
                with open(f"{self._proc}/{pid}/fdinfo/{fd}", encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError:
                continue
            alive = True
            client = parse_fdinfo(text)
            if client is not None:
                clients.setdefault(client.key, client)  # a context shared by several fds counts once
        if not alive and not os.path.isdir(f"{self._proc}/{pid}"):
            return None
        return list(clients.values())


def _record(pid: int, adapter: str, client: DrmClient, before: _Seen | None, now_ns: int) -> AdapterProcess:
    busy = engine = encoder = decoder = None
    if before is not None:
        shares = engine_busy_pct(before.client, client, now_ns - before.t_ns)
        work = {name: pct for name, pct in shares.items() if is_work_engine(name)}
        if work:
            engine = max(work, key=lambda name: work[name])
            busy = work[engine]
        decode = [pct for name, pct in shares.items() if name.lower() in _DECODE_ENGINES]
        encode = [pct for name, pct in shares.items() if name.lower() in _ENCODE_ENGINES]
        decoder = max(decode) if decode else None
        encoder = max(encode) if encode else None
    used = client.memory_used_bytes()
    return AdapterProcess(pid=pid, adapter=adapter, dedicated_mib=used / _MIB if used is not None else None,
                          busy_pct=busy, engine_type=engine, encoder_pct=encoder, decoder_pct=decoder)


def _merge(a: AdapterProcess, b: AdapterProcess) -> AdapterProcess:
    """Two contexts of one process on one GPU: memory adds up, the busiest engine wins."""
    def most(x: float | None, y: float | None) -> float | None:
        return y if x is None else x if y is None else max(x, y)

    memory = None if a.dedicated_mib is None and b.dedicated_mib is None else \
        (a.dedicated_mib or 0.0) + (b.dedicated_mib or 0.0)
    busiest = b if (b.busy_pct or -1.0) > (a.busy_pct or -1.0) else a
    return AdapterProcess(pid=a.pid, adapter=a.adapter, dedicated_mib=memory, busy_pct=busiest.busy_pct,
                          engine_type=busiest.engine_type, encoder_pct=most(a.encoder_pct, b.encoder_pct),
                          decoder_pct=most(a.decoder_pct, b.decoder_pct))


def linux_adapters(inventory: Any, nvml_gpus: Any) -> list[Adapter]:
    """The process view's adapters on Linux: every GPU the inventory found, named by PCI address;
    the NVIDIA ones matched to their NVML GPU by that address."""
    by_bus = {normalize_pci(g.pci_bus_id): g.uuid for g in nvml_gpus if getattr(g, "pci_bus_id", None)}
    result = []
    for adapter in inventory.adapters:
        if not adapter.pci_address:
            continue
        pci = normalize_pci(adapter.pci_address)
        result.append(Adapter(key=f"pci:{pci}", name=adapter.name,
                              integrated=getattr(adapter.kind, "value", "") == "integrated",
                              nvml_uuid=by_bus.get(pci) if adapter.is_nvidia else None,
                              memory_total_mib=adapter.dedicated_memory_mib))
    return result


def linux_process_sources(proc_root: str = "/proc", sys_root: str = "/") -> dict[str, Any]:
    """``ProcessService`` keyword arguments for this Linux computer: the DRM reader and its adapters.
    Empty where every GPU is NVIDIA's (NVML has them all): the reader's walk of /proc would find nothing."""
    from services.hybrid.inventory_linux import read_linux_inventory

    if not any(a.pci_address and not a.is_nvidia for a in read_linux_inventory(sys_root).adapters):
        return {}
    state: dict[str, set[str]] = {"nvidia": set()}

    def adapters(gpus: Any) -> list[Adapter]:
        found = linux_adapters(read_linux_inventory(sys_root), gpus)
        state["nvidia"] = {a.key[len("pci:"):] for a in found if a.nvml_uuid is not None}
        return found

    counters = DrmProcessCounters(proc_root, skip_pci=lambda: state["nvidia"])
    return {"counters": counters, "adapters": adapters}
