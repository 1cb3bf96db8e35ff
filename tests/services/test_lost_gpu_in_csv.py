"""A lost GPU is written as lost in CSV logs and exports, not as "[N/A]" (= not supported)."""
from __future__ import annotations

from services.telemetry.model import DeviceState, GpuInfo, GpuSample, Snapshot, SourceStatus
from services.telemetry.recorder import Recorder
from services.telemetry.session_store import SessionStore
from services.telemetry.replay import open_replay
from services.telemetry.report import csv_header, csv_rows

INFO = (GpuInfo(index=0, name="RTX A", uuid="GPU-a"), GpuInfo(index=1, name="RTX B", uuid="GPU-b"))


def _snap(t: float) -> Snapshot:
    return Snapshot(t=t, status=SourceStatus(DeviceState.OK), gpus=INFO, samples=(
        GpuSample(t=t, index=0, uuid="GPU-a", temperature_c=60.0, power_w=200.0),
        GpuSample(t=t, index=1, uuid="GPU-b", state=DeviceState.LOST)))


def test_monitor_csv_rows_say_lost():
    ok, lost = csv_rows(_snap(1_700_000_000.0))
    header = [h.strip() for h in csv_header().split(",")]
    cells = dict(zip(header, (c.strip() for c in lost.split(",")), strict=True))
    assert cells["uuid"] == "GPU-b" and cells["name"] == "RTX B"
    assert cells["temperature.gpu"] == "[GPU is lost]" and cells["power.draw [W]"] == "[GPU is lost]"
    assert "[GPU is lost]" not in ok


def test_an_export_says_lost_and_replays_as_lost(tmp_path):
    recorder = Recorder(tmp_path / "recordings")
    for k in range(5):
        recorder.on_snapshot(_snap(1_700_000_000.0 + k))
    recorder.close()
    store = SessionStore(tmp_path / "recordings")
    target = tmp_path / "run.csv"
    assert store.export_csv(store.list()[0].id, target) == 10
    assert "[GPU is lost]" in target.read_text(encoding="utf-8")
    back = open_replay(target).snapshots()
    states = {s.uuid: s.state for s in back[-1].samples}
    assert states == {"GPU-a": DeviceState.OK, "GPU-b": DeviceState.LOST}
