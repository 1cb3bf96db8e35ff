"""Compare the ``fit`` command with published measurements (a CSV of measured points).

Every figure goes through the command, as a user gets it: each row's columns become
``fit`` arguments (the architecture as a --model-config file, the engine, weights,
sequence, batch, LoRA and memory-saving options; settings no column holds come from
the row's ``flags=`` note), the command runs in-process with --json, and the row's
counter picks the matching figure from the JSON's ``as_measured`` block:
- alloc / active: torch_max_allocated_gib; resv: torch_max_reserved_gib;
- log (an engine's own log): engine_log_gib; smi (nvidia-smi): nvidia_smi_gib;
- fits / oom / max_fit_tokens rows: the command's verdict and largest context for
  a card with that much memory (--vram-gib), or the named card for vLLM.
"""
from __future__ import annotations

import csv
import json
import statistics
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from cli import UsageError
from cli.fit import fit_json

GIB = float(1 << 30)


_WEIGHTS = {"nf4": ("nf4", True), "nf4_nodq": ("nf4", False), "fp4": ("fp4", True), "fp4_nodq": ("fp4", False),
            "f16": ("fp16", True), "f32": ("fp32", True), "gptq": ("int4", True), "awq": ("int4", True),
            "int4": ("int4", True)}
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


def point_config(point: Point, models: dict[str, dict[str, str]]) -> dict[str, object]:
    """The row's architecture as the --model-config JSON a user would write."""
    r = point.row
    extra = models.get(r["model_id"], {})
    return {
        "model_id": r["model_id"], "params_b": float(r["params_b"]), "layers": int(r["layers"]),
        "hidden": int(r["hidden"]), "heads": int(r["heads"]), "kv_heads": int(r["kv_heads"]),
        "head_dim": int(r["head_dim"]), "intermediate": int(r["intermediate"]), "vocab": int(r["vocab"]),
        "tied_embeddings": r["tied_embeddings"] == "1", "mlp": extra.get("mlp", "gated") or "gated",
        "family": extra.get("family", "decoder") or "decoder", "source": r["source"],
    }


# The engine a row names -> what a user gives --engine (HF Trainer is transformers; Answer.AI's
# fsdp_qlora wraps PEFT adapters but loads the 4-bit model itself, without prepare_model_for_kbit_training).
_ENGINE_ARG = {"hf_trainer": "transformers", "fsdp_qlora": "peft", "other": "transformers"}
_FLAG_ARGS = {"compile": "--compile", "chunked_ce": "--chunked-loss", "opt_in_bwd": "--optimizer-in-backward",
              "act_offload": "--activation-offload", "lora_output": "--lora-output"}


