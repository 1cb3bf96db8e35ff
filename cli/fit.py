"""``python main.py fit``: will this model fit on this GPU?"""
from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import math
import sys

from cli import EXIT_NO_GPU, EXIT_OK, UsageError, cli_catalog, fail, refuse_empty
from services.i18n import Msg, translate

HELP = "estimate the GPU memory a model needs for inference or training, and whether it fits"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from services.modelfit.dtypes import KV_FORMATS, WEIGHT_FORMATS
    from services.modelfit.request import ATTENTION, ENGINES, LORA_TARGETS, METHODS, OPTIMIZERS, STRATEGIES, TASKS

    on_off = argparse.BooleanOptionalAction
    # Choices are checked in run() so a typo gets one line with the closest valid values.
    # Settings an engine presets (services/modelfit/engines.py) default to None: the engine decides.
    parser.add_argument("--model", metavar="ID|PATH", help="catalogue id (e.g. meta-llama/Llama-3.1-8B), config.json, .safetensors file/folder or .gguf")
    parser.add_argument("--model-config", metavar="FILE.json", help="architecture fields: params_b, layers, hidden, heads, kv_heads, head_dim, intermediate, vocab, tied_embeddings (or an HF config.json)")
    parser.add_argument("--params-b", metavar="X", help="bare parameter count in billions")
    parser.add_argument("--task", default=None, help="|".join(TASKS) + " (default: train for unsloth, torchtune or a --method, else inference)")
    parser.add_argument("--engine", default=None, help="|".join(ENGINES[:-1]) + " (default: llamacpp for a .gguf, else transformers); sets that engine's defaults for the options below")
    parser.add_argument("--method", help="|".join(METHODS) + " (training; default lora, qlora for unsloth)")
    parser.add_argument("--weights", help="|".join(WEIGHT_FORMATS) + " (default: the model's own, else bf16)")
    parser.add_argument("--precision", help="full training: fp32|mixed|bf16 (default from --weights)")
    parser.add_argument("--kv-dtype", default=None, help="|".join(KV_FORMATS) + " (default fp16)")
    parser.add_argument("--seq", default=None, metavar="N", help="context / sequence length in tokens (default 4096 or the model's maximum if smaller; vLLM: max_model_len, default the model's maximum as vllm serve does; Ollama: its default for the card)")
    parser.add_argument("--batch", default="1", metavar="N", help="sequences at once (per GPU)")
    parser.add_argument("--lora-rank", default=None, metavar="N", help="default 16 (torchtune recipes: 8)")
    parser.add_argument("--lora-targets", default="all", help="|".join(LORA_TARGETS))
    parser.add_argument("--lora-output", action=on_off, default=None, help="LoRA on the output layer too (torchtune apply_lora_to_output)")
    parser.add_argument("--lora-dtype", default=None, help="fp32|bf16: dtype of the LoRA adapters (PEFT fp32; unsloth, torchtune bf16)")
    parser.add_argument("--kbit-fp32-cast", action=on_off, default=None, help="QLoRA: PEFT prepare_model_for_kbit_training casts the non-4-bit parameters to fp32 (on for transformers/peft)")
    parser.add_argument("--double-quant", action=on_off, default=True, help="bitsandbytes 4-bit double quantisation")
    parser.add_argument("--grad-ckpt", action=on_off, default=None, help="activation (gradient) checkpointing (training; default on)")
    parser.add_argument("--activation-offload", action=on_off, default=None, help="keep the checkpointed activations in system RAM (unsloth default; torchtune enable_activation_offloading)")
    parser.add_argument("--chunked-loss", action=on_off, default=None, help="chunked cross-entropy (torchtune default)")
    parser.add_argument("--fused-loss", action=on_off, default=None, help="fused linear + cross-entropy, logits never stored (unsloth default: Cut Cross-Entropy)")
    parser.add_argument("--optimizer-in-backward", action=on_off, default=None, help="optimizer step inside backward (torchtune optimizer_in_bwd)")
    parser.add_argument("--compile", action=on_off, default=None, help="torch.compile the model (torchtune compile: True)")
    parser.add_argument("--optimizer", default=None, help="|".join(OPTIMIZERS) + " (default adamw; unsloth adamw8bit; torchtune full: paged_adamw8bit)")
    parser.add_argument("--gpus", default="1", metavar="N")
    parser.add_argument("--strategy", default=None, help="|".join(STRATEGIES) + " (default single; with --gpus > 1: tp for vLLM, layer_split for inference, fsdp for training)")
    parser.add_argument("--attention", default=None, help="|".join(ATTENTION) + " (default flash)")
    parser.add_argument("--gpu-memory-utilization", default=None, metavar="X", help="vLLM: share of the card it takes at start (default 0.9)")
    parser.add_argument("--max-num-seqs", default=None, metavar="N", help="vLLM: sequences per step (default 256, 1024 on >= 70 GiB cards)")
    parser.add_argument("--max-num-batched-tokens", default=None, metavar="N", help="vLLM: tokens per step (default 2048, 8192 on >= 70 GiB cards)")
    parser.add_argument("--vllm-v0", action="store_true", help="vLLM before V1 (0.6.x): larger non-torch memory, max_model_len tokens profiled")
    parser.add_argument("--gpu-layers", default=None, metavar="N", help="llama.cpp -ngl / Ollama num_gpu: layers on the GPU (default all, or what fits)")
    parser.add_argument("--n-cpu-moe", default=None, metavar="N", help="llama.cpp: keep the experts of the first N layers in system RAM (every layer stays on the GPU)")
    parser.add_argument("--cpu-moe", action="store_true", help="llama.cpp: keep all experts in system RAM (--n-cpu-moe for every layer)")
    parser.add_argument("--override-tensor", "-ot", action="append", default=None, metavar="REGEX=CPU",
                        help="llama.cpp: tensors whose GGUF name matches REGEX stay in system RAM, e.g. exps=CPU or 'blk\\.(1[3-9]|[2-9][0-9])\\.ffn_.*=CPU' (repeatable; comma-separated lists too)")
    parser.add_argument("--cpu-offload-gb", default=None, metavar="X", help="vLLM: GiB of weights per GPU kept in system RAM and read over PCIe")
    parser.add_argument("--ollama-version", default=None, metavar="X.Y", help="Ollama's version, for its defaults (flash attention from 0.20, context lowered before offloading from 0.30; default 0.30)")
    parser.add_argument("--parallel", default=None, metavar="N", help="llama.cpp -np / Ollama OLLAMA_NUM_PARALLEL: each slot gets the whole context of KV cache (same as --batch)")
    parser.add_argument("--plan", action="store_true", help="how to run it on the card: llama.cpp, Ollama and vLLM command lines that fit, best first")
    parser.add_argument("--ram-gib", default=None, metavar="X", help="system RAM for --plan (default: this machine's)")
    parser.add_argument("--cuda-context-gib", default=None, metavar="X", help="CUDA context size if you know it (default 0.5; llama.cpp 0.3)")
    parser.add_argument("--gpu", metavar="NAME|detected", help="judge the fit against a GPU from the catalogue, or the detected GPU's free memory")
    parser.add_argument("--vram-gib", default=None, metavar="X", help="judge the fit against a card with X GiB (instead of --gpu)")
    parser.add_argument("--host-bandwidth-gbs", default=None, metavar="X", help="system RAM bandwidth for the partial-offload speed estimate (default 51.2, dual-channel DDR4-3200)")
    parser.add_argument("--grid", action="store_true", help="table of weight format (or training method) x context length: fits / tight / no")
    parser.add_argument("--json", action="store_true", help="print JSON")
    from cli import fit_measure

    fit_measure.add_arguments(parser)  # --measure, --measurements: measure a run against the estimate


