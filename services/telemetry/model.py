"""The telemetry data model shared by every source, the sampler and the UI.

All records are immutable. A metric the GPU does not report is ``None`` (never
0); in the history ring buffer it becomes NaN.

Every dataclass here has a docstring: without one, ``@dataclass`` builds one from
``inspect.signature`` of the class, which is start-up time for every command.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from services.i18n import Msg

if TYPE_CHECKING:
    from pathlib import Path


class DeviceState(str, enum.Enum):
    """Why a GPU (or the whole source) does or does not give readings."""

    OK = "ok"
    SLEEPING = "sleeping"  # runtime-suspended laptop dGPU: deliberately not polled
    NO_DRIVER = "no_driver"  # NVML library not found
    DRIVER_NOT_LOADED = "driver_not_loaded"
    VERSION_MISMATCH = "version_mismatch"  # kernel module vs user-space library: reboot
    NO_PERMISSION = "no_permission"
    LOST = "lost"  # fell off the bus / NVML_ERROR_GPU_IS_LOST
    ERROR = "error"  # anything else; retried with backoff


class Tier(enum.IntFlag):
    """What a sampler tick asks the source to read."""

    FAST = 1  # ~1 s: utilisation, memory, power, clocks, P-state, temperature, throttling
    SLOW = 2  # ~5 s: fan, PCIe link, processes, ECC, encoder/decoder
    STATIC = 4  # once: names, limits, thresholds, max clocks


class SourceKind(str, enum.Enum):
    """Where a source's readings come from (the dashboard words its label by it)."""

    NVML = "nvml"  # this computer's GPUs, through the NVIDIA driver
    SIMULATED = "simulated"  # the demo's generated training run
    REPLAY = "replay"  # a finished run read from a file: nothing is sampled


@dataclass(frozen=True, slots=True)
class GpuInfo:
    """Facts about one GPU that do not change while it is attached."""

    index: int
    name: str
    uuid: str
    pci_bus_id: str | None = None
    pci_device_id: int | None = None  # NVML pciDeviceId, e.g. 0x268410DE
    driver_version: str | None = None
    cuda_driver_version: str | None = None  # e.g. "12.4"
    memory_total_mib: float | None = None
    power_limit_default_w: float | None = None
    temp_slowdown_c: float | None = None
    temp_shutdown_c: float | None = None
    sm_clock_max_mhz: float | None = None
    mem_clock_max_mhz: float | None = None
    pcie_gen_max: int | None = None
    pcie_width_max: int | None = None
    ecc_supported: bool | None = None


@dataclass(frozen=True, slots=True)
class ProcessSample:
    """One process using a GPU: who it is and how much of the GPU it holds."""

    pid: int
    name: str
    user: str | None
    kind: str  # "compute" | "graphics" | "compute+graphics"
    used_mib: float | None  # None: the driver does not say (e.g. WDDM)
    cpu_pct: float | None = None  # that process's CPU use, for bottleneck hints
    # NVML's per-process utilisation samples (nvmlDeviceGetProcessUtilization); None where the
    # driver keeps none (WDDM, older GPUs) or this reading did not ask.
    sm_pct: float | None = None
    encoder_pct: float | None = None
    decoder_pct: float | None = None
    shared_mib: float | None = None  # Windows: system memory the GPU maps for it (the GPU counters)


@dataclass(frozen=True, slots=True)
class GpuSample:
    """One GPU's readings at one moment; ``None`` for what it does not report."""

    t: float  # wall-clock seconds (time.time())
    index: int
    uuid: str
    state: DeviceState = DeviceState.OK
    state_detail: str | None = None  # one line for the UI/CLI when not OK
    utilization_pct: float | None = None
    memory_utilization_pct: float | None = None
    memory_used_mib: float | None = None
    memory_total_mib: float | None = None
    temperature_c: float | None = None
    memory_temperature_c: float | None = None
    power_w: float | None = None
    power_limit_w: float | None = None
    energy_j: float | None = None  # since driver load
    sm_clock_mhz: float | None = None
    mem_clock_mhz: float | None = None
    fan_pct: float | None = None
    pstate: int | None = None
    pcie_gen: int | None = None
    pcie_width: int | None = None
    encoder_pct: float | None = None
    decoder_pct: float | None = None
    throttle_reasons: frozenset[str] | None = None  # codes from services.telemetry.throttle
    ecc_corrected: int | None = None
    ecc_uncorrected: int | None = None
    processes: tuple[ProcessSample, ...] | None = None
    # ``state_detail`` translatable (not recorded: a replay shows the English line).
    state_detail_text: Msg | None = field(default=None, compare=False)

    def describe_state(self) -> Msg | str | None:
        """Why this GPU is not OK, for a person: translatable when known, else the English line."""
        return self.state_detail_text if self.state_detail_text is not None else self.state_detail


@dataclass(frozen=True, slots=True)
class SystemSample:
    """The host's load at one moment (CPU, RAM, swap, disk)."""

    t: float
    cpu_pct: float | None = None
    cpu_count: int | None = None
    ram_used_mib: float | None = None
    ram_total_mib: float | None = None
    swap_used_mib: float | None = None
    swap_total_mib: float | None = None
    disk_read_mib_s: float | None = None
    disk_write_mib_s: float | None = None
    iowait_pct: float | None = None


@dataclass(frozen=True, slots=True)
class SourceStatus:
    """Whether a source gives readings, and why not."""

    state: DeviceState
    message: str | None = None  # one line, English: JSON, logs, recordings
    # The same line, translatable (the dashboard and the CLI show it in the user's language).
    text: Msg | None = field(default=None, compare=False)

    def describe(self) -> Msg | str | None:
        """The reason to show a person: the translatable line, else the English one."""
        return self.text if self.text is not None else self.message


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One tick: every GPU's sample plus the system's."""

    t: float
    status: SourceStatus
    gpus: tuple[GpuInfo, ...] = ()
    samples: tuple[GpuSample, ...] = ()
    system: SystemSample | None = None


class TelemetrySource(Protocol):
    """NVML, Simulated and Replay sources all look like this. No method raises."""

    # Read-only (properties), so that a class attribute of a narrower type satisfies them:
    # a replay's ``path`` is a Path, a live source's None.
    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> SourceKind: ...

    @property
    def path(self) -> Path | None: ...  # the file a replay reads; None for a live source

    def open(self) -> SourceStatus: ...

    def close(self) -> None: ...

    def devices(self) -> tuple[GpuInfo, ...]: ...

    def read(self, tiers: Tier, now: float) -> Snapshot: ...
