"""The one background-work mechanism the pages share (gui.widgets.background)."""
from __future__ import annotations

import threading

from PySide6.QtCore import QObject

from gui.widgets.background import BackgroundWork, describe_error


def test_jobs_run_one_at_a_time_in_order_and_report_in_the_gui_thread(qtbot):
    owner = QObject()
    work = BackgroundWork(owner, max_threads=1, name="t")
    gui_thread = threading.current_thread()
    order, threads, lines = [], [], []
    release = threading.Event()

    def first(report):
        report("half way")
        release.wait(5)
        return 1

    work.submit(first, lambda r: (order.append(r), threads.append(threading.current_thread())),
                on_progress=lines.append)
    work.submit(lambda _r: 2, order.append)
    assert work.busy()
    release.set()
    qtbot.waitUntil(lambda: not work.busy(), timeout=3000)
    assert order == [1, 2] and threads == [gui_thread] and lines == ["half way"]
    work.shutdown()


def test_a_failure_reaches_its_handler_and_the_next_job_still_runs(qtbot):
    work = BackgroundWork(max_threads=1, name="t")
    errors, results = [], []

    def broken(_report):
        raise OSError("disk gone")

    work.submit(broken, results.append, lambda exc: errors.append(describe_error(exc)))
    work.submit(lambda _r: "ok", results.append)
    qtbot.waitUntil(lambda: not work.busy(), timeout=3000)
    assert errors == ["OSError: disk gone"] and results == ["ok"]
    work.shutdown()


def test_shutdown_waits_for_the_running_job_and_drops_what_is_left(qtbot):
    work = BackgroundWork(max_threads=1, name="stopping")
    stop = threading.Event()
    results = []
    work.submit(lambda _r: stop.wait(5) and "stopped", results.append)
    work.submit(lambda _r: "never", results.append)
    stop.set()
    work.shutdown(timeout_s=5)
    assert not [t for t in threading.enumerate() if t.name.startswith("stopping-")]
    qtbot.wait(50)  # let any queued outcome arrive: it must be dropped
    assert results == []
    assert not work.submit(lambda _r: "late", results.append).is_running()
