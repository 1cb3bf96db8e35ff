"""An architecture from an HF config.json (or our own field names): shapes, MoE layout, MLA, linear
attention and the checkpoint's quantization_config. Plain data in, ModelArch out; the catalogue and the
file loaders both use it."""
from __future__ import annotations

import math
import re
from typing import Any

from services.i18n import translate
from services.modelfit.arch import ATTN, EMBED, EXPERTS, HEAD, MLP, SHARED, ModelArch
from services.modelfit.dtypes import MXFP4_BITS, NF4_BITS_DOUBLE_QUANT, NF4_BITS_SINGLE, group_quant_bits
from services.modelfit.errors import ModelInputError

MAX_PARAMS = 20e12
LIMITS = {"layers": 2000, "hidden": 200_000, "heads": 4096, "kv_heads": 4096, "head_dim": 4096,
          "intermediate": 2_000_000, "vocab": 10_000_000}
SAFETENSORS_MAX_HEADER = 256 * 1024 * 1024

GGUF_FILE_TYPE_NAMES = {0: "fp32", 1: "fp16", 2: "q4_0", 3: "q4_1", 7: "q8_0", 8: "q5_0", 10: "q2_k",
                        11: "q3_k_s", 12: "q3_k_m", 13: "q3_k_l", 14: "q4_k_s", 15: "q4_k_m", 16: "q5_k_s",
                        17: "q5_k_m", 18: "q6_k", 32: "bf16"}


def _bad(text_msg, **args) -> ModelInputError:
    return ModelInputError(text_msg.format(**args))


def _check_ranges(values: dict[str, int]) -> None:
    for key, value in values.items():
        limit = LIMITS.get(key)
        if value is None:
            continue
        if value <= 0 or (limit and value > limit):
            raise _bad(translate("FitErrors", "Implausible {field} = {value} in the model description"),
                       field=key, value=value)


# ---------------------------------------------------------------- config.json
def _first(cfg: dict, *keys: str, default: Any = None) -> Any:
    for key in keys:
        if key in cfg and cfg[key] is not None:
            return cfg[key]
    return default


# Optional integer fields and the largest value that is still a model, not a typo.
OPTIONAL_LIMITS = {"experts": 4096, "experts_per_token": 4096, "moe_intermediate": 2_000_000,
                   "sliding_window": 1 << 26, "sliding_layers": 2000, "max_context": 1 << 28}
MAX_DIM = 1 << 40  # one tensor dimension


class _NotANumber(str):
    """NaN / Infinity / -Infinity in a JSON file: kept as a marker so the field that holds it is named
    when it is read (a number field refuses it; a field nobody reads does no harm)."""

    def __repr__(self) -> str:
        return str(self)


def _show(value: Any) -> str:
    """A hostile value shortened for a one-line message."""
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:37] + "..."


def _as_int(value: Any, field: str, low: int = 1, high: int | None = None) -> int:
    """A whole number from a config/metadata field: no bools, strings, NaN, infinities or fractions,
    and within [low, high] (high from LIMITS / OPTIONAL_LIMITS when not given)."""
    high = high if high is not None else LIMITS.get(field) or OPTIONAL_LIMITS.get(field)
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or (isinstance(value, float) and (not math.isfinite(value) or value != int(value)))):
        raise _bad(translate("FitErrors", "Field {field} must be a whole number, got {value}"), field=field, value=_show(value))
    number = int(value)
    if number < low or (high is not None and number > high):
        raise _bad(translate("FitErrors", "Implausible {field} = {value} in the model description"), field=field, value=_show(value))
    return number


def _opt_int(value: Any, field: str, low: int = 0) -> int | None:
    return None if value is None else _as_int(value, field, low=low)


def _as_bool(value: Any, field: str) -> bool:
    if isinstance(value, bool) or value in (0, 1):
        return bool(value)
    raise _bad(translate("FitErrors", "Field {field} must be true or false, got {value}"), field=field, value=_show(value))


def _params_b(value: Any) -> int:
    if isinstance(value, (bool, _NotANumber)) or not isinstance(value, (int, float, str)):
        raise _bad(translate("FitErrors", "Field {field} must be a number, got {value}"), field="params_b", value=_show(value))
    try:
        number = float(value)
    except ValueError:
        raise _bad(translate("FitErrors", "Field {field} must be a number, got {value}"), field="params_b", value=_show(value)) from None
    if not math.isfinite(number) or not 1e6 <= number * 1e9 <= MAX_PARAMS:
        raise _bad(translate("FitErrors", "Implausible {field} = {value} in the model description"), field="params_b", value=_show(value))
    return int(round(number * 1e9))


