"""A GGUF (v2/v3) header reader: metadata and tensor table, never tensor data.

Layout (ggml docs/gguf.md): magic "GGUF", u32 version, u64 tensor count, u64
metadata count; then metadata ``key: string, type: u32, value``; then for each
tensor ``name, u32 n_dims, u64 dims[n_dims], u32 ggml type, u64 offset``.
Strings are a u64 length plus UTF-8 bytes. Everything is little-endian.
"""
from __future__ import annotations

import errno
import os
import stat
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from services.i18n import TranslatableError, translate
from services.modelfit.dtypes import GGML_TYPES

MAGIC = b"GGUF"
# Sanity limits: a header that claims more than this is corrupt, not a model.
MAX_TENSORS = 1_000_000
MAX_KV = 1_000_000
MAX_STRING = 64 * 1024 * 1024
MAX_ARRAY = 50_000_000
MAX_DEPTH = 8  # arrays of arrays: real files nest one level

# metadata value types
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
T_STRING, T_ARRAY = 8, 9


class GgufError(TranslatableError, ValueError):
    """The file is not a GGUF v2/v3 file or its header is damaged."""



@dataclass(frozen=True, slots=True)
class GgufTensor:
    name: str
    shape: tuple[int, ...]
    ggml_type: int
    offset: int

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def type_name(self) -> str:
        return GGML_TYPES.get(self.ggml_type, (f"type{self.ggml_type}", 1, 0))[0]

    @property
    def nbytes(self) -> int:
        if self.ggml_type not in GGML_TYPES:
            raise GgufError(translate("FitErrors", "unknown ggml tensor type {type} for {name}").format(
                type=self.ggml_type, name=self.name))
        _, block, size = GGML_TYPES[self.ggml_type]
        return self.numel // block * size


@dataclass(frozen=True, slots=True)
class GgufHeader:
    version: int
    metadata: dict[str, Any]
    tensors: tuple[GgufTensor, ...]

    @property
    def architecture(self) -> str:
        return str(self.metadata.get("general.architecture", "llama"))

    def arch_value(self, key: str, default: Any = None) -> Any:
        return self.metadata.get(f"{self.architecture}.{key}", default)


class _Reader:
    def __init__(self, fh: BinaryIO) -> None:
        self.fh = fh

    def read(self, n: int) -> bytes:
        data = self.fh.read(n)
        if len(data) != n:
            raise GgufError(translate("FitErrors", "file ends inside the GGUF header"))
        return data

    def unpack(self, fmt: str) -> Any:
        return struct.unpack(fmt, self.read(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        length = self.unpack("<Q")
        if length > MAX_STRING:
            raise GgufError(translate("FitErrors", "implausible string length in the GGUF header"))
        return self.read(length).decode("utf-8", errors="replace")

    def skip_string(self) -> None:
        length = self.unpack("<Q")
        if length > MAX_STRING:
            raise GgufError(translate("FitErrors", "implausible string length in the GGUF header"))
        self.fh.seek(length, 1)

    def value(self, vtype: int, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise GgufError(translate("FitErrors", "GGUF metadata arrays nested too deeply"))
        if vtype in _SCALARS:
            return self.unpack(_SCALARS[vtype])
        if vtype == T_STRING:
            return self.string()
        if vtype == T_ARRAY:
            item_type = self.unpack("<I")
            count = self.unpack("<Q")
            if count > MAX_ARRAY:
                raise GgufError(translate("FitErrors", "implausible array length in the GGUF header"))
            if item_type == T_STRING:
                # Token lists hold 100k+ strings: skip them, keep only how many.
                for _ in range(count):
                    self.skip_string()
                return _ArrayLen(count)
            if item_type in _SCALARS:
                fmt = _SCALARS[item_type]
                size = struct.calcsize(fmt)
                if count > 4096:  # long numeric arrays (scores, merges): skip
                    self.fh.seek(size * count, 1)
                    return _ArrayLen(count)
                raw = self.read(size * count)
                return list(struct.unpack("<" + fmt[1:] * count, raw))
            return [self.value(item_type, depth + 1) for _ in range(count)]
        raise GgufError(translate("FitErrors", "unknown GGUF metadata type {type}").format(type=vtype))


class _ArrayLen(int):
    """A skipped array: only its length is kept."""


def open_regular(path: Path):  # a binary file object
    """Open ``path`` for reading only if it is a regular file: opened without blocking and then
    type-checked, so a FIFO (a .safetensors shard or .gguf inside a --model folder) is refused
    instead of hanging, a device too. Raises OSError (EINVAL) for those."""
    nonblock = getattr(os, "O_NONBLOCK", 0)  # POSIX only: Windows has no FIFOs in the file system
    fd = os.open(path, os.O_RDONLY | nonblock | getattr(os, "O_BINARY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a FIFO, device or socket)", str(path))
        if nonblock:
            # Back to blocking reads. Only where it was opened non-blocking: on Windows,
            # set_blocking (Python 3.12+) supports pipes only and fails on a file ("Invalid function").
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_header(path: Path) -> GgufHeader:
    try:
        with open_regular(path) as fh:  # a FIFO named .gguf is refused, not waited on
            return parse(fh)
    except OSError as exc:
        raise GgufError(translate("FitErrors", "cannot read {path}: {reason}").format(
            path=path.name, reason=exc.strerror or str(exc))) from exc


def parse(fh: BinaryIO) -> GgufHeader:
    r = _Reader(fh)
    if r.read(4) != MAGIC:
        raise GgufError(translate("FitErrors", "not a GGUF file (bad magic)"))
    version = r.unpack("<I")
    if version not in (2, 3):
        if version == 1:
            raise GgufError(translate("FitErrors", "GGUF version 1 is not supported (re-convert with a current llama.cpp)"))
        raise GgufError(translate("FitErrors", "unsupported GGUF version {version} (big-endian or damaged file?)").format(
            version=version))
    n_tensors = r.unpack("<Q")
    n_kv = r.unpack("<Q")
    if n_tensors > MAX_TENSORS or n_kv > MAX_KV:
        raise GgufError(translate("FitErrors", "implausible tensor or metadata count in the GGUF header"))
    metadata: dict[str, Any] = {}
    for _ in range(n_kv):
        key = r.string()
        metadata[key] = r.value(r.unpack("<I"))
    tensors = []
    for _ in range(n_tensors):
        name = r.string()
        n_dims = r.unpack("<I")
        if not 1 <= n_dims <= 8:
            raise GgufError(translate("FitErrors", "implausible dimension count {count} for tensor {name}").format(
                count=n_dims, name=name))
        shape = tuple(r.unpack("<Q") for _ in range(n_dims))
        ggml_type = r.unpack("<I")
        offset = r.unpack("<Q")
        tensors.append(GgufTensor(name, shape, ggml_type, offset))
    return GgufHeader(version, metadata, tuple(tensors))
