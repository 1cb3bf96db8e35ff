"""The "How to run it" tab: services.modelfit.plan's options for the chosen card, best first, each with
the memory it leaves and the speed to expect, and a button that copies the selected command."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from gui.i18n import render
from services.modelfit.plan import RunPlan

COMMAND_ROLE = Qt.ItemDataRole.UserRole


class RunPlanView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plan: RunPlan | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        self.option_list = QListWidget()
        self.option_list.setObjectName("fitPlanList")
        self.option_list.setWordWrap(True)
        self.option_list.currentItemChanged.connect(self._sync_button)
        layout.addWidget(self.option_list, 1)
        row = QHBoxLayout()
        self.fit_label = QLabel()
        self.fit_label.setWordWrap(True)
        self.fit_label.setProperty("role", "muted")
        row.addWidget(self.fit_label, 1)
        self.copy_button = QPushButton(self.tr("Copy command"))
        self.copy_button.setToolTip(self.tr("Copy the selected option's command line (or Modelfile lines)"))
        self.copy_button.clicked.connect(self.copy_selected)
        row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(row)
        self.show_plan(None)

    def show_plan(self, plan: RunPlan | None, reason: str = "") -> None:
        self.plan = plan
        self.option_list.clear()
        self.fit_label.setText("")
        if plan is None or not plan.options:
            item = QListWidgetItem(reason or self.tr("Pick a GPU and the inference task to see how to run the model."))
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.option_list.addItem(item)
            self._sync_button()
            return
        for o in plan.options:
            if o.fits and o.ram_ok:
                state = self.tr("~{tps:.0f} tokens/s").format(tps=o.tokens_per_s) if o.tokens_per_s else self.tr("fits")
                color = "#3f7d00"
            elif o.fits:
                state, color = self.tr("needs more system RAM than this PC has"), "#c62828"
            else:
                state, color = self.tr("does not fit"), "#52606d"
            head = self.tr("{title}: {gpu:.1f} GiB on the GPU, {host:.1f} GiB in system RAM · {state}").format(
                title=render(o.title), gpu=o.gpu_gib, host=o.host_gib, state=state)
            item = QListWidgetItem(head + "\n" + "\n".join("    " + line for line in o.command.splitlines()))
            item.setForeground(QColor(color))
            item.setData(COMMAND_ROLE, o.command)
            item.setToolTip(o.command)
            self.option_list.addItem(item)
        self.option_list.setCurrentRow(0)
        self.fit_label.setText(render(plan.llamacpp_fit) if plan.llamacpp_fit is not None else "")
        self._sync_button()

    def selected_command(self) -> str | None:
        item = self.option_list.currentItem()
        return None if item is None else item.data(COMMAND_ROLE)

    def copy_selected(self) -> None:
        command = self.selected_command()
        if command:
            QGuiApplication.clipboard().setText(command)

    def _sync_button(self, *_args) -> None:
        self.copy_button.setEnabled(bool(self.selected_command()))
