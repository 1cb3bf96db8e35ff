"""Hybrid GPU page: the GPUs, which GPU each program really uses, and putting a program on
the NVIDIA GPU. All work is done by ``services.hybrid``; sampling runs off the GUI thread."""
from __future__ import annotations

import shlex
import threading

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QColor, QResizeEvent, QShowEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QBoxLayout,
    QAbstractItemView, QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QFrame, QHBoxLayout, QHeaderView,
    QLabel, QLineEdit, QPlainTextEdit, QPushButton, QScrollArea, QSizePolicy, QSplitter, QStackedWidget,
    QTableView, QVBoxLayout, QWidget,
)

from gui.context import AppContext
from gui.i18n import render
from gui.widgets.background import BackgroundWork, Job, describe_error
from gui.widgets.visible_timer import VisibleTimer
from services.hybrid.launch import LaunchReport
from services.hybrid.model import Basis, GpuAdapter, GpuKind, Inventory, Placement, ProcessReport, ScanResult, Vendor
from services.hybrid.preference import PlanError, PreferencePlan

REFRESH_MS = 3000
FIRST_INTERVAL_S = 0.5
INTERVAL_S = 1.0
# Below this page width the action buttons stack, so the program list keeps room for its names.
NARROW_PAGE_PX = 1000
PID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2

