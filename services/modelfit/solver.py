"""Largest context / batch / LoRA rank that fits, and what to change when it does not.

Memory only grows with sequence length, batch and rank, so a bisection over
integers finds the largest value in ~log2(range) estimates (a few ms).
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

from services.i18n import Msg, translate
from services.modelfit.arch import ModelArch
from services.modelfit.dtypes import BNB_4BIT, GGUF_FORMATS
from services.modelfit.errors import ModelInputError
from services.modelfit.estimate import estimate
from services.modelfit.request import GIB, Estimate, FitRequest
from services.modelfit.weights import weight_format

MAX_SEQ = 1 << 20  # 1M tokens: the ceiling the solver searches when the model states none


def _largest(fits: Callable[[int], bool], low: int, high: int) -> int:
    """Largest x in [low, high] with fits(x), assuming fits is monotone; 0 if none."""
    if not fits(low):
        return 0
    if fits(high):
        return high
    lo, hi = low, high  # fits(lo) and not fits(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


def vllm_needs_bytes(est: Estimate) -> float:
    """What vLLM must find inside its ``gpu_memory_utilization`` share to start: weights, the profiling
    run's activation peak, non-torch memory, the CUDA context and the KV cache for ``max_model_len`` x
    sequences (vLLM refuses to start when that KV cache does not fit in what is left). CUDA graphs are
    captured after the budget is set and sit outside it (vllm#7553)."""
    return sum(v for k, v in est.parts.items() if k != "cuda_graphs")


def vllm_takes_bytes(est: Estimate) -> float | None:
    """What vLLM takes at start: its share of the card plus the CUDA graphs (None without a card)."""
    req = est.request
    if req.gpu_total_gib is None:
        return None
    return req.gpu_memory_utilization * req.gpu_total_gib * GIB + est.parts.get("cuda_graphs", 0.0)


def fits_in(est: Estimate, budget_bytes: float) -> bool:
    """The verdict. vLLM: it starts (the model's needs fit its share of the card, and that share plus
    the CUDA graphs fits the memory there is); other engines: the per-GPU peak fits."""
    if est.request.runtime == "vllm" and est.request.gpu_total_gib is not None:
        share = est.request.gpu_memory_utilization * est.request.gpu_total_gib * GIB
        takes = vllm_takes_bytes(est)
        return vllm_needs_bytes(est) <= share and takes is not None and takes <= budget_bytes
    return est.per_gpu_bytes <= budget_bytes


def _fits_at(arch: ModelArch, req: FitRequest, budget_bytes: float, **change) -> bool:
    try:
        return fits_in(estimate(arch, req.with_changes(**change)), budget_bytes)
    except ModelInputError:
        return False


def max_gpu_layers(arch: ModelArch, req: FitRequest, budget_bytes: float) -> int:
    """llama.cpp / Ollama: the most layers (-ngl / num_gpu) that fit; n_layer + 1 = all plus the output."""
    if _fits_at(arch, req, budget_bytes, gpu_layers=arch.layers + 1):
        return arch.layers + 1
    if not _fits_at(arch, req, budget_bytes, gpu_layers=0):
        return -1
    return _largest(lambda n: _fits_at(arch, req, budget_bytes, gpu_layers=n), 0, arch.layers + 1)


def max_seq_that_fits(arch: ModelArch, req: FitRequest, budget_bytes: float, upper: int | None = None) -> int:
    top = upper or arch.max_context or MAX_SEQ
    return _largest(lambda s: _fits_at(arch, req, budget_bytes, seq=s), 1, top)


def max_batch_that_fits(arch: ModelArch, req: FitRequest, budget_bytes: float, upper: int = 4096) -> int:
    return _largest(lambda b: _fits_at(arch, req, budget_bytes, batch=b), 1, upper)


def max_lora_rank_that_fits(arch: ModelArch, req: FitRequest, budget_bytes: float, upper: int = 1024) -> int:
    if req.task != "train" or req.method == "full":
        return 0
    return _largest(lambda r: _fits_at(arch, req, budget_bytes, lora_rank=r), 1, upper)


@dataclass(frozen=True, slots=True)
class Suggestion:
    code: str  # stable id for JSON / tests
    text: Msg
    request: FitRequest
    per_gpu_gib: float
    fits: bool


def _try(arch: ModelArch, req: FitRequest, budget: float, code: str, text: Msg, **change) -> Suggestion | None:
    new = req.with_changes(**change)
    try:
        est = estimate(arch, new)
    except ModelInputError:
        return None
    return Suggestion(code, text, new, est.per_gpu_gib, fits_in(est, budget))


def suggestions(arch: ModelArch, req: FitRequest, budget_bytes: float, current: Estimate | None = None,
                limit: int = 6) -> list[Suggestion]:
    """Concrete changes that lower per-GPU memory, each with its new figure; the ones that
    make it fit first, then by how much they save."""
    current = current or estimate(arch, req)
    fmt = weight_format(arch, req)
    found: list[Suggestion | None] = []
    if req.task == "inference":
        if req.runtime == "llamacpp":
            for q in ("q6_k", "q5_k_m", "q4_k_m", "q4_0"):
                if q in GGUF_FORMATS and q != fmt and arch.groups == ():
                    found.append(_try(arch, req, budget_bytes, f"weights_{q}", translate("FitSuggest", "Use {fmt} weights").format(fmt=q.upper()), weights=q))
            if req.kv_dtype in ("fp16", "bf16"):
                found.append(_try(arch, req, budget_bytes, "kv_q8_0", translate("FitSuggest", "Quantise the KV cache to q8_0 (-ctk q8_0 -ctv q8_0, needs flash attention)"), kv_dtype="q8_0", attention="flash"))
        else:
            if fmt in ("fp32", "bf16", "fp16"):
                if req.runtime == "vllm":
                    found.append(_try(arch, req, budget_bytes, "weights_fp8", translate("FitSuggest", "Load FP8 weights"), weights="fp8"))
                found.append(_try(arch, req, budget_bytes, "weights_int8", translate("FitSuggest", "Load the weights in 8-bit (bitsandbytes)"), weights="int8"))
                found.append(_try(arch, req, budget_bytes, "weights_nf4", translate("FitSuggest", "Load the weights in 4-bit NF4 (bitsandbytes)"), weights="nf4"))
            if req.runtime == "vllm" and req.kv_dtype in ("fp16", "bf16"):
                found.append(_try(arch, req, budget_bytes, "kv_fp8", translate("FitSuggest", "Store the KV cache in FP8 (--kv-cache-dtype fp8)"), kv_dtype="fp8"))
            if req.runtime == "vllm":
                found.append(_try(arch, req, budget_bytes, "vllm_small_batch", translate("FitSuggest", "Lower --max-num-seqs to 32 and --max-num-batched-tokens to 2048"), vllm_max_seqs=32, vllm_max_batched_tokens=2048))
            if req.runtime == "torch" and fmt in ("fp32", "bf16", "fp16"):
                found.append(_try(arch, req, budget_bytes, "engine_llamacpp", translate("FitSuggest", "Run a Q4_K_M GGUF in llama.cpp"), engine="llamacpp", weights="q4_k_m", kv_dtype="fp16"))
        if req.attention == "eager":
            found.append(_try(arch, req, budget_bytes, "flash_attention", translate("FitSuggest", "Use flash attention / SDPA"), attention="flash"))
    else:
        if not req.grad_ckpt:
            found.append(_try(arch, req, budget_bytes, "grad_ckpt", translate("FitSuggest", "Turn on gradient checkpointing"), grad_ckpt=True))
        if req.optimizer == "adamw":
            found.append(_try(arch, req, budget_bytes, "adamw8bit", translate("FitSuggest", "Use the 8-bit AdamW optimizer"), optimizer="adamw8bit"))
            found.append(_try(arch, req, budget_bytes, "paged_adamw8bit", translate("FitSuggest", "Use paged 8-bit AdamW (states spill to system RAM)"), optimizer="paged_adamw8bit"))
        if not (req.chunked_loss or req.fused_loss) and arch.family == "decoder":
            found.append(_try(arch, req, budget_bytes, "chunked_loss", translate("FitSuggest", "Use a chunked / fused cross-entropy loss"), chunked_loss=True))
        if req.method == "full":
            found.append(_try(arch, req, budget_bytes, "lora", translate("FitSuggest", "Train LoRA adapters instead of all weights"), method="lora", precision=None, weights="bf16"))
            found.append(_try(arch, req, budget_bytes, "qlora", translate("FitSuggest", "Train QLoRA (4-bit base + LoRA)"), method="qlora", precision=None, weights="nf4"))
        elif req.method == "lora" and fmt not in BNB_4BIT:
            found.append(_try(arch, req, budget_bytes, "qlora", translate("FitSuggest", "Switch to QLoRA (4-bit base weights)"), method="qlora", weights="nf4"))
        if req.method == "qlora" and req.kbit_fp32_upcast and fmt in BNB_4BIT and req.strategy not in ("fsdp", "fsdp_offload"):
            found.append(_try(arch, req, budget_bytes, "no_kbit_upcast", translate(
                "FitSuggest", "Keep embeddings and LM head in 16-bit (skip PEFT's fp32 cast, as axolotl does)"),
                kbit_fp32_upcast=False))
        if req.batch > 1:
            found.append(_try(arch, req, budget_bytes, "batch_1", translate("FitSuggest", "Batch 1 with {steps} gradient-accumulation steps").format(steps=req.batch), batch=1))
        if req.attention == "eager":
            found.append(_try(arch, req, budget_bytes, "flash_attention", translate("FitSuggest", "Use flash attention / SDPA"), attention="flash"))
        savers = dict(grad_ckpt=True, chunked_loss=True,
                      optimizer="paged_adamw8bit" if req.optimizer.startswith(("adamw", "paged")) else req.optimizer)
        if any(getattr(req, k) != v for k, v in savers.items()):
            saved = _try(arch, req, budget_bytes, "all_savers", translate(
                "FitSuggest", "All memory savers together: checkpointing, chunked loss, paged 8-bit AdamW"), **savers)
            found.append(saved)
            if saved is not None and not saved.fits:
                # The longest sequence that fits once every saver is on.
                seq = max_seq_that_fits(arch, saved.request, budget_bytes)
                if 0 < seq < req.seq:
                    found.append(_try(arch, saved.request, budget_bytes, "all_savers_shorter_seq", translate(
                        "FitSuggest", "All memory savers and sequences of {seq} tokens").format(seq=seq), seq=seq))
        if req.gpus > 1 and req.strategy in ("ddp", "fsdp"):
            found.append(_try(arch, req, budget_bytes, "fsdp_offload", translate("FitSuggest", "FSDP with CPU offload over {gpus} GPUs").format(gpus=req.gpus), strategy="fsdp_offload"))
    # Shorter sequence: the largest that fits with everything else unchanged.
    best_seq = max_seq_that_fits(arch, req, budget_bytes)
    if 0 < best_seq < req.seq:
        found.append(_try(arch, req, budget_bytes, "shorter_seq", translate("FitSuggest", "Shorten the sequence to {seq} tokens").format(seq=best_seq), seq=best_seq))
    # More GPUs: the fewest that make it fit.
    for gpus in (2, 4, 8):
        if gpus <= req.gpus:
            continue
        strategy = ("tp" if req.runtime == "vllm" else "layer_split") if req.task == "inference" else "fsdp"
        # More cards than the user has is a rented machine, and says so (not advice for this PC).
        s = _try(arch, req, budget_bytes, f"gpus_{gpus}", translate("FitSuggest", "On a rented machine with {gpus} such GPUs ({strategy})").format(gpus=gpus, strategy=strategy),
                 gpus=gpus, strategy=strategy)
        if s is not None and s.fits:
            found.append(s)
            break
    if req.task == "train" and req.grad_ckpt and not req.activation_offload:
        found.append(_try(arch, req, budget_bytes, "activation_offload", translate(
            "FitSuggest", "Offload the checkpointed activations to system RAM (unsloth's gradient checkpointing, torchtune enable_activation_offloading)"),
            activation_offload=True))
    useful = [s for s in found if s is not None and s.per_gpu_gib < current.per_gpu_gib - 0.01]
    # What fits first; buying GPUs last; then the smaller figure.
    useful.sort(key=lambda s: (not s.fits, s.code.startswith("gpus_"), s.per_gpu_gib))
    return useful[:limit]


@dataclass(frozen=True, slots=True)
class FitAnswer:
    """Everything the CLI and the panel show for one request."""

    estimate: Estimate
    budget_gib: float | None
    fits: bool | None
    max_seq: int | None
    max_batch: int | None
    max_lora_rank: int | None
    suggestions: tuple[Suggestion, ...]
    offload: "OffloadPlan | None" = None  # llama.cpp / Ollama when the whole model does not fit
    vllm_takes_gib: float | None = None  # vLLM: its share of the card + CUDA graphs, taken at start

    @property
    def headroom_gib(self) -> float | None:
        return None if self.budget_gib is None else self.budget_gib - self.estimate.per_gpu_gib


def answer(arch: ModelArch, req: FitRequest, budget_gib: float | None, *, with_suggestions: bool = True) -> FitAnswer:
    est = estimate(arch, req)
    takes = vllm_takes_bytes(est) if req.runtime == "vllm" else None
    if budget_gib is None:
        return FitAnswer(est, None, None, None, None, None, (), None, None if takes is None else takes / GIB)
    budget = budget_gib * GIB
    fits = fits_in(est, budget)
    sugg: tuple[Suggestion, ...] = ()
    if with_suggestions and not fits:
        sugg = tuple(suggestions(arch, req, budget, est))
    offload = None
    if not fits and req.runtime == "llamacpp" and req.gpu_layers is None and not req.cpu_moe_layers and not req.override_tensors:
        offload = offload_plan(arch, req, budget)
    return FitAnswer(
        est, budget_gib, fits,
        max_seq_that_fits(arch, req, budget),
        max_batch_that_fits(arch, req, budget, upper=1024),
        max_lora_rank_that_fits(arch, req, budget) or None,
        sugg, offload, None if takes is None else takes / GIB,
    )


@dataclass(frozen=True, slots=True)
class OffloadPlan:
    """llama.cpp / Ollama partial offload: ``gpu_layers`` of ``layers`` on the GPU, the rest in RAM."""

    gpu_layers: int  # -ngl / num_gpu value
    layers: int
    gpu_gib: float
    host_gib: float
    estimate: Estimate
    cpu_moe_layers: int = 0  # llama.cpp --n-cpu-moe: the first N layers' experts in system RAM

    @property
    def flag(self) -> str:
        if self.cpu_moe_layers:
            return f"-ngl 999 --n-cpu-moe {self.cpu_moe_layers}"
        return f"-ngl {self.gpu_layers}"


def min_cpu_moe_layers(arch: ModelArch, req: FitRequest, budget_bytes: float) -> int:
    """llama.cpp --n-cpu-moe: the fewest layers whose experts go to system RAM for every layer to stay on
    the GPU; -1 when even all of them are not enough."""
    if not arch.experts or req.runtime != "llamacpp":
        return -1
    top = arch.layers
    if not _fits_at(arch, req, budget_bytes, gpu_layers=None, cpu_moe_layers=top):
        return -1
    if _fits_at(arch, req, budget_bytes, gpu_layers=None, cpu_moe_layers=0):
        return 0
    lo, hi = 0, top  # not fits(lo), fits(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _fits_at(arch, req, budget_bytes, gpu_layers=None, cpu_moe_layers=mid):
            hi = mid
        else:
            lo = mid
    return hi


def offload_plan(arch: ModelArch, req: FitRequest, budget_bytes: float) -> OffloadPlan | None:
    """What runs when the whole model does not fit. A MoE model under llama.cpp keeps every layer on the
    GPU and moves experts (--n-cpu-moe): attention and the KV cache stay on the GPU and only the routed
    experts a token uses are read from RAM, which beats moving whole layers (-ngl). Ollama has no such
    option (num_gpu only): whole layers."""
    if req.engine == "llamacpp" and not req.cpu_moe_layers and not req.override_tensors:
        n_moe = min_cpu_moe_layers(arch, req, budget_bytes)
        if n_moe > 0:
            est = estimate(arch, req.with_changes(gpu_layers=None, cpu_moe_layers=n_moe))
            return OffloadPlan(arch.layers + 1, arch.layers, est.per_gpu_gib, est.host_bytes / GIB, est, n_moe)
    n = max_gpu_layers(arch, req, budget_bytes)
    if n < 0:
        return None
    est = estimate(arch, req.with_changes(gpu_layers=n))
    return OffloadPlan(n, arch.layers, est.per_gpu_gib, est.host_bytes / GIB, est)
