"""Compare the estimator with published measurements (a CSV of measured points).

Each row names what was measured (``counter``); the estimate is reduced to the
same thing before comparing:
- alloc / active (torch max allocated): no CUDA context, no allocator slack;
- resv (torch max reserved): no CUDA context;
- smi (nvidia-smi): everything, with the context the source reports (ctx_mib=N);
- log (an engine's own log): what the engine budgets, without CUDA context,
  allocator slack or CUDA graphs (vLLM logs them apart);
- fit: the whole per-GPU figure against the GPU's memory.
Rows give settings no column holds as ``flags=`` in their notes.
"""
from __future__ import annotations

import csv
import statistics
from dataclasses import dataclass, replace
from pathlib import Path

from services.modelfit.arch import ModelArch
from services.modelfit.errors import ModelInputError
from services.modelfit.estimate import GIB, Estimate, FitRequest, estimate
from services.modelfit.solver import max_seq_that_fits

# Engines that are PyTorch training stacks map to the transformers/PyTorch path.
_TRAIN_ENGINES = {"torchtune", "hf_trainer", "peft", "fsdp_qlora", "unsloth", "other"}
_WEIGHTS = {"nf4": ("nf4", True), "nf4_nodq": ("nf4", False), "fp4": ("fp4", True), "fp4_nodq": ("fp4", False),
            "f16": ("fp16", True), "f32": ("fp32", True), "gptq": ("int4", True), "awq": ("int4", True),
            "int4": ("int4", True)}
_KNOWN_ENGINES = {"transformers", "vllm", "llamacpp", "generic"}
_KNOWN_OPTIMIZERS = {"adamw", "adamw8bit", "paged_adamw", "paged_adamw8bit", "adafactor", "sgd"}
_KNOWN_STRATEGIES = {"single", "ddp", "fsdp", "fsdp_offload", "tp", "layer_split"}


def _int(value: str | None, default: int) -> int:
    try:
        return int(float(value)) if value not in (None, "") else default
    except ValueError:
        return default


@dataclass(frozen=True, slots=True)
class Point:
    row: dict[str, str]

    @property
    def id(self) -> str:
        return self.row["id"]

    @property
    def kind(self) -> str:
        return self.row["kind"]

    @property
    def measured_gib(self) -> float:
        return float(self.row["measured_gib"])

    @property
    def flags(self) -> set[str]:
        notes = self.row.get("notes", "")
        if "flags=" not in notes:
            return set()
        tail = notes.split("flags=", 1)[1].split()[0].split(";")[0]
        return {f.strip() for f in tail.split(",") if f.strip()}

    def flag_value(self, name: str) -> str | None:
        for flag in self.flags:
            if flag.startswith(name + "="):
                return flag.split("=", 1)[1]
        return None


def load_points(path: Path) -> list[Point]:
    with open(path, newline="", encoding="utf-8") as fh:
        return [Point(row) for row in csv.DictReader(fh)]


