"""``python main.py fit``: will this model fit on this GPU?"""
from __future__ import annotations

import argparse
import difflib
import json
import sys

from services.cli import EXIT_NO_GPU, EXIT_OK, UsageError, fail

HELP = "estimate the GPU memory a model needs for inference or training, and whether it fits"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from services.modelfit.dtypes import KV_FORMATS, WEIGHT_FORMATS
    from services.modelfit.estimate import ENGINES, LORA_TARGETS, METHODS, OPTIMIZERS, STRATEGIES, TASKS

    # Choices are checked in run() so a typo gets one line with the closest valid values.
    parser.add_argument("--model", metavar="ID|PATH", help="catalogue id (e.g. meta-llama/Llama-3.1-8B), config.json, .safetensors file/folder or .gguf")
    parser.add_argument("--model-config", metavar="FILE.json", help="architecture fields: params_b, layers, hidden, heads, kv_heads, head_dim, intermediate, vocab, tied_embeddings (or an HF config.json)")
    parser.add_argument("--params-b", metavar="X", help="bare parameter count in billions")
    parser.add_argument("--task", default="inference", help="|".join(TASKS))
    parser.add_argument("--method", help="|".join(METHODS) + " (training; default lora)")
    parser.add_argument("--weights", help="|".join(WEIGHT_FORMATS) + " (default: the model's own, else bf16)")
    parser.add_argument("--precision", help="full training: fp32|mixed|bf16 (default from --weights)")
    parser.add_argument("--kv-dtype", default="fp16", help="|".join(KV_FORMATS))
    parser.add_argument("--engine", default=None, help="|".join(ENGINES) + " (default: llamacpp for a .gguf, else transformers)")
    parser.add_argument("--seq", default=None, metavar="N", help="context / sequence length in tokens (default 4096 or the model's maximum)")
    parser.add_argument("--batch", default="1", metavar="N", help="sequences at once (per GPU)")
    parser.add_argument("--lora-rank", default="16", metavar="N")
    parser.add_argument("--lora-targets", default="all", help="|".join(LORA_TARGETS))
    parser.add_argument("--grad-ckpt", action=argparse.BooleanOptionalAction, default=True, help="gradient checkpointing (training)")
    parser.add_argument("--optimizer", default="adamw", help="|".join(OPTIMIZERS))
    parser.add_argument("--gpus", default="1", metavar="N")
    parser.add_argument("--strategy", default=None, help="|".join(STRATEGIES) + " (default single; with --gpus > 1: tp for vLLM, layer_split for inference, fsdp for training)")
    parser.add_argument("--attention", default="flash", help="flash|sdpa|eager")
    parser.add_argument("--chunked-loss", action="store_true", help="chunked cross-entropy (torchtune-style)")
    parser.add_argument("--gpu", metavar="NAME|detected", help="judge the fit against a GPU from the catalogue, or the detected GPU's free memory")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _choice(value: str | None, allowed: tuple[str, ...], flag: str) -> str | None:
    if value is None:
        return None
    if value not in allowed:
        near = difflib.get_close_matches(value, allowed, n=3, cutoff=0.0)
        raise UsageError(f"{flag} '{value}' is not valid; closest: {', '.join(near)}")
    return value


def _int(value: str | None, flag: str, top: int) -> int | None:
    if value is None:
        return None
    try:
        number = int(str(value).replace("_", ""))
    except ValueError:
        raise UsageError(f"{flag} must be a whole number, got '{value}'") from None
    if not 1 <= number <= top:
        raise UsageError(f"{flag} must be between 1 and {top}, got {number}")
    return number


def _message(exc, render) -> str:
    text = render(exc.message)
    if exc.choices:
        text += f" (closest: {', '.join(exc.choices)})"
    return text