BETWEEN = translate("Cli", "{option} must be between {low} and {high}, got {value}")


def _choice(value: str | None, allowed: tuple[str, ...], flag: str) -> str | None:
    if value is None:
        return None
    if value not in allowed:
        near = difflib.get_close_matches(value, allowed, n=3, cutoff=0.0)
        raise UsageError(translate("Cli", "{option} '{value}' is not valid; closest: {choices}").format(
            option=flag, value=value, choices=", ".join(near)))
    return value


def _int(value: str | None, flag: str, top: int, low: int = 1) -> int | None:
    if value is None:
        return None
    try:
        number = int(str(value).replace("_", ""))
    except ValueError:
        raise UsageError(translate("Cli", "{option} must be a whole number, got '{value}'").format(
            option=flag, value=value)) from None
    if not low <= number <= top:
        raise UsageError(BETWEEN.format(option=flag, low=low, high=top, value=number))
    return number


def _float(value: str | None, flag: str, low: float, high: float) -> float | None:
    if value is None:
        return None
    try:
        number = float(str(value).replace("_", ""))
    except ValueError:
        raise UsageError(translate("Cli", "{option} must be a number, got '{value}'").format(
            option=flag, value=value)) from None
    if not math.isfinite(number) or not low <= number <= high:
        raise UsageError(BETWEEN.format(option=flag, low=f"{low:g}", high=f"{high:g}", value=value))
    return number


