"""The nvidia-smi CSV columns an exported session carries, shared by the writer (session_store)
and the reader (replay) so neither has to import the other."""
from __future__ import annotations

import datetime as dt

from services.telemetry.fields import GPU_FIELD

# The sample fields an export carries, in nvidia-smi's column order (the file format: never reorder).
_EXPORTED_FIELDS = (
    "pstate", "temperature_c", "memory_temperature_c", "utilization_pct", "memory_utilization_pct",
    "memory_total_mib", "memory_used_mib", "power_w", "power_limit_w", "sm_clock_mhz", "mem_clock_mhz",
    "fan_pct", "pcie_gen", "pcie_width", "encoder_pct", "decoder_pct", "throttle_reasons",
    "ecc_corrected", "ecc_uncorrected",
)

# What SessionStore.export_csv writes: (query name with unit, GpuSample field or special key);
# the headers come from the field table. The reasons are written as NVML's bitmask.
EXPORT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("timestamp", "timestamp"),
    ("index", "index"),
    ("name", "info:name"),
    ("uuid", "uuid"),
    ("pci.bus_id", "info:pci_bus_id"),
    *((str(GPU_FIELD[name].smi_header), "throttle_mask" if name == "throttle_reasons" else name)
      for name in _EXPORTED_FIELDS),
)


def format_timestamp(t: float) -> str:
    """nvidia-smi's own timestamp format (local time, milliseconds)."""
    try:
        d = dt.datetime.fromtimestamp(t)
    except (OverflowError, ValueError, OSError):  # beyond what the platform's clock can show
        return f"{t:.3f}"
    return d.strftime("%Y/%m/%d %H:%M:%S.") + f"{d.microsecond // 1000:03d}"