VENDOR_COLOURS = {Vendor.NVIDIA: "#76b900", Vendor.INTEL: "#0071c5", Vendor.AMD: "#ed1c24", Vendor.OTHER: "#808080"}
PLACEMENT_COLOURS = {
    Placement.NVIDIA: "#4e8a00", Placement.INTEGRATED: "#0b63a8", Placement.OTHER: "#a8560b",
    Placement.BOTH: "#7a3ea8", Placement.NONE: "#777777",
}


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
        self.text = QPlainTextEdit(plan.describe())
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        layout.addWidget(self.text, 1)
        notes = QLabel("<br>".join("• " + _esc(render(n)) for n in plan.notes))
        notes.setWordWrap(True)
        layout.addWidget(notes)
        buttons = QDialogButtonBox(self)
        self.apply_button = buttons.addButton(self.tr("Apply"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class GpuCard(QFrame):
    def __init__(self, adapter: GpuAdapter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("gpuCard")
        colour = VENDOR_COLOURS[adapter.vendor]
        self.setStyleSheet(
            f"#gpuCard {{ background: #ffffff; border: 1px solid #d9e2ec; border-left: 5px solid {colour};"
            " border-radius: 8px; }")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(2)
        kinds = {GpuKind.INTEGRATED: self.tr("Integrated"), GpuKind.DISCRETE: self.tr("Discrete"),
                 GpuKind.UNKNOWN: self.tr("Integrated or discrete: unknown")}
        name = QLabel(f"<b>{_esc(adapter.name)}</b>")
        name.setWordWrap(True)
        layout.addWidget(name)
        kind = QLabel(f"<span style='color:{colour}'>●</span> {kinds[adapter.kind]}")
        if adapter.kind_reason is not None:
            kind.setToolTip(render(adapter.kind_reason))
        layout.addWidget(kind)
        if adapter.drives_display:
            outputs = ", ".join(adapter.connected_outputs)
            layout.addWidget(QLabel(self.tr("Drives the display") + (f" ({outputs})" if outputs else "")))
        elif adapter.drives_display is False:
            layout.addWidget(QLabel(self.tr("No display connected")))
        # None (Windows, from the registry alone): say nothing rather than guess
        details = " · ".join(x for x in (adapter.driver, adapter.pci_address, adapter.luid and "LUID " + adapter.luid) if x)
        if details:
            small = QLabel(f"<span style='color:#52606d'>{_esc(details)}</span>")
            small.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(small)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)


class HybridPage(QWidget):
    """Signals:
        scan_done(object): a ScanResult was shown.
        launch_done(object): a LaunchReport was shown (None when the launch failed).
        preference_applied(object): an AppliedRecord after "Run on the NVIDIA GPU".
    """

    scan_done = Signal(object)
    launch_done = Signal(object)
    preference_applied = Signal(object)

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        if context.hybrid_service is None:
            from services.hybrid.service import default_service

            context.hybrid_service = default_service()
        self.service = context.hybrid_service
        self.result: ScanResult | None = None
        self._stop = threading.Event()
        self._work = BackgroundWork(self, max_threads=2, name="hybrid")  # a scan and a launch may overlap
        self._scan_job: Job | None = None
        self._launch_job: Job | None = None
        self._selected_pid: int | None = None
        self._last_record = None
        self._plan_dialog: PlanDialog | None = None
        self._inventory_key: tuple | None = None
        self._modes = None
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
        outer.addLayout(head)

        # GPUs (cards) or the "no GPU" explanation
        self.inventory_box = QWidget()
        self.inventory_layout = QHBoxLayout(self.inventory_box)
        self.inventory_layout.setContentsMargins(0, 0, 0, 0)
        self.inventory_layout.setSpacing(10)
        outer.addWidget(self.inventory_box)
        self.no_gpu_box = QFrame()
        self.no_gpu_box.setObjectName("noGpu")
        self.no_gpu_box.setStyleSheet(
            "#noGpu { border: 1px solid #d9a400; border-left: 5px solid #d9a400; border-radius: 6px;"
            " background: rgba(217, 164, 0, 28); }")
        no_gpu_layout = QVBoxLayout(self.no_gpu_box)
        no_gpu_layout.setContentsMargins(14, 10, 14, 10)
        no_gpu_text = self.tr("No GPU found on this computer")
        self.no_gpu_title = QLabel(f"<b>{no_gpu_text}</b>")
        self.no_gpu_text = QLabel()
        self.no_gpu_text.setWordWrap(True)
        self.no_gpu_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        no_gpu_layout.addWidget(self.no_gpu_title)
        no_gpu_layout.addWidget(self.no_gpu_text)
        self.no_gpu_box.hide()
        outer.addWidget(self.no_gpu_box)
        self.mode_label = QLabel()
        self.mode_label.setWordWrap(True)
        self.mode_label.setProperty("role", "muted")
        outer.addWidget(self.mode_label)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setChildrenCollapsible(False)
        outer.addWidget(splitter, 1)

        # process list
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        filters = QHBoxLayout()
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText(self.tr("Filter by name or PID"))
        self.filter_edit.setClearButtonEnabled(True)
        filters.addWidget(self.filter_edit, 1)
        self.all_check = QCheckBox(self.tr("Show every program"))
        self.all_check.setToolTip(self.tr("Also list programs that show no sign of GPU use"))
        self.all_check.toggled.connect(self._on_all_toggled)
        filters.addWidget(self.all_check)
        left_layout.addLayout(filters)
        self.model = QStandardItemModel(0, 5, self)
        self.model.setHorizontalHeaderLabels(
            [self.tr("Program"), self.tr("PID"), self.tr("GPU"), self.tr("Engine use"), self.tr("GPU memory")])
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setSortRole(SORT_ROLE)
        self.filter_edit.textChanged.connect(self._on_filter_changed)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(3, Qt.SortOrder.DescendingOrder)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, 5):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.list_stack = QStackedWidget()
        self.list_stack.addWidget(self.table)
        self.empty_label = QLabel()
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setStyleSheet(
            "color: #52606d; background: #ffffff; border: 1px dashed #bcccdc; border-radius: 6px;")
        self.list_stack.addWidget(self.empty_label)
        left_layout.addWidget(self.list_stack, 1)
        splitter.addWidget(left)

        # details of the selected program
        right = QFrame()
        right.setObjectName("details")
        right.setStyleSheet("#details { background: #ffffff; border: 1px solid #d9e2ec; border-radius: 8px; }")
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(14, 12, 14, 12)
        self.program_label = QLabel(self.tr("Select a program to see which GPU it uses and why."))
        self.program_label.setWordWrap(True)
        self.program_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        right_layout.addWidget(self.program_label)
        self.verdict_label = QLabel()
        self.verdict_label.setWordWrap(True)
        right_layout.addWidget(self.verdict_label)
        evidence_text = self.tr("Evidence")
        evidence_title = QLabel(f"<b>{evidence_text}</b>")
        right_layout.addWidget(evidence_title)
        self.evidence_label = QLabel()
        self.evidence_label.setWordWrap(True)
        self.evidence_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.evidence_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.evidence_label)
        right_layout.addWidget(scroll, 1)
        buttons = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self._action_buttons = buttons
        self.prefer_button = QPushButton(self.tr("Run on the NVIDIA GPU"))
        self.prefer_button.setProperty("primary", True)
        # the theme's primary style has no disabled look; a disabled action must not look clickable
        self.prefer_button.setStyleSheet(
            "QPushButton:disabled { background: #e4e7eb; border-color: #e4e7eb; color: #9aa5b1; }")
        self.prefer_button.clicked.connect(self._on_prefer_clicked)
        self.launch_button = QPushButton(self.tr("Launch and check…"))
        self.launch_button.clicked.connect(self._on_launch_clicked)
        self.undo_button = QPushButton(self.tr("Undo"))
        self.undo_button.clicked.connect(self._on_undo_clicked)
        self.undo_button.hide()
        buttons.addWidget(self.prefer_button)
        buttons.addWidget(self.launch_button)
        buttons.addWidget(self.undo_button)
        buttons.addStretch(1)
        right_layout.addLayout(buttons)
        self.action_label = QLabel()
        self.action_label.setWordWrap(True)
        self.action_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        right_layout.addWidget(self.action_label)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([680, 380])
        self._update_actions()
        self._show_empty(self.tr("Sampling…"))

    # ---- polling
    def refresh(self) -> None:
        """Start one scan unless one is running; the next is scheduled when it ends."""
        if self._scan_job is not None and self._scan_job.is_running():
            return
        interval = FIRST_INTERVAL_S if self.result is None else INTERVAL_S
        self.status_label.setText(self.tr("Sampling…"))
        service, include_all, stop = self.service, self.all_check.isChecked(), self._stop

        def scan(_report):
            result = service.scan(interval, stop=stop, include_all=include_all)
            return result, service.system_modes()  # runs small commands: never on the GUI thread

        self._scan_job = self._work.submit(
            scan, lambda outcome: self._on_scan_finished(*outcome, None),
            lambda exc: self._on_scan_finished(None, None, describe_error(exc)))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        self._stop.clear()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        direction = (QBoxLayout.Direction.TopToBottom if self.width() < NARROW_PAGE_PX
                     else QBoxLayout.Direction.LeftToRight)
        if self._action_buttons.direction() != direction:
            self._action_buttons.setDirection(direction)

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
        self._modes = modes
        self._show_inventory(result.inventory)
        if not result.inventory.has_gpu and not self._auto_all_done:
            # Nothing uses a GPU here; listing every program still shows what each one loads.
            self._auto_all_done = True
            self.all_check.setChecked(True)
        self._fill_table(result)
        status = (self.tr("1 program · sampled over {seconds} s") if len(result.processes) == 1
                  else self.tr("{count} programs · sampled over {seconds} s"))
        self.status_label.setText(status.format(count=len(result.processes), seconds=f"{result.interval_s:.1f}"))
        self.status_label.setToolTip("\n".join(render(n) for n in result.notes))
        self._show_details()
        self.scan_done.emit(result)

    def _show_inventory(self, inventory: Inventory) -> None:
        key = tuple((a.key, a.name, a.drives_display) for a in inventory.adapters) + (len(inventory.problems),)
        if key == self._inventory_key:
            return
        self._inventory_key = key
        while self.inventory_layout.count():
            item = self.inventory_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        for adapter in inventory.adapters:
            self.inventory_layout.addWidget(GpuCard(adapter, self.inventory_box), 1)
        if inventory.adapters:
            self.inventory_layout.addStretch(0 if len(inventory.adapters) > 2 else 1)
        self.inventory_box.setVisible(bool(inventory.adapters))
        self.no_gpu_box.setVisible(not inventory.has_gpu)
        if not inventory.has_gpu:
            lines = [self.tr("Neither the kernel nor the NVIDIA driver reports a graphics adapter, so no program "
                             "can be using one. This happens in virtual machines and containers without GPU "
                             "passthrough, and when the graphics driver is not installed or not loaded.")]
            lines.append(self.tr("What was checked: {checks}").format(
                checks=" · ".join(_esc(render(m)) for m in inventory.checked)))
            lines += ["• " + _esc(render(m)) for m in inventory.problems]
            lines.append(self.tr("The list below still shows what each program loads; the Setup page helps "
                                 "install the NVIDIA driver."))
            self.no_gpu_text.setText("<br>".join(lines))
        self._update_mode_label()
        self._update_actions()

    def _update_mode_label(self) -> None:
        modes = self._modes
        parts = []
        if modes is not None:
            for mode in modes.modes:
                parts.append(self.tr("System mode ({tool}): {mode}").format(tool=mode.tool, mode=mode.mode or mode.output))
            if modes.switcheroo is not None:
                parts.append(self.tr("switcheroo-control is running ({count} GPUs)").format(count=len(modes.switcheroo)))
        if parts:
            parts.append(self.tr("GPU Assistant reports the system mode but never switches it."))
        self.mode_label.setText(" · ".join(parts))
        self.mode_label.setVisible(bool(parts))

    def _placement_text(self, placement: Placement) -> str:
        return {
            Placement.NVIDIA: self.tr("NVIDIA GPU"), Placement.INTEGRATED: self.tr("Integrated GPU"),
            Placement.OTHER: self.tr("Other GPU"), Placement.BOTH: self.tr("Both GPUs"), Placement.NONE: self.tr("No GPU"),
        }[placement]

    def _placement_cell(self, report, inventory) -> str:  # noqa: ANN001
        """The GPU column: with two NVIDIA GPUs, which one ("NVIDIA GPU: RTX 4090")."""
        text = self._placement_text(report.placement)
        names = self.service.nvidia_gpu_names(report, inventory)
        if names and report.placement in (Placement.NVIDIA, Placement.BOTH):
            short = ", ".join(n.replace("NVIDIA ", "").replace("GeForce ", "") for n in names)
            text = self.tr("{placement}: {gpus}").format(placement=text, gpus=short)
        return text

    def _basis_text(self, basis: Basis) -> str:
        return {
            Basis.MEASURED: self.tr("measured while it worked"),
            Basis.CONTEXT: self.tr("idle; judged by the GPU it holds"),
            Basis.LIBRARIES: self.tr("judged by the drivers it loaded"),
            Basis.NOTHING: self.tr("no evidence"),
        }[basis]

    def _fill_table(self, result: ScanResult) -> None:
        self.model.removeRows(0, self.model.rowCount())
        for report in result.processes:
            placement = QStandardItem(self._placement_cell(report, result.inventory))
            placement.setForeground(QColor(PLACEMENT_COLOURS[report.placement]))
            placement.setToolTip(self._basis_text(report.basis))
            placement.setData(report.placement.value, SORT_ROLE)
            name = QStandardItem(report.name)
            name.setToolTip(report.exe or report.name)
            name.setData(report.name.lower(), SORT_ROLE)
            name.setData(report.pid, PID_ROLE)
            pid = QStandardItem(str(report.pid))
            pid.setData(report.pid, SORT_ROLE)
            pid.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            work = report.work_pct
            engine = QStandardItem("—" if work is None else f"{work:.0f}%")
            engine.setData(-1.0 if work is None else work, SORT_ROLE)
            engine.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            memory_mib = report.memory_mib
            memory = QStandardItem("—" if memory_mib is None else f"{memory_mib:,.0f} MiB")
            memory.setData(-1.0 if memory_mib is None else memory_mib, SORT_ROLE)
            memory.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.model.appendRow([name, pid, placement, engine, memory])
        self.proxy.sort(self.proxy.sortColumn(), self.proxy.sortOrder())
        self._restore_selection()
        if self._selected_pid is None and self.proxy.rowCount() > 0:
            self.table.selectRow(0)  # show one program's evidence at once
        self._update_empty_state()

    def _update_empty_state(self) -> None:
        if self.proxy.rowCount() > 0:
            self.list_stack.setCurrentWidget(self.table)
            return
        if self.model.rowCount() > 0:
            self._show_empty(self.tr("No program matches the filter."))
        elif self.result is not None and self.result.inventory.has_gpu:
            self._show_empty(self.tr("No program is using a GPU right now.\nStart one, or tick “Show every program”."))
        else:
            self._show_empty(self.tr("No program is using a GPU."))

    def _show_empty(self, text: str) -> None:
        self.empty_label.setText(text)
        self.list_stack.setCurrentWidget(self.empty_label)

    def _restore_selection(self) -> None:
        if self._selected_pid is None:
            return
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if index.data(PID_ROLE) == self._selected_pid:
                self.table.blockSignals(True)
                self.table.selectRow(row)
                self.table.blockSignals(False)
                return

    def selected_report(self) -> ProcessReport | None:
        if self.result is None or self._selected_pid is None:
            return None
        return self.result.process(self._selected_pid)

    def select_pid(self, pid: int) -> bool:
        for row in range(self.proxy.rowCount()):
            if self.proxy.index(row, 0).data(PID_ROLE) == pid:
                self.table.selectRow(row)
                return True
        return False

    def _on_selection_changed(self, *_args) -> None:
        rows = self.table.selectionModel().selectedRows()
        self._selected_pid = rows[0].data(PID_ROLE) if rows else None
        self.action_label.clear()
        self._show_details()

    def _on_filter_changed(self, text: str) -> None:
        self.proxy.setFilterFixedString(text.strip())
        self._update_empty_state()

    def _on_all_toggled(self, _checked: bool) -> None:
        if self.isVisible() or self.result is not None:
            self.refresh()

    def _show_details(self) -> None:
        report = self.selected_report()
        if report is None:
            if self._selected_pid is not None:
                self.program_label.setText(self.tr("That program has ended."))
            else:
                self.program_label.setText(self.tr("Select a program to see which GPU it uses and why."))
            self.verdict_label.clear()
            self.evidence_label.clear()
            self._update_actions()
            return
        where = _esc(report.exe) if report.exe else ""
        self.program_label.setText(f"<b style='font-size:14pt'>{_esc(report.name)}</b>"
                                   f"<br><span style='color:#52606d'>PID {report.pid} {where}</span>")
        colour = PLACEMENT_COLOURS[report.placement]
        self.verdict_label.setText(
            f"<span style='font-size:13pt; color:{colour}'><b>{self._placement_text(report.placement)}</b></span>"
            f" &nbsp; <span style='color:#52606d'>{self._basis_text(report.basis)}</span>")
        lines = ["• " + _esc(render(m)) for m in report.evidence]
        current = self.service.current_preference(report.exe) if report.exe else None
        if current is not None:
            lines.append(f"<br><span style='color:#52606d'>{_esc(render(current))}</span>")
        self.evidence_label.setText("<br>".join(lines))
        self._update_actions()

    def _update_actions(self) -> None:
        inventory = self.result.inventory if self.result else None
        has_target = bool(inventory and self.service.launch_env(inventory)) or bool(
            inventory and inventory.platform == "windows" and inventory.has_nvidia)
        report = self.selected_report()
        offer = self.service.preference_offer(report, inventory) if report is not None else None
        self.prefer_button.setEnabled(has_target and offer is not None and offer.offered)
        running = self._launch_job is not None and self._launch_job.is_running()
        self.launch_button.setEnabled(has_target and not running)
        if inventory is not None and not has_target:
            reason = self.tr("Needs an NVIDIA (or other discrete) GPU; none was found.")
            self.prefer_button.setToolTip(reason)
            self.launch_button.setToolTip(reason)
            if not self.action_label.text():
                self._say(reason, muted=True)
        else:
            self.launch_button.setToolTip(self.tr("Start a program on the NVIDIA GPU and watch where it lands"))
            if offer is not None and not offer.offered and offer.reason is not None:
                # Say why the button is off, where the user looks for it.
                self.prefer_button.setToolTip(render(offer.reason))
                self._say(_esc(render(offer.reason)), muted=True)
            else:
                command = " ".join((offer.program or "", *offer.args)) if offer is not None else ""
                tip = self.tr("Shows the exact change first; backed up and undoable")
                self.prefer_button.setToolTip(f"{tip}\n{command}" if command else tip)
                if offer is not None and self.action_label.text().startswith("<span style='color:#52606d'>"):
                    self.action_label.setText("")  # the previous program's "why not" no longer applies

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
        lines = [self.tr("Done. The old state is backed up in {path}").format(path=_esc(str(record.backup_file)))]
        lines += [_esc(render(n)) for n in plan.notes]
        self._say("<br>".join(lines))
        self.undo_button.show()
        self.preference_applied.emit(record)

    def _on_undo_clicked(self) -> None:
        if self._last_record is None:
            return
        try:
            self.service.undo(self._last_record.plan.program)
        except PlanError as exc:
            self._say(render(exc.message), error=True)
            return
        self._say(self.tr("Undone: {program} is back as it was.").format(program=_esc(self._last_record.plan.program)))
        self._last_record = None
        self.undo_button.hide()

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
        self._say(self.tr("Starting {command} {env}…").format(command=_esc(shlex.join(argv)), env=_esc(shown)))
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
        self.launch_button.setText(self.tr("Checking… {seconds} s").format(seconds=f"{seconds:.0f}"))

    def _on_launch_finished(self, report: LaunchReport | None, error) -> None:
        self.launch_button.setText(self.tr("Launch and check…"))
        self._update_actions()
        if report is None:
            self._say(render(error) if not isinstance(error, str) else error, error=True)
            self.launch_done.emit(None)
            return
        landed = report.report
        if report.outcome == "landed" and landed is not None:
            text = self.tr("Landed on: {gpu} (PID {pid})").format(gpu=self._placement_text(landed.placement), pid=landed.pid)
        elif report.outcome == "exited":
            text = self.tr("The program ended after {seconds} s before it used a GPU.").format(
                seconds=f"{report.waited_s:.1f}")
        elif report.outcome == "stopped":
            text = self.tr("Stopped.")
        else:
            text = self.tr("No GPU work seen within {seconds} s.").format(seconds=f"{report.waited_s:.0f}")
            if landed is not None and landed.placement is not Placement.NONE:
                text += " " + self.tr("Its drivers point to: {gpu}.").format(gpu=self._placement_text(landed.placement))
        details = "<br>".join("• " + _esc(render(m)) for m in (*(landed.evidence if landed else ()), *report.notes))
        self._say(f"<b>{text}</b>" + (f"<br>{details}" if details else ""))
        self.launch_done.emit(report)
        self.refresh()

    def _say(self, html: str, error: bool = False, muted: bool = False) -> None:
        colour = "#b00020" if error else "#52606d" if muted else "palette(text)"
        self.action_label.setText(f"<span style='color:{colour}'>{html}</span>")
