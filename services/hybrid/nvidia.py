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
    """NVML through the app's one wrapper (``services.telemetry.nvml.Nvml``).

    Process lists use the wrapper's probing with the v3 -> v2 -> v1 fallback and the R535
    struct check of the telemetry source; per-process utilisation is called directly because
    "no samples since then" (NOT_FOUND) must not mark it unsupported for good.
    """

    def __init__(self, nvml: Any = None, module: Any = None) -> None:
        from services.telemetry.nvml import Nvml, NvmlUnavailable

        self._nvml = nvml if nvml is not None else Nvml(module)
        try:
            self._nvml.init()
        except NvmlUnavailable as exc:
            from services.telemetry.model import DeviceState
            from services.telemetry.states import state_explanation

            # The monitor's translated explanation per state; the raw reason only when it is a plain error.
            message = (state_explanation(exc.state) if exc.state is not DeviceState.ERROR else
                       translate("Hybrid", "NVIDIA driver not reachable: {error}").format(error=exc.message))
            raise NvidiaUnavailable(message) from exc
        self._handles: list[Any] = []
        self._keys: list[str] = []
        self._gpus: list[NvidiaGpu] = []
        self._utilization_supported: dict[str, bool] = {}
        try:
            count = int(self._nvml.call("nvmlDeviceGetCount"))
            for index in range(count):
                self._add_gpu(index)
        except Exception as exc:  # the driver answered init but not the device list
            self.close()
            raise NvidiaUnavailable(
                translate("Hybrid", "NVIDIA driver not reachable: {error}").format(error=str(exc))) from exc

    def _add_gpu(self, index: int) -> None:
        from services.telemetry.nvml import Attempt, text

        nvml = self._nvml
        handle = nvml.device_call("nvmlDeviceGetHandleByIndex", index)
        name = text(nvml.device_call("nvmlDeviceGetName", handle)) or f"NVIDIA GPU {index}"
        key = text(nvml.device_call("nvmlDeviceGetUUID", handle)) or f"index-{index}"
        pci = nvml.query(key, "pci_info", (Attempt("nvmlDeviceGetPciInfo_v3", (handle,)),
                                           Attempt("nvmlDeviceGetPciInfo", (handle,))))
        bus = text(getattr(pci, "busId", None)) if pci is not None else None
        self._handles.append(handle)
        self._keys.append(key)
        self._gpus.append(NvidiaGpu(index=index, name=name, pci_bus_id=normalize_pci(bus) if bus else None))

    def gpus(self) -> list[NvidiaGpu]:
        return list(self._gpus)

    def processes(self) -> list[NvidiaProcess]:
        from services.telemetry.nvml import Attempt, DeviceFailure
        from services.telemetry.nvml_metrics import plausible_process_list

        result: list[NvidiaProcess] = []
        for gpu, key, handle in zip(self._gpus, self._keys, self._handles, strict=True):
            lists = {}
            for kind, symbol in (("compute", "nvmlDeviceGetComputeRunningProcesses"),
                                 ("graphics", "nvmlDeviceGetGraphicsRunningProcesses")):
                attempts = tuple(Attempt(f"{symbol}_{v}", (handle,), validate=plausible_process_list)
                                 for v in ("v3", "v2", "v1"))
                try:
                    lists[kind] = list(self._nvml.query(key, f"processes_{kind}", attempts) or [])
                except DeviceFailure:
                    lists[kind] = []  # a lost GPU has no processes to show; the monitor reports the loss
            result += merge_process_lists(gpu.index, lists["compute"], lists["graphics"])
        return result

    def utilization_since(self, since_us: int) -> list[NvidiaUtilization]:
        from services.telemetry.nvml import ERROR_NOT_FOUND, error_code

        result: list[NvidiaUtilization] = []
        for gpu, key, handle in zip(self._gpus, self._keys, self._handles, strict=True):
            if self._utilization_supported.get(key) is False:
                continue
            try:
                samples = self._nvml.call("nvmlDeviceGetProcessUtilization", handle, since_us) or []
            except Exception as exc:  # NVMLError of the binding in use
                # NOT_FOUND: no samples since ``since_us``; anything else: this GPU cannot tell.
                if error_code(exc) != ERROR_NOT_FOUND:
                    self._utilization_supported[key] = False
                continue
            self._utilization_supported[key] = True
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
        self._nvml.shutdown()


def open_nvidia_probe() -> tuple[NvidiaProcessProbe | None, Msg | None]:
    try:
        return NvmlProcessProbe(), None
    except NvidiaUnavailable as exc:
        return None, exc.message
