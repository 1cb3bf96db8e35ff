"""What a fit question asks (FitRequest) and what the estimator answers (Estimate), with the choices each
field takes and the CUDA context every process pays.

Every constant says where it comes from (the project's research notes, model-memory.md, are quoted by section).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from services.i18n import Msg
from services.modelfit.arch import ModelArch

GIB = float(1 << 30)

TASKS = ("inference", "train")
METHODS = ("full", "lora", "qlora")
PRECISIONS = ("fp32", "mixed", "bf16")
# What users run. transformers/peft (TRL, axolotl), unsloth and torchtune are PyTorch training stacks that
# differ in defaults (services.modelfit.engines); ollama runs llama.cpp underneath.
ENGINES = ("transformers", "peft", "unsloth", "torchtune", "vllm", "llamacpp", "ollama", "generic")
TRAIN_ENGINES = ("transformers", "peft", "unsloth", "torchtune", "generic")
LLAMACPP_ENGINES = ("llamacpp", "ollama")
OPTIMIZERS = ("adamw", "adamw8bit", "paged_adamw", "paged_adamw8bit", "adafactor", "sgd")
STRATEGIES = ("single", "ddp", "fsdp", "fsdp_offload", "tp", "layer_split")
LORA_TARGETS = ("qv", "qkvo", "all")
ATTENTION = ("flash", "sdpa", "eager")

# Component codes, in the order a stacked bar shows them (bottom first).
COMPONENTS = ("weights", "lora_adapters", "gradients", "optimizer", "kv_cache", "activations", "logits",
              "engine_buffers", "cuda_graphs", "allocator", "cuda_context")

# CUDA context + kernels for a PyTorch process. HF's model_memory_anatomy measured
# 1343 MiB on a V100 with CUDA 11-era torch; lazy module loading (default since
# CUDA 11.7 / torch 1.13) brings it to ~300-600 MiB (research 0.6). We take 0.5 GiB.
CUDA_CONTEXT_TORCH_GIB = 0.5
# llama.cpp loads no PyTorch: the CUDA context + cuBLAS handle, the low end of that range.
CUDA_CONTEXT_LLAMACPP_GIB = 0.3
LLAMACPP_UBATCH = 512  # llama.cpp default n_ubatch


@dataclass(frozen=True, slots=True)
class FitRequest:
    task: str = "inference"
    method: str = "full"
    weights: str | None = None  # None: the model's own format (bf16 when unknown)
    precision: str | None = None  # full training: fp32 | mixed | bf16 (None: from weights)
    kv_dtype: str = "fp16"
    # The KV dtype was not chosen (vLLM's --kv-cache-dtype auto): a checkpoint's own KV format then wins.
    kv_dtype_auto: bool = False
    engine: str = "transformers"
    seq: int = 4096
    batch: int = 1
    lora_rank: int = 16
    lora_targets: str = "all"
    grad_ckpt: bool = True
    optimizer: str = "adamw"
    gpus: int = 1
    strategy: str = "single"
    attention: str = "flash"
    chunked_loss: bool = False  # torchtune-style chunked CE: bf16 logits kept, fp32 work per chunk
    fused_loss: bool = False  # fused linear + CE (Liger, Apple CCE in unsloth): logits never whole
    optimizer_in_backward: bool = False
    activation_offload: bool = False
    compile: bool = False
    double_quant: bool = True
    lora_on_output: bool = False  # LoRA on the LM head too (torchtune apply_lora_to_output)
    lora_adapter_bytes: int = 4  # PEFT keeps adapters in fp32; torchtune in the model's bf16
    # QLoRA through PEFT/TRL: prepare_model_for_kbit_training casts every parameter that is not 4-bit to fp32
    # (torchtune, fsdp_qlora and unsloth do not; TRL skips it for FSDP-sharded QLoRA).
    kbit_fp32_upcast: bool = True
    vllm_legacy: bool = False
    vllm_max_batched_tokens: int | None = None
    vllm_max_seqs: int | None = None
    gpu_memory_utilization: float = 0.9
    gpu_total_gib: float | None = None  # the target GPU's memory, for engine defaults
    gpu_name: str | None = None  # vLLM keeps small defaults on A100s whatever their memory
    cuda_context_gib: float | None = None
    llamacpp_ubatch: int = LLAMACPP_UBATCH
    gpu_layers: int | None = None  # llama.cpp -ngl / Ollama num_gpu: None = every layer and the output on the GPU
    # llama.cpp expert offload: --n-cpu-moe N (the first N layers' experts in system RAM) and
    # -ot/--override-tensor REGEX=CPU (the regexes; matched with a search against GGUF tensor names).
    cpu_moe_layers: int = 0
    override_tensors: tuple[str, ...] = ()
    # vLLM --cpu-offload-gb (GiB: vLLM multiplies by 1024**3): weights kept in pinned host memory and read
    # over PCIe by every forward pass (vllm/model_executor/models/utils.py maybe_offload_to_cpu).
    cpu_offload_gib: float = 0.0

    def with_changes(self, **changes) -> "FitRequest":
        return replace(self, **changes)

    @property
    def runtime(self) -> str:
        """The code that runs the model: llamacpp (llama.cpp, Ollama), vllm, or torch."""
        if self.engine in LLAMACPP_ENGINES:
            return "llamacpp"
        return "vllm" if self.engine == "vllm" else ("generic" if self.engine == "generic" else "torch")


@dataclass(frozen=True, slots=True)
class Estimate:
    """Bytes per GPU by component (the busiest GPU), plus what lives elsewhere."""

    arch: ModelArch
    request: FitRequest
    parts: Mapping[str, float]  # component code -> bytes on one GPU
    host_bytes: float = 0.0  # offloaded to system RAM (llama.cpp embeddings, CPU offload, paged states)
    engine_reserved_bytes: float = 0.0  # vLLM pre-allocation beyond what is needed
    weight_format: str = "bf16"
    notes: tuple[Msg, ...] = field(default=())
    # Bytes one decoding step reads: "gpu" (weights touched + KV), "host" (weights computed on the CPU),
    # "pcie" (weights read from host memory by the GPU). Empty: the speed model derives it from parts.
    traffic: Mapping[str, float] = field(default_factory=dict)

    @property
    def per_gpu_bytes(self) -> float:
        return sum(self.parts.values())

    @property
    def per_gpu_gib(self) -> float:
        return self.per_gpu_bytes / GIB

    @property
    def total_gib(self) -> float:
        return self.per_gpu_gib * max(1, self.request.gpus)

    def gib(self, component: str) -> float:
        return self.parts.get(component, 0.0) / GIB

    def breakdown_gib(self) -> dict[str, float]:
        return {k: self.parts[k] / GIB for k in COMPONENTS if self.parts.get(k)}


def context_bytes(req: FitRequest) -> float:
    if req.cuda_context_gib is not None:
        return req.cuda_context_gib * GIB
    return (CUDA_CONTEXT_LLAMACPP_GIB if req.runtime == "llamacpp" else CUDA_CONTEXT_TORCH_GIB) * GIB
