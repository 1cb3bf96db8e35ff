"""End to end: ``python main.py ...`` in a real process, as a user runs it.

The bad-input table runs in-process through ``main(argv)`` (tests/test_bad_input_table.py). What
only a process shows is checked here: the exit status the shell sees, the streams as the OS hands
them over (a closed pipe, a reader that goes away, no console at all), a file-size limit, SIGTERM.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_bad_input_table import ERROR_LINE, NO_GPU, NO_NVML, USAGE, make_inputs

pytestmark = pytest.mark.end2end

ROOT = Path(__file__).resolve().parent.parent
MAIN = str(ROOT / "main.py")


def _env(home: Path, **extra: str) -> dict[str, str]:
    return dict(os.environ, GPU_ASSISTANT_HOME=str(home), PYTHONIOENCODING="utf-8", **extra)


# (argv, exit code, what stdout or the error line must say); all run at once, one process each.
PROCESSES: list[tuple[tuple[str, ...], int, str]] = [
    (("--version",), 0, "GPU Assistant"),
    (("no-such-command",), USAGE, "invalid choice"),
    (("fit", "--model", "{d}/corrupt.json"), USAGE, "json"),
    (("monitor", "--json", "--source", "demo", "--interval", "0.5", "--duration", "1"), 0, '"gpus"'),
    *([(("psu", "--detect"), NO_GPU, "no nvidia gpu")] if NO_NVML else []),
]


@pytest.fixture(scope="module")
def processes(tmp_path_factory) -> list[subprocess.CompletedProcess]:
    d = tmp_path_factory.mktemp("users-files")
    make_inputs(d)
    home = tmp_path_factory.mktemp("home")
    running = [subprocess.Popen([sys.executable, MAIN, *(a.replace("{d}", str(d)) for a in argv)], cwd=ROOT,
                                env=_env(home), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, encoding="utf-8")
               for argv, _, _ in PROCESSES]
    results = []
    for proc in running:
        try:
            out, err = proc.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        results.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return results


@pytest.mark.parametrize("index", range(len(PROCESSES)), ids=[" ".join(a) for a, _, _ in PROCESSES])
def test_a_real_process_exits_with_the_documented_code_and_one_line(index: int, processes):
    argv, code, says = PROCESSES[index]
    result = processes[index]
    shown = f"argv={argv} rc={result.returncode}\nstdout:\n{result.stdout[-1000:]}\nstderr:\n{result.stderr[-2000:]}"
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, shown
    assert result.returncode == code, shown
    if code == 0:
        assert says in result.stdout and not result.stderr.strip(), shown
        if "--json" in argv:  # monitor streaming: one object per line
            assert all(isinstance(json.loads(line), dict) for line in result.stdout.splitlines()), shown
    else:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and ERROR_LINE.match(lines[0]) and says in lines[0].lower(), shown
        assert not result.stdout.strip(), shown


def test_a_closed_pipe_is_not_a_traceback(tmp_path):
    """``main.py fit --json | head`` where the reader is already gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([sys.executable, MAIN, "fit", "--params-b", "7", "--json"], cwd=ROOT,
                                env=_env(tmp_path), stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write_end)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0


def test_a_reader_that_goes_away_is_not_a_traceback(tmp_path):
    """``python main.py monitor ... | head -1`` closes the pipe early; that used to end in
    BrokenPipeError tracebacks."""
    proc = subprocess.Popen([sys.executable, MAIN, "monitor", "--source", "demo", "--json",
                             "--interval", "0.1", "--duration", "20"], cwd=ROOT, env=_env(tmp_path),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()  # the reader is gone
    try:
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    assert json.loads(first) and "Traceback" not in err, err
    assert proc.returncode == 0  # what was wanted was delivered


def test_no_console_streams_do_not_crash(tmp_path):
    """A windowed Windows build runs with sys.stdout and sys.stderr set to None; code that needs a
    real stream (the self-test's watchdog, sys.stdout.write) must still work there."""
    code = ("import sys, faulthandler; sys.stdout = None; sys.stderr = None\n"
            "import main\n"
            "main.ensure_std_streams()\n"
            "faulthandler.dump_traceback_later(60); faulthandler.cancel_dump_traceback_later()\n"
            "sys.stdout.write('x')\n"
            "try:\n    main.main(['--version'])\nexcept SystemExit as exc:\n    raise SystemExit(exc.code)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                            env=_env(tmp_path), timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""  # everything went to the null device


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs RLIMIT_FSIZE (POSIX)")
def test_monitor_csv_past_a_file_size_limit(tmp_path):
    import resource

    log = tmp_path / "log.csv"
    limit = 6000

    def limit_file_size() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    result = subprocess.run([sys.executable, MAIN, "monitor", "--source", "demo", "--csv", str(log),
                             "--interval", "0.1", "--duration", "30"], cwd=ROOT, env=_env(tmp_path / "home"),
                            capture_output=True, text=True, timeout=120, preexec_fn=limit_file_size)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error:") and str(log) in last and "rows" in last
    data = log.read_bytes()
    assert len(data) <= limit and data.endswith(b"\n")


@pytest.mark.skipif(sys.platform != "linux", reason="SIGTERM to an offscreen Qt app")
def test_the_app_ends_cleanly_on_sigterm_and_the_recording_gets_its_end_marker(tmp_path):
    # the demo is recorded only when asked (--record)
    proc = subprocess.Popen([sys.executable, MAIN, "--demo", "--record"], cwd=ROOT, env=_env(tmp_path, QT_QPA_PLATFORM="offscreen"),
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
