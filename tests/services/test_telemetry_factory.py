from __future__ import annotations

import shutil
from pathlib import Path

from services.settings import Settings
from services.telemetry.factory import build_hub
from services.telemetry.model import DeviceState
from services.telemetry.session_store import SessionStore

DATA = Path(__file__).resolve().parents[1] / "data"


def test_demo_hub_backfills_samples_records_and_alerts(app_paths):
    settings = Settings()
    hub = build_hub(demo=True, replay=None, settings=settings, paths=app_paths, record=True)
    try:
        first = hub.tick()  # backfill + first live reading, on this thread
        assert first.status.state == DeviceState.OK
        span = hub.history.time_range()
        assert span[1] - span[0] > 2 * 3600  # hours of history before the first live reading
        assert [g.name for g in hub.devices] == ["NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090"]
        assert hub.alerts is not None and hub.recorder is not None
        assert hub.history.seconds_in_reason(1)["sw_thermal"] > 60  # GPU 1 has been held back by heat
    finally:
        hub.stop()
    sessions = SessionStore(app_paths.recordings_dir).list()
    # One reading is a session of no length: kept only because the demo's first reading raised alerts.
    assert hub.recorder._alerts > 0 and not hub.recorder.discarded
    assert len(sessions) == 1 and sessions[0].source == "simulated" and sessions[0].samples == 1


def test_the_demo_is_recorded_only_when_asked_and_a_screenshot_run_never(app_paths):
    for record in (None, False):
        hub = build_hub(demo=True, replay=None, settings=Settings(), paths=app_paths, record=record)
        hub.tick()
        hub.stop()
        assert hub.recorder is None
    hub = build_hub(demo=False, replay=None, settings=Settings(), paths=app_paths, record=False)
    hub.stop()
    assert hub.recorder is None
    assert not app_paths.recordings_dir.exists() or not any(app_paths.recordings_dir.iterdir())


def test_recording_can_be_switched_off(app_paths):
    settings = Settings()
    settings.monitor.record_sessions = False
    hub = build_hub(demo=True, replay=None, settings=settings, paths=app_paths)
    hub.stop()
    assert hub.recorder is None


def test_replay_hub_preloads_and_does_not_record(app_paths, tmp_path):
    log = tmp_path / "run.csv"
    shutil.copy(DATA / "nvidia_smi_2gpu_thermal.csv", log)
    hub = build_hub(demo=False, replay=str(log), settings=Settings(), paths=app_paths)
    hub.start()
    try:
        assert not hub.live and not hub.running
        assert len(hub.history) == 120 and hub.recorder is None
        assert hub.latest.t == hub.history.time_range()[1]
        rules = {a.rule.value for a in hub.alerts.recent()}
        assert "throttle_thermal" in rules  # alerts the logged run would have raised
    finally:
        hub.stop()
    assert not app_paths.recordings_dir.exists()


def test_bad_replay_file_is_a_state_not_a_crash(app_paths, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("what is this\n")
    hub = build_hub(demo=False, replay=str(bad), settings=Settings(), paths=app_paths)
    hub.start()
    hub.stop()
    assert hub.status.state == DeviceState.ERROR
    assert "bad.csv" in hub.status.message and "\n" not in hub.status.message


def test_bad_replay_hub_publishes_its_reason_as_a_reading(app_paths, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"\x00\x01 binary")
    hub = build_hub(demo=False, replay=str(bad), settings=Settings(), paths=app_paths)
    seen = []
    hub.add_listener(seen.append)
    hub.start()
    hub.stop()
    assert len(seen) == 1 and seen[0].status.state == DeviceState.ERROR and "bad.csv" in seen[0].status.message
    assert hub.latest is seen[0] and not seen[0].gpus


def test_an_opened_replay_source_is_used_as_it_is(app_paths):
    from services.telemetry.replay import open_replay

    source = open_replay(next(DATA.glob("nvidia_smi*.csv")))
    hub = build_hub(demo=False, replay=source, settings=Settings(), paths=app_paths)
    assert hub.source is source and hub.latest is not None and hub.latest.gpus


def test_demo_prehistory_is_coarse_before_the_last_half_hour_and_has_no_drawn_gaps():
    import time as _time

    from services.telemetry import downsample
    from services.telemetry.factory import DEMO_FINE_S, _demo_prehistory
    from services.telemetry.simulated import SimulatedSource

    start = _time.time() - 7200
    source = SimulatedSource(seed=0, gpus=1, start_wall=start)
    source.open()
    snaps = _demo_prehistory(source, start, 1.0)
    t = [s.t for s in snaps]
    assert t == sorted(t) and t[0] == start
    assert len(snaps) < 7200 / 2  # far fewer readings than one a second
    assert t[-1] - t[-2] == 1.0 and t[-1] >= _time.time() - 2  # fine at the end
    import numpy as np

    assert downsample.gap_positions(np.array(t)).size == 0
    assert sum(1 for x in t if x >= t[-1] - DEMO_FINE_S + 2) >= DEMO_FINE_S - 5


def test_demo_scripts_a_spill_that_reaches_the_alerts_and_the_recording(app_paths):
    import dataclasses
    import sqlite3

    hub = build_hub(demo=True, replay=None, settings=Settings(), paths=app_paths, record=True)  # as with --record
    try:
        first = hub.tick()
        for step in range(1, 8):  # the hub's listener path, one reading a second
            hub.processes.on_snapshot(dataclasses.replace(first, t=first.t + step))
        table = hub.processes.latest
        serve = next(r for r in table.rows if r.name == "python serve.py")
        assert serve.gpu_label == "GPU 1" and serve.shared_mib > 1000 and "Qwen/Qwen2.5-32B" in serve.command_line
        train = next(r for r in table.rows if r.name == "python train.py")
        assert train.command_line.startswith("python train.py --model meta-llama/Llama-3.1-8B")
        spills = [a for a in hub.alerts.recent() if a.rule.value == "spill"]
        assert len(spills) == 1 and spills[0].model == "Qwen/Qwen2.5-32B-Instruct"
    finally:
        hub.stop()
    [recording] = app_paths.recordings_dir.glob("*.sqlite")
    with sqlite3.connect(recording) as db:
        rules = [r[0] for r in db.execute("SELECT rule FROM alerts")]
    db.close()  # sqlite3's "with" commits, it does not close (Python 3.13 warns; Windows keeps the file)
    assert "spill" in rules