def run(args: argparse.Namespace) -> int:
    from services.i18n import Catalog, resolve_language
    from services.modelfit.dtypes import KV_FORMATS, WEIGHT_FORMATS
    from services.modelfit.errors import ModelInputError
    from services.modelfit.estimate import (
        ENGINES, LORA_TARGETS, METHODS, OPTIMIZERS, PRECISIONS, STRATEGIES, TASKS, FitRequest, is_gguf_source,
    )
    from services.modelfit.gpus import NoGpuError, default_gpu_catalogue, live_gpu_from_nvml
    from services.modelfit.report import answer_lines, answer_to_json
    from services.modelfit.solver import answer
    from services.modelfit.sources import load_model
    from services.modelfit.speed import estimate_speed

    render = _renderer(Catalog, resolve_language)
    task = _choice(args.task, TASKS, "--task")
    method = _choice(args.method, METHODS, "--method") or ("lora" if task == "train" else "full")
    weights = _choice(args.weights, WEIGHT_FORMATS, "--weights")
    precision = _choice(args.precision, PRECISIONS, "--precision")
    kv_dtype = _choice(args.kv_dtype, KV_FORMATS, "--kv-dtype")
    engine = _choice(args.engine, ENGINES, "--engine")
    targets = _choice(args.lora_targets, LORA_TARGETS, "--lora-targets")
    optimizer = _choice(args.optimizer, OPTIMIZERS, "--optimizer")
    strategy = _choice(args.strategy, STRATEGIES, "--strategy")
    attention = _choice(args.attention, ("flash", "sdpa", "eager"), "--attention")
    gpus = _int(args.gpus, "--gpus", 1024)
    batch = _int(args.batch, "--batch", 65536)
    rank = _int(args.lora_rank, "--lora-rank", 65536)
    seq = _int(args.seq, "--seq", 16 * 1024 * 1024)
    params_b = None
    if args.params_b is not None:
        try:
            params_b = float(args.params_b)
        except ValueError:
            raise UsageError(f"--params-b must be a number, got '{args.params_b}'") from None
    if not (args.model or args.model_config or params_b is not None):
        from services.modelfit.catalogue import POPULAR_MODELS

        raise UsageError("give a model to start, e.g. --model llama-3.1-8b (popular: " + ", ".join(POPULAR_MODELS)
                         + "); or --model PATH (config.json, .safetensors, .gguf), --model-config FILE.json, --params-b X")
    if args.model and (args.model_config or params_b is not None):
        # one of them would be ignored without a word; --params-b only adjusts a --model-config
        raise UsageError("give one model: --model cannot be combined with --model-config or --params-b")
    try:
        arch = load_model(args.model, config_file=args.model_config, params_b=params_b)
    except ModelInputError as exc:
        raise UsageError(_message(exc, render)) from None
    if seq is None:
        seq = min(4096, arch.max_context) if arch.max_context else 4096
    if engine is None:
        engine = "llamacpp" if is_gguf_source(arch) and task == "inference" else "transformers"
    if strategy is None:
        strategy = "single" if gpus == 1 else ("fsdp" if task == "train" else ("tp" if engine == "vllm" else "layer_split"))

    gpu = None
    if args.gpu:
        if args.gpu.lower() == "detected":
            try:
                gpu = live_gpu_from_nvml()
            except NoGpuError as exc:
                return fail(f"{exc} (use --gpu NAME to pick one from the catalogue)", EXIT_NO_GPU)
        else:
            try:
                gpu = default_gpu_catalogue().find(args.gpu)
            except ModelInputError as exc:
                raise UsageError(_message(exc, render)) from None
    req = FitRequest(
        task=task, method=method, weights=weights, precision=precision, kv_dtype=kv_dtype, engine=engine, seq=seq,
        batch=batch, lora_rank=rank, lora_targets=targets, grad_ckpt=bool(args.grad_ckpt), optimizer=optimizer,
        gpus=gpus, strategy=strategy, attention=attention, chunked_loss=bool(args.chunked_loss),
        gpu_total_gib=gpu.total_gib if gpu else None, gpu_name=gpu.name if gpu else None,
    )
    try:
        ans = answer(arch, req, gpu.memory_gib if gpu else None)
    except ModelInputError as exc:
        raise UsageError(_message(exc, render)) from None
    speed = estimate_speed(ans.estimate, gpu)
    if args.json:
        json.dump(answer_to_json(ans, gpu, speed), sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        for line in answer_lines(ans, gpu, speed, render):
            print(line)
    return EXIT_OK


def _renderer(catalog_cls, resolve_language):
    try:
        from services.paths import AppPaths
        from services.settings import SettingsStore

        store = SettingsStore(AppPaths.default().settings_file)
        store.load()
        lang = resolve_language(store.settings.general.language)
    except Exception:  # settings are a nicety here, never a reason to fail
        lang = "en"
    return catalog_cls.load(lang).render