def load_model_table(path: Path) -> dict[str, dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return {row["model_id"]: row for row in csv.DictReader(fh)}


def point_arch(point: Point, models: dict[str, dict[str, str]]) -> ModelArch:
    r = point.row
    extra = models.get(r["model_id"], {})
    return ModelArch(
        model_id=r["model_id"], layers=int(r["layers"]), hidden=int(r["hidden"]), heads=int(r["heads"]),
        kv_heads=int(r["kv_heads"]), head_dim=int(r["head_dim"]), intermediate=int(r["intermediate"]),
        vocab=int(r["vocab"]), tied_embeddings=r["tied_embeddings"] == "1", mlp=extra.get("mlp", "gated") or "gated",
        family=extra.get("family", "decoder") or "decoder", params=int(round(float(r["params_b"]) * 1e9)),
        source=r["source"])


def point_request(point: Point) -> FitRequest:
    r = point.row
    flags = point.flags
    engine = r.get("engine") or "transformers"
    train = r["task"] == "train"
    weights, dq = _WEIGHTS.get(r.get("weight_dtype") or "bf16", (r.get("weight_dtype") or "bf16", True))
    method = (r.get("method") or "lora") if train else "full"
    if method not in ("full", "lora", "qlora"):
        method = "lora"
    gpus = max(1, _int(r.get("num_gpus"), 1))
    strategy = r.get("strategy") or "single"
    if strategy not in _KNOWN_STRATEGIES:
        strategy = "single"
    if gpus > 1 and strategy == "single":
        strategy = "fsdp" if train else "tp"
    optimizer = (r.get("optimizer") or "adamw").lower().replace("-", "_")
    optimizer = {"adamw_torch": "adamw", "adam": "adamw", "adamw_8bit": "adamw8bit", "paged_adamw_8bit": "paged_adamw8bit",
                 "paged_adamw_32bit": "paged_adamw"}.get(optimizer, optimizer)
    if optimizer not in _KNOWN_OPTIMIZERS:
        optimizer = "adamw"
    kv = (r.get("kv_dtype") or "fp16").lower()
    kv = kv if kv in ("fp8", "q8_0", "q4_0") else "fp16"
    precision = None
    if train and method == "full":
        precision = {"fp32": "fp32", "fp16": "mixed" if engine == "hf_trainer" else "bf16"}.get(weights, "bf16")
    ctx = point.flag_value("ctx_mib")
    notes = r.get("notes", "")
    unsloth = engine == "unsloth"  # fused CE + offloaded gradient checkpoints (research 0.5)
    where = r.get("source", "") + " " + notes
    return FitRequest(
        task=r["task"], method=method, weights=weights, precision=precision,
        kv_dtype=kv,
        engine=engine if engine in _KNOWN_ENGINES else "transformers",
        seq=max(1, _int(r.get("seq_len"), 1)), batch=max(1, _int(r.get("batch"), 1)),
        # PEFT's LoraConfig defaults (r=8, q/v on Llama) where a source does not state them.
        lora_rank=max(1, _int(r.get("lora_rank"), 8)),
        lora_targets=r.get("lora_targets") if r.get("lora_targets") in ("qv", "qkvo", "all") else "qv",
        grad_ckpt=r.get("grad_ckpt") == "1",
        optimizer=optimizer, gpus=gpus, strategy=strategy,
        # llama.cpp logs state "flash_attn 0" when the K*Q score buffer is materialised.
        attention="eager" if "eager_attn" in flags or "flash_attn 0" in notes else "flash",
        chunked_loss="chunked_ce" in flags,
        fused_loss=unsloth,
        optimizer_in_backward="opt_in_bwd" in flags,
        activation_offload="act_offload" in flags or unsloth,
        compile="compile" in flags,
        double_quant=dq,
        lora_on_output="lora_output" in flags,
        # torchtune builds the whole model, adapters included, in bf16; PEFT keeps adapters in fp32.
        lora_adapter_bytes=2 if engine == "torchtune" else 4,
        # Only the transformers + PEFT/TRL recipe runs prepare_model_for_kbit_training on a QLoRA model.
        kbit_fp32_upcast=engine not in ("torchtune", "fsdp_qlora", "unsloth"),
        vllm_legacy="vllm_v0" in flags,
        gpu_total_gib=79.2 if "H100" in where else (80.0 if "A100" in where else None),
        gpu_name="H100" if "H100" in where else ("A100" if "A100" in where else None),
        cuda_context_gib=int(ctx) / 1024 if ctx else None,
    )


def counted_gib(est: Estimate, counter: str) -> float:
    """The part of the estimate the source's counter sees."""
    drop: tuple[str, ...] = ()
    if counter in ("alloc", "active", "log"):
        drop = ("cuda_context", "allocator", "cuda_graphs")
    elif counter == "resv":
        drop = ("cuda_context", "cuda_graphs")
    return sum(v for k, v in est.parts.items() if k not in drop) / GIB


@dataclass(frozen=True, slots=True)
class Comparison:
    point: Point
    estimate_gib: float | None  # value rows: the comparable figure; verdict rows: per-GPU total
    fits: bool | None = None  # verdict rows: our verdict
    max_tokens: int | None = None  # max_fit_tokens rows: our largest sequence

    @property
    def error_pct(self) -> float | None:
        if self.point.kind != "value" or self.estimate_gib is None:
            return None
        return (self.estimate_gib - self.point.measured_gib) / self.point.measured_gib * 100

    @property
    def verdict_right(self) -> bool | None:
        if self.point.kind == "fits":
            return self.fits is True
        if self.point.kind == "oom":
            return self.fits is False
        return None


def compare(point: Point, models: dict[str, dict[str, str]]) -> Comparison:
    """Our figure for one row; ``estimate_gib`` None when the row asks for something the
    estimator refuses (reported by ``accuracy`` as not estimated, never silently dropped)."""
    arch = point_arch(point, models)
    req = point_request(point)
    try:
        est = estimate(arch, req)
    except ModelInputError:
        return Comparison(point, None)
    if point.kind == "value":
        return Comparison(point, counted_gib(est, point.row["counter"]))
    if point.kind in ("fits", "oom"):
        return Comparison(point, est.per_gpu_gib, fits=est.per_gpu_gib <= point.measured_gib)
    if point.kind == "max_fit_tokens":
        best = max_seq_that_fits(arch, req, point.measured_gib * GIB, upper=1 << 20)
        return Comparison(point, est.per_gpu_gib, max_tokens=best)
    return Comparison(point, None)


@dataclass(frozen=True, slots=True)
class Accuracy:
    n_values: int
    mdape: float
    within_10: float
    within_25: float
    n_verdicts: int
    verdicts_right: int
    not_estimated: int = 0

    @property
    def verdict_accuracy(self) -> float:
        return self.verdicts_right / self.n_verdicts if self.n_verdicts else float("nan")


def summarize(errors_pct: list[float], verdicts: list[bool]) -> Accuracy:
    abs_err = [abs(e) for e in errors_pct]
    return Accuracy(
        n_values=len(abs_err), mdape=statistics.median(abs_err) if abs_err else float("nan"),
        within_10=sum(e <= 10 for e in abs_err) / len(abs_err) if abs_err else float("nan"),
        within_25=sum(e <= 25 for e in abs_err) / len(abs_err) if abs_err else float("nan"),
        n_verdicts=len(verdicts), verdicts_right=sum(verdicts))


def accuracy(comparisons: list[Comparison]) -> Accuracy:
    errors = [c.error_pct for c in comparisons if c.error_pct is not None]
    verdicts = [c.verdict_right for c in comparisons if c.verdict_right is not None]
    missing = sum(1 for c in comparisons if c.estimate_gib is None)
    return replace(summarize(errors, verdicts), not_estimated=missing)


# ---- rules of thumb, for comparison
_NOMINAL_BITS = {"fp32": 32, "bf16": 16, "fp16": 16, "f16": 16, "fp8": 8, "int8": 8, "nf4": 4, "nf4_nodq": 4,
                 "fp4_nodq": 4, "fp4": 4, "q4_0": 4, "q4_k_m": 4, "q5_k_m": 5, "q6_k": 6, "q8_0": 8}


def rule_of_thumb_gib(point: Point) -> float:
    """Weights x 1.2 for inference (EleutherAI); 16 bytes per parameter for full
    training; weights x 1.2 of the frozen base for LoRA/QLoRA (can-it-run-llm);
    divided by the GPU count."""
    r = point.row
    params = float(r["params_b"]) * 1e9
    if r["task"] == "train" and r["method"] == "full":
        total = params * 16
    else:
        total = params * _NOMINAL_BITS.get(r["weight_dtype"], 16) / 8 * 1.2
    return total / max(1, int(r["num_gpus"])) / GIB


def rule_accuracy(points: list[Point]) -> Accuracy:
    errors, verdicts = [], []
    for p in points:
        guess = rule_of_thumb_gib(p)
        if p.kind == "value":
            errors.append((guess - p.measured_gib) / p.measured_gib * 100)
        elif p.kind in ("fits", "oom"):
            verdicts.append((guess <= p.measured_gib) == (p.kind == "fits"))
    return summarize(errors, verdicts)
