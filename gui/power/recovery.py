"""At the app's start: a sweep that was killed left its lower power limit set; put it back.

Nothing but one small file is read unless the journal holds a sweep's change."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from gui.i18n import render
from gui.widgets.background import BackgroundWork
from services.power.limits import REASON_SWEEP, PowerError


def pending_sweep_changes(journal: Any) -> bool:
    try:
        return any(c.reason == REASON_SWEEP for c in journal.load())
    except PowerError:
        return False  # a damaged journal: nothing the app can restore from


def _tell(window: QWidget, text: str) -> None:
    QMessageBox.information(window, QCoreApplication.translate("PowerRecovery", "A sweep that did not finish"), text)


def restore_interrupted_sweeps_soon(window: QWidget, backend: Any = None,
                                    tell: Callable[[QWidget, str], None] = _tell) -> BackgroundWork | None:
    """Restore off the GUI thread (a password prompt may appear), then say what was done."""
    from services.power.limits import default_journal

    if not pending_sweep_changes(backend.journal() if backend is not None else default_journal()):
        return None  # the usual start: one small file read, the panel (and pyqtgraph) not imported
    from gui.power.backend import PowerBackend, limit_setter

    be = backend or PowerBackend()
    work = BackgroundWork(window, name="power-restore")

    def job(report: Any) -> list:
        source = be.make_source()
        source.open()
        try:
            return limit_setter(be, source).restore_interrupted_sweeps()
        finally:
            source.close()

    def done(outcomes: list) -> None:
        if outcomes:
            tell(window, "\n".join(render(o.message) for o in outcomes))

    work.submit(job, done, lambda exc: None)
    return work