def _message(exc) -> "Msg":
    """The model-fit error, translated when printed, with the closest names."""
    if exc.choices:
        return translate("Cli", "{message} (closest: {choices})").format(message=exc.message,
                                                                         choices=", ".join(exc.choices))
    return exc.message


def run(args: argparse.Namespace) -> int:
    refuse_empty(args.gpu, "--gpu")
    render = cli_catalog().render
    from cli import fit_measure

    if fit_measure.wanted(args):
        if args.measurements or args.delete_measurement or (args.csv and not args.measure):
            return fit_measure.run_list(args)
        try:
            return fit_measure.run_measure(args, _answer)
        except _NoGpu as exc:
            return fail(exc.args[0], EXIT_NO_GPU)
    keep: dict = {}
    try:
        data, lines = _answer(args, render, keep)
    except _NoGpu as exc:
        return fail(exc.args[0], EXIT_NO_GPU)
    known_lines, known = fit_measure.known_lines(keep["answer"], keep["gpu"], render)
    if known is not None:
        data["measured_here"] = known
    lines += known_lines
    if args.json:
        json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        for line in lines:
            print(line)
    return EXIT_OK


class _NoGpu(Exception):
    pass


def _overrides(values: list[str] | None) -> tuple[str, ...]:
    """-ot values as llama.cpp reads them: comma-separated REGEX=BUFFER pairs. Only CPU moves memory
    off the card; another buffer (CUDA0 ...) keeps the tensor on a GPU, which one GPU already does."""
    out: list[str] = []
    for value in values or ():
        for item in value.split(","):
            regex, sep, buffer = item.rpartition("=")
            if not sep or not regex:
                raise UsageError(translate("Cli", "{option} takes REGEX=CPU, got '{value}'").format(option="--override-tensor", value=item))
            if buffer.strip().upper() == "CPU":
                out.append(regex)
    return tuple(out)


def fit_json(argv: list[str]) -> dict:
    """The JSON ``fit ... --json`` prints, from the same parser and code, in-process (the validation
    set and benchmarks go through here, as users go through the command). UsageError as the CLI."""
    parser = argparse.ArgumentParser(prog="fit", add_help=False, exit_on_error=False)
    add_arguments(parser)
    try:
        args = parser.parse_args([*argv, "--json"])
    except (argparse.ArgumentError, SystemExit) as exc:
        raise UsageError(str(exc)) from None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = run(args)
    if code != EXIT_OK:
        raise UsageError(translate("Cli", "fit exited with {code}").format(code=code))
    return json.loads(out.getvalue())


