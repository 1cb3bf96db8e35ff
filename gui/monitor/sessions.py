"""Recorded sessions: open one in the dashboard, compare two, export CSV, open a log.

Everything goes through ``services.telemetry.session_store.SessionStore`` (the
``sessions`` CLI command uses the same calls); opening a recording or an
nvidia-smi CSV log restarts the hub on the replay source.
"""
from __future__ import annotations

import html
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView, QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel,
    QMessageBox, QPushButton, QSplitter, QTableWidget, QTableWidgetItem, QTextBrowser, QVBoxLayout, QWidget,
)

from gui.context import TelemetryControl
from gui.i18n import render
from gui.monitor.widgets import DASH, format_duration, format_mib
from services.i18n import Msg
from services.telemetry import throttle
from services.telemetry.hub import CurrentHub
from services.telemetry.session_report import source_name


def _stamp(t: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) if t else DASH


def _num(value: float | None, unit: str, digits: int = 0) -> str:
    return DASH if value is None else f"{value:.{digits}f} {unit}"


class SessionsDialog(QDialog):
    """Lists the recordings in the data folder.

    Signals:
        replay_opened(str): a recording or log was opened in the dashboard (its path).
    """

    replay_opened = Signal(str)
    TIME, DURATION, GPUS, SAMPLES, SOURCE = range(5)

    def __init__(self, recordings_dir: Path, hubs: CurrentHub, telemetry: TelemetryControl | None = None,
                 parent: QWidget | None = None) -> None:
        """``hubs``: the monitored hub (its recording is never deleted); ``telemetry``: opens a
        recording in the dashboard (None: monitoring is not running)."""
        super().__init__(parent)
        from services.telemetry.session_store import SessionStore

        self.hubs = hubs
        self._telemetry = telemetry
        self.store = SessionStore(recordings_dir)
        self.sessions: list[Any] = []
        self.setWindowTitle(self.tr("Recorded sessions"))
        self.resize(940, 600)
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr("Every monitoring session is recorded here (turn it off in Settings). "
                               "Select one to see its summary, two to compare them."), self)
        intro.setWordWrap(True)
        intro.setProperty("role", "muted")
        layout.addWidget(intro)

        splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.table = QTableWidget(0, 5, splitter)
        self.table.setHorizontalHeaderLabels([self.tr("Started"), self.tr("Length"), self.tr("GPUs"),
                                              self.tr("Readings"), self.tr("Source")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(self.GPUS, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._on_table_selection_changed)
        self.table.doubleClicked.connect(lambda _index: self._on_open_button_clicked())
        self.details = QTextBrowser(splitter)
        splitter.addWidget(self.table)
        splitter.addWidget(self.details)
        splitter.setSizes([300, 260])
        layout.addWidget(splitter, 1)

        buttons = QHBoxLayout()
        self.open_button = QPushButton(self.tr("Open in dashboard"), self)
        self.open_button.setProperty("primary", True)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.export_button = QPushButton(self.tr("Export CSV…"), self)
        self.export_button.setToolTip(self.tr("Save the session in nvidia-smi's CSV layout (it opens in a spreadsheet)."))
        self.export_button.clicked.connect(self._on_export_button_clicked)
        self.file_button = QPushButton(self.tr("Open a log file…"), self)
        self.file_button.setToolTip(self.tr("A recording from another computer, or a log written by\n"
                                            "nvidia-smi --query-gpu=... --format=csv -l 1"))
        self.file_button.clicked.connect(self._on_file_button_clicked)
        self.delete_button = QPushButton(self.tr("Delete…"), self)
        self.delete_button.setToolTip(self.tr("Delete the selected recordings from this computer (asks first)."))
        self.delete_button.clicked.connect(self._on_delete_button_clicked)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        for button in (self.open_button, self.export_button, self.file_button, self.delete_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(close)
        layout.addLayout(buttons)
        self.refresh()

    # ---- Public API
    def refresh(self) -> None:
        self.sessions = sorted(self.store.list(), key=lambda s: s.start or 0, reverse=True)
        self.table.setRowCount(len(self.sessions))
        for row, info in enumerate(self.sessions):
            duration = info.duration_s
            cells = (_stamp(info.start), format_duration(duration) if duration is not None else DASH,
                     ", ".join(info.gpus) or DASH, str(info.samples), render(source_name(info.source)))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if info.problem:
                    item.setForeground(QColor("#9aa5b1"))
                    item.setToolTip(render(info.shown_problem))
                self.table.setItem(row, column, item)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(self.GPUS, QHeaderView.ResizeMode.Stretch)
        if not self.sessions:
            self.details.setHtml("<p>" + self.tr("No recorded sessions yet. They appear here after the app "
                                                 "has monitored for a while.") + "</p>")
        self._on_table_selection_changed()

    def selected(self) -> list[Any]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.sessions[r] for r in rows]

    def select_rows(self, *rows: int) -> None:
        self.table.clearSelection()
        mode = self.table.selectionMode()
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        for row in rows:
            self.table.selectRow(row)
        self.table.setSelectionMode(mode)

    def export_selected(self, target: Path) -> int:
        """Export the one selected session to ``target``; returns the rows written."""
        (info,) = self.selected()
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            return self.store.export_csv(info.id, target)
        finally:
            QGuiApplication.restoreOverrideCursor()

    def delete_sessions(self, ids: list[str]) -> list[tuple[str, Msg]]:
        """Delete recordings by id (never the one being recorded now); returns what could not be deleted."""
        recorder = getattr(self.hubs.hub, "recorder", None)
        keep = getattr(recorder, "path", None)
        _deleted, refused = self.store.delete(ids, keep=keep)
        self.refresh()
        if refused:
            self._problem(self.tr("Some sessions were not deleted"),
                          "\n".join(f"{sid}: {render(why)}" for sid, why in refused))
        return refused

    def open_path(self, path: str) -> bool:
        """Show a recording or an nvidia-smi CSV in the dashboard. False (after saying why) if it cannot be read."""
        control = self._telemetry
        if control is None:
            self._problem(self.tr("This file cannot be opened"), self.tr("Monitoring is not running."))
            return False
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            control.open_replay(path)
        except (ValueError, RuntimeError, OSError) as exc:
            QGuiApplication.restoreOverrideCursor()
            self._problem(self.tr("This file cannot be opened"), _said(exc))
            return False
        QGuiApplication.restoreOverrideCursor()
        self.replay_opened.emit(path)
        return True

    # ---- Slots
    def _on_table_selection_changed(self) -> None:
        chosen = self.selected()
        readable = [s for s in chosen if not s.problem]
        self.open_button.setEnabled(len(readable) == 1 and len(chosen) == 1)
        self.export_button.setEnabled(len(readable) == 1 and len(chosen) == 1)
        self.delete_button.setEnabled(bool(chosen))
        unreadable = self.tr("This recording cannot be read.")
        if len(chosen) == 1 and chosen[0].problem:
            self.details.setHtml(f"<p><b>{unreadable}</b><br>{html.escape(render(chosen[0].shown_problem))}</p>")
        elif len(readable) == 1:
            self._show_summaries([readable[0]])
        elif len(readable) == 2:
            self._show_summaries(readable)
        elif chosen:
            self.details.setHtml("<p>" + self.tr("Select one session for its summary, or two to compare them.") + "</p>")

    def _on_open_button_clicked(self) -> None:
        chosen = self.selected()
        if len(chosen) == 1 and not chosen[0].problem and self.open_path(str(chosen[0].path)):
            self.accept()

    def _on_export_button_clicked(self) -> None:
        chosen = self.selected()
        if len(chosen) != 1:
            return
        suggested = str(Path.home() / f"gpu-session-{chosen[0].id}.csv")
        target, _ = QFileDialog.getSaveFileName(self, self.tr("Export session"), suggested, self.tr("CSV files (*.csv)"))
        if not target:
            return
        try:
            rows = self.export_selected(Path(target))
        except Exception as exc:  # RecordingError or OSError: one line, the recording is untouched
            self._problem(self.tr("The export failed"), _said(exc))
            return
        QMessageBox.information(self, self.tr("Export session"),
                                self.tr("Saved {rows} rows to {path}.").format(rows=rows, path=target))

    def _on_delete_button_clicked(self) -> None:
        chosen = self.selected()
        if not chosen:
            return
        ids = [s.id for s in chosen]
        names = ", ".join(ids[:5]) + (" …" if len(ids) > 5 else "")
        text = (self.tr("Delete the recorded session {name}?").format(name=ids[0]) if len(ids) == 1 else
                self.tr("Delete {count} recorded sessions ({names})?").format(count=len(ids), names=names))
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Delete sessions"),
                          text + "\n" + self.tr("The files are removed from this computer; this cannot be undone."),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("sessionsDelete")
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.buttonClicked.connect(
            lambda button: self.delete_sessions(ids) if box.standardButton(button) == QMessageBox.StandardButton.Yes else None)
        box.open()

    def _on_file_button_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open a log file"), str(Path.home()),
            self.tr("GPU logs (*.csv *.sqlite *.txt *.log);;All files (*)"))
        if path and self.open_path(path):
            self.accept()

    # ---- Internals
    def _show_summaries(self, sessions: list[Any]) -> None:
        try:
            summaries = [self.store.summary(s.id) for s in sessions]
        except Exception as exc:  # a damaged file: say so, never crash the dialog
            unreadable = self.tr("This recording cannot be read.")
            self.details.setHtml(f"<p><b>{unreadable}</b><br>{exc}</p>")
            return
        rows = [
            (self.tr("Length"), lambda g: format_duration(g.duration_s)),
            (self.tr("Average utilisation"), lambda g: _num(g.mean_utilization_pct, "%")),
            (self.tr("Peak memory"), lambda g: format_mib(g.peak_memory_used_mib)),
            (self.tr("Average temperature"), lambda g: _num(g.mean_temperature_c, "°C")),
            (self.tr("Peak temperature"), lambda g: _num(g.peak_temperature_c, "°C")),
            (self.tr("Average power"), lambda g: _num(g.mean_power_w, "W")),
            (self.tr("Energy"), lambda g: _energy(g.energy_wh)),
            (self.tr("Clocks held back"), _throttle_text),
        ]
        columns = [(summary, gpu) for summary in summaries for gpu in summary.gpus]
        gpu_label = self.tr("GPU {index}")
        head = "".join(
            f"<th align='left'>{_stamp(summary.session.start)}<br>"
            f"<span style='font-weight:normal'>{gpu_label.format(index=gpu.index)} · {gpu.name}</span></th>"
            for summary, gpu in columns)
        body = "".join(
            f"<tr><td style='color:#52606d'>{label}</td>" + "".join(f"<td>{fn(gpu)}</td>" for _, gpu in columns) + "</tr>"
            for label, fn in rows)
        title = self.tr("Comparison") if len(sessions) == 2 else self.tr("Summary")
        self.details.setHtml(f"<h3>{title}</h3><table cellspacing='0' cellpadding='4'>"
                             f"<tr><th></th>{head}</tr>{body}</table>")

    def _problem(self, title: str, detail: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, title, detail, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("sessionsProblem")
        box.open()


def _said(exc: BaseException) -> str:
    """An error's one line in the UI language: a RecordingError/ReplayError (or the ValueError that
    carries one) has a translatable ``Msg``; an OSError and the like are shown as they come."""
    message = getattr(exc, "message", None)
    if message is None and exc.args and isinstance(exc.args[0], Msg):
        message = exc.args[0]
    return render(message) if isinstance(message, (Msg, str)) and message else str(exc)


def _energy(wh: float | None) -> str:
    if wh is None:
        return DASH
    return f"{wh / 1000:.2f} kWh" if wh >= 1000 else f"{wh:.0f} Wh"


def _throttle_text(gpu: Any) -> str:
    parts = []
    for reason in throttle.REASONS:
        seconds = gpu.throttle_seconds.get(reason.code, 0.0)
        if reason.warn and seconds >= 1:
            parts.append(f"{render(reason.label)} {format_duration(seconds)}")
    return ", ".join(parts) or QCoreApplication.translate("SessionsDialog", "none")
