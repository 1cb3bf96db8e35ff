"""The memory estimator: what a model needs on each GPU, part by part.

Every constant below says where it comes from (the project's research notes,
model-memory.md, are quoted by section). Nothing is fitted to single
measurements; tests/services/test_modelfit_validation.py checks the whole
method against public measured points.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from collections.abc import Mapping

from services.i18n import Msg, translate
import math
import re
from functools import lru_cache

from services.modelfit.arch import EMBED, EXPERTS, HEAD, LINEAR, OTHER, VISION, ModelArch, TensorGroup
from services.modelfit.dtypes import (
    BNB_4BIT, GGUF_FILE_TYPES, GGUF_FORMATS, INT4_GROUP_BITS, KV_BYTES, MXFP4_BITS, NF4_BITS_DOUBLE_QUANT,
    NF4_BITS_SINGLE, ggml_bits, plain_bits,
)
from services.modelfit.errors import ModelInputError

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

# ---- constants and where they come from
# CUDA context + kernels for a PyTorch process. HF's model_memory_anatomy measured
# 1343 MiB on a V100 with CUDA 11-era torch; lazy module loading (default since
# CUDA 11.7 / torch 1.13) brings it to ~300-600 MiB (research 0.6). We take 0.5 GiB.
CUDA_CONTEXT_TORCH_GIB = 0.5
# llama.cpp loads no PyTorch: the CUDA context + cuBLAS handle, the low end of that range.
CUDA_CONTEXT_LLAMACPP_GIB = 0.3
# PyTorch caching allocator: reserved - allocated is 5-20% (research 0.6); a 10% margin on the training peak.
ALLOCATOR_TRAIN_SHARE = 0.10
# Inference with transformers: fragmentation only from the growing KV cache and prefill transients.
ALLOCATOR_INFER_SHARE = 0.10
# vLLM non-torch memory (cuBLAS, NCCL, custom all-reduce): 0.13-0.55 GiB in V1 logs (research 0.3);
# the low end without tensor parallel, the high end with it.
VLLM_NON_TORCH_GIB = 0.13
VLLM_NON_TORCH_TP_GIB = 0.55
# vLLM V0 counted the CUDA context in non-torch memory (1.79 GiB at TP1) and ~1.8 GiB more per GPU with TP
# (research 0.3 / 0.7, vLLM worker.py profiling logs).
VLLM_V0_NON_TORCH_GIB = 1.79
VLLM_V0_TP_EXTRA_GIB = 1.79
# CUDA graphs: 0.1-2.5 GiB, outside gpu_memory_utilization (research 0.3; vllm#7553). Typical ~0.5 GiB.
VLLM_CUDA_GRAPHS_GIB = 0.5
# vLLM sampler at profiling (gpu_model_runner._dummy_sampler_run: one row per max_num_seqs, top_k = vocab - 1,
# top_p 0.9, so the PyTorch-native apply_top_k_top_p in v1/sample/ops/topk_topp_sampler.py sorts every row). Its
# peak is inside logits.sort, per vocabulary entry and row: the model's 16-bit logits (counted by the caller)
# and their fp32 copy (Sampler.forward: 4 B), the sorted values (4 B) and int64 indices (8 B), the int64
# index sequence the stable sort sorts along (aten/src/ATen/native/cuda/SortStable.cu segmented_sort_pairs,
# reverse_indices: 8 B) and cub's segmented radix sort's alternate key and value buffers (4 + 8 B) = 36 B.
# (vLLM logs 4.76 GiB for Llama-3.1-8B and 7.38 GiB for gpt-oss at 1024 rows: 38.5 B with the 16-bit logits.)
# Where vLLM samples through FlashInfer instead (forward_cuda; VLLM_USE_FLASHINFER_SAMPLER, on by default in
# 2026 releases when FlashInfer builds) there is no sort and this peak is lower: the figure here is the
# PyTorch-native path, the larger of the two.
VLLM_SAMPLER_BYTES_PER_VOCAB = 4 + 4 + 8 + 8 + 4 + 8
# vLLM defaults (vllm/engine/arg_utils.py get_batch_defaults, `vllm serve`): GPUs with >= 70 GiB (not A100):
# 8192 batched tokens / 1024 sequences; others 2048 / 256. V0 without chunked prefill: max_model_len, 256 seqs.
VLLM_BIG_GPU_GIB = 70.0
# llama.cpp compute buffer: max(K*Q scores n_ctx*n_ub*n_head*4 B (no flash attention), logits n_vocab*n_ub*4 B)
# plus 5-15% for the rest of the graph (research 0.3, checked against CUDA logs). We add 10%.
LLAMACPP_GRAPH_EXTRA = 0.10
LLAMACPP_UBATCH = 512  # llama.cpp default n_ubatch
LLAMACPP_CTX_PAD = 256  # KV cells are padded to 256 with flash attention (research 0.2)
# Training activations, bytes per token per layer in 16-bit (research 0.5):
#   gated (SwiGLU/RMSNorm, no dropout, flash attention): 16h + 4h*kv/a + 8I  (checked: Llama-3.2-3B, T18/T19)
#   GeLU + dropout (Korthikanti et al. 2022, Eq. 1 with I general): attention 11h, MLP 3h + 4I, norms 4h
#   eager attention adds 5*a*s per token per layer (scores, softmax, dropout mask).
KORTHIKANTI_EAGER = 5
# Under AMP (fp32 master weights, autocast) norms/softmax run in fp32: norm inputs +4h, eager 7*a*s
# (fp32 softmax output 4 B + dropout mask 1 B + fp16 copy for the next matmul 2 B).
AMP_EAGER = 7
# Tensor parallel leaves 10*h per token per layer replicated (Korthikanti: sbh(10 + 24/t + 5as/(ht))).
TP_REPLICATED_H = 10
# torch.compile cuts activation memory by roughly 25% (torchtune T19 -> T20, research 0.5).
COMPILE_ACTIVATION_FACTOR = 0.75
# Logits and loss, plain cross-entropy on fp32-upcast logits (research 0.3/0.5: "b*s*V fp32 plus the bf16
# copy"). The peak is in log-softmax backward, where three fp32 b*s*V tensors are alive at once: the saved
# log-probs, their gradient (from nll_loss) and the logits' gradient; the forward of transformers < 4.46
# holds as many (fp32 logits, the shifted .contiguous() copy, the log-probs). So 3 x 4 B, whatever the
# logits' own dtype (the research's 2 + 4 + 4 counts the forward of newer versions only).
LOSS_FP32_COPIES = 3
# Chunked CE (torchtune: 8 chunks) keeps the bf16 logits and one chunk's fp32 work: 2 + 8/8.
LOSS_CHUNKS = 8
# LoRA adapters: PEFT keeps them in fp32 (autocast_adapter_dtype=True), torchtune in bf16 (FitRequest field).
# FSDP keeps ~2 decoder layers gathered (current + prefetch; research 0.7).
FSDP_GATHERED_LAYERS = 2
# Linear-attention state (Qwen3-Next Gated DeltaNet): transformers' torch_chunk_gated_delta_rule returns the
# recurrent state in float32 (modeling_qwen3_next.py), so 4 B per element of the fixed per-sequence state.
LINEAR_STATE_BYTES = 4
# llama.cpp --n-cpu-moe N writes, for each of the first N layers, the override "blk\.{i}\.ffn_(up|down|gate)_(ch|)exps"
# = CPU (common/arg.cpp, llm_ffn_exps_block_regex; LLM_FFN_EXPS_REGEX in common/common.h).
N_CPU_MOE_PATTERN = r"blk\.{layer}\.ffn_(up|down|gate)_(ch|)exps"


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


# ------------------------------------------------------------------ checks
def _err(msg: Msg, choices: tuple[str, ...] = ()) -> ModelInputError:
    return ModelInputError(msg, choices)


def validate(arch: ModelArch, req: FitRequest) -> None:
    """Raise ModelInputError for values or combinations that make no sense."""
    choices = {"task": TASKS, "method": METHODS, "engine": ENGINES, "optimizer": OPTIMIZERS,
               "strategy": STRATEGIES, "lora_targets": LORA_TARGETS, "attention": ATTENTION, "kv_dtype": tuple(KV_BYTES)}
    for name, allowed in choices.items():
        value = getattr(req, name)
        if value not in allowed:
            raise _err(translate("FitErrors", "Unknown {field} '{value}'").format(field=name, value=value), allowed)
    if req.precision is not None and req.precision not in PRECISIONS:
        raise _err(translate("FitErrors", "Unknown {field} '{value}'").format(field="precision", value=req.precision), PRECISIONS)
    if req.weights is not None and plain_bits(req.weights) is None and req.weights not in BNB_4BIT + GGUF_FORMATS + ("int4", "mxfp4"):
        from services.modelfit.dtypes import WEIGHT_FORMATS
        raise _err(translate("FitErrors", "Unknown {field} '{value}'").format(field="weights", value=req.weights), WEIGHT_FORMATS)
    for name, value, top in (("seq", req.seq, 16 * 1024 * 1024), ("batch", req.batch, 65536),
                             ("lora_rank", req.lora_rank, 65536), ("gpus", req.gpus, 1024)):
        if not isinstance(value, int) or value < 1 or value > top:
            raise _err(translate("FitErrors", "{field} must be between 1 and {top}, got {value}").format(
                field=name, top=top, value=value))
    if not (isinstance(req.gpu_memory_utilization, (int, float)) and 0.05 <= req.gpu_memory_utilization <= 1.0):
        raise _err(translate("FitErrors", "{field} must be between 1 and {top}, got {value}").format(
            field="gpu_memory_utilization", top=1, value=req.gpu_memory_utilization))
    fmt = weight_format(arch, req)
    gguf = fmt in GGUF_FORMATS or fmt == "gguf"
    if fmt == "mxfp4" and not arch.experts and not arch.quant_bits:
        # MXFP4 checkpoints and llama.cpp's MXFP4_MOE file type quantise the routed experts only.
        raise _err(translate("FitErrors", "MXFP4 weights are for Mixture-of-Experts models (their experts); pick another format"), ("q4_k_m", "int4", "nf4"))
    if req.cpu_moe_layers and not arch.experts:
        raise _err(translate("FitErrors", "--n-cpu-moe moves experts: {model} has none (use --gpu-layers)").format(model=arch.model_id), ("gpu_layers",))
    if (req.cpu_moe_layers or req.override_tensors) and req.runtime != "llamacpp":
        raise _err(translate("FitErrors", "--n-cpu-moe and --override-tensor are llama.cpp options: use --engine llamacpp"), ("llamacpp",))
    if req.cpu_offload_gib and req.runtime != "vllm":
        raise _err(translate("FitErrors", "--cpu-offload-gb is a vLLM option: use --engine vllm"), ("vllm",))
    if req.task == "train":
        if gguf:
            raise _err(translate("FitErrors", "GGUF weights cannot be trained: pick bf16, nf4 or int8 weights"), ("bf16", "nf4", "int8"))
        if req.method == "full" and fmt in BNB_4BIT + ("int8", "fp8", "int4"):
            raise _err(translate("FitErrors", "Full fine-tuning needs 16- or 32-bit weights; use QLoRA for 4-bit"), ("lora", "qlora"))
        if req.method == "qlora" and fmt not in BNB_4BIT:
            raise _err(translate("FitErrors", "QLoRA uses 4-bit base weights (nf4 or fp4)"), BNB_4BIT)
        if req.engine not in TRAIN_ENGINES:
            raise _err(translate("FitErrors", "Training runs on transformers/PyTorch, not {engine}").format(
                engine=req.engine), TRAIN_ENGINES[:4])
    else:
        if req.strategy in ("fsdp", "fsdp_offload"):
            raise _err(translate("FitErrors", "{strategy} is a training strategy; for inference use tp or layer_split").format(
                strategy=req.strategy), ("tp", "layer_split"))
        if req.runtime == "llamacpp" and not (gguf or fmt in ("fp32", "fp16", "bf16", "mxfp4")):
            raise _err(translate("FitErrors", "llama.cpp runs GGUF weights, not {weights}").format(weights=fmt), GGUF_FORMATS)
        if req.runtime in ("torch", "vllm") and gguf:
            raise _err(translate("FitErrors", "{weights} is a llama.cpp format: use --engine llamacpp").format(weights=fmt), ("llamacpp",))
        if req.kv_dtype in ("q8_0", "q4_0") and req.runtime == "llamacpp" and req.attention == "eager":
            raise _err(translate("FitErrors", "A quantised KV cache needs flash attention (llama.cpp -fa on, Ollama OLLAMA_FLASH_ATTENTION=1)"), ("flash",))
        if req.kv_dtype in ("q8_0", "q4_0") and req.runtime not in ("llamacpp", "generic"):
            raise _err(translate("FitErrors", "A {kv} KV cache is a llama.cpp option").format(kv=req.kv_dtype), ("fp16", "fp8"))
        if req.kv_dtype == "fp8" and req.runtime not in ("vllm", "generic"):
            raise _err(translate("FitErrors", "An FP8 KV cache is a vLLM option").format(), ("fp16", "q8_0", "q4_0"))
    if req.gpu_layers is not None and not (isinstance(req.gpu_layers, int) and 0 <= req.gpu_layers <= arch.layers + 1):
        raise _err(translate("FitErrors", "{field} must be between {low} and {top}, got {value}").format(
            field="gpu_layers", low=0, top=arch.layers + 1, value=req.gpu_layers))
    for name in ("cuda_context_gib", "gpu_total_gib"):
        value = getattr(req, name)
        if value is not None and not (isinstance(value, (int, float)) and 0 <= value < 1e6):
            raise _err(translate("FitErrors", "{field} must be between {low} and {top}, got {value}").format(
                field=name, low=0, top=1000000, value=value))
    if req.strategy == "single" and req.gpus > 1:
        raise _err(translate("FitErrors", "With {gpus} GPUs pick a strategy"), STRATEGIES[1:])
    if req.strategy == "tp" and req.gpus > 1 and req.gpus not in tp_sizes(arch, req.gpus):
        valid = [n for n in tp_sizes(arch, 1024) if n > 1][:8]
        raise _err(translate("FitErrors", "Tensor parallel cannot split {heads} attention heads and {kv} KV heads over {gpus} GPUs; valid GPU counts: {valid}").format(
            heads=arch.heads, kv=arch.kv_heads, gpus=req.gpus, valid=", ".join(str(n) for n in valid) or "1"),
            tuple(str(n) for n in valid) or ("1",))


def tp_sizes(arch: ModelArch, top: int) -> tuple[int, ...]:
    """GPU counts tensor parallel can use: each GPU takes a whole number of attention heads, and of
    KV heads, or one KV head replicated (vLLM ModelConfig.verify_with_parallel_config and
    QKVParallelLinear: heads % tp == 0; kv % tp == 0 when tp <= kv, else tp % kv == 0)."""
    kv = max(1, arch.kv_heads)
    return tuple(t for t in range(1, min(top, arch.heads) + 1)
                 if arch.heads % t == 0 and (kv % t == 0 if t <= kv else t % kv == 0))


def is_gguf_source(arch: ModelArch) -> bool:
    """A model read from a GGUF file (its weights are llama.cpp block formats)."""
    return bool(arch.source.startswith("GGUF")) or arch.native_format in GGUF_FORMATS


def weight_format(arch: ModelArch, req: FitRequest) -> str:
    if req.weights:
        return req.weights
    if req.task == "train" and req.method == "qlora":
        return "nf4"
    native = arch.native_format
    if native in (None, "gguf") and not arch.groups:
        return "bf16"
    if req.runtime == "llamacpp" and arch.quant_bits:
        # llama.cpp does not load AWQ/GPTQ/FP8 safetensors: people run the GGUF conversion. gpt-oss's
        # MXFP4 experts convert as they are (convert_hf_to_gguf.py keeps them MXFP4); others as Q4_K_M.
        return "mxfp4" if native == "mxfp4" else "q4_k_m"
    return native or "bf16"


# ------------------------------------------------------------------ weights
def _group_bits(arch: ModelArch, g: TensorGroup, fmt: str, double_quant: bool, runtime: str) -> float:
    """Bits per weight of one group stored as ``fmt`` (the checkpoint's own quantisation when it is native)."""
    if arch.quant_bits and fmt == arch.native_format and not (runtime == "llamacpp" and fmt == "mxfp4"):
        bits = arch.quant_bits_for(g)
        if bits is not None:
            return bits
        return 16.0  # what a quantised checkpoint leaves unquantised is kept in its 16-bit dtype
    if fmt == "mxfp4":
        if g.part == EXPERTS:
            return MXFP4_BITS
        if runtime == "llamacpp":
            # llama.cpp's MXFP4_MOE file type: experts MXFP4, other matrices Q8_0, norms F32 (ggml-org's
            # gpt-oss-20b GGUF is 12.1 GB: 19.1 B expert weights x 4.25 bits + 1.8 B x 8.5 bits).
            return 32.0 if g.kind == OTHER else ggml_bits("q8_0") or 8.5
        return 16.0
    return _bits(g.kind, fmt, double_quant)


def _bits(kind: str, fmt: str, double_quant: bool) -> float:
    plain = plain_bits(fmt)
    if fmt in ("fp8", "int8"):
        # FP8 checkpoints and LLM.int8 quantise nn.Linear only; embeddings/lm_head stay 16-bit
        # (measured Llama-3.3-70B-FP8 weights 67.72 GiB = linear@1 B + embed/head@2 B, research 0.1).
        return 8.0 if kind == LINEAR else 16.0
    if fmt == "int4":
        return INT4_GROUP_BITS if kind == LINEAR else 16.0
    if fmt in BNB_4BIT:
        # bitsandbytes quantises nn.Linear only; transformers leaves lm_head unquantised (research 0.1).
        if kind != LINEAR:
            return 16.0
        return NF4_BITS_DOUBLE_QUANT if double_quant else NF4_BITS_SINGLE
    if fmt in GGUF_FILE_TYPES:
        ftype = GGUF_FILE_TYPES[fmt]
        if kind == OTHER:
            return 32.0  # llama.cpp keeps norms and biases in F32
        embed_bits = plain_bits(ftype.embed_type) if kind == EMBED else None
        return embed_bits if embed_bits is not None else ftype.effective_bits
    if plain is not None:
        return plain
    return 16.0


@lru_cache(maxsize=256)
def weight_bytes_by_group(arch: ModelArch, fmt: str, double_quant: bool = True,
                          runtime: str = "torch") -> tuple[tuple[TensorGroup, float], ...]:
    """Each weight group with its bytes, exact when read from a file in its own format (cached: the
    solvers ask for the same model many times)."""
    native = fmt == arch.native_format or fmt == "gguf"
    out = []
    for g in arch.weight_groups():
        if g.part == VISION and runtime == "llamacpp":
            # llama.cpp converts the text model; the vision tower goes to a separate --mmproj file
            # (convert_hf_to_gguf.py --mmproj), loaded only when images are used.
            out.append((g, 0.0))
        elif g.nbytes is not None and native:
            out.append((g, float(g.nbytes)))
        else:
            # Norms and biases ("other") are never quantised: the bits stay at 16/32.
            out.append((g, g.numel * _group_bits(arch, g, fmt, double_quant, runtime) / 8))
    return tuple(out)


def weight_bytes_by_kind(arch: ModelArch, fmt: str, double_quant: bool = True, runtime: str = "torch") -> dict[str, float]:
    """Bytes of the weights per group kind."""
    out = {LINEAR: 0.0, EMBED: 0.0, HEAD: 0.0, OTHER: 0.0}
    for g, nbytes in weight_bytes_by_group(arch, fmt, double_quant, runtime):
        out[g.kind] += nbytes
    return out


def weight_bytes_by_part(arch: ModelArch, fmt: str, double_quant: bool = True, runtime: str = "torch") -> dict[str, float]:
    """Bytes of the linear weights per part (attn / mlp / shared / experts; "" when a file did not say)."""
    out: dict[str, float] = {}
    for g, nbytes in weight_bytes_by_group(arch, fmt, double_quant, runtime):
        if g.kind == LINEAR:
            out[g.part] = out.get(g.part, 0.0) + nbytes
    return out


# ------------------------------------------------------------------ KV cache
def kv_cache_bytes(arch: ModelArch, tokens: int, batch: int, kv_dtype: str, *, tp: int = 1,
                   honour_window: bool = True, latent: bool = True) -> float:
    """2 (K and V) x layers x kv heads x head_dim x tokens x batch x bytes (research 0.2).
    Sliding-window layers hold only the window; with tensor parallel each GPU holds
    max(1, kv // tp) heads (vLLM get_num_kv_heads: replicated when kv < tp).

    MLA (DeepSeek-V2/V3): vLLM and llama.cpp cache the compressed latent, kv_lora_rank + qk_rope_head_dim
    values per token and layer, the same on every tensor-parallel GPU (vLLM MLAAttention's head_size =
    kv_lora_rank + qk_rope_head_dim with one KV head; llama.cpp deepseek2 n_embd_head_k_mla). transformers'
    DeepseekV3Attention caches the decompressed K (heads x (nope + rope)) and V (heads x v_head_dim)
    (``latent=False``). Linear-attention layers (Qwen3-Next) keep no KV, only a fixed state per sequence."""
    if not arch.has_kv_cache:
        return 0.0
    attn_layers = arch.layers - arch.linear_attn_layers
    elem = KV_BYTES[kv_dtype]
    if arch.is_mla and latent:
        per_token_layer = (arch.kv_lora_rank + arch.rope_head_dim) * elem
    elif arch.is_mla:
        per_token_layer = (arch.heads // max(1, tp)) * (arch.nope_head_dim + arch.rope_head_dim + arch.v_head_dim) * elem
    else:
        kv_heads = max(1, arch.kv_heads // tp) if tp > 1 else arch.kv_heads
        per_token_layer = 2 * kv_heads * arch.head_dim * elem
    state = arch.linear_attn_layers * arch.linear_state_elems * LINEAR_STATE_BYTES * batch
    if honour_window and arch.sliding_window and arch.sliding_layers:
        full_layers = max(0, attn_layers - arch.sliding_layers)
        swa_tokens = min(tokens, arch.sliding_window)
        return per_token_layer * batch * (full_layers * tokens + arch.sliding_layers * swa_tokens) + state
    return per_token_layer * batch * attn_layers * tokens + state


# ------------------------------------------------------------------ llama.cpp tensor placement
def layer_tensor_names(arch: ModelArch, index: int) -> list[tuple[str, str]]:
    """GGUF tensor names of layer ``index`` (llama-arch.cpp LLM_TENSOR_NAMES) with their part, for -ot
    regexes to match: attention, dense FFN, shared experts (ffn_*_shexp), routed experts (ffn_*_exps)."""
    blk = f"blk.{index}."
    names = [(blk + t + ".weight", "attn") for t in (
        ("attn_q_a", "attn_q_b", "attn_kv_a_mqa", "attn_kv_b", "attn_output") if arch.is_mla else
        ("attn_q", "attn_k", "attn_v", "attn_output"))]
    ffn = ("gate", "up", "down") if arch.mlp == "gated" else ("up", "down")
    if arch.is_moe_layer(index):
        names += [(f"{blk}ffn_{t}_exps.weight", EXPERTS) for t in ffn]
        if arch.shared_intermediate:
            names += [(f"{blk}ffn_{t}_shexp.weight", "shared") for t in ffn]
        names.append((blk + "ffn_gate_inp.weight", OTHER))
    else:
        names += [(f"{blk}ffn_{t}.weight", "mlp") for t in ffn]
    names.append((blk + "attn_norm.weight", OTHER))
    return names


def cpu_override_patterns(arch: ModelArch, req: FitRequest) -> list[re.Pattern[str]]:
    """The buffer overrides that say CPU: --n-cpu-moe N's per-layer patterns and each -ot regex."""
    raw = [N_CPU_MOE_PATTERN.format(layer=i) for i in range(min(req.cpu_moe_layers, arch.layers))]
    raw += list(req.override_tensors)
    out = []
    for text in raw:
        try:
            out.append(re.compile(text))
        except re.error:
            raise _err(translate("FitErrors", "--override-tensor '{regex}' is not a valid regular expression").format(regex=text)) from None
    return out


@lru_cache(maxsize=64)
def _layer_profile(arch: ModelArch, fmt: str, double_quant: bool) -> tuple[tuple[tuple[str, str, float, float], ...], ...]:
    """Per layer: (name, part, bytes, share read per token) summed by part, as place_layer_tensors spreads them."""
    full = place_layer_tensors(arch, fmt, FitRequest(engine="llamacpp", double_quant=double_quant, override_tensors=(".^",)))
    layers: list[dict[str, list[float]]] = [{} for _ in range(max(1, arch.layers))]
    for name, part, nbytes, share, _gpu in full:
        index = int(name.split(".")[1])
        slot = layers[index].setdefault(part, [0.0, share])
        slot[0] += nbytes
    return tuple(tuple((f"blk.{i}.{part}", part, nbytes, share) for part, (nbytes, share) in layer.items())
                 for i, layer in enumerate(layers))


def place_layer_tensors(arch: ModelArch, fmt: str, req: FitRequest) -> list[tuple[str, str, float, float, bool]]:
    """Each layer tensor as (name, part, bytes, share read per token, on the GPU). A part's bytes are spread
    evenly over the layers that hold it and over its tensors; a tensor is on the GPU when its layer is
    among the last -ngl ones and no CPU override matches its name (llama.cpp matches with regex_search)."""
    layers = max(1, arch.layers)
    ngl = layers + 1 if req.gpu_layers is None else req.gpu_layers
    first_gpu = layers - min(ngl, layers)
    patterns = cpu_override_patterns(arch, req)
    if not patterns:
        # No override to match: one entry per layer and part (cached; the solvers ask for many of these).
        return [(name, part, nbytes, share, index >= first_gpu)
                for index, layer in enumerate(_layer_profile(arch, fmt, req.double_quant))
                for name, part, nbytes, share in layer]
    by_part = weight_bytes_by_part(arch, fmt, req.double_quant, "llamacpp")
    other = weight_bytes_by_kind(arch, fmt, req.double_quant, "llamacpp")[OTHER]
    unknown = by_part.pop("", 0.0)  # a file that did not say: count it as the layers' dense part
    by_part["mlp"] = by_part.get("mlp", 0.0) + unknown
    names = [layer_tensor_names(arch, i) for i in range(layers)]
    holders: dict[str, int] = {}
    for layer in names:
        for _, part in layer:
            holders[part] = holders.get(part, 0) + 1
    if "mlp" not in holders and by_part.get("mlp"):
        by_part["attn"] = by_part.get("attn", 0.0) + by_part.pop("mlp")
    totals = {**by_part, OTHER: other}
    expert_share = arch.experts_per_token / arch.experts if arch.experts and arch.experts_per_token else 1.0
    placed = []
    for index, layer in enumerate(names):
        for name, part in layer:
            nbytes = totals.get(part, 0.0) / holders[part]
            gpu = index >= first_gpu and not any(p.search(name) for p in patterns)
            placed.append((name, part, nbytes, expert_share if part == EXPERTS else 1.0, gpu))
    return placed


# ------------------------------------------------------------------ estimate
def estimate(arch: ModelArch, req: FitRequest) -> Estimate:
    validate(arch, req)
    if req.task == "train":
        return _train(arch, req)
    return _inference(arch, req)


def _context_bytes(req: FitRequest) -> float:
    if req.cuda_context_gib is not None:
        return req.cuda_context_gib * GIB
    return (CUDA_CONTEXT_LLAMACPP_GIB if req.runtime == "llamacpp" else CUDA_CONTEXT_TORCH_GIB) * GIB


def _act_bytes(fmt: str) -> int:
    return 4 if fmt == "fp32" else 2


def _inference(arch: ModelArch, req: FitRequest) -> Estimate:
    fmt = weight_format(arch, req)
    by_kind = weight_bytes_by_kind(arch, fmt, req.double_quant, req.runtime)
    weights = sum(by_kind.values())
    notes: list[Msg] = []
    parts: dict[str, float] = {}
    host = 0.0
    reserved = 0.0
    traffic: dict[str, float] = {}
    n = req.gpus if req.strategy in ("tp", "layer_split") else 1
    tp = req.gpus if req.strategy == "tp" else 1
    b_act = _act_bytes(fmt)
    # The widest MLP a token goes through: a dense layer's, or the routed experts plus the shared ones.
    h = arch.hidden
    ffn = max(arch.dense_intermediate or arch.intermediate if arch.dense_layers or not arch.experts else 0,
              arch.ffn_width * max(1, arch.experts_per_token or 1) + arch.shared_intermediate)
    kv_dtype = req.kv_dtype
    if req.kv_dtype_auto and arch.kv_cache_format and req.runtime == "vllm":
        kv_dtype = arch.kv_cache_format  # vLLM resolve_kv_cache_dtype_string: "auto" follows the checkpoint
    if fmt == "fp32" and kv_dtype in ("fp16", "bf16") and req.runtime == "torch":
        kv_dtype = "fp32"  # the cache takes the model's dtype in transformers
    honour = req.runtime != "generic"
    if arch.sliding_window and arch.sliding_layers and honour and req.seq > arch.sliding_window:
        notes.append(translate("FitNotes", "{layers} of {total} layers use a {window}-token sliding window: their KV cache stops growing there").format(
            layers=arch.sliding_layers, total=arch.layers, window=arch.sliding_window))

    if req.runtime == "llamacpp":
        # Weights: with full offload the token-embedding table stays in host memory (research 1.8).
        # -ngl N puts the last N repeating layers (weights and their KV cells) on the GPU and the
        # output layer too when N > n_layer (llama.cpp llama-model.cpp: i_gpu_start = n_layer - ngl;
        # the output goes to the GPU when ngl > n_layer). The rest stays in system RAM, and so do the
        # tensors an override (-ot REGEX=CPU, --n-cpu-moe N) sends there.
        layers = max(1, arch.layers)
        ngl = layers + 1 if req.gpu_layers is None else req.gpu_layers
        on_gpu = min(ngl, layers) / layers
        head_gpu = by_kind[HEAD] if ngl > layers else 0.0
        placed = place_layer_tensors(arch, fmt, req)
        gpu_w = sum(b for _, _, b, _, gpu in placed if gpu)
        host_w = sum(b for _, _, b, _, gpu in placed if not gpu)
        host += by_kind[EMBED] + host_w + (by_kind[HEAD] - head_gpu)
        parts["weights"] = (gpu_w + head_gpu) / n
        n_ctx = -(-req.seq // LLAMACPP_CTX_PAD) * LLAMACPP_CTX_PAD
        kv_all = kv_cache_bytes(arch, n_ctx, req.batch, kv_dtype, honour_window=True)
        parts["kv_cache"] = kv_all * on_gpu / n
        host += kv_all * (1 - on_gpu)
        n_ub = min(req.llamacpp_ubatch, n_ctx * req.batch)
        logits = arch.vocab * n_ub * 4
        ffn_buf = n_ub * (3 * max(arch.intermediate, arch.ffn_width * max(1, arch.experts_per_token)) + 4 * h) * 4
        kq = 0 if req.attention in ("flash", "sdpa") else n_ctx * n_ub * arch.heads * 4
        # The compute buffer is allocated in full on every GPU (llama.cpp#27953).
        parts["engine_buffers"] = max(kq, logits, ffn_buf) * (1 + LLAMACPP_GRAPH_EXTRA)
        notes.append(translate("FitNotes", "llama.cpp keeps the token-embedding table ({gib:.2f} GiB) in system RAM").format(
            gib=by_kind[EMBED] / GIB))
        moved = sum(b for _, part, b, _, gpu in placed if not gpu and part == EXPERTS)
        if moved and (req.cpu_moe_layers or req.override_tensors):
            notes.append(translate("FitNotes", "{gib:.1f} GiB of expert weights stay in system RAM and run on the CPU; every layer's attention stays on the GPU").format(
                gib=moved / GIB))
        # One generated token reads what it touches: all of attention, dense and shared MLPs, and the
        # experts_per_token routed experts of each MoE layer (the output layer too; the embedding is a lookup).
        traffic = {"gpu": sum(b * act for _, _, b, act, gpu in placed if gpu) + head_gpu + parts["kv_cache"] * n / 2,
                   "host": sum(b * act for _, _, b, act, gpu in placed if not gpu) + (by_kind[HEAD] - head_gpu) + kv_all * (1 - on_gpu) / 2}
    elif req.runtime == "vllm":
        parts["weights"] = weights / tp if req.strategy == "tp" else weights / n
        if req.cpu_offload_gib:
            # --cpu-offload-gb is per GPU; the GPU reads those weights over PCIe in every forward pass
            # (UVA views of pinned host memory, vllm/model_executor/models/utils.py maybe_offload_to_cpu).
            moved = min(req.cpu_offload_gib * GIB, parts["weights"])
            parts["weights"] -= moved
            host += moved * n
            share = arch.active_params() / max(arch.total_params, 1)
            traffic = {"gpu": parts["weights"] * share, "pcie": moved * share}
            notes.append(translate("FitNotes", "--cpu-offload-gb keeps {gib:.1f} GiB of weights in system RAM; the GPU reads them over PCIe for every token").format(
                gib=moved / GIB))
        parts["kv_cache"] = kv_cache_bytes(arch, req.seq, req.batch, kv_dtype, tp=tp, honour_window=True) / (
            n if req.strategy == "layer_split" else 1)
        big = (req.gpu_total_gib or 0) >= VLLM_BIG_GPU_GIB and "a100" not in (req.gpu_name or "").lower()
        if req.vllm_legacy:
            tokens = req.vllm_max_batched_tokens or max(req.seq, 2048)
            seqs = req.vllm_max_seqs or 256
        else:
            tokens = req.vllm_max_batched_tokens or (8192 if big else 2048)
            seqs = req.vllm_max_seqs or (1024 if big else 256)
        # Profiling run: one forward of `tokens` (peak in the MLP: residual + normed input + fused
        # gate/up output + SiluAndMul output = 2h + 3I per token), then the sampler on `seqs` rows.
        ffn_gpu = ffn / tp
        forward = tokens * (2 * h + 3 * ffn_gpu) * b_act
        if arch.experts and arch.experts_per_token:
            # Fused MoE (vllm/model_executor/layers/fused_moe/fused_moe.py fused_experts_impl): per token and
            # routed expert, intermediate_cache1 (2N: gate and up), cache2 (N) and cache3 (K = hidden), N the
            # expert width per GPU; the token chunk is VLLM_FUSED_MOE_CHUNK_SIZE (32768) at most.
            chunk = min(tokens, 32768)
            moe = chunk * arch.experts_per_token * (3 * arch.ffn_width / tp + h) * b_act + tokens * 2 * h * b_act
            forward = max(forward, moe)
        sampler = seqs * arch.vocab * (b_act + VLLM_SAMPLER_BYTES_PER_VOCAB) + tokens * h * b_act
        parts["activations"] = max(forward, sampler)
        if req.vllm_legacy:
            non_torch = VLLM_V0_NON_TORCH_GIB + (VLLM_V0_TP_EXTRA_GIB if tp > 1 else 0.0)
        else:
            non_torch = VLLM_NON_TORCH_TP_GIB if tp > 1 else VLLM_NON_TORCH_GIB
        parts["engine_buffers"] = non_torch * GIB
        parts["cuda_graphs"] = VLLM_CUDA_GRAPHS_GIB * GIB
        if req.gpu_total_gib:
            budget = req.gpu_memory_utilization * req.gpu_total_gib * GIB
            needed = sum(v for k, v in parts.items() if k != "cuda_graphs")
            reserved = max(0.0, budget - needed)
            notes.append(translate("FitNotes", "vLLM takes {util:.0%} of the GPU at start ({gib:.1f} GiB) and fills the rest with KV cache: that is expected, not a leak").format(
                util=req.gpu_memory_utilization, gib=budget / GIB))
    else:  # transformers / generic
        parts["weights"] = weights / n
        parts["kv_cache"] = kv_cache_bytes(arch, req.seq, req.batch, kv_dtype, tp=tp, honour_window=honour, latent=False) / (
            n if req.strategy == "layer_split" else 1)
        tokens = req.seq * req.batch
        # Prefill in one pass, no autograd: the peak sits in one MLP (residual, normed input, gate,
        # up, activation output, product: 2h + 4I per token) or, with eager attention, the score
        # matrix of one layer (scores 2 B + fp32 softmax 4 B + cast 2 B per element).
        mlp_peak = tokens * (2 * h + 4 * ffn / tp) * b_act
        scores = 0.0
        if req.attention == "eager":
            scores = req.batch * (arch.heads / tp) * req.seq * req.seq * 8
        parts["activations"] = max(mlp_peak, scores) if arch.family == "decoder" else mlp_peak + scores
        # generate() computes logits for the last position only (transformers >= 4.45,
        # logits_to_keep); fp32 upcast plus the 16-bit copy.
        parts["logits"] = req.batch * arch.vocab * 6 if arch.family == "decoder" else 0.0
        dynamic = parts["kv_cache"] + parts["activations"] + parts["logits"]
        parts["allocator"] = dynamic * ALLOCATOR_INFER_SHARE
    parts["cuda_context"] = _context_bytes(req)
    return Estimate(arch, req, {k: v for k, v in parts.items() if v}, host, reserved, fmt, tuple(notes), traffic)


# ------------------------------------------------------------------ training
def lora_params(arch: ModelArch, rank: int, targets: str, on_output: bool = False) -> int:
    """r x (d_in + d_out) for each targeted projection in every layer (research 0.4)."""
    names = {"qv": ("q", "v"), "qkvo": ("q", "k", "v", "o"), "all": ("q", "k", "v", "o", "gate", "up", "down")}[targets]
    per_layer = sum(rank * (i + o) * c for name, (i, o, c) in arch.linear_shapes().items() if name in names)
    head = rank * (arch.hidden + arch.vocab) if on_output and arch.family == "decoder" else 0
    return arch.layers * per_layer + head


def _precision(req: FitRequest, fmt: str) -> str:
    if req.precision:
        return req.precision
    return {"fp32": "fp32", "fp16": "mixed"}.get(fmt, "bf16")


def _optimizer_bytes_per_param(optimizer: str, state_bytes: int) -> float:
    """Optimizer state per trainable parameter (research 0.4). Paged variants are
    counted in host memory by the caller."""
    return {"adamw": 2 * state_bytes, "paged_adamw": 2 * state_bytes, "adamw8bit": 2, "paged_adamw8bit": 2,
            "adafactor": 0.0, "sgd": 0.0}[optimizer]


def _adafactor_bytes(arch: ModelArch, trainable_matrices: list[tuple[int, int, int]]) -> float:
    # Factored second moment: one fp32 row and one column vector per matrix (research 0.4).
    return sum(4 * (i + o) * c for i, o, c in trainable_matrices)


def activation_bytes_per_token_layer(arch: ModelArch, req: FitRequest, precision: str, seq: int) -> float:
    h, a = arch.hidden, arch.heads
    ffn = arch.ffn_width * max(1, arch.experts_per_token or 1)
    tp = req.gpus if req.strategy == "tp" else 1
    if arch.mlp == "gated":
        per = 16 * h + 4 * h * arch.kv_heads / a + 8 * ffn
    else:
        per = 11 * h + (3 * h + 4 * ffn) + 4 * h
    eager = 0.0
    if req.attention == "eager":
        eager = (AMP_EAGER if precision == "mixed" else KORTHIKANTI_EAGER) * a * seq
    if precision == "mixed":
        per += 4 * h
    if tp > 1:
        per = TP_REPLICATED_H * h + (per - TP_REPLICATED_H * h) / tp
        eager /= tp
    total = per + eager
    if precision == "fp32":
        total *= 2
    if req.compile:
        total *= COMPILE_ACTIVATION_FACTOR
    return total


# unsloth's fused loss for the models its compiler patches (unsloth_zoo/fused_losses/cross_entropy_loss.py
# _get_chunk_multiplier): one chunk's fp32 logits may use half the free memory, at most 4 GiB.
UNSLOTH_LOSS_TARGET_CAP_GIB = 4.0
UNSLOTH_LOSS_FREE_SHARE = 0.5


def _unsloth_chunked_loss_bytes(arch: ModelArch, req: FitRequest, tokens: int, other_bytes: float) -> float:
    """A multimodal checkpoint (…ForConditionalGeneration: Gemma 3, Llama 4, Qwen2.5-VL) computes its loss by hand,
    so unsloth's compiler rewrites it with cross_entropy_replacement_3 (unsloth_zoo compiler.py), which has no
    Cut Cross-Entropy branch: unsloth_fused_ce_loss splits the tokens into n chunks, n = 1 when the whole fp32
    logits fit the target, else a multiple of 4 (get_chunk_size), and per chunk materialises the 16-bit logits,
    their fp32 upcast and the fp32 log-probabilities (compute_fused_ce_loss), plus a 16-bit gradient of the hidden
    states for all tokens (grad_inputs). The free memory is the card's minus everything else (unknown card: the cap)."""
    full_fp32 = tokens * arch.vocab * 4.0
    target = UNSLOTH_LOSS_TARGET_CAP_GIB * GIB
    if req.gpu_total_gib:
        free = req.gpu_total_gib * GIB - other_bytes - _context_bytes(req)
        target = max(1.0, min(target, free * UNSLOTH_LOSS_FREE_SHARE))
    chunks = 1 if full_fp32 <= target else math.ceil(full_fp32 / target / 4) * 4
    chunk_elems = tokens * arch.vocab / chunks
    return chunk_elems * (2 + 4 + 4) + tokens * arch.hidden * 2


def _kbit_upcast(req: FitRequest, fmt: str) -> bool:
    """PEFT's prepare_model_for_kbit_training applies: QLoRA on 4-bit weights, not FSDP-sharded."""
    return (req.kbit_fp32_upcast and req.method == "qlora" and fmt in BNB_4BIT
            and req.strategy not in ("fsdp", "fsdp_offload"))


def _train(arch: ModelArch, req: FitRequest) -> Estimate:
    fmt = weight_format(arch, req)
    precision = _precision(req, fmt)
    notes: list[Msg] = []
    n = req.gpus
    strategy = req.strategy
    by_kind = weight_bytes_by_kind(arch, fmt, req.double_quant)
    upcast = _kbit_upcast(req, fmt)
    total_params = arch.total_params
    per_layer_params = arch.linear_params_per_layer()
    host = 0.0

    # -- static memory (whole model, before sharding)
    if req.method == "full":
        trainable = total_params
        w_bytes = {"fp32": 4, "mixed": 4, "bf16": 2}[precision]
        weights: float = trainable * w_bytes
        if precision == "mixed":
            # autocast caches a 16-bit copy of each weight for forward/backward (HF: "18 bytes per parameter").
            weights += total_params * 2
        grad_bytes = w_bytes
        state_bytes = 4 if precision in ("fp32", "mixed") else 2
        matrices = [(i, o, c * arch.layers) for i, o, c in arch.linear_shapes().values()]
        adapters = 0.0
    else:
        weights = sum(by_kind.values())  # frozen base in its storage format
        if upcast:
            # Embeddings, LM head and norms (kept 16-bit by bitsandbytes) go to fp32: twice their bytes.
            extra = by_kind[EMBED] + by_kind[HEAD] + by_kind[OTHER]
            weights += extra
            notes.append(translate("FitNotes", "PEFT's prepare_model_for_kbit_training keeps embeddings, LM head and norms in fp32 (+{gib:.2f} GiB), so the hidden states between layers are fp32 too").format(
                gib=extra / GIB))
        trainable = lora_params(arch, req.lora_rank, req.lora_targets, req.lora_on_output)
        adapters = trainable * req.lora_adapter_bytes
        grad_bytes = req.lora_adapter_bytes
        state_bytes = req.lora_adapter_bytes  # torch AdamW keeps its states in the parameter's dtype
        matrices = [(req.lora_rank, i + o, arch.layers) for i, o, _ in arch.linear_shapes().values()]
    gradients: float = trainable * grad_bytes
    if req.optimizer_in_backward:
        # Optimizer step fused into backward (torchtune): only the largest gradient is alive at once.
        largest = max(arch.largest_linear(), arch.vocab * arch.hidden) if req.method == "full" else trainable / max(arch.layers, 1)
        gradients = min(gradients, largest * grad_bytes)
    if req.optimizer == "adafactor":
        optimizer = _adafactor_bytes(arch, matrices)
    else:
        optimizer = trainable * _optimizer_bytes_per_param(req.optimizer, state_bytes)
    if req.optimizer.startswith("paged_"):
        # Paged optimizers keep their states in unified memory that is evicted to CPU RAM under pressure.
        host += optimizer
        notes.append(translate("FitNotes", "Paged optimizer states ({gib:.1f} GiB) live in unified memory and move to system RAM when the GPU is full").format(
            gib=optimizer / GIB))
        optimizer = 0.0

    # -- activations (per GPU: data parallel and FSDP do not shard them)
    tokens = req.seq * req.batch
    # After the k-bit cast the fp32 embedding output flows through fp32 norms, and bitsandbytes casts each
    # 4-bit matmul's output back to its input's dtype: the residual stream and most of a layer's tensors
    # are fp32 (flash attention casts its own inputs back to 16-bit, a small part we count at fp32).
    per_tl = activation_bytes_per_token_layer(arch, req, "fp32" if upcast else precision, req.seq)
    resid_bytes = 4 if precision in ("fp32", "mixed") or upcast else 2
    if req.grad_ckpt:
        # One checkpoint (the layer input) per decoder layer plus one layer recomputed (research 0.5).
        checkpoints: float = arch.layers * tokens * arch.hidden * resid_bytes
        if req.strategy == "tp":
            checkpoints /= n
        if req.activation_offload:
            host += checkpoints
            checkpoints = 2 * tokens * arch.hidden * resid_bytes  # the one in flight each way
        recompute = tokens * per_tl
        activations = checkpoints + recompute
    else:
        recompute = 0.0
        activations = arch.layers * tokens * per_tl
    if arch.family == "decoder":
        v = arch.vocab / (n if strategy == "tp" else 1)
        lb = 4 if precision == "fp32" else 2
        if req.fused_loss:
            # Cut Cross-Entropy (Wijmans et al. 2024; unsloth calls cut_cross_entropy.linear_cross_entropy,
            # unsloth_zoo/loss_utils.py): logits are computed block by block in on-chip memory and never
            # stored; what stays per token is the fp32 log-sum-exp and the label.
            logits: float = tokens * (4 + 8)
        elif req.chunked_loss and req.compile:
            # torchtune compiles the chunk's cross-entropy (training.compile_loss; LinearCrossEntropyLoss.
            # apply_compile_strategy): inductor fuses the fp32 upcast into the log-softmax, so each chunk saves
            # its 16-bit logits and a per-token log-sum-exp; backward makes one chunk's 16-bit gradient at a time.
            logits = tokens * v * (lb + lb / LOSS_CHUNKS)
        elif req.chunked_loss:
            logits = tokens * v * (lb + 8 / LOSS_CHUNKS)
        else:
            logits = tokens * v * 4 * LOSS_FP32_COPIES
    else:
        logits = 0.0  # encoders: a small classification head
    if req.method != "full" and req.chunked_loss and not req.fused_loss and recompute and logits:
        # torchtune's LoRA recipe (lora_finetune_single_device._loss_step, then `del logits` before
        # backward): the chunked loss's backward frees each chunk's logits before the last layer is
        # recomputed (torch.utils.checkpoint re-runs a layer's forward when backward reaches it), so the
        # recomputed layer and the logits are never alive together: the larger of the two counts. Full
        # training keeps the sum (its gradients grow through backward on top of whichever comes first);
        # a plain loss inside a Hugging Face model keeps it too (the public PEFT/fsdp_qlora rows show the sum).
        activations -= min(recompute, logits)

    # -- multi-GPU split of the static memory
    parts: dict[str, float] = {}
    if strategy in ("fsdp", "fsdp_offload"):
        layer_store = per_layer_params * (by_kind[LINEAR] / max(arch.group_numel(LINEAR), 1)) if req.method != "full" else per_layer_params * 2
        gathered = FSDP_GATHERED_LAYERS * layer_store
        if req.method != "full" and fmt in BNB_4BIT + ("int8",):
            gathered += arch.largest_linear() * 2  # one projection dequantised to bf16 at a time
        root = (arch.group_numel(EMBED) + arch.group_numel(HEAD)) * 2  # the root unit stays gathered
        layer_grads = (trainable / max(arch.layers, 1)) * grad_bytes
        if strategy == "fsdp":
            shard = (weights + adapters + gradients + optimizer) / n
        else:
            host += weights + adapters + gradients + optimizer
            shard = 0.0
            notes.append(translate("FitNotes", "CPU offload keeps weights, gradients and optimizer states in system RAM ({gib:.1f} GiB)").format(
                gib=host / GIB))
        parts["weights"] = shard * (weights / max(weights + adapters + gradients + optimizer, 1)) + gathered + root
        parts["lora_adapters"] = shard * (adapters / max(weights + adapters + gradients + optimizer, 1))
        parts["gradients"] = shard * (gradients / max(weights + adapters + gradients + optimizer, 1)) + layer_grads
        parts["optimizer"] = shard * (optimizer / max(weights + adapters + gradients + optimizer, 1))
    else:
        split = n if strategy in ("tp", "layer_split") else 1
        parts["weights"] = weights / split
        parts["lora_adapters"] = adapters / split
        parts["gradients"] = gradients / split
        parts["optimizer"] = optimizer / split
        if strategy == "ddp":
            # DDP's gradient buckets hold a second copy of the gradients (gradient_as_bucket_view=False).
            parts["gradients"] += gradients
        if strategy == "layer_split":
            activations /= n  # each GPU holds its own layers' activations; logits sit on the last one
    parts["activations"] = activations
    parts["logits"] = logits
    if req.fused_loss and req.engine == "unsloth" and arch.vision_params and arch.family == "decoder":
        parts["logits"] = _unsloth_chunked_loss_bytes(arch, req, tokens, sum(parts.values()) - logits)
    torch_bytes = sum(parts.values())
    parts["allocator"] = torch_bytes * ALLOCATOR_TRAIN_SHARE
    parts["cuda_context"] = _context_bytes(req)
    return Estimate(arch, req, {k: v for k, v in parts.items() if v}, host, 0.0, fmt, tuple(notes))
