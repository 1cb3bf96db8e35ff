"""The estimator's accuracy on measurements it was not tuned on (run: python tests/bench/bench_fit_accuracy.py).

Every public row goes through the ``fit`` command exactly as in tests/fit_validation.py. Rows whose
figures were used to set or check one of the estimator's constants (``TUNED_ON``, each with the
constant it set) are in-sample: they are counted apart and never enter the held-out table. The
other public rows did not set a constant, but they were in the repository while the estimator was
written, so they are held out in the weak sense only; the table says so.

Truly held-out rows are measurements taken after the fact: ``--held-out FILE.csv`` reads the CSV
``python main.py fit --measurements --csv FILE`` writes (each row's estimate as the app showed it
and the peak nvidia-smi counted), e.g. the real-GPU runs of tests/gpu_workloads/. Next to each group
the "weights x 1.2" rule of thumb on the same rows is the baseline.

``--markdown`` prints the README table.
"""
from __future__ import annotations

import argparse
import csv
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.fit_validation import (  # noqa: E402
    accuracy, compare, load_model_table, load_points, rule_accuracy,
)

DATA = ROOT / "tests" / "data"

# Rows a constant was set or checked on (services/modelfit/inference.py, training.py), and which.
TUNED_ON: dict[str, str] = {
    "I06": "VLLM_V0_NON_TORCH_GIB = 1.79 is this log's non-torch line",
    "I07": "VLLM_V0_TP_EXTRA_GIB = 1.79 is this log's TP2 non-torch line less I06's",
    "I08": "VLLM_NON_TORCH_GIB = 0.13 is this log's non-torch line",
    "I19": "LLAMACPP_GRAPH_EXTRA (10%) was checked against this CUDA log",
    "T19": "the gated activation formula was checked on this row (Llama-3.2-3B)",
    "T20": "COMPILE_ACTIVATION_FACTOR = 0.75 is T20 / T19",
    "T51": "CUDA_CONTEXT_TORCH_GIB cites the same page's 1343 MiB context",
    "T54": "CUDA_CONTEXT_TORCH_GIB cites the same page's 1343 MiB context",
    "T57": "CUDA_CONTEXT_TORCH_GIB cites the same page's 1343 MiB context",
    "T60.hf8": "PEFT k-bit fp32 cast and LOSS_FP32_COPIES = 3 were fitted to the unsloth HF+PEFT context rows",
    "T60.hf24": "PEFT k-bit fp32 cast and LOSS_FP32_COPIES = 3 were fitted to the unsloth HF+PEFT context rows",
    "T60.hf80": "PEFT k-bit fp32 cast and LOSS_FP32_COPIES = 3 were fitted to the unsloth HF+PEFT context rows",
    "T61.hf80": "PEFT k-bit fp32 cast and LOSS_FP32_COPIES = 3 were fitted to the unsloth HF+PEFT context rows",
}


def held_out_file(path: Path) -> tuple[list[float], list[float]]:
    """(errors %, rule-free) from a ``fit --measurements --csv`` export: estimate vs measured peak,
    runs that ended by themselves with exit code 0 only."""
    errors = []
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row.get("status") != "measured" or row.get("exit_code") not in ("0", ""):
                continue
            try:
                est, peak = float(row["estimate_gib"]), float(row["peak_gib"])
            except (KeyError, ValueError):
                continue
            if peak > 0:
                errors.append((est - peak) / peak * 100)
    return errors, []


def line(name: str, acc, base=None) -> str:
    if not acc.n_values and not acc.n_verdicts:
        return f"| {name} | 0 | – | – | – | – | – |"
    values = (f"{acc.mdape:.1f}%", f"{acc.within_10:.0%}", f"{acc.within_25:.0%}") if acc.n_values else ("–", "–", "–")
    verdicts = f"{acc.verdicts_right}/{acc.n_verdicts}" if acc.n_verdicts else "–"
    rule = f"{base.mdape:.0f}%" if base is not None and base.n_values else "–"
    return f"| {name} | {acc.n_values} | {values[0]} | {values[1]} | {values[2]} | {verdicts} | {rule} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-out", action="append", default=[], metavar="FILE.csv",
                        help="measurements exported by fit --measurements --csv (repeatable)")
    parser.add_argument("--markdown", action="store_true", help="print the README table only")
    args = parser.parse_args()

    points = load_points(DATA / "vram_measurements_public.csv")
    models = load_model_table(DATA / "vram_models.csv")
    unknown = set(TUNED_ON) - {p.id for p in points}
    if unknown:
        print(f"TUNED_ON names rows the public set does not have: {sorted(unknown)}", file=sys.stderr)
        return 1
    held = [p for p in points if p.id not in TUNED_ON]
    tuned = [p for p in points if p.id in TUNED_ON]
    comparisons = {p.id: compare(p, models) for p in points}

    def acc(rows, task=None):
        chosen = [p for p in rows if task is None or p.row["task"] == task]
        return accuracy([comparisons[p.id] for p in chosen]), rule_accuracy(chosen)

    header = ("| rows | values | median error | within 10% | within 25% | fits/OOM verdicts right | weights x 1.2 rule |\n"
              "|---|---|---|---|---|---|---|")
    table = [header]
    for name, task in (("public, not used to set a constant: inference", "inference"),
                       ("public, not used to set a constant: training", "train"),
                       ("public, not used to set a constant: all", None)):
        a, b = acc(held, task)
        table.append(line(name, a, b))
    for path in args.held_out:
        errors, _ = held_out_file(Path(path))
        from tests.fit_validation import summarize

        table.append(line(f"measured after the fact: {Path(path).name}", summarize(errors, [])))
    print("\n".join(table))
    if args.markdown:
        return 0
    a, _ = acc(tuned)
    print()
    print(f"In-sample, NOT for the README: {len(tuned)} rows a constant was set on: {a.n_values} values, "
          f"median error {a.mdape:.1f}%, verdicts {a.verdicts_right}/{a.n_verdicts}")
    for pid, why in TUNED_ON.items():
        print(f"  {pid}: {why}")
    worst = sorted((abs(c.error_pct), pid) for pid, c in comparisons.items() if c.error_pct is not None and pid not in TUNED_ON)
    if worst:
        print("Largest held-out errors: " + ", ".join(f"{pid} {comparisons[pid].error_pct:+.1f}%" for _, pid in worst[-5:][::-1]))
    missing = [p.id for p in held if comparisons[p.id].estimate_gib is None]
    if missing:
        print(f"Not estimated (the command refused them): {missing}")
    print(f"Median |error| of all held-out values: {statistics.median(abs(e) for e, _ in worst):.1f}%" if worst else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
