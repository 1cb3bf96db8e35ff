"""The field table describes GpuSample exactly, and the formats derived from it keep their old shape."""
from __future__ import annotations

import dataclasses
import typing

from services.telemetry import fields, model
from services.telemetry.fields import GPU_FIELD, GPU_FIELDS
from services.telemetry.model import GpuSample, Tier


def test_the_table_lists_every_gpu_sample_field_in_order():
    assert [f.name for f in GPU_FIELDS] == [f.name for f in dataclasses.fields(GpuSample)]


def test_integer_and_number_kinds_follow_the_dataclass_types():
    hints = typing.get_type_hints(GpuSample, vars(model))
    for spec in GPU_FIELDS:
        if spec.role != "metric":
            continue
        assert hints[spec.name] in (int | None, float | None), spec.name
        assert spec.integer == (hints[spec.name] == int | None), spec.name
        assert spec.tier in (Tier.FAST, Tier.SLOW), spec.name


def test_pstate_is_fast_and_the_slow_fields_are_what_the_slow_tier_reads():
    assert GPU_FIELD["pstate"].tier is Tier.FAST
    assert fields.SLOW_FIELDS == ("fan_pct", "pcie_gen", "pcie_width", "encoder_pct", "decoder_pct",
                                  "ecc_corrected", "ecc_uncorrected", "processes")


def test_recording_columns_are_unchanged():
    # Recordings written before must still replay: the samples table's columns and their order.
    from services.telemetry.recording import SAMPLE_COLUMNS

    assert SAMPLE_COLUMNS == (
        "utilization_pct", "memory_utilization_pct", "memory_used_mib", "memory_total_mib",
        "temperature_c", "memory_temperature_c", "power_w", "power_limit_w", "energy_j",
        "sm_clock_mhz", "mem_clock_mhz", "fan_pct", "pstate", "pcie_gen", "pcie_width",
        "encoder_pct", "decoder_pct", "ecc_corrected", "ecc_uncorrected",
    )


def test_nvidia_smi_export_header_is_unchanged():
    from services.telemetry.smi_csv import EXPORT_COLUMNS

    assert ",".join(h for h, _ in EXPORT_COLUMNS) == (
        "timestamp,index,name,uuid,pci.bus_id,pstate,temperature.gpu,temperature.memory,utilization.gpu [%],"
        "utilization.memory [%],memory.total [MiB],memory.used [MiB],power.draw [W],power.limit [W],"
        "clocks.sm [MHz],clocks.mem [MHz],fan.speed [%],pcie.link.gen.current,pcie.link.width.current,"
        "utilization.encoder [%],utilization.decoder [%],clocks_event_reasons.active,"
        "ecc.errors.corrected.volatile.total,ecc.errors.uncorrected.volatile.total"
    )


def test_every_exported_column_is_read_back_by_the_replay_into_the_same_field():
    from services.telemetry.smi_rows import COLUMNS, column_key
    from services.telemetry.smi_csv import EXPORT_COLUMNS

    for header, key in EXPORT_COLUMNS:
        assert COLUMNS[column_key(header)].field == key, header


def test_exporter_metric_names_and_order_are_unchanged():
    from services.exporter.metrics import DCGM_FIELDS

    assert [f.name.removeprefix("DCGM_FI_DEV_") for f in DCGM_FIELDS] == [
        "SM_CLOCK", "MEM_CLOCK", "MEMORY_TEMP", "GPU_TEMP", "POWER_USAGE", "TOTAL_ENERGY_CONSUMPTION",
        "GPU_UTIL", "MEM_COPY_UTIL", "ENC_UTIL", "DEC_UTIL", "FB_FREE", "FB_USED", "FB_TOTAL", "FAN_SPEED",
        "PSTATE", "POWER_MGMT_LIMIT", "PCIE_LINK_GEN", "PCIE_LINK_WIDTH", "PCIE_MAX_LINK_GEN",
        "PCIE_MAX_LINK_WIDTH", "SLOWDOWN_TEMP", "SHUTDOWN_TEMP", "MAX_SM_CLOCK", "MAX_MEM_CLOCK",
        "CLOCK_THROTTLE_REASONS", "ECC_SBE_VOL_TOTAL", "ECC_DBE_VOL_TOTAL",
    ]
    assert {f.name for f in DCGM_FIELDS} >= {s.dcgm for s in GPU_FIELDS if s.dcgm}  # every field's metric is published