def arch_from_config(cfg: dict, model_id: str = "config.json") -> ModelArch:
    """An architecture from an HF config.json or from our own field names
    (params_b, layers, hidden, heads, kv_heads, head_dim, intermediate, vocab, tied_embeddings)."""
    if not isinstance(cfg, dict):
        raise _bad(translate("FitErrors", "The model config must be a JSON object"))
    vision = 0
    if isinstance(cfg.get("text_config"), dict):  # multimodal wrappers (Gemma 3, Llava): use the text model
        text_hidden = cfg["text_config"].get("hidden_size")
        vision = _vision_params(cfg.get("vision_config"), text_hidden)
        cfg = {**cfg["text_config"], "model_type": cfg["text_config"].get("model_type", cfg.get("model_type"))}
    model_type = str(cfg.get("model_type", "")).lower()
    layers = _first(cfg, "layers", "num_hidden_layers", "n_layer", "num_layers")
    hidden = _first(cfg, "hidden", "hidden_size", "n_embd", "d_model")
    heads = _first(cfg, "heads", "num_attention_heads", "n_head")
    missing = [n for n, v in (("layers", layers), ("hidden", hidden), ("heads", heads)) if v is None]
    if missing:
        raise _bad(translate("FitErrors", "The model config lacks {fields}"), fields=", ".join(missing))
    layers, hidden, heads = _as_int(layers, "layers"), _as_int(hidden, "hidden"), _as_int(heads, "heads")
    if heads <= 0 or hidden <= 0:
        raise _bad(translate("FitErrors", "Implausible {field} = {value} in the model description"), field="heads", value=heads)
    kv = _first(cfg, "kv_heads", "num_key_value_heads", "n_query_groups")
    if kv is None:
        kv = 1 if cfg.get("multi_query") else heads
    head_dim = _first(cfg, "head_dim", "head_size", default=hidden // heads)
    intermediate = _first(cfg, "intermediate", "intermediate_size", "n_inner", "ffn_dim", default=4 * hidden)
    # Gemma 3's text_config leaves vocab_size at its class default (Gemma3TextConfig: 262208).
    vocab = _first(cfg, "vocab", "vocab_size", "padded_vocab_size", default=262208 if model_type == "gemma3_text" else 32000)
    values = {"layers": layers, "hidden": hidden, "heads": heads, "kv_heads": _as_int(kv, "kv_heads"),
              "head_dim": _as_int(head_dim, "head_dim"), "intermediate": _as_int(intermediate, "intermediate"),
              "vocab": _as_int(vocab, "vocab")}
    _check_ranges(values)
    tied = _as_bool(_first(cfg, "tied_embeddings", "tie_word_embeddings", default=model_type in ("gpt2", "bert", "gpt_bigcode", "gemma", "gemma2", "gemma3_text")), "tie_word_embeddings")
    act = str(_first(cfg, "hidden_act", "activation_function", default="silu")).lower()
    gated = model_type not in ("gpt2", "bert", "gpt_bigcode", "roberta", "distilbert", "gpt_neox", "opt", "phi")
    mlp = str(cfg.get("mlp", "gated" if gated else "gelu"))
    if model_type in ("", None) and "gelu" in act and "mlp" not in cfg:
        mlp = "gated"
    family = "encoder" if model_type in ("bert", "roberta", "distilbert", "deberta", "deberta-v2", "xlm-roberta") else str(cfg.get("family", "decoder"))
    experts = _as_int(_first(cfg, "experts", "num_local_experts", "num_experts", "n_routed_experts", default=0), "experts", low=0)
    topk = _as_int(_first(cfg, "experts_per_token", "num_experts_per_tok", default=0), "experts_per_token", low=0)
    moe_inter = _opt_int(_first(cfg, "moe_intermediate", "moe_intermediate_size"), "moe_intermediate")
    window = _first(cfg, "sliding_window")
    if cfg.get("use_sliding_window") is False:
        window = None
    sliding_layers = 0
    if window:
        window = _as_int(window, "sliding_window", low=0)
        layer_types = cfg.get("layer_types")
        pattern = cfg.get("sliding_window_pattern")
        if isinstance(layer_types, list) and layer_types:
            sliding_layers = sum(1 for t in layer_types if "sliding" in str(t))
        elif isinstance(pattern, int) and pattern > 0:  # Gemma 3: every pattern-th layer is global
            sliding_layers = layers - layers // pattern
        elif model_type == "gemma3_text":  # Gemma3TextConfig default sliding_window_pattern = 6
            sliding_layers = layers - layers // 6
        elif model_type == "gemma2":
            sliding_layers = layers // 2 + layers % 2
        elif "sliding_layers" in cfg:
            sliding_layers = _as_int(cfg["sliding_layers"], "sliding_layers", low=0, high=layers)
        else:
            sliding_layers = layers
    max_ctx = _opt_int(_first(cfg, "max_context", "max_position_embeddings", "n_positions", "max_seq_len"), "max_context")
    params = _params_b(cfg["params_b"]) if "params_b" in cfg else None
    native, quant_bits = _quantization(cfg.get("quantization_config"))
    kv_format = _checkpoint_kv_format(cfg.get("quantization_config"))
    if native is None:
        dtype = str(cfg.get("torch_dtype") or cfg.get("dtype") or "").lower()
        native = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}.get(dtype)
    moe = _moe_layout(cfg, layers, experts, values["intermediate"], moe_inter)
    mla = _mla(cfg)
    linear = _linear_attention(cfg, layers, hidden)
    if linear.get("linear_attn_layers") and "sliding_window" not in cfg:
        window, sliding_layers = None, 0
    if not window and cfg.get("attention_chunk_size"):
        # Llama 4: three of four layers attend within chunks of attention_chunk_size (the others are global
        # NoPE layers, no_rope_layers[i] == 0); llama.cpp caches them as SWA layers (LLAMA_SWA_TYPE_CHUNKED)
        # and vLLM's hybrid KV manager as chunked-local layers: their KV stops at the chunk.
        window = _as_int(cfg["attention_chunk_size"], "attention_chunk_size", low=1, high=1 << 26)
        nope = cfg.get("no_rope_layers")
        sliding_layers = sum(1 for v in nope if v) if isinstance(nope, list) and nope else layers - layers // 4
    return ModelArch(
        model_id=str(cfg.get("_name_or_path") or cfg.get("model_id") or model_id), layers=layers, hidden=hidden,
        heads=heads, kv_heads=values["kv_heads"], head_dim=values["head_dim"], intermediate=values["intermediate"],
        vocab=values["vocab"], tied_embeddings=bool(tied), mlp=mlp if mlp in ("gated", "gelu") else "gated",
        family=family, experts=experts, experts_per_token=topk,
        moe_intermediate=moe_inter or None,
        qkv_bias=bool(_first(cfg, "qkv_bias", "attention_bias", default=model_type in ("qwen2",))),
        sliding_window=window or None, sliding_layers=sliding_layers, max_context=max_ctx or None,
        params=params, source=str(cfg.get("source", "config.json")), native_format=native,
        quant_bits=quant_bits, kv_cache_format=kv_format, vision_params=vision, **moe, **mla, **linear,
    )


