"""Where a model comes from: the catalogue, an HF config.json, safetensors or
GGUF headers, or a bare parameter count. Nothing here loads weights."""
from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import Any

from services.i18n import translate
from services.modelfit import gguf
from services.modelfit.arch import EMBED, HEAD, LINEAR, OTHER, ModelArch, TensorGroup
from services.modelfit.catalogue import Catalogue, default_catalogue
from services.modelfit.hfconfig import (  # arch_from_config and the limits are used from here too
    GGUF_FILE_TYPE_NAMES, LIMITS, MAX_DIM, MAX_PARAMS, OPTIONAL_LIMITS, SAFETENSORS_MAX_HEADER, _as_int, _bad,
    _check_ranges, _NotANumber, _params_b, _show, arch_from_config,
)

# A config.json is a few kB; one of many MB is not a model description (and would be read whole).
CONFIG_MAX_BYTES = 16 * 1024 * 1024


def load_config_file(path: Path) -> ModelArch:
    try:
        with gguf.open_regular(path) as fh:
            text = fh.read(CONFIG_MAX_BYTES + 1).decode("utf-8")
        if len(text) > CONFIG_MAX_BYTES:
            raise _bad(translate("FitErrors", "{path} is too large to be a model's config.json"), path=path.name)
    except FileNotFoundError:
        raise _bad(translate("FitErrors", "File not found: {path}"), path=str(path)) from None
    except UnicodeDecodeError:  # a binary file with a .json name; the codec's own words help nobody
        raise _bad(translate("FitErrors", "{path} is not a text (UTF-8) JSON file"), path=path.name) from None
    except OSError as exc:
        if isinstance(exc, IsADirectoryError) or path.is_dir():  # Windows says "permission denied" for a folder
            raise _bad(translate("FitErrors", "{path} is a folder, not a JSON file"), path=str(path)) from None
        raise _bad(translate("FitErrors", "Cannot read {path}: {reason}"), path=str(path),
                   reason=exc.strerror or str(exc)) from None
    cfg = _loads(text, path.name)
    # A file named config.json is named by its folder (the model's); any other name by itself.
    name = (path.parent.name or path.name) if path.name.lower() == "config.json" else path.stem
    return arch_from_config(cfg, model_id=name)


def _loads(text: str, name: str) -> Any:
    """JSON without NaN/Infinity (not JSON, though Python accepts them) and without nesting deep
    enough to exhaust the parser."""
    try:
        return json.loads(text, parse_constant=_NotANumber)
    except json.JSONDecodeError as exc:
        raise _bad(translate("FitErrors", "{path} is not valid JSON (line {line}: {reason})"),
                   path=name, line=exc.lineno, reason=exc.msg) from None
    except RecursionError:
        raise _bad(translate("FitErrors", "{path} is nested too deeply to be a model description"), path=name) from None


# ---------------------------------------------------------------- safetensors
_EMBED_NAMES = ("embed_tokens", "wte.", "word_embeddings", "tok_embeddings", "token_embd", "embeddings.word")
_LAYER_RE = re.compile(r"(?:layers|h|layer|blk|block|blocks)\.(\d+)\.")


def classify_tensor(name: str, ndim: int) -> str:
    lowered = name.lower()
    if any(k in lowered for k in _EMBED_NAMES):
        return EMBED
    if lowered.endswith("lm_head.weight") or lowered in ("output.weight", "embed_out.weight"):
        return HEAD
    if ndim == 2 and _LAYER_RE.search(lowered) and "norm" not in lowered:
        return LINEAR
    return OTHER


def read_safetensors_header(path: Path) -> dict[str, Any]:
    try:
        with gguf.open_regular(path) as fh:
            head = fh.read(8)
            if len(head) != 8:
                raise _bad(translate("FitErrors", "{path} is not a safetensors file"), path=path.name)
            (length,) = struct.unpack("<Q", head)
            if not 2 <= length <= SAFETENSORS_MAX_HEADER:
                raise _bad(translate("FitErrors", "{path} is not a safetensors file"), path=path.name)
            raw = fh.read(length)
    except FileNotFoundError:
        raise _bad(translate("FitErrors", "File not found: {path}"), path=str(path)) from None
    except OSError as exc:
        raise _bad(translate("FitErrors", "Cannot read {path}: {reason}"), path=str(path), reason=exc.strerror or str(exc)) from None
    try:
        text = raw.decode("utf-8").rstrip()
    except UnicodeDecodeError:
        raise _bad(translate("FitErrors", "{path} is not a safetensors file"), path=path.name) from None
    header = _loads(text, path.name)
    if not isinstance(header, dict):
        raise _bad(translate("FitErrors", "{path} is not a safetensors file"), path=path.name)
    return header