def _answer(args: argparse.Namespace, render, keep: dict | None = None):
    from services.modelfit.dtypes import KV_FORMATS, WEIGHT_FORMATS
    from services.modelfit.engines import default_method, default_strategy, default_weights, engine_defaults, ollama_default_context
    from services.modelfit.errors import ModelInputError
    from services.modelfit.request import (
        ATTENTION, ENGINES, LORA_TARGETS, METHODS, OPTIMIZERS, PRECISIONS, STRATEGIES, TASKS, FitRequest,
    )
    from services.modelfit.weights import is_gguf_source
    from services.modelfit.gpus import GpuSpec, NoGpuError, default_gpu_catalogue, live_gpu_from_nvml
    from services.modelfit.report import answer_lines, answer_to_json
    from services.modelfit.solver import answer
    from services.modelfit.sources import load_model
    from services.modelfit.speed import HOST_BANDWIDTH_GBS, estimate_speed

    task = _choice(args.task, TASKS, "--task")
    if task is None:
        # unsloth and torchtune are fine-tuning tools, and a --method is a training method:
        # answering those with an inference estimate would be the wrong question.
        trains = args.engine in ("unsloth", "torchtune") or args.method not in (None, "none")
        task = "train" if trains else "inference"
    weights = _choice(args.weights, WEIGHT_FORMATS, "--weights")
    precision = _choice(args.precision, PRECISIONS, "--precision")
    kv_dtype = _choice(args.kv_dtype, KV_FORMATS, "--kv-dtype")
    engine = _choice(args.engine, ENGINES, "--engine")
    targets = _choice(args.lora_targets, LORA_TARGETS, "--lora-targets") or "all"
    optimizer = _choice(args.optimizer, OPTIMIZERS, "--optimizer")
    strategy = _choice(args.strategy, STRATEGIES, "--strategy")
    attention = _choice(args.attention, ATTENTION, "--attention")
    lora_dtype = _choice(args.lora_dtype, ("fp32", "bf16"), "--lora-dtype")
    gpus = _int(args.gpus, "--gpus", 1024) or 1  # the parser's defaults, for a Namespace made elsewhere
    batch = _int(args.batch, "--batch", 65536) or 1
    rank = _int(args.lora_rank, "--lora-rank", 65536)
    seq = _int(args.seq, "--seq", 16 * 1024 * 1024)
    max_seqs = _int(args.max_num_seqs, "--max-num-seqs", 65536)
    max_tokens = _int(args.max_num_batched_tokens, "--max-num-batched-tokens", 16 * 1024 * 1024)
    gpu_layers = _int(args.gpu_layers, "--gpu-layers", 100000, low=0)
    cpu_moe = _int(args.n_cpu_moe, "--n-cpu-moe", 100000, low=0)
    offload_gib = _float(args.cpu_offload_gb, "--cpu-offload-gb", 0.0, 1_000_000.0)
    ram_gib = _float(args.ram_gib, "--ram-gib", 0.25, 1_000_000.0)
    parallel = _int(args.parallel, "--parallel", 65536)
    if parallel is not None:
        if args.batch not in (None, "1"):
            raise UsageError(translate("Cli", "give one of --parallel and --batch"))
        batch = parallel
    overrides = _overrides(args.override_tensor)
    from services.modelfit.engines import OLLAMA_CURRENT, parse_version
    ollama_version = OLLAMA_CURRENT
    if args.ollama_version is not None:
        asked = parse_version(args.ollama_version)
        if asked is None:
            raise UsageError(translate("Cli", "{option} must look like 0.30, got '{value}'").format(
                option="--ollama-version", value=args.ollama_version))
        ollama_version = asked
    util = _float(args.gpu_memory_utilization, "--gpu-memory-utilization", 0.05, 1.0)
    ctx_gib = _float(args.cuda_context_gib, "--cuda-context-gib", 0.0, 64.0)
    vram_gib = _float(args.vram_gib, "--vram-gib", 0.25, 1_000_000.0)
    host_bw = _float(args.host_bandwidth_gbs, "--host-bandwidth-gbs", 0.1, 100_000.0) or HOST_BANDWIDTH_GBS
    params_b = _float(args.params_b, "--params-b", 1e-3, 1e5)
    if not (args.model or args.model_config or params_b is not None):
        from services.modelfit.catalogue import POPULAR_MODELS

        raise UsageError(translate(
            "Cli", "give a model to start, e.g. --model llama-3.1-8b (popular: {models}); or --model PATH "
                   "(config.json, .safetensors, .gguf), --model-config FILE.json, --params-b X").format(
            models=", ".join(POPULAR_MODELS)))
    if args.model and (args.model_config or params_b is not None):
        # one of them would be ignored without a word; --params-b only adjusts a --model-config
        raise UsageError(translate("Cli", "give one model: --model cannot be combined with --model-config or --params-b"))
    if args.gpu and vram_gib is not None:
        raise UsageError(translate("Cli", "give one card: --gpu or --vram-gib"))
    try:
        arch = load_model(args.model, config_file=args.model_config, params_b=params_b)
    except ModelInputError as exc:
        raise UsageError(_message(exc)) from None
    if engine is None:
        engine = "llamacpp" if is_gguf_source(arch) and task == "inference" else "transformers"
    method = _choice(args.method, METHODS, "--method") or (default_method(engine) if task == "train" else "full")
    if weights is None and not is_gguf_source(arch):
        weights = default_weights(engine, arch.native_format)
    if strategy is None:
        strategy = default_strategy(gpus, task, engine)

    gpu = None
    if args.gpu:
        if args.gpu.lower() == "detected":
            try:
                gpu = live_gpu_from_nvml()
            except NoGpuError as exc:
                raise _NoGpu(translate("Cli", "{reason} (use --gpu NAME to pick one from the catalogue)").format(
                    reason=exc.message)) from None
        else:
            try:
                gpu = default_gpu_catalogue().find(args.gpu)
            except ModelInputError as exc:
                raise UsageError(_message(exc)) from None
    elif vram_gib is not None:
        gpu = GpuSpec(f"{vram_gib:g} GiB GPU", vram_gib, total_gib=vram_gib)
    if seq is None:
        if engine == "ollama":
            seq = ollama_default_context(gpu.total_gib if gpu else None)
            if arch.max_context:
                seq = min(seq, arch.max_context)
        elif engine == "vllm" and arch.max_context:
            # `vllm serve MODEL` without --max-model-len takes the model's own maximum
            # (ModelConfig derives it from max_position_embeddings): the first thing users meet.
            seq = arch.max_context
        else:
            seq = min(4096, arch.max_context) if arch.max_context else 4096
    preset = engine_defaults(engine, task, method, gpus, ollama_version)
    chosen = {
        "grad_ckpt": args.grad_ckpt, "activation_offload": args.activation_offload, "chunked_loss": args.chunked_loss,
        "fused_loss": args.fused_loss, "optimizer_in_backward": args.optimizer_in_backward, "compile": args.compile,
        "lora_on_output": args.lora_output, "kbit_fp32_upcast": args.kbit_fp32_cast, "optimizer": optimizer,
        "attention": attention, "kv_dtype": kv_dtype,
        "lora_adapter_bytes": None if lora_dtype is None else (4 if lora_dtype == "fp32" else 2),
    }
    settings = {k: (preset[k] if v is None else v) for k, v in chosen.items()}
    if rank is None:
        rank = 8 if engine == "torchtune" else 16
    try:
        req = FitRequest(
            task=task, method=method, weights=weights, precision=precision, engine=engine, seq=seq,
            batch=batch, lora_rank=rank, lora_targets=targets, gpus=gpus, strategy=strategy,
            double_quant=bool(args.double_quant), vllm_legacy=bool(args.vllm_v0),
            vllm_max_batched_tokens=max_tokens, vllm_max_seqs=max_seqs,
            gpu_memory_utilization=util if util is not None else 0.9,
            gpu_total_gib=gpu.total_gib if gpu else None, gpu_name=gpu.name if gpu else None,
            cuda_context_gib=ctx_gib, gpu_layers=gpu_layers, cpu_moe_layers=(arch.layers if args.cpu_moe else cpu_moe or 0),
            override_tensors=overrides, cpu_offload_gib=offload_gib or 0.0, kv_dtype_auto=args.kv_dtype is None, **settings,
        )
        ans = answer(arch, req, gpu.memory_gib if gpu else None)
        lowered = None
        if engine == "ollama" and args.seq is None and gpu is not None and ans.fits is False and gpu_layers is None:
            from services.modelfit.engines import ollama_lowered_context

            lowered = ollama_lowered_context(arch, req, gpu.memory_gib, ollama_version)
            if lowered:
                req = req.with_changes(seq=lowered)
                ans = answer(arch, req, gpu.memory_gib)
        run_plan = None
        if args.plan:
            if gpu is None:
                raise UsageError(translate("Cli", "--plan needs a card: --gpu NAME or --vram-gib X"))
            if task != "inference":
                raise UsageError(translate("Cli", "--plan is for inference; for training the suggestions say what to change"))
            from services.modelfit.plan import host_ram_gib, plan
            run_plan = plan(arch, req, gpu, ram_gib if ram_gib is not None else host_ram_gib(), host_bw,
                            ctx_set_by_user=args.seq is not None)
        grid = None
        if args.grid:
            if gpu is None:
                raise UsageError(translate("Cli", "--grid needs a card: --gpu NAME or --vram-gib X"))
            from services.modelfit.grid import fit_grid

            grid = fit_grid(arch, req, gpu)
    except ModelInputError as exc:
        raise UsageError(_message(exc)) from None
    # No speed for what does not run: a figure beside "does NOT fit" reads as a promise.
    speed = estimate_speed(ans.estimate, gpu, host_bw) if ans.fits is not False else None
    offload_speed = estimate_speed(ans.offload.estimate, gpu, host_bw) if ans.offload else None
    data = answer_to_json(ans, gpu, speed, offload_speed)
    lines = answer_lines(ans, gpu, speed, render, offload_speed)
    if lowered:
        note = translate("FitReport", "Ollama {version} lowers its automatic context to {seq} tokens before it moves layers to the CPU").format(
            version=".".join(map(str, ollama_version)), seq=lowered)
        lines.append(render(note))
        data["notes"].append(str(note))
    if run_plan is not None:
        from services.modelfit.plan import plan_lines, plan_to_json

        data["plan"] = plan_to_json(run_plan)
        lines = [*lines, "", *plan_lines(run_plan, render)]
    if grid is not None:
        from services.modelfit.grid import grid_lines, grid_to_json
        from services.modelfit.report import GRID_STATUS

        data["grid"] = grid_to_json(grid)
        lines += [""] + grid_lines(grid, {k: render(v) for k, v in GRID_STATUS.items()})
    if keep is not None:
        keep.update(answer=ans, gpu=gpu)
    return data, lines


