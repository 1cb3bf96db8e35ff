"""Will this model fit? Pick a model and a workload; the breakdown, the largest
context that fits and the suggestions follow every change (debounced)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QComboBox, QFileDialog, QFormLayout, QFrame, QGroupBox, QHBoxLayout,
    QHeaderView, QLabel, QLineEdit, QListWidget, QListWidgetItem, QPushButton, QScrollArea, QSpinBox,
    QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from gui.context import AppContext
from gui.fit.bar import COLORS, MemoryBar
from gui.i18n import render
from services.modelfit.arch import ModelArch
from services.modelfit.catalogue import default_catalogue
from services.modelfit.errors import ModelInputError
from services.modelfit.estimate import FitRequest, is_gguf_source
from services.modelfit.gpus import GpuSpec, default_gpu_catalogue, live_gpu_from_snapshot
from services.modelfit.report import COMPONENT_LABELS
from services.modelfit.solver import FitAnswer, answer
from services.modelfit.sources import arch_from_param_count, load_path
from services.modelfit.speed import estimate_speed

DEBOUNCE_MS = 100
DETECTED = "__detected__"
DEFAULT_MODEL = "meta-llama/Llama-3.1-8B"
DEFAULT_GPU = "GeForce RTX 4090"
MODEL_SUFFIXES = (".json", ".safetensors", ".gguf")


class FitPage(QWidget):
    """Signals:
        updated(): a new answer is shown (after the debounce).
    """

    updated = Signal()

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self._catalogue = default_catalogue()
        self._gpus = default_gpu_catalogue()
        saved = context.settings_store.settings.fit
        entry = self._catalogue.get(saved.model) or self._catalogue.resolve(DEFAULT_MODEL)
        self._arch: ModelArch = entry.arch
        self.last_answer: FitAnswer | None = None
        self.last_error: str | None = None
        self._suggestions: list = []
        # vLLM limits a suggestion may set; they have no control of their own and reset with the engine.
        self._extra: dict = {}
        self._timer = QTimer(self)
        self._timer.setObjectName("fitDebounce")
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._recompute)
        self.setAcceptDrops(True)
        self._build()
        self._restore(saved)
        self._fill_model_list("")
        self._sync_enabled()
        self._recompute()

    # ------------------------------------------------------------ layout
    def _build(self) -> None:
        outer = QHBoxLayout(self)
        outer.setContentsMargins(16, 12, 16, 12)
        outer.setSpacing(14)

        controls = QWidget()
        col = QVBoxLayout(controls)
        col.setContentsMargins(0, 0, 6, 0)
        col.setSpacing(6)

        model_box = QGroupBox(self.tr("Model"))
        mv = QVBoxLayout(model_box)
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(self.tr("Search, e.g. qwen 14b"))
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.textChanged.connect(self._fill_model_list)
        self.model_list = QListWidget()
        self.model_list.setFixedHeight(100)
        self.model_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.model_list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.model_list.currentItemChanged.connect(self._on_model_picked)
        row = QHBoxLayout()
        self.open_button = QPushButton(self.tr("Open file…"))
        self.open_button.setToolTip(self.tr("config.json, .safetensors (file or folder) or .gguf: only headers are read"))
        self.open_button.clicked.connect(self._on_open_clicked)
        self.params_edit = QLineEdit()
        self.params_edit.setPlaceholderText(self.tr("or size in B params"))
        self.params_edit.editingFinished.connect(self._on_params_entered)
        row.addWidget(self.open_button)
        row.addWidget(self.params_edit, 1)
        self.model_label = QLabel()
        self.model_label.setWordWrap(True)
        self.model_label.setProperty("role", "muted")
        mv.addWidget(self.search_edit)
        mv.addWidget(self.model_list)
        mv.addLayout(row)
        mv.addWidget(self.model_label)
        col.addWidget(model_box)

        work_box = QGroupBox(self.tr("Workload"))
        form = QFormLayout(work_box)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        form.setVerticalSpacing(3)
        self.task_combo = self._combo([(self.tr("Inference"), "inference"), (self.tr("Training"), "train")])
        self.method_combo = self._combo([(self.tr("LoRA"), "lora"), (self.tr("QLoRA (4-bit base)"), "qlora"),
                                         (self.tr("Full fine-tuning"), "full")])
        self.weights_combo = self._combo([(self.tr("Model's own"), None), ("BF16", "bf16"), ("FP16", "fp16"),
                                          ("FP32", "fp32"), ("FP8", "fp8"), (self.tr("INT8 (bitsandbytes)"), "int8"),
                                          (self.tr("INT4 (GPTQ/AWQ)"), "int4"),
                                          (self.tr("NF4 (bitsandbytes)"), "nf4"), (self.tr("FP4 (bitsandbytes)"), "fp4"),
                                          ("GGUF Q8_0", "q8_0"), ("GGUF Q6_K", "q6_k"), ("GGUF Q5_K_M", "q5_k_m"),
                                          ("GGUF Q4_K_M", "q4_k_m"), ("GGUF Q4_0", "q4_0")])
        self.engine_combo = self._combo([("Transformers", "transformers"), ("vLLM", "vllm"), ("llama.cpp", "llamacpp"),
                                         (self.tr("Generic"), "generic")])
        self.kv_combo = self._combo([("FP16", "fp16"), ("FP8", "fp8"), ("Q8_0", "q8_0"), ("Q4_0", "q4_0")])
        self.seq_spin = self._spin(1, 1 << 20, 4096, 1024, self.tr(" tokens"))
        self.batch_spin = self._spin(1, 4096, 1, 1)
        self.rank_spin = self._spin(1, 4096, 16, 8)
        self.targets_combo = self._combo([(self.tr("q, v"), "qv"), (self.tr("q, k, v, o"), "qkvo"),
                                          (self.tr("All linear layers"), "all")])
        self.targets_combo.setCurrentIndex(2)
        self.ckpt_check = QCheckBox(self.tr("Gradient checkpointing"))
        self.ckpt_check.setChecked(True)
        self.ckpt_check.toggled.connect(self._schedule)
        self.loss_check = QCheckBox(self.tr("Chunked / fused loss"))
        self.loss_check.setToolTip(self.tr("Cross-entropy computed in chunks (torchtune, Liger, unsloth): the full logits are never kept in fp32"))
        self.loss_check.toggled.connect(self._schedule)
        self.attention_combo = self._combo([(self.tr("Flash / SDPA"), "flash"), (self.tr("Eager"), "eager")])
        self.optimizer_combo = self._combo([("AdamW", "adamw"), (self.tr("8-bit AdamW"), "adamw8bit"),
                                            (self.tr("Paged AdamW"), "paged_adamw"), (self.tr("Paged 8-bit AdamW"), "paged_adamw8bit"),
                                            ("Adafactor", "adafactor"), ("SGD", "sgd")])
        self.gpus_spin = self._spin(1, 64, 1, 1)
        self.strategy_combo = self._combo([(self.tr("Single GPU"), "single"), ("DDP", "ddp"), ("FSDP", "fsdp"),
                                           (self.tr("FSDP + CPU offload"), "fsdp_offload"), (self.tr("Tensor parallel"), "tp"),
                                           (self.tr("Layer split"), "layer_split")])
        self.gpu_combo = QComboBox()
        self._compact(self.gpu_combo)
        self.gpu_combo.addItem(self.tr("Detected GPU (free memory)"), DETECTED)
        for spec in self._gpus.gpus:
            self.gpu_combo.addItem(f"{spec.name} · {spec.memory_gib:g} GB", spec.name)
        self.gpu_combo.setCurrentIndex(max(0, self.gpu_combo.findData(DEFAULT_GPU)))
        self.gpu_combo.currentIndexChanged.connect(self._schedule)
        self.task_combo.currentIndexChanged.connect(self._on_task_changed)
        self.method_combo.currentIndexChanged.connect(self._on_method_changed)
        self.engine_combo.currentIndexChanged.connect(self._on_engine_changed)
        self.gpus_spin.valueChanged.connect(self._on_gpus_changed)
        form.addRow(self.tr("GPU"), self.gpu_combo)
        form.addRow(self.tr("Task"), self.task_combo)
        form.addRow(self.tr("Method"), self.method_combo)
        form.addRow(self.tr("Weights"), self.weights_combo)
        form.addRow(self.tr("Engine"), self.engine_combo)
        form.addRow(self.tr("KV cache"), self.kv_combo)
        form.addRow(self.tr("Context"), self.seq_spin)
        form.addRow(self.tr("Batch"), self.batch_spin)
        form.addRow(self.tr("LoRA rank"), self.rank_spin)
        form.addRow(self.tr("LoRA targets"), self.targets_combo)
        form.addRow(self.tr("Optimizer"), self.optimizer_combo)
        form.addRow("", self.ckpt_check)
        form.addRow("", self.loss_check)
        form.addRow(self.tr("Attention"), self.attention_combo)
        form.addRow(self.tr("GPUs"), self.gpus_spin)
        form.addRow(self.tr("Split"), self.strategy_combo)
        self._form = form
        col.addWidget(work_box)
        col.addStretch(1)

        controls.setMaximumWidth(352)
        scroll = QScrollArea()
        scroll.setWidget(controls)
        scroll.setWidgetResizable(True)
        scroll.setFixedWidth(370)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer.addWidget(scroll)

        right = QVBoxLayout()
        right.setSpacing(8)
        heading = self.tr("Will this model fit?")
        title = QLabel(f"<h2>{heading}</h2>")
        right.addWidget(title)
        card = QFrame()
        card.setProperty("card", True)
        cv = QVBoxLayout(card)
        cv.setContentsMargins(14, 10, 14, 10)
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
        cv.addWidget(self.headline_label)
        cv.addWidget(self.detail_label)
        cv.addWidget(self.bar)
        right.addWidget(card)

        middle = QHBoxLayout()
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels([self.tr("Part"), self.tr("GiB")])
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setMinimumWidth(270)
        middle.addWidget(self.table, 2)

        limits_box = QGroupBox(self.tr("Largest that fits"))
        lv = QFormLayout(limits_box)
        self.max_seq_label = QLabel("–")
        self.max_batch_label = QLabel("–")
        self.max_rank_label = QLabel("–")
        self.speed_label = QLabel()
        self.speed_label.setWordWrap(True)
        self.speed_label.setProperty("role", "muted")
        lv.addRow(self.tr("Context"), self.max_seq_label)
        lv.addRow(self.tr("Batch"), self.max_batch_label)
        lv.addRow(self.tr("LoRA rank"), self.max_rank_label)
        self._limits_form = lv
        lv.addRow(self.speed_label)
        middle.addWidget(limits_box, 3)
        right.addLayout(middle, 0)

        sugg_box = QGroupBox(self.tr("To make it fit (double-click to apply)"))
        sv = QVBoxLayout(sugg_box)
        self.suggestion_list = QListWidget()
        self.suggestion_list.itemActivated.connect(self._on_suggestion_activated)
        sv.addWidget(self.suggestion_list)
        right.addWidget(sugg_box)
        self.notes_label = QLabel()
        self.notes_label.setWordWrap(True)
        self.notes_label.setProperty("role", "muted")
        right.addWidget(self.notes_label)
        right.addStretch(1)
        outer.addLayout(right, 1)

    def _combo(self, items: list[tuple[str, object]]) -> QComboBox:
        combo = QComboBox()
        self._compact(combo)
        for text, data in items:
            combo.addItem(text, data)
        combo.currentIndexChanged.connect(self._schedule)
        return combo

    @staticmethod
    def _compact(combo: QComboBox) -> None:
        # Long entries must not widen the control column past the window.
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(12)

    def _spin(self, low: int, high: int, value: int, step: int, suffix: str = "") -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(low, high)
        spin.setValue(value)
        spin.setSingleStep(step)
        spin.setSuffix(suffix)
        spin.setGroupSeparatorShown(True)
        # The app theme pads spin boxes; give the arrow buttons their own room.
        spin.setStyleSheet("QSpinBox { padding-right: 18px; } QSpinBox::up-button, QSpinBox::down-button { width: 16px; }")
        spin.valueChanged.connect(self._schedule)
        return spin

    # ------------------------------------------------------------ public
    def set_model(self, arch: ModelArch) -> None:
        self._arch = arch
        if arch.max_context:
            self.seq_spin.setValue(min(self.seq_spin.value(), arch.max_context))
        self._schedule()

    def load_file(self, path: str | Path) -> bool:
        """Load a config.json / .safetensors / .gguf; shows the problem on failure."""
        try:
            arch = load_path(Path(path))
        except ModelInputError as exc:
            self._show_error(render(exc.message))
            return False
        self.model_list.clearSelection()
        if is_gguf_source(arch):
            # A GGUF file runs in llama.cpp, in its own quantisation.
            self._set_data(self.task_combo, "inference")
            self._set_data(self.engine_combo, "llamacpp")
            self._set_data(self.weights_combo, None)
        elif self.weights_combo.currentData() is None and self.engine_combo.currentData() == "llamacpp":
            self._set_data(self.weights_combo, "q4_k_m")
        self.set_model(arch)
        return True

    def shutdown(self) -> None:
        self._timer.stop()
        self._save()

    def self_test(self) -> str | None:
        """One estimate with the current inputs; the problem as text, or None (for --self-test)."""
        try:
            gpu = self.current_gpu()
            answer(self._arch, self.current_request(gpu), gpu.memory_gib if gpu else None)
        except ModelInputError as exc:
            return render(exc.message)
        return None

    def _default_gpu_name(self) -> str:
        """The detected GPU when the catalogue knows it, else an RTX 4090."""
        live = self._live_gpu()
        if live is not None:
            try:
                return self._gpus.find(live.name).name
            except ModelInputError:
                pass
        return DEFAULT_GPU

    def _restore(self, saved) -> None:
        gpu = saved.gpu or self._default_gpu_name()
        self._set_data(self.gpu_combo, gpu)
        self._set_data(self.task_combo, saved.task)
        self._set_data(self.engine_combo, saved.engine)
        self._set_data(self.method_combo, saved.method)
        limit = self._arch.max_context or saved.seq
        self.seq_spin.setValue(max(1, min(int(saved.seq), limit)))
        self._on_engine_changed()
        self._on_method_changed()
        self._timer.stop()

    def _save(self) -> None:
        store = self.context.settings_store
        fit = store.settings.fit
        model = self._arch.model_id if self._catalogue.get(self._arch.model_id) else fit.model
        values = {"model": model, "gpu": self.gpu_combo.currentData() or "", "task": self.task_combo.currentData(),
                  "engine": self.engine_combo.currentData(), "method": self.method_combo.currentData(),
                  "seq": self.seq_spin.value()}
        if any(getattr(fit, k) != v for k, v in values.items()):
            for key, value in values.items():
                setattr(fit, key, value)
            store.save()

    # ------------------------------------------------------------ Qt events
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        urls = event.mimeData().urls()
        if urls and any(u.isLocalFile() and (u.toLocalFile().lower().endswith(MODEL_SUFFIXES) or Path(u.toLocalFile()).is_dir()) for u in urls):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.load_file(url.toLocalFile())
                event.acceptProposedAction()
                return

    def hideEvent(self, event) -> None:  # noqa: N802
        self._timer.stop()
        self._save()
        super().hideEvent(event)

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if self.gpu_combo.currentData() == DETECTED:
            self._schedule()  # free memory may have changed while the page was away

    # ------------------------------------------------------------ slots
    def _schedule(self, *_args) -> None:
        self._timer.start()

    def _fill_model_list(self, text: str) -> None:
        self.model_list.blockSignals(True)
        self.model_list.clear()
        for entry in self._catalogue.search(text):
            item = QListWidgetItem(f"{entry.model_id}  ·  {entry.arch.total_params / 1e9:.1f} B")
            item.setData(Qt.ItemDataRole.UserRole, entry.model_id)
            self.model_list.addItem(item)
            if entry.model_id == self._arch.model_id:
                item.setSelected(True)
                self.model_list.setCurrentItem(item)
        self.model_list.blockSignals(False)

    def _on_model_picked(self, current: QListWidgetItem | None, _previous=None) -> None:
        if current is None:
            return
        entry = self._catalogue.get(current.data(Qt.ItemDataRole.UserRole))
        if entry is not None:
            self.params_edit.clear()
            self.set_model(entry.arch)

    def _on_open_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a model file"), "",
                                              self.tr("Model files (*.json *.safetensors *.gguf)"))
        if path:
            self.load_file(path)

    def _on_params_entered(self) -> None:
        text = self.params_edit.text().strip().lower().rstrip("b")
        if not text:
            return
        try:
            arch = arch_from_param_count(float(text), self._catalogue)
        except (ValueError, ModelInputError):
            self._show_error(self.tr("Enter a parameter count in billions, e.g. 7 or 13.5"))
            return
        self.model_list.clearSelection()
        self.set_model(arch)

    def _on_task_changed(self) -> None:
        self._sync_enabled()
        self._schedule()

    def _on_method_changed(self) -> None:
        method = self.method_combo.currentData()
        weights = self.weights_combo.currentData()
        if method == "qlora" and weights not in ("nf4", "fp4"):
            self._set_data(self.weights_combo, "nf4")
        elif method != "qlora" and weights in ("nf4", "fp4") and self.task_combo.currentData() == "train":
            self._set_data(self.weights_combo, None)
        self._schedule()

    def _on_engine_changed(self) -> None:
        engine = self.engine_combo.currentData()
        if engine != "vllm":
            self._extra = {}
        weights = self.weights_combo.currentData() or ""
        gguf = weights.startswith("q") or (not weights and is_gguf_source(self._arch))
        if engine == "llamacpp" and not gguf:
            self._set_data(self.weights_combo, "q4_k_m")
        elif engine != "llamacpp" and weights.startswith("q"):
            self._set_data(self.weights_combo, None)
        if engine != "llamacpp" and self.kv_combo.currentData() in ("q8_0", "q4_0"):
            self._set_data(self.kv_combo, "fp16")
        if engine != "vllm" and self.kv_combo.currentData() == "fp8":
            self._set_data(self.kv_combo, "fp16")
        self._sync_enabled()
        self._schedule()

    def _on_gpus_changed(self, value: int) -> None:
        if value > 1 and self.strategy_combo.currentData() == "single":
            train = self.task_combo.currentData() == "train"
            self._set_data(self.strategy_combo, "fsdp" if train else ("tp" if self.engine_combo.currentData() == "vllm" else "layer_split"))
        elif value == 1:
            self._set_data(self.strategy_combo, "single")
        self._schedule()

    def _on_suggestion_activated(self, item: QListWidgetItem) -> None:
        index = item.data(Qt.ItemDataRole.UserRole)
        if index is None or index >= len(self._suggestions):
            return
        self._apply_request(self._suggestions[index].request)

    # ------------------------------------------------------------ work
    def _set_data(self, combo: QComboBox, data) -> None:
        index = combo.findData(data)
        if index >= 0:
            combo.setCurrentIndex(index)

    def _sync_enabled(self) -> None:
        train = self.task_combo.currentData() == "train"
        for widget in (self.method_combo, self.rank_spin, self.targets_combo, self.optimizer_combo, self.ckpt_check,
                       self.loss_check):
            widget.setEnabled(train)
        self.engine_combo.setEnabled(not train)
        self.kv_combo.setEnabled(not train)
        if train and self.engine_combo.currentData() in ("vllm", "llamacpp"):
            self._set_data(self.engine_combo, "transformers")

    def _apply_request(self, req: FitRequest) -> None:
        self._set_data(self.task_combo, req.task)
        self._set_data(self.method_combo, req.method if req.task == "train" else "lora")
        self._set_data(self.engine_combo, req.engine)
        self._set_data(self.weights_combo, req.weights)
        self._set_data(self.kv_combo, req.kv_dtype)
        self.seq_spin.setValue(req.seq)
        self.batch_spin.setValue(req.batch)
        self.rank_spin.setValue(req.lora_rank)
        self._set_data(self.targets_combo, req.lora_targets)
        self.ckpt_check.setChecked(req.grad_ckpt)
        self._set_data(self.optimizer_combo, req.optimizer)
        self.gpus_spin.setValue(req.gpus)
        self._set_data(self.strategy_combo, req.strategy)
        self.loss_check.setChecked(req.chunked_loss)
        self._set_data(self.attention_combo, "eager" if req.attention == "eager" else "flash")
        self._extra = {"vllm_max_seqs": req.vllm_max_seqs, "vllm_max_batched_tokens": req.vllm_max_batched_tokens}
        self._schedule()

    def current_request(self, gpu: GpuSpec | None) -> FitRequest:
        train = self.task_combo.currentData() == "train"
        extra = self._extra
        return FitRequest(
            task="train" if train else "inference",
            method=self.method_combo.currentData() if train else "full",
            weights=self.weights_combo.currentData(),
            kv_dtype=self.kv_combo.currentData(),
            engine=self.engine_combo.currentData() if not train else "transformers",
            seq=self.seq_spin.value(), batch=self.batch_spin.value(), lora_rank=self.rank_spin.value(),
            lora_targets=self.targets_combo.currentData(), grad_ckpt=self.ckpt_check.isChecked(),
            optimizer=self.optimizer_combo.currentData(), gpus=self.gpus_spin.value(),
            strategy=self.strategy_combo.currentData(), gpu_total_gib=gpu.total_gib if gpu else None,
            gpu_name=gpu.name if gpu else None,
            chunked_loss=train and self.loss_check.isChecked(), attention=self.attention_combo.currentData(),
            vllm_max_seqs=extra.get("vllm_max_seqs"), vllm_max_batched_tokens=extra.get("vllm_max_batched_tokens"),
        )

    def _live_gpu(self) -> GpuSpec | None:
        hub = self.context.telemetry
        latest = getattr(hub, "latest", None) if hub is not None else None
        snapshot = latest() if callable(latest) else latest
        return live_gpu_from_snapshot(snapshot, 0, self._gpus)

    def current_gpu(self) -> GpuSpec | None:
        key = self.gpu_combo.currentData()
        if key == DETECTED:
            return self._live_gpu()
        try:
            return self._gpus.find(key)
        except ModelInputError:
            return None

    def _recompute(self) -> None:
        arch = self._arch
        self.model_label.setText(self.tr("{model} · {params:.2f} B parameters").format(
            model=arch.model_id, params=arch.total_params / 1e9) + (f"\n{arch.notes}" if arch.notes else ""))
        self.model_label.setToolTip(self.tr("Source: {source}").format(source=arch.source or "–"))
        gpu = self.current_gpu()
        req = self.current_request(gpu)
        try:
            ans = answer(arch, req, gpu.memory_gib if gpu else None)
        except ModelInputError as exc:
            self._show_error(render(exc.message) + (f" ({', '.join(exc.choices)})" if exc.choices else ""))
            return
        self.last_error = None
        self.last_answer = ans
        self._show_answer(ans, gpu)
        self.updated.emit()

    def _show_error(self, text: str) -> None:
        self.last_error = text
        self.headline_label.setText(text)
        self.headline_label.setStyleSheet("color: #c62828;")
        self.detail_label.setText("")
        self.bar.set_data([], None, "")
        self.table.setRowCount(0)
        self.suggestion_list.clear()
        self.updated.emit()

    def _show_answer(self, ans: FitAnswer, gpu: GpuSpec | None) -> None:
        est = ans.estimate
        req = est.request
        per = est.per_gpu_gib
        if gpu is None:
            self.headline_label.setText(self.tr("Needs {gib:.1f} GiB per GPU").format(gib=per))
            self.headline_label.setStyleSheet("color: #1f2933;")
            if self.gpu_combo.currentData() == DETECTED:
                self.detail_label.setText(self.tr("No GPU detected: pick one from the list to check the fit."))
            else:
                self.detail_label.setText("")
        elif ans.fits:
            self.headline_label.setText(self.tr("Fits: {gib:.1f} GiB of {budget:.1f} GiB, {left:.1f} GiB to spare").format(
                gib=per, budget=gpu.memory_gib, left=ans.headroom_gib))
            self.headline_label.setStyleSheet("color: #3f7d00;")
        else:
            self.headline_label.setText(self.tr("Does not fit: {gib:.1f} GiB needed, {budget:.1f} GiB available").format(
                gib=per, budget=gpu.memory_gib))
            self.headline_label.setStyleSheet("color: #c62828;")
        details = []
        if gpu is not None:
            details.append(self.tr("{gpu}: {budget:.1f} GiB free now").format(gpu=gpu.name, budget=gpu.memory_gib) if gpu.live
                           else self.tr("{gpu}: {budget:.0f} GiB").format(gpu=gpu.name, budget=gpu.memory_gib))
        if req.gpus > 1:
            details.append(self.tr("{total:.1f} GiB on {n} GPUs").format(total=est.total_gib, n=req.gpus))
        if est.host_bytes > 0:
            details.append(self.tr("+ {gib:.1f} GiB in system RAM").format(gib=est.host_bytes / 2**30))
        if est.engine_reserved_bytes > 0:
            details.append(self.tr("vLLM will reserve {gib:.1f} GiB more for KV cache").format(gib=est.engine_reserved_bytes / 2**30))
        if gpu is not None or details:
            self.detail_label.setText(" · ".join(details))
        breakdown = est.breakdown_gib()
        segments = [(k, render(COMPONENT_LABELS[k]), v) for k, v in breakdown.items()]
        self.bar.set_data(segments, gpu.memory_gib if gpu else None, gpu.name if gpu else "")
        rows = [(k, label, v) for k, label, v in segments if v >= 0.005]
        self.table.setRowCount(len(rows))
        for r, (code, label, gib) in enumerate(rows):
            swatch = QPixmap(12, 12)
            swatch.fill(QColor(COLORS.get(code, "#9aa5b1")))
            name = QTableWidgetItem(QIcon(swatch), label)
            value = QTableWidgetItem(f"{gib:.2f}")
            value.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(r, 0, name)
            self.table.setItem(r, 1, value)
        self.table.resizeRowsToContents()
        # Show every row without a scroll bar: header + rows.
        height = self.table.horizontalHeader().height() + sum(self.table.rowHeight(r) for r in range(len(rows))) + 4
        self.table.setFixedHeight(max(120, height))
        if ans.max_seq is None:
            self.max_seq_label.setText("–")
            self.max_batch_label.setText("–")
            self.max_rank_label.setText("–")
        else:
            limit = est.arch.max_context
            seq_text = self.tr("{n} tokens").format(n=f"{ans.max_seq:,}") if ans.max_seq else self.tr("none")
            if ans.max_seq and limit and ans.max_seq >= limit:
                seq_text = self.tr("{n} tokens (the model's maximum)").format(n=f"{limit:,}")
            self.max_seq_label.setText(seq_text)
            self.max_batch_label.setText(str(ans.max_batch) if ans.max_batch else self.tr("none"))
            self.max_rank_label.setText(str(ans.max_lora_rank) if ans.max_lora_rank else "–")
        speed = estimate_speed(est, gpu)
        if speed and speed.decode_tokens_per_s:
            self.speed_label.setText(self.tr("Estimate: ~{tps:.0f} tokens/s generated, ~{pps:.0f} tokens/s prompt").format(
                tps=speed.decode_tokens_per_s, pps=speed.prefill_tokens_per_s or 0))
        elif speed and speed.step_seconds:
            self.speed_label.setText(self.tr("Estimate: ~{s:.1f} s per step, ~{tps:.0f} tokens/s per GPU").format(
                s=speed.step_seconds, tps=speed.train_tokens_per_s))
        else:
            self.speed_label.setText("")
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
            item.setData(Qt.ItemDataRole.UserRole, i)
            self.suggestion_list.addItem(item)
        # As tall as its rows: no empty white box under a short list.
        rows = self.suggestion_list.count()
        row_h = max(self.suggestion_list.sizeHintForRow(0), 18) if rows else 18
        self.suggestion_list.setFixedHeight(min(rows, 8) * row_h + 2 * self.suggestion_list.frameWidth() + 8)
        self._limits_form.setRowVisible(self.max_rank_label, req.task == "train" and req.method != "full")
        self.notes_label.setText("\n".join(render(n) for n in est.notes))
