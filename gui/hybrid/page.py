"""Hybrid GPU page: the GPUs, which GPU each program really uses, and putting a program on
the NVIDIA GPU. All work is done by ``services.hybrid``; sampling runs off the GUI thread."""
from __future__ import annotations

import shlex
import threading
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSplitter,
    QVBoxLayout, QWidget,
)

from gui.hybrid.adapters import InventoryPanel
from gui.hybrid.details import ProgramDetails, esc
from gui.hybrid.programs import ProgramList
from gui.i18n import render
from gui.widgets.background import BackgroundWork, Job, describe_error
from gui.widgets.visible_timer import VisibleTimer
from services.hybrid.launch import LaunchReport
from services.hybrid.model import Placement, ProcessReport, ScanResult
from services.hybrid.preference import PlanError, PreferencePlan
from services.hybrid.preference_store import AppliedRecord

if TYPE_CHECKING:
    from services.hybrid.service import HybridService

REFRESH_MS = 3000
FIRST_INTERVAL_S = 0.5
INTERVAL_S = 1.0
# Below this page width the action buttons stack, so the program list keeps room for its names.
NARROW_PAGE_PX = 1000


class PlanDialog(QDialog):
    """Shows the exact change before anything is written."""

    def __init__(self, plan: PreferencePlan, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plan = plan
        self.setWindowTitle(self.tr("Run on the NVIDIA GPU"))
        self.resize(760, 460)
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr("GPU Assistant will make exactly these changes. The old state is backed up and "
                               "the change can be undone from this page or with the command line."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.text = QPlainTextEdit("\n".join(render(change.describe()) for change in plan.changes))
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        layout.addWidget(self.text, 1)
        notes = QLabel("<br>".join("• " + esc(render(n)) for n in plan.notes))
        notes.setWordWrap(True)
        layout.addWidget(notes)
        buttons = QDialogButtonBox(self)
        self.apply_button = buttons.addButton(self.tr("Apply"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class HybridPage(QWidget):
    """Signals:
        scan_done(object): a ScanResult was shown.
        launch_done(object): a LaunchReport was shown (None when the launch failed).
        preference_applied(object): an AppliedRecord after "Run on the NVIDIA GPU".
    """

    scan_done = Signal(object)
    launch_done = Signal(object)
    preference_applied = Signal(object)

    def __init__(self, service: HybridService, parent: QWidget | None = None) -> None:
        """``service``: this computer's hybrid-GPU service, or the demo machine's (``gui.pages``)."""
        super().__init__(parent)
        self.service = service
        self.result: ScanResult | None = None
        self._stop = threading.Event()
        self._work = BackgroundWork(self, max_threads=2, name="hybrid")  # a scan and a launch may overlap
        self._scan_job: Job | None = None
        self._launch_job: Job | None = None
        self._last_record = None
        self._plan_dialog: PlanDialog | None = None
        self._auto_all_done = False
        # A scan when the page is shown, then one REFRESH_MS after each scan ends, while it stays shown.
        self._timer = VisibleTimer(self, REFRESH_MS, self.refresh, fire_on_show=True, single_shot=True,
                                   name="hybrid-refresh")
        self._build()

    # ---- layout
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 12, 16, 12)
        outer.setSpacing(10)
        outer.addLayout(self._build_head())
        self.inventory = InventoryPanel()
        outer.addWidget(self.inventory)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setChildrenCollapsible(False)
        outer.addWidget(splitter, 1)
        self.programs = ProgramList()
        self.programs.filter_edit.textChanged.connect(self._on_filter_changed)
        self.programs.show_all_toggled.connect(self._on_all_toggled)
        self.programs.selection_changed.connect(self._on_selection_changed)
        splitter.addWidget(self.programs)
        self.details = ProgramDetails()
        self.details.prefer_button.clicked.connect(self._on_prefer_clicked)
        self.details.launch_button.clicked.connect(self._on_launch_clicked)
        self.details.undo_button.clicked.connect(self._on_undo_clicked)
        splitter.addWidget(self.details)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([680, 380])
        self._update_actions()
        self.programs.show_empty(self.tr("Sampling…"))

    def _build_head(self) -> QHBoxLayout:
        head = QHBoxLayout()
        self.status_label = QLabel(self.tr("Looking for GPUs…"))
        self.status_label.setProperty("role", "muted")
        title_text = self.tr("Hybrid GPU")
        title = QLabel(f"<h2 style='margin:0'>{title_text}</h2>")
        subtitle = QLabel(self.tr("Which GPU each program really uses, and how to move it to the NVIDIA GPU"))
        subtitle.setProperty("role", "muted")
        titles = QVBoxLayout()
        titles.setSpacing(0)
        titles.addWidget(title)
        titles.addWidget(subtitle)
        head.addLayout(titles, 1)
        head.addWidget(self.status_label, 0, Qt.AlignmentFlag.AlignBottom)
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.refresh_button.clicked.connect(self.refresh)
        head.addWidget(self.refresh_button, 0, Qt.AlignmentFlag.AlignBottom)
        return head

    # ---- polling
    def refresh(self) -> None:
        """Start one scan unless one is running; the next is scheduled when it ends."""
        if self._scan_job is not None and self._scan_job.is_running():
            return
        interval = FIRST_INTERVAL_S if self.result is None else INTERVAL_S
        self.status_label.setText(self.tr("Sampling…"))
        service, include_all, stop = self.service, self.programs.all_check.isChecked(), self._stop

        def scan(_report):
            result = service.scan(interval, stop=stop, include_all=include_all)
            return result, service.system_modes()  # runs small commands: never on the GUI thread

        self._scan_job = self._work.submit(
            scan, lambda outcome: self._on_scan_finished(*outcome, None),
            lambda exc: self._on_scan_finished(None, None, describe_error(exc)))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._stop.clear()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.details.set_stacked(self.width() < NARROW_PAGE_PX)

    def shutdown(self) -> None:
        self._timer.stop()
        self._stop.set()
        self._work.shutdown(timeout_s=10)
        self.service.close()

    # ---- results
    def _on_scan_finished(self, result: ScanResult | None, modes, error: str | None) -> None:
        if self._stop.is_set():
            return
        self._timer.resume()
        if result is None:
            self.status_label.setText(self.tr("Sampling failed: {error}").format(error=error))
            return
        self.result = result
        if self.inventory.show_inventory(result.inventory):
            self.inventory.show_modes(modes)
            self._update_actions()
        if not result.inventory.has_gpu and not self._auto_all_done:
            # Nothing uses a GPU here; listing every program still shows what each one loads.
            self._auto_all_done = True
            self.programs.all_check.setChecked(True)
        self.programs.fill(result, lambda report: self.service.nvidia_gpu_names(report, result.inventory))
        status = (self.tr("1 program · sampled over {seconds} s") if len(result.processes) == 1
                  else self.tr("{count} programs · sampled over {seconds} s"))
        self.status_label.setText(status.format(count=len(result.processes), seconds=f"{result.interval_s:.1f}"))
        self.status_label.setToolTip("\n".join(render(n) for n in result.notes))
        self._show_details()
        self.scan_done.emit(result)

    def selected_report(self) -> ProcessReport | None:
        pid = self.programs.selected_pid
        if self.result is None or pid is None:
            return None
        return self.result.process(pid)

    def select_pid(self, pid: int) -> bool:
        return self.programs.select_pid(pid)

    def _on_selection_changed(self) -> None:
        self.details.action_label.clear()
        self._show_details()

    def _on_filter_changed(self, text: str) -> None:
        self.programs.set_filter(text)
        self.programs.update_empty_state(self.result is not None and self.result.inventory.has_gpu)

    def _on_all_toggled(self, _checked: bool) -> None:
        if self.isVisible() or self.result is not None:
            self.refresh()

    def _show_details(self) -> None:
        report = self.selected_report()
        if report is None:
            self.details.show_nothing(ended=self.programs.selected_pid is not None)
        else:
            current = self.service.current_preference(report.exe) if report.exe else None
            self.details.show_report(report, self.programs.placement_text(report.placement),
                                     self.programs.basis_text(report.basis),
                                     render(current) if current is not None else None)
        self._update_actions()

    def _update_actions(self) -> None:
        inventory = self.result.inventory if self.result else None
        has_target = bool(inventory and self.service.launch_env(inventory)) or bool(
            inventory and inventory.platform == "windows" and inventory.has_nvidia)
        report = self.selected_report()
        offer = self.service.preference_offer(report, inventory) if report is not None else None
        self.details.prefer_button.setEnabled(has_target and offer is not None and offer.offered)
        running = self._launch_job is not None and self._launch_job.is_running()
        self.details.launch_button.setEnabled(has_target and not running)
        if inventory is not None and not has_target:
            reason = self.tr("Needs an NVIDIA (or other discrete) GPU; none was found.")
            self.details.prefer_button.setToolTip(reason)
            self.details.launch_button.setToolTip(reason)
            if not self.details.action_label.text():
                self._say(reason, muted=True)
        else:
            self.details.launch_button.setToolTip(self.tr("Start a program on the NVIDIA GPU and watch where it lands"))
            if offer is not None and not offer.offered and offer.reason is not None:
                # Say why the button is off, where the user looks for it, but never over what an action
                # said (a launch's outcome stays until the selection changes, not until the next scan).
                self.details.prefer_button.setToolTip(render(offer.reason))
                if not self.details.action_label.text() or self.details.says_why_not():
                    self._say(esc(render(offer.reason)), muted=True)
            else:
                command = " ".join((offer.program or "", *offer.args)) if offer is not None else ""
                tip = self.tr("Shows the exact change first; backed up and undoable")
                self.details.prefer_button.setToolTip(f"{tip}\n{command}" if command else tip)
                if offer is not None and self.details.says_why_not():
                    self.details.action_label.setText("")  # the previous program's "why not" no longer applies

    # ---- actions
    def _on_prefer_clicked(self) -> None:
        report = self.selected_report()
        if report is None:
            return
        offer = self.service.preference_offer(report, self.result.inventory if self.result else None)
        if not offer.offered or not offer.program:
            return
        self.plan_preference(offer.program, offer.args, offer.cwd)

    def plan_preference(self, program: str, args: tuple[str, ...] = (), cwd: str | None = None) -> PlanDialog | None:
        """Plan "Run on the NVIDIA GPU" for ``program args...`` and open the confirmation dialog."""
        try:
            plan = self.service.plan_prefer_nvidia(program, self.result.inventory if self.result else None,
                                                   args=args, cwd=cwd)
        except PlanError as exc:
            self._say(render(exc.message), error=True)
            return None
        if plan.is_noop:
            self._say(self.tr("Already set: nothing to change."))
            return None
        dialog = PlanDialog(plan, self)
        dialog.accepted.connect(lambda: self._apply_plan(plan))
        self._plan_dialog = dialog
        dialog.open()
        return dialog

    def _apply_plan(self, plan: PreferencePlan) -> None:
        try:
            record = self.service.apply(plan)
        except PlanError as exc:
            self._say(render(exc.message), error=True)
            return
        self._last_record = record
        lines = [self.tr("Done. The old state is backed up in {path}").format(path=esc(str(record.backup_file)))]
        lines += [esc(render(n)) for n in plan.notes]
        self._say("<br>".join(lines))
        self.details.undo_button.show()
        self.preference_applied.emit(record)

    def _on_undo_clicked(self) -> None:
        if self._last_record is None:
            return
        try:
            record = self.service.undo(self._last_record.plan.program)
        except PlanError as exc:
            self._say(render(exc.message), error=True)
            return
        self._say(self.undone_text(record))
        self._last_record = None
        self.details.undo_button.hide()

    def undone_text(self, record: AppliedRecord) -> str:
        """What undo changed: the program itself never was (Linux: a launcher and a menu entry beside it;
        Windows: the graphics preference value)."""
        program = esc(record.plan.program)
        if all(c.kind == "registry" for c in record.plan.changes):
            return self.tr("Undone: the graphics preference for {program} is back as it was.").format(program=program)
        removed = [esc(c.target) for c in record.plan.changes if c.kind == "file" and c.before is None]
        restored = [esc(c.target) for c in record.plan.changes if c.kind == "file" and c.before is not None]
        lines = [self.tr("Undone. {program} itself was never changed.").format(program=program)]
        if removed:
            lines.append(self.tr("Removed what GPU Assistant made for it: {files}").format(files=", ".join(removed)))
        if restored:
            lines.append(self.tr("Put back as they were: {files}").format(files=", ".join(restored)))
        return "<br>".join(lines)

    def _on_launch_clicked(self) -> None:
        report = self.selected_report()
        argv = list(report.cmdline) if report is not None and report.cmdline else []
        if not argv:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a program to launch"))
            if not path:
                return
            argv = [path]
        self.launch_program(argv)

    def launch_program(self, argv: list[str], timeout_s: float = 20.0) -> None:
        if self._launch_job is not None and self._launch_job.is_running():
            return
        inventory = self.result.inventory if self.result else None
        env = self.service.launch_env(inventory) if inventory else ()
        shown = " ".join(f"{k}={v}" for k, v in env)
        self._say(self.tr("Starting {command} {env}…").format(command=esc(shlex.join(argv)), env=esc(shown)))
        service, stop = self.service, self._stop

        def launch(report_progress):
            return service.launch_and_check(argv, timeout_s=timeout_s, stop=stop, inventory=inventory,
                                            on_progress=lambda seconds, _best: report_progress(seconds))

        def failed(exc: BaseException) -> None:
            self._on_launch_finished(None, exc.message if isinstance(exc, PlanError) else describe_error(exc))

        self._launch_job = self._work.submit(launch, lambda report: self._on_launch_finished(report, None),
                                             failed, self._on_launch_progress)
        self._update_actions()

    def _on_launch_progress(self, seconds: float) -> None:
        self.details.launch_button.setText(self.tr("Checking… {seconds} s").format(seconds=f"{seconds:.0f}"))

    def _on_launch_finished(self, report: LaunchReport | None, error) -> None:
        self.details.launch_button.setText(self.tr("Launch and check…"))
        self._update_actions()
        if report is None:
            self._say(render(error) if not isinstance(error, str) else error, error=True)
            self.launch_done.emit(None)
            return
        landed = report.report
        if report.outcome == "landed" and landed is not None:
            text = self.tr("Landed on: {gpu} (PID {pid})").format(gpu=self.programs.placement_text(landed.placement), pid=landed.pid)
        elif report.outcome == "exited":
            text = self.tr("The program ended after {seconds} s before it used a GPU.").format(
                seconds=f"{report.waited_s:.1f}")
        elif report.outcome == "stopped":
            text = self.tr("Stopped.")
        else:
            text = self.tr("No GPU work seen within {seconds} s.").format(seconds=f"{report.waited_s:.0f}")
            if landed is not None and landed.placement is not Placement.NONE:
                text += " " + self.tr("Its drivers point to: {gpu}.").format(gpu=self.programs.placement_text(landed.placement))
        details = "<br>".join("• " + esc(render(m)) for m in (*(landed.evidence if landed else ()), *report.notes))
        self._say(f"<b>{text}</b>" + (f"<br>{details}" if details else ""))
        self.launch_done.emit(report)
        self.refresh()

    def _say(self, html: str, error: bool = False, muted: bool = False) -> None:
        self.details.say(html, error=error, muted=muted)
