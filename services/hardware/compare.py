"""Card comparison and recommendation (Qt-free).

Cards are ranked by whether the work fits in their memory, then by dense tensor
throughput (BF16/FP16 at FP32 accumulate, what training really gets on GeForce)
and memory bandwidth per dollar. Sparse and FP4 "AI TOPS" figures are never used.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from collections.abc import Callable, Sequence

from services.hardware.catalog import Gpu
from services.i18n import Msg, translate

GIB = 1024**3


class Task(str, enum.Enum):
    INFERENCE = "inference"
    LORA = "lora"
    FULL_TRAINING = "train"


BYTES_PER_PARAM = {"fp32": 4.0, "bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5}


@dataclass(frozen=True, slots=True)
class Workload:
    """What the user wants to run, reduced to the memory one GPU must hold."""

    vram_needed_gib: float
    task: Task
    label: str  # e.g. "7B bf16 inference" (not translated: it is the user's own input)
    method: Msg  # how the figure was estimated


def estimate_from_params(params_b: float, dtype: str = "bf16", task: Task = Task.INFERENCE,
                         lora_trainable_pct: float = 2.0) -> Workload:
    """Rough memory need from a parameter count (research model-memory.md sec.1.3/1.6).

    - inference: weights x 1.2 (EleutherAI's "+20 %"; KV cache for long contexts not included);
    - LoRA: (weights + trainable params x 2 B x 4) x 1.2 (can-it-run-llm);
    - full training, AdamW mixed precision: 16 B/param (2 weights + 2 grads + 12 optimizer) x 1.2,
      activations not included.
    The model-fit tool gives a proper breakdown; this is the fallback when only a size is known.
    """
    if not (0 < params_b <= 10000) or not math.isfinite(params_b):
        raise ValueError("parameter count must be between 0 and 10000 billion")
    if dtype not in BYTES_PER_PARAM:
        raise ValueError(f"dtype must be one of {', '.join(BYTES_PER_PARAM)}")
    params = params_b * 1e9
    weights = params * BYTES_PER_PARAM[dtype]
    if task is Task.INFERENCE:
        need = weights * 1.2
        method = translate("Compare", "weights x 1.2 (rule of thumb; long contexts need more for the KV cache)")
    elif task is Task.LORA:
        need = (weights + params * lora_trainable_pct / 100.0 * 2 * 4) * 1.2
        method = translate("Compare", "LoRA: weights + adapters with their optimizer state, x 1.2")
    else:
        need = params * 16 * 1.2
        method = translate("Compare", "full training with AdamW in mixed precision: 16 bytes per parameter x 1.2, activations not included")
    return Workload(need / GIB, task, f"{params_b:g}B {dtype} {task.value}", method)


@dataclass(frozen=True, slots=True)
class RankedCard:
    gpu: Gpu
    price_usd: float | None  # None: no launch price on file and none entered ("enter a price")
    price_is_default: bool  # True: launch MSRP from the catalogue (or none); False: the user's price
    fits: bool
    tflops_per_kusd: float | None
    gbs_per_kusd: float | None
    score: float | None

    @property
    def needs_price(self) -> bool:
        return self.price_usd is None


def _weights(task: Task) -> tuple[float, float]:
    # (throughput, bandwidth): token generation is bandwidth-bound, training compute-bound
    return (0.3, 0.7) if task is Task.INFERENCE else (0.7, 0.3)


def rank_cards(gpus: Sequence[Gpu], workload: Workload | None, budget_usd: float | None = None,
               prices: dict[str, float] | None = None) -> list[RankedCard]:
    """Add-in cards, the ones whose memory holds the work first.

    Within "fits" and "too small", priced cards come by value (dense BF16 TFLOPS and
    bandwidth per dollar, weighted by the task), then cards without a price, which are
    listed (workstation and data-centre boards have no launch price on file) so the user
    can enter one: ``prices`` (card key -> USD) overrides or supplies the price.
    ``budget_usd`` drops priced cards above it; unpriced cards stay, since they cannot be judged.
    """
    prices = prices or {}
    task = workload.task if workload else Task.INFERENCE
    w_tflops, w_bw = _weights(task)
    ranked: list[RankedCard] = []
    for gpu in gpus:
        if not gpu.is_add_in_card or gpu.tensor_bf16_dense_tflops is None or not gpu.bandwidth_gbs:
            continue
        price = prices.get(gpu.key, gpu.launch_price_usd)
        price = float(price) if price and price > 0 else None
        if budget_usd is not None and price is not None and price > budget_usd:
            continue
        need = workload.vram_needed_gib if workload else 0.0
        spare = gpu.vram_gb - need
        tpk = bpk = score = None
        if price is not None:
            tpk = gpu.tensor_bf16_dense_tflops / (price / 1000.0)
            bpk = gpu.bandwidth_gbs / (price / 1000.0)
            score = math.exp(w_tflops * math.log(tpk) + w_bw * math.log(bpk))  # weighted geometric mean
        ranked.append(RankedCard(gpu, price, gpu.key not in prices, spare >= 0, tpk, bpk, score))
    ranked.sort(key=lambda r: (not r.fits, r.score is None, -(r.score or 0.0), -r.gpu.vram_gb))
    return ranked


def listed_cards(ranked: Sequence[RankedCard], limit: int = 12) -> list[RankedCard]:
    """The first ``limit`` ranked cards, plus every further card that holds the work."""
    shown = list(ranked[:limit])
    return shown + [r for r in ranked if r.fits and r not in shown]


def cheapest_fitting(gpus: Sequence[Gpu], workload: Workload, prices: dict[str, float] | None = None) -> RankedCard | None:
    """The lowest-priced card (ignoring any budget) whose memory holds the work."""
    fitting = [r for r in rank_cards(gpus, workload, None, prices) if r.fits and r.price_usd is not None]
    return min(fitting, key=lambda r: r.price_usd or 0.0) if fitting else None


@dataclass(frozen=True, slots=True)
class SpecRow:
    key: str
    label: Msg
    values: tuple["str | Msg", ...]  # Msg where the value is words to translate
    best: int | None  # index of the best value, if "higher is better" applies


def connector_text(gpu: Gpu) -> Msg:
    """The card's power input in words (reference board)."""
    conn = gpu.power_connector
    if conn.type == "12v-2x6":
        return translate("Compare", "12V-2x6 / 12VHPWR (16-pin)")
    if conn.type == "12pin-fe":
        return translate("Compare", "12-pin (Founders Edition)")
    if conn.type == "8pin":
        if conn.six_pin:
            return translate("Compare", "{n} x 8-pin + {m} x 6-pin").format(n=conn.count, m=conn.six_pin)
        return translate("Compare", "{n} x 8-pin").format(n=conn.count)
    if conn.type == "6pin":
        return translate("Compare", "{n} x 6-pin").format(n=conn.count)
    if conn.type == "eps-8pin":
        return translate("Compare", "8-pin EPS (CPU type)")
    if conn.type == "none":
        return translate("Compare", "slot power only (75 W)")
    if conn.type == "module":
        return translate("Compare", "SXM module (server baseboard)")
    return translate("Compare", "not known")


def _fmt(value: float | None, unit: str = "", digits: int = 1) -> str:
    if value is None:
        return "-"
    text = f"{value:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{value:,.0f}"
    if unit == "$":
        return f"${text}"
    return f"{text} {unit}".strip()


def rsp_text(gpu: Gpu) -> "str | Msg":
    """NVIDIA's required system power, or why there is none."""
    if gpu.required_system_power_w and gpu.rsp_method == "sibling":
        return translate("Compare", "{w} (the same-GPU {sibling}'s figure)").format(
            w=_fmt(gpu.required_system_power_w, "W", 0), sibling=gpu.rsp_from or "")
    if gpu.required_system_power_w:
        return _fmt(gpu.required_system_power_w, "W", 0)
    if gpu.is_add_in_card:
        return translate("Compare", "none in our sources: sized from the parts")
    return "-"  # laptops and SXM modules: a desktop PSU figure does not apply


def compare_specs(gpus: Sequence[Gpu]) -> list[SpecRow]:
    """Side-by-side rows for up to three cards."""
    gpus = list(gpus)[:3]

    def row(key: str, label: Msg, getter: Callable[[Gpu], float | None], unit: str = "", digits: int = 1,
            higher_better: bool = True) -> SpecRow:
        raw = [getter(g) for g in gpus]
        best = None
        numeric = [(i, v) for i, v in enumerate(raw) if isinstance(v, (int, float))]
        if higher_better and len(numeric) > 1 and len({v for _, v in numeric}) > 1:
            best = max(numeric, key=lambda t: t[1])[0]
        return SpecRow(key, label, tuple(_fmt(v, unit, digits) for v in raw), best)

    def text_row(key: str, label: Msg, getter: Callable[[Gpu], "str | Msg"]) -> SpecRow:
        return SpecRow(key, label, tuple(getter(g) for g in gpus), None)

    yes, no = translate("Compare", "yes"), translate("Compare", "no")
    return [
        text_row("architecture", translate("Compare", "Architecture"), lambda g: g.architecture),
        row("vram_gb", translate("Compare", "Memory"), lambda g: g.vram_gb, "GB", 0),
        text_row("memory_type", translate("Compare", "Memory type, bus"), lambda g: f"{g.memory_type or '-'}, {g.bus_width_bits or '-'}-bit"),
        row("bandwidth_gbs", translate("Compare", "Bandwidth"), lambda g: g.bandwidth_gbs, "GB/s", 0),
        row("tensor_bf16", translate("Compare", "BF16/FP16 tensor, dense, FP32 accumulate"), lambda g: g.tensor_bf16_dense_tflops, "TFLOPS"),
        row("tensor_fp8", translate("Compare", "FP8 tensor, dense"), lambda g: g.tensor_fp8_dense_tflops, "TFLOPS"),
        row("fp32", translate("Compare", "FP32 (non-tensor)"), lambda g: g.fp32_tflops, "TFLOPS"),
        row("tgp_w", translate("Compare", "Board power"), lambda g: g.tgp_w, "W", 0, higher_better=False),
        text_row("rsp_w", translate("Compare", "NVIDIA's required system power"), rsp_text),
        text_row("connector", translate("Compare", "Power connector"), connector_text),
        text_row("pcie", translate("Compare", "PCIe"), lambda g: f"{g.pcie_gen}.0 x{g.pcie_lanes}" if g.pcie_gen else "-"),
        row("slots", translate("Compare", "Width (slots)"), lambda g: g.width_slots, "", 1, higher_better=False),
        text_row("nvlink", translate("Compare", "NVLink"), lambda g: yes if g.nvlink else no),
        text_row("ecc", translate("Compare", "ECC memory"), lambda g: yes if g.ecc else no),
        row("price", translate("Compare", "Launch price (USD)"), lambda g: g.launch_price_usd, "$", 0, higher_better=False),
    ]
