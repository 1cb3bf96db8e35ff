"""The power panel: the efficiency sweep (run, load, compare) and "Set power limit" with a preview.

Opened from a GPU card's menu on the Dashboard. Everything it shows comes from services.power;
slow work (NVML, the workload, nvidia-smi behind a password prompt) runs on BackgroundWork.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView, QDialog, QFileDialog, QHBoxLayout, QHeaderView,
    QLabel, QLineEdit, QMessageBox, QProgressBar, QPushButton, QSpinBox, QTableWidget,
    QTableWidgetItem, QVBoxLayout, QWidget,
)

from gui.i18n import render
from gui.power.backend import OpenedGpu, PowerBackend, limit_setter, watts_text
from gui.power.limit_dialog import SetLimitDialog
from gui.widgets.background import BackgroundWork
from services.power import store
from services.power.model import COPY, MATMUL, PowerError, Sweep, recommend, recommended_limit

COLORS = {MATMUL: "#2563eb", COPY: "#0f8a5f"}


class SweepPanel(QDialog):
    """Run a sweep of one GPU (or load a saved one), plot it, recommend a limit and set it."""

    def __init__(self, gpu_index: int, gpu_name: str = "", parent: QWidget | None = None,
                 backend: PowerBackend | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SweepPanel")
        self.gpu_index = gpu_index
        self.backend = backend or PowerBackend()
        self.work = BackgroundWork(self, name="power-sweep")
        self.sweep: Sweep | None = None
        self.compared: Sweep | None = None
        self.saved_path: Path | None = None
        self._stop = threading.Event()
        self.setWindowTitle(self.tr("Power efficiency sweep"))
        self.resize(1100, 760)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.setSpacing(8)
        self.title = QLabel(self)
        self.title.setObjectName("PageTitle")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setText(self.tr("Power efficiency: GPU {gpu} {name}").format(gpu=gpu_index, name=gpu_name).strip())
        layout.addWidget(self.title)
        self.intro = QLabel(self.tr(
            "Measures a compute-bound workload (matrix multiply: training, prompt processing) and a memory-bound one "
            "(memory copy: token generation) at power limits from the default down, then puts the limit back."), self)
        self.intro.setWordWrap(True)
        layout.addWidget(self.intro)

        controls = QHBoxLayout()
        controls.setSpacing(6)
        self.seconds = QSpinBox(self)
        self.seconds.setRange(5, 600)
        self.seconds.setValue(25)
        self.seconds.setSuffix(self.tr(" s per point"))
        self.keep = QSpinBox(self)
        self.keep.setRange(50, 100)
        self.keep.setValue(95)
        self.keep.setPrefix(self.tr("keep ≥ "))
        self.keep.setSuffix(self.tr("% speed"))
        self.keep.valueChanged.connect(self._show_recommendation)
        self.python = QLineEdit(self)
        self.python.setPlaceholderText(self.tr("PyTorch Python (default: python3)"))
        self.run_button = QPushButton(self.tr("Run sweep"), self)
        self.run_button.clicked.connect(self.start_sweep)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self._stop.set)
        self.load_button = QPushButton(self.tr("Open…"), self)
        self.load_button.clicked.connect(self._choose_load)
        self.compare_button = QPushButton(self.tr("Compare with…"), self)
        self.compare_button.clicked.connect(self._choose_compare)
        for w in (self.seconds, self.keep):
            controls.addWidget(w)
        controls.addWidget(self.python, 1)
        for w in (self.run_button, self.stop_button, self.load_button, self.compare_button):
            controls.addWidget(w)
        layout.addLayout(controls)

        self.progress = QProgressBar(self)
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(6)
        self.progress.hide()
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)

        plots = QHBoxLayout()
        self.speed_plot = self._plot(self.tr("Speed, % of full speed"))
        self.efficiency_plot = self._plot(self.tr("Work per watt, % of full speed's"), legend=False)
        plots.addWidget(self.speed_plot, 1)
        plots.addWidget(self.efficiency_plot, 1)
        layout.addLayout(plots, 3)

        self.table = QTableWidget(0, 9, self)
        self.table.setHorizontalHeaderLabels([
            self.tr("Limit W"), "TFLOP/s", self.tr("W"), "TFLOP/s/W", "GB/s", self.tr("W"), "GB/s/W",
            self.tr("SM MHz"), "°C"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 2)

        bottom = QHBoxLayout()
        self.recommendation = QLabel(self)
        self.recommendation.setWordWrap(True)
        self.recommendation.setTextFormat(Qt.TextFormat.PlainText)
        self.set_recommended = QPushButton(self.tr("Set recommended limit…"), self)
        self.set_recommended.clicked.connect(self._set_recommended)
        self.set_recommended.setEnabled(False)
        self.set_limit = QPushButton(self.tr("Set power limit…"), self)
        self.set_limit.clicked.connect(lambda: self.open_set_limit(None))
        bottom.addWidget(self.recommendation, 1)
        bottom.addWidget(self.set_recommended)
        bottom.addWidget(self.set_limit)
        layout.addLayout(bottom)
        self.notes = QLabel(self)
        self.notes.setObjectName("WarningNote")
        self.notes.setStyleSheet("color: #b45309;")
        self.notes.setWordWrap(True)
        self.notes.hide()
        layout.addWidget(self.notes)
        self._show_sweep()

    # ---- Public API
    def show_sweep(self, sweep: Sweep, path: Path | None = None) -> None:
        self.sweep = sweep
        self.saved_path = path
        self.keep.setValue(round(sweep.keep_share * 100))
        self._show_sweep()

    def load(self, path: Path) -> bool:
        try:
            self.show_sweep(store.load(path), path)
        except PowerError as exc:
            self._say(render(exc.message))
            return False
        return True

    def compare_with(self, path: Path) -> bool:
        try:
            self.compared = store.load(path)
        except PowerError as exc:
            self._say(render(exc.message))
            return False
        self._show_sweep()
        return True

    def start_sweep(self, force: bool = False) -> None:
        """Run a sweep off the GUI thread; a busy GPU is asked about first."""
        from services.power.sweep import SweepConfig, run_sweep

        backend, index = self.backend, self.gpu_index
        config = SweepConfig(index, float(self.seconds.value()), keep_share=self.keep.value() / 100.0)
        python = self.python.text().strip() or None
        self._stop.clear()

        def job(report: Callable[[Any], None]) -> Any:
            with OpenedGpu(backend, index) as (source, gpu):
                busy = gpu.other_jobs()
                if busy and not force:
                    return ("busy", busy)
                sweep = run_sweep(gpu, limit_setter(backend, source), backend.make_workload(python), config,
                                  on_progress=report, clock=backend.clock, should_stop=self._stop.is_set)
            path = store.save(sweep, backend.sweeps_folder) if sweep.points else None
            return ("done", sweep, path)

        self._busy(True)
        self._say(self.tr("Starting the sweep…"))
        self.work.submit(job, self._sweep_done, self._sweep_failed, self._sweep_progress)

    def ask(self, question: str) -> bool:
        """A yes/no question to the user (tests answer it themselves)."""
        answer = QMessageBox.question(self, self.tr("GPU in use"), question)
        return answer == QMessageBox.StandardButton.Yes

    def open_set_limit(self, watts: float | None) -> "SetLimitDialog":
        dialog = SetLimitDialog(self.gpu_index, watts, self, self.backend)
        dialog.open()
        return dialog

    def shutdown(self) -> None:
        self._stop.set()
        self.work.shutdown()

    def done(self, result: int) -> None:  # QDialog's close path
        self.shutdown()
        super().done(result)

    # ---- the sweep's outcome
    def _sweep_progress(self, p: Any) -> None:
        self.progress.setRange(0, p.steps)
        self.progress.setValue(p.step - 1)
        self._say(self.tr("{step}/{steps}: {kind} at {watts} W").format(
            step=p.step, steps=p.steps, kind=self._kind_name(p.kind), watts=watts_text(p.limit_w)))

    def _sweep_done(self, outcome: tuple) -> None:
        self._busy(False)
        if outcome[0] == "busy":
            who = ", ".join(f"{name} (PID {pid}, {mib:.0f} MiB)" for pid, name, mib in outcome[1])
            if self.ask(self.tr(
                    "GPU {gpu} is in use by {who}. The sweep would slow it down and measure it too. Sweep anyway?").format(
                    gpu=self.gpu_index, who=who)):
                self.start_sweep(force=True)
            else:
                self._say("")
            return
        _, sweep, path = outcome
        self.show_sweep(sweep, path)
        self._say(self.tr("Saved as {path}").format(path=str(path)) if path else "")

    def _sweep_failed(self, exc: BaseException) -> None:
        self._busy(False)
        message = getattr(exc, "message", None)
        self._say(render(message) if message is not None else str(exc))
        if "PyTorch" in str(exc):
            self._say(self.status.text() + "\n" + self.tr("The Setup page installs PyTorch (its PyTorch step)."))

    def _busy(self, busy: bool) -> None:
        self.run_button.setEnabled(not busy)
        self.stop_button.setEnabled(busy)
        self.load_button.setEnabled(not busy)
        self.set_limit.setEnabled(not busy)
        self.progress.setVisible(busy)

    def _say(self, text: str) -> None:
        self.status.setText(text)

    # ---- drawing
    def _plot(self, title: str, legend: bool = True) -> pg.PlotWidget:
        plot = pg.PlotWidget(self)
        plot.setBackground("w")
        plot.setTitle(title, color="#52606d", size="10pt")
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setLabel("bottom", self.tr("power limit (W)"))
        if legend:  # one legend for both plots: the same curves
            plot.addLegend(offset=(-10, -10), brush=pg.mkBrush(255, 255, 255, 210))
        plot.setMinimumHeight(160)
        return plot

    def _kind_name(self, kind: str) -> str:
        return self.tr("matrix multiply") if kind == MATMUL else self.tr("memory copy")

    def _show_sweep(self) -> None:
        sweep = self.sweep
        for plot in (self.speed_plot, self.efficiency_plot):
            plot.clear()
        self.table.setRowCount(0)
        if sweep is None:
            self.recommendation.setText(self.tr("No sweep yet: run one, or open a saved one."))
            self.set_recommended.setEnabled(False)
            self.notes.hide()
            return
        self.title.setText(self.tr("Power efficiency: GPU {gpu} {name}").format(gpu=sweep.gpu_index, name=sweep.gpu_name))
        self.intro.setText(self.tr(
            "Driver {driver} · default limit {default} W (allowed {low}-{high} W) · {temp} °C at the start · {when}").format(
                driver=sweep.driver or "?", default=watts_text(sweep.default_limit_w), low=watts_text(sweep.min_limit_w),
                high=watts_text(sweep.max_limit_w), temp=watts_text(sweep.start_temperature_c),
                when=time.strftime("%Y-%m-%d %H:%M", time.localtime(sweep.started))))
        for source, dashed in ((sweep, False), (self.compared, True)):
            if source is None:
                continue
            for kind in source.kinds():
                self._draw(source, kind, dashed)
        self._fill_table(sweep)
        self._show_recommendation()
        notes = [render(n) for n in sweep.notes]
        if sweep.restored is False:
            notes.append(self.tr("The original limit could not be restored; the app restores it at its next start."))
        self.notes.setText("\n".join(notes))
        self.notes.setVisible(bool(notes))

    def _draw(self, sweep: Sweep, kind: str, dashed: bool) -> None:
        points = sweep.points_of(kind)
        if not points or points[0].value <= 0:
            return
        full = points[0]
        xs = [p.limit_w for p in points]
        speed = [100.0 * p.value / full.value for p in points]
        eff = [100.0 * p.per_watt / full.per_watt if p.per_watt and full.per_watt else float("nan") for p in points]
        style = Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine
        pen = pg.mkPen(COLORS[kind], width=2, style=style)
        name = self._kind_name(kind) + (self.tr(" (compared)") if dashed else "")
        symbol = None if dashed else "o"
        self.speed_plot.plot(xs, speed, pen=pen, symbol=symbol, symbolSize=6, symbolBrush=COLORS[kind], name=name)
        self.efficiency_plot.plot(xs, eff, pen=pen, symbol=symbol, symbolSize=6, symbolBrush=COLORS[kind], name=name)

    def _fill_table(self, sweep: Sweep) -> None:
        by_limit: dict[float, dict[str, Any]] = {}
        for p in sweep.points:
            by_limit.setdefault(p.limit_w, {})[p.kind] = p
        self.table.setRowCount(len(by_limit))
        for row, limit in enumerate(sorted(by_limit, reverse=True)):
            m, c = by_limit[limit].get(MATMUL), by_limit[limit].get(COPY)
            clock = (m or c).sm_clock_mhz
            temp = (m or c).temperature_c
            cells = [watts_text(limit),
                     f"{m.value:.1f}" if m else "", watts_text(m.power_w) if m else "", f"{m.per_watt:.3f}" if m and m.per_watt else "",
                     f"{c.value:.0f}" if c else "", watts_text(c.power_w) if c else "", f"{c.per_watt:.2f}" if c and c.per_watt else "",
                     f"{clock:.0f}" if clock else "", f"{temp:.0f}" if temp is not None else ""]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, col, item)

    def _show_recommendation(self) -> None:
        sweep = self.sweep
        if sweep is None:
            return
        share = self.keep.value() / 100.0
        lines = []
        for kind in sweep.kinds():
            rec = recommend(sweep, kind, share)
            if rec is None:
                continue
            if rec.limit_w >= sweep.points_of(kind)[0].limit_w:
                lines.append(self.tr("{kind}: keep the full limit ({watts} W); every lower limit measured loses more than {loss}% of the speed").format(
                    kind=self._kind_name(kind), watts=watts_text(rec.limit_w), loss=f"{100 - self.keep.value()}"))
                continue
            lines.append(self.tr("{kind}: {watts} W keeps {share}% of full speed with {gain}% more work per watt").format(
                kind=self._kind_name(kind), watts=watts_text(rec.limit_w), share=f"{100 * rec.share:.0f}",
                gain=f"{100 * rec.per_watt_gain:+.0f}" if rec.per_watt_gain is not None else "?"))
        sweep.keep_share = share
        best = recommended_limit(sweep)
        self.recommendation.setText("\n".join(lines) if lines else self.tr("Nothing measured."))
        original = sweep.original_limit_w

        def lower(watts: float | None) -> bool:
            return watts is not None and (original is None or watts < original - 1)

        # One limit for the card: the higher recommendation keeps both workloads at their share.
        # When only one workload gains from a lower limit, the button offers it, named.
        per_kind = {k: r.limit_w for k in sweep.kinds() if (r := recommend(sweep, k, share)) is not None}
        only = [k for k, w in per_kind.items() if lower(w)]
        self._recommended = best if lower(best) else (per_kind[only[0]] if len(only) == 1 else best)
        self.set_recommended.setEnabled(lower(self._recommended))
        if self._recommended is None:
            return
        if lower(best) or not only:
            self.set_recommended.setText(self.tr("Set {watts} W…").format(watts=watts_text(self._recommended)))
        else:
            self.set_recommended.setText(self.tr("Set {watts} W for {kind}…").format(
                watts=watts_text(self._recommended), kind=self._kind_name(only[0])))
        self.set_recommended.setToolTip("" if lower(self._recommended) else self.tr(
            "The card already runs at this limit; lower the share to keep to see a lower one."))

    def _set_recommended(self) -> None:
        if self._recommended is not None:
            self.open_set_limit(self._recommended)

    def _choose_load(self) -> None:
        folder = self.backend.sweeps_folder or store.sweeps_dir()
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a saved sweep"), str(folder),
                                              self.tr("Sweeps (*.sweep.json)"))
        if path:
            self.load(Path(path))

    def _choose_compare(self) -> None:
        folder = self.backend.sweeps_folder or store.sweeps_dir()
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Compare with a saved sweep"), str(folder),
                                              self.tr("Sweeps (*.sweep.json)"))
        if path:
            self.compare_with(Path(path))


