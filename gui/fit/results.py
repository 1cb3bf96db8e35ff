"""The fit page's answer: the headline and memory bar, the largest that fits, the suggestions,
the weights × context grid and the parts table. It shows what services.modelfit computed."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView, QFormLayout, QFrame, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QListWidget,
    QListWidgetItem, QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget,
)

from gui.fit.bar import COLORS, MemoryBar
from gui.fit.run_plan import RunPlanView
from gui.i18n import render
from services.modelfit.grid import FitGrid, context_label
from services.modelfit.gpus import GpuSpec
from services.modelfit.report import COMPONENT_LABELS, GRID_STATUS
from services.modelfit.solver import FitAnswer, vllm_needs_bytes
from services.modelfit.speed import estimate_speed

GRID_COLORS = {"fits": "#dcedc8", "tight": "#fff3c4", "no": "#ffcdd2", "invalid": "#eceff1"}
GOOD, BAD, PLAIN = "color: #3f7d00;", "color: #c62828;", "color: #1f2933;"
INDEX_ROLE = Qt.ItemDataRole.UserRole  # a suggestion's place in the answer
CHOICE_ROLE = Qt.ItemDataRole.UserRole + 1  # a valid value an error offers


class ResultsPanel(QWidget):
    """Signals:
        request_chosen(object): the FitRequest of a suggestion the user activated.
        choice_chosen(str): a valid value an error offered, activated.
        cell_chosen(object): the GridCell the user clicked in the weights × context grid.
    """

    request_chosen = Signal(object)
    choice_chosen = Signal(str)
    cell_chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.grid: FitGrid | None = None
        self._suggestions: list = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        heading = self.tr("Will this model fit?")
        layout.addWidget(QLabel(f"<h2>{heading}</h2>"))
        layout.addWidget(self._build_headline_card())
        middle = QHBoxLayout()
        middle.addWidget(self._build_limits_box(), 1)
        layout.addLayout(middle, 0)
        self.tabs = QTabWidget()
        # At 1024x640 the titles shorten rather than scroll out of sight behind arrows.
        self.tabs.setUsesScrollButtons(False)
        self.tabs.setElideMode(Qt.TextElideMode.ElideRight)
        self._build_tabs()
        layout.addWidget(self.tabs, 1)
        self.notes_label = QLabel()
        self.notes_label.setWordWrap(True)
        self.notes_label.setProperty("role", "muted")
        layout.addWidget(self.notes_label)

    # ---- layout
    def _build_headline_card(self) -> QFrame:
        card = QFrame()
        card.setProperty("card", True)
        layout = QVBoxLayout(card)
        layout.setContentsMargins(14, 10, 14, 10)
        self.headline_label = QLabel()
        self.headline_label.setWordWrap(True)
        font = self.headline_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.headline_label.setFont(font)
        self.detail_label = QLabel()
        self.detail_label.setWordWrap(True)
        self.detail_label.setProperty("role", "muted")
        self.bar = MemoryBar()
        layout.addWidget(self.headline_label)
        layout.addWidget(self.detail_label)
        layout.addWidget(self.bar)
        return card

    def _build_limits_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Largest that fits"))
        form = QFormLayout(box)
        self.max_seq_label = QLabel("–")
        self.max_batch_label = QLabel("–")
        self.max_rank_label = QLabel("–")
        self.speed_label = QLabel()
        self.speed_label.setWordWrap(True)
        self.speed_label.setProperty("role", "muted")
        form.setVerticalSpacing(2)
        form.addRow(self.tr("Context"), self.max_seq_label)
        form.addRow(self.tr("Batch"), self.max_batch_label)
        form.addRow(self.tr("LoRA rank"), self.max_rank_label)
        form.addRow(self.speed_label)
        self._limits_form = form
        return box

    def _build_tabs(self) -> None:
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels([self.tr("Part"), self.tr("GiB")])
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setMinimumWidth(200)
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.suggestion_list = QListWidget()
        self.suggestion_list.itemActivated.connect(self._on_suggestion_activated)
        self.tabs.addTab(_padded(self.suggestion_list), self.tr("To make it fit"))
        self.tabs.setTabToolTip(0, self.tr("Double-click a change to apply it"))
        self.grid_table = QTableWidget(0, 0)
        self.grid_table.setObjectName("fitGrid")
        self.grid_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.grid_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.grid_table.cellClicked.connect(self._on_grid_clicked)
        self.grid_hint = QLabel(self.tr("GiB per GPU; green fits, yellow tight (under 10% left), red does not fit. Click a cell to apply it."))
        self.grid_hint.setWordWrap(True)
        self.grid_hint.setProperty("role", "muted")
        self.tabs.addTab(_padded(self.grid_table, self.grid_hint), self.tr("Weights × context"))
        self.tabs.addTab(self.table, self.tr("Parts"))
        self.plan_view = RunPlanView()
        self.tabs.addTab(self.plan_view, self.tr("How to run it"))
        self.tabs.setTabToolTip(self.tabs.indexOf(self.plan_view), self.tr(
            "llama.cpp, Ollama and vLLM settings for this card, best first"))

    # ---- Public API
    def show_error(self, text: str, choices: tuple[str, ...] = ()) -> None:
        """The problem in place of the answer: every figure of the last answer is blanked (a stale
        number next to an error reads as the answer), and the valid values are offered to apply."""
        self.headline_label.setText(text)
        self.headline_label.setStyleSheet(BAD)
        self.detail_label.setText("")
        self.bar.set_data([], None, "")
        self.table.setRowCount(0)
        for label in (self.max_seq_label, self.max_batch_label, self.max_rank_label):
            label.setText("–")
        self.speed_label.setText("")
        self.notes_label.setText("")
        self.show_grid(None)
        self.plan_view.show_plan(None)
        self._suggestions = []
        self.suggestion_list.clear()
        for choice in choices:
            item = QListWidgetItem(self.tr("Use {value}").format(value=choice))
            item.setData(CHOICE_ROLE, choice)
            self.suggestion_list.addItem(item)

    def show_grid(self, grid: FitGrid | None) -> None:
        self.grid = grid
        table = self.grid_table
        if grid is None:
            table.setRowCount(0)
            table.setColumnCount(0)
            return
        table.setColumnCount(len(grid.contexts))
        table.setRowCount(len(grid.rows))
        table.setHorizontalHeaderLabels([context_label(c) for c in grid.contexts])
        table.setVerticalHeaderLabels([r.label.upper() for r in grid.rows])
        for r, line in enumerate(grid.cells):
            for c, cell in enumerate(line):
                text = "–" if cell.per_gpu_gib is None else f"{cell.per_gpu_gib:.1f}"
                tip = [render(GRID_STATUS[cell.status])]
                if cell.tokens_per_s:
                    text += f"\n{cell.tokens_per_s:.0f} t/s"
                    tip.append(self.tr("rough estimate: ~{tps:.0f} tokens/s").format(tps=cell.tokens_per_s))
                elif cell.gpu_layers is not None and cell.gpu_layers >= 0:
                    tip.append(self.tr("{n} layers fit on the GPU").format(n=cell.gpu_layers))
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setBackground(QColor(GRID_COLORS[cell.status]))
                item.setForeground(QColor("#1f2933"))
                item.setToolTip("\n".join(tip))
                table.setItem(r, c, item)
        table.resizeRowsToContents()
        table.setToolTip(self.tr("GiB per GPU (· tokens/s, rough estimate); click a cell to apply it"))

    def show_answer(self, ans: FitAnswer, gpu: GpuSpec | None, detected_gpu_missing: bool) -> None:
        """``detected_gpu_missing``: the user asked for the detected GPU and there is none."""
        est = ans.estimate
        self._show_headline(ans, gpu, detected_gpu_missing)
        self._show_details(ans, gpu)
        segments = [(k, render(COMPONENT_LABELS[k]), v) for k, v in est.breakdown_gib().items()]
        self.bar.set_data(segments, gpu.memory_gib if gpu else None, gpu.name if gpu else "")
        self._show_parts([(k, label, v) for k, label, v in segments if v >= 0.005])
        self._show_limits(ans)
        self._show_speed(ans, gpu)
        self._show_suggestions(ans)
        req = est.request
        self._limits_form.setRowVisible(self.max_rank_label, req.task == "train" and req.method != "full")
        self.notes_label.setText("\n".join(render(n) for n in est.notes))

    # ---- the answer, part by part
    def _show_headline(self, ans: FitAnswer, gpu: GpuSpec | None, detected_gpu_missing: bool) -> None:
        est = ans.estimate
        req = est.request
        per = est.per_gpu_gib
        if gpu is None:
            self.headline_label.setText(self.tr("Needs {gib:.1f} GiB per GPU").format(gib=per))
            self.headline_label.setStyleSheet(PLAIN)
            self.detail_label.setText(self.tr("No GPU detected: pick one from the list to check the fit.")
                                      if detected_gpu_missing else "")
        elif req.runtime == "vllm" and req.gpu_total_gib is not None:
            share = req.gpu_memory_utilization * req.gpu_total_gib
            needs = vllm_needs_bytes(est) / 2**30
            self.headline_label.setText(
                self.tr("vLLM starts with max_model_len {seq}: needs {gib:.1f} GiB of its {share:.1f} GiB").format(seq=f"{req.seq:,}", gib=needs, share=share)
                if ans.fits else
                self.tr("vLLM does not start with max_model_len {seq}: needs {gib:.1f} GiB, its share is {share:.1f} GiB").format(seq=f"{req.seq:,}", gib=needs, share=share))
            self.headline_label.setStyleSheet(GOOD if ans.fits else BAD)
        elif ans.fits:
            self.headline_label.setText(self.tr("Fits: {gib:.1f} GiB of {budget:.1f} GiB, {left:.1f} GiB to spare").format(
                gib=per, budget=gpu.memory_gib, left=ans.headroom_gib))
            self.headline_label.setStyleSheet(GOOD)
        else:
            self.headline_label.setText(self.tr("Does not fit: {gib:.1f} GiB needed, {budget:.1f} GiB available").format(
                gib=per, budget=gpu.memory_gib))
            self.headline_label.setStyleSheet(BAD)

    def _show_details(self, ans: FitAnswer, gpu: GpuSpec | None) -> None:
        est = ans.estimate
        req = est.request
        details = []
        if gpu is not None:
            details.append(self.tr("{gpu}: {budget:.1f} GiB free now").format(gpu=gpu.name, budget=gpu.memory_gib) if gpu.live
                           else self.tr("{gpu}: {budget:.0f} GiB").format(gpu=gpu.name, budget=gpu.memory_gib))
        if req.gpus > 1:
            details.append(self.tr("{total:.1f} GiB on {n} GPUs").format(total=est.total_gib, n=req.gpus))
        if est.host_bytes > 0:
            details.append(self.tr("+ {gib:.1f} GiB in system RAM").format(gib=est.host_bytes / 2**30))
        if req.runtime == "vllm" and ans.vllm_takes_gib is not None:
            details.append(self.tr("vLLM needs {needs:.1f} GiB; at start it takes {takes:.1f} GiB ({util:.0%} of the card + CUDA graphs)").format(
                needs=vllm_needs_bytes(est) / 2**30, takes=ans.vllm_takes_gib, util=req.gpu_memory_utilization))
        if ans.offload is not None and ans.offload.cpu_moe_layers:
            details.append(self.tr("Experts of the first {n} layers moved to system RAM ({flag}), every layer on the GPU, {host:.1f} GiB in system RAM").format(
                n=ans.offload.cpu_moe_layers, flag=ans.offload.flag, host=ans.offload.host_gib))
        elif ans.offload is not None:
            flag = "-ngl" if req.engine == "llamacpp" else "num_gpu"
            details.append(self.tr("Partial offload: {n} of {total} layers on the GPU ({flag} {n}), {host:.1f} GiB in system RAM").format(
                n=min(ans.offload.gpu_layers, ans.offload.layers), total=ans.offload.layers, flag=flag, host=ans.offload.host_gib))
            split = estimate_speed(ans.offload.estimate, gpu)
            if split and split.decode_tokens_per_s:
                details.append(self.tr("rough estimate for that split: ~{tps:.1f} tokens/s").format(tps=split.decode_tokens_per_s))
        if gpu is not None or details:
            self.detail_label.setText(" · ".join(details))

    def _show_parts(self, rows: list[tuple[str, str, float]]) -> None:
        self.table.setRowCount(len(rows))
        for r, (code, label, gib) in enumerate(rows):
            swatch = QPixmap(12, 12)
            swatch.fill(QColor(COLORS.get(code, "#9aa5b1")))
            name = QTableWidgetItem(QIcon(swatch), label)
            value = QTableWidgetItem(f"{gib:.2f}")
            value.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(r, 0, name)
            self.table.setItem(r, 1, value)

    def _show_limits(self, ans: FitAnswer) -> None:
        if ans.max_seq is None:
            for label in (self.max_seq_label, self.max_batch_label, self.max_rank_label):
                label.setText("–")
            return
        limit = ans.estimate.arch.max_context
        seq_text = self.tr("{n} tokens").format(n=f"{ans.max_seq:,}") if ans.max_seq else self.tr("none")
        if ans.max_seq and limit and ans.max_seq >= limit:
            seq_text = self.tr("{n} tokens (the model's maximum)").format(n=f"{limit:,}")
        self.max_seq_label.setText(seq_text)
        self.max_batch_label.setText(str(ans.max_batch) if ans.max_batch else self.tr("none"))
        self.max_rank_label.setText(str(ans.max_lora_rank) if ans.max_lora_rank else "–")

    def _show_speed(self, ans: FitAnswer, gpu: GpuSpec | None) -> None:
        # What runs is the split when part of the model is offloaded; nothing runs when it does not fit.
        if ans.offload is None and ans.fits is False:
            self.speed_label.setText("")
            return
        speed = estimate_speed(ans.offload.estimate if ans.offload is not None else ans.estimate, gpu)
        if speed and speed.decode_tokens_per_s:
            self.speed_label.setText(self.tr("Estimate: ~{tps:.0f} tokens/s generated, ~{pps:.0f} tokens/s prompt").format(
                tps=speed.decode_tokens_per_s, pps=speed.prefill_tokens_per_s or 0))
        elif speed and speed.step_seconds:
            self.speed_label.setText(self.tr("Estimate: ~{s:.1f} s per step, ~{tps:.0f} tokens/s per GPU").format(
                s=speed.step_seconds, tps=speed.train_tokens_per_s))
        else:
            self.speed_label.setText("")

    def _show_suggestions(self, ans: FitAnswer) -> None:
        self._suggestions = list(ans.suggestions)
        self.suggestion_list.clear()
        if not ans.suggestions:
            text = self.tr("Nothing to change: it fits.") if ans.fits else (
                self.tr("Pick a GPU to get suggestions.") if ans.fits is None else self.tr("No single change makes it fit."))
            item = QListWidgetItem(text)
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.suggestion_list.addItem(item)
        for i, s in enumerate(ans.suggestions):
            mark = "✓" if s.fits else "✗"
            item = QListWidgetItem(f"{mark}  {render(s.text)}  →  {s.per_gpu_gib:.1f} GiB")
            item.setForeground(QColor("#3f7d00" if s.fits else "#52606d"))
            item.setData(INDEX_ROLE, i)
            self.suggestion_list.addItem(item)

    # ---- slots
    def _on_suggestion_activated(self, item: QListWidgetItem) -> None:
        choice = item.data(CHOICE_ROLE)
        if choice is not None:
            self.choice_chosen.emit(choice)
            return
        index = item.data(INDEX_ROLE)
        if index is None or index >= len(self._suggestions):
            return
        self.request_chosen.emit(self._suggestions[index].request)

    def _on_grid_clicked(self, row: int, column: int) -> None:
        grid = self.grid
        if grid is None or row >= len(grid.rows) or column >= len(grid.contexts):
            return
        self.cell_chosen.emit(grid.cells[row][column])


def _padded(*widgets: QWidget) -> QWidget:
    """A tab page holding ``widgets`` one under the other, with a small margin."""
    page = QWidget()
    layout = QVBoxLayout(page)
    layout.setContentsMargins(4, 4, 4, 4)
    for widget in widgets:
        layout.addWidget(widget)
    return page
