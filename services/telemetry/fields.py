"""One description of ``GpuSample``'s and ``SystemSample``'s fields, from which every list of them is derived.

The history's metric columns, the recording's ``samples`` columns, the slow
fields the carry fills, the nvidia-smi CSV columns (written and read back),
the dcgm-exporter metrics the exporter publishes and a remote exporter is read
by, and the fields a source fills all come from ``GPU_FIELDS``. A field added
to ``GpuSample`` is added here once (tests/services/test_telemetry_fields.py
checks the table against the dataclass).

The names of the formats (nvidia-smi query names, dcgm-exporter metric names
and help texts) are those tools' own and must not change: recordings and CSV
logs written before must still replay, and dashboards built on the exporter
must keep working.

``SYSTEM_FIELDS`` does the same for ``SystemSample`` (the host's CPU, RAM, swap
and disk): the recording's ``system`` columns, the history's system rows and
the JSON ``system`` object come from it.
"""
from __future__ import annotations

from typing import Literal, NamedTuple

from services.telemetry.model import Tier

# key: identifies the reading; state: why a GPU gives no values; metric: a number (graphed,
# recorded as a REAL column); reasons: the throttle reason codes; processes: the process list.
Role = Literal["key", "state", "metric", "reasons", "processes"]


# An immutable record as a NamedTuple, not a dataclass: creating the class is part of every command's
# start-up, about 1 ms for a dataclass on Python 3.11 (it compiles each generated method), a fifth of that here.
class FieldSpec(NamedTuple):
    """One ``GpuSample`` field and how each format carries it."""

    name: str  # the GpuSample attribute
    role: Role
    unit: str = ""  # "%", "MiB", "°C", "W", "J", "MHz"; "" for a count or a code
    tier: Tier | None = None  # which sampler tier reads it (None: not a reading)
    integer: bool = False  # an int in GpuSample (the recording stores REAL, read back as int)
    smi: tuple[str, ...] = ()  # nvidia-smi --query-gpu names read back (lower case, no unit); [0] is written
    smi_header: str | None = None  # the CSV header written for smi[0], with nvidia-smi's unit
    dcgm: str | None = None  # dcgm-exporter metric carrying the value as it is (None: none, or derived)
    dcgm_type: Literal["gauge", "counter"] = "gauge"
    dcgm_help: str = ""  # as in dcgm-exporter's default-counters.csv


_F, _S = Tier.FAST, Tier.SLOW

GPU_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("t", "key", "s"),
    FieldSpec("index", "key", smi=("index",)),
    FieldSpec("uuid", "key", smi=("uuid", "gpu_uuid")),
    FieldSpec("state", "state"),
    FieldSpec("state_detail", "state"),
    FieldSpec("utilization_pct", "metric", "%", _F, smi=("utilization.gpu",), smi_header="utilization.gpu [%]",
              dcgm="DCGM_FI_DEV_GPU_UTIL", dcgm_help="GPU utilization (in %)."),
    FieldSpec("memory_utilization_pct", "metric", "%", _F, smi=("utilization.memory",),
              smi_header="utilization.memory [%]",
              dcgm="DCGM_FI_DEV_MEM_COPY_UTIL", dcgm_help="Memory utilization (in %)."),
    FieldSpec("memory_used_mib", "metric", "MiB", _F, smi=("memory.used",), smi_header="memory.used [MiB]",
              dcgm="DCGM_FI_DEV_FB_USED", dcgm_help="Frame buffer memory used (in MiB)."),
    FieldSpec("memory_total_mib", "metric", "MiB", _F, smi=("memory.total",), smi_header="memory.total [MiB]",
              dcgm="DCGM_FI_DEV_FB_TOTAL", dcgm_help="Frame buffer memory total (in MiB)."),
    FieldSpec("temperature_c", "metric", "°C", _F, smi=("temperature.gpu",), smi_header="temperature.gpu",
              dcgm="DCGM_FI_DEV_GPU_TEMP", dcgm_help="GPU temperature (in C)."),
    FieldSpec("memory_temperature_c", "metric", "°C", _F, smi=("temperature.memory",),
              smi_header="temperature.memory",
              dcgm="DCGM_FI_DEV_MEMORY_TEMP", dcgm_help="Memory temperature (in C)."),
    FieldSpec("power_w", "metric", "W", _F, smi=("power.draw", "power.draw.instant", "power.draw.average"),
              smi_header="power.draw [W]", dcgm="DCGM_FI_DEV_POWER_USAGE", dcgm_help="Power draw (in W)."),
    FieldSpec("power_limit_w", "metric", "W", _F, smi=("power.limit", "enforced.power.limit"),
              smi_header="power.limit [W]",
              dcgm="DCGM_FI_DEV_POWER_MGMT_LIMIT", dcgm_help="Power management limit (in W)."),
    # Published in mJ (DCGM's unit) by the exporter, so not as it is.
    FieldSpec("energy_j", "metric", "J", _F),
    FieldSpec("sm_clock_mhz", "metric", "MHz", _F, smi=("clocks.sm", "clocks.current.sm"),
              smi_header="clocks.sm [MHz]",
              dcgm="DCGM_FI_DEV_SM_CLOCK", dcgm_help="SM clock frequency (in MHz)."),
    FieldSpec("mem_clock_mhz", "metric", "MHz", _F, smi=("clocks.mem", "clocks.current.memory"),
              smi_header="clocks.mem [MHz]",
              dcgm="DCGM_FI_DEV_MEM_CLOCK", dcgm_help="Memory clock frequency (in MHz)."),
    FieldSpec("fan_pct", "metric", "%", _S, smi=("fan.speed",), smi_header="fan.speed [%]",
              dcgm="DCGM_FI_DEV_FAN_SPEED", dcgm_help="Fan speed (in %)."),
    FieldSpec("pstate", "metric", "", _F, integer=True, smi=("pstate",), smi_header="pstate",
              dcgm="DCGM_FI_DEV_PSTATE", dcgm_help="Performance state (P-State) 0-15. 0=highest."),
    FieldSpec("pcie_gen", "metric", "", _S, integer=True, smi=("pcie.link.gen.current", "pcie.link.gen.gpucurrent"),
              smi_header="pcie.link.gen.current",
              dcgm="DCGM_FI_DEV_PCIE_LINK_GEN", dcgm_help="PCIe current link generation."),
    FieldSpec("pcie_width", "metric", "", _S, integer=True, smi=("pcie.link.width.current",),
              smi_header="pcie.link.width.current",
              dcgm="DCGM_FI_DEV_PCIE_LINK_WIDTH", dcgm_help="PCIe current link width."),
    FieldSpec("encoder_pct", "metric", "%", _S, smi=("utilization.encoder",), smi_header="utilization.encoder [%]",
              dcgm="DCGM_FI_DEV_ENC_UTIL", dcgm_help="Encoder utilization (in %)."),
    FieldSpec("decoder_pct", "metric", "%", _S, smi=("utilization.decoder",), smi_header="utilization.decoder [%]",
              dcgm="DCGM_FI_DEV_DEC_UTIL", dcgm_help="Decoder utilization (in %)."),
    # A bitmask in the CSV and on the exporter (derived), a set of codes in GpuSample.
    FieldSpec("throttle_reasons", "reasons", "", _F,
              smi=("clocks_event_reasons.active", "clocks_throttle_reasons.active"),
              smi_header="clocks_event_reasons.active"),
    FieldSpec("ecc_corrected", "metric", "", _S, integer=True, smi=("ecc.errors.corrected.volatile.total",),
              smi_header="ecc.errors.corrected.volatile.total", dcgm="DCGM_FI_DEV_ECC_SBE_VOL_TOTAL",
              dcgm_type="counter", dcgm_help="Total number of single-bit volatile ECC errors."),
    FieldSpec("ecc_uncorrected", "metric", "", _S, integer=True, smi=("ecc.errors.uncorrected.volatile.total",),
              smi_header="ecc.errors.uncorrected.volatile.total", dcgm="DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
              dcgm_type="counter", dcgm_help="Total number of double-bit volatile ECC errors."),
    FieldSpec("processes", "processes", "", _S),
    FieldSpec("state_detail_text", "state"),
)

