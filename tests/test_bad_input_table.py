"""Issue 16's hostile inputs, run in-process through ``main(argv)``.

Each case checks the documented exit code, one clear ``error:`` line as the last line of stderr,
no traceback, no hang (a FIFO left unopened is the point: a watchdog unblocks it and fails the case
if the command opened it), and that no file of the user's was changed, replaced or created.
A few true end-to-end subprocess cases (file-size limit, SIGTERM) carry the ``end2end`` marker.
"""
from __future__ import annotations

import errno
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from main import main
from tests.services.test_cli_sessions import START, make_session

ROOT = Path(__file__).resolve().parent.parent
HAS_FIFO = hasattr(os, "mkfifo")
HAS_DEV_FULL = os.path.exists("/dev/full") and stat.S_ISCHR(os.stat("/dev/full").st_mode)


@dataclass(frozen=True)
class Case:
    argv: tuple[str, ...]
    code: int = 2
    says: str = ""
    needs: str = ""  # "fifo" | "dev_full"

    @property
    def id(self) -> str:
        return " ".join(a.replace("{d}/", "") for a in self.argv)[:80]


def C(*argv: str, code: int = 2, says: str = "", needs: str = "") -> Case:
    return Case(tuple(argv), code, says, needs)


SESSION = "{session}"
CASES: list[Case] = [
    # sessions --export: never replace what is not a regular file; an empty id is bad input
    C("sessions", "--dir", "{d}/rec", "--export", SESSION, "--csv", "{d}/fifo", says="FIFO", needs="fifo"),
    C("sessions", "--dir", "{d}/rec", "--export", SESSION, "--csv", "/dev/full", says="device", needs="dev_full"),
    C("sessions", "--dir", "{d}/rec", "--export", "", "--csv", "{d}/out.csv", says="--export"),
    C("sessions", "--dir", "{d}/rec", "--export", "  ", "--csv", "{d}/out.csv", says="session id"),
    C("sessions", "--dir", "{d}/rec", "--compare", "", SESSION, says="session id"),
    C("sessions", "--dir", "{d}/rec", "--export", SESSION, "--csv", "", says="--csv"),
    C("sessions", "--dir", "{d}/rec", "--export", "{d}/fifo.sqlite", "--csv", "{d}/out.csv", says="FIFO",
      needs="fifo"),
    C("sessions", "--dir", "{d}/rec", "--compare", "{d}/fifo", SESSION, says="FIFO", needs="fifo"),
    # FIFOs and '' as every path option
    C("fit", "--model", "{d}/fifo", says="FIFO", needs="fifo"),
    C("fit", "--model", "", says="--model"),
    C("fit", "--model-config", "{d}/fifo", says="FIFO", needs="fifo"),
    C("fit", "--model-config", "", says="--model-config"),
    C("setup", "--plan", "--gpu", "10de:2684", "--os-release", "{d}/fifo", says="FIFO", needs="fifo"),
    C("setup", "--plan", "--gpu", "10de:2684", "--os-release", "", says="--os-release"),
    C("monitor", "--source", "demo", "--csv", "{d}/fifo", "--duration", "1", says="FIFO", needs="fifo"),
    C("monitor", "--source", "demo", "--csv", "", "--duration", "1", says="--csv"),
    C("monitor", "--source", "demo", "--csv", "/dev/full", "--duration", "1", says="device", needs="dev_full"),
    C("monitor", "--source", "demo", "--csv", "{d}/notes.txt/log.csv", "--duration", "1"),
    C("--replay", "{d}/fifo", says="FIFO", needs="fifo"),
    C("--replay", "", says="--replay"),
    C("--replay", "/dev/full", says="device", needs="dev_full"),
    # --screenshot: checked before any window is built
    C("--screenshot", "", says="--screenshot"),
    C("--screenshot", "{d}/missing/shot.png", says="folder does not exist"),
    C("--screenshot", "{d}/notes.txt/shot.png", says="is a file"),
    C("--screenshot", "{d}/fifo.png", says="FIFO", needs="fifo"),
]


