"""llama.cpp tensor placement: which layer tensors -ngl, --n-cpu-moe and -ot/--override-tensor leave on the GPU."""
from __future__ import annotations

import re
from functools import lru_cache

from services.i18n import translate
from services.modelfit.arch import EXPERTS, OTHER, ModelArch
from services.modelfit.errors import ModelInputError
from services.modelfit.request import FitRequest
from services.modelfit.weights import weight_bytes_by_kind, weight_bytes_by_part

# llama.cpp --n-cpu-moe N writes, for each of the first N layers, the override "blk\.{i}\.ffn_(up|down|gate)_(ch|)exps"
# = CPU (common/arg.cpp, llm_ffn_exps_block_regex; LLM_FFN_EXPS_REGEX in common/common.h).
N_CPU_MOE_PATTERN = r"blk\.{layer}\.ffn_(up|down|gate)_(ch|)exps"


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
            raise ModelInputError(translate("FitErrors", "--override-tensor '{regex}' is not a valid regular expression").format(regex=text)) from None
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
