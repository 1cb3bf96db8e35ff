"""The fit estimator: model sources, formulas, solver and the validation set."""
from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from services.modelfit import gguf
from services.modelfit.arch import EMBED, HEAD, LINEAR
from services.modelfit.catalogue import default_catalogue
from services.modelfit.errors import ModelInputError
from services.modelfit.estimate import estimate
from services.modelfit.kvcache import kv_cache_bytes
from services.modelfit.request import GIB, FitRequest
from services.modelfit.training import lora_params
from services.modelfit.gpus import default_gpu_catalogue, live_gpu_from_snapshot
from services.modelfit.solver import answer, max_seq_that_fits, suggestions
from services.modelfit.sources import arch_from_config, arch_from_param_count, load_model
from tests.fit_validation import accuracy, compare, load_model_table, load_points

DATA = Path(__file__).resolve().parents[1] / "data"


def llama8b():
    return default_catalogue().resolve("meta-llama/Llama-3.1-8B").arch


# ---------------------------------------------------------------- catalogue
def test_catalogue_entries_have_sources_and_consistent_counts():
    cat = default_catalogue()
    assert len(cat.entries) >= 40
    for entry in cat.entries:
        assert entry.arch.source, entry.model_id
        counted = entry.arch.shape_count()
        assert abs(counted - entry.arch.total_params) / entry.arch.total_params < 0.05, entry.model_id


def test_catalogue_covers_the_families_users_ask_about():
    ids = " ".join(e.model_id for e in default_catalogue().entries).lower()
    for family in ("llama-2", "llama-3.1", "llama-3.2", "llama-3.3", "mistral", "mixtral", "qwen2.5", "qwen3",
                   "gemma-2", "gemma-3", "phi-3", "deepseek-r1", "gpt2", "bert"):
        assert family in ids, family


def test_catalogue_lookup_alias_search_and_closest():
    cat = default_catalogue()
    assert cat.resolve("llama3.1-8b").model_id == "meta-llama/Llama-3.1-8B"
    assert cat.resolve("Llama-3.1-8B-Instruct").model_id == "meta-llama/Llama-3.1-8B"
    assert [e.model_id for e in cat.search("qwen 14b")][:1] == ["Qwen/Qwen2.5-14B"]
    with pytest.raises(ModelInputError) as info:
        cat.resolve("Qwen2.5-14X")
    assert "Qwen/Qwen2.5-14B" in info.value.choices


# ---------------------------------------------------------------- config.json
def test_hf_config_fields_gqa_head_dim_and_sliding_window():
    cfg = {"model_type": "gemma2", "num_hidden_layers": 42, "hidden_size": 3584, "num_attention_heads": 16,
           "num_key_value_heads": 8, "head_dim": 256, "intermediate_size": 14336, "vocab_size": 256000,
           "sliding_window": 4096, "torch_dtype": "bfloat16"}
    arch = arch_from_config(cfg)
    assert (arch.kv_heads, arch.head_dim, arch.sliding_layers, arch.native_format) == (8, 256, 21, "bf16")
    assert arch.tied_embeddings  # Gemma ties by default


def test_own_model_config_format(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"params_b": 8.03, "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                                "head_dim": 128, "intermediate": 14336, "vocab": 128256, "tied_embeddings": False}))
    arch = load_model(config_file=path)
    assert arch.total_params == 8_030_000_000 and arch.kv_heads == 8


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", json.dumps({"hidden_size": 4096}),
                                  json.dumps({"num_hidden_layers": -3, "hidden_size": 4096, "num_attention_heads": 32}),
                                  json.dumps({"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
                                              "vocab_size": 10**12})])
def test_malformed_configs_raise_input_errors(tmp_path, text):
    path = tmp_path / "config.json"
    path.write_text(text)
    with pytest.raises(ModelInputError):
        load_model(str(path))


