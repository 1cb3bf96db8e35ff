"""2025-2026 models: quantised checkpoints, Mixture-of-Experts and expert offload, MLA, sliding windows,
hybrid linear attention, Ollama by version and the run planner. Configs are the published config.json
files (tests/data/model_configs/SOURCES.md), read as a user passes them: ``fit --model FILE``."""
from __future__ import annotations

from pathlib import Path

import pytest

from cli import UsageError
from cli.fit import fit_json
from services.modelfit.arch import EXPERTS
from services.modelfit.catalogue import default_catalogue
from services.modelfit.dtypes import MXFP4_BITS, group_quant_bits
from services.modelfit.estimate import estimate
from services.modelfit.kvcache import kv_cache_bytes
from services.modelfit.request import GIB, FitRequest
from services.modelfit.weights import weight_bytes_by_part
from services.modelfit.gpus import default_gpu_catalogue
from services.modelfit.plan import plan
from services.modelfit.sources import arch_from_config, load_config_file

CONFIGS = Path(__file__).resolve().parents[1] / "data" / "model_configs"


def cfg(name: str) -> str:
    return str(CONFIGS / f"{name}.json")


def arch(name: str):
    return load_config_file(CONFIGS / f"{name}.json")


# ---------------------------------------------------------------- quantization_config
def test_awq_checkpoint_is_read_as_4_bit_not_fp16():
    data = fit_json(["--model", cfg("Qwen2.5-7B-Instruct-AWQ"), "--gpu", "RTX 4060 Ti 8GB"])
    assert data["request"]["weights"] == "awq_int4"
    # 6.53 B linear weights x (4 + 20/128) bits + embedding and head (1.09 B each) in fp16: ~5.2 GiB, not 14.2
    assert data["breakdown"]["weights"] == pytest.approx(5.19, abs=0.05)


def test_gpt_oss_20b_mxfp4_experts_fit_a_16_gb_card():
    a = arch("gpt-oss-20b")
    assert a.native_format == "mxfp4" and dict(a.quant_bits) == {EXPERTS: MXFP4_BITS}
    data = fit_json(["--model", cfg("gpt-oss-20b"), "--gpu", "RTX 4080"])
    # the published checkpoint is 13.8 GB (12.85 GiB); attention, router, embedding, head stay bf16
    assert data["breakdown"]["weights"] == pytest.approx(12.8, abs=0.1)
    assert data["fits"] is True and data["speed_estimate"]["decode_tokens_per_s"] > 0
    bf16 = fit_json(["--model", cfg("gpt-oss-20b"), "--weights", "bf16", "--gpu", "RTX 4090"])
    assert bf16["fits"] is False and bf16["breakdown"]["weights"] > 38


