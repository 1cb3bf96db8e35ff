"""What Linux sysfs says about NVIDIA GPUs without asking NVML (which would wake a
runtime-suspended laptop GPU): PCI identity and power/runtime_status."""
from __future__ import annotations

import os
from pathlib import Path

NVIDIA_VENDOR = "0x10de"


def read_sysfs(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            return fh.read().strip()
    except OSError:
        return None


def nvidia_display_devices(pci_devices: Path) -> list[str]:
    """sysfs bus ids of NVIDIA display controllers (PCI class 0x03xxxx: VGA or 3D)."""
    try:
        names = sorted(os.listdir(pci_devices))
    except OSError:
        return []
    found = []
    for bdf in names:
        base = os.path.join(pci_devices, bdf)
        if read_sysfs(os.path.join(base, "vendor")) != NVIDIA_VENDOR:
            continue
        if not (read_sysfs(os.path.join(base, "class")) or "").startswith("0x03"):
            continue  # the card's HDMI audio or USB-C controller, not the GPU
        found.append(bdf)
    return found


def sysfs_bus_id(nvml_bus_id: str | None) -> str | None:
    """NVML's "00000000:01:00.0" -> sysfs "0000:01:00.0" (16-bit domain, lower case)."""
    if not nvml_bus_id:
        return None
    parts = nvml_bus_id.strip().lower().split(":")
    if len(parts) != 3:
        return None
    domain = parts[0][-4:].rjust(4, "0")
    return f"{domain}:{parts[1]}:{parts[2]}"
