"""Slow work off the GUI thread, with its outcome handed back in the GUI thread.

The one mechanism the pages use for probes, scans, launches and network polls.
Each job runs on a thread of its own that ends with the job, so an idle page
holds no threads; ``max_threads`` bounds how many run at once and the rest
wait their turn in order (``max_threads=1``: one at a time, as submitted).
"""
from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

# What a job is given to report progress with (a line of output, seconds waited, ...).
Report = Callable[[Any], None]


def describe_error(exc: BaseException) -> str:
    """One line for the user: the kind of error and its message."""
    return f"{type(exc).__name__}: {exc}"


class Job(QObject):
    """One piece of work; lives in the GUI thread, its function runs on a worker thread.

    Signals (emitted from the worker, handled here in the GUI thread):
        done(object): the function's result.
        failed(object): the exception it raised.
        progress(object): whatever the function passed to its ``report`` callable.
    """

    done = Signal(object)
    failed = Signal(object)
    progress = Signal(object)

    def __init__(self, fn: Callable[[Report], Any], work: BackgroundWork,
                 on_done: Callable[[Any], None] | None, on_failed: Callable[[BaseException], None] | None,
                 on_progress: Callable[[Any], None] | None) -> None:
        super().__init__(work)
        self._fn: Callable[[Report], Any] | None = fn
        self._work = work
        self._on_done, self._on_failed, self._on_progress = on_done, on_failed, on_progress
        self._thread: threading.Thread | None = None
        self._finished = False
        # Bound methods of this QObject on purpose: PySide would call a plain lambda in the worker thread.
        self.done.connect(self._handle_done)
        self.failed.connect(self._handle_failed)
        self.progress.connect(self._handle_progress)

    # ---- Public API
    def is_running(self) -> bool:
        """True from submission until its outcome has been handled in the GUI thread."""
        return not self._finished

    # ---- Worker thread side
    def _start(self, name: str) -> None:
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        fn = self._fn
        if fn is None:  # let go of before it started
            return
        try:
            result = fn(self._report)
        except Exception as exc:  # a broken probe must not take the app down
            self._emit(self.failed, exc)
            return
        self._emit(self.done, result)

    def _report(self, value: Any) -> None:
        self._emit(self.progress, value)

    @staticmethod
    def _emit(signal: Any, value: Any) -> None:
        try:
            signal.emit(value)
        except RuntimeError:  # the page was deleted while the job ran
            pass

    def _join(self, timeout_s: float) -> None:
        thread = self._thread
        if thread is not None:
            thread.join(timeout_s)
            if not thread.is_alive():
                self._thread = None  # the thread held the job (its target): let it go

    # ---- GUI thread side
    @Slot(object)
    def _handle_done(self, result: Any) -> None:
        on_done = self._on_done
        if self._finish() and on_done is not None:
            on_done(result)

    @Slot(object)
    def _handle_failed(self, exc: BaseException) -> None:
        on_failed = self._on_failed
        if self._finish() and on_failed is not None:
            on_failed(exc)

    @Slot(object)
    def _handle_progress(self, value: Any) -> None:
        if not self._finished and not self._work.closed and self._on_progress is not None:
            self._on_progress(value)

    def _finish(self) -> bool:
        """Mark the job handled; False when its owner has shut down (the outcome is dropped)."""
        self._let_go()
        self._work._on_job_finished(self)
        return not self._work.closed

    def _let_go(self) -> None:
        """Drop the function and the callbacks once nothing will call them. They are mostly bound
        methods of the page that owns this job: held here, the page's last Python reference could be
        released when Qt deletes the job, and the page deleted from inside the job's own destructor,
        deleting the job a second time (a crash seen under Wine with a window the test let go of)."""
        self._finished = True
        self._fn = None
        self._on_done = self._on_failed = self._on_progress = None


class BackgroundWork(QObject):
    """Runs a page's jobs on worker threads, at most ``max_threads`` at a time, in order."""

    def __init__(self, parent: QObject | None = None, max_threads: int = 1, name: str = "work") -> None:
        super().__init__(parent)
        self._max = max(1, max_threads)
        self._name = name
        self._pending: deque[Job] = deque()
        self._running: list[Job] = []
        self._count = 0
        self.closed = False

    # ---- Public API
    def submit(self, fn: Callable[[Report], Any], on_done: Callable[[Any], None] | None = None,
               on_failed: Callable[[BaseException], None] | None = None,
               on_progress: Callable[[Any], None] | None = None) -> Job:
        """Run ``fn(report)`` off the GUI thread; the callbacks run in the GUI thread.

        After ``shutdown`` nothing more is started and outcomes still on their way are dropped.
        """
        job = Job(fn, self, on_done, on_failed, on_progress)
        if self.closed:
            job._let_go()
            return job
        self._pending.append(job)
        self._start_pending()
        return job

    def busy(self) -> bool:
        return bool(self._pending or self._running)

    def shutdown(self, timeout_s: float = 10.0) -> None:
        """Start nothing more and wait up to ``timeout_s`` for the running jobs (they have timeouts)."""
        self.closed = True
        for job in self._pending:
            job._let_go()
        self._pending.clear()
        for job in list(self._running):
            job._join(timeout_s)

    # ---- Internals
    def _start_pending(self) -> None:
        while self._pending and len(self._running) < self._max:
            job = self._pending.popleft()
            self._running.append(job)
            self._count += 1
            job._start(f"{self._name}-{self._count}")

    def _on_job_finished(self, job: Job) -> None:
        if job in self._running:
            self._running.remove(job)
        # The outcome arrives queued, once the worker has emitted it; all the worker has left to do
        # is return. Wait for that, so the Python wrapper is never released on the worker thread
        # after Qt has deleted the object (seen as a rare "already deleted" error under load).
        job._join(2.0)
        job.deleteLater()
        if not self.closed:
            self._start_pending()