def test_fp8_block_and_per_tensor_and_compressed_tensors_and_bitsandbytes():
    base = {"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
            "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}
    block = arch_from_config({**base, "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}})
    tensor = arch_from_config({**base, "quantization_config": {"quant_method": "fp8", "activation_scheme": "static"}})
    assert dict(block.quant_bits)["mlp"] == pytest.approx(8 + 32 / 16384)
    assert dict(tensor.quant_bits)["mlp"] == 8
    w4a16 = arch_from_config({**base, "quantization_config": {
        "quant_method": "compressed-tensors", "format": "pack-quantized", "ignore": ["lm_head"],
        "config_groups": {"group_0": {"targets": ["Linear"], "weights": {
            "num_bits": 4, "type": "int", "symmetric": True, "strategy": "group", "group_size": 128}}}}})
    assert w4a16.native_format == "ct_int4" and dict(w4a16.quant_bits)["attn"] == pytest.approx(group_quant_bits(4, 128, False))
    skip = arch_from_config({**base, "quantization_config": {
        "quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "nf4",
        "bnb_4bit_use_double_quant": True, "llm_int8_skip_modules": ["self_attn"]}})
    assert "attn" not in dict(skip.quant_bits) and skip.native_format == "nf4"
    # modules_to_not_convert that names one numbered layer does not unquantise every layer
    one = arch_from_config({**base, "quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128,
                                                            "modules_to_not_convert": ["model.layers.0.mlp"]}})
    assert "mlp" in dict(one.quant_bits)


# ---------------------------------------------------------------- MoE, MLA, windows, linear attention
def test_deepseek_v3_counts_671_b_and_caches_the_mla_latent():
    a = arch("DeepSeek-V3")
    assert a.total_params / 1e9 == pytest.approx(671, abs=1)  # not 702: MLA shapes, 3 dense first layers
    assert a.first_dense_layers == 3 and a.moe_layers == 58 and a.active_params() / 1e9 == pytest.approx(37, abs=1)
    # 32k tokens: 61 layers x (512 + 64) x 2 B per token = 2.14 GiB on every one of 8 GPUs (vLLM MLA)
    data = fit_json(["--model", cfg("DeepSeek-V3"), "--engine", "vllm", "--gpus", "8", "--seq", "32768"])
    assert data["breakdown"]["kv_cache"] == pytest.approx(61 * 576 * 2 * 32768 / GIB, rel=0.001)
    # transformers caches decompressed K and V: 128 heads x (192 + 128) per layer
    assert kv_cache_bytes(a, 32768, 1, "bf16", latent=False) > 30 * kv_cache_bytes(a, 32768, 1, "bf16")


def test_moe_totals_and_active_parameters_from_the_configs():
    expect = {"GLM-4.5": (352.8, 33.6), "GLM-4.5-Air": (106.9, 13.4), "Qwen3-235B-A22B": (235.1, 22.2),
              "Qwen3-30B-A3B": (30.5, 3.4), "Llama-4-Scout-17B-16E-Instruct": (108.6, 17.2),
              "Llama-4-Maverick-17B-128E-Instruct": (401.5, 17.2), "gpt-oss-120b": (116.8, 5.7)}
    # Llama 4's totals include its 0.82 B vision tower (Meta's model cards: 109 B and 400 B total, 17 B active);
    # a generated token never runs it.
    for name, (total, active) in expect.items():
        a = arch(name)
        assert a.total_params / 1e9 == pytest.approx(total, abs=0.2), name
        assert a.active_params() / 1e9 == pytest.approx(active, abs=0.2), name
    maverick = arch("Llama-4-Maverick-17B-128E-Instruct")
    assert maverick.moe_layers == 24 and maverick.dense_intermediate == 16384  # interleave_moe_layer_step 2


def test_sliding_and_chunked_layers_stop_at_the_window():
    gemma = arch("gemma-3-27b-it")
    assert gemma.sliding_layers == 52 and gemma.vocab == 262208
    kv_128k = kv_cache_bytes(gemma, 131072, 1, "bf16")
    full = kv_cache_bytes(gemma, 131072, 1, "bf16", honour_window=False)
    assert kv_128k < full / 4  # 10 global layers of 62 hold the whole context
    oss = arch("gpt-oss-20b")
    assert oss.sliding_layers == 12 and oss.sliding_window == 128
    scout = arch("Llama-4-Scout-17B-16E-Instruct")
    assert scout.sliding_window == 8192 and scout.sliding_layers == 36  # attention_chunk_size, 1 in 4 global


def test_qwen3_next_linear_attention_layers_keep_a_fixed_state():
    a = arch("Qwen3-Next-80B-A3B-Instruct")
    assert a.linear_attn_layers == 36 and a.total_params / 1e9 == pytest.approx(79.6, abs=0.3)
    grow = kv_cache_bytes(a, 65536, 1, "bf16") - kv_cache_bytes(a, 32768, 1, "bf16")
    assert grow == 12 * 2 * 2 * 256 * 2 * 32768  # only the 12 full-attention layers grow
    state = kv_cache_bytes(a, 1, 1, "bf16") - 12 * 2 * 2 * 256 * 2
    assert state == 36 * (32 * 128 * 128 + 8192 * 3) * 4


# ---------------------------------------------------------------- expert offload
def _lc(name: str, **kw) -> FitRequest:
    return FitRequest(engine="llamacpp", weights="q4_k_m", seq=16384, attention="flash", **kw)


def test_n_cpu_moe_moves_the_first_layers_experts_and_matches_override_tensor():
    a = arch("Qwen3-30B-A3B")
    full = estimate(a, _lc(a))
    experts = weight_bytes_by_part(a, "q4_k_m", runtime="llamacpp")[EXPERTS]
    ten = estimate(a, _lc(a, cpu_moe_layers=10))
    assert full.per_gpu_bytes - ten.per_gpu_bytes == pytest.approx(experts * 10 / 48, rel=1e-6)
    assert ten.host_bytes - full.host_bytes == pytest.approx(experts * 10 / 48, rel=1e-6)
    every = estimate(a, _lc(a, cpu_moe_layers=48))
    ot = estimate(a, _lc(a, override_tensors=("exps",)))
    assert every.per_gpu_bytes == pytest.approx(ot.per_gpu_bytes)
    # the regex: ffn tensors of layers 13..99 on the CPU (experts, their router: all "ffn_")
    tail = estimate(a, _lc(a, override_tensors=(r"blk\.(1[3-9]|[2-9][0-9])\.ffn_.*",)))
    assert tail.host_bytes - full.host_bytes == pytest.approx(experts * 35 / 48, rel=0.01)
    # and the speed: experts read from RAM are slower than on the GPU, faster than whole layers in RAM
    gpu = default_gpu_catalogue().find("RTX 4090")
    from services.modelfit.speed import estimate_speed
    assert estimate_speed(every, gpu).decode_tokens_per_s < estimate_speed(full, gpu).decode_tokens_per_s


def test_offload_for_a_moe_model_keeps_every_layer_on_the_gpu():
    data = fit_json(["--model", cfg("gpt-oss-120b"), "--engine", "llamacpp", "--gpu", "RTX 4090", "--seq", "32768"])
    off = data["offload"]
    assert data["fits"] is False and off["cpu_moe_layers"] and off["flag"].startswith("-ngl 999 --n-cpu-moe")
    assert off["gpu_gib"] <= 24 and off["decode_tokens_per_s"] > 5
    more = fit_json(["--model", cfg("gpt-oss-120b"), "--engine", "llamacpp", "--gpu", "RTX 4090", "--seq", "32768",
                     "--n-cpu-moe", str(off["cpu_moe_layers"] - 1)])
    assert more["fits"] is False  # one layer fewer does not fit: the smallest N


def test_vllm_cpu_offload_gb_moves_weights_and_slows_decoding():
    on = fit_json(["--model", cfg("Qwen3-30B-A3B"), "--engine", "vllm", "--seq", "8192", "--gpu", "H100"])
    off = fit_json(["--model", cfg("Qwen3-30B-A3B"), "--engine", "vllm", "--seq", "8192", "--gpu", "H100", "--cpu-offload-gb", "20"])
    assert on["breakdown"]["weights"] - off["breakdown"]["weights"] == pytest.approx(20, abs=0.01)
    assert off["host_gib"] == pytest.approx(20, abs=0.01)
    assert off["speed_estimate"]["decode_tokens_per_s"] < on["speed_estimate"]["decode_tokens_per_s"] / 3


def test_engine_options_are_refused_where_they_mean_nothing():
    with pytest.raises(UsageError):
        fit_json(["--model", "meta-llama/Llama-3.1-8B", "--engine", "llamacpp", "--n-cpu-moe", "4"])  # dense
    with pytest.raises(UsageError):
        fit_json(["--model", cfg("Qwen3-30B-A3B"), "--engine", "vllm", "--n-cpu-moe", "4"])
    with pytest.raises(UsageError):
        fit_json(["--model", cfg("Qwen3-30B-A3B"), "--engine", "llamacpp", "-ot", "blk\\.([=CPU"])
    with pytest.raises(UsageError):
        fit_json(["--model", cfg("Qwen3-30B-A3B"), "--engine", "llamacpp", "-ot", "exps"])
    with pytest.raises(UsageError):
        fit_json(["--model", "meta-llama/Llama-3.1-8B", "--weights", "mxfp4"])  # MXFP4 is for experts
    # a tensor sent to another GPU buffer stays on a GPU
    same = fit_json(["--model", cfg("Qwen3-30B-A3B"), "--engine", "llamacpp", "-ot", "exps=CUDA0"])
    plain = fit_json(["--model", cfg("Qwen3-30B-A3B"), "--engine", "llamacpp"])
    assert same["per_gpu_gib"] == plain["per_gpu_gib"]


# ---------------------------------------------------------------- Ollama by version
def test_ollama_ships_gpt_oss_as_mxfp4_and_turned_flash_attention_on_in_0_20():
    data = fit_json(["--model", "openai/gpt-oss-20b", "--engine", "ollama", "--gpu", "RTX 4080"])
    assert data["request"]["weights"] == "mxfp4" and data["request"]["attention"] == "flash"
    old = fit_json(["--model", "openai/gpt-oss-20b", "--engine", "ollama", "--gpu", "RTX 4080", "--ollama-version", "0.19"])
    assert old["request"]["attention"] == "eager"


def test_ollama_0_30_lowers_the_context_before_offloading_layers():
    new = fit_json(["--model", "Qwen/Qwen3-32B", "--engine", "ollama", "--gpu", "RTX 4090"])
    old = fit_json(["--model", "Qwen/Qwen3-32B", "--engine", "ollama", "--gpu", "RTX 4090", "--ollama-version", "0.29"])
    assert old["fits"] is False and old["offload"]["gpu_layers"] < 64
    assert new["fits"] is True and new["request"]["seq"] < 32768 and new["offload"] is None
    # parallel slots multiply the KV cache
    two = fit_json(["--model", "Qwen/Qwen3-8B", "--engine", "ollama", "--seq", "8192", "--parallel", "2"])
    one = fit_json(["--model", "Qwen/Qwen3-8B", "--engine", "ollama", "--seq", "8192"])
    assert two["breakdown"]["kv_cache"] == pytest.approx(2 * one["breakdown"]["kv_cache"])


# ---------------------------------------------------------------- the planner
def test_plan_for_gpt_oss_20b_on_16_gb_runs_on_the_gpu():
    gpu = default_gpu_catalogue().find("RTX 4080")
    p = plan(default_catalogue().resolve("gpt-oss-20b").arch, FitRequest(seq=32768), gpu, host_ram_gib=32)
    best = p.options[0]
    assert best.fits and best.request.gpu_layers is None and best.tokens_per_s and "-ngl 999" in best.command
    assert all(o.tokens_per_s is None for o in p.options if not o.fits)


def test_plan_for_a_moe_model_on_12_gb_offloads_experts_best_first_and_checks_ram():
    gpu = default_gpu_catalogue().find("RTX 3060")
    a = default_catalogue().resolve("Qwen/Qwen3-30B-A3B").arch
    p = plan(a, FitRequest(seq=16384), gpu, host_ram_gib=64)
    first = p.options[0]
    assert first.code == "n_cpu_moe" and "--n-cpu-moe" in first.command and first.gpu_gib <= 12
    speeds = [o.tokens_per_s for o in p.options if o.fits]
    assert speeds == sorted(speeds, reverse=True)
    ngl = next(o for o in p.options if o.code == "ngl" and o.engine == "llamacpp")
    assert first.tokens_per_s > ngl.tokens_per_s  # experts in RAM beat whole layers in RAM
    assert any(o.engine == "ollama" and "PARAMETER num_gpu" in o.command for o in p.options)
    small = plan(a, FitRequest(seq=16384), gpu, host_ram_gib=4)
    assert not any(o.fits and o.ram_ok for o in small.options if o.host_gib > 4)
    assert p.llamacpp_fit is not None and "--fit" in str(p.llamacpp_fit)


def test_fit_plan_json_from_the_command_line():
    data = fit_json(["--model", cfg("gpt-oss-120b"), "--gpu", "RTX 4090", "--plan", "--ram-gib", "96", "--seq", "16384"])
    options = data["plan"]["options"]
    assert options[0]["fits"] and options[0]["decode_tokens_per_s"] and options[0]["engine"] == "llamacpp"
    assert all(o["decode_tokens_per_s"] is None for o in options if not o["fits"])
    with pytest.raises(UsageError):
        fit_json(["--model", cfg("gpt-oss-120b"), "--plan"])  # needs a card


def test_no_split_across_gpus_the_user_does_not_have():
    data = fit_json(["--model", "meta-llama/Llama-3.1-70B", "--method", "qlora", "--gpu", "RTX 4080"])
    for s in data["suggestions"]:
        if s["code"].startswith("gpus_"):
            assert "rented" in s["text"]


def test_catalogue_configs_are_the_test_configs():
    cat = default_catalogue()
    for model_id, name in (("openai/gpt-oss-20b", "gpt-oss-20b"), ("deepseek-ai/DeepSeek-V3", "DeepSeek-V3"),
                           ("zai-org/GLM-4.5", "GLM-4.5"), ("Qwen/Qwen3-Next-80B-A3B-Instruct", "Qwen3-Next-80B-A3B-Instruct")):
        entry = cat.resolve(model_id)
        assert entry.arch.total_params == arch(name).total_params and entry.arch.source.startswith("https://huggingface.co/")


def test_vllm_profile_counts_the_fused_moe_caches():
    a = arch("Qwen3-30B-A3B")
    est = estimate(a, FitRequest(engine="vllm", seq=8192, vllm_max_batched_tokens=8192, gpu_total_gib=80))
    # 8192 tokens x 8 experts x (3 x 768 + 2048) x 2 B, plus the residual and normed input
    expected = 8192 * 8 * (3 * 768 + 2048) * 2 + 8192 * 2 * 2048 * 2
    assert est.parts["activations"] >= expected * 0.999


@pytest.mark.parametrize("changes", [
    {"kv_lora_rank": "big"}, {"n_shared_experts": -1}, {"first_k_dense_replace": 1e9},
    {"quantization_config": {"quant_method": "awq", "bits": "four"}},
    {"quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": float("nan")}},
    {"quantization_config": {"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {
        "num_bits": 8, "type": "float", "strategy": "block", "block_structure": ["x", 128]}}}}},
    {"linear_num_value_heads": 32, "linear_key_head_dim": True},
    {"attention_chunk_size": -5},
])
def test_hostile_2026_fields_are_one_line_errors(tmp_path, changes):
    import json

    from cli import UsageError as Usage

    cfg = json.loads((CONFIGS / "Qwen3-30B-A3B.json").read_text())
    cfg.update(changes)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg, allow_nan=True))
    with pytest.raises(Usage) as info:
        fit_json(["--model", str(path)])
    assert "\n" not in str(info.value)


