from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from services.telemetry.recorder import Recorder
from services.telemetry.recording import RecordingError, read_recording
from services.telemetry.session_store import SessionStore
from services.telemetry.replay import open_replay
from services.telemetry.simulated import STEADY_S, THERMAL, SimulatedSource

ROOT = Path(__file__).resolve().parents[2]
START = 1_800_000_000.0


class Ticker:
    """A sampling clock that moves one second per reading."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def record(directory: Path, snaps, clock=None) -> Recorder:
    clock = clock or Ticker()
    rec = Recorder(directory, source_name="simulated", clock=clock)
    for s in snaps:
        rec.on_snapshot(s)
        clock.t += 1.0
    return rec


def test_roundtrip_keeps_values_processes_and_reasons(tmp_path):
    snaps = SimulatedSource(start_wall=START).prehistory(300)
    rec = record(tmp_path, snaps)
    rec.close()
    back = read_recording(rec.path)
    assert len(back) == 300
    a, b = snaps[200].samples[1], back[200].samples[1]
    for name in ("utilization_pct", "temperature_c", "power_w", "sm_clock_mhz", "fan_pct", "pcie_gen", "energy_j"):
        assert getattr(a, name) == pytest.approx(getattr(b, name)), name
    assert a.throttle_reasons == b.throttle_reasons
    assert [p.pid for p in a.processes] == [p.pid for p in b.processes]
    assert back[0].gpus[0].name == "NVIDIA GeForce RTX 4090"
    assert back[0].system.cpu_count == 16
    assert not Path(str(rec.path) + "-wal").exists()  # checkpointed on close


def test_commits_once_a_sampling_second(tmp_path):
    clock = Ticker()
    commits = []
    rec = Recorder(tmp_path, clock=clock, on_commit=commits.append, commit_every_s=1.0)
    snaps = SimulatedSource(start_wall=START).prehistory(6, step=0.25)
    for s in snaps:
        rec.on_snapshot(s)
        clock.t += 0.25
    # 24 readings over 6 s, clock at 0, 0.25, ...: a commit as soon as 1 s has passed
    assert commits == [5, 9, 13, 17, 21]
    rec.close()


@pytest.mark.linux_only  # kill -9 (SIGKILL); Windows' TerminateProcess is another story
def test_a_killed_recorder_keeps_everything_it_committed(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from pathlib import Path
        from services.telemetry.recorder import Recorder
        from services.telemetry.simulated import SimulatedSource

        class Ticker:
            t = 0.0
            def __call__(self):
                return self.t

        clock = Ticker()
        def committed(n):
            print("committed", n, flush=True)
        rec = Recorder(Path({str(tmp_path)!r}), clock=clock, on_commit=committed)
        src = SimulatedSource(start_wall={START})
        k = 0
        while True:  # records until killed, never closes
            rec.on_snapshot(src.read(7, {START} + k))
            clock.t += 1.0
            k += 1
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    committed = 0
    try:
        for line in proc.stdout:
            committed = int(line.split()[1])
            if committed >= 40:
                break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
    assert committed >= 40
    [path] = list(tmp_path.glob("session-*.sqlite"))
    sessions = SessionStore(tmp_path).list()
    assert sessions[0].problem is None
    assert sessions[0].samples >= committed
    assert len(read_recording(path)) >= committed


def test_store_lists_summarises_compares_and_reports_corrupt_files(tmp_path):
    src = SimulatedSource(start_wall=START)
    first = record(tmp_path, src.prehistory(120))
    first.close()
    hot_start = START + STEADY_S + THERMAL[0] + 600
    hot = [src.read(7, hot_start + k) for k in range(600)]
    second = Recorder(tmp_path, clock=Ticker())
    clock = second._clock
    for s in hot:
        second.on_snapshot(s)
        clock.t += 1
    second.close()
    broken = tmp_path / "session-19990101-000000.sqlite"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00junk" * 200)
    store = SessionStore(tmp_path)
    listed = {s.id: s for s in store.list()}
    assert len(listed) == 3
    assert listed["19990101-000000"].problem and "not a readable recording" in listed["19990101-000000"].problem
    assert broken.exists()  # reported, never deleted
    good = [s for s in listed.values() if not s.problem]
    assert {s.samples for s in good} == {120, 600}
    assert all(s.gpus == ("NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090") for s in good)
    a, b = store.compare(first.session_id, second.session_id)
    hot1 = b.gpus[1]
    assert hot1.peak_temperature_c >= 84
    assert hot1.throttle_seconds["sw_thermal"] > 60
    assert a.gpus[1].throttle_seconds["sw_thermal"] == 0
    assert hot1.energy_wh == pytest.approx(hot1.mean_power_w * 599 / 3600, rel=0.02)
    with pytest.raises(RecordingError):
        store.summary("19990101-000000")
    with pytest.raises(RecordingError):
        store.export_csv("19990101-000000", tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists() and not (tmp_path / "out.csv.part").exists()
    with pytest.raises(RecordingError, match="no session"):
        store.path_of("nope")


def test_export_csv_reads_back_through_replay(tmp_path):
    rec = record(tmp_path, SimulatedSource(start_wall=START).prehistory(60))
    rec.close()
    store = SessionStore(tmp_path)
    target = tmp_path / "out.csv"
    rows = store.export_csv(rec.session_id, target)
    assert rows == 120
    header = target.read_text().splitlines()[0]
    assert "utilization.gpu [%]" in header and "clocks_event_reasons.active" in header
    back = open_replay(target).snapshots()
    orig = read_recording(rec.path)
    assert len(back) == 60
    assert back[30].samples[1].power_w == pytest.approx(orig[30].samples[1].power_w)
    assert back[30].samples[0].throttle_reasons == orig[30].samples[0].throttle_reasons
    assert back[30].t == pytest.approx(orig[30].t, abs=0.001)


def test_recording_replays_as_a_source(tmp_path):
    rec = record(tmp_path, SimulatedSource(start_wall=START).prehistory(30))
    rec.close()
    src = open_replay(rec.path)
    assert src.file_format == "recording" and len(src.snapshots()) == 30


def test_unwritable_folder_stops_recording_not_sampling(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    rec = Recorder(blocker / "recordings")  # a file where the folder should be
    rec.on_snapshot(SimulatedSource(start_wall=START).read(7, START))
    assert rec.problem and "recording stopped" in rec.problem
    rec.on_snapshot(SimulatedSource(start_wall=START).read(7, START + 1))  # no exception
    rec.close()


def test_live_session_is_readable_while_recording(tmp_path):
    rec = record(tmp_path, SimulatedSource(start_wall=START).prehistory(10))
    store = SessionStore(tmp_path)
    assert store.list()[0].samples >= 9  # all but the uncommitted last second
    rec.close()
    assert store.list()[0].samples == 10


def test_the_same_snapshot_twice_is_written_once(tmp_path):
    snaps = SimulatedSource(start_wall=START).prehistory(3)
    rec = Recorder(tmp_path, clock=Ticker())
    for s in (snaps[0], snaps[1], snaps[1], snaps[2]):
        rec.on_snapshot(s)
    rec.close()
    assert len(read_recording(rec.path)) == 3


def test_no_file_until_there_are_gpu_readings(tmp_path):
    from services.telemetry.model import DeviceState, Snapshot, SourceStatus

    rec = Recorder(tmp_path, clock=Ticker())
    for k in range(5):
        rec.on_snapshot(Snapshot(t=START + k, status=SourceStatus(DeviceState.NO_DRIVER, "no library")))
    rec.close()
    assert rec.path is None and list(tmp_path.iterdir()) == []


def test_an_id_too_long_for_a_file_name_is_simply_no_such_session(tmp_path):
    store = SessionStore(tmp_path)
    with pytest.raises(RecordingError, match="no session"):
        store.path_of("x" * 5000)
    with pytest.raises(RecordingError, match="no session"):
        store.path_of("/" + "y" * 5000 + ".sqlite")


def test_a_recording_that_cannot_be_opened_leaves_no_connection_open(tmp_path, monkeypatch):
    """Every connection opened while trying a damaged file is closed, not left to the garbage
    collector (Python 3.13 warns about those, and the Windows lane treats warnings as errors)."""
    import sqlite3

    from services.telemetry import recording

    opened: list[sqlite3.Connection] = []
    closed: list[sqlite3.Connection] = []

    class Tracked(sqlite3.Connection):
        def close(self) -> None:
            closed.append(self)
            super().close()

    real_connect = sqlite3.connect

    def connect(*args, **kwargs):
        conn = real_connect(*args, factory=Tracked, **kwargs)
        opened.append(conn)
        return conn

    monkeypatch.setattr(recording.sqlite3, "connect", connect)
    broken = tmp_path / "session-19990101-000000.sqlite"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00junk" * 200)
    with pytest.raises(RecordingError):
        recording.connect_readonly(broken)
    assert opened and opened == closed


def _snaps(seconds: int):
    return SimulatedSource(start_wall=START).prehistory(seconds)


def test_a_short_quiet_session_is_not_kept_but_a_long_one_or_one_with_an_alert_is(tmp_path):
    short = Recorder(tmp_path / "a", min_kept_s=10.0)
    for snap in _snaps(5):
        short.on_snapshot(snap)
    assert short.path is not None and short.path.exists()
    short.close()
    assert short.discarded and not any((tmp_path / "a").iterdir())  # the -wal and -shm files too

    alerted = Recorder(tmp_path / "b", min_kept_s=10.0)
    for snap in _snaps(5):
        alerted.on_snapshot(snap)
    alerted.record_alert(START + 2, 0, "temperature", "warning", "GPU 0 at 84 °C")
    alerted.close()
    assert not alerted.discarded and len(SessionStore(tmp_path / "b").list()) == 1

    long = Recorder(tmp_path / "c", min_kept_s=10.0)
    for snap in _snaps(12):
        long.on_snapshot(snap)
    long.close()
    assert not long.discarded and SessionStore(tmp_path / "c").list()[0].samples == 12


def test_sessions_delete_removes_only_this_folders_recordings(tmp_path, capsys):
    import main

    folder = tmp_path / "rec"
    rec = record(folder, SimulatedSource(start_wall=START).prehistory(5))
    rec.close()
    other = record(tmp_path / "elsewhere", SimulatedSource(start_wall=START).prehistory(5))
    other.close()
    sid = rec.session_id
    assert main.main(["sessions", "--dir", str(folder), "--delete", sid, "nope"]) == 2  # an unknown id: nothing deleted
    assert rec.path.exists()
    assert main.main(["sessions", "--dir", str(folder), "--delete", str(other.path)]) == 1  # not of this folder
    assert other.path.exists()
    assert main.main(["sessions", "--dir", str(folder), "--delete", sid, "--json"]) == 0
    assert not rec.path.exists() and not any(folder.iterdir())
    assert f'"deleted": [\n    "{sid}"' in capsys.readouterr().out


def test_two_recorders_in_one_second_never_share_a_file(tmp_path, monkeypatch):
    """The name is claimed by creating the file exclusively: even when both recorders see the
    name free (the race window, forced here), each ends in a file of its own."""
    monkeypatch.setattr(Path, "exists", lambda self: False)
    snaps = SimulatedSource(start_wall=START).prehistory(3)
    first = Recorder(tmp_path, source_name="simulated", clock=Ticker())
    second = Recorder(tmp_path, source_name="simulated", clock=Ticker())
    for s in snaps:
        first.on_snapshot(s)
        second.on_snapshot(s)
    first.close()
    second.close()
    assert first.problem is None and second.problem is None
    assert first.path != second.path
    monkeypatch.undo()
    assert len(read_recording(first.path)) == 3 and len(read_recording(second.path)) == 3


def _recording(tmp_path, n=5):
    rec = record(tmp_path, SimulatedSource(start_wall=START).prehistory(n))
    rec.close()
    return rec.path


@pytest.mark.parametrize("bad_t", [1e12, 1e300, -5.0])
def test_absurd_times_are_skipped_in_replay_export_and_list(tmp_path, bad_t):
    import sqlite3
    import time as _time

    path = _recording(tmp_path)
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO samples (t, gpu, state) SELECT ?, gpu, state FROM samples LIMIT 1", (bad_t,))
    conn.close()  # the "with" commits, it does not close
    started = _time.monotonic()
    snaps = read_recording(path)
    assert len(snaps) == 5 and all(START - 10 < s.t < START + 100 for s in snaps)
    source = open_replay(path)
    assert len(source.snapshots()) == 5 and source.time_range()[1] < START + 100
    store = SessionStore(tmp_path)
    info = store.list()[0]
    assert info.end is not None and info.end < START + 100
    assert store.export_csv(info.id, tmp_path / "out.csv") > 0
    assert _time.monotonic() - started < 20


def test_one_recording_with_deeply_nested_gpu_info_does_not_break_the_list(tmp_path):
    import sqlite3

    good = _recording(tmp_path / "a")
    bad = _recording(tmp_path / "b")
    target = tmp_path / "all"
    target.mkdir()
    good = good.rename(target / good.name)
    bad = bad.rename(target / bad.name.replace(".sqlite", "-2.sqlite"))
    nested = '{"name": ' + "[" * 100000 + "]" * 100000 + "}"
    with sqlite3.connect(bad) as conn:
        conn.execute("UPDATE gpus SET info = ?", (nested,))
        conn.execute("INSERT INTO gpus (idx, uuid, info) VALUES (7, 'x', ?)", ('{"name": {"deep": {"er": 1}}, "memory_total_mib": [1]}',))
    conn.close()
    listed = SessionStore(target).list()
    assert len(listed) == 2 and all(i.problem is None for i in listed)
    assert any(g.startswith("GPU ") for i in listed for g in i.gpus)
    assert len(read_recording(bad)) == 5
