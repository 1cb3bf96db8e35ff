"""The nvidia-smi CSV columns an exported session carries, shared by the writer (recorder)
and the reader (replay) so neither has to import the other."""
from __future__ import annotations

import datetime as dt

# What recorder.export_csv writes: (query name with unit, GpuSample field).
EXPORT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("timestamp", "timestamp"),
    ("index", "index"),
    ("name", "info:name"),
    ("uuid", "uuid"),
    ("pci.bus_id", "info:pci_bus_id"),
    ("pstate", "pstate"),
    ("temperature.gpu", "temperature_c"),
    ("temperature.memory", "memory_temperature_c"),
    ("utilization.gpu [%]", "utilization_pct"),
    ("utilization.memory [%]", "memory_utilization_pct"),
    ("memory.total [MiB]", "memory_total_mib"),
    ("memory.used [MiB]", "memory_used_mib"),
    ("power.draw [W]", "power_w"),
    ("power.limit [W]", "power_limit_w"),
    ("clocks.sm [MHz]", "sm_clock_mhz"),
    ("clocks.mem [MHz]", "mem_clock_mhz"),
    ("fan.speed [%]", "fan_pct"),
    ("pcie.link.gen.current", "pcie_gen"),
    ("pcie.link.width.current", "pcie_width"),
    ("utilization.encoder [%]", "encoder_pct"),
    ("utilization.decoder [%]", "decoder_pct"),
    ("clocks_event_reasons.active", "throttle_mask"),
    ("ecc.errors.corrected.volatile.total", "ecc_corrected"),
    ("ecc.errors.uncorrected.volatile.total", "ecc_uncorrected"),
)


def format_timestamp(t: float) -> str:
    """nvidia-smi's own timestamp format (local time, milliseconds)."""
    d = dt.datetime.fromtimestamp(t)
    return d.strftime("%Y/%m/%d %H:%M:%S.") + f"{d.microsecond // 1000:03d}"
