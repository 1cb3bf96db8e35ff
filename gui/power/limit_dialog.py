"""The Set power limit dialog: choose a limit, see the exact command, apply it (elevated) and undo it."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from PySide6.QtWidgets import (
    QCheckBox, QDialog, QDoubleSpinBox, QGridLayout, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout,
    QWidget,
)

from gui.i18n import render
from gui.power.backend import OpenedGpu, PowerBackend, limit_setter, watts_text
from gui.widgets.background import BackgroundWork
from services.power.limits import REASON_USER, check_range
from services.power.persist import keep_problem


class SetLimitDialog(QDialog):
    """Choose a limit, see the exact command, apply it (elevated), undo it; keep it after restarts."""

    def __init__(self, gpu_index: int, watts: float | None, parent: QWidget | None = None,
                 backend: PowerBackend | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SetLimitDialog")
        self.gpu_index = gpu_index
        self.backend = backend or PowerBackend()
        self.work = BackgroundWork(self, name="power-limit")
        self.limits: Any = None
        self.uuid: str | None = None
        self.setWindowTitle(self.tr("Set power limit"))
        layout = QVBoxLayout(self)
        self.info = QLabel(self.tr("Reading the card's limits…"), self)
        self.info.setWordWrap(True)
        layout.addWidget(self.info)
        grid = QGridLayout()
        self.watts = QDoubleSpinBox(self)
        self.watts.setDecimals(0)
        self.watts.setRange(1, 5000)
        self.watts.setSuffix(" W")
        if watts is not None:
            self.watts.setValue(watts)
        self.watts.valueChanged.connect(self._preview)
        grid.addWidget(QLabel(self.tr("New limit"), self), 0, 0)
        grid.addWidget(self.watts, 0, 1)
        layout.addLayout(grid)
        layout.addWidget(QLabel(self.tr("The command that will run:"), self))
        self.command = QPlainTextEdit(self)
        self.command.setReadOnly(True)
        self.command.setMaximumHeight(110)
        layout.addWidget(self.command)
        self.keep = QCheckBox(self.tr("Keep it after a restart (otherwise it resets when the computer restarts)"), self)
        self.keep.toggled.connect(self._preview)
        layout.addWidget(self.keep)
        self.keep_problem = QLabel(self)
        self.keep_problem.setWordWrap(True)
        self.keep_problem.setObjectName("keepProblem")
        layout.addWidget(self.keep_problem)
        problem = keep_problem(self.backend.system, self.backend.smi_present(self.backend.system))
        self.keep.setEnabled(problem is None)
        self.keep_problem.setVisible(problem is not None)
        if problem is not None:
            self.keep_problem.setText(render(problem))
        self.result = QLabel(self)
        self.result.setWordWrap(True)
        layout.addWidget(self.result)
        buttons = QHBoxLayout()
        self.undo_button = QPushButton(self.tr("Undo last change"), self)
        self.undo_button.clicked.connect(self.undo)
        self.apply_button = QPushButton(self.tr("Apply"), self)
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply)
        close = QPushButton(self.tr("Close"), self)
        close.clicked.connect(self.reject)
        buttons.addWidget(self.undo_button)
        buttons.addStretch(1)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(close)
        layout.addLayout(buttons)
        self.resize(620, 360)
        self._read_limits()

    def _read_limits(self) -> None:
        backend, index = self.backend, self.gpu_index

        def job(report: Callable[[Any], None]) -> Any:
            with OpenedGpu(backend, index) as (_, gpu):
                return gpu.uuid, gpu.info.name, gpu.limits()

        self.work.submit(job, self._limits_read, self._failed)

    def _limits_read(self, outcome: tuple) -> None:
        self.uuid, name, self.limits = outcome
        lim = self.limits
        self.info.setText(self.tr("GPU {gpu} {name}: now {current} W, default {default} W, allowed {low}-{high} W").format(
            gpu=self.gpu_index, name=name, current=watts_text(lim.current_w), default=watts_text(lim.default_w),
            low=watts_text(lim.min_w), high=watts_text(lim.max_w)))
        if lim.min_w is not None and lim.max_w is not None:
            self.watts.setRange(lim.min_w, lim.max_w)
        if self.watts.value() <= 1 and lim.current_w is not None:
            self.watts.setValue(lim.current_w)
        self.apply_button.setEnabled(lim.current_w is not None)
        self._preview()

    def _failed(self, exc: BaseException) -> None:
        message = getattr(exc, "message", None) or getattr(exc, "text", None)
        self.result.setText(render(message) if message is not None else str(exc))
        self.apply_button.setEnabled(self.limits is not None and self.limits.current_w is not None)

    def _commands(self) -> list[str]:
        from services.power.limits import set_limit_command
        from services.power.persist import Step, keep_plan
        from services.setup.elevation import elevate

        mode = self.backend.elevation()
        lines = [Step(elevate(set_limit_command(self.gpu_index, self.watts.value()), mode)).shown()]
        if self.keep.isChecked() and self.uuid:
            lines += [Step(elevate(s.argv, mode), s.input_text).shown()
                      for s in keep_plan(self.backend.system, self.uuid, self.watts.value()).keep]
        return lines

    def _preview(self) -> None:
        self.command.setPlainText("\n".join(self._commands()))

    def apply(self) -> None:
        if self.limits is None or self.uuid is None:
            return
        backend, index, watts, keep = self.backend, self.gpu_index, self.watts.value(), self.keep.isChecked()
        previous = self.limits.current_w

        def job(report: Callable[[Any], None]) -> Any:
            from services.power.persist import keep_plan, run_steps

            with OpenedGpu(backend, index) as (source, gpu):
                check_range(watts, index, self.limits.min_w, self.limits.max_w)
                outcome = limit_setter(backend, source).apply(index, gpu.uuid, gpu.info.name, previous, watts, REASON_USER)
                kept: Any = None
                if outcome.ok and keep:
                    kept = run_steps(keep_plan(backend.system, gpu.uuid, watts).keep, backend.make_runner(),
                                     backend.elevation())
                return outcome, kept, gpu.limits()

        self.apply_button.setEnabled(False)
        self.result.setText(self.tr("Applying… (a password prompt may appear)"))
        self.work.submit(job, self._applied, self._failed)

    def undo(self) -> None:
        backend, index = self.backend, self.gpu_index

        def job(report: Callable[[Any], None]) -> Any:
            with OpenedGpu(backend, index) as (source, gpu):
                return limit_setter(backend, source).undo_last(gpu.uuid), None, gpu.limits()

        self.result.setText(self.tr("Undoing…"))
        self.work.submit(job, self._applied, self._failed)

    def _applied(self, outcome: tuple) -> None:
        limit, kept, self.limits = outcome
        if limit is None:
            self.result.setText(self.tr("Nothing to undo: the app has not changed this GPU's limit."))
        else:
            lines = [render(limit.message)]
            if kept is not None:
                ok, message = kept
                lines.append(self.tr("Kept after restarts.") if ok else render(message))
            elif limit.ok:
                lines.append(self.tr("It resets when the computer restarts."))
            self.result.setText("\n".join(lines))
        self.apply_button.setEnabled(True)
        self.info.setText(self.tr("Now {current} W.").format(current=watts_text(self.limits.current_w)))

    def done(self, result: int) -> None:
        self.work.shutdown()
        super().done(result)