def test_bare_parameter_count_borrows_shapes_but_keeps_the_count():
    arch = arch_from_param_count(7.0)
    assert arch.total_params == 7_000_000_000 and "borrowed" in arch.notes
    for bad in (-1, 0, 1e9):
        with pytest.raises(ModelInputError):
            arch_from_param_count(bad)


# ---------------------------------------------------------------- safetensors / GGUF
def _write_safetensors(path: Path, tensors: dict[str, tuple[str, tuple[int, ...]]]) -> None:
    header, offset = {}, 0
    sizes = {"BF16": 2, "F32": 4, "F16": 2}
    for name, (dtype, shape) in tensors.items():
        n = 1
        for d in shape:
            n *= d
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + n * sizes[dtype]]}
        offset += n * sizes[dtype]
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw)  # header only: no tensor data is ever read


def test_safetensors_header_gives_exact_counts_without_loading_weights(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
                                                    "num_attention_heads": 4, "num_key_value_heads": 2,
                                                    "intermediate_size": 128, "vocab_size": 100, "tie_word_embeddings": False}))
    tensors = {"model.embed_tokens.weight": ("BF16", (100, 64)), "lm_head.weight": ("F32", (100, 64)),
               "model.norm.weight": ("BF16", (64,))}
    for i in range(2):
        tensors[f"model.layers.{i}.self_attn.q_proj.weight"] = ("BF16", (64, 64))
        tensors[f"model.layers.{i}.mlp.down_proj.weight"] = ("BF16", (64, 128))
    _write_safetensors(folder / "model-00001-of-00002.safetensors", dict(list(tensors.items())[:3]))
    _write_safetensors(folder / "model-00002-of-00002.safetensors", dict(list(tensors.items())[3:]))
    arch = load_model(str(folder))
    assert arch.total_params == 100 * 64 * 2 + 64 + 2 * (64 * 64 + 64 * 128)
    assert arch.layers == 2 and arch.kv_heads == 2
    head = [g for g in arch.weight_groups() if g.kind == HEAD][0]
    assert head.dtype == "f32" and head.nbytes == 100 * 64 * 4
    est = estimate(arch, FitRequest(seq=16))
    assert est.parts["weights"] == pytest.approx(100 * 64 * 2 + 100 * 64 * 4 + 64 * 2 + 2 * (64 * 64 + 64 * 128) * 2)


def test_corrupt_safetensors_is_an_input_error(tmp_path):
    bad = tmp_path / "x.safetensors"
    bad.write_bytes(b"\xff" * 20)
    with pytest.raises(ModelInputError):
        load_model(str(bad))


def _tiny_gguf(path: Path, version: int = 3) -> None:
    meta = {"general.architecture": "llama", "general.file_type": 15, "llama.block_count": 2,
            "llama.embedding_length": 256, "llama.attention.head_count": 4, "llama.attention.head_count_kv": 2,
            "llama.feed_forward_length": 512, "llama.context_length": 4096, "tokenizer.ggml.tokens": ["a", "b", "c"]}
    tensors = [("token_embd.weight", (256, 1000), 12), ("output.weight", (256, 1000), 14),
               ("output_norm.weight", (256,), 0)]
    for i in range(2):
        tensors += [(f"blk.{i}.attn_q.weight", (256, 256), 12), (f"blk.{i}.ffn_down.weight", (512, 256), 14),
                    (f"blk.{i}.attn_norm.weight", (256,), 0)]
    from tests.gguf_files import write_gguf

    write_gguf(path, meta, tensors, version=version)


