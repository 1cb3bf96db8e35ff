#!/usr/bin/env bash
# Estimate, then measure, on a real NVIDIA GPU: two small PyTorch runs (random weights, no download)
# measured by `fit --measure`, then the stored measurements and the accuracy on them.
# Run from the project's root: bash tests/gpu_workloads/run_on_gpu.sh   (about 1-2 minutes)
# Writes under ${OUT:-gpu-measure-out}/: log.txt, measurements.csv; the app's data under home/.
set -u
OUT="${OUT:-gpu-measure-out}"
mkdir -p "$OUT"
export GPU_ASSISTANT_HOME="$OUT/home"  # the measurements go there, not into the user's data folder
PY="${PYTHON:-python3}"
CFG=tests/gpu_workloads/llama-3.2-1b/config.json
WORK=tests/gpu_workloads/measure_run.py
{
  echo "== $(date -u +%FT%TZ) $($PY --version 2>&1) $(command -v "$PY")"
  nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv 2>&1 | head -5
  echo "== inference: transformers generate, seq 8192, batch 4"
  timeout 240 "$PY" main.py fit --model "$CFG" --seq 8192 --batch 4 \
      --measure -- "$PY" "$WORK" --task inference --seq 8192 --batch 4
  echo "exit code: $?"
  echo "== training: PEFT LoRA r16, seq 2048, batch 4, 3 steps"
  timeout 240 "$PY" main.py fit --model "$CFG" --task train --method lora --engine peft --seq 2048 --batch 4 \
      --measure -- "$PY" "$WORK" --task train --seq 2048 --batch 4 --steps 3
  echo "exit code: $?"
  echo "== a command that does not exist (one line, exit 2)"
  timeout 60 "$PY" main.py fit --model "$CFG" --measure -- no-such-command-xyz
  echo "exit code: $?"
  echo "== stored"
  timeout 60 "$PY" main.py fit --measurements
  timeout 60 "$PY" main.py fit --measurements --csv "$OUT/measurements.csv"
  echo "== later estimate of the same model"
  timeout 60 "$PY" main.py fit --model "$CFG" --seq 8192 --batch 4 --vram-gib 140
  echo "== accuracy with these runs as held-out rows"
  timeout 120 "$PY" tests/bench/bench_fit_accuracy.py --held-out "$OUT/measurements.csv"
} 2>&1 | tee "$OUT/log.txt"
