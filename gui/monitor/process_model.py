"""The process view's table model: the rows of one ``ProcessTable`` from ``ProcessService``, filtered
and sorted by the service's rules."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from gui.i18n import render
from gui.monitor.widgets import DASH, format_mib
from services.telemetry.processes import (
    COLUMNS, FADE_S, NOT_REPORTED_WHY, GpuProcess, ProcessTable, matches, sort_key,
)

KEY_ROLE = Qt.ItemDataRole.UserRole + 1
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_ROLES = frozenset({Qt.ItemDataRole.DisplayRole, KEY_ROLE, Qt.ItemDataRole.TextAlignmentRole,
                    Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.FontRole})
_NUMERIC = {"pid", "sm_pct", "gpu_memory", "shared_mib", "video", "cpu_pct", "host_mib", "running"}


class ProcessModel(QAbstractTableModel):
    """The rows of one ``ProcessTable``, filtered and sorted; ``KEY_ROLE`` gives (pid, gpu key)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._table = ProcessTable(t=0.0)
        self._rows: list[GpuProcess] = []
        self._filter = ""
        self._sort_column = COLUMNS.index("gpu_memory")
        self._sort_order = Qt.SortOrder.DescendingOrder

    # ---- Public API
    def set_table(self, table: ProcessTable) -> None:
        self._table = table
        self._refresh()

    def set_filter(self, text: str) -> None:
        self._filter = text.strip()
        self._refresh()

    def row_of(self, key: tuple[int, str]) -> int:
        return next((i for i, r in enumerate(self._rows) if r.key == key), -1)

    def process(self, row: int) -> GpuProcess:
        return self._rows[row]

    @property
    def table(self) -> ProcessTable:
        return self._table

    def total_rows(self) -> int:
        return len(self._table.rows)

    # ---- Qt methods
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sort_column, self._sort_order = column, order
        self.layoutAboutToBeChanged.emit()
        self._rows = self._sorted(self._rows)
        self.layoutChanged.emit()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._titles()[section]
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section] == "sm_pct":
            return self.tr("Share of the GPU's compute units (NVML), or on Windows the busiest 3D/compute "
                           "engine, as Task Manager shows it")
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section] == "gpu_memory":
            return self.tr("The card's own (dedicated) memory the process holds")
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section] == "shared_mib":
            return self.tr("Windows: system memory mapped for the GPU. A program whose GPU memory is full "
                           "spills here and runs many times slower.")
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES or not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None  # the view asks for a dozen roles per cell on every repaint; most are not ours
        row = self._rows[index.row()]
        column = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row, column)
        if role == KEY_ROLE:
            return row.key
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMERIC:
            return RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        if role == Qt.ItemDataRole.ForegroundRole:
            if row.ended_at is not None:
                # Fades out over FADE_S seconds, then the service drops the row.
                left = max(0.0, 1.0 - (self._table.t - row.ended_at) / FADE_S)
                colour = QColor("#7b8794")
                colour.setAlphaF(0.25 + 0.6 * left)
                return colour
            if self._missing(row, column):
                return QColor("#7b8794")
        if role == Qt.ItemDataRole.FontRole and row.ended_at is not None:
            font = QFont()
            font.setItalic(True)
            return font
        return None

    # ---- internals
    def _titles(self) -> tuple[str, ...]:
        return (self.tr("PID"), self.tr("Name"), self.tr("User"), self.tr("GPU"), self.tr("Type"), self.tr("SM"),
                self.tr("GPU memory"), self.tr("Shared"), self.tr("Video"), self.tr("CPU"), self.tr("RAM"),
                self.tr("Running"))

    def _refresh(self) -> None:
        rows = self._sorted([r for r in self._table.rows if not self._filter or matches(r, self._filter)])
        if [r.key for r in rows] == [r.key for r in self._rows]:
            # The same processes in the same order (most refreshes): new values, no reset.
            self._rows = rows
            if rows:
                self.dataChanged.emit(self.index(0, 0), self.index(len(rows) - 1, len(COLUMNS) - 1))
            return
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def _sorted(self, rows: list[GpuProcess]) -> list[GpuProcess]:
        column = COLUMNS[self._sort_column] if 0 <= self._sort_column < len(COLUMNS) else "gpu_memory"
        key = sort_key(column, self._table.t)
        present = [r for r in rows if key(r)[0] == 0]
        missing = [r for r in rows if key(r)[0] != 0]  # "not reported" stays last either way
        present.sort(key=key, reverse=self._sort_order == Qt.SortOrder.DescendingOrder)
        return present + sorted(missing, key=lambda r: r.pid)

    def _missing(self, row: GpuProcess, column: str) -> bool:
        if row.ended_at is not None:
            return False
        return {"sm_pct": row.sm_pct is None, "gpu_memory": row.used_mib is None, "user": row.user is None,
                "cpu_pct": row.cpu_pct is None, "host_mib": row.host_mib is None,
                "running": row.started_at is None}.get(column, False)

    def _text(self, row: GpuProcess, column: str) -> str:
        not_reported = self.tr("not reported")
        if column == "pid":
            return str(row.pid)
        if column == "name":
            return row.name if row.ended_at is None else self.tr("{name} (ended)").format(name=row.name)
        if column == "user":
            return row.user or not_reported
        if column == "gpu":
            return row.gpu_label
        if column == "kind":
            return self._kind(row)
        if row.ended_at is not None and column in ("sm_pct", "video", "cpu_pct"):
            return DASH
        if column == "sm_pct":
            return f"{row.sm_pct:.0f} %" if row.sm_pct is not None else not_reported
        if column == "gpu_memory":
            if row.used_mib is None:
                return not_reported
            return format_mib(row.used_mib)
        if column == "shared_mib":
            return format_mib(row.shared_mib) if row.shared_mib is not None else DASH
        if column == "video":
            # Only when the video engines work: an idle encoder is not news.
            parts = []
            if row.encoder_pct:
                parts.append(self.tr("enc {pct} %").format(pct=f"{row.encoder_pct:.0f}"))
            if row.decoder_pct:
                parts.append(self.tr("dec {pct} %").format(pct=f"{row.decoder_pct:.0f}"))
            return ", ".join(parts)
        if column == "cpu_pct":
            return f"{row.cpu_pct:.0f} %" if row.cpu_pct is not None else not_reported
        if column == "host_mib":
            return format_mib(row.host_mib) if row.host_mib is not None else not_reported
        if column == "running":
            seconds = row.running_s(self._table.t)
            return _duration(seconds) if seconds is not None else not_reported
        return ""

    def _kind(self, row: GpuProcess) -> str:
        kinds = {"compute": self.tr("Compute"), "graphics": self.tr("Graphics"),
                 "compute+graphics": self.tr("Compute + graphics")}
        if row.kind:
            return kinds.get(row.kind, row.kind)
        if row.engine_type:
            return row.engine_type
        return DASH

    def _tooltip(self, row: GpuProcess, column: str) -> str | None:
        if column == "name":
            return row.command_line or self.tr("The system does not show this process's command line.")
        if column == "gpu" and row.integrated:
            return self.tr("The integrated GPU")
        if self._missing(row, column):
            why = NOT_REPORTED_WHY.get(column)
            return render(why) if why is not None else None
        return None


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60}:{seconds % 60:02d}"
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
