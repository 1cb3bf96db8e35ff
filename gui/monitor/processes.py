"""The Dashboard's process view: every process on every GPU, from ``ProcessService``.

The service builds each ``ProcessTable`` on the hub's worker thread; this view only
receives the finished table through a queued signal, so a refresh never blocks the
window. Sorting and filtering use the service's rules (``sort_key``, ``matches``), and
the selection follows the process (its PID and GPU), not the row number.
"""
from __future__ import annotations

import sys
import threading
from typing import Any
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView, QFrame, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QMenu, QMessageBox, QPushButton, QTableView,
    QVBoxLayout, QWidget,
)

from gui.i18n import render
from gui.monitor.process_model import KEY_ROLE, ProcessModel
from services.telemetry.processes import (
    COLUMNS, EndResult, GpuProcess, ProcessService, ProcessTable, end_process, may_end,
)

NARROW_PX = 900  # below this width the RAM and running-time columns are hidden


class _Hop(QObject):
    """Carries tables and end results from worker threads into the GUI thread."""

    table = Signal(object, object)  # (service, table)
    ended = Signal(object, object)  # (row, EndResult)


class ProcessView(QWidget):
    """Filter, table and actions. Give it the service in the constructor; ``follow`` a replacement.

    Signals:
        open_in_hybrid(int): the user asked to see this PID on the Hybrid page.
        open_in_fit(str): the user asked for Model fit on the model a spilling process runs.
        table_shown(): a table was shown (tests wait on it).
    """

    open_in_hybrid = Signal(int)
    open_in_fit = Signal(str)
    table_shown = Signal()

    def __init__(self, service: ProcessService | None = None, parent: QWidget | None = None, *,
                 ender: Callable[[GpuProcess], EndResult] = end_process) -> None:
        super().__init__(parent)
        self._service: ProcessService | None = None
        self._listener: Callable[[ProcessTable], None] | None = None
        self._ender = ender
        self._selected: tuple[int, str] | None = None
        self._workers: list[threading.Thread] = []
        self._hop = _Hop(self)
        self._hop.table.connect(self._on_hop_table, Qt.ConnectionType.QueuedConnection)
        self._hop.ended.connect(self._on_hop_ended, Qt.ConnectionType.QueuedConnection)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        layout.setSpacing(6)
        bar = QHBoxLayout()
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText(self.tr("Filter by name, command line or PID"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._on_filter_edit_changed)
        bar.addWidget(self.filter_edit, 1)
        self.end_button = QPushButton(self.tr("End process…"), self)
        self.end_button.clicked.connect(self._on_end_button_clicked)
        self.hybrid_button = QPushButton(self.tr("Open on Hybrid page"), self)
        self.hybrid_button.setToolTip(self.tr("See which GPU it runs on and move it to the NVIDIA GPU"))
        self.hybrid_button.clicked.connect(self._on_hybrid_button_clicked)
        self.copy_button = QPushButton(self.tr("Copy command line"), self)
        self.copy_button.clicked.connect(self._on_copy_button_clicked)
        for button in (self.end_button, self.hybrid_button, self.copy_button):
            bar.addWidget(button)
        layout.addLayout(bar)
        # The newest spill or wrong-GPU alert about a running process, with what to do about it.
        self.banner = QFrame(self)
        self.banner.setObjectName("StateNote")
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.setContentsMargins(8, 4, 8, 4)
        self.banner_label = QLabel(self.banner)
        self.banner_label.setWordWrap(True)
        self.banner_label.setTextFormat(Qt.TextFormat.PlainText)
        banner_layout.addWidget(self.banner_label, 1)
        self.fit_button = QPushButton(self.tr("Open in Model fit"), self.banner)
        self.fit_button.setToolTip(self.tr("See which context length, batch or quantisation fits this GPU"))
        self.fit_button.clicked.connect(self._on_fit_button_clicked)
        self.run_on_nvidia_button = QPushButton(self.tr("Run on the NVIDIA GPU…"), self.banner)
        self.run_on_nvidia_button.clicked.connect(self._on_run_on_nvidia_button_clicked)
        self.fixes_button = QPushButton(self.tr("What to do…"), self.banner)
        self.fixes_button.clicked.connect(self._on_fixes_button_clicked)
        banner_layout.addWidget(self.fixes_button)
        banner_layout.addWidget(self.fit_button)
        banner_layout.addWidget(self.run_on_nvidia_button)
        self.banner.hide()
        layout.addWidget(self.banner)
        self._process_alerts: dict[int, Any] = {}  # pid -> its newest process alert
        self._banner_alert: Any = None

        self.model = ProcessModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(COLUMNS.index("gpu_memory"), Qt.SortOrder.DescendingOrder)
        self.table.verticalHeader().hide()
        row_height = self.fontMetrics().height() + 8
        self.table.verticalHeader().setDefaultSectionSize(row_height)
        # Room for the header and three processes even with the alert banner showing: at 1024x640 the
        # dashboard's splitter would otherwise leave one and a half rows (seen in Chinese).
        self.table.setMinimumHeight(row_height * 3 + self.table.horizontalHeader().sizeHint().height()
                                    + 2 * self.table.frameWidth() + 2)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._on_table_context_menu)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(COLUMNS.index("name"), QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        for column, width in (("pid", 58), ("user", 64), ("gpu", 64), ("kind", 86), ("sm_pct", 52),
                              ("gpu_memory", 112), ("shared_mib", 80), ("video", 84), ("cpu_pct", 52),
                              ("host_mib", 72), ("running", 68)):
            self.table.setColumnWidth(COLUMNS.index(column), width)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        layout.addWidget(self.table, 1)
        self.note = QLabel(self)
        self.note.setProperty("role", "muted")
        self.note.setWordWrap(True)
        self.note.hide()
        layout.addWidget(self.note)
        self._update_actions()
        self.follow(service)

    # ---- Public API
    @property
    def service(self) -> ProcessService | None:
        return self._service

    def follow(self, service: ProcessService | None) -> None:
        """Show ``service``'s tables from now on (the hub was replaced); the old one is no longer heard."""
        if service is self._service:
            return
        if self._service is not None and self._listener is not None:
            self._service.remove_listener(self._listener)
        self._service = service
        self._listener = None
        self._selected = None
        self._process_alerts.clear()
        if service is not None:
            hop = self._hop

            # Called on the hub's worker thread: only hop to the GUI thread, naming the service,
            # so a late table from a replaced hub can be told apart.
            def listener(table: ProcessTable, source: ProcessService = service) -> None:
                try:
                    hop.table.emit(source, table)
                except RuntimeError:  # the view was deleted while the hub still ran
                    pass

            self._listener = listener
            service.add_listener(listener)
            self.show_table(service.latest)
        else:
            self.show_table(ProcessTable(t=0.0))

    def show_table(self, table: ProcessTable) -> None:
        """Show ``table`` (GUI thread), keeping the selected process selected wherever it moved."""
        keep = self._selected
        selection = self.table.selectionModel()
        selection.blockSignals(True)
        try:
            self.model.set_table(table)
            row = self.model.row_of(keep) if keep is not None else -1
            if row >= 0:
                self.table.selectRow(row)
        finally:
            selection.blockSignals(False)
        self.table.viewport().update()
        # Shared GPU memory exists on Windows only, and the video engines are mostly idle: their
        # columns show when some process has a figure there.
        self.table.setColumnHidden(COLUMNS.index("shared_mib"), not any(r.shared_mib for r in table.rows))
        self.table.setColumnHidden(COLUMNS.index("video"),
                                   not any(r.encoder_pct or r.decoder_pct for r in table.rows))
        self._fit_columns()
        self._update_actions()
        self._update_note(table)
        self._update_banner(table)
        self.table_shown.emit()

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit_columns()

    def _fit_columns(self) -> None:
        # A narrow window (1024 px) keeps the name readable: RAM and running time step aside.
        narrow = self.width() < NARROW_PX
        for column in ("host_mib", "running"):
            self.table.setColumnHidden(COLUMNS.index(column), narrow)

    def show_alert(self, alert: Any) -> None:
        """A process alert (spill, wrong GPU) goes on the banner while its process runs."""
        if getattr(alert, "pid", None) is None:
            return
        self._process_alerts[alert.pid] = alert
        self._update_banner(self.model.table)

    def banner_alert(self) -> Any:
        return self._banner_alert

    def selected(self) -> GpuProcess | None:
        if self._selected is None:
            return None
        return self.model.table.find(self._selected)

    def select(self, key: tuple[int, str]) -> bool:
        row = self.model.row_of(key)
        if row < 0:
            return False
        self.table.selectRow(row)
        return True

    def end_selected(self, confirm: bool = True) -> bool:
        """Ask (naming the process), then end it on a worker thread; False when refused or cancelled."""
        row = self.selected()
        if row is None:
            return False
        refusal = may_end(row)
        if refusal is not None:
            QMessageBox.information(self, self.tr("Cannot end this process"), render(refusal))
            return False
        if confirm:
            if sys.platform == "win32":  # psutil's terminate() is TerminateProcess: no polite request
                text = self.tr("End {name} (PID {pid}) on {gpu}?\n\nIt is ended at once. Work it has not "
                               "saved is lost.")
            else:
                text = self.tr("End {name} (PID {pid}) on {gpu}?\n\nIt is asked to close first; if it is still "
                               "running after 3 seconds, it is killed. Work it has not saved is lost.")
            answer = QMessageBox.question(
                self, self.tr("End {name}?").format(name=row.name),
                text.format(name=row.name, pid=row.pid, gpu=row.gpu_label),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        self.end_button.setEnabled(False)
        hop, ender = self._hop, self._ender

        def work() -> None:
            hop.ended.emit(row, ender(row))

        worker = threading.Thread(target=work, name="end-process", daemon=True)
        self._workers.append(worker)
        worker.start()
        return True

    def wait_for_workers(self, timeout: float = 10.0) -> None:
        """Join the threads that end processes (shutdown and tests)."""
        for worker in self._workers:
            worker.join(timeout)
        self._workers = [w for w in self._workers if w.is_alive()]

    def shutdown(self) -> None:
        self.follow(None)
        self.wait_for_workers()

    # ---- GUI side
    @Slot(object, object)
    def _on_hop_table(self, service: Any, table: ProcessTable) -> None:
        if service is not self._service:
            return  # a late table from a replaced hub
        self.show_table(table)

    @Slot(object, object)
    def _on_hop_ended(self, row: GpuProcess, result: EndResult) -> None:
        self._workers = [w for w in self._workers if w.is_alive()]
        self._update_actions()
        self.note.setText(render(result.message))
        self.note.setStyleSheet("" if result.ok else "color: #a1261d;")
        self.note.show()

    def _update_note(self, table: ProcessTable) -> None:
        if table.counters_problem:
            self.note.setText(self.tr("Windows GPU counters could not be read ({problem}): memory and "
                                      "utilisation of processes may show as not reported.").format(
                problem=table.counters_problem))
            self.note.show()

    def _update_banner(self, table: ProcessTable) -> None:
        live = {r.pid for r in table.live()}
        for pid, alert in list(self._process_alerts.items()):
            if pid not in live and table.t > alert.t:  # the process ended (or left the GPU)
                del self._process_alerts[pid]
        alert = max(self._process_alerts.values(), key=lambda a: a.t, default=None)
        self._banner_alert = alert
        if alert is None:
            self.banner.hide()
            return
        self.banner_label.setText(render(alert.summary) if alert.summary is not None else render(alert.message))
        self.banner_label.setToolTip(render(alert.message))
        self.fit_button.setVisible(bool(alert.model))
        self.run_on_nvidia_button.setVisible(alert.rule.value == "wrong_gpu")
        self.banner.show()

    def _on_fixes_button_clicked(self) -> None:
        alert = self._banner_alert
        if alert is not None:
            QMessageBox.information(self, render(alert.title), render(alert.message))

    def _on_fit_button_clicked(self) -> None:
        if self._banner_alert is not None and self._banner_alert.model:
            self.open_in_fit.emit(self._banner_alert.model)

    def _on_run_on_nvidia_button_clicked(self) -> None:
        if self._banner_alert is not None:
            self.open_in_hybrid.emit(self._banner_alert.pid)

    def _update_actions(self) -> None:
        row = self.selected()
        live = row is not None and row.ended_at is None
        refusal = may_end(row) if live else None
        self.end_button.setEnabled(live and refusal is None)
        self.end_button.setToolTip(render(refusal) if refusal is not None else
                                   self.tr("Ask the selected process to close, then end it"))
        self.hybrid_button.setEnabled(live)
        self.copy_button.setEnabled(row is not None and bool(row.command_line))

    def _on_selection_changed(self, *_args: Any) -> None:
        rows = self.table.selectionModel().selectedRows()
        self._selected = rows[0].data(KEY_ROLE) if rows else None
        self._update_actions()

    def _on_filter_edit_changed(self, text: str) -> None:
        keep = self._selected
        self.model.set_filter(text)
        row = self.model.row_of(keep) if keep is not None else -1
        if row >= 0:
            self.table.selectRow(row)
        self._selected = keep

    def _on_end_button_clicked(self) -> None:
        self.end_selected()

    def _on_hybrid_button_clicked(self) -> None:
        row = self.selected()
        if row is not None:
            self.open_in_hybrid.emit(row.pid)

    def _on_copy_button_clicked(self) -> None:
        row = self.selected()
        if row is not None and row.command_line:
            QGuiApplication.clipboard().setText(row.command_line)
            self.note.setText(self.tr("Copied the command line of {name} ({pid}).").format(name=row.name, pid=row.pid))
            self.note.setStyleSheet("")
            self.note.show()

    def _on_table_context_menu(self, pos: Any) -> None:
        index = self.table.indexAt(pos)
        if not index.isValid():
            return
        self.table.selectRow(index.row())
        menu = QMenu(self)
        for button in (self.end_button, self.hybrid_button, self.copy_button):
            action = menu.addAction(button.text())
            action.setEnabled(button.isEnabled())
            action.triggered.connect(button.click)
        menu.popup(self.table.viewport().mapToGlobal(pos))