def _vision_params(vcfg: Any, text_hidden: Any) -> int:
    """Parameters of a ViT vision tower (SigLIP, CLIP: transformers modeling_siglip.py) from vision_config, plus
    the projector into the text model's width (Gemma 3's mm_input_projection_weight: vision hidden x text hidden).
    Per layer: q, k, v, o (4 h^2 + 4 h), fc1 and fc2 (2 h I + I + h), two LayerNorms (4 h); the patch embedding
    (3 p^2 h + h), one position embedding per patch ((image / patch)^2 h) and the post-LayerNorm (2 h).
    Gemma 3 27B: 27 layers, h 1152, I 4304, patch 14, image 896 = 0.42 B (27.43 B published in all)."""
    if not isinstance(vcfg, dict):
        return 0
    try:
        h = _as_int(vcfg.get("hidden_size", 0), "vision_config.hidden_size", low=0, high=1 << 16)
        layers = _as_int(vcfg.get("num_hidden_layers", 0), "vision_config.num_hidden_layers", low=0, high=1024)
        inter = _as_int(vcfg.get("intermediate_size", 4 * h), "vision_config.intermediate_size", low=0, high=1 << 18)
        patch = _as_int(vcfg.get("patch_size", 14), "vision_config.patch_size", low=1, high=4096)
        image = _as_int(vcfg.get("image_size", 224), "vision_config.image_size", low=1, high=1 << 16)
        channels = _as_int(vcfg.get("num_channels", 3), "vision_config.num_channels", low=1, high=64)
        text = _as_int(text_hidden or 0, "text_config.hidden_size", low=0, high=1 << 18)
    except ModelInputError:
        return 0  # an odd vision block costs the tower's size, not the whole answer
    per_layer = 4 * h * h + 4 * h + 2 * h * inter + inter + h + 4 * h
    embed = channels * patch * patch * h + h + (image // patch) ** 2 * h
    return layers * per_layer + embed + 2 * h + h * text


def _is_modelopt(qcfg: dict) -> bool:
    """quant_method "modelopt"/"modelopt_fp4", or hf_quant_config.json's {"producer": {"name": "modelopt"}}."""
    producer = qcfg.get("producer")
    return (str(qcfg.get("quant_method", "")).lower().startswith("modelopt")
            or isinstance(producer, dict) and str(producer.get("name", "")).lower() == "modelopt")


def _checkpoint_kv_format(qcfg: Any) -> str | None:
    """The KV-cache dtype a checkpoint asks for: vLLM's --kv-cache-dtype auto follows a ModelOpt checkpoint's
    kv_cache_quant_algo (or kv_cache_scheme: 8-bit float, static) (vllm/utils/torch_utils.py
    resolve_kv_cache_dtype_string, get_kv_cache_quant_algo_string: only quant_method "modelopt*"); every other
    checkpoint's "auto" is the model's own dtype."""
    if not isinstance(qcfg, dict) or not _is_modelopt(qcfg):
        return None
    block = qcfg.get("quantization")
    inner: dict = block if isinstance(block, dict) else qcfg
    algo = (inner.get("kv_cache_scheme") or qcfg.get("kv_cache_scheme") or inner.get("kv_cache_quant_algo")
            or qcfg.get("kv_cache_quant_algo"))
    if isinstance(algo, dict):
        return "fp8" if algo.get("dynamic") is False and algo.get("num_bits") == 8 and algo.get("type") == "float" else None
    # MODELOPT_TO_VLLM_KV_CACHE_DTYPE_MAP: "fp8" -> fp8_e4m3 (1 byte); others fall back to auto
    return "fp8" if isinstance(algo, str) and algo.lower() == "fp8" else None


def _moe_layout(cfg: dict, layers: int, experts: int, intermediate: int, moe_inter: int | None) -> dict[str, Any]:
    """Dense first layers, MoE interleaving and shared experts, from the config's own fields."""
    if not experts:
        return {}
    first = _as_int(_first(cfg, "first_k_dense_replace", default=0), "first_k_dense_replace", low=0, high=layers)
    step = _as_int(_first(cfg, "interleave_moe_layer_step", "decoder_sparse_step", default=1), "moe step", low=1, high=layers)
    only_dense = cfg.get("mlp_only_layers")
    if isinstance(only_dense, list) and only_dense and not first:
        first = len(only_dense)  # Qwen2/3-MoE mlp_only_layers: counted as dense layers (usually the first)
    dense_inter = _opt_int(_first(cfg, "intermediate_size_mlp"), "intermediate_size_mlp")  # Llama 4
    per_expert = moe_inter or intermediate
    shared = 0
    if _first(cfg, "n_shared_experts", "num_shared_experts"):  # DeepSeek, GLM-4.5: shared experts of the expert width
        shared = _as_int(_first(cfg, "n_shared_experts", "num_shared_experts"), "n_shared_experts", low=0, high=4096) * per_expert
    elif _first(cfg, "shared_expert_intermediate_size"):  # Qwen2-MoE, Qwen3-Next
        shared = _as_int(cfg["shared_expert_intermediate_size"], "shared_expert_intermediate_size", low=0)
    elif str(cfg.get("model_type", "")).startswith("llama4"):
        shared = intermediate  # Llama4TextMoe: one shared_expert MLP of intermediate_size beside the routed ones
    return {"first_dense_layers": first, "moe_step": step, "dense_intermediate": dense_inter or (intermediate if moe_inter else None),
            "shared_intermediate": shared}


def _mla(cfg: dict) -> dict[str, Any]:
    if not cfg.get("kv_lora_rank"):
        return {}
    return {"kv_lora_rank": _as_int(cfg["kv_lora_rank"], "kv_lora_rank"),
            "q_lora_rank": _as_int(cfg.get("q_lora_rank") or 0, "q_lora_rank", low=0),
            "rope_head_dim": _as_int(cfg.get("qk_rope_head_dim") or 0, "qk_rope_head_dim", low=0),
            "nope_head_dim": _as_int(cfg.get("qk_nope_head_dim") or 0, "qk_nope_head_dim", low=0),
            "v_head_dim": _as_int(cfg.get("v_head_dim") or 0, "v_head_dim", low=0)}


def _linear_attention(cfg: dict, layers: int, hidden: int) -> dict[str, Any]:
    """Qwen3-Next: layer_types "linear_attention" (or all but every full_attention_interval-th layer) are
    Gated DeltaNet layers. Their projections (modeling_qwen3_next.Qwen3NextGatedDeltaNet): in_proj_qkvz
    h -> 2 key_dim + 2 value_dim, in_proj_ba h -> 2 v_heads, conv1d over conv_dim = 2 key_dim + value_dim,
    out_proj value_dim -> h. Their state per sequence: v_heads x k_dim x v_dim recurrent + conv_dim x
    (kernel - 1) convolution."""
    if not cfg.get("linear_num_value_heads"):
        return {}
    types = cfg.get("layer_types")
    if isinstance(types, list) and types:
        count = sum(1 for t in types if "linear" in str(t))
    else:
        interval = _as_int(cfg.get("full_attention_interval") or 4, "full_attention_interval", low=1, high=layers)
        count = layers - layers // interval
    k_heads = _as_int(cfg.get("linear_num_key_heads") or 16, "linear_num_key_heads")
    v_heads = _as_int(cfg["linear_num_value_heads"], "linear_num_value_heads")
    k_dim = _as_int(cfg.get("linear_key_head_dim") or 128, "linear_key_head_dim")
    v_dim = _as_int(cfg.get("linear_value_head_dim") or 128, "linear_value_head_dim")
    kernel = _as_int(cfg.get("linear_conv_kernel_dim") or 4, "linear_conv_kernel_dim")
    key_dim, value_dim = k_heads * k_dim, v_heads * v_dim
    conv_dim = 2 * key_dim + value_dim
    params = hidden * (2 * key_dim + 2 * value_dim) + hidden * 2 * v_heads + conv_dim * kernel + value_dim * hidden
    return {"linear_attn_layers": count, "linear_attn_params": params,
            "linear_state_elems": v_heads * k_dim * v_dim + conv_dim * (kernel - 1)}


def _not_converted(patterns: Any) -> set[str]:
    """Which parts a quantization_config leaves unquantised (modules_to_not_convert, ignore, ignored_layers,
    llm_int8_skip_modules). Only patterns that name a part in every layer count; one numbered layer
    ("model.layers.3.mlp") is too small to change the estimate."""
    kept: set[str] = set()
    if not isinstance(patterns, list):
        return kept
    for raw in patterns:
        name = str(raw).lower()
        if re.search(r"layers\.\d+\.", name):
            continue
        if "embed" in name:
            kept.add(EMBED)
        if "lm_head" in name:
            kept.add(HEAD)
        if "attn" in name or "attention" in name:
            kept.add(ATTN)
        if "shared_expert" in name:
            kept.add(SHARED)
        elif "experts" in name:
            kept.add(EXPERTS)
        elif name.endswith("mlp") or name.endswith("mlp.*") or ".mlp." in name and "gate" not in name and "router" not in name:
            kept.update((MLP, SHARED, EXPERTS))
    return kept


def _quantization(qcfg: Any) -> tuple[str | None, tuple[tuple[str, float], ...]]:
    """A checkpoint's storage from config.json's quantization_config: its name and bits per part.

    What each method quantises (what is not listed stays in the 16-bit dtype; routers and norms are not
    nn.Linear weights of the decoder MLP/attention and stay too):
    - mxfp4 (transformers quantizer_mxfp4.py, gpt-oss): the experts only, 4.25 bits (dtypes.MXFP4_BITS).
    - awq / gptq (AutoAWQ, GPTQModel; transformers quantizer_awq.py / quantizer_gptq.py): every decoder
      nn.Linear at ``bits`` with a 16-bit scale and packed zero per ``group_size`` (dtypes.group_quant_bits);
      embeddings and lm_head stay 16-bit.
    - fp8 (transformers quantizer_finegrained_fp8.py; DeepSeek-V3, Qwen3-FP8): nn.Linear at 1 byte with
      one fp32 scale per weight_block_size block (128 x 128: +0.002 bit) or per tensor.
    - compressed-tensors (llm-compressor): config_groups[*].weights num_bits / group_size / strategy /
      symmetric; "ignore" lists what is kept (lm_head at least).
    - bitsandbytes: 4-bit NF4/FP4 (double quant: 4.127 bits) or LLM.int8 (8 bits) on nn.Linear; lm_head
      is skipped by transformers' get_keys_to_not_convert.
    """
    if not isinstance(qcfg, dict):
        return None, ()
    method = str(qcfg.get("quant_method", "")).lower()
    linear_parts = (ATTN, MLP, SHARED, EXPERTS)
    skip = _not_converted(qcfg.get("modules_to_not_convert") or qcfg.get("ignored_layers")
                          or qcfg.get("ignore") or qcfg.get("llm_int8_skip_modules"))

    def table(bits: float, parts: tuple[str, ...] = linear_parts) -> tuple[tuple[str, float], ...]:
        return tuple((p, bits) for p in parts if p not in skip)

    def whole(value: Any, field: str, default: int) -> int:
        if value is None:
            return default
        return _as_int(value, field, low=-1, high=1 << 20) if value != -1 else -1

    if method == "mxfp4":
        return "mxfp4", table(MXFP4_BITS, (EXPERTS,))
    if _is_modelopt(qcfg):
        # NVIDIA ModelOpt exports (nvidia/*-FP8, *-NVFP4): "quant_algo" in the config or in its "quantization"
        # block (hf_quant_config.json's layout; vLLM modelopt.py reads both). FP8: 1 byte per weight with
        # per-tensor scales. NVFP4: 4-bit E2M1 with one FP8 scale per group_size (16) weights.
        block = qcfg.get("quantization")
        inner: dict = block if isinstance(block, dict) else qcfg
        algo = str(inner.get("quant_algo") or qcfg.get("quant_algo") or "").upper()
        skip |= _not_converted(inner.get("exclude_modules") or qcfg.get("exclude_modules"))
        if algo == "NVFP4":
            group = whole(inner.get("group_size"), "group_size", 16)
            return "nvfp4", table(4 + 8 / (group if group > 0 else 16))
        if algo.startswith("FP8"):
            return "fp8", table(8.0)
        return None, ()
    if method in ("awq", "gptq"):
        bits = whole(qcfg.get("bits") or qcfg.get("w_bit"), "bits", 4)
        group = whole(qcfg.get("group_size") or qcfg.get("q_group_size"), "group_size", 128)
        zero = bool(qcfg.get("zero_point", True)) if method == "awq" else not qcfg.get("sym", True)
        return f"{method}_int{bits}", table(group_quant_bits(bits, group, zero))
    if method == "fp8":
        block = qcfg.get("weight_block_size")
        extra = 32 / (block[0] * block[1]) if isinstance(block, list) and len(block) == 2 and all(
            isinstance(b, int) and b > 0 for b in block) else 0.0
        return "fp8", table(8 + extra)
    if method == "compressed-tensors":
        groups = qcfg.get("config_groups")
        weights = next((g.get("weights") for g in groups.values() if isinstance(g, dict) and isinstance(g.get("weights"), dict)),
                       None) if isinstance(groups, dict) else None
        if not weights:
            return "fp8", table(8.0)
        bits = whole(weights.get("num_bits"), "num_bits", 8)
        strategy = str(weights.get("strategy", "")).lower()
        group = whole(weights.get("group_size"), "group_size", 0) if strategy == "group" else 0
        kind = str(weights.get("type", "int")).lower()
        if strategy == "block" and isinstance(weights.get("block_structure"), list):
            b0, b1 = (list(weights["block_structure"]) + [128, 128])[:2]
            total: float = bits + 32 / max(1, _as_int(b0, "block_structure", high=1 << 20) * _as_int(b1, "block_structure", high=1 << 20))
        else:
            total = group_quant_bits(bits, group, zero_point=not weights.get("symmetric", True))
        name = f"{'fp' if kind == 'float' else 'int'}{bits}"
        return ("fp8" if name == "fp8" else f"ct_{name}"), table(total)
    if method == "bitsandbytes" or qcfg.get("load_in_4bit") or qcfg.get("load_in_8bit"):
        if qcfg.get("load_in_4bit") or qcfg.get("bnb_4bit_quant_type") and not qcfg.get("load_in_8bit"):
            fmt = str(qcfg.get("bnb_4bit_quant_type") or "nf4").lower()
            nf4_bits = NF4_BITS_DOUBLE_QUANT if qcfg.get("bnb_4bit_use_double_quant") else NF4_BITS_SINGLE
            return (fmt if fmt in ("nf4", "fp4") else "nf4"), () if not skip else table(nf4_bits)
        return "int8", () if not skip else table(8.0)
    return None, ()
