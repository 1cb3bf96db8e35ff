"""``python main.py fit``: flags, JSON and one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from main import main
from tests.fakes.fake_nvml import NVML_ERROR_LIBRARY_NOT_FOUND, FakeNvml, make_gpu

ROOT = Path(__file__).resolve().parents[2]


def run_cli(capsys, *args):
    code = main(["fit", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_has_the_promised_fields(capsys):
    code, out, _ = run_cli(capsys, "--model", "Qwen/Qwen2.5-14B", "--seq", "8192", "--gpu", "RTX 4080", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("per_gpu_gib", "total_gib", "breakdown", "fits", "max_seq_that_fits", "suggestions", "speed_estimate"):
        assert key in data
    assert data["fits"] is False
    assert data["per_gpu_gib"] == pytest.approx(sum(data["breakdown"].values()), abs=0.01)
    assert data["suggestions"] and all("per_gpu_gib" in s for s in data["suggestions"])
    assert data["speed_estimate"] is None  # no tokens/s for a setup that does not fit (issue 30)
    code, out, _ = run_cli(capsys, "--model", "Qwen/Qwen2.5-14B", "--seq", "8192", "--gpu", "H100", "--json")
    assert json.loads(out)["speed_estimate"]["label"].startswith("rough estimate")


def test_training_flags_and_multi_gpu(capsys):
    code, out, _ = run_cli(capsys, "--model", "llama3.1-8b", "--task", "train", "--method", "lora", "--lora-rank", "64",
                           "--lora-targets", "qkvo", "--no-grad-ckpt", "--optimizer", "paged_adamw8bit", "--gpus", "2",
                           "--strategy", "ddp", "--batch", "2", "--seq", "2048", "--gpu", "4090", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["request"]["lora_rank"] == 64 and data["request"]["grad_ckpt"] is False
    assert data["total_gib"] == pytest.approx(2 * data["per_gpu_gib"], abs=0.01)
    assert isinstance(data["max_seq_that_fits"], int)


def test_text_output_without_gpu(capsys):
    code, out, _ = run_cli(capsys, "--params-b", "7", "--weights", "q4_k_m", "--engine", "llamacpp", "--kv-dtype", "q8_0")
    assert code == 0 and "GiB" in out


def test_model_config_file(capsys, tmp_path):
    cfg = tmp_path / "arch.json"
    cfg.write_text(json.dumps({"params_b": 3.2, "layers": 28, "hidden": 3072, "heads": 24, "kv_heads": 8,
                               "head_dim": 128, "intermediate": 8192, "vocab": 128256, "tied_embeddings": True}))
    code, out, _ = run_cli(capsys, "--model-config", str(cfg), "--json")
    assert code == 0 and json.loads(out)["params_b"] == pytest.approx(3.2)


@pytest.mark.parametrize("args, needle", [
    (["--model", "Qwen2.5-14X"], "Qwen/Qwen2.5-14B"),
    (["--model", "gemma-2-9b", "--engine", "vlm"], "vllm"),
    (["--model", "gemma-2-9b", "--seq", "-3"], "--seq"),
    (["--model", "gemma-2-9b", "--batch", "lots"], "--batch"),
    (["--params-b", "-5"], "params"),
    (["--params-b", "90000"], "params"),
    (["--model", "gemma-2-9b", "--gpu", "RTX 9999"], "GPU"),
    (["--model", "gemma-2-9b", "--weights", "q4km"], "q4_k_m"),
    (["--model", "gemma-2-9b", "--task", "train", "--method", "qlora", "--weights", "bf16"], "nf4"),
    ([], "give a model"),
])
def test_bad_input_exits_2_with_one_line(capsys, args, needle):
    code, out, err = run_cli(capsys, *args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]
    assert "Traceback" not in err


def test_malformed_config_file_exits_2(capsys, tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text("{oops")
    code, _, err = run_cli(capsys, "--model", str(bad))
    assert code == 2 and "not valid JSON" in err


def test_missing_file_exits_2(capsys, tmp_path):
    code, _, err = run_cli(capsys, "--model", str(tmp_path / "nope.gguf"))
    assert code == 2 and "not found" in err


def test_detected_gpu_without_nvml_exits_3(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", FakeNvml(0, init_error=NVML_ERROR_LIBRARY_NOT_FOUND))
    code, _, err = run_cli(capsys, "--model", "gemma-2-9b", "--gpu", "detected")
    assert code == 3 and "NVIDIA driver not found" in err


def test_detected_gpu_uses_live_free_memory(capsys, monkeypatch):
    gpu = make_gpu(0, name="NVIDIA GeForce RTX 4090", mem_total=24 * 2**30, mem_reserved=0, mem_used=20 * 2**30)
    monkeypatch.setitem(sys.modules, "pynvml", FakeNvml([gpu]))
    code, out, _ = run_cli(capsys, "--model", "llama3.1-8b", "--gpu", "detected", "--json")
    data = json.loads(out)
    assert code == 0 and data["gpu"]["live_free_memory"] is True
    assert data["gpu"]["budget_gib"] == pytest.approx(4.0) and data["fits"] is False


def test_fit_command_does_not_import_qt():
    code = "import sys, main; main.main(['fit', '--params-b', '7']); print([m for m in sys.modules if m.startswith('PySide6')])"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip().endswith("[]")


def test_gguf_file_defaults_to_llamacpp(capsys, tmp_path):
    from tests.services.test_modelfit import _tiny_gguf

    path = tmp_path / "tiny.gguf"
    _tiny_gguf(path)
    code, out, _ = run_cli(capsys, "--model", str(path), "--seq", "512", "--json")
    data = json.loads(out)
    assert code == 0 and data["request"]["engine"] == "llamacpp" and data["request"]["weights"] == "q4_k_m"
    assert any("system RAM" in note for note in data["notes"])  # the token embedding stays on the CPU
    code, _, err = run_cli(capsys, "--model", str(path), "--engine", "transformers")
    assert code == 2 and "llamacpp" in err


def test_tensor_parallel_over_a_count_that_does_not_split_the_heads_exits_2(capsys):
    code, out, err = run_cli(capsys, "--model", "qwen2.5-14b", "--strategy", "tp", "--gpus", "3")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "3 GPUs" in lines[0] and "2, 4, 8, 40" in lines[0]


def test_unknown_gpu_or_model_lists_three_real_names(capsys):
    code, out, err = run_cli(capsys, "--model", "llama-3.1-8b", "--gpu", "RTX9999")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "GeForce RTX 4090" in err and err.count(",") >= 2
    code, _, err = run_cli(capsys, "--model", "nosuch")
    assert code == 2 and "meta-llama/Llama-3.1-8B" in err and err.count(",") >= 2


def test_no_model_says_how_to_start(capsys):
    code, out, err = run_cli(capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--model llama-3.1-8b" in err
    from services.modelfit.catalogue import POPULAR_MODELS, default_catalogue
    assert len(POPULAR_MODELS) == 3 and all(m in err for m in POPULAR_MODELS)
    assert all(default_catalogue().get(m) for m in POPULAR_MODELS)
    # The example it prints really works.
    assert main(["fit", "--model", "llama-3.1-8b"]) == 0
