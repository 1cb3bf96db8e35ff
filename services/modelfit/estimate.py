"""The memory estimator: what a model needs on each GPU, part by part.

``estimate`` checks a request (``validate``) and hands it to the inference (services.modelfit.inference) or the
training (services.modelfit.training) computation.
"""
from __future__ import annotations

from services.i18n import Msg, translate
from services.modelfit.arch import ModelArch
from services.modelfit.dtypes import BNB_4BIT, GGUF_FORMATS, KV_BYTES, plain_bits
from services.modelfit.errors import ModelInputError
from services.modelfit.inference import estimate_inference
from services.modelfit.request import (
    ATTENTION, ENGINES, LORA_TARGETS, METHODS, OPTIMIZERS, PRECISIONS, STRATEGIES, TASKS, TRAIN_ENGINES, Estimate,
    FitRequest,
)
from services.modelfit.training import estimate_training
from services.modelfit.weights import weight_format


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


# ------------------------------------------------------------------ estimate
def estimate(arch: ModelArch, req: FitRequest) -> Estimate:
    validate(arch, req)
    if req.task == "train":
        return estimate_training(arch, req)
    return estimate_inference(arch, req)