@pytest.fixture
def world(tmp_path, monkeypatch):
    """A folder of the user's files (checked untouched afterwards) and one good recording."""
    monkeypatch.setenv("GPU_ASSISTANT_HOME", str(tmp_path / "home"))
    (tmp_path / "notes.txt").write_text("my notes\n", encoding="utf-8")
    session = make_session(tmp_path / "rec", START, 5)
    if HAS_FIFO:
        os.mkfifo(tmp_path / "fifo")
        os.mkfifo(tmp_path / "fifo.sqlite")
        os.mkfifo(tmp_path / "fifo.png")
    return tmp_path, session


def _state(d: Path) -> dict[str, tuple]:
    out = {}
    for p in sorted(d.rglob("*")):
        if "home" in p.relative_to(d).parts:
            continue  # the app's own settings/recordings folder
        st = p.lstat()
        kind = stat.S_IFMT(st.st_mode)
        out[str(p.relative_to(d))] = (kind, p.read_bytes() if stat.S_ISREG(st.st_mode) else None)
    return out


class _FifoWatchdog:
    """If a command opens a FIFO (and blocks), open the other end after a while so it returns."""

    def __init__(self, paths: list[Path], after_s: float = 10.0) -> None:
        self.paths = paths
        self.fired = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(after_s,), daemon=True)

    def __enter__(self) -> "_FifoWatchdog":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()

    def _run(self, after_s: float) -> None:
        if self._done.wait(after_s):
            return
        self.fired = True
        while not self._done.is_set():
            for path in self.paths:
                for flags in (os.O_WRONLY | os.O_NONBLOCK, os.O_RDONLY | os.O_NONBLOCK):
                    try:
                        os.close(os.open(path, flags))
                    except OSError:
                        pass
            time.sleep(0.05)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_input_is_one_line_and_an_exit_code(case: Case, world, capsys):
    d, session = world
    if case.needs == "fifo" and not HAS_FIFO:
        pytest.skip("no FIFOs here")
    if case.needs == "dev_full" and not HAS_DEV_FULL:
        pytest.skip("no /dev/full here")
    argv = [a.replace("{d}", str(d)).replace(SESSION, session) for a in case.argv]
    before = _state(d)
    full_before = os.stat("/dev/full") if HAS_DEV_FULL else None
    fifos = [d / "fifo", d / "fifo.sqlite", d / "fifo.png"] if HAS_FIFO else []
    with _FifoWatchdog(fifos) as watchdog:
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own errors
            code = exc.code
    captured = capsys.readouterr()
    shown = f"argv={argv} rc={code}\nstderr:\n{captured.err[-2000:]}"
    assert not watchdog.fired, "the command opened a FIFO and hung\n" + shown
    assert "Traceback" not in captured.err and "Traceback" not in captured.out, shown
    assert code == case.code, shown
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert lines and lines[-1].startswith("error:"), shown
    assert sum("error:" in line for line in lines) == 1, shown
    if case.says:
        assert case.says.lower() in lines[-1].lower(), shown
    assert _state(d) == before, "a file of the user's changed\n" + shown
    if full_before is not None:
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


# ---- exports never clobber


def test_export_never_touches_the_users_part_file(world, capsys):
    d, session = world
    part = d / "out.csv.part"
    part.write_bytes(b"the user's own half-finished file")
    assert main(["sessions", "--dir", str(d / "rec"), "--export", session, "--csv", str(d / "out.csv")]) == 0
    assert part.read_bytes() == b"the user's own half-finished file"
    assert (d / "out.csv").read_text(encoding="utf-8").startswith("timestamp,index,")
    assert not [p for p in d.iterdir() if p.name.startswith(".out.csv.")]  # no temporary left behind