@pytest.mark.parametrize("version", [2, 3])
def test_gguf_header_parser_reads_types_and_sizes(tmp_path, version):
    path = tmp_path / "tiny.gguf"
    _tiny_gguf(path, version)
    header = gguf.read_header(path)
    assert header.version == version and header.metadata["llama.block_count"] == 2
    assert header.metadata["tokenizer.ggml.tokens"] == 3
    sizes = {t.name: t.nbytes for t in header.tensors}
    assert sizes["token_embd.weight"] == 256 * 1000 // 256 * 144  # Q4_K: 144 bytes per 256
    assert sizes["output.weight"] == 256 * 1000 // 256 * 210  # Q6_K: 210 bytes per 256
    arch = load_model(str(path))
    assert (arch.layers, arch.hidden, arch.kv_heads, arch.vocab, arch.native_format) == (2, 256, 2, 1000, "q4_k_m")
    est = estimate(arch, FitRequest(engine="llamacpp", seq=512))
    embd = [g for g in arch.weight_groups() if g.kind == EMBED][0]
    assert est.host_bytes == embd.nbytes  # llama.cpp keeps token_embd in system RAM
    linear = sum(g.nbytes for g in arch.weight_groups() if g.kind in (LINEAR, HEAD))
    assert est.parts["weights"] == pytest.approx(linear + 256 * 4 * 3)


@pytest.mark.parametrize("blob", [b"", b"GGUF", b"GGML" + b"\0" * 40, b"GGUF" + struct.pack("<IQQ", 1, 0, 0),
                                  b"GGUF" + struct.pack("<IQQ", 3, 10**9, 0), b"GGUF" + struct.pack("<IQQ", 3, 1, 1) + b"\x05"])
def test_gguf_rejects_damaged_headers(tmp_path, blob):
    path = tmp_path / "bad.gguf"
    path.write_bytes(blob)
    with pytest.raises(ModelInputError):
        load_model(str(path))


# ---------------------------------------------------------------- formulas
def test_kv_cache_uses_gqa_head_dim_window_and_dtype():
    arch = llama8b()
    assert kv_cache_bytes(arch, 1, 1, "fp16") == 128 * 1024  # 128 KiB per token (research 0.2)
    assert kv_cache_bytes(arch, 1000, 2, "fp8") == kv_cache_bytes(arch, 1000, 2, "fp16") / 2
    assert kv_cache_bytes(arch, 1, 1, "q8_0") == pytest.approx(128 * 1024 * 34 / 64)
    gemma = default_catalogue().resolve("google/gemma-2-9b").arch
    assert kv_cache_bytes(gemma, 1, 1, "fp16") == 42 * 2 * 8 * 256 * 2  # head_dim 256, not 224
    # Past the window only the 21 global layers keep growing.
    assert kv_cache_bytes(gemma, 16384, 1, "fp16") == 2 * 8 * 256 * 2 * (21 * 16384 + 21 * 4096)
    assert kv_cache_bytes(gemma, 16384, 1, "fp16", honour_window=False) == 2 * 8 * 256 * 2 * 42 * 16384
    assert kv_cache_bytes(arch, 100, 1, "fp16", tp=16) == kv_cache_bytes(arch, 100, 1, "fp16") / 8  # replicated heads


def test_qlora_base_weights_match_the_research_figure():
    # Llama-3-8B QLoRA base: linears at 4.127 bpw + 16-bit embed and head = 5.31 GiB (research 0.1).
    est = estimate(llama8b(), FitRequest(task="train", method="qlora", seq=512, kbit_fp32_upcast=False))
    assert est.gib("weights") == pytest.approx(5.31, abs=0.02)


def test_lora_parameter_counts_match_published_values():
    llama2 = default_catalogue().resolve("meta-llama/Llama-2-7b-hf").arch
    assert lora_params(llama2, 8, "qv") == 4_194_304
    assert lora_params(llama8b(), 8, "all") == pytest.approx(21.0e6, rel=0.01)
    assert lora_params(llama8b(), 8, "qv", on_output=True) - lora_params(llama8b(), 8, "qv") == 8 * (4096 + 128256)


