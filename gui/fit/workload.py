"""The fit page's "Workload" form: the GPU, the task, the engine and its options, and how the
choices hold each other in step (an engine's defaults, what a task or method leaves enabled)."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QWidget

from gui.fit import controls
from services.modelfit.arch import ModelArch
from services.modelfit.engines import (
    ENGINE_LABELS, default_method, default_strategy, engine_defaults, loss_mode, ollama_default_context,
)
from services.modelfit.request import LLAMACPP_ENGINES, TRAIN_ENGINES, FitRequest
from services.modelfit.weights import is_gguf_source
from services.modelfit.gpus import GpuCatalogue, GpuSpec

DETECTED = "__detected__"
DEFAULT_GPU = "GeForce RTX 4090"
AUTO_LAYERS = -1  # GPU layers spin: "auto" (all, or what fits)


class WorkloadForm(QGroupBox):
    """Signals:
        changed(): any input changed; the answer is due again.

    ``arch`` is the model the engine defaults look at; ``current_gpu`` gives the GPU chosen now.
    """

    changed = Signal()

    def __init__(self, gpus: GpuCatalogue, arch: ModelArch, current_gpu: Callable[[], GpuSpec | None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Workload"))
        self.arch = arch
        self._current_gpu = current_gpu
        self._build_common(gpus)
        self._build_training()
        self._build_engine_limits()
        self._lay_out()
        self.task_combo.currentIndexChanged.connect(self._on_task_changed)
        self.method_combo.currentIndexChanged.connect(self.on_method_changed)
        self.engine_combo.currentIndexChanged.connect(self.on_engine_changed)
        self.gpus_spin.valueChanged.connect(self._on_gpus_changed)

    # ---- layout
    def _emit_changed(self, *_args) -> None:
        self.changed.emit()

    def _combo(self, items: list[tuple[str, object]]) -> QComboBox:
        return controls.combo(items, self._emit_changed)

    def _build_common(self, gpus: GpuCatalogue) -> None:
        self.task_combo = self._combo([(self.tr("Inference"), "inference"), (self.tr("Training"), "train")])
        self.method_combo = self._combo([(self.tr("LoRA"), "lora"), (self.tr("QLoRA (4-bit base)"), "qlora"),
                                         (self.tr("Full fine-tuning"), "full")])
        self.weights_combo = self._combo([(self.tr("Model's own"), None), ("BF16", "bf16"), ("FP16", "fp16"),
                                          ("FP32", "fp32"), ("FP8", "fp8"), ("MXFP4", "mxfp4"), (self.tr("INT8 (bitsandbytes)"), "int8"),
                                          (self.tr("INT4 (GPTQ/AWQ)"), "int4"),
                                          (self.tr("NF4 (bitsandbytes)"), "nf4"), (self.tr("FP4 (bitsandbytes)"), "fp4"),
                                          ("GGUF Q8_0", "q8_0"), ("GGUF Q6_K", "q6_k"), ("GGUF Q5_K_M", "q5_k_m"),
                                          ("GGUF Q4_K_M", "q4_k_m"), ("GGUF Q4_0", "q4_0")])
        self.engine_combo = self._combo([(label, code) for code, label in ENGINE_LABELS.items()]
                                        + [(self.tr("Generic"), "generic")])
        self.kv_combo = self._combo([("FP16", "fp16"), ("FP8", "fp8"), ("Q8_0", "q8_0"), ("Q4_0", "q4_0")])
        self.seq_spin = controls.spin(1, 1 << 20, 4096, 1024, self._emit_changed, self.tr(" tokens"))
        self.batch_spin = controls.spin(1, 4096, 1, 1, self._emit_changed)
        self.gpu_combo = QComboBox()
        controls.compact(self.gpu_combo)
        self.gpu_combo.addItem(self.tr("Detected GPU (free memory)"), DETECTED)
        for spec in gpus.gpus:
            # "GeForce " is on every consumer card: without it the memory size fits the narrow box.
            short = spec.name.removeprefix("GeForce ").removeprefix("NVIDIA ")
            size = f"{spec.memory_gib:g}GB"
            self.gpu_combo.addItem(short if short.replace(" ", "").endswith(size) else f"{short} · {size.replace('GB', ' GB')}", spec.name)
            self.gpu_combo.setItemData(self.gpu_combo.count() - 1, spec.name, Qt.ItemDataRole.ToolTipRole)
        self.gpu_combo.setCurrentIndex(max(0, self.gpu_combo.findData(DEFAULT_GPU)))
        self.gpu_combo.currentIndexChanged.connect(self._emit_changed)

    def _build_training(self) -> None:
        check = controls.check
        changed = self._emit_changed
        self.rank_spin = controls.spin(1, 4096, 16, 8, changed)
        self.targets_combo = self._combo([(self.tr("q, v"), "qv"), (self.tr("q, k, v, o"), "qkvo"),
                                          (self.tr("All linear layers"), "all")])
        self.targets_combo.setCurrentIndex(2)
        self.ckpt_check = check(self.tr("Gradient checkpointing"), "", changed)
        self.ckpt_check.setChecked(True)
        self.loss_combo = self._combo([(self.tr("Plain cross-entropy"), "plain"), (self.tr("Chunked cross-entropy"), "chunked"),
                                       (self.tr("Fused linear + cross-entropy"), "fused")])
        self.loss_combo.setToolTip(self.tr("Chunked: torchtune's CEWithChunkedOutputLoss, the fp32 logits one chunk at a time. Fused: Cut Cross-Entropy (unsloth), logits never stored"))
        self.offload_check = check(self.tr("Offload activations to RAM"),
                                   self.tr("Checkpointed activations live in system RAM (unsloth's gradient checkpointing, torchtune enable_activation_offloading)"), changed)
        self.compile_check = check(self.tr("torch.compile"), self.tr("Compiled model: about a quarter less activation memory (torchtune compile: True)"), changed)
        self.opt_bwd_check = check(self.tr("Optimizer step in backward"), self.tr("Each gradient is applied and freed during backward (torchtune optimizer_in_bwd)"), changed)
        self.lora_output_check = check(self.tr("LoRA on the output layer"), self.tr("torchtune apply_lora_to_output"), changed)
        self.kbit_cast_check = check(self.tr("fp32 cast of non-4-bit layers"), self.tr("PEFT prepare_model_for_kbit_training (QLoRA with transformers/PEFT)"), changed)
        self.lora_dtype_combo = self._combo([("FP32", 4), ("BF16", 2)])
        self.lora_dtype_combo.setToolTip(self.tr("LoRA adapter dtype: PEFT keeps fp32; unsloth and torchtune use the compute dtype"))
        self.precision_combo = self._combo([(self.tr("From the weights"), None), ("FP32", "fp32"),
                                            (self.tr("Mixed (AMP)"), "mixed"), ("BF16", "bf16")])
        self.precision_combo.setToolTip(self.tr("Full fine-tuning: fp32, mixed precision (fp32 master weights) or pure bf16"))
        self.double_quant_check = check(self.tr("Double quantisation"), self.tr("bitsandbytes 4-bit: quantise the block scales too (4.127 instead of 4.5 bits per weight)"), changed)
        self.double_quant_check.setChecked(True)
        self.optimizer_combo = self._combo([("AdamW", "adamw"), (self.tr("8-bit AdamW"), "adamw8bit"),
                                            (self.tr("Paged AdamW"), "paged_adamw"), (self.tr("Paged 8-bit AdamW"), "paged_adamw8bit"),
                                            ("Adafactor", "adafactor"), ("SGD", "sgd")])

    def _build_engine_limits(self) -> None:
        changed = self._emit_changed
        self.attention_combo = self._combo([(self.tr("Flash attention"), "flash"), ("SDPA", "sdpa"), (self.tr("Eager"), "eager")])
        self.util_spin = controls.double_spin(0.05, 1.0, 0.05, 0.9, changed)
        self.util_spin.setToolTip(self.tr("vLLM --gpu-memory-utilization: the share of the card vLLM takes at start"))
        self.max_seqs_spin = controls.spin(0, 65536, 0, 32, changed)
        self.max_seqs_spin.setSpecialValueText(self.tr("default"))
        self.max_seqs_spin.setToolTip(self.tr("vLLM --max-num-seqs (default 256, 1024 on cards with 70 GiB or more)"))
        self.batched_tokens_spin = controls.spin(0, 1 << 20, 0, 1024, changed)
        self.batched_tokens_spin.setSpecialValueText(self.tr("default"))
        self.batched_tokens_spin.setToolTip(self.tr("vLLM --max-num-batched-tokens (default 2048, 8192 on cards with 70 GiB or more)"))
        self.vllm_v0_check = controls.check(self.tr("vLLM before V1 (0.6.x)"), self.tr("Older vLLM: more non-torch memory, the whole max_model_len profiled"), changed)
        self.context_spin = controls.double_spin(0.0, 8.0, 0.1, 0.0, changed)
        self.context_spin.setSuffix(" GiB")
        self.context_spin.setSpecialValueText(self.tr("default"))
        self.context_spin.setToolTip(self.tr("CUDA context size if you measured it (default 0.5 GiB, llama.cpp 0.3 GiB)"))
        self.layers_spin = controls.spin(AUTO_LAYERS, 1000, AUTO_LAYERS, 1, changed)
        self.layers_spin.setSpecialValueText(self.tr("auto"))
        self.layers_spin.setToolTip(self.tr("llama.cpp -ngl / Ollama num_gpu: layers on the GPU; auto = all, or what fits"))
        self.gpus_spin = controls.spin(1, 64, 1, 1, changed)
        self.strategy_combo = self._combo([(self.tr("Single GPU"), "single"), ("DDP", "ddp"), ("FSDP", "fsdp"),
                                           (self.tr("FSDP + CPU offload"), "fsdp_offload"), (self.tr("Tensor parallel"), "tp"),
                                           (self.tr("Layer split"), "layer_split")])

    def _lay_out(self) -> None:
        form = QFormLayout(self)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        form.setVerticalSpacing(3)
        for label, widget in (
            (self.tr("GPU"), self.gpu_combo), (self.tr("Task"), self.task_combo),
            (self.tr("Method"), self.method_combo), (self.tr("Weights"), self.weights_combo),
            (self.tr("Engine"), self.engine_combo), (self.tr("KV cache"), self.kv_combo),
            (self.tr("Context"), self.seq_spin), (self.tr("Batch"), self.batch_spin),
            (self.tr("LoRA rank"), self.rank_spin), (self.tr("LoRA targets"), self.targets_combo),
            (self.tr("Optimizer"), self.optimizer_combo), (None, self.ckpt_check), (None, self.offload_check),
            (self.tr("Loss"), self.loss_combo), (None, self.opt_bwd_check), (None, self.compile_check),
            (None, self.lora_output_check), (None, self.kbit_cast_check),
            (self.tr("LoRA dtype"), self.lora_dtype_combo), (self.tr("Attention"), self.attention_combo),
            (self.tr("Precision"), self.precision_combo), (None, self.double_quant_check),
            (self.tr("vLLM memory share"), self.util_spin), (self.tr("vLLM sequences"), self.max_seqs_spin),
            (self.tr("vLLM batch tokens"), self.batched_tokens_spin), (None, self.vllm_v0_check),
            (self.tr("GPU layers"), self.layers_spin), (self.tr("CUDA context"), self.context_spin),
            (self.tr("GPUs"), self.gpus_spin), (self.tr("Split"), self.strategy_combo),
        ):
            if label is None:
                form.addRow(widget)
            else:
                form.addRow(label, widget)

    # ---- Public API
    def is_training(self) -> bool:
        return self.task_combo.currentData() == "train"

    def current_request(self, gpu: GpuSpec | None) -> FitRequest:
        train = self.is_training()
        loss = self.loss_combo.currentData()
        layers = self.layers_spin.value()
        full = self.method_combo.currentData() == "full"
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
            precision=self.precision_combo.currentData() if train and full else None,
            cuda_context_gib=self.context_spin.value() or None,
        )

    def apply_request(self, req: FitRequest) -> None:
        """Show ``req`` (a suggestion) in the controls."""
        set_data = controls.set_data
        set_data(self.task_combo, req.task)
        set_data(self.method_combo, req.method if req.task == "train" else "lora")
        set_data(self.engine_combo, req.engine)
        set_data(self.weights_combo, req.weights)
        set_data(self.kv_combo, req.kv_dtype)
        self.seq_spin.setValue(req.seq)
        self.batch_spin.setValue(req.batch)
        self.rank_spin.setValue(req.lora_rank)
        set_data(self.targets_combo, req.lora_targets)
        self.ckpt_check.setChecked(req.grad_ckpt)
        set_data(self.optimizer_combo, req.optimizer)
        self.gpus_spin.setValue(req.gpus)
        set_data(self.strategy_combo, req.strategy)
        set_data(self.loss_combo, loss_mode(req.chunked_loss, req.fused_loss))
        self.offload_check.setChecked(req.activation_offload)
        set_data(self.attention_combo, req.attention)
        self.max_seqs_spin.setValue(req.vllm_max_seqs or 0)
        self.batched_tokens_spin.setValue(req.vllm_max_batched_tokens or 0)
        set_data(self.precision_combo, req.precision)
        self.changed.emit()

    def apply_choice(self, choice: str) -> None:
        """A valid value offered by an error: a GPU count, or the value of whichever control takes it."""
        if choice.isdigit():
            self.gpus_spin.setValue(int(choice))
            return
        for box in (self.engine_combo, self.weights_combo, self.kv_combo, self.strategy_combo, self.method_combo,
                    self.optimizer_combo, self.attention_combo, self.task_combo):
            if box.findData(choice) >= 0:
                controls.set_data(box, choice)
                return

    def sync_enabled(self) -> None:
        """Enable what the task, engine and method use."""
        train = self.is_training()
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
            controls.set_data(self.engine_combo, "transformers")

    # ---- slots
    def _on_task_changed(self) -> None:
        self.sync_enabled()
        self.changed.emit()

    def on_method_changed(self) -> None:
        method = self.method_combo.currentData()
        weights = self.weights_combo.currentData()
        if method == "qlora" and weights not in ("nf4", "fp4"):
            controls.set_data(self.weights_combo, "nf4")
        elif method != "qlora" and weights in ("nf4", "fp4") and self.is_training():
            controls.set_data(self.weights_combo, None)
        self.sync_enabled()
        self.changed.emit()

    def _apply_engine_defaults(self) -> None:
        """Preselect what the engine does by default (services.modelfit.engines); the user may change it."""
        engine = self.engine_combo.currentData()
        train = self.is_training()
        preset = engine_defaults(engine, "train" if train else "inference", self.method_combo.currentData(),
                                 self.gpus_spin.value())
        for box, key in ((self.ckpt_check, "grad_ckpt"), (self.offload_check, "activation_offload"),
                         (self.opt_bwd_check, "optimizer_in_backward"), (self.compile_check, "compile"),
                         (self.lora_output_check, "lora_on_output"), (self.kbit_cast_check, "kbit_fp32_upcast")):
            box.blockSignals(True)
            box.setChecked(bool(preset[key]))
            box.blockSignals(False)
        loss = loss_mode(preset["chunked_loss"], preset["fused_loss"])
        for box, value in ((self.loss_combo, loss), (self.lora_dtype_combo, preset["lora_adapter_bytes"]),
                           (self.optimizer_combo, preset["optimizer"]), (self.attention_combo, preset["attention"])):
            box.blockSignals(True)
            controls.set_data(box, value)
            box.blockSignals(False)
        if engine == "torchtune" and train:
            self.rank_spin.setValue(8)  # the recipes' lora_rank
        if engine == "vllm" and self.arch.max_context:
            self.seq_spin.setValue(self.arch.max_context)  # vllm serve's default max_model_len
        if engine == "ollama":
            gpu = self._current_gpu()
            limit = self.arch.max_context or (1 << 20)
            self.seq_spin.setValue(min(limit, ollama_default_context(gpu.total_gib if gpu else None)))

    def on_engine_changed(self) -> None:
        engine = self.engine_combo.currentData()
        if engine == "unsloth" and self.is_training():
            controls.set_data(self.method_combo, default_method(engine))
        self._apply_engine_defaults()
        if engine != "vllm":
            self.max_seqs_spin.setValue(0)
            self.batched_tokens_spin.setValue(0)
        weights = self.weights_combo.currentData() or ""
        # The model's own format runs in llama.cpp when it is a GGUF, or converts (gpt-oss MXFP4, AWQ/FP8 -> Q4_K_M).
        own_runs = is_gguf_source(self.arch) or bool(self.arch.quant_bits)
        gguf = weights.startswith("q") or weights == "mxfp4" or (not weights and own_runs)
        if engine in LLAMACPP_ENGINES and not gguf:
            controls.set_data(self.weights_combo, "q4_k_m")
        elif engine not in LLAMACPP_ENGINES and weights.startswith("q"):
            controls.set_data(self.weights_combo, None)
        if engine not in LLAMACPP_ENGINES and self.kv_combo.currentData() in ("q8_0", "q4_0"):
            controls.set_data(self.kv_combo, "fp16")
        if engine != "vllm" and self.kv_combo.currentData() == "fp8":
            controls.set_data(self.kv_combo, "fp16")
        self.sync_enabled()
        self.changed.emit()

    def _on_gpus_changed(self, value: int) -> None:
        if value > 1 and self.strategy_combo.currentData() == "single":
            task = "train" if self.is_training() else "inference"
            controls.set_data(self.strategy_combo, default_strategy(value, task, self.engine_combo.currentData()))
        elif value == 1:
            controls.set_data(self.strategy_combo, "single")
        self.changed.emit()
