"""The one background-work mechanism the pages share (gui.widgets.background)."""
from __future__ import annotations

import gc
import threading
import weakref

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


def test_a_handled_job_lets_go_of_its_callbacks(qtbot):
    """The callbacks are mostly the owning page's bound methods: a job that kept them after its outcome
    was handled could hold the page's last reference, and the page would then be deleted from inside
    the job's destructor (a double delete, seen as a crash under Wine)."""
    work = BackgroundWork(name="t")

    class Page:
        def __init__(self) -> None:
            self.results: list = []

        def shown(self, result) -> None:
            self.results.append(result)

    page = Page()
    job = work.submit(lambda _r: 42, page.shown, page.shown, page.shown)
    kept = weakref.ref(page)
    qtbot.waitUntil(lambda: not work.busy(), timeout=3000)
    assert page.results == [42] and not job.is_running()
    del page
    gc.collect()
    assert kept() is None  # the job (still alive: it is referenced here) holds nothing of the page
    release = threading.Event()
    work.submit(lambda _r: release.wait(5))
    queued = work.submit(lambda _r: 1, Page().shown)  # still waiting its turn when the owner shuts down
    release.set()
    work.shutdown()
    assert queued._on_done is None and queued._fn is None