def test_a_remote_exporter_is_read_into_the_fields_it_publishes():
    from services.exporter.remote import SAMPLE_FIELDS

    for metric, name in SAMPLE_FIELDS.items():
        assert GPU_FIELD[name].dcgm == metric
    assert "DCGM_FI_DEV_GPU_UTIL" in SAMPLE_FIELDS and "DCGM_FI_DEV_PSTATE" not in SAMPLE_FIELDS


def test_the_system_table_lists_every_system_sample_field_in_order_with_its_kind():
    from services.telemetry.fields import SYSTEM_FIELDS
    from services.telemetry.model import SystemSample

    assert ["t", *(f.name for f in SYSTEM_FIELDS)] == [f.name for f in dataclasses.fields(SystemSample)]
    hints = typing.get_type_hints(SystemSample, vars(model))
    for spec in SYSTEM_FIELDS:
        assert hints[spec.name] in (int | None, float | None), spec.name
        assert spec.integer == (hints[spec.name] == int | None), spec.name


def test_recording_system_columns_and_history_system_rows_are_unchanged():
    # Recordings written before must still replay: the system table's columns and their order.
    from services.telemetry.history import SYSTEM_METRICS
    from services.telemetry.recording import SCHEMA_SQL, SYSTEM_COLUMNS

    assert SYSTEM_COLUMNS == ("cpu_pct", "cpu_count", "ram_used_mib", "ram_total_mib", "swap_used_mib",
                              "swap_total_mib", "disk_read_mib_s", "disk_write_mib_s", "iowait_pct")
    assert ("CREATE TABLE IF NOT EXISTS system(t REAL PRIMARY KEY, cpu_pct REAL, cpu_count REAL, ram_used_mib REAL, "
            "ram_total_mib REAL, swap_used_mib REAL, swap_total_mib REAL, disk_read_mib_s REAL, disk_write_mib_s REAL, "
            "iowait_pct REAL);") in SCHEMA_SQL
    assert SYSTEM_METRICS == ("cpu_pct", "ram_used_mib", "ram_total_mib", "swap_used_mib", "disk_read_mib_s",
                              "disk_write_mib_s", "iowait_pct")


def test_a_system_sample_round_trips_through_a_recording_and_the_json(tmp_path):
    from services.telemetry.model import DeviceState, Snapshot, SourceStatus, SystemSample
    from services.telemetry.recorder import Recorder
    from services.telemetry.recording import read_recording
    from services.telemetry.report import snapshot_to_dict

    system = SystemSample(t=100.0, cpu_pct=12.5, cpu_count=16, ram_used_mib=9000.0, ram_total_mib=64000.0,
                          swap_used_mib=10.0, swap_total_mib=8192.0, disk_read_mib_s=1.5, disk_write_mib_s=2.5,
                          iowait_pct=0.5)
    snap = Snapshot(t=100.0, status=SourceStatus(DeviceState.OK), gpus=(),
                    samples=(GpuSample(t=100.0, index=0, uuid="GPU-0", utilization_pct=50.0),), system=system)
    recorder = Recorder(tmp_path, clock=lambda: 0.0)
    recorder.on_snapshot(snap)
    recorder.close()
    (back,) = read_recording(recorder.path)
    assert back.system == system and isinstance(back.system.cpu_count, int)
    assert snapshot_to_dict(snap, "nvml")["system"] == {
        "cpu_pct": 12.5, "cpu_count": 16, "ram_used_mib": 9000.0, "ram_total_mib": 64000.0, "swap_used_mib": 10.0,
        "swap_total_mib": 8192.0, "disk_read_mib_s": 1.5, "disk_write_mib_s": 2.5, "iowait_pct": 0.5}
