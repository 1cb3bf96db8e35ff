"""Hostile model files and flags for ``fit``: a refusal naming the field (exit 2, one line), never a
traceback or an absurd answer. GGUF files are written with the reference ``gguf`` package's writer,
so the reader is checked against files it did not write itself."""
from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from main import main

gguf = pytest.importorskip("gguf")  # dev dependency (requirements-dev.txt)
from tests.gguf_files import write_gguf  # noqa: E402

LLAMA = {"model_type": "llama", "num_hidden_layers": 4, "hidden_size": 256, "num_attention_heads": 4,
         "num_key_value_heads": 2, "intermediate_size": 688, "vocab_size": 1000, "max_position_embeddings": 2048}


def run_fit(capsys, *args):
    code = main(["fit", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_refused(code, out, err, field):
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert field in lines[0], lines[0]
    assert out == ""


def write_bad_gguf(path: Path, meta: dict, tensors=None) -> Path:
    q = gguf.GGMLQuantizationType
    return write_gguf(path, meta, tensors or [("token_embd.weight", (256, 1000), q.F16),
                                              ("blk.0.attn_q.weight", (256, 256), q.Q4_K),
                                              ("output.weight", (256, 1000), q.Q6_K)])


def good_meta(**override):
    t = gguf.GGUFValueType
    meta = {"llama.block_count": (t.UINT32, 1), "llama.embedding_length": (t.UINT32, 256),
            "llama.attention.head_count": (t.UINT32, 4), "llama.attention.head_count_kv": (t.UINT32, 2),
            "llama.feed_forward_length": (t.UINT32, 688), "llama.context_length": (t.UINT32, 4096)}
    meta.update(override)
    return meta


def test_reference_writer_file_is_read_exactly(tmp_path, capsys):
    path = write_bad_gguf(tmp_path / "tiny.gguf", good_meta())
    code, out, err = run_fit(capsys, "--model", str(path), "--json", "--seq", "512")
    assert code == 0, err
    data = json.loads(out)
    assert data["request"]["engine"] == "llamacpp"
    # F16 embedding 256x1000x2 B + Q4_K 256x256 (144 B per 256) + Q6_K 256x1000 (210 B per 256)
    assert data["params_b"] == pytest.approx((256 * 1000 * 2 + 256 * 256) / 1e9, abs=1e-4)
    assert data["breakdown"]["weights"] == pytest.approx((256 * 256 // 256 * 144 + 256 * 1000 // 256 * 210) / 2**30, abs=1e-3)


@pytest.mark.parametrize("key, value, field", [
    ("llama.block_count", (gguf.GGUFValueType.FLOAT32, float("nan")), "llama.block_count"),
    ("llama.block_count", (gguf.GGUFValueType.FLOAT32, float("inf")), "llama.block_count"),
    ("llama.embedding_length", (gguf.GGUFValueType.UINT64, 2**63), "llama.embedding_length"),
    ("llama.attention.head_count", (gguf.GGUFValueType.STRING, "thirty-two"), "llama.attention.head_count"),
    ("llama.context_length", (gguf.GGUFValueType.INT32, -5), "llama.context_length"),
    ("llama.feed_forward_length", (gguf.GGUFValueType.FLOAT64, 1.5), "llama.feed_forward_length"),
])
def test_hostile_gguf_metadata_is_refused_by_name(tmp_path, capsys, key, value, field):
    path = write_bad_gguf(tmp_path / "bad.gguf", good_meta(**{key: value}))
    assert_refused(*run_fit(capsys, "--model", str(path)), field)


def test_gguf_with_absurd_tensor_shape_is_refused(tmp_path, capsys):
    q = gguf.GGMLQuantizationType
    huge = 1 << 62
    path = write_bad_gguf(tmp_path / "huge.gguf", good_meta(), [("token_embd.weight", (huge, 256), q.F32)])
    assert_refused(*run_fit(capsys, "--model", str(path)), "token_embd.weight")


def write_safetensors(path: Path, header: dict | str) -> Path:
    raw = (header if isinstance(header, str) else json.dumps(header)).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw)
    return path


@pytest.mark.parametrize("entry, field", [
    ({"dtype": "BF16", "shape": [-4096, 4096], "data_offsets": [0, 8]}, "shape"),
    ({"dtype": "BF16", "shape": [2**64, 4096], "data_offsets": [0, 8]}, "shape"),
    ({"dtype": "BF16", "shape": ["4096", 4096], "data_offsets": [0, 8]}, "shape"),
    ({"dtype": "BF16", "shape": [4096, 4096], "data_offsets": [100, 8]}, "model.embed_tokens.weight"),
    ({"dtype": ["BF16"], "shape": [4096, 4096], "data_offsets": [0, 8]}, "model.embed_tokens.weight"),
    ({"dtype": "BF16", "shape": [[[[4096]]]], "data_offsets": [0, 8]}, "shape"),
])
def test_hostile_safetensors_header_is_refused(tmp_path, capsys, entry, field):
    path = write_safetensors(tmp_path / "m.safetensors", {"model.embed_tokens.weight": entry})
    assert_refused(*run_fit(capsys, "--model", str(path)), field)


def test_safetensors_header_with_nan_or_deep_nesting(tmp_path, capsys):
    path = write_safetensors(tmp_path / "nan.safetensors", '{"a": {"dtype": "BF16", "shape": [NaN], "data_offsets": [0, 2]}}')
    assert_refused(*run_fit(capsys, "--model", str(path)), "NaN")
    path = write_safetensors(tmp_path / "deep.safetensors", "[" * 100000 + "]" * 100000)
    assert_refused(*run_fit(capsys, "--model", str(path)), "deep.safetensors")


@pytest.mark.parametrize("change, field", [
    ({"num_hidden_layers": float("nan")}, "layers"),
    ({"hidden_size": float("inf")}, "hidden"),
    ({"num_attention_heads": 2**70}, "heads"),
    ({"vocab_size": "32000"}, "vocab"),
    ({"intermediate_size": {"a": [1, 2]}}, "intermediate"),
    ({"num_key_value_heads": -8}, "kv_heads"),
    ({"max_position_embeddings": 1e300}, "max_context"),
    ({"num_local_experts": "eight"}, "experts"),
    ({"sliding_window": float("-inf")}, "sliding_window"),
    ({"tie_word_embeddings": "yes"}, "tie_word_embeddings"),
    ({"params_b": float("nan")}, "params_b"),
    ({"params_b": 1e-30}, "params_b"),
])
def test_hostile_config_values_are_refused_by_name(tmp_path, capsys, change, field):
    cfg = {**LLAMA, **change}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg, allow_nan=True))
    assert_refused(*run_fit(capsys, "--model", str(path)), field)


def test_config_nested_too_deep_is_refused(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text('{"a": ' + "[" * 200000 + "]" * 200000 + "}")
    assert_refused(*run_fit(capsys, "--model", str(path)), "config.json")


@pytest.mark.parametrize("args, field", [
    (["--params-b", "1e-30"], "--params-b"),
    (["--params-b", "nan"], "--params-b"),
    (["--params-b", "inf"], "--params-b"),
    (["--model", "meta-llama/Llama-3.1-8B", "--vram-gib", "nan"], "--vram-gib"),
    (["--model", "meta-llama/Llama-3.1-8B", "--engine", "vllm", "--gpu-memory-utilization", "1.5"], "--gpu-memory-utilization"),
    (["--model", "meta-llama/Llama-3.1-8B", "--engine", "llamacpp", "--weights", "q4_k_m", "--gpu-layers", "-1"], "--gpu-layers"),
    (["--model", "meta-llama/Llama-3.1-8B", "--engine", "llamacpp", "--weights", "q4_k_m", "--gpu-layers", "500"], "gpu_layers"),
    (["--model", "meta-llama/Llama-3.1-8B", "--cuda-context-gib", "-1"], "--cuda-context-gib"),
    (["--model", "meta-llama/Llama-3.1-8B", "--seq", str(2**64)], "--seq"),
    (["--model", "meta-llama/Llama-3.1-8B", "--grid"], "--grid"),
])
def test_hostile_flags_are_refused_by_name(capsys, args, field):
    assert_refused(*run_fit(capsys, *args), field)


# ---- issue 23: FIFOs inside a --model folder are refused, not waited on ----------------------
@pytest.mark.linux_only("FIFOs in the file system (os.mkfifo) are POSIX; Windows has none to hang on")
@pytest.mark.parametrize("name", ["model-00001-of-00002.safetensors", "model.gguf", "config.json"])
def test_a_fifo_inside_the_model_folder_is_refused_not_a_hang(tmp_path, capsys, name):
    import os

    folder = tmp_path / "model"
    folder.mkdir()
    if name == "config.json":
        os.mkfifo(folder / name)
        (folder / "x.safetensors").write_bytes(b"")  # so the folder is read as safetensors + config
        path = folder / name  # named directly too
    else:
        os.mkfifo(folder / name)
        path = folder
    code, out, err = run_fit(capsys, "--model", str(path))
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
