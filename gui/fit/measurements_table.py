"""The fit page's "Your measurements" tab: every run the user measured, with delete and CSV export."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidget, QTableWidgetItem,
    QVBoxLayout, QWidget,
)

from gui.i18n import render
from services.modelfit.measurements import MeasurementStore, StoreError, export_csv


class MeasurementsTable(QWidget):
    """The "Your measurements" tab: every stored run, with delete and CSV export."""

    changed = Signal()

    def __init__(self, store: MeasurementStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.rows: list = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        self.table = QTableWidget(0, 8)
        # The figures first: on a small window the columns to the right are the ones scrolled to.
        self.table.setHorizontalHeaderLabels([self.tr("Date"), self.tr("Model"), self.tr("Peak GiB"), self.tr("Estimate GiB"),
                                              self.tr("Error"), self.tr("Context × batch"), self.tr("Engine"), self.tr("GPU")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)  # model ids are long: a fixed start
        header.resizeSection(1, 170)
        header.setStretchLastSection(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(20)
        layout.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.message_label = QLabel()
        self.message_label.setProperty("role", "muted")
        self.message_label.setWordWrap(True)
        self.delete_button = QPushButton(self.tr("Delete"))
        self.delete_button.clicked.connect(self.delete_selected)
        self.export_button = QPushButton(self.tr("Export CSV…"))
        self.export_button.clicked.connect(self._export)
        row.addWidget(self.message_label, 1)
        row.addWidget(self.export_button)
        row.addWidget(self.delete_button)
        layout.addLayout(row)
        self.reload()

    def title(self) -> str:
        return self.tr("Your measurements")

    def reload(self) -> None:
        try:
            self.rows = self.store.list()
            self.message_label.setText("" if self.rows else self.tr("No measurements yet: measure a run in the previous tab"))
        except StoreError as exc:
            self.rows = []
            self.message_label.setText(render(exc.message))
        self.table.setRowCount(len(self.rows))
        for i, m in enumerate(reversed(self.rows)):
            cells = [m.date, m.model, "–" if m.peak_gib is None else f"{m.peak_gib:.2f}", f"{m.estimate_gib:.2f}",
                     "–" if m.error_pct is None else f"{m.error_pct:+.1f}%",
                     f"{m.settings.get('seq', '')} × {m.settings.get('batch', '')}", m.engine, m.gpu_name or ""]
            for j, value in enumerate(cells):
                item = QTableWidgetItem(value)
                if 2 <= j <= 4:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if j == 0:
                    item.setData(Qt.ItemDataRole.UserRole, m.id)
                    item.setToolTip(" ".join(m.command) or self.tr("attached to PID %1").replace("%1", str(m.pid)))
                self.table.setItem(i, j, item)
        self.delete_button.setEnabled(bool(self.rows))
        self.export_button.setEnabled(bool(self.rows))

    def selected_ids(self) -> list[int]:
        rows = {index.row() for index in self.table.selectionModel().selectedRows()}
        return [self.table.item(r, 0).data(Qt.ItemDataRole.UserRole) for r in sorted(rows)]

    def delete_selected(self) -> int:
        ids = self.selected_ids()
        if not ids:
            self.message_label.setText(self.tr("Select the measurements to delete"))
            return 0
        try:
            count = self.store.delete(ids)
        except StoreError as exc:
            self.message_label.setText(render(exc.message))
            return 0
        self.reload()
        self.changed.emit()
        return count

    def export_to(self, path: str) -> bool:
        try:
            count = export_csv(self.rows, Path(path))
        except StoreError as exc:
            self.message_label.setText(render(exc.message))
            return False
        self.message_label.setText(self.tr("Measurements written to %1: %2").replace("%1", path).replace("%2", str(count)))
        return True

    def _export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export measurements"), "measurements.csv", "CSV (*.csv)")
        if path:
            self.export_to(path)