def test_training_static_bytes_per_parameter():
    arch = llama8b()
    fp32 = estimate(arch, FitRequest(task="train", method="full", weights="fp32", seq=1, grad_ckpt=True))
    p = arch.total_params
    assert (fp32.parts["weights"] + fp32.parts["gradients"] + fp32.parts["optimizer"]) / p == pytest.approx(16)
    bf16 = estimate(arch, FitRequest(task="train", method="full", weights="bf16", seq=1))
    assert (bf16.parts["weights"] + bf16.parts["gradients"] + bf16.parts["optimizer"]) / p == pytest.approx(8)
    eight = estimate(arch, FitRequest(task="train", method="full", weights="bf16", seq=1, optimizer="adamw8bit"))
    assert eight.parts["optimizer"] / p == pytest.approx(2)
    paged = estimate(arch, FitRequest(task="train", method="full", weights="bf16", seq=1, optimizer="paged_adamw"))
    assert "optimizer" not in paged.parts and paged.host_bytes == pytest.approx(4 * p)


def test_memory_grows_with_context_and_checkpointing_saves():
    arch = llama8b()
    base = FitRequest(task="train", method="lora", seq=2048)
    assert estimate(arch, base.with_changes(seq=4096)).per_gpu_bytes > estimate(arch, base).per_gpu_bytes
    assert estimate(arch, base.with_changes(grad_ckpt=False)).per_gpu_bytes > estimate(arch, base).per_gpu_bytes
    assert estimate(arch, base.with_changes(chunked_loss=True)).per_gpu_bytes < estimate(arch, base).per_gpu_bytes


def test_multi_gpu_strategies_are_per_gpu_figures():
    arch = default_catalogue().resolve("meta-llama/Llama-3.1-70B").arch
    single = estimate(arch, FitRequest(engine="vllm", seq=8192))
    tp4 = estimate(arch, FitRequest(engine="vllm", seq=8192, gpus=4, strategy="tp"))
    assert tp4.parts["weights"] == pytest.approx(single.parts["weights"] / 4)
    assert tp4.total_gib == pytest.approx(tp4.per_gpu_gib * 4)
    train = FitRequest(task="train", method="full", weights="bf16", seq=2048, gpus=8)
    ddp = estimate(arch, train.with_changes(strategy="ddp"))
    fsdp = estimate(arch, train.with_changes(strategy="fsdp"))
    off = estimate(arch, train.with_changes(strategy="fsdp_offload"))
    assert ddp.per_gpu_bytes > fsdp.per_gpu_bytes > off.per_gpu_bytes and off.host_bytes > 0


def test_vllm_preallocation_is_shown_apart():
    est = estimate(llama8b(), FitRequest(engine="vllm", seq=8192, gpu_total_gib=24))
    assert est.engine_reserved_bytes > 0
    assert est.per_gpu_gib < 0.9 * 24


@pytest.mark.parametrize("change", [dict(seq=0), dict(batch=-1), dict(gpus=5000), dict(engine="tgi"),
                                    dict(weights="q4_k_m"), dict(task="train", engine="vllm"),
                                    dict(task="train", method="qlora", weights="bf16"), dict(strategy="fsdp", gpus=2),
                                    dict(gpus=2), dict(kv_dtype="q4_0"), dict(kv_dtype="fp8")])
def test_invalid_requests_raise_input_errors(change):
    with pytest.raises(ModelInputError):
        estimate(llama8b(), FitRequest(**change))


# ---------------------------------------------------------------- solver
def test_max_seq_is_the_boundary():
    arch = llama8b()
    req = FitRequest(task="train", method="qlora")
    budget = 12 * GIB
    best = max_seq_that_fits(arch, req, budget)
    assert 0 < best < arch.max_context
    assert estimate(arch, req.with_changes(seq=best)).per_gpu_bytes <= budget
    assert estimate(arch, req.with_changes(seq=best + 1)).per_gpu_bytes > budget


def test_suggestions_each_carry_their_new_figure_and_help():
    arch = default_catalogue().resolve("Qwen/Qwen2.5-14B").arch
    req = FitRequest(seq=8192)
    ans = answer(arch, req, 16.0)
    assert ans.fits is False and ans.suggestions
    assert any(s.fits for s in ans.suggestions)
    for s in ans.suggestions:
        assert s.per_gpu_gib == pytest.approx(estimate(arch, s.request).per_gpu_gib)
        assert s.per_gpu_gib < ans.estimate.per_gpu_gib
    codes = {s.code for s in suggestions(arch, FitRequest(task="train", method="full", weights="bf16", grad_ckpt=False), 16 * GIB)}
    assert {"grad_ckpt", "adamw8bit", "lora", "qlora"} <= codes


