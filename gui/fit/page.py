"""Will this model fit? Pick a model and a workload; the breakdown, the largest
context that fits and the suggestions follow every change (debounced)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QFrame, QGroupBox,
    QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget, QListWidgetItem, QPushButton, QScrollArea, QSpinBox,
    QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget,
)

from gui.context import AppContext
from gui.fit.bar import COLORS, MemoryBar
from gui.i18n import render
from services.modelfit.arch import ModelArch
from services.modelfit.catalogue import default_catalogue
from services.modelfit.errors import ModelInputError
from services.modelfit.engines import ENGINE_LABELS, default_method, engine_defaults, ollama_default_context
from services.modelfit.estimate import LLAMACPP_ENGINES, TRAIN_ENGINES, FitRequest, is_gguf_source
from services.modelfit.grid import FitGrid, fit_grid
from services.modelfit.gpus import GpuSpec, default_gpu_catalogue, live_gpu_from_snapshot
from services.modelfit.report import COMPONENT_LABELS, GRID_STATUS
from services.modelfit.solver import FitAnswer, answer, vllm_needs_bytes
from services.modelfit.sources import arch_from_param_count, load_path
from services.modelfit.speed import estimate_speed

DEBOUNCE_MS = 100
DETECTED = "__detected__"
DEFAULT_MODEL = "meta-llama/Llama-3.1-8B"
DEFAULT_GPU = "GeForce RTX 4090"
MODEL_SUFFIXES = (".json", ".safetensors", ".gguf")
AUTO_LAYERS = -1  # GPU layers spin: "auto" (all, or what fits)
GRID_COLORS = {"fits": "#dcedc8", "tight": "#fff3c4", "no": "#ffcdd2", "invalid": "#eceff1"}


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
        self.last_grid: FitGrid | None = None
        self._suggestions: list = []
        self._error_choices: tuple[str, ...] = ()
        # vLLM limits a suggestion may set; they have no control of their own and reset with the engine.
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
        self.engine_combo = self._combo([(label, code) for code, label in ENGINE_LABELS.items()]
                                        + [(self.tr("Generic"), "generic")])
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
        self.loss_combo = self._combo([(self.tr("Plain cross-entropy"), "plain"), (self.tr("Chunked cross-entropy"), "chunked"),
                                       (self.tr("Fused linear + cross-entropy"), "fused")])
        self.loss_combo.setToolTip(self.tr("Chunked: torchtune's CEWithChunkedOutputLoss, the fp32 logits one chunk at a time. Fused: Cut Cross-Entropy (unsloth), logits never stored"))
        self.offload_check = self._check(self.tr("Offload activations to RAM"),
                                         self.tr("Checkpointed activations live in system RAM (unsloth's gradient checkpointing, torchtune enable_activation_offloading)"))
        self.compile_check = self._check(self.tr("torch.compile"), self.tr("Compiled model: about a quarter less activation memory (torchtune compile: True)"))
        self.opt_bwd_check = self._check(self.tr("Optimizer step in backward"), self.tr("Each gradient is applied and freed during backward (torchtune optimizer_in_bwd)"))
        self.lora_output_check = self._check(self.tr("LoRA on the output layer"), self.tr("torchtune apply_lora_to_output"))
        self.kbit_cast_check = self._check(self.tr("fp32 cast of non-4-bit layers"), self.tr("PEFT prepare_model_for_kbit_training (QLoRA with transformers/PEFT)"))
        self.lora_dtype_combo = self._combo([("FP32", 4), ("BF16", 2)])
        self.lora_dtype_combo.setToolTip(self.tr("LoRA adapter dtype: PEFT keeps fp32; unsloth and torchtune use the compute dtype"))
        self.attention_combo = self._combo([(self.tr("Flash attention"), "flash"), ("SDPA", "sdpa"), (self.tr("Eager"), "eager")])
        self.util_spin = QDoubleSpinBox()
        self.util_spin.setRange(0.05, 1.0)
        self.util_spin.setSingleStep(0.05)
        self.util_spin.setDecimals(2)
        self.util_spin.setValue(0.9)
        self.util_spin.setToolTip(self.tr("vLLM --gpu-memory-utilization: the share of the card vLLM takes at start"))
        self.util_spin.setStyleSheet("QDoubleSpinBox { padding-right: 18px; } QDoubleSpinBox::up-button, QDoubleSpinBox::down-button { width: 16px; }")
        self.util_spin.valueChanged.connect(self._schedule)
        self.precision_combo = self._combo([(self.tr("From the weights"), None), ("FP32", "fp32"),
                                            (self.tr("Mixed (AMP)"), "mixed"), ("BF16", "bf16")])
        self.precision_combo.setToolTip(self.tr("Full fine-tuning: fp32, mixed precision (fp32 master weights) or pure bf16"))
        self.double_quant_check = self._check(self.tr("Double quantisation"), self.tr("bitsandbytes 4-bit: quantise the block scales too (4.127 instead of 4.5 bits per weight)"))
        self.double_quant_check.setChecked(True)
        self.max_seqs_spin = self._spin(0, 65536, 0, 32)
        self.max_seqs_spin.setSpecialValueText(self.tr("default"))
        self.max_seqs_spin.setToolTip(self.tr("vLLM --max-num-seqs (default 256, 1024 on cards with 70 GiB or more)"))
        self.batched_tokens_spin = self._spin(0, 1 << 20, 0, 1024)
        self.batched_tokens_spin.setSpecialValueText(self.tr("default"))
        self.batched_tokens_spin.setToolTip(self.tr("vLLM --max-num-batched-tokens (default 2048, 8192 on cards with 70 GiB or more)"))
        self.vllm_v0_check = self._check(self.tr("vLLM before V1 (0.6.x)"), self.tr("Older vLLM: more non-torch memory, the whole max_model_len profiled"))
        self.context_spin = QDoubleSpinBox()
        self.context_spin.setRange(0.0, 8.0)
        self.context_spin.setSingleStep(0.1)
        self.context_spin.setDecimals(2)
        self.context_spin.setSuffix(" GiB")
        self.context_spin.setSpecialValueText(self.tr("default"))
        self.context_spin.setToolTip(self.tr("CUDA context size if you measured it (default 0.5 GiB, llama.cpp 0.3 GiB)"))
        self.context_spin.setStyleSheet("QDoubleSpinBox { padding-right: 18px; } QDoubleSpinBox::up-button, QDoubleSpinBox::down-button { width: 16px; }")
        self.context_spin.valueChanged.connect(self._schedule)
        self.layers_spin = self._spin(AUTO_LAYERS, 1000, AUTO_LAYERS, 1)
        self.layers_spin.setSpecialValueText(self.tr("auto"))
        self.layers_spin.setToolTip(self.tr("llama.cpp -ngl / Ollama num_gpu: layers on the GPU; auto = all, or what fits"))
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
        form.addRow(self.ckpt_check)
        form.addRow(self.offload_check)
        form.addRow(self.tr("Loss"), self.loss_combo)
        form.addRow(self.opt_bwd_check)
        form.addRow(self.compile_check)
        form.addRow(self.lora_output_check)
        form.addRow(self.kbit_cast_check)
        form.addRow(self.tr("LoRA dtype"), self.lora_dtype_combo)
        form.addRow(self.tr("Attention"), self.attention_combo)
        form.addRow(self.tr("Precision"), self.precision_combo)
        form.addRow(self.double_quant_check)
        form.addRow(self.tr("vLLM memory share"), self.util_spin)
        form.addRow(self.tr("vLLM sequences"), self.max_seqs_spin)
        form.addRow(self.tr("vLLM batch tokens"), self.batched_tokens_spin)
        form.addRow(self.vllm_v0_check)
        form.addRow(self.tr("GPU layers"), self.layers_spin)
        form.addRow(self.tr("CUDA context"), self.context_spin)
        form.addRow(self.tr("GPUs"), self.gpus_spin)
        form.addRow(self.tr("Split"), self.strategy_combo)
        col.addWidget(work_box)
        col.addStretch(1)

        controls.setMaximumWidth(322)
        scroll = QScrollArea()
        scroll.setWidget(controls)
        scroll.setWidgetResizable(True)
        scroll.setFixedWidth(340)
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
        self.table.setMinimumWidth(200)
        self.table.verticalHeader().setDefaultSectionSize(20)

        limits_box = QGroupBox(self.tr("Largest that fits"))
        lv = QFormLayout(limits_box)
        self.max_seq_label = QLabel("–")
        self.max_batch_label = QLabel("–")
        self.max_rank_label = QLabel("–")
        self.speed_label = QLabel()
        self.speed_label.setWordWrap(True)
        self.speed_label.setProperty("role", "muted")
        lv.setVerticalSpacing(2)
        lv.addRow(self.tr("Context"), self.max_seq_label)
        lv.addRow(self.tr("Batch"), self.max_batch_label)
        lv.addRow(self.tr("LoRA rank"), self.max_rank_label)
        self._limits_form = lv
        lv.addRow(self.speed_label)
        middle.addWidget(limits_box, 1)
        right.addLayout(middle, 0)

        self.tabs = QTabWidget()
        sugg_page = QWidget()
        sv = QVBoxLayout(sugg_page)
        sv.setContentsMargins(4, 4, 4, 4)
        self.suggestion_list = QListWidget()
        self.suggestion_list.itemActivated.connect(self._on_suggestion_activated)
        sv.addWidget(self.suggestion_list)
        self.tabs.addTab(sugg_page, self.tr("To make it fit"))
        self.tabs.setTabToolTip(0, self.tr("Double-click a change to apply it"))
        grid_page = QWidget()
        gv = QVBoxLayout(grid_page)
        gv.setContentsMargins(4, 4, 4, 4)
        self.grid_table = QTableWidget(0, 0)
        self.grid_table.setObjectName("fitGrid")
        self.grid_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.grid_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.grid_table.cellClicked.connect(self._on_grid_clicked)
        self.grid_hint = QLabel(self.tr("GiB per GPU; green fits, yellow tight (under 10% left), red does not fit. Click a cell to apply it."))
        self.grid_hint.setWordWrap(True)
        self.grid_hint.setProperty("role", "muted")
        gv.addWidget(self.grid_table)
        gv.addWidget(self.grid_hint)
        self.tabs.addTab(grid_page, self.tr("Weights × context"))
        self.tabs.addTab(self.table, self.tr("Parts"))
        right.addWidget(self.tabs, 1)
        self.notes_label = QLabel()
        self.notes_label.setWordWrap(True)
        self.notes_label.setProperty("role", "muted")
        right.addWidget(self.notes_label)
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
        combo.currentTextChanged.connect(combo.setToolTip)  # the whole entry when the box cuts it

    def _check(self, text: str, tip: str) -> QCheckBox:
        check = QCheckBox(text)
        check.setToolTip(tip)
        check.toggled.connect(self._schedule)
        return check

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
        self._sync_enabled()
        self._schedule()

    def _apply_engine_defaults(self) -> None:
        """Preselect what the engine does by default (services.modelfit.engines); the user may change it."""
        engine = self.engine_combo.currentData()
        train = self.task_combo.currentData() == "train"
        method = self.method_combo.currentData()
        preset = engine_defaults(engine, "train" if train else "inference", method, self.gpus_spin.value())
        for check, key in ((self.ckpt_check, "grad_ckpt"), (self.offload_check, "activation_offload"),
                           (self.opt_bwd_check, "optimizer_in_backward"), (self.compile_check, "compile"),
                           (self.lora_output_check, "lora_on_output"), (self.kbit_cast_check, "kbit_fp32_upcast")):
            check.blockSignals(True)
            check.setChecked(bool(preset[key]))
            check.blockSignals(False)
        loss = "fused" if preset["fused_loss"] else ("chunked" if preset["chunked_loss"] else "plain")
        for combo, value in ((self.loss_combo, loss), (self.lora_dtype_combo, preset["lora_adapter_bytes"]),
                             (self.optimizer_combo, preset["optimizer"]), (self.attention_combo, preset["attention"])):
            combo.blockSignals(True)
            self._set_data(combo, value)
            combo.blockSignals(False)
        if engine == "torchtune" and train:
            self.rank_spin.setValue(8)  # the recipes' lora_rank
        if engine == "vllm" and self._arch.max_context:
            self.seq_spin.setValue(self._arch.max_context)  # vllm serve's default max_model_len
        if engine == "ollama":
            gpu = self.current_gpu()
            limit = self._arch.max_context or (1 << 20)
            self.seq_spin.setValue(min(limit, ollama_default_context(gpu.total_gib if gpu else None)))

    def _on_engine_changed(self) -> None:
        engine = self.engine_combo.currentData()
        if engine == "unsloth" and self.task_combo.currentData() == "train":
            self._set_data(self.method_combo, default_method(engine))
        self._apply_engine_defaults()
        if engine != "vllm":
            self.max_seqs_spin.setValue(0)
            self.batched_tokens_spin.setValue(0)
        weights = self.weights_combo.currentData() or ""
        gguf = weights.startswith("q") or (not weights and is_gguf_source(self._arch))
        if engine in LLAMACPP_ENGINES and not gguf:
            self._set_data(self.weights_combo, "q4_k_m")
        elif engine not in LLAMACPP_ENGINES and weights.startswith("q"):
            self._set_data(self.weights_combo, None)
        if engine not in LLAMACPP_ENGINES and self.kv_combo.currentData() in ("q8_0", "q4_0"):
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
        choice = item.data(Qt.ItemDataRole.UserRole + 1)
        if choice is not None:
            self._apply_choice(choice)
            return
        index = item.data(Qt.ItemDataRole.UserRole)
        if index is None or index >= len(self._suggestions):
            return
        self._apply_request(self._suggestions[index].request)

    def _apply_choice(self, choice: str) -> None:
        """A valid value offered by an error: a GPU count, or the value of whichever control takes it."""
        if choice.isdigit():
            self.gpus_spin.setValue(int(choice))
            return
        for combo in (self.engine_combo, self.weights_combo, self.kv_combo, self.strategy_combo, self.method_combo,
                      self.optimizer_combo, self.attention_combo, self.task_combo):
            if combo.findData(choice) >= 0:
                self._set_data(combo, choice)
                return

    def _on_grid_clicked(self, row: int, column: int) -> None:
        grid = self.last_grid
        if grid is None or row >= len(grid.rows) or column >= len(grid.contexts):
            return
        cell = grid.cells[row][column]
        changes = dict(cell.row.changes)
        if "method" in changes:
            self._set_data(self.method_combo, changes["method"])
        if "weights" in changes:
            self._set_data(self.weights_combo, changes["weights"])
        self.seq_spin.setValue(cell.seq)
        self._schedule()

    # ------------------------------------------------------------ work
    def _set_data(self, combo: QComboBox, data) -> None:
        index = combo.findData(data)
        if index >= 0:
            combo.setCurrentIndex(index)

    def _sync_enabled(self) -> None:
        train = self.task_combo.currentData() == "train"
        for widget in (self.method_combo, self.rank_spin, self.targets_combo, self.optimizer_combo, self.ckpt_check,
                       self.loss_combo, self.offload_check, self.compile_check, self.opt_bwd_check,
                       self.lora_output_check, self.kbit_cast_check, self.lora_dtype_combo):
            widget.setEnabled(train)
        self.kv_combo.setEnabled(not train)
        engine = self.engine_combo.currentData()
        for widget in (self.util_spin, self.max_seqs_spin, self.batched_tokens_spin, self.vllm_v0_check):
            widget.setEnabled(not train and engine == "vllm")
        self.precision_combo.setEnabled(train and self.method_combo.currentData() == "full")
        self.layers_spin.setEnabled(not train and engine in LLAMACPP_ENGINES)
        if train and engine not in TRAIN_ENGINES:
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
        self._set_data(self.loss_combo, "fused" if req.fused_loss else ("chunked" if req.chunked_loss else "plain"))
        self.offload_check.setChecked(req.activation_offload)
        self._set_data(self.attention_combo, req.attention)
        self.max_seqs_spin.setValue(req.vllm_max_seqs or 0)
        self.batched_tokens_spin.setValue(req.vllm_max_batched_tokens or 0)
        self._set_data(self.precision_combo, req.precision)
        self._schedule()

    def current_request(self, gpu: GpuSpec | None) -> FitRequest:
        train = self.task_combo.currentData() == "train"
        loss = self.loss_combo.currentData()
        layers = self.layers_spin.value()
        return FitRequest(
            task="train" if train else "inference",
            method=self.method_combo.currentData() if train else "full",
            weights=self.weights_combo.currentData(),
            kv_dtype=self.kv_combo.currentData(),
            engine=self.engine_combo.currentData(),
            activation_offload=train and self.offload_check.isChecked(), compile=train and self.compile_check.isChecked(),
            optimizer_in_backward=train and self.opt_bwd_check.isChecked(), fused_loss=train and loss == "fused",
            lora_on_output=self.lora_output_check.isChecked(), kbit_fp32_upcast=self.kbit_cast_check.isChecked(),
            lora_adapter_bytes=self.lora_dtype_combo.currentData(), gpu_memory_utilization=self.util_spin.value(),
            gpu_layers=None if layers == AUTO_LAYERS else layers,
            seq=self.seq_spin.value(), batch=self.batch_spin.value(), lora_rank=self.rank_spin.value(),
            lora_targets=self.targets_combo.currentData(), grad_ckpt=self.ckpt_check.isChecked(),
            optimizer=self.optimizer_combo.currentData(), gpus=self.gpus_spin.value(),
            strategy=self.strategy_combo.currentData(), gpu_total_gib=gpu.total_gib if gpu else None,
            gpu_name=gpu.name if gpu else None,
            chunked_loss=train and loss == "chunked", attention=self.attention_combo.currentData(),
            vllm_max_seqs=self.max_seqs_spin.value() or None,
            vllm_max_batched_tokens=self.batched_tokens_spin.value() or None,
            vllm_legacy=self.vllm_v0_check.isChecked(), double_quant=self.double_quant_check.isChecked(),
            precision=self.precision_combo.currentData() if train and self.method_combo.currentData() == "full" else None,
            cuda_context_gib=self.context_spin.value() or None,
        )

    def _live_gpu(self) -> GpuSpec | None:
        hub = self.context.telemetry
        snapshot = hub.latest if hub is not None else None
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
            grid = fit_grid(arch, req, gpu) if gpu is not None else None
        except ModelInputError as exc:
            self._show_error(render(exc.message), exc.choices)
            return
        self.last_error = None
        self._error_choices = ()
        self.last_answer = ans
        self._show_answer(ans, gpu)
        self._show_grid(grid)
        self.updated.emit()

    def _show_error(self, text: str, choices: tuple[str, ...] = ()) -> None:
        """The problem in place of the answer: every figure of the last answer is blanked (a stale
        number next to an error reads as the answer), and the valid values are offered to apply."""
        self.last_error = text
        self.last_answer = None
        self._error_choices = tuple(choices)
        self.headline_label.setText(text)
        self.headline_label.setStyleSheet("color: #c62828;")
        self.detail_label.setText("")
        self.bar.set_data([], None, "")
        self.table.setRowCount(0)
        for label in (self.max_seq_label, self.max_batch_label, self.max_rank_label):
            label.setText("–")
        self.speed_label.setText("")
        self.notes_label.setText("")
        self._show_grid(None)
        self._suggestions = []
        self.suggestion_list.clear()
        for choice in self._error_choices:
            item = QListWidgetItem(self.tr("Use {value}").format(value=choice))
            item.setData(Qt.ItemDataRole.UserRole + 1, choice)
            self.suggestion_list.addItem(item)
        self.updated.emit()

    def _show_grid(self, grid: FitGrid | None) -> None:
        self.last_grid = grid
        table = self.grid_table
        if grid is None:
            table.setRowCount(0)
            table.setColumnCount(0)
            return
        table.setColumnCount(len(grid.contexts))
        table.setRowCount(len(grid.rows))
        table.setHorizontalHeaderLabels([f"{c // 1024}k" if c % 1024 == 0 else str(c) for c in grid.contexts])
        table.setVerticalHeaderLabels([r.label.upper() for r in grid.rows])
        for r, line in enumerate(grid.cells):
            for c, cell in enumerate(line):
                if cell.per_gpu_gib is None:
                    text = "–"
                else:
                    text = f"{cell.per_gpu_gib:.1f}"
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
        elif req.runtime == "vllm" and req.gpu_total_gib is not None:
            share = req.gpu_memory_utilization * req.gpu_total_gib
            needs = vllm_needs_bytes(est) / 2**30
            self.headline_label.setText(
                self.tr("vLLM starts with max_model_len {seq}: needs {gib:.1f} GiB of its {share:.1f} GiB").format(seq=f"{req.seq:,}", gib=needs, share=share)
                if ans.fits else
                self.tr("vLLM does not start with max_model_len {seq}: needs {gib:.1f} GiB, its share is {share:.1f} GiB").format(seq=f"{req.seq:,}", gib=needs, share=share))
            self.headline_label.setStyleSheet("color: #3f7d00;" if ans.fits else "color: #c62828;")
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
        if req.runtime == "vllm" and ans.vllm_takes_gib is not None:
            details.append(self.tr("vLLM needs {needs:.1f} GiB; at start it takes {takes:.1f} GiB ({util:.0%} of the card + CUDA graphs)").format(
                needs=vllm_needs_bytes(est) / 2**30, takes=ans.vllm_takes_gib, util=req.gpu_memory_utilization))
        if ans.offload is not None:
            flag = "-ngl" if req.engine == "llamacpp" else "num_gpu"
            details.append(self.tr("Partial offload: {n} of {total} layers on the GPU ({flag} {n}), {host:.1f} GiB in system RAM").format(
                n=min(ans.offload.gpu_layers, ans.offload.layers), total=ans.offload.layers, flag=flag, host=ans.offload.host_gib))
            split = estimate_speed(ans.offload.estimate, gpu)
            if split and split.decode_tokens_per_s:
                details.append(self.tr("rough estimate for that split: ~{tps:.1f} tokens/s").format(tps=split.decode_tokens_per_s))
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
        if ans.offload is not None:
            speed = estimate_speed(ans.offload.estimate, gpu)  # what runs is the split
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
        self._limits_form.setRowVisible(self.max_rank_label, req.task == "train" and req.method != "full")
        self.notes_label.setText("\n".join(render(n) for n in est.notes))
