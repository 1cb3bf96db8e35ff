"""Slow work (probes, steps) off the GUI thread for the setup page, one piece at a time."""
from __future__ import annotations

from typing import Any, Protocol
from collections.abc import Callable

from PySide6.QtCore import QObject, QRunnable, Signal


class TaskOwner(Protocol):
    """What the signals report back to (the setup page)."""

    def _forget(self, signals: TaskSignals) -> None: ...

    def _on_task_failed(self, message: str) -> None: ...


class TaskSignals(QObject):
    """Lives in the GUI thread; the worker emits, the handlers run here (queued).

    Handlers are bound methods of this QObject on purpose: PySide calls a plain
    lambda in the emitting (worker) thread.
    """

    done = Signal(object)
    failed = Signal(str)
    line = Signal(str)

    def __init__(self, page: TaskOwner, on_done: Callable[[Any], None], on_line: Callable[[str], None] | None) -> None:
        super().__init__(page)
        self._page = page
        self._on_done = on_done
        self._on_line = on_line
        self.done.connect(self._handle_done)
        self.failed.connect(self._handle_failed)
        self.line.connect(self._handle_line)

    def _handle_done(self, result: Any) -> None:
        self._page._forget(self)
        self._on_done(result)

    def _handle_failed(self, message: str) -> None:
        self._page._forget(self)
        self._page._on_task_failed(message)

    def _handle_line(self, text: str) -> None:
        if self._on_line:
            self._on_line(text)


class Task(QRunnable):
    """One piece of slow work on the pool; results come back as signals."""

    def __init__(self, fn: Callable[[Callable[[str], None]], Any], signals: TaskSignals) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._fn = fn
        self.signals = signals

    def run(self) -> None:
        try:
            result = self._fn(self.signals.line.emit)
        except Exception as exc:  # a broken probe must not take the app down
            self.signals.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self.signals.done.emit(result)