# ---------------------------------------------------------------- vLLM profile, torchtune, ModelOpt
def test_vllm_profile_peak_is_the_sampler_sort_at_max_num_seqs():
    # _dummy_sampler_run sorts max_num_seqs rows of the vocabulary (top_k = vocab - 1): the bf16 logits, their fp32
    # copy, sorted values + int64 indices, the stable sort's int64 index input and cub's alternate buffers.
    a = arch("gpt-oss-20b")
    est = estimate(a, FitRequest(engine="vllm", seq=16000, gpu_total_gib=79.18, gpu_name="H100"))
    rows = 1024  # max_num_seqs on a >= 70 GiB card (get_batch_defaults)
    assert est.parts["activations"] == pytest.approx(rows * a.vocab * (2 + 4 + 4 + 8 + 8 + 4 + 8) + 8192 * a.hidden * 2)
    # fewer sequences, a smaller sampler peak
    small = estimate(a, FitRequest(engine="vllm", seq=16000, gpu_total_gib=79.18, gpu_name="H100", vllm_max_seqs=64))
    assert small.parts["activations"] < est.parts["activations"] / 4


def test_torchtune_compiled_chunked_loss_and_recompute_do_not_add_up():
    # torchtune's LoRA recipe with compile: the compiled chunk CE saves the 16-bit logits plus one chunk's
    # gradient; the loss's backward is done before the last layer is recomputed, so the larger one counts.
    a = default_catalogue().resolve("meta-llama/Llama-3.1-8B").arch
    req = FitRequest(task="train", method="qlora", engine="torchtune", seq=2048, batch=2, lora_rank=8,
                     chunked_loss=True, compile=True, lora_adapter_bytes=2, kbit_fp32_upcast=False)
    est = estimate(a, req)
    tokens = 4096
    assert est.parts["logits"] == pytest.approx(tokens * a.vocab * (2 + 2 / 8))
    checkpoints = a.layers * tokens * a.hidden * 2
    assert est.parts["activations"] == pytest.approx(checkpoints)  # the recomputed layer fits inside the logits
    uncompiled = estimate(a, req.with_changes(compile=False))
    assert uncompiled.parts["logits"] == pytest.approx(tokens * a.vocab * (2 + 8 / 8))
    # full fine-tuning keeps the sum (its gradients grow through backward)
    full = estimate(a, req.with_changes(method="full", weights="bf16"))
    assert full.parts["activations"] > checkpoints