def _safetensors_files(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(path.glob("*.safetensors"))
        if not files:
            raise _bad(translate("FitErrors", "No .safetensors files in {path}"), path=str(path))
        return files
    return [path]


def load_safetensors(path: Path) -> ModelArch:
    """Exact parameter count and bytes per group from the headers of a file or a
    sharded folder; shapes from a config.json beside it, or inferred from tensor names."""
    groups: dict[tuple[str, str], list[int]] = {}
    shapes: dict[str, tuple[int, ...]] = {}
    for file in _safetensors_files(path):
        header = read_safetensors_header(file)
        for name, info in header.items():
            if name == "__metadata__":
                continue
            try:
                raw_shape, dtype, offsets = info["shape"], info["dtype"], info["data_offsets"]
                if not isinstance(raw_shape, list) or len(raw_shape) > 8 or not isinstance(dtype, str) \
                        or not isinstance(offsets, list) or len(offsets) != 2:
                    raise TypeError
            except (KeyError, TypeError):
                raise _bad(translate("FitErrors", "{path} has a damaged tensor entry: {name}"), path=file.name, name=_show(name)) from None
            shape = tuple(_as_int(d, f"{_show(name)} shape", low=0, high=MAX_DIM) for d in raw_shape)
            start, end = (_as_int(x, f"{_show(name)} data_offsets", low=0, high=1 << 50) for x in offsets)
            if end < start:
                raise _bad(translate("FitErrors", "{path} has a damaged tensor entry: {name}"), path=file.name, name=_show(name))
            dtype = dtype.lower()
            numel = 1
            for d in shape:
                numel *= d
            if numel > MAX_PARAMS:
                raise _bad(translate("FitErrors", "Implausible {field} = {value} in the model description"),
                           field=f"{_show(name)} shape", value=_show(list(shape)))
            kind = classify_tensor(name, len(shape))
            slot = groups.setdefault((kind, dtype), [0, 0])
            slot[0] += numel
            slot[1] += max(0, end - start)
            shapes[name] = shape
    if not groups:
        raise _bad(translate("FitErrors", "{path} holds no tensors"), path=path.name)
    _check_total(sum(n for n, _ in groups.values()))
    tensor_groups = tuple(TensorGroup(kind, n, dtype, nbytes) for (kind, dtype), (n, nbytes) in groups.items())
    folder = path if path.is_dir() else path.parent
    config = folder / "config.json"
    if config.is_file():
        base = load_config_file(config)
    else:
        base = _arch_from_tensor_shapes(shapes, path.stem)
    dtype_counts: dict[str, int] = {}
    for g in tensor_groups:
        if g.kind == LINEAR:
            dtype_counts[g.dtype or ""] = dtype_counts.get(g.dtype or "", 0) + g.numel
    native = max(dtype_counts, key=lambda name: dtype_counts[name]) if dtype_counts else None
    native = {"f32": "fp32", "f16": "fp16", "f8_e4m3": "fp8", "f8_e5m2": "fp8", "i8": "int8"}.get(native or "", native)
    return base.with_changes(groups=tensor_groups, native_format=native, params=sum(g.numel for g in tensor_groups),
                             model_id=path.name, source=f"safetensors header: {path.name}")


def _arch_from_tensor_shapes(shapes: dict[str, tuple[int, ...]], name: str) -> ModelArch:
    layers = 0
    for tensor in shapes:
        m = _LAYER_RE.search(tensor.lower())
        if m:
            layers = max(layers, int(m.group(1)) + 1)
    embed = next((s for n, s in shapes.items() if classify_tensor(n, len(s)) == EMBED and len(s) == 2), None)
    if not layers or embed is None:
        raise _bad(translate("FitErrors", "Cannot tell the architecture of {path}: put its config.json beside it"), path=name)
    vocab, hidden = embed

    def dim(*keys: str, axis: int = 0) -> int | None:
        for n, s in shapes.items():
            if len(s) == 2 and any(k in n for k in keys):
                return s[axis]
        return None

    q_dim = dim("q_proj", "attn_q", "query") or hidden
    kv_dim = dim("k_proj", "attn_k", "key") or q_dim
    inter = dim("gate_proj", "up_proj", "ffn_up", "fc1", "intermediate.dense") or 4 * hidden
    head_dim = 128 if q_dim % 128 == 0 and q_dim >= 2048 else 64
    return ModelArch(model_id=name, layers=layers, hidden=hidden, heads=max(1, q_dim // head_dim),
                     kv_heads=max(1, kv_dim // head_dim), head_dim=head_dim, intermediate=inter, vocab=vocab,
                     tied_embeddings=not any(classify_tensor(n, len(s)) == HEAD for n, s in shapes.items()),
                     mlp="gated" if dim("gate_proj", "ffn_gate") else "gelu",
                     notes="head_dim guessed from the tensor shapes (no config.json)")


# ---------------------------------------------------------------- GGUF
def _check_total(params: int) -> None:
    if not 0 < params <= MAX_PARAMS:
        raise _bad(translate("FitErrors", "Implausible {field} = {value} in the model description"), field="parameters", value=params)


def _meta_int(value: Any, field: str, low: int = 1, limit: str | None = None) -> int | None:
    """A GGUF metadata number, checked like the config field ``limit`` (the key's name in the message)."""
    if value is None:
        return None
    high = LIMITS.get(limit or "") or OPTIONAL_LIMITS.get(limit or "") or (1 << 40)
    if isinstance(value, list):  # per-layer arrays (some newer models): take the largest
        if not value:
            return None
        return max(_as_int(v, field, low=0, high=high) for v in value)
    return _as_int(value, field, low=low, high=high)


def load_gguf(path: Path) -> ModelArch:
    try:
        header = gguf.read_header(path)
    except gguf.GgufError as exc:
        raise _bad(translate("FitErrors", "{path}: {reason}"), path=path.name, reason=exc.message) from None
    groups: dict[tuple[str, str], list[int]] = {}
    for t in header.tensors:
        if any(d > MAX_DIM for d in t.shape) or t.numel > MAX_PARAMS:
            raise _bad(translate("FitErrors", "Implausible {field} = {value} in the model description"),
                       field=f"{_show(t.name)} shape", value=_show(list(t.shape)))
        try:
            nbytes = t.nbytes
        except gguf.GgufError as exc:
            raise _bad(translate("FitErrors", "{path}: {reason}"), path=path.name, reason=exc.message) from None
        kind = classify_tensor(t.name, len(t.shape))
        slot = groups.setdefault((kind, t.type_name), [0, 0])
        slot[0] += t.numel
        slot[1] += nbytes
    if not groups:
        raise _bad(translate("FitErrors", "{path} holds no tensors"), path=path.name)
    _check_total(sum(n for n, _ in groups.values()))
    embd = next((t for t in header.tensors if t.name == "token_embd.weight"), None)
    arch_name = header.architecture
    layers = _meta_int(header.arch_value("block_count"), f"{arch_name}.block_count", limit="layers")
    hidden = _meta_int(header.arch_value("embedding_length"), f"{arch_name}.embedding_length", limit="hidden")
    heads = _meta_int(header.arch_value("attention.head_count"), f"{arch_name}.attention.head_count", limit="heads")
    if not layers or not hidden or not heads:
        raise _bad(translate("FitErrors", "The model config lacks {fields}"), fields="block_count/embedding_length/head_count")
    kv = _meta_int(header.arch_value("attention.head_count_kv"), f"{arch_name}.attention.head_count_kv", limit="kv_heads", low=0) or heads
    head_dim = _meta_int(header.arch_value("attention.key_length"), f"{arch_name}.attention.key_length", limit="head_dim") or hidden // heads
    inter = _meta_int(header.arch_value("feed_forward_length"), f"{arch_name}.feed_forward_length", limit="intermediate") or 4 * hidden
    tokens = header.metadata.get("tokenizer.ggml.tokens")
    vocab = (embd.shape[1] if embd is not None and len(embd.shape) == 2 else None) or (
        _as_int(tokens, "tokenizer.ggml.tokens", high=1 << 40) if isinstance(tokens, int) and not isinstance(tokens, bool) else 32000)
    window = _meta_int(header.arch_value("attention.sliding_window"), f"{arch_name}.attention.sliding_window", limit="sliding_window", low=0)
    experts = _meta_int(header.arch_value("expert_count"), f"{arch_name}.expert_count", limit="experts", low=0) or 0
    values = {"layers": layers, "hidden": hidden, "heads": heads, "kv_heads": kv, "head_dim": head_dim,
              "intermediate": inter, "vocab": vocab}
    _check_ranges(values)
    ftype = header.metadata.get("general.file_type")
    native = GGUF_FILE_TYPE_NAMES.get(int(ftype)) if isinstance(ftype, int) else None
    sliding_layers = 0
    if window:
        sliding_layers = layers // 2 if arch_name == "gemma2" else (layers - layers // 6 if arch_name.startswith("gemma3") else layers)
    tensor_groups = tuple(TensorGroup(kind, n, dtype, nbytes) for (kind, dtype), (n, nbytes) in groups.items())
    return ModelArch(
        model_id=path.name, layers=layers, hidden=hidden, heads=heads, kv_heads=kv, head_dim=head_dim,
        intermediate=inter, vocab=vocab, tied_embeddings=not any(g.kind == HEAD for g in tensor_groups),
        experts=experts, experts_per_token=_meta_int(header.arch_value("expert_used_count"), f"{arch_name}.expert_used_count", limit="experts_per_token", low=0) or 0,
        sliding_window=window or None, sliding_layers=sliding_layers,
        max_context=_meta_int(header.arch_value("context_length"), f"{arch_name}.context_length", limit="max_context"), groups=tensor_groups,
        params=sum(g.numel for g in tensor_groups), native_format=native or "gguf",
        source=f"GGUF v{header.version} header: {path.name}",
    )


# ---------------------------------------------------------------- bare count
def arch_from_param_count(params_b: float, catalogue: Catalogue | None = None) -> ModelArch:
    """A bare parameter count: weights are exact; the shapes that size the KV cache
    and activations are borrowed from the catalogue's nearest dense decoder."""
    params_b = _params_b(params_b) / 1e9
    cat = catalogue or default_catalogue()
    dense = [e for e in cat.entries if e.arch.family == "decoder" and not e.arch.experts and e.arch.kv_heads < e.arch.heads]
    nearest = min(dense, key=lambda e: abs(e.arch.total_params - params_b * 1e9) / e.arch.total_params)
    return nearest.arch.with_changes(
        model_id=f"{params_b:g}B parameters", params=int(round(params_b * 1e9)), sliding_window=None, sliding_layers=0,
        source="bare parameter count", notes=f"layer shapes borrowed from {nearest.model_id}")


# ---------------------------------------------------------------- dispatcher
def load_model(spec: str | None = None, *, config_file: str | Path | None = None, params_b: float | None = None,
               catalogue: Catalogue | None = None) -> ModelArch:
    """Resolve what the user gave: catalogue id, a path (config.json, .safetensors,
    folder, .gguf), a --model-config file or a bare count. Raises ModelInputError."""
    if config_file:
        arch = load_config_file(Path(config_file))
        if params_b:
            arch = arch.with_changes(params=_params_b(params_b))
        return arch
    if spec:
        path = Path(spec).expanduser()
        looks_like_path = path.suffix.lower() in (".json", ".safetensors", ".gguf") or "\\" in spec or spec.startswith((".", "~", "/"))
        try:
            exists = path.exists()
        except OSError:  # e.g. a name longer than the OS allows: not a file, maybe a catalogue id
            exists = False
        if exists or looks_like_path:
            return load_path(path)
        return (catalogue or default_catalogue()).resolve(spec).arch
    if params_b is not None:
        return arch_from_param_count(params_b, catalogue)
    raise _bad(translate("FitErrors", "Give a model: a catalogue name, a file, or a parameter count"))


def load_path(path: Path) -> ModelArch:
    try:
        found = path.exists()
    except OSError:  # name too long and the like: it cannot be a file we can read
        found = False
    if not found:
        raise _bad(translate("FitErrors", "File not found: {path}"), path=str(path))
    suffix = path.suffix.lower()
    if path.is_dir():
        if any(path.glob("*.safetensors")):
            return load_safetensors(path)
        if any(path.glob("*.gguf")):
            return load_gguf(sorted(path.glob("*.gguf"))[0])
        if (path / "config.json").is_file():
            return load_config_file(path / "config.json")
        raise _bad(translate("FitErrors", "No config.json, .safetensors or .gguf in {path}"), path=str(path))
    if suffix == ".gguf":
        return load_gguf(path)
    if suffix == ".safetensors":
        return load_safetensors(path)
    if suffix == ".json":
        return load_config_file(path)
    raise _bad(translate("FitErrors", "Unsupported file {path}: use config.json, .safetensors or .gguf"), path=path.name)
