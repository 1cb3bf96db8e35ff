"""Benchmarks for the fit estimator (run: python tests/bench/bench_fit.py).

Speed: one estimate, the largest-context solver and the weights x context grid, as
ratios against the cost of the "weights x 1.2" rule measured in the same run (plus
absolute times against the targets: <= 2 ms per estimate, <= 50 ms per solve,
<= 100 ms per grid).
Accuracy: the public measured set through the fit command (each row's argv, --json),
overall and per engine, next to two rules of thumb.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from services.modelfit.catalogue import default_catalogue  # noqa: E402
from services.modelfit.estimate import estimate  # noqa: E402
from services.modelfit.request import GIB, FitRequest  # noqa: E402
from services.modelfit.gpus import default_gpu_catalogue  # noqa: E402
from services.modelfit.grid import fit_grid  # noqa: E402
from services.modelfit.solver import max_seq_that_fits  # noqa: E402
from tests.fit_validation import (  # noqa: E402
    accuracy, compare, load_model_table, load_points, rule_accuracy,
)

DATA = ROOT / "tests" / "data"


def timed(fn, repeat: int) -> float:
    """Median seconds per call over ``repeat`` calls (after a warm-up)."""
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> int:
    arch = default_catalogue().resolve("meta-llama/Llama-3.1-8B").arch
    infer = FitRequest(engine="vllm", seq=8192, gpu_total_gib=24)
    train = FitRequest(task="train", method="qlora", seq=4096)
    baseline = timed(lambda: arch.total_params * 2 * 1.2 / GIB, 20000)
    one_inf = timed(lambda: estimate(arch, infer), 2000)
    one_train = timed(lambda: estimate(arch, train), 2000)
    solve = timed(lambda: max_seq_that_fits(arch, train, 12 * GIB), 200)
    gpu = default_gpu_catalogue().find("RTX 4060")
    gguf_req = FitRequest(engine="ollama", weights="q4_k_m", seq=8192, gpu_total_gib=gpu.total_gib)
    grid_infer = timed(lambda: fit_grid(arch, gguf_req, gpu), 20)
    grid_train = timed(lambda: fit_grid(arch, train.with_changes(gpu_total_gib=gpu.total_gib), gpu), 20)
    from cli.fit import fit_json

    command = timed(lambda: fit_json(["--model", "meta-llama/Llama-3.1-8B", "--engine", "ollama", "--gpu", "4090", "--grid"]), 10)
    from services.modelfit.plan import plan

    moe = default_catalogue().resolve("Qwen/Qwen3-30B-A3B").arch
    small = default_gpu_catalogue().find("RTX 3060")
    run_plan = timed(lambda: plan(moe, FitRequest(seq=16384), small, 64.0), 10)
    print("speed (median per call)")
    print(f"  baseline 'weights x 1.2'      {baseline * 1e6:9.2f} us   1x")
    print(f"  estimate, vLLM inference      {one_inf * 1e3:9.3f} ms   {one_inf / baseline:8.0f}x baseline   target <= 2 ms: {'ok' if one_inf <= 2e-3 else 'SLOW'}")
    print(f"  estimate, QLoRA training      {one_train * 1e3:9.3f} ms   {one_train / baseline:8.0f}x baseline   target <= 2 ms: {'ok' if one_train <= 2e-3 else 'SLOW'}")
    print(f"  largest context that fits     {solve * 1e3:9.3f} ms   {solve / baseline:8.0f}x baseline   target <= 50 ms: {'ok' if solve <= 50e-3 else 'SLOW'}")
    for label, t in (("grid, Ollama 5x7 (+ offload)", grid_infer), ("grid, training 3x7", grid_train)):
        print(f"  {label:<29} {t * 1e3:9.3f} ms   {t / baseline:8.0f}x baseline   target <= 100 ms: {'ok' if t <= 100e-3 else 'SLOW'}")
    print(f"  run plan, Qwen3-30B-A3B 12 GB {run_plan * 1e3:9.3f} ms   {run_plan / baseline:8.0f}x baseline   target <= 100 ms: {'ok' if run_plan <= 100e-3 else 'SLOW'}")
    print(f"  whole fit --grid --json answer {command * 1e3:8.3f} ms   {command / baseline:8.0f}x baseline   (in-process: parse, estimate, solvers, suggestions, grid)")

    points = load_points(DATA / "vram_measurements_public.csv")
    models = load_model_table(DATA / "vram_models.csv")
    comps = [compare(p, models) for p in points]
    ours = accuracy(comps)
    rules = rule_accuracy(points)
    print()
    print(f"accuracy on the public set through `fit --json` ({ours.n_values} measured values, {ours.n_verdicts} fits/OOM verdicts, "
          f"{ours.not_estimated} rows not estimated)")
    print(f"  {'method':<52}{'MdAPE':>8}{'<=10%':>8}{'<=25%':>8}{'verdicts':>10}")
    rows = [("this estimator, all rows", ours), ("rules of thumb, all rows (LoRA: base x 1.2)", rules)]
    for label, keep in (("inference", lambda p: p.row["task"] == "inference"),
                        ("full training", lambda p: p.row["task"] == "train" and p.row["method"] == "full")):
        subset = [c for c in comps if keep(c.point)]
        rule = "weights x 1.2" if label == "inference" else "16 bytes per parameter"
        rows += [(f"this estimator, {label} rows", accuracy(subset)),
                 (f"{rule}, {label} rows", rule_accuracy([c.point for c in subset]))]
    for engine in sorted({c.point.row["engine"] for c in comps}):
        rows.append((f"this estimator, {engine} rows", accuracy([c for c in comps if c.point.row["engine"] == engine])))
    for name, acc in rows:
        verdicts = f"{acc.verdicts_right}/{acc.n_verdicts}" if acc.n_verdicts else "-"
        if acc.n_values:
            print(f"  {name:<52}{acc.mdape:7.1f}%{acc.within_10:8.0%}{acc.within_25:8.0%}{verdicts:>10}   (n={acc.n_values})")
        else:
            print(f"  {name:<52}{'-':>8}{'-':>8}{'-':>8}{verdicts:>10}   (n=0)")
    mft = [c for c in comps if c.max_tokens is not None]
    if mft:
        print()
        print("largest sequence that fits (max_fit_tokens rows, through the command; test: every row within 30%)")
        for c in mft:
            measured = int(c.point.row["seq_len"])
            print(f"  {c.point.id:<10} {c.point.row['engine']:<8} measured {measured:>7}  estimated {c.max_tokens:>7}"
                  f"  {(c.max_tokens - measured) / measured:+6.0%}")
    checkpoint_sizes()
    worst = sorted((c for c in comps if c.error_pct is not None), key=lambda c: -abs(c.error_pct))[:5]
    print()
    print("largest errors: " + ", ".join(f"{c.point.id} {c.error_pct:+.0f}%" for c in worst))
    return 0


def checkpoint_sizes() -> None:
    """2025-2026 checkpoints (quantised, MoE, MLA): the weights `fit` counts from the published config.json
    against the published file sizes (tests/data/checkpoint_sizes_2026.csv; nothing was fitted to them)."""
    import csv
    import shlex

    from cli.fit import fit_json

    print()
    print("2026 checkpoints: weights from the config vs the published files (GB = 1e9 bytes)")
    errors = []
    with open(DATA / "checkpoint_sizes_2026.csv", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            argv = [a if not a.startswith("tests/") else str(ROOT / a) for a in shlex.split(row["argv"])]
            data = fit_json(argv)
            ours = (data["breakdown"].get("weights", 0.0) + (data["host_gib"] or 0.0 if "llamacpp" in argv else 0.0)) * GIB / 1e9
            published = float(row["published_gb"])
            err = (ours - published) / published * 100
            errors.append(abs(err))
            print(f"  {row['id']} {row['model']:<32} published {published:7.1f}  fit {ours:7.1f}  {err:+5.1f}%")
    print(f"  median |error| {statistics.median(errors):.1f}% over {len(errors)} checkpoints")


if __name__ == "__main__":
    sys.exit(main())
