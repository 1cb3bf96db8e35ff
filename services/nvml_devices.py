"""One call that lists the NVIDIA GPUs, for everything that is not live telemetry.

The setup doctor, the fit calculator's headless "live GPU" and the PSU
calculator's prefill each need the same few facts once: driver and CUDA
version, and per GPU its name, PCI identity, memory and compute capability.
They all get them from :func:`list_devices`, which goes through the app's one
NVML wrapper (:class:`services.telemetry.nvml.Nvml`): the same lazy import,
initialisation check and error-to-reason mapping as the monitor.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.i18n import Msg
from services.telemetry.model import DeviceState
from services.telemetry.nvml import Nvml, NvmlUnavailable, error_code, reason_text, text

_MIB = 2**20


@dataclass(frozen=True, slots=True)
class NvmlDevice:
    index: int
    name: str
    pci_bus_id: str = ""
    pci_device_id: int | None = None
    memory_total_mib: float | None = None
    memory_used_mib: float | None = None
    capability: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class NvmlInventory:
    ok: bool
    driver_version: str | None = None
    cuda_driver_version: int | None = None  # 1000*major + 10*minor (12080 = CUDA 12.8)
    devices: tuple[NvmlDevice, ...] = ()
    state: DeviceState | None = None  # why NVML is unusable, when not ok
    error_code: int | None = None
    error: str = ""  # English, one line
    error_text: Msg | None = None  # the same line, translatable


def _optional(nvml: Nvml, function: str, *args: Any) -> Any:
    """A value that one GPU may not report (NOT_SUPPORTED, old driver): None then."""
    try:
        return nvml.call(function, *args)
    except Exception:  # any NVML error here only means "not known"
        return None


def _device(nvml: Nvml, index: int) -> NvmlDevice:
    handle = nvml.device_call("nvmlDeviceGetHandleByIndex", index)
    name = text(nvml.device_call("nvmlDeviceGetName", handle)) or f"GPU {index}"
    pci = _optional(nvml, "nvmlDeviceGetPciInfo", handle)
    memory = _optional(nvml, "nvmlDeviceGetMemoryInfo", handle)
    capability = _optional(nvml, "nvmlDeviceGetCudaComputeCapability", handle)
    device_id = getattr(pci, "pciDeviceId", None)
    return NvmlDevice(
        index=index,
        name=name,
        pci_bus_id=text(getattr(pci, "busId", None)) or "",
        pci_device_id=int(device_id) if device_id else None,
        memory_total_mib=memory.total / _MIB if memory is not None else None,
        memory_used_mib=memory.used / _MIB if memory is not None and getattr(memory, "used", None) is not None
        else None,
        capability=(int(capability[0]), int(capability[1])) if capability else None,
    )


def _cuda_driver_version(nvml: Nvml) -> int | None:
    for function in ("nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"):
        value = _optional(nvml, function)
        if value is not None:
            return int(value)
    return None


def list_devices(module: Any = None) -> NvmlInventory:
    """Initialise NVML, read the driver and every GPU, shut NVML down again.

    ``module`` is the ``pynvml`` module (nvidia-ml-py) or a fake of it; by
    default it is imported lazily. Never raises: a missing driver or library
    is an inventory with ``ok=False`` and a one-line reason.
    """
    nvml = Nvml(module)
    try:
        nvml.init()
    except NvmlUnavailable as exc:
        cause = exc.__cause__
        return NvmlInventory(False, state=exc.state, error_code=error_code(cause) if cause else None,
                             error=exc.message, error_text=exc.text)
    try:
        driver = text(_optional(nvml, "nvmlSystemGetDriverVersion"))
        count = int(nvml.device_call("nvmlDeviceGetCount"))
        devices = tuple(_device(nvml, index) for index in range(count))
        return NvmlInventory(True, driver, _cuda_driver_version(nvml), devices)
    except Exception as exc:  # DeviceFailure or a broken binding: a state, not a crash
        code = getattr(exc, "code", None) if hasattr(exc, "code") else error_code(exc)
        message = getattr(exc, "text", None) or reason_text(exc)
        return NvmlInventory(False, state=getattr(exc, "state", DeviceState.ERROR), error_code=code,
                             error=str(message), error_text=message if isinstance(message, Msg) else None)
    finally:
        nvml.shutdown()
