"""The Setup wizard's list of steps read as the plan's steps: what each row says, which step is
open, and where to go next. The plan and the step states are the ``WizardSession``'s."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from gui.i18n import render
from services.setup.plan import SkippedStep, Step
from services.setup.session import WizardSession

STATE_MARKS = {"done": "✔", "skipped": "↷", "failed": "✖", "undone": "↺", "pending": "○"}
SKIPPED_PREFIX = "not-needed:"  # list items for steps the doctor found not needed


class StepList:
    """``widget``: the wizard tab's step list; a row holds its step's id (a skipped step's behind
    SKIPPED_PREFIX)."""

    def __init__(self, widget: QListWidget, session: WizardSession) -> None:
        self.widget = widget
        self.session = session
        self._skipped: dict[str, SkippedStep] = {}

    def fill(self, not_needed: Callable[[SkippedStep], str], not_needed_brush: QBrush) -> None:
        """A row per step of the session's plan, then one per skipped step (``not_needed`` its text)."""
        plan = self.session.plan
        assert plan is not None
        self._skipped = {x.step.id: x for x in plan.skipped}
        self.widget.blockSignals(True)
        self.widget.clear()
        for i, step in enumerate(plan.steps, 1):
            item = QListWidgetItem(self.label(i, step))
            item.setData(Qt.ItemDataRole.UserRole, step.id)
            self.widget.addItem(item)
        for x in plan.skipped:
            item = QListWidgetItem("–  " + not_needed(x))
            item.setData(Qt.ItemDataRole.UserRole, SKIPPED_PREFIX + x.step.id)
            item.setForeground(not_needed_brush)
            self.widget.addItem(item)
        self.widget.blockSignals(False)

    def label(self, index: int, step: Step) -> str:
        state = self.session.state(step)
        return f"{STATE_MARKS.get(state, '○')}  {index}. {render(step.title)}"

    def refresh_labels(self) -> None:
        plan = self.session.plan
        if not plan:
            return
        for i, step in enumerate(plan.steps):
            self.widget.item(i).setText(self.label(i + 1, step))

    def current_step(self) -> Step | None:
        plan = self.session.plan
        if not plan or self.widget.currentRow() < 0:
            return None
        return plan.step(self.widget.currentItem().data(Qt.ItemDataRole.UserRole))

    def current_skipped(self) -> SkippedStep | None:
        item = self.widget.currentItem() if self.session.plan else None
        data = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if isinstance(data, str) and data.startswith(SKIPPED_PREFIX):
            return self._skipped.get(data[len(SKIPPED_PREFIX):])
        return None

    def select(self, step_id: str) -> None:
        """Open the row of ``step_id`` (planned or skipped), if the list has one."""
        for i in range(self.widget.count()):
            if self.widget.item(i).data(Qt.ItemDataRole.UserRole) in (step_id, SKIPPED_PREFIX + step_id):
                self.widget.setCurrentRow(i)
                return

    def advance(self) -> bool:
        """Open the next step not done; False when the open one stays (the caller shows it again)."""
        row = self.widget.currentRow()
        target = self.session.next_open(row)
        if target == row:
            return False
        self.widget.setCurrentRow(target)
        return True
