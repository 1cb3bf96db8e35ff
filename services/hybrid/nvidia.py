"""NVIDIA per-process data: which processes have a context on which NVIDIA GPU, and
how busy each keeps the GPU (NVML process lists and nvmlDeviceGetProcessUtilization).

The checker depends only on the ``NvidiaProcessProbe`` protocol; ``NvmlProcessProbe``
is the real one, tests use a fake.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from services.hybrid.model import normalize_pci
from services.i18n import Msg, translate


class NvidiaUnavailable(Exception):
    """No NVIDIA per-process data: no driver, no library, or no permission."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True, slots=True)
class NvidiaGpu:
    index: int
    name: str
    pci_bus_id: str | None  # normalised "0000:01:00.0"


@dataclass(frozen=True, slots=True)
class NvidiaProcess:
    pid: int
    gpu_index: int
    kind: str  # "compute" | "graphics" | "compute+graphics"
    used_mib: float | None  # None under Windows WDDM, or hidden for another user's process


@dataclass(frozen=True, slots=True)
class NvidiaUtilization:
    pid: int
    gpu_index: int
    sm_pct: float
    encoder_pct: float
    decoder_pct: float


class NvidiaProcessProbe(Protocol):
    def gpus(self) -> list[NvidiaGpu]: ...

    def processes(self) -> list[NvidiaProcess]: ...

    def utilization_since(self, since_us: int) -> list[NvidiaUtilization]: ...

    def close(self) -> None: ...


def merge_process_lists(gpu_index: int, compute: list[Any], graphics: list[Any]) -> list[NvidiaProcess]:
    """Join the compute and graphics lists of one GPU into one entry per pid."""
    kinds: dict[int, set[str]] = {}
    memory: dict[int, float | None] = {}
    for kind, items in (("compute", compute), ("graphics", graphics)):
        for item in items:
            pid = int(item.pid)
            kinds.setdefault(pid, set()).add(kind)
            used = getattr(item, "usedGpuMemory", None)
            if used is not None and used < (1 << 63):  # NVML_VALUE_NOT_AVAILABLE is all ones
                memory[pid] = max(memory.get(pid) or 0.0, used / (1024 * 1024))
            else:
                memory.setdefault(pid, None)
    result = []
    for pid, found in sorted(kinds.items()):
        kind = "compute+graphics" if len(found) == 2 else next(iter(found))
        result.append(NvidiaProcess(pid=pid, gpu_index=gpu_index, kind=kind, used_mib=memory.get(pid)))
    return result


class NvmlProcessProbe:
    """NVML through nvidia-ml-py (imported as ``pynvml``)."""

    def __init__(self, nvml: Any = None) -> None:
        if nvml is None:
            try:
                import pynvml as nvml  # provided by the nvidia-ml-py package
            except ImportError as exc:  # pragma: no cover - a declared dependency
                raise NvidiaUnavailable(translate("Hybrid", "The NVML Python module is not installed")) from exc
        self._nvml = nvml
        try:
            nvml.nvmlInit()
        except Exception as exc:  # NVMLError_LibraryNotFound, DriverNotLoaded, NoPermission ...
            raise NvidiaUnavailable(
                translate("Hybrid", "NVIDIA driver not reachable: {error}").format(error=str(exc) or type(exc).__name__)
            ) from exc
        self._handles: list[Any] = []
        self._gpus: list[NvidiaGpu] = []
        for index in range(nvml.nvmlDeviceGetCount()):
            handle = nvml.nvmlDeviceGetHandleByIndex(index)
            name = nvml.nvmlDeviceGetName(handle)
            name = name.decode() if isinstance(name, bytes) else str(name)
            try:
                bus = nvml.nvmlDeviceGetPciInfo(handle).busId
                bus = normalize_pci(bus.decode() if isinstance(bus, bytes) else str(bus))
            except Exception:
                bus = None
            self._handles.append(handle)
            self._gpus.append(NvidiaGpu(index=index, name=name, pci_bus_id=bus))

    def gpus(self) -> list[NvidiaGpu]:
        return list(self._gpus)

    def processes(self) -> list[NvidiaProcess]:
        nvml = self._nvml
        result: list[NvidiaProcess] = []
        for gpu, handle in zip(self._gpus, self._handles):
            compute = self._call(nvml.nvmlDeviceGetComputeRunningProcesses, handle)
            graphics = self._call(nvml.nvmlDeviceGetGraphicsRunningProcesses, handle)
            result += merge_process_lists(gpu.index, compute, graphics)
        return result

    def utilization_since(self, since_us: int) -> list[NvidiaUtilization]:
        nvml = self._nvml
        result: list[NvidiaUtilization] = []
        for gpu, handle in zip(self._gpus, self._handles):
            samples = self._call(nvml.nvmlDeviceGetProcessUtilization, handle, since_us)
            best: dict[int, NvidiaUtilization] = {}
            for sample in samples:
                pid = int(sample.pid)
                util = NvidiaUtilization(pid=pid, gpu_index=gpu.index, sm_pct=float(sample.smUtil),
                                         encoder_pct=float(sample.encUtil), decoder_pct=float(sample.decUtil))
                if pid not in best or util.sm_pct > best[pid].sm_pct:
                    best[pid] = util
            result += best.values()
        return result

    def close(self) -> None:
        try:
            self._nvml.nvmlShutdown()
        except Exception:
            pass

    def _call(self, func: Any, *args: Any) -> list[Any]:
        # NOT_FOUND ("no samples since then") and NOT_SUPPORTED (some boards) just mean "nothing".
        try:
            return list(func(*args) or [])
        except Exception:
            return []


def open_nvidia_probe() -> tuple[NvidiaProcessProbe | None, Msg | None]:
    try:
        return NvmlProcessProbe(), None
    except NvidiaUnavailable as exc:
        return None, exc.message
