"""GGUF test files written by the reference ``gguf`` package (llama.cpp's gguf-py, a dev dependency), so the
project's reader is checked against files it did not write itself."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

gguf = pytest.importorskip("gguf")
T = gguf.GGUFValueType
Q = gguf.GGMLQuantizationType


def _vtype(value: Any) -> Any:
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, int):
        return T.UINT32 if 0 <= value < 2**32 else T.INT64
    if isinstance(value, float):
        return T.FLOAT32
    if isinstance(value, str):
        return T.STRING
    return T.ARRAY


def write_gguf(path: Path, meta: dict[str, Any], tensors: list[tuple[str, tuple[int, ...], Any]],
               arch: str = "llama", version: int = 3) -> Path:
    """``meta``: key -> value, or key -> (GGUFValueType, value) to force a type. ``tensors``: (name, shape in
    ggml order ne0 first, GGMLQuantizationType or its id). Only the header is written: the reader never
    reads tensor data. ``version`` 2 patches the version word (the v2 and v3 layouts are the same for
    little-endian files)."""
    writer = gguf.GGUFWriter(str(path), arch)
    for key, value in meta.items():
        if key == "general.architecture":
            continue  # the writer adds it from ``arch``
        vtype, value = value if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], T) else (_vtype(value), value)
        sub = None
        if vtype == T.ARRAY:
            sub = T.STRING if value and isinstance(value[0], str) else T.INT32
        writer.add_key_value(key, value, vtype, sub_type=sub)
    for name, shape, qtype in tensors:
        qtype = Q(qtype)
        block, size = gguf.GGML_QUANT_SIZES[qtype]
        numel = 1
        for d in shape:
            numel *= d
        np_shape = tuple(reversed(shape))  # the writer takes numpy order
        if qtype in (Q.F32, Q.F16):
            writer.add_tensor_info(name, np_shape, gguf.np.dtype("float32" if qtype == Q.F32 else "float16"), numel * size)
        else:  # quantised: the byte shape, last axis in bytes
            writer.add_tensor_info(name, np_shape[:-1] + (np_shape[-1] // block * size,), gguf.np.dtype("uint8"),
                                   numel // block * size, raw_dtype=qtype)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    writer.close()
    if version != 3:
        raw = bytearray(path.read_bytes())
        raw[4:8] = version.to_bytes(4, "little")
        path.write_bytes(bytes(raw))
    return path