def test_modelopt_checkpoint_weights_and_its_fp8_kv_cache_under_vllm_auto():
    base = {"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
            "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256, "torch_dtype": "bfloat16"}
    fp8 = arch_from_config({**base, "quantization_config": {
        "quant_method": "modelopt", "quant_algo": "FP8", "kv_cache_quant_algo": "FP8", "exclude_modules": ["lm_head"]}})
    assert fp8.native_format == "fp8" and fp8.kv_cache_format == "fp8" and dict(fp8.quant_bits)["mlp"] == 8
    # hf_quant_config.json's nested layout (producer + quantization), NVFP4 with FP8 scales per 16 weights
    nvfp4 = arch_from_config({**base, "quantization_config": {
        "producer": {"name": "modelopt", "version": "0.29.0"},
        "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8", "group_size": 16, "exclude_modules": ["lm_head"]}}})
    assert nvfp4.native_format == "nvfp4" and dict(nvfp4.quant_bits)["attn"] == 4.5
    # vLLM's --kv-cache-dtype auto follows the checkpoint; a dtype the user names wins; other engines use theirs
    auto = estimate(fp8, FitRequest(engine="vllm", seq=32768, kv_dtype_auto=True))
    named = estimate(fp8, FitRequest(engine="vllm", seq=32768, kv_dtype="fp16"))
    assert named.parts["kv_cache"] == pytest.approx(2 * auto.parts["kv_cache"])
    hf = estimate(fp8, FitRequest(seq=32768, kv_dtype_auto=True))
    assert hf.parts["kv_cache"] == pytest.approx(named.parts["kv_cache"])
    # a plain FP8 checkpoint (quant_method fp8) keeps "auto" = the model's bf16
    plain = arch_from_config({**base, "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}})
    assert plain.kv_cache_format is None


def test_fit_command_uses_a_modelopt_checkpoints_kv_dtype_unless_told(tmp_path):
    import json

    config = {"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
              "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256, "torch_dtype": "bfloat16",
              "max_position_embeddings": 131072,
              "quantization_config": {"quant_method": "modelopt", "quant_algo": "FP8", "kv_cache_quant_algo": "FP8"}}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    auto = fit_json(["--model", str(path), "--engine", "vllm", "--seq", "32768", "--gpu", "H100"])
    named = fit_json(["--model", str(path), "--engine", "vllm", "--seq", "32768", "--gpu", "H100", "--kv-dtype", "fp16"])
    assert auto["breakdown"]["kv_cache"] == pytest.approx(2.0, abs=0.01)  # 32 layers x 32768 x 2 x 1024 x 1 B
    assert named["breakdown"]["kv_cache"] == pytest.approx(4.0, abs=0.01)


# ---------------------------------------------------------------- multimodal checkpoints under unsloth
def test_vision_tower_is_loaded_by_pytorch_and_vllm_not_by_llama_cpp():
    gemma = arch("gemma-3-27b-it")
    # SigLIP: 27 layers x (4 h^2 + 2 h I + ...) + patch and position embeddings + the 1152 x 5376 projector
    assert gemma.vision_params / 1e9 == pytest.approx(0.42, abs=0.01)
    assert gemma.total_params / 1e9 == pytest.approx(27.43, abs=0.02)  # the published 27.4 B
    vision_bytes = gemma.vision_params * 2
    torch_w = estimate(gemma, FitRequest(weights="bf16")).parts["weights"]
    vllm_w = estimate(gemma, FitRequest(engine="vllm", weights="bf16")).parts["weights"]
    gguf = estimate(gemma, FitRequest(engine="llamacpp", weights="q4_k_m"))
    text_only = estimate(gemma.with_changes(vision_params=0), FitRequest(engine="llamacpp", weights="q4_k_m"))
    assert torch_w == pytest.approx(vllm_w) and torch_w - vision_bytes == pytest.approx(
        estimate(gemma.with_changes(vision_params=0), FitRequest(weights="bf16")).parts["weights"])
    assert gguf.parts["weights"] == pytest.approx(text_only.parts["weights"]) and gguf.host_bytes == pytest.approx(text_only.host_bytes)
    # the vision tower stays 16-bit in a 4-bit QLoRA load
    qlora = estimate(gemma, FitRequest(task="train", method="qlora", engine="unsloth", fused_loss=True, lora_adapter_bytes=2, kbit_fp32_upcast=False))
    assert qlora.parts["weights"] - estimate(gemma.with_changes(vision_params=0), FitRequest(
        task="train", method="qlora", engine="unsloth", fused_loss=True, lora_adapter_bytes=2, kbit_fp32_upcast=False)).parts["weights"] == pytest.approx(vision_bytes)


def test_unsloth_multimodal_loss_is_chunked_by_free_memory_not_cut_cross_entropy():
    # Gemma3ForConditionalGeneration's hand-written loss is rewritten to unsloth_fused_ce_loss: chunks of the
    # logits sized so one chunk's fp32 logits stay within min(4 GiB, half the free memory).
    gemma = arch("gemma-3-27b-it")
    req = FitRequest(task="train", method="qlora", engine="unsloth", seq=2048, fused_loss=True, activation_offload=True,
                     lora_adapter_bytes=2, kbit_fp32_upcast=False, optimizer="adamw8bit")
    one_chunk = estimate(gemma, req)  # 2048 x 262208 fp32 logits = 2 GiB <= 4 GiB: one chunk
    assert one_chunk.parts["logits"] == pytest.approx(2048 * gemma.vocab * 10 + 2048 * gemma.hidden * 2)
    long = estimate(gemma, req.with_changes(seq=16000))  # 15.6 GiB of fp32 logits: 4 chunks (a multiple of 4)
    assert long.parts["logits"] == pytest.approx(16000 * gemma.vocab * 10 / 4 + 16000 * gemma.hidden * 2)
    longer = estimate(gemma, req.with_changes(seq=16500))  # 16.1 GiB: 8 chunks keep each under 4 GiB
    assert longer.parts["logits"] == pytest.approx(16500 * gemma.vocab * 10 / 8 + 16500 * gemma.hidden * 2)
    # on a 24 GB card only half of what is left may go to one chunk: more, smaller chunks
    small = estimate(gemma, req.with_changes(seq=16000, gpu_total_gib=24.0))
    assert small.parts["logits"] < long.parts["logits"]
    # a text-only model keeps Cut Cross-Entropy (logits never stored)
    text = estimate(gemma.with_changes(vision_params=0), req.with_changes(seq=16000))
    assert text.parts["logits"] == pytest.approx(16000 * 12)


@pytest.mark.parametrize("qcfg", [
    {"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": -1},
    {"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 0},
    {"quant_method": "modelopt", "quant_algo": "W9A9"},
    {"quant_method": "modelopt", "quantization": "FP8", "kv_cache_quant_algo": {"num_bits": "8"}},
    {"producer": "modelopt", "quantization": {"quant_algo": None, "kv_cache_quant_algo": ["FP8"]}},
])
def test_odd_modelopt_fields_give_a_figure_or_a_one_line_error(qcfg):
    from services.modelfit.errors import ModelInputError

    base = {"model_type": "llama", "num_hidden_layers": 4, "hidden_size": 512, "num_attention_heads": 8,
            "num_key_value_heads": 8, "intermediate_size": 1024, "vocab_size": 1000, "quantization_config": qcfg}
    try:
        a = arch_from_config(base)
    except ModelInputError as exc:
        assert str(exc.message)
        return
    est = estimate(a, FitRequest(engine="vllm", kv_dtype_auto=True, seq=1024))
    assert est.per_gpu_bytes > 0 and all(bits <= 16 for _, bits in a.quant_bits)
