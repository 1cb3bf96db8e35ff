"""Will this model fit? Pick a model and a workload; the breakdown, the largest context that
fits and the suggestions follow every change (debounced). The page composes three sections
(model box, workload form, results panel) and wires them; services.modelfit does the sums."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QVBoxLayout, QWidget

from gui.fit import controls
from gui.fit.measure import MeasureTabs
from gui.fit.model_box import ModelBox
from gui.fit.results import ResultsPanel
from gui.fit.workload import DEFAULT_GPU, DETECTED, WorkloadForm
from gui.i18n import render
from services.modelfit.arch import ModelArch
from services.modelfit.catalogue import default_catalogue
from services.modelfit.errors import ModelInputError
from services.modelfit.weights import is_gguf_source
from services.modelfit.grid import FitGrid, fit_grid
from services.modelfit.gpus import GpuSpec, default_gpu_catalogue, live_gpu_from_snapshot
from services.modelfit.measurements import MeasurementStore
from services.modelfit.solver import FitAnswer, answer
from services.modelfit.sources import load_path
from services.settings import SettingsStore
from services.telemetry.hub import CurrentHub

__all__ = ["DETECTED", "FitPage"]

DEBOUNCE_MS = 100
DEFAULT_MODEL = "meta-llama/Llama-3.1-8B"
MODEL_SUFFIXES = (".json", ".safetensors", ".gguf")


class FitPage(QWidget):
    """Signals:
        updated(): a new answer is shown (after the debounce).

    Sections: ``model_box`` (ModelBox), ``workload`` (WorkloadForm), ``results`` (ResultsPanel).
    """

    updated = Signal()

    def __init__(self, settings_store: SettingsStore, hubs: CurrentHub, recordings_dir: Path,
                 parent: QWidget | None = None) -> None:
        """``hubs``: the monitored hub (its first GPU is the default one); ``recordings_dir``: where
        the user's measurements are kept."""
        super().__init__(parent)
        self.settings_store = settings_store
        self.hubs = hubs
        self._recordings_dir = recordings_dir
        self._catalogue = default_catalogue()
        self._gpus = default_gpu_catalogue()
        saved = settings_store.settings.fit
        entry = self._catalogue.get(saved.model) or self._catalogue.resolve(DEFAULT_MODEL)
        self._arch: ModelArch = entry.arch
        self.last_answer: FitAnswer | None = None
        self.last_error: str | None = None
        self._timer = QTimer(self)
        self._timer.setObjectName("fitDebounce")
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._recompute)
        self.setAcceptDrops(True)
        self._build()
        self._restore(saved)
        self._fill_model_list("")
        self.workload.sync_enabled()
        self._recompute()

    # ------------------------------------------------------------ layout
    def _build(self) -> None:
        outer = QHBoxLayout(self)
        outer.setContentsMargins(16, 12, 16, 12)
        outer.setSpacing(14)
        self.model_box = ModelBox(self._catalogue)
        self.model_box.search_edit.textChanged.connect(self._fill_model_list)
        self.model_box.model_chosen.connect(self.set_model)
        self.model_box.file_chosen.connect(self.load_file)
        self.model_box.input_error.connect(self._show_error)
        self.workload = WorkloadForm(self._gpus, self._arch, self.current_gpu)
        self.workload.changed.connect(self._schedule)
        controls_column = QWidget()
        column = QVBoxLayout(controls_column)
        column.setContentsMargins(0, 0, 6, 0)
        column.setSpacing(6)
        column.addWidget(self.model_box)
        column.addWidget(self.workload)
        column.addStretch(1)
        # No scroll area of its own: a second, thin scroll bar beside the window's read as a divider and
        # hid the lower controls at 1024x640 (issue 30). The window's page holder scrolls the whole page.
        controls_column.setFixedWidth(334)
        outer.addWidget(controls_column, 0, Qt.AlignmentFlag.AlignTop)
        self.results = ResultsPanel()
        self.results.request_chosen.connect(self.workload.apply_request)
        self.results.choice_chosen.connect(self.workload.apply_choice)
        self.results.cell_chosen.connect(self._apply_grid_cell)
        outer.addWidget(self.results, 1)
        self.measure = MeasureTabs(self, MeasurementStore(self._recordings_dir), self.hubs)  # "Measure a run", "Your measurements", "measured on this machine"

    @property
    def last_grid(self) -> FitGrid | None:
        """The weights × context grid shown now (None without a GPU or after an error)."""
        return self.results.grid

    # ------------------------------------------------------------ public
    def set_model(self, arch: ModelArch) -> None:
        self._arch = arch
        self.workload.arch = arch
        seq_spin = self.workload.seq_spin
        if arch.max_context:
            seq_spin.setValue(min(seq_spin.value(), arch.max_context))
        self._schedule()

    def load_file(self, path: str | Path) -> bool:
        """Load a config.json / .safetensors / .gguf; shows the problem on failure."""
        try:
            arch = load_path(Path(path))
        except ModelInputError as exc:
            self._show_error(render(exc.message))
            return False
        self.model_box.model_list.clearSelection()
        form = self.workload
        if is_gguf_source(arch):
            # A GGUF file runs in llama.cpp, in its own quantisation.
            self._set_data(form.task_combo, "inference")
            self._set_data(form.engine_combo, "llamacpp")
            self._set_data(form.weights_combo, None)
        elif form.weights_combo.currentData() is None and form.engine_combo.currentData() == "llamacpp":
            self._set_data(form.weights_combo, "q4_k_m")
        self.set_model(arch)
        return True

    def shutdown(self) -> None:
        self._timer.stop()
        self.measure.shutdown()
        self._save()

    def self_test(self) -> str | None:
        """One estimate with the current inputs; the problem as text, or None (for --self-test)."""
        try:
            gpu = self.current_gpu()
            answer(self._arch, self.workload.current_request(gpu), gpu.memory_gib if gpu else None)
        except ModelInputError as exc:
            return render(exc.message)
        return None

    def current_gpu(self) -> GpuSpec | None:
        key = self.workload.gpu_combo.currentData()
        if key == DETECTED:
            return self._live_gpu()
        try:
            return self._gpus.find(key)
        except ModelInputError:
            return None

    # ------------------------------------------------------------ settings
    def _default_gpu_name(self) -> str:
        """The detected GPU: its catalogue entry when the catalogue knows it, else "Detected GPU"
        (an H200 the catalogue lacks is still the card in the machine); an RTX 4090 with no GPU."""
        live = self._live_gpu()
        if live is not None:
            try:
                return self._gpus.find(live.name).name
            except ModelInputError:
                return DETECTED
        return DEFAULT_GPU

    def _restore(self, saved) -> None:
        form = self.workload
        self._set_data(form.gpu_combo, saved.gpu or self._default_gpu_name())
        # No card chosen yet and none detected so far (telemetry's first reading comes later):
        # take the detected card when the page is shown.
        self._default_gpu_pending = not saved.gpu and form.gpu_combo.currentData() == DEFAULT_GPU
        self._set_data(form.task_combo, saved.task)
        self._set_data(form.engine_combo, saved.engine)
        self._set_data(form.method_combo, saved.method)
        limit = self._arch.max_context or saved.seq
        form.seq_spin.setValue(max(1, min(int(saved.seq), limit)))
        form.on_engine_changed()
        form.on_method_changed()
        self._timer.stop()

    def _save(self) -> None:
        store = self.settings_store
        fit = store.settings.fit
        form = self.workload
        model = self._arch.model_id if self._catalogue.get(self._arch.model_id) else fit.model
        values = {"model": model, "gpu": form.gpu_combo.currentData() or "", "task": form.task_combo.currentData(),
                  "engine": form.engine_combo.currentData(), "method": form.method_combo.currentData(),
                  "seq": form.seq_spin.value()}
        if any(getattr(fit, k) != v for k, v in values.items()):
            for key, value in values.items():
                setattr(fit, key, value)
            store.save()

    # ------------------------------------------------------------ Qt events
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if urls and any(u.isLocalFile() and (u.toLocalFile().lower().endswith(MODEL_SUFFIXES) or Path(u.toLocalFile()).is_dir()) for u in urls):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.load_file(url.toLocalFile())
                event.acceptProposedAction()
                return

    def hideEvent(self, event) -> None:
        self._timer.stop()
        self._save()
        super().hideEvent(event)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if getattr(self, "_default_gpu_pending", False) and self.workload.gpu_combo.currentData() == DEFAULT_GPU:
            default = self._default_gpu_name()
            if default != DEFAULT_GPU:
                self._default_gpu_pending = False
                self._set_data(self.workload.gpu_combo, default)
        if self.workload.gpu_combo.currentData() == DETECTED:
            self._schedule()  # free memory may have changed while the page was away

    # ------------------------------------------------------------ slots
    def _schedule(self, *_args) -> None:
        self._timer.start()

    def _fill_model_list(self, text: str) -> None:
        self.model_box.fill(text, self._arch.model_id)

    def _apply_grid_cell(self, cell) -> None:
        changes = dict(cell.row.changes)
        form = self.workload
        if "method" in changes:
            self._set_data(form.method_combo, changes["method"])
        if "weights" in changes:
            self._set_data(form.weights_combo, changes["weights"])
        form.seq_spin.setValue(cell.seq)
        self._schedule()

    # ------------------------------------------------------------ work
    @staticmethod
    def _set_data(combo: QComboBox, data) -> None:
        controls.set_data(combo, data)

    def _live_gpu(self) -> GpuSpec | None:
        hub = self.hubs.hub
        snapshot = hub.latest if hub is not None else None
        return live_gpu_from_snapshot(snapshot, 0, self._gpus)

    def _recompute(self) -> None:
        arch = self._arch
        self.model_box.show_model(arch)
        gpu = self.current_gpu()
        req = self.workload.current_request(gpu)
        try:
            ans = answer(arch, req, gpu.memory_gib if gpu else None)
            grid = fit_grid(arch, req, gpu) if gpu is not None else None
        except ModelInputError as exc:
            self._show_error(render(exc.message), exc.choices)
            return
        self.last_error = None
        self.last_answer = ans
        detected_missing = gpu is None and self.workload.gpu_combo.currentData() == DETECTED
        self.results.show_answer(ans, gpu, detected_missing)
        self.results.show_grid(grid)
        self.results.plan_view.show_plan(*self._run_plan(arch, req, gpu))
        self.measure.update(ans, gpu)
        self.updated.emit()

    def _run_plan(self, arch: ModelArch, req, gpu: GpuSpec | None) -> tuple:
        """The "How to run it" tab's plan (services.modelfit.plan), or None and why not."""
        if gpu is None or req.task != "inference":
            return None, ""
        from services.modelfit.plan import host_ram_gib, plan

        try:
            return plan(arch, req, gpu, host_ram_gib()), ""
        except ModelInputError as exc:
            return None, render(exc.message)

    def _show_error(self, text: str, choices: tuple[str, ...] = ()) -> None:
        """The problem in place of the answer, with the valid values offered to apply."""
        self.last_error = text
        self.last_answer = None
        self.results.show_error(text, tuple(choices))
        self.measure.update(None, None)
        self.updated.emit()
