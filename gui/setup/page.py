"""The Setup page: environment doctor, setup wizard and troubleshooter.

Thin on purpose: the doctor, the plans, the executor, the wizard's decisions
(``WizardSession``: step states, which buttons apply, where to resume) and the
troubleshooter are services (``services.setup``); this page shows them and runs
slow work on a thread pool so the window never freezes.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QFileDialog, QHBoxLayout, QLabel, QMessageBox, QTabWidget, QVBoxLayout, QWidget,
)

from gui.context import SetupMachine
from gui.i18n import render
from gui.setup.cards import PAGE_STYLE
from gui.setup.doctor_tab import DoctorTab
from gui.setup.machine_access import open_machine
from gui.setup.step_list import StepList
from gui.widgets.background import BackgroundWork, describe_error
from gui.setup.troubleshoot_tab import TroubleshootTab
from gui.setup.wizard_tab import WizardTab
from services.i18n import Msg
from services.paths import AppPaths
from services.setup.card_lookup import card_names, resolve_card
from services.setup.doctor import run_doctor
from services.setup.doctor_report import DoctorReport
from services.setup.elevation import default_elevation
from services.setup.executor import StepExecutor, StepOutcome
from services.setup.progress import ProgressStore
from services.setup.plan import Plan, Step
from services.setup.planner import plan_for_report, setup_dir
from services.setup.rules import Rules, RulesError, load_rules
from services.setup.session import BY_HAND, DRY_RUN, NEEDS_FILE, NOTHING, WizardSession, step_flags
from services.setup.system import SystemRoot
from services.setup.target_systems import known_systems, plan_for_target


def qt_translate(context: str, text: str) -> str:
    """Translator for service text (comment lines of a step's commands)."""
    return QCoreApplication.translate(context, text)


class SetupPage(QWidget):
    """Doctor, wizard and troubleshooter for one machine.

    ``paths``: the app's folders (the setup work folder is in the data folder).
    ``machine`` may hold a runner, root, NVML binding, home and Windows probe
    (tests hand in fakes; None: this computer); with ``demo`` (the app's demo)
    and no runner handed in, the page shows a recorded machine.

    Signals:
        report_ready(object): a DoctorReport arrived.
        plan_ready(object): the Plan for this machine was rebuilt.
        step_finished(object): a StepOutcome of run/undo.
    """

    report_ready = Signal(object)
    plan_ready = Signal(object)
    step_finished = Signal(object)

    def __init__(self, paths: AppPaths, machine: SetupMachine | None = None, demo: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.paths = paths
        self.machine = machine
        self._app_demo = demo
        self._work_queue = BackgroundWork(self, max_threads=1, name="setup")  # one probe or step at a time, in order
        self.report: DoctorReport | None = None
        self._work = setup_dir(paths)
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
        m = open_machine(self.machine, self._app_demo, self._work)
        self.demo, self.system, self.windows_probe = m.demo, m.system, m.windows_probe
        self.runner, self.root, self.nvml, self.home = m.runner, m.root, m.nvml, m.home
        self.demo_python, self.active_python = m.demo_python, m.active_python

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
        self.steps = StepList(tab.step_list, self.session)
        # The tab owns its controls and says what was asked for; the page holds the session and answers.
        tab.step_selected.connect(self._on_step_row_changed)
        tab.pick_file_requested.connect(self._pick_windows_file)
        tab.run_requested.connect(self._on_run_clicked)
        tab.dry_run_toggled.connect(lambda _on: self._show_step(self.steps.current_step()))
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
            self._show_step(self.steps.current_step())

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
        current = self.steps.current_step()
        self.steps.fill(lambda x: self.tr("{title} (not needed)").format(title=render(x.step.title)),
                        self.palette().placeholderText())
        row = self.session.resume_index(current.id if current else None)  # the open one, else where to resume
        self._auto_select = current is None and not self.session.preview  # first plan: jump to where the work is once checks are in
        self.wizard.step_list.setCurrentRow(row)
        self._show_step(self.steps.current_step())

    def _on_full_toggled(self, _on: bool) -> None:
        # Another set of steps: start again at the first one not done.
        self.wizard.step_list.clear()
        self._rebuild_plan()

    def _on_target_changed(self, target: str) -> None:
        other = target == "other"
        self.wizard.show_target(other)
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
        os_choice, text, wanted = self.wizard.choose_other(os_key, card)
        target = self._targets.get(os_choice)
        try:
            device_id, name = resolve_card(self.rules, wanted)
        except ValueError:
            self.wizard.show_target_error(self.tr("'{text}' is neither a card GPU Assistant knows nor a PCI id (like 10de:2684).").format(text=text))
            return None
        self.wizard.show_target_error(None)
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
        self.steps.refresh_labels()
        if self.session.preview or self.plan is None:
            return  # the checks of this machine's plan came back after switching to another machine
        if getattr(self, "_auto_select", False):
            self._auto_select = False
            first = self.session.first_open()
            if first is not None:
                self.wizard.step_list.setCurrentRow(first)
        self._show_step(self.steps.current_step())
        self.plan_ready.emit(self.plan)

    def _on_step_row_changed(self, _row: int) -> None:
        self._show_step(self.steps.current_step())

    def open_step(self, step_id: str) -> None:
        self.tabs.setCurrentIndex(1)
        if self.plan:
            self.steps.select(step_id)

    def _show_step(self, step: Step | None) -> None:
        dry = self.wizard.dry_run_check.isChecked()
        self.wizard.show_actions(self.session.actions(step, busy=self.busy(), dry=dry))
        executor = self._view_executor()
        if step is None:
            skipped = self.steps.current_skipped()
            commands = executor.describe(skipped.step, plan=self.plan, tr=qt_translate) if skipped else []
            self.wizard.show_skipped(skipped, commands)
            return
        self.wizard.show_step(step, step_flags(step, self.plan.system if self.plan else ""),
                              None if self.session.preview else self.session.status(step),
                              executor.describe(step, plan=self.plan, tr=qt_translate),
                              executor.undo_preview(step, plan=self.plan, tr=qt_translate), dry)

    def _on_copy_clicked(self) -> None:
        step = self.steps.current_step()
        if step:
            QGuiApplication.clipboard().setText(self.wizard.step_commands.toPlainText())

    def _on_skip_clicked(self) -> None:
        step = self.steps.current_step()
        if step:
            self.executor.skip(step)
            self.steps.refresh_labels()
            self._advance()

    def _on_mark_done_clicked(self) -> None:
        step = self.steps.current_step()
        if step:
            self.executor.mark_done(step)
            self.steps.refresh_labels()
            self._advance()

    def _advance(self) -> None:
        if not self.steps.advance():
            self._show_step(self.steps.current_step())

    def _on_check_step_clicked(self) -> None:
        step = self.steps.current_step()
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
        step = self.steps.current_step()
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
        step = self.steps.current_step()
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
        self.wizard.append_log(outcome.log, self.system == "windows")  # as a run reports them
        self._on_step_done(outcome)

    def _on_step_done(self, outcome: StepOutcome) -> None:
        self.wizard.append_output(render(outcome.message) + "\n")
        self.steps.refresh_labels()
        self._set_busy(False)
        self.step_finished.emit(outcome)
        step = self.steps.current_step()
        if self.session.recheck_after(step, outcome.ok):
            self._succeeded = step  # said once the doctor has looked again
            self.run_doctor()  # the driver or torch changed: re-read, the plan follows

    def _on_run_done(self, outcome: StepOutcome) -> None:
        step = self.steps.current_step()
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