def test_gpu_catalogue_and_live_snapshot():
    gpus = default_gpu_catalogue()
    assert gpus.find("4090").memory_gib == 24
    assert gpus.find("rtx 3060").name == "GeForce RTX 3060 12GB"
    with pytest.raises(ModelInputError) as info:
        gpus.find("RTX 4095")
    assert info.value.choices
    from services.telemetry.model import DeviceState, GpuInfo, GpuSample, Snapshot, SourceStatus
    snap = Snapshot(t=0, status=SourceStatus(DeviceState.OK), gpus=(GpuInfo(0, "NVIDIA GeForce RTX 4090", "u"),),
                    samples=(GpuSample(t=0, index=0, uuid="u", memory_total_mib=24564, memory_used_mib=2048),))
    live = live_gpu_from_snapshot(snap)
    assert live.live and live.memory_gib == pytest.approx((24564 - 2048) / 1024) and live.bandwidth_gbs == 1008
    assert live_gpu_from_snapshot(None) is None


# ---------------------------------------------------------------- validation set
def test_public_measurements_median_error_and_verdicts():
    # Every figure comes from the fit command (validation.compare builds each row's argv and reads --json).
    points = load_points(DATA / "vram_measurements_public.csv")
    models = load_model_table(DATA / "vram_models.csv")
    comparisons = [compare(p, models) for p in points]
    acc = accuracy(comparisons)
    assert acc.n_values >= 25
    assert acc.not_estimated <= 0.1 * len(points), [c.point.id for c in comparisons if c.estimate_gib is None]
    assert acc.mdape <= 10.0, acc
    assert acc.within_25 >= 0.85, acc
    assert acc.n_verdicts >= 5 and acc.verdict_accuracy >= 0.85, acc


