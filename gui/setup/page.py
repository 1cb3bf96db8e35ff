"""The Setup page: environment doctor, setup wizard and troubleshooter.

Thin on purpose: the doctor, the plans, the executor, the wizard's decisions
(``WizardSession``: step states, which buttons apply, where to resume) and the
troubleshooter are services (``services.setup``); this page shows them and runs
slow work on a thread pool so the window never freezes.
"""
from __future__ import annotations

import platform
import sys
from pathlib import Path
from typing import Any
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QFileDialog, QHBoxLayout, QLabel, QListWidgetItem,
    QMessageBox, QTabWidget, QVBoxLayout, QWidget,
)

from gui.context import AppContext, SetupMachine
from gui.i18n import render
from gui.setup.doctor_tab import DoctorTab
from gui.widgets.background import BackgroundWork, describe_error
from gui.setup.troubleshoot_tab import TroubleshootTab
from gui.setup.wizard_tab import WizardTab
from services.i18n import Msg
from services.setup.card_lookup import card_names, resolve_card
from services.setup.doctor import run_doctor
from services.setup.doctor_report import DoctorReport
from services.setup.elevation import default_elevation
from services.setup.executor import StepExecutor, StepOutcome
from services.setup.fmt import command_line
from services.setup.plan import Plan, SkippedStep, Step
from services.setup.planner import plan_for_report, setup_dir
from services.setup.progress import ProgressStore
from services.setup.rules import Rules, RulesError, load_rules
from services.setup.session import BY_HAND, DRY_RUN, NEEDS_FILE, NOTHING, WizardSession, step_flags
from services.setup.system import SubprocessRunner, SystemRoot
from services.setup.target_systems import known_systems, plan_for_target

STATE_MARKS = {"done": "✔", "skipped": "↷", "failed": "✖", "undone": "↺", "pending": "○"}
SKIPPED_PREFIX = "not-needed:"  # list items for steps the doctor found not needed

PAGE_STYLE = """
QLabel#cardTitle { font-weight: 600; font-size: 11pt; }
QLabel#badge { border-radius: 9px; padding: 2px 10px; color: white; background: #6b7280; }
QListWidget#steps::item { padding: 7px 4px; }
QFrame#facts { border: 1px solid palette(mid); border-radius: 6px; background: palette(base); }
"""


def qt_translate(context: str, text: str) -> str:
    """Translator for service text (comment lines of a step's commands)."""
    return QCoreApplication.translate(context, text)


