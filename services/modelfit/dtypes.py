"""Bytes per element of every weight / KV format the estimator knows.

Sources (copied from the project's research notes, model-memory.md section 0.1):
- fp32 4, bf16/fp16 2, fp8 1, bitsandbytes LLM.int8 1 byte per Linear weight.
- bitsandbytes NF4/FP4: 4 bits + one fp32 absmax per 64 weights = 4.5 bits;
  with double quantisation 4 + 8/64 + 32/(64*256) = 4.127 bits (QLoRA paper
  section 3; bitsandbytes ``quantize_4bit(blocksize=64)``).
- GGML/GGUF block formats (ggml-common.h): Q4_0 18 B/32, Q4_1 20/32, Q5_0 22/32,
  Q5_1 24/32, Q8_0 34/32; K-quants per 256-weight super-block: Q2_K 84 B,
  Q3_K 110 B, Q4_K 144 B, Q5_K 176 B, Q6_K 210 B, Q8_K 292 B; IQ types from
  the llama-quantize help (bits per weight).
- GGUF *file types* (Q4_K_M, ...) mix tensor types. Their effective bits per
  weight are llama.cpp's own sizes for Llama-3-8B (tools/quantize/quantize.cpp):
  Q2_K 3.17, Q3_K_S 3.65, Q3_K_M 4.00, Q3_K_L 4.31, Q4_K_S 4.67, Q4_K_M 4.90,
  Q5_K_S 5.57, Q5_K_M 5.70, Q6_K 6.57, Q8_0 8.52. A real GGUF file is read
  tensor by tensor instead (services.modelfit.gguf).
"""
from __future__ import annotations

from dataclasses import dataclass

# ggml type id -> (name, elements per block, bytes per block); ids from ggml.h.
GGML_TYPES: dict[int, tuple[str, int, int]] = {
    0: ("f32", 1, 4),
    1: ("f16", 1, 2),
    2: ("q4_0", 32, 18),
    3: ("q4_1", 32, 20),
    6: ("q5_0", 32, 22),
    7: ("q5_1", 32, 24),
    8: ("q8_0", 32, 34),
    9: ("q8_1", 32, 36),
    10: ("q2_k", 256, 84),
    11: ("q3_k", 256, 110),
    12: ("q4_k", 256, 144),
    13: ("q5_k", 256, 176),
    14: ("q6_k", 256, 210),
    15: ("q8_k", 256, 292),
    16: ("iq2_xxs", 256, 66),
    17: ("iq2_xs", 256, 74),
    18: ("iq3_xxs", 256, 98),
    19: ("iq1_s", 256, 50),
    20: ("iq4_nl", 32, 18),
    21: ("iq3_s", 256, 110),
    22: ("iq2_s", 256, 82),
    23: ("iq4_xs", 256, 136),
    24: ("i8", 1, 1),
    25: ("i16", 1, 2),
    26: ("i32", 1, 4),
    27: ("i64", 1, 8),
    28: ("f64", 1, 8),
    29: ("iq1_m", 256, 56),
    30: ("bf16", 1, 2),
    39: ("mxfp4", 32, 17),  # ggml.h GGML_TYPE_MXFP4; ggml-common.h block_mxfp4: one E8M0 scale + 16 B of nibbles
}

# Plain element formats (also safetensors dtypes, lower-cased).
PLAIN_BITS: dict[str, float] = {
    "fp32": 32, "f32": 32, "float32": 32,
    "bf16": 16, "fp16": 16, "f16": 16, "float16": 16, "bfloat16": 16,
    "fp8": 8, "f8_e4m3": 8, "f8_e5m2": 8, "f8_e4m3fn": 8, "float8_e4m3fn": 8,
    "int8": 8, "i8": 8, "u8": 8, "bool": 8,
    "i16": 16, "i32": 32, "i64": 64, "f64": 64, "fp64": 64, "u16": 16, "u32": 32, "u64": 64,
    "int32": 32, "int64": 64,
}

