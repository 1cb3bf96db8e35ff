from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from main import main
from services.telemetry.recorder import Recorder
from services.telemetry.simulated import STEADY_S, THERMAL, SimulatedSource

ROOT = Path(__file__).resolve().parents[2]
START = 1_800_000_000.0


class Ticker:
    t = 0.0

    def __call__(self):
        return self.t


def make_session(directory: Path, start: float, seconds: int) -> str:
    clock = Ticker()
    rec = Recorder(directory, source_name="simulated", clock=clock)
    src = SimulatedSource(start_wall=START)
    for k in range(seconds):
        rec.on_snapshot(src.read(7, start + k))
        clock.t += 1
    rec.close()
    return rec.session_id


@pytest.fixture
def sessions(app_paths):
    d = app_paths.recordings_dir
    a = make_session(d, START + 1000, 90)
    b = make_session(d, START + STEADY_S + THERMAL[0] + 700, 400)
    return a, b


def test_list_text_and_json(sessions, capsys):
    assert main(["sessions", "--list"]) == 0
    out = capsys.readouterr().out
    assert sessions[0] in out and "NVIDIA GeForce RTX 4090, NVIDIA GeForce RTX 3090" in out
    assert main(["sessions", "--list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ids = [s["id"] for s in data["sessions"]]
    assert set(ids) == set(sessions)
    entry = data["sessions"][0]
    assert {"id", "start", "end", "duration_s", "gpus", "samples", "problem"} <= set(entry)


def test_compare_json_and_text(sessions, capsys):
    assert main(["sessions", "--compare", sessions[0], sessions[1], "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    a, b = data["sessions"]
    assert a["gpus"][1]["throttle_seconds"]["sw_thermal"] == 0
    assert b["gpus"][1]["throttle_seconds"]["sw_thermal"] > 60
    assert b["gpus"][1]["peak_temperature_c"] >= 84
    assert main(["sessions", "--compare", *sessions]) == 0
    out = capsys.readouterr().out
    assert "Thermal limit" in out and "energy" in out


def test_export(sessions, tmp_path, capsys):
    target = tmp_path / "run.csv"
    assert main(["sessions", "--export", sessions[0], "--csv", str(target)]) == 0
    assert "180 rows" in capsys.readouterr().out
    assert target.read_text().startswith("timestamp,index,name,uuid")


def test_bad_usage_exits_2_with_one_line(sessions, tmp_path, capsys):
    assert main(["sessions", "--export", "nope", "--csv", str(tmp_path / "x.csv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no session") and err.count("\n") == 1
    assert main(["sessions", "--export", sessions[0]]) == 2
    assert "--csv" in capsys.readouterr().err
    assert main(["sessions", "--export", sessions[0], "--csv", str(tmp_path / "no" / "x.csv")]) == 2
    assert main(["sessions", "--list", "--dir", str(tmp_path / "missing")]) == 2


def test_corrupt_recording_is_listed_not_deleted(app_paths, capsys):
    d = app_paths.recordings_dir
    d.mkdir(parents=True)
    bad = d / "session-20260101-000000.sqlite"
    bad.write_text("not a database at all")
    assert main(["sessions", "--list"]) == 0
    assert "unreadable" in capsys.readouterr().out
    assert bad.exists()
    assert main(["sessions", "--compare", "20260101-000000", "20260101-000000"]) == 2


def test_empty_list(capsys):
    assert main(["sessions", "--list"]) == 0
    assert "No recorded sessions" in capsys.readouterr().out


def test_headless_command_imports_no_qt(app_paths):
    code = "import sys, main; main.main(['sessions', '--list']); print([m for m in sys.modules if m.startswith('PySide6')])"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("[]")


def test_text_output_follows_the_language(sessions, capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert main(["sessions", "--list"]) == 0
    out = capsys.readouterr().out
    assert "开始时间" in out and sessions[0] in out
    assert main(["sessions", "--compare", *sessions]) == 0
    assert "平均温度" in capsys.readouterr().out
    assert main(["sessions", "--list", "--json"]) == 0
    assert '"duration_s"' in capsys.readouterr().out  # JSON stays English