def test_validation_figures_are_the_commands_own(capsys, tmp_path):
    # The same argv given to `python main.py fit` prints the figure the validation compared.
    from main import main
    from tests.fit_validation import point_argv, point_config

    points = {p.id: p for p in load_points(DATA / "vram_measurements_public.csv")}
    models = load_model_table(DATA / "vram_models.csv")
    for row_id, key in (("T10", "torch_max_allocated_gib"), ("I08", "engine_log_gib"), ("T60.u16", None)):
        point = points[row_id]
        config = tmp_path / f"{row_id}.json"
        config.write_text(json.dumps(point_config(point, models)))
        assert main(["fit", *point_argv(point, config), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        c = compare(point, models)
        if key:
            assert data["as_measured"][key] == c.estimate_gib
        else:
            assert data["max_seq_that_fits"] == c.max_tokens


def test_speed_estimates_are_in_the_right_range():
    from services.modelfit.speed import estimate_speed

    gpu = default_gpu_catalogue().find("RTX 3070")
    arch = default_catalogue().resolve("meta-llama/Meta-Llama-3-8B").arch
    est = estimate(arch, FitRequest(engine="llamacpp", weights="q4_k_m", seq=512))
    speed = estimate_speed(est, gpu)
    # llama.cpp measured 70.94 tokens/s for this model on this card (research GPU table).
    assert 50 < speed.decode_tokens_per_s < 95
    train = estimate_speed(estimate(arch, FitRequest(task="train", method="lora", seq=2048)), gpu)
    assert train.step_seconds > 0 and train.decode_tokens_per_s is None
    assert estimate_speed(est, None) is None


def test_report_lines_render_in_chinese():
    from services.i18n import Catalog
    from services.modelfit.report import answer_lines

    ans = answer(llama8b(), FitRequest(task="train", method="qlora"), 12.0)
    lines = answer_lines(ans, default_gpu_catalogue().find("3060"), None, Catalog.load("zh_CN").render)
    text = "\n".join(lines)
    assert "权重" in text and "放不下" in text


def test_every_combination_either_estimates_or_says_why():
    """No input combination may crash: it gives non-negative parts or a ModelInputError."""
    import itertools

    from services.modelfit.dtypes import KV_FORMATS, WEIGHT_FORMATS
    from services.modelfit.request import ENGINES, METHODS, OPTIMIZERS, STRATEGIES

    archs = [llama8b(), default_catalogue().resolve("google/gemma-2-9b").arch,
             default_catalogue().resolve("mistralai/Mixtral-8x7B-v0.1").arch,
             default_catalogue().resolve("google-bert/bert-base-uncased").arch]
    ok = refused = 0
    for arch, task, engine, weights, strategy in itertools.product(
            archs, ("inference", "train"), ENGINES, (None, *WEIGHT_FORMATS), STRATEGIES):
        for method, optimizer, kv in ((m, o, k) for m in METHODS for o in OPTIMIZERS[:3] for k in KV_FORMATS[:3]):
            if task == "inference" and (method != "full" or optimizer != "adamw"):
                continue
            req = FitRequest(task=task, method=method, weights=weights, engine=engine, strategy=strategy,
                             gpus=1 if strategy == "single" else 4, optimizer=optimizer, kv_dtype=kv, seq=1024)
            try:
                est = estimate(arch, req)
            except ModelInputError as exc:
                assert str(exc.message)
                refused += 1
                continue
            ok += 1
            assert all(v >= 0 for v in est.parts.values())
            assert est.per_gpu_bytes > 0 and est.total_gib >= est.per_gpu_gib
    assert ok > 500 and refused > 100


# Largest sequence that fits, against the measured max_fit_tokens rows (unsloth's context-length table),
# through the command: every row within 30% either way (a user sizes a run from this figure), unsloth
# included now that its offloaded checkpointing and Cut Cross-Entropy are modelled.
def test_largest_context_rows_are_close_to_the_measured_lengths():
    points = load_points(DATA / "vram_measurements_public.csv")
    models = load_model_table(DATA / "vram_models.csv")
    rows = [compare(p, models) for p in points if p.kind == "max_fit_tokens"]
    assert len(rows) >= 5
    for c in rows:
        measured = int(c.point.row["seq_len"])
        assert 0.7 <= c.max_tokens / measured <= 1.3, (c.point.id, measured, c.max_tokens)


def test_peft_qlora_keeps_unquantised_parameters_and_residual_stream_in_fp32():
    # PEFT's prepare_model_for_kbit_training casts every parameter that is not 4-bit (embeddings,
    # LM head, norms) to fp32; the residual stream that flows from the embedding is then fp32 too.
    arch = llama8b()
    peft = estimate(arch, FitRequest(task="train", method="qlora", seq=4096))
    plain = estimate(arch, FitRequest(task="train", method="qlora", seq=4096, kbit_fp32_upcast=False))
    embed_head = (arch.group_numel(EMBED) + arch.group_numel(HEAD)) * 2  # 2 more bytes each
    assert peft.parts["weights"] - plain.parts["weights"] == pytest.approx(embed_head, rel=0.01)
    # One fp32 checkpoint per layer instead of a 16-bit one.
    assert peft.parts["activations"] - plain.parts["activations"] >= arch.layers * 4096 * arch.hidden * 2
    # Only QLoRA on one GPU or DDP: FSDP QLoRA (TRL skips the cast for sharded QLoRA) and LoRA are unchanged.
    lora = FitRequest(task="train", method="lora", seq=4096)
    assert estimate(arch, lora).parts == estimate(arch, lora.with_changes(kbit_fp32_upcast=False)).parts
    fsdp = FitRequest(task="train", method="qlora", seq=4096, gpus=2, strategy="fsdp")
    assert estimate(arch, fsdp).parts == estimate(arch, fsdp.with_changes(kbit_fp32_upcast=False)).parts


def test_unchunked_loss_peaks_at_three_fp32_copies_of_the_logits():
    # log-softmax backward holds the saved fp32 log-probs, their gradient and the logits' gradient.
    arch = llama8b()
    est = estimate(arch, FitRequest(task="train", method="lora", seq=1000, batch=2))
    assert est.parts["logits"] == pytest.approx(2 * 1000 * arch.vocab * 12)


def test_tensor_parallel_needs_a_gpu_count_that_splits_the_heads():
    from services.modelfit.estimate import tp_sizes
    qwen14 = default_catalogue().resolve("Qwen/Qwen2.5-14B").arch  # 40 heads, 8 KV heads
    assert tp_sizes(qwen14, 64) == (1, 2, 4, 8, 40)
    with pytest.raises(ModelInputError) as info:
        estimate(qwen14, FitRequest(engine="vllm", gpus=3, strategy="tp"))
    text = str(info.value.message)
    assert "3 GPUs" in text and "2, 4, 8, 40" in text
    assert estimate(qwen14, FitRequest(engine="vllm", gpus=8, strategy="tp")).per_gpu_gib > 0
    # Fewer KV heads than GPUs: each KV head is replicated, so 16 GPUs work for 64 heads / 8 KV heads.
    llama70 = default_catalogue().resolve("meta-llama/Llama-3.1-70B").arch
    assert estimate(llama70, FitRequest(engine="vllm", gpus=16, strategy="tp")).per_gpu_gib > 0
    with pytest.raises(ModelInputError):
        estimate(llama70, FitRequest(task="train", method="full", weights="bf16", gpus=6, strategy="tp"))
    # Layer split has no such limit.
    assert estimate(qwen14, FitRequest(gpus=3, strategy="layer_split")).per_gpu_gib > 0


def test_unknown_model_always_gets_three_catalogue_ids():
    cat = default_catalogue()
    ids = {e.model_id for e in cat.entries}
    for name in ("nosuch", "zz", "lama-3.1-8b"):
        got = cat.closest(name)
        assert len(got) == 3 and set(got) <= ids, (name, got)
    assert cat.closest("lama-3.1-8b")[0] == "meta-llama/Llama-3.1-8B"
    with pytest.raises(ModelInputError) as info:
        cat.resolve("nosuch")
    assert len(info.value.choices) == 3


def test_qlora_suggests_skipping_the_fp32_cast_with_its_figure():
    arch = default_catalogue().resolve("Qwen/Qwen2.5-14B").arch
    req = FitRequest(task="train", method="qlora", seq=8192)
    found = {s.code: s for s in suggestions(arch, req, 12 * GIB)}
    skip = found["no_kbit_upcast"]
    assert skip.request.kbit_fp32_upcast is False
    assert skip.per_gpu_gib == pytest.approx(estimate(arch, skip.request).per_gpu_gib)
    assert skip.per_gpu_gib < estimate(arch, req).per_gpu_gib
    assert "no_kbit_upcast" not in {s.code for s in suggestions(arch, req.with_changes(method="lora", weights="bf16"), 12 * GIB)}


def test_gemma3_catalogue_context_and_vocabulary_match_their_configs():
    cat = default_catalogue()
    assert cat.resolve("google/gemma-3-1b-it").arch.max_context == 32768
    for size in ("4b", "12b", "27b"):
        assert cat.resolve(f"google/gemma-3-{size}-it").arch.vocab == 262208


def test_multi_gpu_default_split_and_loss_choice_shared_by_the_command_and_the_page():
    from services.modelfit.engines import default_strategy, loss_mode
    from services.modelfit.grid import context_label

    assert default_strategy(1, "train", "vllm") == "single"
    assert default_strategy(2, "train", "transformers") == "fsdp"
    assert default_strategy(4, "inference", "vllm") == "tp"
    assert default_strategy(2, "inference", "llamacpp") == "layer_split"
    assert [loss_mode(False, False), loss_mode(True, False), loss_mode(True, True)] == ["plain", "chunked", "fused"]
    assert [context_label(4096), context_label(131072), context_label(1000)] == ["4k", "128k", "1000"]
