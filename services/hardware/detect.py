"""Which GPU and CPU this machine has, to prefill the calculator (Qt-free).

GPUs come from the telemetry hub's device list (``GpuInfo``) when the app runs
it, else from NVML directly (``NvmlDevice``); either way each is matched to the
catalogue by PCI device ID first and by name second. The CPU name comes from
/proc/cpuinfo on Linux and the registry on Windows.
"""
from __future__ import annotations

import platform
import sys
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable, Sequence

from services.hardware.catalog import Cpu, Gpu, find_cpu, find_gpu
from services.nvml_devices import NvmlDevice, list_devices
from services.telemetry.model import GpuInfo


def match_gpu_info(info: GpuInfo | NvmlDevice, gpus: Sequence[Gpu]) -> Gpu | None:
    """Catalogue card for a telemetry ``GpuInfo`` or an NVML ``NvmlDevice``."""
    if info.pci_device_id:
        hit = find_gpu(int(info.pci_device_id), gpus, memory_total_mib=info.memory_total_mib)
        if hit is not None:
            return hit
    return find_gpu(info.name, gpus) if info.name else None


def detected_gpus(devices: Iterable[GpuInfo], gpus: Sequence[Gpu]) -> list[Gpu]:
    """Catalogue cards for the GPUs a hub found (its ``devices``), in their order; unknown ones left out."""
    found = [match_gpu_info(info, gpus) for info in devices]
    return [g for g in found if g is not None]


def nvml_devices(nvml: Any = None) -> list[NvmlDevice]:
    """Name, PCI device ID and memory of each GPU via NVML; [] when there is no driver."""
    return list(list_devices(nvml).devices)


def detected_gpus_nvml(gpus: Sequence[Gpu], nvml: Any = None) -> list[Gpu]:
    found = [match_gpu_info(d, gpus) for d in nvml_devices(nvml)]
    return [g for g in found if g is not None]


def cpu_name_linux(cpuinfo: Path = Path("/proc/cpuinfo")) -> str | None:
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Model name") and value.strip():
            return value.strip()
    return None


def cpu_name_windows(read_registry: Callable[[], str | None] | None = None) -> str | None:
    """ProcessorNameString from the registry (the name Task Manager shows)."""
    if read_registry is None:
        def read_registry() -> str | None:
            import winreg as winreg_module  # Windows only; imported here so this module loads on Linux

            winreg: Any = winreg_module  # typeshed has winreg on win32 only; mypy checks as on Linux

            with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, r"HARDWARE\DESCRIPTION\System\CentralProcessor\0") as key:
                return str(winreg.QueryValueEx(key, "ProcessorNameString")[0])
    try:
        name = read_registry()
    except OSError:
        name = None
    return (name or "").strip() or (platform.processor() or None)


def detected_cpu_name() -> str | None:
    if sys.platform.startswith("win"):
        return cpu_name_windows()
    return cpu_name_linux()


def detected_cpu(cpus: Sequence[Cpu], name: str | None = None) -> Cpu | None:
    name = name if name is not None else detected_cpu_name()
    return find_cpu(name, cpus) if name else None


