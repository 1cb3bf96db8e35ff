"""What ``main.py monitor --once --json`` loads, and the garbage collector's pace while a program starts.

About imports, not timing (the timing is ``tests/bench/bench_monitor.py``): a one-shot snapshot must
not pay for the window, the exporter, the recorder, the model-fit estimator or the other commands.
"""
from __future__ import annotations

import gc
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import main
from services import program
from cli import monitor
from services.telemetry.nvml_source import NvmlSource
from tests.fakes.fake_nvml import FakeNvml

ROOT = Path(__file__).resolve().parents[2]
FAKE_PYNVML = ROOT / "tests" / "bench" / "fake_pynvml"  # nvidia-ml-py answered by the test fake

# Modules (and packages: their submodules too) the snapshot has no use for.
NOT_FOR_A_SNAPSHOT = (
    "PySide6", "shiboken6", "pyqtgraph", "gui",  # the window
    "prometheus_client", "http.server", "services.exporter", "socketserver",  # the exporter
    "numpy", "services.modelfit", "services.hardware",  # the fit and PSU calculators
    "services.telemetry.recorder", "sqlite3", "services.telemetry.history", "services.telemetry.hub",
    "services.telemetry.replay", "services.telemetry.simulated", "services.telemetry.carry",
    "services.setup", "services.settings", "services.paths",  # settings: only for the table's language
    "xml.etree",  # the translation catalogue: only for text output
    "unicodedata",  # column widths: only for the table
    "urllib.request", "http.client",
    *(f"cli.{name}" for name in ("sessions", "fit", "fit_validation", "psu", "doctor", "setup",
                                          "hybrid", "exporter")),
)

# Runs main.py as ``python main.py`` does and writes down what was loaded, however the run ends:
# through SystemExit, or at once through os._exit (services.program.end_now_if_done).
_DRIVER = """
import json, os, runpy, sys
import atexit as _atexit, threading as _threading

# What the interpreter holds before main.py runs (site-packages' .pth files may register exit handlers)
AT_START = [getattr(_atexit, "_ncallbacks", lambda: 0)(), _threading.active_count()]

def note(code, how):
    with open(MODULES, "w") as fh:
        json.dump({"code": code, "how": how, "modules": sorted(sys.modules), "at_start": AT_START}, fh)

real_exit = os._exit
def noted_exit(code):
    note(code, "at once")
    real_exit(code)
os._exit = noted_exit
sys.argv = ["main.py", *sys.argv[2:]]
try:
    runpy.run_path("main.py", run_name="__main__")
except SystemExit as exc:
    note(exc.code, "SystemExit")
"""


def _run_main(tmp_path: Path, *argv: str) -> tuple[dict, str]:
    """Run ``main.py argv`` as the program runs it (``__main__``), on the fake NVML; (what it loaded, stdout)."""
    modules = tmp_path / "modules.json"
    # UTF-8 output, so Chinese reaches the test whatever the system's code page (a pipe on an English
    # Windows is code page 1252, where it would read "??": services/console.py).
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FAKE_PYNVML), str(ROOT)]), PYTHONIOENCODING="utf-8",
               GPU_ASSISTANT_HOME=str(tmp_path), HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path))
    env.pop("QT_QPA_PLATFORM", None)
    done = subprocess.run([sys.executable, "-c", _DRIVER.replace("MODULES", repr(str(modules))), "main.py", *argv],
                          cwd=ROOT, env=env, capture_output=True, text=True, encoding="utf-8", timeout=120)
    result = json.loads(modules.read_text())
    assert done.returncode == result["code"], done.stderr
    return result, done.stdout


def _skip_where_python_ends_the_usual_way(result: dict) -> None:
    """A Python whose start-up (a .pth file in its site-packages) already registered an exit handler or
    started a thread cannot end a command at once, whatever the command does: it ends the usual way."""
    handlers, threads = result["at_start"]
    if result["how"] == "SystemExit" and (handlers, threads) != (0, 1):
        pytest.skip(f"this Python has {handlers} exit handler(s) and {threads} thread(s) before main.py runs "
                    "(its site-packages' start-up code): a finished command ends the usual way there")


def _loaded(modules: list[str], name: str) -> list[str]:
    return [m for m in modules if m == name or m.startswith(name + ".")]


def test_a_json_snapshot_imports_only_what_it_uses(tmp_path):
    result, out = _run_main(tmp_path, "monitor", "--once", "--json")
    _skip_where_python_ends_the_usual_way(result)
    assert result["code"] == 0 and result["how"] == "at once"
    doc = json.loads(out)
    assert [gpu["name"] for gpu in doc["gpus"]] == ["NVIDIA GeForce RTX 4090"] * 2  # the fake's desktop
    assert doc["system"]["ram_total_mib"] > 0
    modules = result["modules"]
    loaded = {name: _loaded(modules, name) for name in NOT_FOR_A_SNAPSHOT}
    assert {name: found for name, found in loaded.items() if found} == {}
    # What it does need, so that the list above is not passing for an empty run.
    assert {"cli.monitor", "services.telemetry.nvml_source", "pynvml"} <= set(modules)
    # One reading has no rates to count: on Linux memory and process names come from /proc, so psutil
    # (about 10 ms) is not loaded; elsewhere it reads them.
    assert ("psutil" in modules) is not sys.platform.startswith("linux")