NF4_BITS_DOUBLE_QUANT = 4 + 8 / 64 + 32 / (64 * 256)  # 4.127
# GPTQ/AWQ int4, group size 128: 4 bits + an fp16 scale and a packed 4-bit zero per 128 weights
# (research 0.1: 4.125-4.25 bits per weight for the linears; the rest stays fp16).
INT4_GROUP_BITS = 4 + 16 / 128 + 4 / 128
NF4_BITS_SINGLE = 4 + 32 / 64  # 4.5
# MXFP4 (OCP Microscaling spec v1.0): blocks of 32 FP4 (E2M1) values sharing one 8-bit E8M0 scale
# = 4 + 8/32 = 4.25 bits; gpt-oss stores the experts so (*_blocks uint8 [.., 16] + *_scales uint8), and
# ggml's block_mxfp4 is the same 17 B per 32 weights.
MXFP4_BITS = 4 + 8 / 32


def group_quant_bits(bits: int, group_size: int | None, zero_point: bool = True, scale_bits: int = 16) -> float:
    """Integer weight-only quantisation (AWQ, GPTQ, compressed-tensors pack-quantized): ``bits`` per weight
    plus one 16-bit scale and (asymmetric) one packed ``bits``-bit zero point per group (AutoAWQ WQLinear:
    qweight int32-packed, qzeros packed per group, scales fp16 per group; GPTQ QuantLinear the same plus a
    g_idx int32 per input row, under 0.01 bit). group_size -1/None: one scale per output row (~0 bits)."""
    if not group_size or group_size <= 0:
        return float(bits)
    return bits + (scale_bits + (bits if zero_point else 0)) / group_size


_GGML_BITS = {type_name: size * 8 / block for type_name, block, size in GGML_TYPES.values()}


def ggml_bits(name: str) -> float | None:
    return _GGML_BITS.get(name)


@dataclass(frozen=True, slots=True)
class GgufFileType:
    """A llama.cpp quantisation mix: the token embedding's type and the average."""

    embed_type: str
    effective_bits: float


GGUF_FILE_TYPES: dict[str, GgufFileType] = {
    "q2_k": GgufFileType("q2_k", 3.17),
    "q3_k_s": GgufFileType("q3_k", 3.65),
    "q3_k_m": GgufFileType("q3_k", 4.00),
    "q3_k_l": GgufFileType("q3_k", 4.31),
    "q4_0": GgufFileType("q4_0", 4.5),
    "q4_1": GgufFileType("q4_1", 5.0),
    "q4_k_s": GgufFileType("q4_k", 4.67),
    "q4_k_m": GgufFileType("q4_k", 4.90),
    "q5_0": GgufFileType("q5_0", 5.5),
    "q5_k_s": GgufFileType("q5_k", 5.57),
    "q5_k_m": GgufFileType("q5_k", 5.70),
    "q6_k": GgufFileType("q6_k", 6.57),
    "q8_0": GgufFileType("q8_0", 8.52),
}

# What the user may pick for the weights (CLI --weights / panel).
WEIGHT_FORMATS: tuple[str, ...] = (
    "fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4", "fp4", "mxfp4",
    "q4_0", "q4_k_m", "q5_k_m", "q6_k", "q8_0",
)
BNB_4BIT = ("nf4", "fp4")
GGUF_FORMATS = tuple(GGUF_FILE_TYPES)

# KV cache element sizes (bytes): vLLM fp8 1; llama.cpp q8_0 34/32, q4_0 18/32.
KV_BYTES: dict[str, float] = {"fp32": 4.0, "fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "q8_0": 34 / 32, "q4_0": 18 / 32}
KV_FORMATS: tuple[str, ...] = ("fp16", "bf16", "fp8", "q8_0", "q4_0")


def plain_bits(name: str) -> float | None:
    name = name.lower()
    if name in PLAIN_BITS:
        return PLAIN_BITS[name]
    return ggml_bits(name)
