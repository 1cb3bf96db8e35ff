"""Data model of the hybrid-GPU checker. Every record is immutable."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from services.i18n import Msg


class Vendor(str, enum.Enum):
    NVIDIA = "nvidia"
    INTEL = "intel"
    AMD = "amd"
    OTHER = "other"


# PCI vendor ids (PCI-SIG assignments as listed in the pci.ids database).
VENDOR_BY_PCI_ID: dict[int, Vendor] = {
    0x10DE: Vendor.NVIDIA,
    0x8086: Vendor.INTEL,
    0x1002: Vendor.AMD,  # ATI/AMD graphics
    0x1022: Vendor.AMD,  # AMD (CPU side; seen on some APU functions)
}

VENDOR_NAMES = {Vendor.NVIDIA: "NVIDIA", Vendor.INTEL: "Intel", Vendor.AMD: "AMD", Vendor.OTHER: "GPU"}


def vendor_of(pci_vendor_id: int | None) -> Vendor:
    if pci_vendor_id is None:
        return Vendor.OTHER
    return VENDOR_BY_PCI_ID.get(pci_vendor_id, Vendor.OTHER)


class GpuKind(str, enum.Enum):
    INTEGRATED = "integrated"
    DISCRETE = "discrete"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class GpuAdapter:
    """One GPU as the operating system sees it."""

    key: str  # stable within one run: "pci:0000:01:00.0" or "luid:0x00000000_0x0000D1C6"
    vendor: Vendor
    name: str
    kind: GpuKind
    kind_reason: Msg | None = None  # why we call it integrated/discrete
    vendor_id: int | None = None
    device_id: int | None = None
    pci_address: str | None = None  # "0000:01:00.0"
    driver: str | None = None  # kernel driver (Linux) or None
    drm_cards: tuple[str, ...] = ()  # "card0", "renderD128" ...
    boot_vga: bool | None = None  # firmware's primary display adapter (Linux)
    connected_outputs: tuple[str, ...] = ()  # "eDP-1", "HDMI-A-1" (Linux)
    drives_display: bool | None = None  # None: the OS did not tell us
    luid: str | None = None  # Windows adapter LUID "0xHHHHHHHH_0xLLLLLLLL"
    dedicated_memory_mib: float | None = None

    @property
    def is_nvidia(self) -> bool:
        return self.vendor is Vendor.NVIDIA


@dataclass(frozen=True, slots=True)
class Inventory:
    adapters: tuple[GpuAdapter, ...]
    platform: str  # "linux" | "windows" | other sys.platform
    checked: tuple[Msg, ...] = ()  # what was looked at, for the "nothing found" explanation
    problems: tuple[Msg, ...] = ()  # things that could not be read

    @property
    def has_gpu(self) -> bool:
        return bool(self.adapters)

    @property
    def has_nvidia(self) -> bool:
        return any(a.is_nvidia for a in self.adapters)

    def adapter(self, key: str) -> GpuAdapter | None:
        return next((a for a in self.adapters if a.key == key), None)

    def by_pci(self, address: str | None) -> GpuAdapter | None:
        if not address:
            return None
        wanted = normalize_pci(address)
        return next((a for a in self.adapters if a.pci_address and normalize_pci(a.pci_address) == wanted), None)

    def by_luid(self, luid: str) -> GpuAdapter | None:
        wanted = luid.upper()
        return next((a for a in self.adapters if a.luid and a.luid.upper() == wanted), None)


def normalize_pci(address: str) -> str:
    """'00000000:01:00.0' (NVML) and '0000:01:00.0' (sysfs) -> '0000:01:00.0'."""
    address = address.strip().lower()
    parts = address.split(":")
    if len(parts) == 3:
        domain = parts[0][-4:].rjust(4, "0")
        return f"{domain}:{parts[1]}:{parts[2]}"
    if len(parts) == 2:  # no domain
        return f"0000:{parts[0]}:{parts[1]}"
    return address


class Placement(str, enum.Enum):
    """Where a program does its 3D/compute work."""

    NVIDIA = "nvidia"
    INTEGRATED = "integrated"
    OTHER = "other"  # a non-NVIDIA discrete GPU (AMD Radeon, Intel Arc)
    BOTH = "both"  # real work on the NVIDIA GPU and on another one
    NONE = "none"


class Basis(str, enum.Enum):
    """How sure the verdict is, from strongest to weakest."""

    MEASURED = "measured"  # a 3D/compute engine was busy for this program during the sample
    CONTEXT = "context"  # idle, but the program holds a context/memory on that GPU
    LIBRARIES = "libraries"  # only inferred from loaded driver libraries / offload variables
    NOTHING = "nothing"


@dataclass(frozen=True, slots=True)
class EngineUse:
    engine: str  # as the driver names it: "render", "gfx", "rcs", "3D", "Cuda", "SM"
    busy_pct: float
    work: bool  # a 3D/graphics/compute engine (True) or copy/video/other (False)


@dataclass(frozen=True, slots=True)
class AdapterUse:
    """What one program did on one GPU between the two samples."""

    adapter_key: str
    source: str  # "nvml" | "fdinfo" | "pdh"
    engines: tuple[EngineUse, ...] = ()
    memory_mib: float | None = None
    kind: str | None = None  # NVML: "compute" | "graphics" | "compute+graphics"

    @property
    def work_pct(self) -> float | None:
        values = [e.busy_pct for e in self.engines if e.work]
        return max(values) if values else None

    @property
    def other_pct(self) -> float | None:
        values = [e.busy_pct for e in self.engines if not e.work]
        return max(values) if values else None


@dataclass(frozen=True, slots=True)
class ProcessReport:
    pid: int
    name: str
    exe: str | None
    cmdline: tuple[str, ...]
    uses: tuple[AdapterUse, ...]
    placement: Placement
    basis: Basis
    evidence: tuple[Msg, ...]
    libraries: tuple[str, ...] = ()  # GPU driver libraries it has mapped
    offload_env: tuple[tuple[str, str], ...] = ()  # offload variables in its environment
    device_nodes: tuple[str, ...] = ()  # /dev/dri/..., /dev/nvidia...
    readable: bool = True  # False: another user's process, details hidden

    @property
    def work_pct(self) -> float | None:
        values = [u.work_pct for u in self.uses if u.work_pct is not None]
        return max(values) if values else None

    @property
    def memory_mib(self) -> float | None:
        values = [u.memory_mib for u in self.uses if u.memory_mib is not None]
        return sum(values) if values else None


@dataclass(frozen=True, slots=True)
class ScanResult:
    """One attribution pass: the inventory and every program with GPU evidence."""

    inventory: Inventory
    processes: tuple[ProcessReport, ...]
    interval_s: float
    nvidia_status: Msg | None = None  # why NVIDIA per-process data is missing, if it is
    notes: tuple[Msg, ...] = field(default_factory=tuple)

    def process(self, pid: int) -> ProcessReport | None:
        return next((p for p in self.processes if p.pid == pid), None)
