"""The hybrid page's program list: which GPU each program uses, filterable and sortable."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QColor, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QStackedWidget, QTableView,
    QVBoxLayout, QWidget,
)

from services.hybrid.model import Basis, Placement, ProcessReport, ScanResult

PID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
PLACEMENT_COLOURS = {
    Placement.NVIDIA: "#4e8a00", Placement.INTEGRATED: "#0b63a8", Placement.OTHER: "#a8560b",
    Placement.BOTH: "#7a3ea8", Placement.NONE: "#777777",
}
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class ProgramList(QWidget):
    """Signals:
        selection_changed(): the selected program changed (``selected_pid`` says which).
        show_all_toggled(bool): "Show every program" was ticked or cleared.
    """

    selection_changed = Signal()
    show_all_toggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.selected_pid: int | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        filters = QHBoxLayout()
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText(self.tr("Filter by name or PID"))
        self.filter_edit.setClearButtonEnabled(True)
        filters.addWidget(self.filter_edit, 1)
        self.all_check = QCheckBox(self.tr("Show every program"))
        self.all_check.setToolTip(self.tr("Also list programs that show no sign of GPU use"))
        self.all_check.toggled.connect(self.show_all_toggled)
        filters.addWidget(self.all_check)
        layout.addLayout(filters)
        self.model = QStandardItemModel(0, 5, self)
        self.model.setHorizontalHeaderLabels(
            [self.tr("Program"), self.tr("PID"), self.tr("GPU"), self.tr("Engine use"), self.tr("GPU memory")])
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setSortRole(SORT_ROLE)
        self.table = self._build_table()
        self.list_stack = QStackedWidget()
        self.list_stack.addWidget(self.table)
        self.empty_label = QLabel()
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setStyleSheet(
            "color: #52606d; background: #ffffff; border: 1px dashed #bcccdc; border-radius: 6px;")
        self.list_stack.addWidget(self.empty_label)
        layout.addWidget(self.list_stack, 1)

    def _build_table(self) -> QTableView:
        table = QTableView()
        table.setModel(self.proxy)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSortingEnabled(True)
        table.sortByColumn(3, Qt.SortOrder.DescendingOrder)
        table.verticalHeader().hide()
        table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        table.setAlternatingRowColors(True)
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, 5):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        return table

    # ---- Public API
    def placement_text(self, placement: Placement) -> str:
        return {
            Placement.NVIDIA: self.tr("NVIDIA GPU"), Placement.INTEGRATED: self.tr("Integrated GPU"),
            Placement.OTHER: self.tr("Other GPU"), Placement.BOTH: self.tr("Both GPUs"), Placement.NONE: self.tr("No GPU"),
        }[placement]

    def basis_text(self, basis: Basis) -> str:
        return {
            Basis.MEASURED: self.tr("measured while it worked"),
            Basis.CONTEXT: self.tr("idle; judged by the GPU it holds"),
            Basis.LIBRARIES: self.tr("judged by the drivers it loaded"),
            Basis.NOTHING: self.tr("no evidence"),
        }[basis]

    def fill(self, result: ScanResult, nvidia_names: Callable[[ProcessReport], list[str]]) -> None:
        """One row a program; ``nvidia_names`` names the NVIDIA GPUs a program uses (when there are two).

        The selection stays on the same program (by PID) across refreshes: removing the old rows
        must not read as "the user selected nothing" and then fall back to the first row, or a
        later "Run on the NVIDIA GPU" would be planned for another program. When the selected
        program has ended, nothing is selected and ``selected_pid`` still names it.
        """
        keep = self.selected_pid
        selection = self.table.selectionModel()
        selection.blockSignals(True)
        try:
            self.model.removeRows(0, self.model.rowCount())
            for report in result.processes:
                self.model.appendRow(self._row(report, nvidia_names(report)))
            self.proxy.sort(self.proxy.sortColumn(), self.proxy.sortOrder())
            restored = keep is not None and self._restore_selection(keep)
            if keep is not None and not restored:
                selection.clearSelection()
        finally:
            selection.blockSignals(False)
        self.table.viewport().update()  # the view repaints on the (blocked) selection signals
        self.selected_pid = keep
        if keep is None and self.proxy.rowCount() > 0:
            self.table.selectRow(0)  # nothing chosen yet: show one program's evidence at once
        elif keep is not None and not restored:
            self.selection_changed.emit()  # it ended: the details say so, the actions turn off
        self.update_empty_state(result.inventory.has_gpu)

    def update_empty_state(self, has_gpu: bool) -> None:
        if self.proxy.rowCount() > 0:
            self.list_stack.setCurrentWidget(self.table)
            return
        if self.model.rowCount() > 0:
            self.show_empty(self.tr("No program matches the filter."))
        elif has_gpu:
            self.show_empty(self.tr("No program is using a GPU right now.\nStart one, or tick “Show every program”."))
        else:
            self.show_empty(self.tr("No program is using a GPU."))

    def show_empty(self, text: str) -> None:
        self.empty_label.setText(text)
        self.list_stack.setCurrentWidget(self.empty_label)

    def select_pid(self, pid: int) -> bool:
        for row in range(self.proxy.rowCount()):
            if self.proxy.index(row, 0).data(PID_ROLE) == pid:
                self.table.selectRow(row)
                return True
        return False

    def set_filter(self, text: str) -> None:
        self.proxy.setFilterFixedString(text.strip())

    # ---- internals
    def _row(self, report: ProcessReport, names: list[str]) -> list[QStandardItem]:
        text = self.placement_text(report.placement)
        if names and report.placement in (Placement.NVIDIA, Placement.BOTH):
            # With two NVIDIA GPUs, which one ("NVIDIA GPU: RTX 4090").
            short = ", ".join(n.replace("NVIDIA ", "").replace("GeForce ", "") for n in names)
            text = self.tr("{placement}: {gpus}").format(placement=text, gpus=short)
        placement = QStandardItem(text)
        placement.setForeground(QColor(PLACEMENT_COLOURS[report.placement]))
        placement.setToolTip(self.basis_text(report.basis))
        placement.setData(report.placement.value, SORT_ROLE)
        name = QStandardItem(report.name)
        name.setToolTip(report.exe or report.name)
        name.setData(report.name.lower(), SORT_ROLE)
        name.setData(report.pid, PID_ROLE)
        pid = QStandardItem(str(report.pid))
        pid.setData(report.pid, SORT_ROLE)
        pid.setTextAlignment(RIGHT)
        work = report.work_pct
        engine = QStandardItem("—" if work is None else f"{work:.0f}%")
        engine.setData(-1.0 if work is None else work, SORT_ROLE)
        engine.setTextAlignment(RIGHT)
        memory_mib = report.memory_mib
        memory = QStandardItem("—" if memory_mib is None else f"{memory_mib:,.0f} MiB")
        memory.setData(-1.0 if memory_mib is None else memory_mib, SORT_ROLE)
        memory.setTextAlignment(RIGHT)
        return [name, pid, placement, engine, memory]

    def _restore_selection(self, pid: int) -> bool:
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if index.data(PID_ROLE) == pid:
                self.table.selectRow(row)
                return True
        return False

    def _on_selection_changed(self, *_args) -> None:
        rows = self.table.selectionModel().selectedRows()
        self.selected_pid = rows[0].data(PID_ROLE) if rows else None
        self.selection_changed.emit()
