"""The one-glance table: weight format (or training method) x context length, each cell fits / tight / no.

A cell is "tight" when it fits with less than TIGHT_SHARE of the memory left: allocator growth, a desktop
session or a longer prompt than planned takes that much. vLLM cells are judged on whether vLLM starts.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.modelfit.arch import ModelArch
from services.modelfit.dtypes import BNB_4BIT
from services.modelfit.errors import ModelInputError
from services.modelfit.estimate import estimate
from services.modelfit.request import GIB, FitRequest
from services.modelfit.weights import weight_format
from services.modelfit.gpus import GpuSpec
from services.modelfit.solver import fits_in, max_gpu_layers, vllm_needs_bytes
from services.modelfit.speed import estimate_speed

TIGHT_SHARE = 0.10
CONTEXTS = (2048, 4096, 8192, 16384, 32768, 65536, 131072)
FITS, TIGHT, NO, INVALID = "fits", "tight", "no", "invalid"


@dataclass(frozen=True, slots=True)
class GridRow:
    label: str  # what the row changes, as the user would type it ("q4_k_m", "qlora nf4")
    changes: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class GridCell:
    row: GridRow
    seq: int
    status: str
    per_gpu_gib: float | None
    tokens_per_s: float | None = None
    gpu_layers: int | None = None  # llama.cpp / Ollama: layers that fit when the whole model does not

    def request(self, base: FitRequest) -> FitRequest:
        """The request this cell stands for (what clicking it applies)."""
        return base.with_changes(seq=self.seq, **dict(self.row.changes))


@dataclass(frozen=True, slots=True)
class FitGrid:
    rows: tuple[GridRow, ...]
    contexts: tuple[int, ...]
    cells: tuple[tuple[GridCell, ...], ...]  # [row][context]
    budget_gib: float


def grid_rows(arch: ModelArch, req: FitRequest) -> tuple[GridRow, ...]:
    if req.task == "train":
        rows = [GridRow("qlora nf4", (("method", "qlora"), ("weights", "nf4"), ("precision", None))),
                GridRow("lora bf16", (("method", "lora"), ("weights", "bf16"), ("precision", None))),
                GridRow("full bf16", (("method", "full"), ("weights", "bf16"), ("precision", None)))]
        return tuple(rows)
    if req.runtime == "llamacpp":
        formats: tuple[str, ...] = ("q8_0", "q6_k", "q5_k_m", "q4_k_m", "q4_0")
    elif req.runtime == "vllm":
        formats = ("bf16", "fp8", "int4")
    else:
        formats = ("bf16", "int8", "nf4")
    native = weight_format(arch, req.with_changes(weights=None))
    if arch.groups and native not in formats and native not in BNB_4BIT:
        formats = (native,)  # a file read tensor by tensor: only its own format is exact
    elif (arch.quant_bits or native == "mxfp4") and native not in formats:
        formats = (native, *formats)  # a quantised checkpoint (AWQ, FP8, MXFP4) as published comes first
    return tuple(GridRow(f, (("weights", f),)) for f in formats)


def grid_contexts(arch: ModelArch) -> tuple[int, ...]:
    top = arch.max_context or CONTEXTS[-1]
    picked = tuple(c for c in CONTEXTS if c <= top)
    return picked or (top,)


def fit_grid(arch: ModelArch, req: FitRequest, gpu: GpuSpec) -> FitGrid:
    budget = gpu.memory_gib * GIB
    rows = grid_rows(arch, req)
    contexts = grid_contexts(arch)
    table = []
    for row in rows:
        line = []
        for seq in contexts:
            cell_req = req.with_changes(seq=seq, gpu_layers=None, **dict(row.changes))
            line.append(_cell(arch, cell_req, row, seq, gpu, budget))
        table.append(tuple(line))
    return FitGrid(rows, contexts, tuple(table), gpu.memory_gib)


def _cell(arch: ModelArch, req: FitRequest, row: GridRow, seq: int, gpu: GpuSpec, budget: float) -> GridCell:
    try:
        est = estimate(arch, req)
    except ModelInputError:
        return GridCell(row, seq, INVALID, None)
    if req.runtime == "vllm" and req.gpu_total_gib is not None:
        capacity = req.gpu_memory_utilization * req.gpu_total_gib * GIB
        used = vllm_needs_bytes(est)
    else:
        capacity, used = budget, est.per_gpu_bytes
    ok = fits_in(est, budget)
    status = (TIGHT if used > capacity * (1 - TIGHT_SHARE) else FITS) if ok else NO
    speed = estimate_speed(est, gpu) if ok else None
    tps = speed.decode_tokens_per_s if speed is not None and speed.decode_tokens_per_s else None
    if speed is not None and speed.train_tokens_per_s:
        tps = speed.train_tokens_per_s
    layers = None
    if not ok and req.runtime == "llamacpp":
        n = max_gpu_layers(arch, req, budget)
        layers = n if n >= 0 else None
    return GridCell(row, seq, status, est.per_gpu_gib, tps, layers)


def grid_to_json(grid: FitGrid) -> dict[str, Any]:
    return {
        "budget_gib": round(grid.budget_gib, 3),
        "contexts": list(grid.contexts),
        "rows": [r.label for r in grid.rows],
        "tight_below_share_left": TIGHT_SHARE,
        "cells": [[{
            "row": c.row.label, "seq": c.seq, "status": c.status,
            "per_gpu_gib": None if c.per_gpu_gib is None else round(c.per_gpu_gib, 3),
            "tokens_per_s": None if c.tokens_per_s is None else round(c.tokens_per_s, 1),
            "gpu_layers_that_fit": c.gpu_layers,
        } for c in line] for line in grid.cells],
    }


def grid_lines(grid: FitGrid, status_text: dict[str, str]) -> list[str]:
    """A fixed-width text table for the terminal: 'GiB mark' per cell."""
    width = max(len(r.label) for r in grid.rows) + 2
    head = " " * width + "".join(f"{context_label(c):>14}" for c in grid.contexts)
    out = [head]
    for row, line in zip(grid.rows, grid.cells, strict=True):
        cells = []
        for c in line:
            if c.per_gpu_gib is None:
                cells.append(f"{'-':>14}")
                continue
            cells.append(f"{c.per_gpu_gib:8.1f} {status_text[c.status]:>5}")
        out.append(f"{row.label:<{width}}" + "".join(cells))
    return out


def context_label(tokens: int) -> str:
    """A grid column heading: 4096 -> "4k", 1000 -> "1000"."""
    return f"{tokens // 1024}k" if tokens % 1024 == 0 else str(tokens)
