"""Weight memory: the format a model's weights are stored in and their bytes per tensor group."""
from __future__ import annotations

from functools import lru_cache

from services.modelfit.arch import EMBED, EXPERTS, HEAD, LINEAR, OTHER, VISION, ModelArch, TensorGroup
from services.modelfit.dtypes import (
    BNB_4BIT, GGUF_FILE_TYPES, GGUF_FORMATS, INT4_GROUP_BITS, MXFP4_BITS, NF4_BITS_DOUBLE_QUANT, NF4_BITS_SINGLE,
    ggml_bits, plain_bits,
)
from services.modelfit.request import FitRequest


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
