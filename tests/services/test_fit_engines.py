"""``fit --engine unsloth|torchtune|vllm|ollama|llamacpp``, ``--grid`` and the option per setting, through the command."""
from __future__ import annotations

import json

import pytest

from main import main
from cli.fit import fit_json


def run_json(capsys, *args):
    code = main(["fit", *args, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_every_setting_is_an_option_and_reaches_the_request(capsys):
    data = run_json(capsys, "--model", "meta-llama/Llama-3.1-8B", "--task", "train", "--method", "lora",
                    "--activation-offload", "--compile", "--optimizer-in-backward", "--chunked-loss", "--lora-output",
                    "--lora-dtype", "bf16", "--attention", "sdpa", "--gpu", "4090")
    req = data["request"]
    assert req["activation_offload"] and req["compile"] and req["optimizer_in_backward"] and req["chunked_loss"]
    assert req["lora_output"] is True and req["lora_dtype"] == "bf16" and req["attention"] == "sdpa"
    plain = run_json(capsys, "--model", "meta-llama/Llama-3.1-8B", "--task", "train", "--method", "lora", "--gpu", "4090")
    assert data["per_gpu_gib"] < plain["per_gpu_gib"]  # each saver lowers the peak
    assert data["host_gib"] > plain["host_gib"]  # offloaded checkpoints sit in RAM


def test_unsloth_defaults_offload_and_fused_loss_give_long_contexts():
    common = ["--model", "meta-llama/Llama-3.1-8B", "--task", "train", "--method", "qlora", "--lora-rank", "32",
              "--optimizer", "adamw8bit", "--vram-gib", "16"]
    unsloth = fit_json([*common, "--engine", "unsloth"])
    peft = fit_json([*common, "--engine", "peft"])
    assert unsloth["request"]["activation_offload"] and unsloth["request"]["fused_loss"]
    assert not peft["request"]["activation_offload"] and not peft["request"]["fused_loss"]
    # unsloth's point: several times the context on the same card (its blog: ~40k tokens on 16 GB)
    assert unsloth["max_seq_that_fits"] > 4 * peft["max_seq_that_fits"]
    assert 30_000 < unsloth["max_seq_that_fits"] < 60_000
    # and the user can switch a default off
    no_offload = fit_json([*common, "--engine", "unsloth", "--no-activation-offload"])
    assert no_offload["max_seq_that_fits"] < unsloth["max_seq_that_fits"]


def test_torchtune_preselects_the_recipe_defaults():
    full = fit_json(["--model", "meta-llama/Llama-3.1-8B", "--task", "train", "--method", "full", "--engine", "torchtune"])
    assert full["request"]["optimizer"] == "paged_adamw8bit" and full["request"]["optimizer_in_backward"]
    assert full["request"]["chunked_loss"] and not full["request"]["activation_offload"] and not full["request"]["compile"]
    lora = fit_json(["--model", "meta-llama/Llama-3.1-8B", "--task", "train", "--engine", "torchtune"])
    assert lora["request"]["lora_rank"] == 8 and lora["request"]["lora_dtype"] == "bf16"
    assert lora["request"]["optimizer"] == "adamw" and not lora["request"]["optimizer_in_backward"]


def test_vllm_shows_what_it_needs_and_what_it_takes_and_the_largest_max_model_len():
    data = fit_json(["--model", "meta-llama/Llama-3.1-8B", "--engine", "vllm", "--seq", "8192", "--gpu", "4090"])
    v = data["vllm"]
    assert v["takes_at_start_gib"] == pytest.approx(0.9 * 24 + v["cuda_graphs_gib"], abs=0.01)
    assert v["needs_gib"] < 0.9 * 24 and v["starts"] is True
    assert v["largest_max_model_len"] > 8192
    at_limit = fit_json(["--model", "meta-llama/Llama-3.1-8B", "--engine", "vllm", "--seq", str(v["largest_max_model_len"]), "--gpu", "4090"])
    beyond = fit_json(["--model", "meta-llama/Llama-3.1-8B", "--engine", "vllm", "--seq", str(v["largest_max_model_len"] + 64), "--gpu", "4090"])
    assert at_limit["vllm"]["starts"] is True and beyond["vllm"]["starts"] is False
    # a lower share starts with less
    low = fit_json(["--model", "meta-llama/Llama-3.1-8B", "--engine", "vllm", "--gpu", "4090", "--gpu-memory-utilization", "0.7"])
    assert low["vllm"]["largest_max_model_len"] < v["largest_max_model_len"]


def test_ollama_partial_offload_when_the_model_does_not_fit():
    data = fit_json(["--model", "meta-llama/Llama-3.1-70B", "--engine", "ollama", "--weights", "q4_k_m", "--gpu", "4090"])
    assert data["request"]["seq"] == 32768  # Ollama's default for a 24 GiB card
    off = data["offload"]
    assert data["fits"] is False and 0 < off["gpu_layers"] < off["layers"] == 80
    assert off["gpu_gib"] <= 24 and off["host_gib"] > 20 and off["flag"] == f"num_gpu {off['gpu_layers']}"
    assert 0 < off["decode_tokens_per_s"] and data["speed_estimate"] is None  # no speed for what does not fit
    # one layer more does not fit: the command's own --gpu-layers agrees
    more = fit_json(["--model", "meta-llama/Llama-3.1-70B", "--engine", "ollama", "--weights", "q4_k_m", "--gpu", "4090",
                     "--gpu-layers", str(off["gpu_layers"] + 1)])
    assert more["fits"] is False
    same = fit_json(["--model", "meta-llama/Llama-3.1-70B", "--engine", "ollama", "--weights", "q4_k_m", "--gpu", "4090",
                     "--gpu-layers", str(off["gpu_layers"])])
    assert same["fits"] is True and same["host_gib"] == pytest.approx(off["host_gib"], abs=0.01)


def test_llamacpp_flag_and_small_card_default_context():
    data = fit_json(["--model", "meta-llama/Llama-3.1-70B", "--engine", "llamacpp", "--weights", "q4_k_m", "--gpu", "4060"])
    assert data["offload"]["flag"].startswith("-ngl ")
    small = fit_json(["--model", "meta-llama/Llama-3.1-8B", "--engine", "ollama", "--gpu", "4060"])
    assert small["request"]["seq"] == 4096 and small["request"]["weights"] == "q4_k_m"


def test_grid_json_and_text(capsys):
    data = run_json(capsys, "--model", "meta-llama/Llama-3.1-8B", "--engine", "llamacpp", "--weights", "q4_k_m", "--gpu", "4060", "--grid")
    grid = data["grid"]
    assert grid["rows"][0] == "q8_0" and grid["contexts"][0] == 2048
    statuses = {c["status"] for line in grid["cells"] for c in line}
    assert {"fits", "no"} <= statuses
    for line in grid["cells"]:
        gib = [c["per_gpu_gib"] for c in line]
        assert gib == sorted(gib)  # memory grows with context
        for c in line:
            assert (c["status"] in ("fits", "tight")) == (c["per_gpu_gib"] <= grid["budget_gib"])
            if c["status"] == "fits":
                assert c["per_gpu_gib"] <= 0.9 * grid["budget_gib"] and c["tokens_per_s"] > 0
    code = main(["fit", "--model", "meta-llama/Llama-3.1-8B", "--task", "train", "--gpu", "4090", "--grid"])
    text = capsys.readouterr().out
    assert code == 0 and "qlora nf4" in text and "128k" in text


def test_tensor_parallel_error_offers_the_valid_gpu_counts(capsys):
    code = main(["fit", "--model", "meta-llama/Llama-3.1-8B", "--engine", "vllm", "--gpus", "3", "--strategy", "tp"])
    err = capsys.readouterr().err
    assert code == 2 and "2, 4, 8" in err


def test_ollama_without_flash_attention_pays_for_the_score_buffer_and_cannot_quantise_the_cache(capsys):
    # Ollama before 0.20 ran without flash attention unless OLLAMA_FLASH_ATTENTION=1
    ollama = fit_json(["--model", "meta-llama/Llama-3.1-8B", "--engine", "ollama", "--seq", "32768", "--ollama-version", "0.19"])
    flash = fit_json(["--model", "meta-llama/Llama-3.1-8B", "--engine", "ollama", "--seq", "32768", "--attention", "flash"])
    assert flash["request"]["attention"] == "flash"  # the current version's default
    assert ollama["request"]["attention"] == "eager"
    # K*Q scores: n_ctx x n_ubatch x heads x 4 B = 32768 x 512 x 32 x 4 B = 2 GiB, +10% for the rest of the graph
    assert ollama["breakdown"]["engine_buffers"] == pytest.approx(2 * 1.1, abs=0.01)
    assert flash["breakdown"]["engine_buffers"] < 1.0
    code = main(["fit", "--model", "meta-llama/Llama-3.1-8B", "--engine", "ollama", "--kv-dtype", "q8_0", "--ollama-version", "0.12"])
    assert code == 2 and "OLLAMA_FLASH_ATTENTION=1" in capsys.readouterr().err


def test_training_engine_or_method_without_task_answers_for_training(capsys):
    import json

    import main

    for argv in (["--engine", "unsloth"], ["--engine", "torchtune"], ["--method", "qlora"]):
        assert main.main(["fit", "--model", "llama-3.1-8b", "--gpu", "4090", *argv, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["request"]["task"] == "train", argv
    assert main.main(["fit", "--model", "llama-3.1-8b", "--gpu", "4090", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["request"]["task"] == "inference"