class SetupPage(QWidget):
    """Doctor, wizard and troubleshooter for one machine.

    ``context.setup_machine`` may hold a runner, root, NVML binding, home and
    Windows probe (tests hand in fakes); with ``context.demo`` and no runner
    handed in, the page shows a recorded machine.

    Signals:
        report_ready(object): a DoctorReport arrived.
        plan_ready(object): the Plan for this machine was rebuilt.
        step_finished(object): a StepOutcome of run/undo.
    """

    report_ready = Signal(object)
    plan_ready = Signal(object)
    step_finished = Signal(object)

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self._work_queue = BackgroundWork(self, max_threads=1, name="setup")  # one probe or step at a time, in order
        self.report: DoctorReport | None = None
        self._work = setup_dir(context.paths)
        self._rules_error: Msg | None = None
        try:
            self.rules: Rules | None = load_rules()
        except RulesError as exc:
            self.rules, self._rules_error = None, exc.message
        self._setup_machine()
        self.progress = ProgressStore(self._work / "progress.json").load()
        self.executor = StepExecutor(
            self.runner, self.root, self.progress, self._work / "backups",
            elevation="none" if self.demo else default_elevation(self.system, gui=True, root=self.root),
            system=self.system,
        )
        # The plan shown, its check results and whether it is another machine's: the wizard's
        # decisions (states, buttons, where to resume) are the session's; the page shows them.
        self.session = WizardSession(self.progress)
        # Asked before a step restarts the computer; tests replace it.
        self.confirm: Callable[[str], bool] = self._confirm_dialog
        self.setStyleSheet(PAGE_STYLE)
        self._started = False
        self._build()

    @property
    def plan(self) -> Plan | None:
        return self.session.plan

    @property
    def check_states(self) -> dict[str, str]:
        return self.session.checks

    def showEvent(self, event) -> None:  # Qt's name
        # Probe only when the page is first shown: opening the app stays fast.
        super().showEvent(event)
        if not self._started and self.rules is not None:
            self._started = True
            self.run_doctor()

    # ---- machine access ------------------------------------------------------------------
    def _setup_machine(self) -> None:
        machine = self.context.setup_machine or SetupMachine()
        self.demo = bool(self.context.demo) and machine.runner is None
        self.system = machine.system or ("windows" if platform.system() == "Windows" else "linux")
        self.windows_probe = machine.windows_probe
        if self.demo:
            from services.setup.demo import demo_machine

            demo = demo_machine(self._work / "demo-root")
            self.runner, self.root, self.nvml = demo.runner, demo.root, demo.nvml
            self.home = None
            self.demo_python = demo.python
            self.active_python = None
            self.system = "linux"
            return
        # The interpreter the user is in (active venv or conda env, python3/python on PATH), from the
        # machine model; only on this computer itself, never for a recorded or test machine.
        from services.setup.machine import active_python

        self.active_python = active_python() if machine.runner is None and machine.root is None else None
        self.runner = machine.runner or SubprocessRunner()
        self.root = machine.root or SystemRoot()
        self.nvml = machine.nvml
        self.home = machine.home if machine.home is not None else Path.home()
        self.demo_python = None
        if self.system == "windows" and self.windows_probe is None and sys.platform == "win32":
            from services.setup.windows import LiveWindowsProbe

            self.windows_probe = LiveWindowsProbe(self.runner)

    # ---- layout ------------------------------------------------------------------------------
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(18, 14, 18, 14)
        head = QHBoxLayout()
        heading = self.tr("Driver, CUDA & PyTorch")
        title = QLabel(f"<h2>{heading}</h2>")
        head.addWidget(title)
        head.addStretch(1)
        if self.demo:
            badge = QLabel(self.tr("Demo: a recorded machine"))
            badge.setObjectName("badge")
            head.addWidget(badge)
        outer.addLayout(head)
        if self._rules_error:
            err = QLabel(self.tr("The rules file could not be read: {error}").format(error=render(self._rules_error)))
            err.setWordWrap(True)
            outer.addWidget(err)
        if self.progress.load_problem_text:  # a damaged progress.json was kept aside: say so, as the CLI does
            self.progress_problem_label = QLabel(self.tr("Saved setup progress: {problem}").format(
                problem=render(self.progress.load_problem_text)))
            self.progress_problem_label.setWordWrap(True)
            outer.addWidget(self.progress_problem_label)
        self.tabs = QTabWidget(self)
        windows = self.system == "windows"
        self.doctor_tab = DoctorTab(self.demo_python, self.home, windows, self.open_step, active=self.active_python)
        self.doctor_tab.check_requested.connect(self.run_doctor)
        self.troubleshoot_tab = TroubleshootTab(windows, self.open_step)
        self.tabs.addTab(self.doctor_tab, self.tr("Doctor"))
        self.tabs.addTab(self._build_wizard(), self.tr("Setup wizard"))
        self.tabs.addTab(self.troubleshoot_tab, self.tr("Troubleshooter"))
        outer.addWidget(self.tabs, 1)

    def _build_wizard(self) -> QWidget:
        self._targets = {t.key: t for t in known_systems()}
        tab = self.wizard = WizardTab(self._targets.values(), card_names(self.rules) if self.rules else ())
        # The tab owns its controls and says what was asked for; the page holds the session and answers.
        tab.step_selected.connect(self._on_step_row_changed)
        tab.pick_file_requested.connect(self._pick_windows_file)
        tab.run_requested.connect(self._on_run_clicked)
        tab.dry_run_toggled.connect(lambda _on: self._show_step(self._current_step()))
        tab.skip_requested.connect(self._on_skip_clicked)
        tab.mark_done_requested.connect(self._on_mark_done_clicked)
        tab.copy_requested.connect(self._on_copy_clicked)
        tab.check_requested.connect(self._on_check_step_clicked)
        tab.undo_requested.connect(self._on_undo_clicked)
        tab.target_changed.connect(self._on_target_changed)
        tab.full_toggled.connect(self._on_full_toggled)
        tab.plan_other_requested.connect(lambda: self.plan_other_machine())
        self._preview_executor: StepExecutor | None = None
        self._succeeded: Step | None = None  # a step that ran well, while the doctor looks again
        self._shown_plan: tuple = ()
        self._skipped: dict[str, SkippedStep] = {}
        # The files picked for this machine's plan come back from progress.json, so the
        # wizard reopened in Safe Mode (RunOnce) still has the DDU and driver package.
        self._windows_options: dict[str, str] = self.session.picked_files()
        self._show_step(None)
        return tab

    # ---- environments --------------------------------------------------------------------------
    def select_python(self, path: str) -> None:
        self.doctor_tab.select_python(path)

    # ---- background work ------------------------------------------------------------------------
    def _start(self, fn: Callable[[Callable[[str], None]], Any], done: Callable[[Any], None],
               line: Callable[[str], None] | None = None) -> None:
        self._work_queue.submit(fn, done, self._on_task_failed, line)

    def _on_task_failed(self, exc: BaseException) -> None:
        self._set_busy(False)
        self.doctor_tab.doctor_status.setText(self.tr("Something went wrong: {error}").format(error=describe_error(exc)))

    def _set_busy(self, busy: bool) -> None:
        for w in (self.doctor_tab.check_button, self.wizard.run_button, self.wizard.undo_button, self.wizard.skip_button, self.wizard.done_button,
                  self.wizard.check_step_button):
            w.setEnabled(not busy)
        if not busy:
            self._show_step(self._current_step())

    def busy(self) -> bool:
        return self._work_queue.busy()

    # ---- doctor ---------------------------------------------------------------------------------
    def run_doctor(self) -> None:
        if self.rules is None or self.busy():
            return
        python = self.doctor_tab.env_combo.currentData()
        how = self.doctor_tab.python_how(python)
        self._set_busy(True)
        self.doctor_tab.doctor_status.setText(self.tr("Checking the driver and the environment…"))
        rules, runner, root, nvml, probe, system = self.rules, self.runner, self.root, self.nvml, self.windows_probe, self.system

        def work(_line):
            return run_doctor(runner, rules, python=python, root=root, nvml_module=nvml, windows_probe=probe,
                              system=system, python_how=how)

        self._start(work, self._on_report)

    def _on_report(self, report: DoctorReport) -> None:
        self.report = report
        self.doctor_tab.show_report(report)
        self._rebuild_plan()
        succeeded, self._succeeded = self._succeeded, None
        if succeeded is not None:
            self._say_after_success(succeeded, {f.code for f in report.findings})
        self._set_busy(False)
        self.report_ready.emit(report)

    # ---- wizard -----------------------------------------------------------------------------------
    def _rebuild_plan(self) -> None:
        if self.report is None or self.rules is None or self.session.preview:
            return
        if self.report.gpu is None:
            # Nothing to set up here, but the wizard still plans for the machine the card goes into.
            self.session.plan = None
            self.wizard.step_list.clear()
            self._show_step(None)
            self.wizard.target_combo.setCurrentIndex(self.wizard.target_combo.findData("other"))
            return
        from services.setup.windows_plan import WindowsPlanOptions

        options = WindowsPlanOptions(**self._windows_options)
        self.session.plan = plan_for_report(self.report, self.rules, self.root, self._work / "staged", options,
                                            full=self.wizard.full_check.isChecked())
        self.progress.adopt(self.plan)
        self._fill_steps()
        self._check_all()

    def _fill_steps(self) -> None:
        assert self.plan is not None
        shown = (self.plan.key, self.plan.mode, self.session.preview)
        if shown != self._shown_plan:  # another plan: the old one's output is not about it
            self.wizard.step_output.clear()
            self._shown_plan = shown
        self.wizard.plan_summary.setText(render(self.plan.summary))
        notes = [render(n) for n in self.plan.notes]
        if self.session.preview:
            notes.insert(0, self.tr("A plan for another machine: nothing runs on this computer. Copy the commands, or run 'python main.py setup' on that machine."))
        self.wizard.plan_notes.setText("\n".join("• " + n for n in notes))
        self._skipped = {x.step.id: x for x in self.plan.skipped}
        current = self._current_step()
        self.wizard.step_list.blockSignals(True)
        self.wizard.step_list.clear()
        for i, step in enumerate(self.plan.steps, 1):
            item = QListWidgetItem(self._step_label(i, step))
            item.setData(Qt.ItemDataRole.UserRole, step.id)
            self.wizard.step_list.addItem(item)
        for x in self.plan.skipped:
            item = QListWidgetItem("–  " + self.tr("{title} (not needed)").format(title=render(x.step.title)))
            item.setData(Qt.ItemDataRole.UserRole, SKIPPED_PREFIX + x.step.id)
            item.setForeground(self.palette().placeholderText())
            self.wizard.step_list.addItem(item)
        self.wizard.step_list.blockSignals(False)
        row = self.session.resume_index(current.id if current else None)  # the open one, else where to resume
        self._auto_select = current is None and not self.session.preview  # first plan: jump to where the work is once checks are in
        self.wizard.step_list.setCurrentRow(row)
        self._show_step(self._current_step())

    def _on_full_toggled(self, _on: bool) -> None:
        # Another set of steps: start again at the first one not done.
        self.wizard.step_list.clear()
        self._rebuild_plan()

    def _on_target_changed(self, target: str) -> None:
        other = target == "other"
        self.wizard.other_box.setVisible(other)
        self.wizard.full_check.setVisible(not other)
        self.wizard.target_error.setVisible(False)
        if other:
            self.session.preview = True
            self.session.plan = None
            self.wizard.step_list.clear()
            self._show_step(None)
            if self.report is not None and self.report.gpu is None:
                self.wizard.plan_summary.setText(self.tr("No NVIDIA GPU was found on this computer. Plan for the machine the card goes into: pick its system and card, then 'Show the plan'."))
            else:
                self.wizard.plan_summary.setText(self.tr("Pick the other machine's system and card, then 'Show the plan'."))
            self.wizard.plan_notes.setText("")
        else:
            self.session.preview = False
            self.session.plan = None
            self.wizard.step_list.clear()
            self.wizard.plan_summary.setText(self.tr("The plan appears after the checks."))
            self._rebuild_plan()

    def plan_other_machine(self, os_key: str | None = None, card: str | None = None) -> Plan | None:
        """Show the full plan for another machine (as 'setup --plan --os-release/--windows --gpu')."""
        if self.rules is None:
            return None
        if os_key is not None:
            self.wizard.os_combo.setCurrentIndex(max(0, self.wizard.os_combo.findData(os_key)))
        if card is not None:
            self.wizard.card_combo.setEditText(card)
        if self.wizard.target_combo.currentData() != "other":
            self.wizard.target_combo.setCurrentIndex(self.wizard.target_combo.findData("other"))
        target = self._targets.get(self.wizard.os_combo.currentData())
        text = self.wizard.card_combo.currentText()
        index = self.wizard.card_combo.findText(text)
        try:
            if index >= 0:
                device_id, name = resolve_card(self.rules, self.wizard.card_combo.itemData(index))
            else:
                device_id, name = resolve_card(self.rules, text)
        except ValueError:
            self.wizard.target_error.setText(self.tr("'{text}' is neither a card GPU Assistant knows nor a PCI id (like 10de:2684).").format(text=text))
            self.wizard.target_error.setVisible(True)
            return None
        self.wizard.target_error.setVisible(False)
        if target is None:
            return None
        from services.setup.windows_plan import WindowsPlanOptions

        self.session.preview = True
        # The other machine's own paths (/etc/...), not this page's root (a demo or test folder).
        self.session.plan = plan_for_target(self.rules, target, device_id, name, self._work / "staged", None,
                                            WindowsPlanOptions(**self._windows_options))
        system = self.plan.system
        self._preview_executor = StepExecutor(
            self.runner, SystemRoot(), ProgressStore(self._work / "preview-progress.json"), self._work / "backups",
            elevation="uac" if system == "windows" else "sudo", system=system, probe_files=False)
        self.session.checks = {}
        self._fill_steps()
        self.plan_ready.emit(self.plan)
        return self.plan

    def _view_executor(self) -> StepExecutor:
        """The executor that describes the plan shown (another machine's has no progress, reads nothing)."""
        if self.session.preview and self._preview_executor is not None:
            return self._preview_executor
        return self.executor

    def _check_all(self) -> None:
        """Run every step's check in the background: the list shows what is already done."""
        plan, executor = self.plan, self.executor
        if plan is None or self.session.preview:
            return

        def work(_line):
            return {s.id: executor.check(s).state for s in plan.steps}

        self._start(work, self._on_checks)

    def _on_checks(self, states: dict) -> None:
        self.session.checks = states
        self._refresh_step_labels()
        if self.session.preview or self.plan is None:
            return  # the checks of this machine's plan came back after switching to another machine
        if getattr(self, "_auto_select", False):
            self._auto_select = False
            first = self.session.first_open()
            if first is not None:
                self.wizard.step_list.setCurrentRow(first)
        self._show_step(self._current_step())
        self.plan_ready.emit(self.plan)

    def _step_label(self, index: int, step: Step) -> str:
        state = self.session.state(step)
        return f"{STATE_MARKS.get(state, '○')}  {index}. {render(step.title)}"

    def _refresh_step_labels(self) -> None:
        if not self.plan:
            return
        for i, step in enumerate(self.plan.steps):
            self.wizard.step_list.item(i).setText(self._step_label(i + 1, step))

    def _current_step(self) -> Step | None:
        if not self.plan or self.wizard.step_list.currentRow() < 0:
            return None
        return self.plan.step(self.wizard.step_list.currentItem().data(Qt.ItemDataRole.UserRole))

    def _current_skipped(self) -> SkippedStep | None:
        item = self.wizard.step_list.currentItem() if self.plan else None
        data = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if isinstance(data, str) and data.startswith(SKIPPED_PREFIX):
            return self._skipped.get(data[len(SKIPPED_PREFIX):])
        return None

    def _on_step_row_changed(self, _row: int) -> None:
        self._show_step(self._current_step())

    def open_step(self, step_id: str) -> None:
        self.tabs.setCurrentIndex(1)
        if not self.plan:
            return
        for i in range(self.wizard.step_list.count()):
            if self.wizard.step_list.item(i).data(Qt.ItemDataRole.UserRole) in (step_id, SKIPPED_PREFIX + step_id):
                self.wizard.step_list.setCurrentRow(i)
                return

    def _show_step(self, step: Step | None) -> None:
        dry = self.wizard.dry_run_check.isChecked()
        can = self.session.actions(step, busy=self.busy(), dry=dry)
        self.wizard.run_button.setEnabled(can.run)
        self.wizard.skip_button.setEnabled(can.skip)
        self.wizard.check_step_button.setEnabled(can.check)
        self.wizard.copy_button.setEnabled(can.copy)
        self.wizard.dry_run_check.setEnabled(can.copy)
        self.wizard.undo_button.setEnabled(can.undo)
        self.wizard.done_button.setEnabled(can.mark_done)
        self.wizard.pick_driver_button.setVisible(can.pick_driver)
        self.wizard.pick_ddu_button.setVisible(can.pick_ddu)
        skipped = None if step is not None else self._current_skipped()
        if step is None:
            self.wizard.step_title.setText(render(skipped.step.title) if skipped else "")
            self.wizard.step_flags.setText(self.tr("not in this plan") if skipped else "")
            self.wizard.step_text.setText(render(skipped.reason) + "<br>" + self.tr("Tick 'Reinstall everything' to do it anyway.") if skipped else "")
            self.wizard.step_commands.setPlainText("\n".join(self._view_executor().describe(skipped.step, plan=self.plan, tr=qt_translate)) if skipped else "")
            self.wizard.undo_text.setPlainText("")
            return
        self.wizard.step_title.setText(render(step.title))
        flag_words = {"admin": self.tr("needs administrator rights"), "root": self.tr("needs root (asks for your password)"),
                      "reboot": self.tr("restarts the computer"), "by hand": self.tr("you do this step")}
        flags = [flag_words[f] for f in step_flags(step, self.plan.system if self.plan else "")]
        if self.session.preview:
            flags.append(self.tr("for another machine"))
        else:
            status = self.session.status(step)
            words = {"done": self.tr("done"), "skipped": self.tr("skipped"), "failed": self.tr("failed"),
                     "undone": self.tr("undone"), "pending": self.tr("not run yet"),
                     "already-done": self.tr("already done (its check passes)"),
                     "waits": self.tr("waits: a step before it still needs doing, or ran after it")}
            flags.append(self.tr("status: {state}").format(state=words.get(status, status)))
        self.wizard.step_flags.setText("  ·  ".join(flags))
        text = render(step.explanation)
        if step.link:
            text += f'<br><a href="{step.link}">{step.link}</a>'
        if step.source:
            text += "<br><small>" + self.tr("Source: {source}").format(source=step.source) + "</small>"
        self.wizard.step_text.setText(text)
        executor = self._view_executor()
        self.wizard.step_commands.setPlainText("\n".join(executor.describe(step, plan=self.plan, tr=qt_translate)) or self.tr("(no commands: follow the explanation)"))
        self.wizard.undo_text.setPlainText("\n".join(executor.undo_preview(step, plan=self.plan, tr=qt_translate)))
        self.wizard.run_button.setText(self.tr("Show what would run") if dry else self.tr("Run"))
        self.wizard.undo_button.setText(self.tr("Show the undo") if dry else self.tr("Undo"))

    def _on_copy_clicked(self) -> None:
        step = self._current_step()
        if step:
            QGuiApplication.clipboard().setText(self.wizard.step_commands.toPlainText())

    def _on_skip_clicked(self) -> None:
        step = self._current_step()
        if step:
            self.executor.skip(step)
            self._refresh_step_labels()
            self._advance()

    def _on_mark_done_clicked(self) -> None:
        step = self._current_step()
        if step:
            self.executor.mark_done(step)
            self._refresh_step_labels()
            self._advance()

    def _advance(self) -> None:
        row = self.wizard.step_list.currentRow()
        target = self.session.next_open(row)
        if target != row:
            self.wizard.step_list.setCurrentRow(target)
        else:
            self._show_step(self._current_step())

    def _on_check_step_clicked(self) -> None:
        step = self._current_step()
        if not step:
            return
        self._set_busy(True)
        executor = self.executor
        self._start(lambda _l: executor.check(step), self._on_check_result)

    def _on_check_result(self, result) -> None:
        words = {"done": self.tr("already done"), "not_done": self.tr("not done yet"), "unknown": self.tr("cannot tell")}
        self.wizard.append_output(self.tr("Check: {state}").format(state=words.get(result.state, result.state))
                                         + (f" ({result.detail})" if result.detail else ""))
        self._set_busy(False)

    def _on_run_clicked(self) -> None:
        step = self._current_step()
        if not step:
            return
        mode = self.session.run_mode(step, dry=self.wizard.dry_run_check.isChecked(), demo=self.demo)
        if mode == DRY_RUN:
            outcome = self._view_executor().dry_run(step)
            self.wizard.append_output("\n".join(outcome.lines))
            note = render(outcome.message)
            if self.demo:
                note += "  " + self.tr("(demo machine: nothing runs)")
            self.wizard.append_output(note + "\n")
            return
        if mode == BY_HAND:
            if step.link:
                QDesktopServices.openUrl(QUrl(step.link))
            self.wizard.append_output(render(step.explanation) + "\n")
            return
        if mode == NEEDS_FILE:
            self.wizard.append_output(self.tr("Choose the file first: {what}").format(what=self.session.missing_file(step)) + "\n")
            return
        if self.session.asks_first(step) and not self.confirm(self.tr("This step restarts the computer. Save your work first. Continue?")):
            return
        self._set_busy(True)
        executor, plan = self.executor, self.plan
        self.wizard.append_output("— " + render(step.title))
        self._start(lambda line: executor.run(step, on_line=line, plan=plan), self._on_run_done,
                    line=self.wizard.append_output)

    def _on_undo_clicked(self) -> None:
        step = self._current_step()
        if not step:
            return
        mode = self.session.undo_mode(dry=self.wizard.dry_run_check.isChecked(), demo=self.demo)
        if mode == DRY_RUN:
            outcome = self.executor.undo(step, dry_run=True)
            self.wizard.append_output("\n".join(outcome.lines) + "\n" + render(outcome.message) + "\n")
            return
        if mode == NOTHING:
            return
        self._set_busy(True)
        executor = self.executor
        self._start(lambda _l: executor.undo(step), self._on_undo_done)

    def _on_undo_done(self, outcome: StepOutcome) -> None:
        # An undo reports its commands and their output like a run does.
        for entry in outcome.log:
            self.wizard.append_output("$ " + command_line(entry.argv, self.system == "windows"))
            if entry.output.strip():
                self.wizard.append_output(entry.output.rstrip())
        self._on_step_done(outcome)

    def _on_step_done(self, outcome: StepOutcome) -> None:
        self.wizard.append_output(render(outcome.message) + "\n")
        self._refresh_step_labels()
        self._set_busy(False)
        self.step_finished.emit(outcome)
        step = self._current_step()
        if self.session.recheck_after(step, outcome.ok):
            self._succeeded = step  # said once the doctor has looked again
            self.run_doctor()  # the driver or torch changed: re-read, the plan follows

    def _on_run_done(self, outcome: StepOutcome) -> None:
        step = self._current_step()
        self._on_step_done(outcome)
        if outcome.ok and step is not None and self._succeeded is None:
            self._say_after_success(step, set())

    def _say_after_success(self, step: Step, codes: set[str]) -> None:
        lines = self.session.after_success(step, codes)
        if lines:
            self.wizard.append_output("\n".join(render(x) for x in lines) + "\n")

    def _confirm_dialog(self, text: str) -> bool:
        answer = QMessageBox.question(self, self.tr("Restart needed"), text)
        return answer == QMessageBox.StandardButton.Yes

    def _pick_windows_file(self, key: str) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose the file"), "", "*.exe")
        if path:
            self.set_windows_file(key, path)

    def set_windows_file(self, key: str, path: str) -> None:
        self._windows_options[key] = path
        self.session.pick_file(key, path)
        if self.session.preview:
            self.plan_other_machine()
        else:
            self._rebuild_plan()

    # ---- troubleshooter ---------------------------------------------------------------------------
    def explain_text(self, text: str) -> list:
        self.troubleshoot_tab.report = self.report
        return self.troubleshoot_tab.explain_text(text)

    # ---- lifecycle -------------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Wait for the running probe or step (they have timeouts), then stop."""
        self._work_queue.shutdown(timeout_s=120)
