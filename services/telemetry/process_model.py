"""The process view's records: one process on one GPU, what the host and the adapters' counters say of it,
and the table the view shows (built by ``services.telemetry.processes.ProcessService``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol
from collections.abc import Iterable

from services.i18n import Msg, translate

# A row for a process that ended stays this long (the view fades it), then goes.
FADE_S = 6.0

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
