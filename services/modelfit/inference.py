"""Inference memory per GPU, part by part, for llama.cpp (and Ollama), vLLM and transformers.

Every constant below says where it comes from (the project's research notes, model-memory.md, are quoted by
section). Nothing is fitted to single measurements; tests/services/test_modelfit_validation.py checks the whole
method against public measured points.
"""
from __future__ import annotations

from services.i18n import Msg, translate
from services.modelfit.arch import EMBED, EXPERTS, HEAD, ModelArch
from services.modelfit.kvcache import kv_cache_bytes
from services.modelfit.placement import place_layer_tensors
from services.modelfit.request import GIB, Estimate, FitRequest, context_bytes
from services.modelfit.weights import weight_bytes_by_kind, weight_format

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
LLAMACPP_CTX_PAD = 256  # KV cells are padded to 256 with flash attention (research 0.2)


def _act_bytes(fmt: str) -> int:
    return 4 if fmt == "fp32" else 2


def estimate_inference(arch: ModelArch, req: FitRequest) -> Estimate:
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
    parts["cuda_context"] = context_bytes(req)
    return Estimate(arch, req, {k: v for k, v in parts.items() if v}, host, reserved, fmt, tuple(notes), traffic)
