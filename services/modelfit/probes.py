"""Where a measurement's numbers come from: the GPU driver's memory per process, through NVML or, on Windows
WDDM where NVML does not know it, the "GPU Process Memory" performance counters."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol
from collections.abc import Mapping, Sequence

from services.i18n import Msg, translate
from services.modelfit.errors import MeasureError
from services.modelfit.request import GIB


@dataclass(frozen=True, slots=True)
class GpuRef:
    key: str  # NVML UUID, or the adapter LUID on the Windows counters
    index: int
    name: str
    total_gib: float | None = None


@dataclass(frozen=True, slots=True)
class ProbeReading:
    """One look at the driver: bytes per PID on each GPU, and the GPUs that failed this time."""

    used: Mapping[str, Mapping[int, float | None]]  # GPU key -> pid -> bytes (None: the driver does not say)
    failed: Mapping[str, Msg | str] = field(default_factory=dict)  # GPU key -> why it could not be read
    # GPU key -> the whole GPU's used bytes: the fallback when the process list does not show the
    # measured processes (a container with its own PID namespace sees other PIDs than NVML reports)
    device_used: Mapping[str, float] = field(default_factory=dict)


class MemoryProbe(Protocol):
    def gpus(self) -> Sequence[GpuRef]: ...

    def read(self) -> ProbeReading: ...

    def versions(self) -> dict[str, str]: ...


class NvmlProcessProbe:
    """Per-process GPU memory through the app's one NVML wrapper (every GPU, compute and graphics lists)."""

    def __init__(self, module: Any = None) -> None:
        from services.telemetry.nvml import Nvml, NvmlUnavailable
        from services.telemetry.nvml_metrics import read_plan

        self._nvml = Nvml(module)
        try:
            self._nvml.init()
        except NvmlUnavailable as exc:
            raise MeasureError(exc.text or exc.message) from None
        self._refs: list[GpuRef] = []
        self._plans: dict[str, dict] = {}
        try:
            count = self._nvml.device_call("nvmlDeviceGetCount")
            for index in range(count):
                handle = self._nvml.device_call("nvmlDeviceGetHandleByIndex", index)
                uuid = _text(self._nvml.device_call("nvmlDeviceGetUUID", handle))
                name = _text(self._nvml.device_call("nvmlDeviceGetName", handle))
                total = None
                try:
                    total = self._nvml.call("nvmlDeviceGetMemoryInfo", handle).total / GIB
                except Exception:  # the total is only for the picture
                    pass
                self._refs.append(GpuRef(uuid, index, name, total))
                self._plans[uuid] = read_plan(self._nvml, handle)
        except Exception as exc:  # DeviceFailure or a binding error: one line
            raise MeasureError(translate("Measure", "cannot list the NVIDIA GPUs: {reason}").format(
                reason=getattr(exc, "text", None) or str(exc))) from None
        if not self._refs:
            raise MeasureError(translate("Measure", "no NVIDIA GPU found"))

    def gpus(self) -> Sequence[GpuRef]:
        return tuple(self._refs)

    def versions(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for key, function in (("driver", "nvmlSystemGetDriverVersion"), ("cuda_driver", "nvmlSystemGetCudaDriverVersion_v2")):
            try:
                value = self._nvml.call(function)
            except Exception:  # a version is a nice-to-have
                continue
            if isinstance(value, int):  # 12060 -> 12.6
                value = f"{value // 1000}.{value % 1000 // 10}"
            found[key] = _text(value)
        return found

    def read(self) -> ProbeReading:
        from services.telemetry.nvml import DeviceFailure, clean

        used: dict[str, dict[int, float | None]] = {}
        failed: dict[str, Msg | str] = {}
        device: dict[str, float] = {}
        for ref in self._refs:
            plan = self._plans[ref.key]
            per_pid: dict[int, float | None] = {}
            try:
                memory = self._nvml.query(ref.key, "memory", plan["memory"])
                if memory is not None and clean(getattr(memory, "used", None)) is not None:
                    device[ref.key] = float(memory.used)
                for kind in ("processes_compute", "processes_graphics"):
                    listed = self._nvml.query(ref.key, kind, plan[kind])
                    for proc in listed or ():
                        value = clean(getattr(proc, "usedGpuMemory", None))
                        pid = int(proc.pid)
                        # One process with a compute and a graphics context is listed twice for the same memory.
                        if value is not None:
                            per_pid[pid] = max(per_pid.get(pid) or 0.0, float(value))
                        else:
                            per_pid.setdefault(pid, None)
            except DeviceFailure as exc:
                failed[ref.key] = exc.text or exc.message
                continue
            used[ref.key] = per_pid
        return ProbeReading(used, failed, device)

    def close(self) -> None:
        self._nvml.shutdown()


class WindowsCounterProbe:
    """Per-process dedicated GPU memory from the "GPU Process Memory" counters (Windows, WDDM).

    Instance names are ``pid_<pid>_luid_<high>_<low>_phys_<n>`` (services.hybrid.windows); the
    adapter is its LUID, named from the DirectX registry inventory when it is given.
    """

    def __init__(self, source: Any, adapters: Mapping[str, str] | None = None) -> None:
        self._source = source
        self._names = dict(adapters or {})
        self._refs: dict[str, GpuRef] = {}
        for luid, name in self._names.items():
            self._refs[luid] = GpuRef(luid, len(self._refs), name)

    def gpus(self) -> Sequence[GpuRef]:
        return tuple(self._refs.values())

    def versions(self) -> dict[str, str]:
        return {}

    def read(self) -> ProbeReading:
        from services.hybrid.windows import parse_memory_instance

        try:
            sample = self._source.sample(0.0)
        except OSError as exc:
            return ProbeReading({}, {"*": translate("Measure", "the GPU performance counters could not be read: {reason}").format(
                reason=str(exc))})
        used: dict[str, dict[int, float | None]] = {}
        for instance, value in sample.dedicated_bytes.items():
            parsed = parse_memory_instance(instance)
            if parsed is None:
                continue
            pid, luid = parsed
            if luid not in self._refs:
                self._refs[luid] = GpuRef(luid, len(self._refs), self._names.get(luid, luid))
            per_pid = used.setdefault(luid, {})
            per_pid[pid] = (per_pid.get(pid) or 0.0) + float(value)  # one instance per physical adapter
        for luid in self._refs:
            used.setdefault(luid, {})
        return ProbeReading(used)



def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
