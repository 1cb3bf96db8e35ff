"""Training memory per GPU, part by part: full fine-tuning, LoRA and QLoRA, on one GPU or split over several.

Every constant below says where it comes from (the project's research notes, model-memory.md, are quoted by
section). Nothing is fitted to single measurements; tests/services/test_modelfit_validation.py checks the whole
method against public measured points.
"""
from __future__ import annotations

import math

from services.i18n import Msg, translate
from services.modelfit.arch import EMBED, HEAD, LINEAR, OTHER, ModelArch
from services.modelfit.dtypes import BNB_4BIT
from services.modelfit.request import GIB, Estimate, FitRequest, context_bytes
from services.modelfit.weights import weight_bytes_by_kind, weight_format

# PyTorch caching allocator: reserved - allocated is 5-20% (research 0.6); a 10% margin on the training peak.
ALLOCATOR_TRAIN_SHARE = 0.10
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
        free = req.gpu_total_gib * GIB - other_bytes - context_bytes(req)
        target = max(1.0, min(target, free * UNSLOTH_LOSS_FREE_SHARE))
    chunks = 1 if full_fp32 <= target else math.ceil(full_fp32 / target / 4) * 4
    chunk_elems = tokens * arch.vocab / chunks
    return chunk_elems * (2 + 4 + 4) + tokens * arch.hidden * 2


def _kbit_upcast(req: FitRequest, fmt: str) -> bool:
    """PEFT's prepare_model_for_kbit_training applies: QLoRA on 4-bit weights, not FSDP-sharded."""
    return (req.kbit_fp32_upcast and req.method == "qlora" and fmt in BNB_4BIT
            and req.strategy not in ("fsdp", "fsdp_offload"))


def estimate_training(arch: ModelArch, req: FitRequest) -> Estimate:
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
    parts["cuda_context"] = context_bytes(req)
    return Estimate(arch, req, {k: v for k, v in parts.items() if v}, host, 0.0, fmt, tuple(notes))
