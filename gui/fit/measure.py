"""The fit page's "Measure a run" and "Your measurements" tabs, and the line under the answer that
says what the user's own runs measured. services.modelfit.measure does the measuring,
services.modelfit.measurements keeps the results, services.modelfit.calibration compares."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QBoxLayout, QComboBox, QScrollArea, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
    QPushButton, QToolButton, QWidget,
)

from gui.fit.live_memory import LiveMemoryView
from gui.fit.measurements_table import MeasurementsTable
from gui.i18n import render
from services.modelfit.calibration import compare, known_for, split_gib
from services.modelfit.measure import (
    STATUS_TEXT, MeasureError, Measurement, default_probe, revealed_versions, split_command,
)
from services.modelfit.measurements import MeasurementStore, StoreError, record
from services.modelfit.report import COMPONENT_LABELS
from services.modelfit.solver import FitAnswer
from services.telemetry.hub import CurrentHub

TICK_MS = 100  # 10 Hz, the measured process only (services.modelfit.measure.SAMPLE_INTERVAL_S)
FORM_WIDTH = 330
NARROW_PX = 560  # below this the live view goes under the form


class MeasurePanel(QWidget):
    """The "Measure a run" tab. Signals: finished(object): the stored row of a measurement that ended."""

    finished = Signal(object)

    def __init__(self, store: MeasurementStore, processes: Callable[[], list[tuple[int, str]]] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.probe_factory: Callable[[], object] = default_probe
        self._processes = processes or (lambda: [])
        self.answer: FitAnswer | None = None
        self.gpu = None
        self.run: Measurement | None = None
        self._measured_answer: FitAnswer | None = None
        self._command: list[str] = []
        self._cwd: str | None = None
        self.last_row = None
        self._left_running: list = []
        self._versions: dict | None = None  # what the measured process revealed (services.modelfit.measure)
        self._timer = QTimer(self)
        self._timer.setObjectName("measureTick")
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        self._build()

    def title(self) -> str:
        return self.tr("Measure a run")

    def calibrated_limits(self, seq: int, model_seq: int, batch: int, model_batch: int) -> tuple[str, str]:
        """The "Largest that fits" lines by the calibrated figure, with the estimate's own beside them."""
        return (self.tr("%1 tokens by your runs (estimate: %2)").replace("%1", f"{seq:,}").replace("%2", f"{model_seq:,}"),
                self.tr("%1 by your runs (estimate: %2)").replace("%1", str(batch)).replace("%2", str(model_batch)))

    # ---- layout
    def _build(self) -> None:
        outer = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        outer.setContentsMargins(8, 8, 8, 8)
        self._outer = outer
        form_box = QWidget()
        self._form_box = form_box
        form = QFormLayout(form_box)
        self._form = form
        form.setContentsMargins(0, 0, 0, 0)
        form.setVerticalSpacing(4)
        self.mode_combo = QComboBox()
        self.mode_combo.addItem(self.tr("Start a command"), "launch")
        self.mode_combo.addItem(self.tr("Attach to a running process"), "attach")
        self.mode_combo.currentIndexChanged.connect(self._sync_mode)
        self.command_edit = QLineEdit()
        self.command_edit.setPlaceholderText("python train.py --bs 4")
        self.command_edit.setToolTip(self.tr("Program and arguments, split like a shell would (quotes group words); run directly, never through a shell"))
        self.folder_edit = QLineEdit()
        self.folder_edit.setPlaceholderText(self.tr("working folder (optional)"))
        browse = QToolButton()
        browse.setText("…")
        browse.clicked.connect(self._browse)
        folder_row = QHBoxLayout()
        folder_row.setContentsMargins(0, 0, 0, 0)
        folder_row.addWidget(self.folder_edit, 1)
        folder_row.addWidget(browse)
        self.env_edit = QLineEdit()
        self.env_edit.setPlaceholderText("CUDA_VISIBLE_DEVICES=0 HF_HOME=…")
        self.process_combo = QComboBox()
        self.process_combo.setEditable(True)
        self.process_combo.lineEdit().setPlaceholderText(self.tr("PID"))
        refresh = QToolButton()
        refresh.setText("⟳")
        refresh.setToolTip(self.tr("Refresh the list of processes using the GPU"))
        refresh.clicked.connect(self.refresh_processes)
        process_row = QHBoxLayout()
        process_row.setContentsMargins(0, 0, 0, 0)
        process_row.addWidget(self.process_combo, 1)
        process_row.addWidget(refresh)
        self.start_button = QPushButton(self.tr("Start measuring"))
        self.start_button.clicked.connect(self.start)
        self.stop_button = QPushButton(self.tr("Stop measuring"))
        self.stop_button.setToolTip(self.tr("Stops measuring; the process itself keeps running"))
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.setEnabled(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.stop_button)
        self.status_label = QLabel(self.tr("Measures the GPU memory the process and its children hold, 10 times a second, against this estimate."))
        self.status_label.setWordWrap(True)
        self.status_label.setProperty("role", "muted")
        self._command_label = QLabel(self.tr("Command"))
        self._folder_label = QLabel(self.tr("Folder"))
        self._env_label = QLabel(self.tr("Environment"))
        self._process_label = QLabel(self.tr("Process"))
        form.addRow(self.tr("Run"), self.mode_combo)
        form.addRow(self._command_label, self.command_edit)
        form.addRow(self._folder_label, folder_row)
        form.addRow(self._env_label, self.env_edit)
        form.addRow(self._process_label, process_row)
        form.addRow(buttons)
        form.addRow(self.status_label)
        form_box.setMaximumWidth(FORM_WIDTH)
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.result_label)
        outer.addWidget(form_box)
        self.view = LiveMemoryView()
        outer.addWidget(self.view, 1)
        self._sync_mode()

    def resizeEvent(self, event) -> None:
        # Side by side when there is room; on a small window the live view goes under the form
        # (the tab scrolls), rather than both being squeezed.
        narrow = event.size().width() < NARROW_PX
        direction = QBoxLayout.Direction.TopToBottom if narrow else QBoxLayout.Direction.LeftToRight
        if self._outer.direction() != direction:
            self._outer.setDirection(direction)
            self._form_box.setMaximumWidth(16777215 if narrow else FORM_WIDTH)
        super().resizeEvent(event)

    def _sync_mode(self, *_args) -> None:
        launch = self.mode_combo.currentData() == "launch"
        for widget in (self._command_label, self.command_edit, self._folder_label, self.folder_edit,
                       self._env_label, self.env_edit):
            widget.setEnabled(launch)
        self._process_label.setEnabled(not launch)
        self.process_combo.setEnabled(not launch)
        if not launch:
            self.refresh_processes()

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Working folder"), self.folder_edit.text() or str(Path.home()))
        if folder:
            self.folder_edit.setText(folder)

    def refresh_processes(self) -> None:
        text = self.process_combo.currentText()
        self.process_combo.clear()
        for pid, label in self._processes():
            self.process_combo.addItem(label, pid)
        self.process_combo.setEditText(text)

    # ---- the estimate as it stands
    def set_answer(self, ans: FitAnswer | None, gpu) -> None:
        self.answer, self.gpu = ans, gpu
        if self.run is None and ans is not None:
            self._show_estimate(ans)

    def _show_estimate(self, ans: FitAnswer) -> None:
        est = ans.estimate
        parts = [(k, render(COMPONENT_LABELS[k]), g) for k, g in est.breakdown_gib().items()]
        fixed, scaling = split_gib(est)
        self.view.set_estimate(parts, fixed + scaling)
        self._labels()

    def _labels(self) -> None:
        est = self.view.estimate_gib
        now, peak = self.view.now_gib, self.view.peak_gib
        self.view.labels = (
            self.tr("Estimate: %1 GiB").replace("%1", f"{est:.2f}"),
            self.tr("Measured now: %1 GiB · peak %2 GiB").replace("%1", "–" if now is None else f"{now:.2f}").replace(
                "%2", "–" if peak is None else f"{peak:.2f}"),
            self.tr("Over time (dashed: the estimate)"),
        )
        self.view.update()

    # ---- measuring
    def measuring(self) -> bool:
        return self.run is not None

    def _fail(self, text: str) -> None:
        self.status_label.setText(text)
        self.status_label.setStyleSheet("color: #c62828;")

    def start(self) -> bool:
        if self.run is not None or self.answer is None:
            if self.answer is None:
                self._fail(self.tr("Fix the estimate first: there is nothing to measure against"))
            return False
        launch = self.mode_combo.currentData() == "launch"
        try:
            if launch:
                argv = split_command(self.command_edit.text())
                env = {}
                text = self.env_edit.text()
                for pair in _env_words(text) if os.name == "nt" else split_command(text):
                    name, sep, value = pair.partition("=")
                    if not sep or not name:
                        self._fail(self.tr("Environment: write NAME=VALUE, got %1").replace("%1", pair))
                        return False
                    env[name] = value
            else:
                pid = self._chosen_pid()
                if pid is None:
                    self._fail(self.tr("Pick a process or type its PID"))
                    return False
        except ValueError as exc:  # unbalanced quotes
            self._fail(self.tr("Command: %1").replace("%1", str(exc)))
            return False
        try:
            probe = self.probe_factory()
            if launch:
                cwd = self.folder_edit.text().strip() or None
                self.run = Measurement.launch(probe, argv, cwd=cwd, env=env or None)
                self._command, self._cwd = argv, cwd
            else:
                self.run = Measurement.attach(probe, pid)
                self._command, self._cwd = [], None
        except MeasureError as exc:
            self._fail(render(exc.message))
            return False
        self._measured_answer = self.answer
        self._versions = None
        self._show_estimate(self.answer)
        self.view.set_measured(None, None, [])
        self.status_label.setStyleSheet("")
        self.status_label.setText(self.tr("Measuring process %1 and its children…").replace("%1", str(self.run.pid)))
        self.result_label.clear()
        self.start_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.mode_combo.setEnabled(False)
        self._timer.start()
        self._tick()
        self._show_inputs(self._outer.direction() == QBoxLayout.Direction.LeftToRight)
        return True

    def _show_inputs(self, visible: bool) -> None:
        """On a small window the live view sits under the form: while measuring, the inputs (disabled
        then anyway) fold away so the view is in sight."""
        for row in range(5):
            self._form.setRowVisible(row, visible)

    def _chosen_pid(self) -> int | None:
        data = self.process_combo.currentData()
        if isinstance(data, int) and self.process_combo.currentText() == self.process_combo.itemText(self.process_combo.currentIndex()):
            return data
        text = self.process_combo.currentText().strip().split(" ")[0]
        return int(text) if text.isdigit() else None

    def _tick(self) -> None:
        run = self.run
        if run is None:
            return
        point = run.sample()
        res = run.result
        if self._versions is None and res.pids_seen:
            self._versions = revealed_versions(res.pids_seen)  # while the process still has its libraries mapped
        key = res.busiest_gpu
        if key is not None:
            now = point.used_gib.get(key)
            curve = [(s.t_s, s.used_gib.get(key, 0.0)) for s in res.samples]
        elif point.device_gib:
            # Nothing of the process in the driver's list (yet): the GPU's rise since the start, as
            # finish() will count it when the list never shows the process (services.modelfit.measure).
            key = max(point.device_gib, key=lambda k: point.device_gib[k])
            now = point.device_gib[key]
            curve = [(s.t_s, s.device_gib.get(key, 0.0)) for s in res.samples]
        else:
            now, curve = None, []
        peak = res.peak_busiest_gib if res.busiest_gpu else (max((g for _, g in curve), default=None))
        self.view.set_measured(now, peak, curve)
        self._labels()
        if not run.alive():
            self._finish(stopped=False)

    def stop(self) -> None:
        if self.run is not None:
            self._finish(stopped=True)

    def _finish(self, *, stopped: bool) -> None:
        self._timer.stop()
        self._show_inputs(True)
        run, self.run = self.run, None
        result = run.finish(stopped=stopped)
        if run.popen is not None and run.popen.poll() is None:
            self._left_running.append(run.popen)  # measuring stopped, the process goes on
        ans = self._measured_answer
        self.start_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.mode_combo.setEnabled(True)
        lines = [render(STATUS_TEXT[result.status])]
        if result.exit_code is not None:
            lines.append(self.tr("exit code %1").replace("%1", str(result.exit_code)))
        self.status_label.setStyleSheet("")
        self.status_label.setText(" · ".join(lines))
        text = []
        if result.peak_busiest_gib is not None and ans is not None:
            cmp = compare(ans.estimate, result.peak_busiest_gib)
            share = cmp.error_share or 0.0
            text.append("<b>" + self.tr("Measured peak %1 GiB, estimate %2 GiB: %3 GiB (%4%) off").replace(
                "%1", f"{cmp.measured_gib:.2f}").replace("%2", f"{cmp.estimate_gib:.2f}").replace(
                "%3", f"{cmp.error_gib:+.2f}").replace("%4", f"{100 * share:+.1f}") + "</b>")
            text.append(render(cmp.where_text()))
            if len(result.peak_gib) > 1:
                for key, peak in result.peak_gib.items():
                    ref = result.gpu(key)
                    text.append(f"GPU {ref.index if ref else '?'} {ref.name if ref else key}: {peak:.2f} GiB")
        text.extend(render(n) for n in result.notes)
        row = None
        if ans is not None:
            try:
                row = record(ans.estimate, result, command=self._command, cwd=self._cwd, pid=run.pid,
                             versions=(self._versions or {}) | run.probe.versions())
                self.store.add(row)
            except StoreError as exc:
                text.append(render(exc.message))
                row = None
        self.result_label.setText("<br>".join(_escape(t) if not t.startswith("<b>") else t for t in text))
        self.last_row = row
        self.finished.emit(row)

    def shutdown(self) -> None:
        """Stop measuring (the process keeps running) and keep what was measured."""
        if self.run is not None:
            self._finish(stopped=True)
        self._timer.stop()