def test_a_table_or_log_reads_the_rates_through_psutil(tmp_path):
    """A second reading has CPU and disk rates: the probe of a running table loads psutil for them."""
    result, out = _run_main(tmp_path, "monitor", "--json", "--interval", "0.5", "--duration", "1")
    assert result["code"] == 0 and "psutil" in result["modules"]
    readings = [json.loads(line) for line in out.splitlines()]
    assert len(readings) == 2
    assert readings[0]["system"]["cpu_pct"] is None and readings[1]["system"]["cpu_pct"] is not None


def test_the_table_still_finds_its_language(tmp_path):
    """The text output reads the catalogue the JSON output leaves alone (``--lang`` wins over the
    settings, so they are not read)."""
    result, out = _run_main(tmp_path, "--lang", "zh_CN", "monitor", "--once")
    assert result["code"] == 0
    assert "xml.etree.ElementTree" in result["modules"] and "services.settings" not in result["modules"]
    assert "NVIDIA GeForce RTX 4090" in out and "显存" in out


# ---- the collector's pace


@pytest.fixture
def normal_gc():
    before = gc.get_threshold()
    yield before
    program.start_up_done()
    gc.set_threshold(*before)


def test_start_up_pace_and_back(normal_gc):
    program.collect_less_while_starting()
    assert gc.get_threshold() == (program.START_UP_GC_THRESHOLD, *normal_gc[1:])
    assert gc.isenabled()  # less often, never off
    program.start_up_done()
    assert gc.get_threshold() == normal_gc
    program.start_up_done()  # once is enough; again changes nothing
    assert gc.get_threshold() == normal_gc


def test_main_called_in_process_leaves_the_collector_alone(normal_gc, monkeypatch):
    """Only ``python main.py`` slows the collector while starting; tests and the self-test call main()."""
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    main.main(["monitor", "--once", "--json", "--source", "demo"])
    assert gc.get_threshold() == normal_gc


def test_a_log_goes_back_to_the_normal_pace(normal_gc, tmp_path):
    class Clock:
        t = 100.0

        def __call__(self) -> float:
            return self.t

        def sleep(self, seconds: float) -> None:
            self.t += seconds

    clock = Clock()
    program.collect_less_while_starting()
    args = main.build_parser(["monitor"]).parse_args(["monitor", "--json", "--duration", "2"])
    code = monitor.run(args, source=NvmlSource(FakeNvml(1), sysfs_root=tmp_path), sleep=clock.sleep, clock=clock,
                       out=io.StringIO(), err=io.StringIO())
    assert code == 0
    assert gc.get_threshold() == normal_gc


# ---- the end of a finished command


def test_a_finished_command_ends_at_once_with_all_its_output(tmp_path):
    """Piped output (a pipe is block-buffered) arrives whole, with the command's exit code."""
    result, out = _run_main(tmp_path, "monitor", "--once")
    _skip_where_python_ends_the_usual_way(result)
    assert (result["code"], result["how"]) == (0, "at once")
    lines = out.rstrip("\n").splitlines()
    # 2 GPUs: header and 2 rows, "Processes:", its header and 2 rows, the system line
    assert len(lines) == 8 and lines[0].startswith("GPU") and lines[-1].startswith("System:") and lines[-1].endswith("GiB")
    result, out = _run_main(tmp_path, "monitor", "--once", "--csv", str(tmp_path / "log.csv"))
    assert result["how"] == "at once" and len((tmp_path / "log.csv").read_text().splitlines()) == 3
    result, _ = _run_main(tmp_path, "monitor", "--interval", "0")  # bad usage: exit 2, also at once
    assert (result["code"], result["how"]) == (2, "at once")


def test_exit_handlers_and_threads_get_the_usual_exit(tmp_path):
    """Something registered to run at exit (logging, a temporary folder ...) still runs."""
    modules = tmp_path / "modules.json"
    script = _DRIVER.replace("MODULES", repr(str(modules))).replace(
        "import json, os, runpy, sys\n", "import atexit, json, os, runpy, sys\natexit.register(print, 'exit handler ran')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FAKE_PYNVML), str(ROOT)]), GPU_ASSISTANT_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script, "main.py", "monitor", "--once", "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(modules.read_text())["how"] == "SystemExit"
    assert done.stdout.rstrip().endswith("exit handler ran")


def test_nothing_left_to_finish():
    import atexit
    import threading

    assert program.nothing_left_to_finish() == (threading.active_count() == 1 and atexit._ncallbacks() == 0)
    release = threading.Event()
    worker = threading.Thread(target=release.wait)
    worker.start()
    try:
        assert not program.nothing_left_to_finish()
    finally:
        release.set()
        worker.join()


def test_a_command_run_in_process_never_ends_the_process(monkeypatch):
    """main() is called by the tests and the self-test: only ``python main.py`` may end early."""
    monkeypatch.setattr(os, "_exit", lambda code: pytest.fail(f"os._exit({code})"))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert main.main(["monitor", "--once", "--json", "--source", "demo"]) == 0
