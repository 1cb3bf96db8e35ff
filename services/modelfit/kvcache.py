"""KV-cache memory: what attention keeps per token, layer and sequence."""
from __future__ import annotations

from services.modelfit.arch import ModelArch
from services.modelfit.dtypes import KV_BYTES

# Linear-attention state (Qwen3-Next Gated DeltaNet): transformers' torch_chunk_gated_delta_rule returns the
# recurrent state in float32 (modeling_qwen3_next.py), so 4 B per element of the fixed per-sequence state.
LINEAR_STATE_BYTES = 4


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