def _env_words(text: str) -> list[str]:
    """NAME=VALUE words on Windows: split as arguments after a program name (no program name here)."""
    return split_command("x " + text, windows=True)[1:] if text.strip() else []


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def known_of(rows: list, ans: FitAnswer | None, gpu):
    """What the user's stored runs say about this answer (services.modelfit.calibration.Known), or None."""
    if ans is None or not rows:
        return None
    return known_for(rows, ans.estimate, gpu.memory_gib if gpu is not None else None)


class MeasureTabs:
    """Puts the two tabs and the 'measured on this machine' line into the fit page's results panel."""

    def __init__(self, page, store: MeasurementStore, hubs: CurrentHub) -> None:
        self.page = page
        self.hubs = hubs
        self.panel = MeasurePanel(store, self.gpu_processes)
        self.table = MeasurementsTable(store)
        tabs = page.results.tabs
        scroll = QScrollArea()  # the panel scrolls on a small window instead of squeezing
        scroll.setWidget(self.panel)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        tabs.addTab(scroll, self.panel.title())
        tabs.addTab(self.table, self.table.title())
        self.known_label = QLabel()
        self.known_label.setObjectName("fitMeasuredHere")
        self.known_label.setWordWrap(True)
        self.known_label.setStyleSheet("color: #3b6fb6;")
        self.known_label.hide()
        page.results.layout().insertWidget(2, self.known_label)
        self.panel.finished.connect(self._stored)
        self.table.changed.connect(self._show_known)
        self._answer = None
        self._gpu = None
        self._calibrated_limits = False  # the "Largest that fits" box shows the calibrated figures

    def gpu_processes(self) -> list[tuple[int, str]]:
        hub = self.hubs.hub
        snapshot = hub.latest if hub is not None else None
        found: list[tuple[int, str]] = []
        for sample in getattr(snapshot, "samples", ()) or ():
            for proc in sample.processes or ():
                used = "?" if proc.used_mib is None else f"{proc.used_mib / 1024:.1f} GiB"
                found.append((proc.pid, f"{proc.pid} {proc.name} ({used}, GPU {sample.index})"))
        return found

    def update(self, ans, gpu) -> None:
        self._answer, self._gpu = ans, gpu
        self.panel.set_answer(ans, gpu)
        self._show_known()

    def _show_known(self) -> None:
        ans = self._answer
        known = known_of(self.table.rows, ans, self._gpu)
        text = "" if known is None else "\n".join(render(line) for line in known.lines(with_limits=False))
        self.known_label.setText(text)
        self.known_label.setVisible(bool(text))
        if known is not None and known.calibrated_max_seq is not None and ans is not None and ans.max_seq is not None:
            seq_text, batch_text = self.panel.calibrated_limits(known.calibrated_max_seq, ans.max_seq,
                                                                known.calibrated_max_batch or 0, ans.max_batch or 0)
            for label, text in ((self.page.results.max_seq_label, seq_text), (self.page.results.max_batch_label, batch_text)):
                label.setWordWrap(True)  # a small window wraps the longer line instead of widening the page
                label.setText(text)
            self._calibrated_limits = True
        elif self._calibrated_limits:
            self._calibrated_limits = False
            self.page._schedule()  # the estimate's own limits back in the box

    def _stored(self, _row) -> None:
        self.table.reload()
        self._show_known()

    def shutdown(self) -> None:
        self.panel.shutdown()
