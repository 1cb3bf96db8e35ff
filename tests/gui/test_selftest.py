"""--self-test: every check runs, failures are caught and named, the user's files stay untouched."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from cli import front  # main.py hands the GUI front.run_captured
from gui import selftest
from gui.pages import PAGES

ROOT = Path(__file__).resolve().parents[2]


EXPECTED_CHECKS = [f"page {spec.key}" for spec in PAGES] + [
    "resources", "qt plugins", "translations", "telemetry", "dashboard render", "estimate fit", "estimate psu",
    "pages in zh_CN", "python errors", "qt messages"]


def test_missing_resources_fail(monkeypatch, tmp_path):
    monkeypatch.setattr(selftest, "resource_path", lambda *parts: tmp_path.joinpath(*parts))
    result = selftest.check_resources()
    assert result.status == selftest.FAIL
    assert "gpu-assistant.svg" in result.detail


class _BrokenWindow:
    def show_page(self, key):
        raise RuntimeError(f"{key} page exploded")


def test_a_page_that_raises_is_reported(monkeypatch):
    built = PAGES[0]
    results = selftest.check_pages(_BrokenWindow(), pages=[built])
    failed = [r for r in results if r.status == selftest.FAIL]
    assert len(failed) == 1 and failed[0].name == f"page {built.key}"
    assert "exploded" in failed[0].detail


def _fake_command(output: str, code: int = 0):
    def run(args):
        print(output)
        return code

    def add_arguments(parser):
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--params-b")

    return types.SimpleNamespace(HELP="fake", add_arguments=add_arguments, run=run)


@pytest.mark.parametrize(("output", "code", "status", "words"), [
    (json.dumps({"total_gib": 15.2}), 0, selftest.PASS, "total_gib=15.2"),
    (json.dumps({"total_gib": 0}), 0, selftest.FAIL, "not positive: total_gib"),
    (json.dumps({"other": 1}), 0, selftest.FAIL, "total_gib"),
    ("not json", 0, selftest.FAIL, "not JSON"),
    ("{}", 2, selftest.FAIL, "exit code 2"),
])
def test_calculator_results_are_checked(monkeypatch, output, code, status, words):
    monkeypatch.setattr(front, "available_commands", lambda: {"fit": "x"})
    monkeypatch.setattr(front, "load_command", lambda name: _fake_command(output, code))
    result = selftest.run_calculator("fit", ["--params-b", "7", "--json"], ["total_gib"], front.run_captured)
    assert result.status == status
    assert words in result.detail


def test_changed_command_flags_are_a_failure_not_a_crash(monkeypatch):
    monkeypatch.setattr(front, "available_commands", lambda: {"fit": "x"})
    monkeypatch.setattr(front, "load_command", lambda name: _fake_command("{}"))
    result = selftest.run_calculator("fit", ["--no-such-flag"], ["total_gib"], front.run_captured)
    assert result.status == selftest.FAIL and "exit code 2" in result.detail and "--no-such-flag" in result.detail


def test_missing_calculator_is_a_failure(monkeypatch):
    monkeypatch.setattr(front, "available_commands", lambda: {})
    result = selftest.run_calculator("psu", [], ["x"], front.run_captured)
    assert result.status == selftest.FAIL and "'psu'" in result.detail


def test_no_command_runner_is_a_failure():
    assert selftest.run_calculator("psu", [], ["x"], None).status == selftest.FAIL


def test_summary_names_the_failures():
    results = [selftest.CheckResult("a", selftest.PASS), selftest.CheckResult("b", selftest.FAIL, "boom"),
               selftest.CheckResult("c", selftest.SKIP, "not readable here")]
    code, line = selftest.summary(results)
    assert code == 1 and line.startswith("self-test FAILED: b")


@pytest.mark.end2end
def test_command_line_self_test_passes_every_check_and_leaves_the_home_alone(tmp_path):
    """The suite's one run of the whole self-test, as ``main.py --self-test`` in a process of its own."""
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, GPU_ASSISTANT_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "--self-test"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("self-test OK:")
    # Each check is one line: "STATUS  name  detail" (CheckResult.line).
    checks = {}
    for line in lines[:-1]:
        status, _, rest = line.partition("  ")
        if status in (selftest.PASS, selftest.FAIL, selftest.SKIP):
            name = next((n for n in EXPECTED_CHECKS if rest == n or rest.startswith(n + " ")), rest)
            checks[name] = (status, rest[len(name):].strip())
    assert [f"{status} {name}" for name, (status, _) in checks.items() if status == selftest.FAIL] == []
    assert set(EXPECTED_CHECKS) <= set(checks), sorted(checks)
    for spec in PAGES:
        assert checks[f"page {spec.key}"][0] == selftest.PASS
    assert all(detail for status, detail in checks.values() if status == selftest.SKIP)  # a skip says why
    assert list(home.iterdir()) == []  # no settings, no window state, no recorded demo session


def test_telemetry_check_reports_a_hub_without_readings(qapp):  # its event loop needs the application
    from services.telemetry.model import SourceKind
    from tests.gui.fake_hub import FakeHub

    silent = FakeHub(SourceKind.SIMULATED, name="simulated")  # the real hub, never fed a reading
    context = types.SimpleNamespace(telemetry=silent)
    result = selftest.check_telemetry(context, timeout_s=0.2)
    assert result.status == selftest.FAIL and "no reading from the simulated source" in result.detail


