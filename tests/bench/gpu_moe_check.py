"""On a machine with an NVIDIA GPU and PyTorch + transformers: measure 2026-style models (MoE, MLA, sliding
windows) built from their published configs with random weights and fewer layers, and compare with what
`fit --model CONFIG.json --json` says for the same trimmed config.

    python3 tests/bench/gpu_moe_check.py            (about 2-4 minutes on an H200; needs ~60 GiB free)

No download: each model is built from tests/data/model_configs/*.json (trimmed to a few layers, bf16, no
quantization_config) with random weights. For each case it prints the weights and the prefill peak that
torch.cuda.memory_allocated / max_memory_allocated saw, next to fit's breakdown "weights" and
as_measured "torch_max_allocated_gib", and the error. Writes the same as JSON to $OUT/gpu_moe_check.json
when OUT is set. A case that fails prints one line and the rest go on.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CONFIGS = ROOT / "tests" / "data" / "model_configs"
GIB = float(1 << 30)

# (config file, layers kept, config changes, sequence length, attention implementation)
CASES = [
    ("Qwen3-30B-A3B", 8, {}, 8192, "sdpa"),
    ("GLM-4.5-Air", 4, {"first_k_dense_replace": 1, "num_nextn_predict_layers": 0}, 8192, "sdpa"),
    ("DeepSeek-V3", 3, {"first_k_dense_replace": 1, "num_nextn_predict_layers": 0}, 4096, "sdpa"),
    ("gpt-oss-20b", 8, {}, 4096, "eager"),
]


def trimmed_config(name: str, layers: int, changes: dict) -> dict:
    cfg = json.loads((CONFIGS / f"{name}.json").read_text(encoding="utf-8"))
    cfg.pop("quantization_config", None)  # random bf16 weights: the runtime parts are what is measured
    cfg.pop("auto_map", None)  # the transformers class, not the checkpoint's remote code
    cfg["num_hidden_layers"] = layers
    if isinstance(cfg.get("layer_types"), list):
        cfg["layer_types"] = cfg["layer_types"][:layers]
    cfg["torch_dtype"] = "bfloat16"
    cfg.update(changes)
    return cfg


def measure(cfg_dir: Path, seq: int, attention: str) -> dict:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    config = AutoConfig.from_pretrained(cfg_dir)
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    with torch.device("cuda"):
        try:
            model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16, attn_implementation=attention)
        except TypeError:  # transformers before dtype= was accepted
            model = AutoModelForCausalLM.from_config(config, torch_dtype=torch.bfloat16, attn_implementation=attention)
    model.eval()
    weights = torch.cuda.memory_allocated() - base
    ids = torch.randint(0, config.vocab_size, (1, seq), device="cuda")
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    with torch.no_grad():
        model(input_ids=ids, use_cache=True, logits_to_keep=1)
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    del model
    torch.cuda.empty_cache()
    return {"weights_gib": weights / GIB, "peak_allocated_gib": peak / GIB}


def estimate(cfg_path: Path, seq: int, attention: str) -> dict:
    """What `fit --model CONFIG --engine transformers --weights bf16 --seq S --attention A --json` says (the
    same services, called directly so that nothing beyond PyTorch's machine is needed)."""
    from services.modelfit.request import FitRequest
    from services.modelfit.estimate import estimate as fit_estimate
    from services.modelfit.report import as_measured
    from services.modelfit.sources import load_config_file

    arch = load_config_file(cfg_path)
    est = fit_estimate(arch, FitRequest(engine="transformers", weights="bf16", seq=seq,
                                        attention="eager" if attention == "eager" else "sdpa"))
    return {"weights_gib": est.gib("weights"), "peak_allocated_gib": as_measured(est)["torch_max_allocated_gib"],
            "params_b": arch.total_params / 1e9}


def main() -> int:
    try:
        import torch
    except ImportError:
        print("PyTorch is not installed here: nothing to measure")
        return 2
    if not torch.cuda.is_available():
        print("no CUDA GPU visible to PyTorch: nothing to measure")
        return 2
    print(f"{torch.cuda.get_device_name(0)}, torch {torch.__version__}")
    rows = []
    for name, layers, changes, seq, attention in CASES:
        started = time.time()
        with tempfile.TemporaryDirectory() as tmp:
            cfg_dir = Path(tmp) / f"{name}-{layers}L"
            cfg_dir.mkdir()
            (cfg_dir / "config.json").write_text(json.dumps(trimmed_config(name, layers, changes)), encoding="utf-8")
            try:
                ours = estimate(cfg_dir / "config.json", seq, attention)
                real = measure(cfg_dir, seq, attention)
            except Exception as exc:  # one case failing must not hide the others
                print(f"{name} ({layers} layers, {seq} tokens): failed: {type(exc).__name__}: {str(exc)[:200]}")
                rows.append({"case": name, "error": f"{type(exc).__name__}: {exc}"[:400]})
                continue
        row = {"case": name, "layers": layers, "seq": seq, "attention": attention, "measured": real, "fit": ours,
               "weights_error_pct": (ours["weights_gib"] - real["weights_gib"]) / real["weights_gib"] * 100,
               "peak_error_pct": (ours["peak_allocated_gib"] - real["peak_allocated_gib"]) / real["peak_allocated_gib"] * 100,
               "seconds": round(time.time() - started, 1)}
        rows.append(row)
        print(f"{name} ({layers} layers, {seq} tokens, {attention}): weights measured {real['weights_gib']:.2f} GiB, "
              f"fit {ours['weights_gib']:.2f} ({row['weights_error_pct']:+.1f}%); prefill peak measured "
              f"{real['peak_allocated_gib']:.2f} GiB, fit {ours['peak_allocated_gib']:.2f} ({row['peak_error_pct']:+.1f}%)"
              f" [{row['seconds']} s]")
    out = os.environ.get("OUT")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / "gpu_moe_check.json").write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
