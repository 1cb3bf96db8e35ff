"""Big and hostile nvidia-smi logs: streamed, capped, and said what was left out."""
from __future__ import annotations

import sqlite3

from services.telemetry import smi_log
from services.telemetry.replay import open_replay
from services.telemetry.smi_log import read_nvidia_smi_csv_streaming
from tests.bench.bench_replay import write_log


def test_an_over_long_line_is_skipped_with_a_note(tmp_path):
    log = tmp_path / "run.csv"
    write_log(log, 0.05, 2)  # holds one 200 KiB line after the 10th second
    src = open_replay(log)
    assert any("longer than 128 KiB" in str(note) for note in src.notes)
    assert src.skipped_rows == 1
    assert len(src.snapshots()) > 10


def test_only_the_newest_readings_are_kept_and_the_rest_is_said(tmp_path, monkeypatch):
    log = tmp_path / "run.csv"
    rows = write_log(log, 0.5, 2)
    monkeypatch.setattr(smi_log, "PROBE_ROWS", 64)
    snaps, _, notes = read_nvidia_smi_csv_streaming(log, keep_readings=200, keep_snapshots=100)
    assert 90 <= len(snaps) <= 102
    assert all(len(s.samples) == 2 for s in snaps[1:])
    assert any(f"of {rows} readings" in str(n) for n in notes)
    times = [s.t for s in snaps]
    assert times == sorted(times)
    full, _, _ = read_nvidia_smi_csv_streaming(log)
    assert snaps[-1].t == full[-1].t  # the newest are the ones kept


def test_three_hundred_gpus_group_into_ticks(tmp_path):
    log = tmp_path / "wide.csv"
    write_log(log, 0.3, 300)
    src = open_replay(log)
    assert len(src.devices()) == 300
    assert all(len(s.samples) == 300 for s in src.snapshots())


def test_progress_is_reported_for_a_big_file(tmp_path, monkeypatch):
    log = tmp_path / "run.csv"
    write_log(log, 0.5, 2)
    monkeypatch.setattr(smi_log, "PROGRESS_EVERY_BYTES", 64 * 1024)
    seen = []
    open_replay(log, progress=lambda done, total: seen.append((done, total)))
    assert len(seen) >= 3 and seen[-1][0] == seen[-1][1]


def test_a_recording_with_wrong_typed_cells_opens_and_says_what_was_skipped(tmp_path):
    from services.telemetry.session_store import SessionStore
    from tests.services.telemetry_helpers import recording_with_bad_cells

    path = recording_with_bad_cells(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE gpus SET info = '[1, 2'")
    conn.commit()
    conn.close()
    src = open_replay(path)
    assert len(src.snapshots()) == 8
    assert any("2 unreadable rows" in str(n) and "2 unreadable values" in str(n) for n in src.notes), src.notes
    store = SessionStore(tmp_path)
    summary = store.summary(str(path))
    assert summary.gpus[0].peak_temperature_c == 60.0
    rows, skipped = store.export_csv_checked(str(path), tmp_path / "out.csv")
    assert rows == 8 and "unreadable" in str(skipped)
