from __future__ import annotations

from pathlib import Path

import pytest

from services.telemetry.model import DeviceState, SourceKind
from services.telemetry.replay import open_replay
from services.telemetry.replay_errors import ReplayError
from services.telemetry.smi_rows import column_key, parse_timestamp

DATA = Path(__file__).resolve().parents[1] / "data"


def test_two_gpu_log_with_units_interleaved():
    src = open_replay(DATA / "nvidia_smi_2gpu_thermal.csv")
    snaps = src.snapshots()
    assert len(snaps) == 120
    assert src.file_format == "nvidia-smi-csv" and src.kind is SourceKind.REPLAY and src.skipped_rows == 0
    first = snaps[0]
    assert [s.index for s in first.samples] == [0, 1]
    g0, g1 = first.samples
    assert g0.utilization_pct == 98 and g0.memory_used_mib == 20570 and g0.power_w == 372.77
    assert g0.sm_clock_mhz == 2730 and g0.pstate == 2 and g0.pcie_gen == 4 and g0.pcie_width == 16
    assert g1.throttle_reasons == frozenset({"sw_thermal"}) and g1.temperature_c == 85
    names = [d.name for d in src.devices()]
    assert names == ["NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090"]
    assert src.devices()[1].uuid.startswith("GPU-")
    # one snapshot per second, chronological
    t = [s.t for s in snaps]
    assert all(0.9 < b - a < 1.1 for a, b in zip(t, t[1:], strict=False))
    reasons = set().union(*(s.samples[1].throttle_reasons for s in snaps))
    assert {"sw_thermal", "power_cap"} <= reasons


def test_laptop_log_nounits_na_and_per_reason_columns_and_cut_last_line():
    src = open_replay(DATA / "nvidia_smi_laptop_nounits.csv")
    snaps = src.snapshots()
    assert len(snaps) == 9  # the line cut off by Ctrl-C is dropped
    assert src.skipped_rows == 1
    g = snaps[5].samples[0]
    assert g.power_w is None  # [Not Supported] -> None, never 0
    assert g.fan_pct is None  # [N/A]
    assert g.throttle_reasons == frozenset({"sw_thermal", "power_cap"})
    assert snaps[0].samples[0].pstate == 8
    info = src.devices()[0]
    assert info.name == "NVIDIA GeForce RTX 4060 Laptop GPU" and info.driver_version == "560.35.03"
    assert g.uuid == "replay-gpu-0"


def test_noheader_log_is_refused_with_a_hint():
    with pytest.raises(ReplayError, match="no header"):
        open_replay(DATA / "nvidia_smi_noheader.csv")


@pytest.mark.parametrize("content, message", [
    (b"", "empty"),
    (b"hello, world\nthis is, not a log\n", "not an nvidia-smi CSV"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "binary"),
    (b"timestamp, utilization.gpu [%]\n", "no readings"),
    (b"timestamp, utilization.gpu [%]\nyesterday, 5 %\nnope, 7 %\n", "unreadable"),
])
def test_bad_files_give_one_line_errors(tmp_path, content, message):
    path = tmp_path / "log.csv"
    path.write_bytes(content)
    with pytest.raises(ReplayError, match=message) as info:
        open_replay(path)
    assert "\n" not in str(info.value)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(ReplayError, match="no such file"):
        open_replay(tmp_path / "nope.csv")
    with pytest.raises(ReplayError, match="folder"):
        open_replay(tmp_path)


def test_sqlite_that_is_not_a_recording(tmp_path):
    import sqlite3

    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE x(a)")
    conn.close()
    with pytest.raises(ReplayError, match="not a GPU Assistant recording"):
        open_replay(path)


def test_lost_gpu_marker_and_no_timestamp(tmp_path):
    path = tmp_path / "lost.csv"
    path.write_text("index, temperature.gpu, utilization.gpu [%]\n0, 50, 10 %\n0, [GPU is lost], [GPU is lost]\n")
    snaps = open_replay(path).snapshots()
    assert len(snaps) == 2
    assert snaps[1].samples[0].state == DeviceState.LOST
    assert snaps[1].t - snaps[0].t == 1.0


def test_helpers():
    assert column_key(" utilization.gpu [%] ") == "utilization.gpu"
    assert column_key("Temperature.GPU") == "temperature.gpu"
    assert parse_timestamp("2026/11/21 09:15:02.417") is not None
    assert parse_timestamp("garbage") is None


def test_log_of_the_monitor_command_replays():
    """``python main.py monitor --csv`` writes nvidia-smi's own column names, including the long aliases."""
    src = open_replay(DATA / "monitor_command_log.csv")
    snaps = src.snapshots()
    assert len(snaps) == 3
    g = snaps[0].samples[0]
    assert g.sm_clock_mhz == 1852 and g.mem_clock_mhz == 7500 and g.power_limit_w == 170
    assert g.throttle_reasons == frozenset({"power_cap"}) and g.memory_temperature_c is None
    info = src.devices()[0]
    assert info.sm_clock_max_mhz == 2100 and info.pcie_gen_max == 4 and info.pcie_width_max == 16
