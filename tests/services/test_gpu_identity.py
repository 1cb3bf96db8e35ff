"""A GPU is known by its UUID everywhere it owns data: history, throttle seconds, recordings.

NVML indexes can change: after a GPU is lost and found, a driver reload or a resume, the
driver may enumerate the cards the other way round. These tests re-order the GPUs in the
NVML fake and check that two cards' readings never join in one curve.
"""
from __future__ import annotations


import numpy as np
import pytest

from services.exporter.metrics import TelemetryCollector
from services.exporter.service import hub_collector
from services.telemetry.history import History
from services.telemetry.hub import TelemetryHub
from services.telemetry.model import DeviceState, GpuSample, Snapshot, SourceStatus
from services.telemetry.nvml_source import NvmlSource
from services.telemetry.recorder import Recorder
from services.telemetry.recording import read_recording
from services.telemetry.session_store import SessionStore
from tests.fakes.fake_nvml import NVML_ERROR_UNKNOWN, FakeNvml

HOT, COOL = 80, 40


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def rig(tmp_path):
    """Two GPUs behind the real NvmlSource and hub; GPU A runs hot, GPU B cool."""
    fake = FakeNvml(2)
    fake.gpus[0].temperature, fake.gpus[1].temperature = HOT, COOL
    fake.gpus[0].throttle_mask = 0x20  # SW thermal slowdown on the hot card only
    fake.gpus[1].throttle_mask = 0x0
    clock = Clock()
    wall = Clock()
    wall.t = 1_700_000_000.0
    source = NvmlSource(fake, clock=clock, sysfs_root=tmp_path, runtime_pm=False)
    hub = TelemetryHub(source, history=History(capacity=100), clock=clock, wall=wall)
    recorder = Recorder(tmp_path / "rec", clock=clock)
    hub.add_listener(recorder.on_snapshot)
    yield fake, hub, recorder, clock, wall
    hub.stop()
    recorder.close()


def _tick(hub, clock, wall, n=1):
    for _ in range(n):
        clock.t += 1.0
        wall.t += 1.0
        hub.tick()


def _reorder_through_a_reload(fake, hub, clock, wall):
    """An unknown error on every call (a resume), then the driver lists the cards reversed."""
    fake.fail_until_reinit = True
    _tick(hub, clock, wall)
    fake.gpus.reverse()
    for _ in range(6):  # the source retries with backoff; a few seconds later it re-inits
        _tick(hub, clock, wall)
        latest = hub.latest
        if latest and all(s.state is DeviceState.OK for s in latest.samples):
            break
    assert all(s.state is DeviceState.OK for s in hub.latest.samples)


def test_history_follows_each_card_across_an_index_change(rig):
    fake, hub, recorder, clock, wall = rig
    hot, cool = fake.gpus[0].uuid, fake.gpus[1].uuid
    _tick(hub, clock, wall, 5)
    _reorder_through_a_reload(fake, hub, clock, wall)
    _tick(hub, clock, wall, 5)
    by_uuid = {s.uuid: s.index for s in hub.latest.samples}
    assert by_uuid == {hot: 1, cool: 0}  # the indexes really did swap
    for uuid, expected in ((hot, HOT), (cool, COOL)):
        _, temps = hub.history.series(uuid, "temperature_c")
        temps = temps[np.isfinite(temps)]
        assert temps.size >= 10 and set(temps.tolist()) == {expected}, (uuid, temps)
    # By index (what the dashboard draws): index 0 is the cool card now, and only the cool card.
    _, shown = hub.history.series(0, "temperature_c")
    assert set(shown[np.isfinite(shown)].tolist()) == {COOL}


def test_throttle_seconds_stay_with_the_card(rig):
    fake, hub, recorder, clock, wall = rig
    hot, cool = fake.gpus[0].uuid, fake.gpus[1].uuid
    _tick(hub, clock, wall, 5)
    _reorder_through_a_reload(fake, hub, clock, wall)
    _tick(hub, clock, wall, 5)
    assert hub.history.seconds_in_reason(cool)["sw_thermal"] == 0.0
    assert hub.history.seconds_in_reason(hot)["sw_thermal"] >= 8.0
    # The exporter labels by index and counts by UUID: the cool card at index 0 has no thermal seconds.
    text = "\n".join(_exposition(hub_collector(hub)))
    line = next(ln for ln in text.splitlines() if "clock_event_seconds" in ln and 'clock_event="sw_thermal"'
                in ln and f'UUID="{cool}"' in ln)
    assert line.endswith(" 0.0")


def _exposition(collector: TelemetryCollector) -> list[str]:
    out = []
    for family in collector.collect():
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sample.labels.items())
            out.append(f"{sample.name}{{{labels}}} {sample.value}")
    return out


def test_recording_and_its_summary_keep_the_cards_apart(rig, tmp_path):
    fake, hub, recorder, clock, wall = rig
    hot, cool = fake.gpus[0].uuid, fake.gpus[1].uuid
    _tick(hub, clock, wall, 5)
    _reorder_through_a_reload(fake, hub, clock, wall)
    _tick(hub, clock, wall, 5)
    recorder.close()
    snaps = read_recording(recorder.path)
    temps: dict[str, set] = {}
    for snap in snaps:
        for s in snap.samples:
            if s.temperature_c is not None:
                temps.setdefault(s.uuid, set()).add(s.temperature_c)
    assert temps == {hot: {HOT}, cool: {COOL}}
    summary = SessionStore(recorder.path.parent).summary(str(recorder.path))
    by_uuid = {g.uuid: g for g in summary.gpus}
    assert set(by_uuid) == {hot, cool}
    assert by_uuid[hot].peak_temperature_c == HOT and by_uuid[cool].peak_temperature_c == COOL