def test_a_failed_export_leaves_no_temporary_file(world, capsys, monkeypatch):
    d, session = world
    from services.telemetry import session_store

    def broken(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(session_store, "_csv_value", broken)
    code = main(["sessions", "--dir", str(d / "rec"), "--export", session, "--csv", str(d / "out.csv")])
    err = capsys.readouterr().err
    assert code == 1 and "cannot write" in err and "Traceback" not in err
    assert sorted(p.name for p in d.iterdir() if p.is_file()) == ["notes.txt"]


def test_a_damaged_recording_exports_what_can_be_read(world, capsys):
    d, session = world
    path = d / "rec" / f"session-{session}.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("UPDATE samples SET power_w = 'lots' WHERE rowid = 1")
    conn.commit()
    conn.close()
    assert main(["sessions", "--dir", str(d / "rec"), "--export", session, "--csv", str(d / "out.csv")]) == 0
    err = capsys.readouterr().err
    assert "unreadable values skipped" in err and "Traceback" not in err
    assert main(["sessions", "--dir", str(d / "rec"), "--compare", session, session]) == 0


# ---- monitor --csv on a full disk


def _run_monitor(d: Path, log: Path, capsys, seconds: int = 5) -> tuple[int, str]:
    code = main(["monitor", "--source", "demo", "--csv", str(log), "--interval", "0.5", "--duration", str(seconds)])
    return code, capsys.readouterr().err


def test_monitor_csv_stops_cleanly_when_the_disk_fills(world, capsys, monkeypatch):
    d, _ = world
    log = d / "log.csv"
    from services.cli import monitor

    real_write = os.write
    budget = {"bytes": 2500}

    def filling_write(fd, data):
        if budget["bytes"] <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        n = min(len(data), budget["bytes"])
        budget["bytes"] -= n
        return real_write(fd, bytes(data[:n]))

    monkeypatch.setattr(monitor.os, "write", filling_write)
    monkeypatch.setattr(monitor.time, "sleep", lambda s: None)
    code, err = _run_monitor(d, log, capsys)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 1 and "Traceback" not in err
    assert lines[-1].startswith("error:") and str(log) in lines[-1] and "rows" in lines[-1]
    text = log.read_text(encoding="utf-8")
    assert text.endswith("\n")  # the half-written row was taken back off
    width = text.splitlines()[0].count(",")
    assert all(line.count(",") == width for line in text.splitlines())


def test_appending_after_a_cut_line_starts_a_new_line(world, capsys, monkeypatch):
    d, _ = world
    log = d / "log.csv"
    from services.cli import monitor
    from services.telemetry.report import csv_header

    monkeypatch.setattr(monitor.time, "sleep", lambda s: None)
    log.write_text(csv_header() + "\n2026/11/21 09:15:02.417, 0, NVIDIA GeForce RTX 40", encoding="utf-8")
    code, err = _run_monitor(d, log, capsys, seconds=1)
    assert code == 0, err
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[1] == "2026/11/21 09:15:02.417, 0, NVIDIA GeForce RTX 40"  # the cut line is kept as it was
    assert lines[2].count(",") == lines[0].count(",")  # the new rows start on a line of their own


def test_a_fifo_settings_file_does_not_stop_commands(world, capsys):
    if not HAS_FIFO:
        pytest.skip("no FIFOs here")
    d, _ = world
    settings = d / "home" / "config" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(settings)
    with _FifoWatchdog([settings]) as watchdog:
        code = main(["psu", "--gpu", "4090", "--json"])
    assert not watchdog.fired and code == 0
    assert stat.S_ISFIFO(os.stat(settings).st_mode)


# ---- end to end


@pytest.mark.end2end
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs RLIMIT_FSIZE (POSIX)")
def test_monitor_csv_past_a_file_size_limit_end_to_end(tmp_path):
    import resource

    log = tmp_path / "log.csv"
    limit = 6000

    def limit_file_size() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = dict(os.environ, GPU_ASSISTANT_HOME=str(tmp_path / "home"))
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "monitor", "--source", "demo", "--csv", str(log),
                             "--interval", "0.25", "--duration", "30"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120, preexec_fn=limit_file_size)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error:") and str(log) in last and "rows" in last
    data = log.read_bytes()
    assert len(data) <= limit and data.endswith(b"\n")


@pytest.mark.end2end
@pytest.mark.skipif(sys.platform != "linux", reason="SIGTERM to an offscreen Qt app")
def test_the_app_ends_cleanly_on_sigterm_and_the_recording_gets_its_end_marker(tmp_path):
    env = dict(os.environ, GPU_ASSISTANT_HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "--demo"], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    recordings = tmp_path / "data" / "recordings"
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not list(recordings.glob("*.sqlite")):
            if proc.poll() is not None:
                break
            time.sleep(0.5)
        time.sleep(2)  # a few readings
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err.decode("utf-8", "replace")[-2000:]
    (path,) = list(recordings.glob("*.sqlite"))
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT value FROM meta WHERE key = 'ended_at'").fetchone() is not None
    finally:
        conn.close()