GPU_FIELD: dict[str, FieldSpec] = {f.name: f for f in GPU_FIELDS}

# The numbers, in GpuSample order: the history's metric rows and the recording's samples columns.
METRIC_FIELDS: tuple[str, ...] = tuple(f.name for f in GPU_FIELDS if f.role == "metric")
# What a source reads (everything but the key and the state).
READING_FIELDS: tuple[str, ...] = tuple(f.name for f in GPU_FIELDS if f.tier is not None)
# Read on SLOW ticks only; a FAST-only reading leaves them None (carry.SlowFieldCarry fills them).
SLOW_FIELDS: tuple[str, ...] = tuple(f.name for f in GPU_FIELDS if f.tier is Tier.SLOW)
INTEGER_FIELDS: frozenset[str] = frozenset(f.name for f in GPU_FIELDS if f.integer)


class SystemFieldSpec(NamedTuple):  # a NamedTuple for start-up, as FieldSpec
    """One ``SystemSample`` field after ``t``, and where it is kept."""

    name: str  # the SystemSample attribute
    unit: str = ""  # "%", "MiB", "MiB/s"; "" for a count
    integer: bool = False  # an int in SystemSample (the recording stores REAL, read back as int)
    graphed: bool = True  # a row of the history (the insights read it); totals that never move are not


# In SystemSample order, which is also the recording's system columns (the file format: never reorder).
SYSTEM_FIELDS: tuple[SystemFieldSpec, ...] = (
    SystemFieldSpec("cpu_pct", "%"),
    SystemFieldSpec("cpu_count", integer=True, graphed=False),
    SystemFieldSpec("ram_used_mib", "MiB"),
    SystemFieldSpec("ram_total_mib", "MiB"),
    SystemFieldSpec("swap_used_mib", "MiB"),
    SystemFieldSpec("swap_total_mib", "MiB", graphed=False),
    SystemFieldSpec("disk_read_mib_s", "MiB/s"),
    SystemFieldSpec("disk_write_mib_s", "MiB/s"),
    SystemFieldSpec("iowait_pct", "%"),
)

# Every SystemSample value: the recording's system columns and the JSON system object.
SYSTEM_VALUE_FIELDS: tuple[str, ...] = tuple(f.name for f in SYSTEM_FIELDS)
# The history's system rows.
SYSTEM_GRAPHED_FIELDS: tuple[str, ...] = tuple(f.name for f in SYSTEM_FIELDS if f.graphed)
SYSTEM_INTEGER_FIELDS: frozenset[str] = frozenset(f.name for f in SYSTEM_FIELDS if f.integer)