def test_exceptions_in_qt_callbacks_are_caught(qtbot):
    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        fired = Signal()

    emitter = Emitter()

    def broken_slot():
        raise ValueError("bad placeholder {x}")

    emitter.fired.connect(broken_slot)
    with selftest.QtMessageLog() as log:
        emitter.fired.emit()
    assert log.exceptions == ["ValueError: bad placeholder {x}"]


def _dashboard_window(qtbot, app_paths, seconds: int):
    import time

    from gui.app import build_context
    from gui.main_window import MainWindow
    from tests.gui.fake_hub import FakeHub, snapshot

    context = build_context(argparse.Namespace(demo=True), app_paths)
    hub = FakeHub()
    t_end = time.time()
    for k in range(seconds):
        hub.push(snapshot(2, t_end - seconds + k + 1))
    context.telemetry = hub
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.resize(1280, 820)
    window.show()
    return window, context


@pytest.mark.parametrize("seconds, status", [(1, selftest.FAIL), (60, selftest.PASS)])
def test_dashboard_render_needs_a_drawn_curve_not_only_filled_tiles(qtbot, app_paths, monkeypatch, seconds, status):
    monkeypatch.setattr(selftest, "DASHBOARD_SETTLE_MS", 200)
    monkeypatch.setattr(selftest, "TELEMETRY_TIMEOUT_S", 0.5)
    window, context = _dashboard_window(qtbot, app_paths, seconds)
    result = selftest.check_dashboard(window, context)
    assert result.status == status, result.detail
    if status == selftest.FAIL:
        assert "graphs are empty" in result.detail
    window.shutdown()
    window.page("dashboard").bridge.close()


def test_screenshot_waits_for_the_graphs_of_the_shown_page(qtbot, app_paths):
    from gui.app import wait_for_drawn_page

    window, _ = _dashboard_window(qtbot, app_paths, 60)
    window.show_page("dashboard")
    assert wait_for_drawn_page(window, timeout_ms=5000)
    window.shutdown()
    window.page("dashboard").bridge.close()
    empty, _ = _dashboard_window(qtbot, app_paths, 1)
    empty.show_page("dashboard")
    assert not wait_for_drawn_page(empty, timeout_ms=300)  # bounded: one reading never makes a line
    empty.show_page("settings")
    assert wait_for_drawn_page(empty, timeout_ms=300)  # a page without graphs is ready at once
    empty.shutdown()
    empty.page("dashboard").bridge.close()


class _PageWithOwnCheck:
    def __init__(self, problem):
        self.problem = problem

    def isVisible(self):  # Qt's name
        return True

    def self_test(self):
        if isinstance(self.problem, Exception):
            raise self.problem
        return self.problem


class _WindowOf:
    def __init__(self, page):
        self._page = page

    def show_page(self, key):
        return self._page


@pytest.mark.parametrize(("problem", "status", "words"), [
    (None, selftest.PASS, "its own self_test() passed"),
    ("no GPU in the catalogue", selftest.FAIL, "self_test(): no GPU in the catalogue"),
    (KeyError("x"), selftest.FAIL, "KeyError"),
])
def test_a_page_own_self_test_is_run(monkeypatch, problem, status, words):
    (result,) = selftest.check_pages(_WindowOf(_PageWithOwnCheck(problem)), pages=[PAGES[0]])
    assert result.status == status and words in result.detail


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="CLOCK_BOOTTIME, the clock /proc counts in")
def test_process_age_is_read_to_the_hundredth_of_a_second():
    """A child reports its age and the clock; its start time follows, and must fall while it was being
    started. /proc counts in clock ticks (10 ms), so each figure may be one tick off."""
    import time as _time

    tick = 1 / os.sysconf("SC_CLK_TCK")
    probe = ("import time\nfrom gui.selftest import seconds_since_process_start as age\n"
             "a = age(); print(repr(time.clock_gettime(time.CLOCK_BOOTTIME) - a))")
    before = _time.clock_gettime(_time.CLOCK_BOOTTIME)
    child = subprocess.Popen([sys.executable, "-c", probe], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    after = _time.clock_gettime(_time.CLOCK_BOOTTIME)  # Popen returns once the child runs
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 0
    started = float(out)
    assert before - 2 * tick <= started <= after + 2 * tick, (before, started, after)
    # Read twice in this process: the difference is the time between the reads, to a tick.
    m1 = _time.clock_gettime(_time.CLOCK_BOOTTIME)
    first = selftest.seconds_since_process_start()
    m2 = _time.clock_gettime(_time.CLOCK_BOOTTIME)
    _time.sleep(0.05)  # the one sleep here measures the clock itself, it does not wait for Qt
    m3 = _time.clock_gettime(_time.CLOCK_BOOTTIME)
    second = selftest.seconds_since_process_start()
    m4 = _time.clock_gettime(_time.CLOCK_BOOTTIME)
    assert (m3 - m2) - 2 * tick <= second - first <= (m4 - m1) + 2 * tick