def point_argv(point: Point, config_path: Path) -> list[str]:
    """``fit`` arguments for one row, built from its columns the way a user would type them."""
    r = point.row
    flags = point.flags
    engine = r.get("engine") or "transformers"
    train = r["task"] == "train"
    weights, dq = _WEIGHTS.get(r.get("weight_dtype") or "bf16", (r.get("weight_dtype") or "bf16", True))
    gpus = max(1, _int(r.get("num_gpus"), 1))
    strategy = r.get("strategy") or "single"
    if strategy not in _KNOWN_STRATEGIES:
        strategy = "single"
    if gpus > 1 and strategy == "single":
        strategy = "fsdp" if train else "tp"
    argv = ["--model-config", str(config_path), "--task", r["task"],
            "--engine", _ENGINE_ARG.get(engine, engine), "--weights", weights,
            "--seq", str(max(1, _int(r.get("seq_len"), 1))), "--batch", str(max(1, _int(r.get("batch"), 1))),
            "--gpus", str(gpus), "--strategy", strategy]
    if not dq:
        argv.append("--no-double-quant")
    kv = (r.get("kv_dtype") or "").lower()
    if kv in ("fp8", "q8_0", "q4_0"):
        argv += ["--kv-dtype", kv]
    notes = r.get("notes", "")
    # llama.cpp logs "flash_attn 0" when the K*Q score buffer is materialised.
    if "eager_attn" in flags or "flash_attn 0" in notes:
        argv += ["--attention", "eager"]
    if train:
        method = r.get("method") or "lora"
        method = method if method in ("full", "lora", "qlora") else "lora"
        argv += ["--method", method]
        if method == "full":
            argv += ["--precision", {"fp32": "fp32", "fp16": "mixed" if engine == "hf_trainer" else "bf16"}.get(weights, "bf16")]
        else:
            # PEFT's LoraConfig defaults (r=8, q/v on Llama) where a source does not state them.
            argv += ["--lora-rank", str(max(1, _int(r.get("lora_rank"), 8))),
                     "--lora-targets", r.get("lora_targets") if r.get("lora_targets") in ("qv", "qkvo", "all") else "qv"]
        argv.append("--grad-ckpt" if r.get("grad_ckpt") == "1" else "--no-grad-ckpt")
        optimizer = (r.get("optimizer") or "adamw").lower().replace("-", "_")
        optimizer = {"adamw_torch": "adamw", "adam": "adamw", "adamw_8bit": "adamw8bit", "paged_adamw_8bit": "paged_adamw8bit",
                     "paged_adamw_32bit": "paged_adamw"}.get(optimizer, optimizer)
        argv += ["--optimizer", optimizer if optimizer in _KNOWN_OPTIMIZERS else "adamw"]
        if engine == "fsdp_qlora":
            argv.append("--no-kbit-fp32-cast")
        if engine == "torchtune":
            # A torchtune row lists the recipe switches its run had on; the others were off.
            for flag, arg in _FLAG_ARGS.items():
                argv.append(arg if flag in flags else "--no-" + arg[2:])
        else:
            argv += [arg for flag, arg in _FLAG_ARGS.items() if flag in flags]
    if "vllm_v0" in flags:
        argv.append("--vllm-v0")
    ctx = point.flag_value("ctx_mib")
    if ctx:
        argv += ["--cuda-context-gib", f"{int(ctx) / 1024:.4f}"]
    where = r.get("source", "") + " " + notes
    card = "H100" if "H100" in where else ("A100 80GB" if "A100" in where else None)
    if point.kind in ("fits", "oom", "max_fit_tokens"):
        if engine == "vllm" and card:
            argv += ["--gpu", card]  # the row's budget is vLLM's share of that card
        else:
            argv += ["--vram-gib", r["measured_gib"]]
    elif card:
        argv += ["--gpu", card]
    return argv


_COUNTER_KEY = {"alloc": "torch_max_allocated_gib", "active": "torch_max_allocated_gib",
                "resv": "torch_max_reserved_gib", "log": "engine_log_gib", "smi": "nvidia_smi_gib"}


@dataclass(frozen=True, slots=True)
class Comparison:
    point: Point
    estimate_gib: float | None  # value rows: the comparable figure; verdict rows: per-GPU total
    fits: bool | None = None  # verdict rows: the command's verdict
    max_tokens: int | None = None  # max_fit_tokens rows: the command's largest context
    argv: tuple[str, ...] = ()  # the fit arguments that gave the figure

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
    """Our figure for one row, through the ``fit`` command; ``estimate_gib`` None when the command
    refuses the row (reported by ``accuracy`` as not estimated, never silently dropped)."""
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "model.json"
        config.write_text(json.dumps(point_config(point, models)), encoding="utf-8")
        argv = point_argv(point, config)
        try:
            data = fit_json(argv)
        except UsageError:
            return Comparison(point, None, argv=tuple(argv))
    if point.kind == "value":
        return Comparison(point, data["as_measured"][_COUNTER_KEY[point.row["counter"]]], argv=tuple(argv))
    if point.kind in ("fits", "oom"):
        return Comparison(point, data["per_gpu_gib"], fits=data["fits"], argv=tuple(argv))
    if point.kind == "max_fit_tokens":
        return Comparison(point, data["per_gpu_gib"], max_tokens=data["max_seq_that_fits"], argv=tuple(argv))
    return Comparison(point, None, argv=tuple(argv))


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