def test_a_card_replacing_another_at_the_same_index_gets_its_own_curve():
    history = History(capacity=20)
    for t in range(5):
        history.append(Snapshot(t=float(t), status=SourceStatus(DeviceState.OK),
                                samples=(GpuSample(t=float(t), index=0, uuid="GPU-old", temperature_c=50.0),)))
    for t in range(5, 10):
        history.append(Snapshot(t=float(t), status=SourceStatus(DeviceState.OK),
                                samples=(GpuSample(t=float(t), index=0, uuid="GPU-new", temperature_c=70.0),)))
    _, old = history.series("GPU-old", "temperature_c")
    _, new = history.series("GPU-new", "temperature_c")
    assert set(old[np.isfinite(old)].tolist()) == {50.0}
    assert set(new[np.isfinite(new)].tolist()) == {70.0}
    _, shown = history.series(0, "temperature_c")
    assert set(shown[np.isfinite(shown)].tolist()) == {70.0}


def test_more_cards_over_time_than_slots_reuses_the_longest_gone():
    history = History(capacity=10, max_gpus=2)
    for n, uuid in enumerate(("A", "B", "C")):
        history.append(Snapshot(t=float(n), status=SourceStatus(DeviceState.OK),
                                samples=(GpuSample(t=float(n), index=0, uuid=uuid, power_w=float(n)),)))
    assert history.gpu_count == 2
    assert set(history.uuids()) == {"B", "C"}
    _, a = history.series("A", "power_w")
    assert not np.isfinite(a).any()


# ---- one failing metric is only that metric


def test_unknown_error_on_power_leaves_the_gpu_ok_and_the_rest_read(tmp_path):
    fake = FakeNvml(2)
    for gpu in fake.gpus:
        gpu.errors["nvmlDeviceGetPowerUsage"] = NVML_ERROR_UNKNOWN
    fake.gpus[0].errors["nvmlDeviceGetComputeRunningProcesses_v3"] = NVML_ERROR_UNKNOWN
    source = NvmlSource(fake, clock=Clock(), sysfs_root=tmp_path, runtime_pm=False)
    source.open()
    from services.telemetry.model import Tier

    snap = source.read(Tier.FAST | Tier.SLOW | Tier.STATIC, 1_700_000_000.0)
    source.close()
    assert [s.state for s in snap.samples] == [DeviceState.OK, DeviceState.OK]
    assert all(s.power_w is None for s in snap.samples)
    assert all(s.temperature_c is not None and s.utilization_pct is not None for s in snap.samples)
    # The exporter still serves temperatures for both.
    collector = TelemetryCollector(lambda: snap)
    text = "\n".join(_exposition(collector))
    assert text.count("DCGM_FI_DEV_GPU_TEMP{") == 2
    assert "DCGM_FI_DEV_POWER_USAGE{" not in text


def test_every_metric_failing_is_still_an_error(tmp_path):
    fake = FakeNvml(1)
    source = NvmlSource(fake, clock=Clock(), sysfs_root=tmp_path, runtime_pm=False)
    source.open()
    from services.telemetry.model import Tier

    fake.fail_until_reinit = True
    snap = source.read(Tier.FAST | Tier.SLOW, 1_700_000_000.0)
    source.close()
    assert snap.samples[0].state is DeviceState.ERROR


def test_a_version_1_recording_without_uuid_columns_still_reads(tmp_path):
    import sqlite3

    from services.telemetry.recording import SAMPLE_COLUMNS

    path = tmp_path / "session-20260101-000000.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(f"""
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE gpus(idx INTEGER PRIMARY KEY, uuid TEXT, info TEXT);
        CREATE TABLE samples(t REAL NOT NULL, gpu INTEGER NOT NULL, state TEXT, state_detail TEXT,
            {", ".join(f"{c} REAL" for c in SAMPLE_COLUMNS)}, throttle INTEGER);
        CREATE TABLE system(t REAL PRIMARY KEY, cpu_pct REAL, cpu_count REAL, ram_used_mib REAL, ram_total_mib REAL,
            swap_used_mib REAL, swap_total_mib REAL, disk_read_mib_s REAL, disk_write_mib_s REAL, iowait_pct REAL);
        CREATE TABLE processes(t REAL NOT NULL, gpu INTEGER NOT NULL, pid INTEGER, name TEXT, user TEXT, kind TEXT,
            used_mib REAL, cpu_pct REAL);
        CREATE TABLE status(t REAL NOT NULL, state TEXT, message TEXT);
        INSERT INTO meta VALUES ('schema_version', '1');
        INSERT INTO gpus VALUES (0, 'GPU-old', '{{"index": 0, "name": "RTX Old", "uuid": "GPU-old"}}');
    """)
    marks = ", ".join("?" * (5 + len(SAMPLE_COLUMNS)))
    for t in range(3):
        conn.execute(f"INSERT INTO samples VALUES ({marks})",
                     (1e9 + t, 0, "ok", None, *([50.0] * len(SAMPLE_COLUMNS)), None))
    conn.execute("INSERT INTO processes VALUES (1e9, 0, 42, 'python', 'me', 'compute', 100.0, NULL)")
    conn.commit()
    conn.close()
    snaps = read_recording(path)
    assert len(snaps) == 3 and {s.samples[0].uuid for s in snaps} == {"GPU-old"}
    assert snaps[0].gpus[0].name == "RTX Old" and snaps[-1].samples[0].processes[0].pid == 42
    summary = SessionStore(tmp_path).summary(str(path))
    assert [g.uuid for g in summary.gpus] == ["GPU-old"]
