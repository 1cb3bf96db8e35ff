"""How to run it: for a model on one card, the command lines of llama.cpp, Ollama and vLLM that fit,
each with the memory it leaves and the speed to expect, best first.

Every option is an ordinary ``FitRequest`` through the same estimator, so the planner never says
something the fit page would contradict. It proposes only what the user's machine can do: one card's
memory (the GPU count the user gave), the system RAM that is there (options that need more are listed as
not fitting), and no tokens/s for what does not fit.

llama.cpp's own ``--fit`` (PR #16653, on by default since; ``--fit-target`` 1024 MiB left free per GPU,
``--fit-ctx`` 4096 the smallest context it lowers to) chooses -c, then expert overrides, then -ngl by
trying allocations. ``llamacpp_fit`` follows the same order on our estimate so both can be compared:
we agree on what goes where; we differ in that --fit keeps a 1 GiB margin and lowers a context you did
not set, and that it may split one layer's experts (gate+down on the CPU, up on the GPU) where we move
whole layers' experts (--n-cpu-moe), a difference of at most one layer's experts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from services.i18n import Msg, translate
from services.modelfit.arch import ModelArch
from services.modelfit.errors import ModelInputError
from services.modelfit.estimate import estimate
from services.modelfit.request import GIB, Estimate, FitRequest
from services.modelfit.weights import is_gguf_source, weight_format
from services.modelfit.gpus import GpuSpec
from services.modelfit.solver import fits_in, max_gpu_layers, max_seq_that_fits, min_cpu_moe_layers
from services.modelfit.speed import HOST_BANDWIDTH_GBS, estimate_speed

# llama.cpp common/arg.cpp: --fit-target default 1024 MiB per device, --fit-ctx default 4096.
LLAMACPP_FIT_TARGET_GIB = 1.0
LLAMACPP_FIT_MIN_CTX = 4096
# The shortest context worth proposing: below it a chat turn with a system prompt no longer fits.
MIN_USEFUL_CTX = 2048


def host_ram_gib() -> float | None:
    """This machine's system RAM (None when it cannot be read: the plan then does not check RAM)."""
    try:
        import psutil

        return psutil.virtual_memory().total / GIB
    except Exception:  # a missing figure only skips a check
        return None


@dataclass(frozen=True, slots=True)
class PlanOption:
    engine: str  # llamacpp | ollama | vllm
    code: str  # stable id: all_gpu, kv_q8_0, n_cpu_moe, experts_cpu, ngl, shorter_ctx, cpu_offload, kv_fp8
    title: Msg
    command: str  # what to paste: a command line, or Modelfile lines for Ollama
    request: FitRequest
    gpu_gib: float
    host_gib: float
    fits: bool
    ram_ok: bool
    tokens_per_s: float | None  # None when it does not fit (no speed for what cannot run)
    weights: str = ""
    notes: tuple[Msg, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class RunPlan:
    model_id: str
    gpu_name: str
    budget_gib: float
    host_ram_gib: float | None
    options: tuple[PlanOption, ...]
    llamacpp_fit: Msg | None = None  # how llama.cpp's own --fit would decide, and where we differ


def _gguf_weights(arch: ModelArch, req: FitRequest) -> str | None:
    """The GGUF people download: the one asked for, the file's own, gpt-oss's MXFP4, else Q4_K_M."""
    if is_gguf_source(arch):
        return None
    if req.runtime == "llamacpp" and req.weights:
        return req.weights
    return "mxfp4" if arch.native_format == "mxfp4" else "q4_k_m"


def _vllm_weights(arch: ModelArch, req: FitRequest) -> str | None:
    """vLLM serves the checkpoint's own format (AWQ, FP8, MXFP4, bf16) or FP8 on the fly (--quantization fp8)."""
    return req.weights if req.weights in ("fp8", "bf16", "fp16") and req.runtime != "llamacpp" else None


def _model_name(arch: ModelArch) -> str:
    return arch.model_id if "/" in arch.model_id else arch.model_id.rsplit(".", 1)[0]


def _llamacpp_cmd(arch: ModelArch, req: FitRequest) -> str:
    name = arch.model_id if is_gguf_source(arch) else f"{_model_name(arch).split('/')[-1]}-{weight_format(arch, req).upper()}.gguf"
    args = ["llama-server", "-m", name,
            "-c", str(req.seq)]
    args += ["-ngl", "999" if req.gpu_layers is None else str(req.gpu_layers)]
    if req.cpu_moe_layers:
        args += ["--n-cpu-moe", str(req.cpu_moe_layers)]
    for regex in req.override_tensors:
        args += ["-ot", f"{regex}=CPU"]
    args += ["-fa", "on" if req.attention == "flash" else "off"]
    if req.kv_dtype not in ("fp16", "bf16"):
        args += ["--cache-type-k", req.kv_dtype, "--cache-type-v", req.kv_dtype]
    if req.batch > 1:
        args += ["-np", str(req.batch)]
    return " ".join(args)


def _ollama_lines(arch: ModelArch, req: FitRequest) -> str:
    lines = [f"FROM {_model_name(arch).split('/')[-1].lower()}", f"PARAMETER num_ctx {req.seq}"]
    if req.gpu_layers is not None:
        lines.append(f"PARAMETER num_gpu {req.gpu_layers}")
    return "\n".join(lines)


def _vllm_cmd(arch: ModelArch, req: FitRequest) -> str:
    args = ["vllm", "serve", _model_name(arch), "--max-model-len", str(req.seq),
            "--gpu-memory-utilization", f"{req.gpu_memory_utilization:g}"]
    if req.kv_dtype == "fp8":
        args += ["--kv-cache-dtype", "fp8"]
    if req.cpu_offload_gib:
        args += ["--cpu-offload-gb", f"{req.cpu_offload_gib:g}"]
    if req.vllm_max_seqs:
        args += ["--max-num-seqs", str(req.vllm_max_seqs)]
    return " ".join(args)


def _option(arch: ModelArch, req: FitRequest, gpu: GpuSpec, host_ram_gib: float | None, host_bw: float,
            code: str, title: Msg, extra_notes: tuple[Msg, ...] = ()) -> PlanOption | None:
    try:
        est: Estimate = estimate(arch, req)
    except ModelInputError:
        return None
    budget = gpu.memory_gib * GIB
    fits = fits_in(est, budget)
    host_gib = est.host_bytes / GIB
    ram_ok = host_ram_gib is None or host_gib <= host_ram_gib
    speed = estimate_speed(est, gpu, host_bw) if fits and ram_ok else None
    tps = speed.decode_tokens_per_s if speed else None
    command = {"llamacpp": _llamacpp_cmd, "ollama": _ollama_lines, "vllm": _vllm_cmd}[req.engine](arch, req)
    return PlanOption(req.engine, code, title, command, req, est.per_gpu_gib, host_gib, fits, ram_ok, tps,
                      est.weight_format, extra_notes + tuple(est.notes))


def _fits(arch: ModelArch, req: FitRequest, budget: float) -> bool:
    try:
        return fits_in(estimate(arch, req), budget)
    except ModelInputError:
        return False


def llamacpp_fit(arch: ModelArch, req: FitRequest, budget_bytes: float, ctx_set_by_user: bool) -> tuple[int, int, int] | None:
    """What llama.cpp's --fit would pick on our estimate: (context, layers whose experts go to the CPU,
    -ngl). Its order (llama.cpp src/llama.cpp llama_params_fit): keep 1 GiB free per device; lower a
    context the user did not set, down to 4096; then move expert tensors to the CPU layer by layer; then
    lower -ngl. None when nothing fits."""
    target = budget_bytes - LLAMACPP_FIT_TARGET_GIB * GIB
    base = req.with_changes(engine="llamacpp", gpu_layers=None, cpu_moe_layers=0, override_tensors=())
    seq = base.seq
    if not _fits(arch, base, target) and not ctx_set_by_user:
        best = max_seq_that_fits(arch, base, target, upper=seq)
        seq = max(min(seq, LLAMACPP_FIT_MIN_CTX), best) if best else min(seq, LLAMACPP_FIT_MIN_CTX)
    base = base.with_changes(seq=seq)
    if _fits(arch, base, target):
        return seq, 0, arch.layers + 1
    n_moe = min_cpu_moe_layers(arch, base, target)
    if n_moe > 0:
        return seq, n_moe, arch.layers + 1
    moe_all = arch.layers if arch.experts else 0
    ngl = max_gpu_layers(arch, base.with_changes(cpu_moe_layers=moe_all), target)
    if ngl < 0:
        return None
    return seq, moe_all, ngl


def plan(arch: ModelArch, req: FitRequest, gpu: GpuSpec, host_ram_gib: float | None = None,
         host_bandwidth_gbs: float = HOST_BANDWIDTH_GBS, ctx_set_by_user: bool = True,
         engines: tuple[str, ...] = ("llamacpp", "ollama", "vllm")) -> RunPlan:
    """Options to run ``arch`` for inference on ``gpu`` at ``req.seq`` tokens, best first."""
    if req.task != "inference":
        raise ModelInputError(translate("FitErrors", "The run plan is for inference; for training see the suggestions"))
    budget = gpu.memory_gib * GIB
    base = req.with_changes(gpus=1, strategy="single", gpu_total_gib=gpu.total_gib or gpu.memory_gib, gpu_name=gpu.name)
    out: list[PlanOption | None] = []

    def add(r: FitRequest, code: str, title: Msg, *notes: Msg) -> None:
        out.append(_option(arch, r, gpu, host_ram_gib, host_bandwidth_gbs, code, title, notes))

    if "llamacpp" in engines:
        lc = base.with_changes(engine="llamacpp", weights=_gguf_weights(arch, base), attention="flash",
                               kv_dtype="fp16" if base.kv_dtype not in ("q8_0", "q4_0") else base.kv_dtype,
                               gpu_layers=None, cpu_moe_layers=0, override_tensors=(), cpu_offload_gib=0.0)
        add(lc, "all_gpu", translate("FitPlan", "llama.cpp, everything on the GPU"))
        if not _fits(arch, lc, budget):
            add(lc.with_changes(kv_dtype="q8_0"), "kv_q8_0", translate("FitPlan", "llama.cpp with a q8_0 KV cache"))
            n_moe = min_cpu_moe_layers(arch, lc, budget)
            if n_moe > 0:
                add(lc.with_changes(cpu_moe_layers=n_moe), "n_cpu_moe", translate(
                    "FitPlan", "llama.cpp, experts of the first {n} layers in system RAM").format(n=n_moe))
            if arch.experts:
                add(lc.with_changes(override_tensors=("exps",)), "experts_cpu", translate(
                    "FitPlan", "llama.cpp, all routed experts in system RAM (-ot exps=CPU)"))
            ngl = max_gpu_layers(arch, lc, budget)
            if 0 <= ngl <= arch.layers:
                add(lc.with_changes(gpu_layers=ngl), "ngl", translate(
                    "FitPlan", "llama.cpp, {n} of {total} layers on the GPU, the rest in system RAM").format(n=ngl, total=arch.layers))
            seq = max_seq_that_fits(arch, lc, budget, upper=lc.seq)
            if MIN_USEFUL_CTX <= seq < lc.seq:
                add(lc.with_changes(seq=seq), "shorter_ctx", translate(
                    "FitPlan", "llama.cpp, everything on the GPU with a {seq}-token context").format(seq=seq))
    if "ollama" in engines:
        ol = base.with_changes(engine="ollama", weights=_gguf_weights(arch, base), gpu_layers=None, cpu_moe_layers=0,
                               override_tensors=(), cpu_offload_gib=0.0,
                               kv_dtype="fp16" if base.kv_dtype not in ("q8_0", "q4_0") else base.kv_dtype)
        if base.engine != "ollama":
            ol = ol.with_changes(attention="flash")
        add(ol, "all_gpu", translate("FitPlan", "Ollama, everything on the GPU"))
        if not _fits(arch, ol, budget):
            seq = max_seq_that_fits(arch, ol, budget, upper=ol.seq)
            if MIN_USEFUL_CTX <= seq < ol.seq:
                add(ol.with_changes(seq=seq), "shorter_ctx", translate(
                    "FitPlan", "Ollama, everything on the GPU with num_ctx {seq}").format(seq=seq))
            ngl = max_gpu_layers(arch, ol, budget)
            if 0 <= ngl <= arch.layers:
                add(ol.with_changes(gpu_layers=ngl), "ngl", translate(
                    "FitPlan", "Ollama, {n} of {total} layers on the GPU (num_gpu), the rest in system RAM").format(n=ngl, total=arch.layers))
    if "vllm" in engines and not arch.source.startswith("GGUF"):
        vl = base.with_changes(engine="vllm", weights=_vllm_weights(arch, base), attention="flash", gpu_layers=None,
                               cpu_moe_layers=0, override_tensors=(), cpu_offload_gib=0.0,
                               kv_dtype="fp8" if base.kv_dtype == "fp8" else "fp16")
        add(vl, "all_gpu", translate("FitPlan", "vLLM"))
        if not _fits(arch, vl, budget):
            if vl.kv_dtype != "fp8":
                add(vl.with_changes(kv_dtype="fp8"), "kv_fp8", translate("FitPlan", "vLLM with an FP8 KV cache"))
            try:
                short = vllm_needs_short(arch, vl, budget)
            except ModelInputError:
                short = None
            if short:
                add(vl.with_changes(cpu_offload_gib=short), "cpu_offload", translate(
                    "FitPlan", "vLLM with {gib:g} GiB of weights in system RAM (--cpu-offload-gb)").format(gib=short))
            seq = max_seq_that_fits(arch, vl, budget, upper=vl.seq)
            if MIN_USEFUL_CTX <= seq < vl.seq:
                add(vl.with_changes(seq=seq), "shorter_ctx", translate(
                    "FitPlan", "vLLM with --max-model-len {seq}").format(seq=seq))
    # What does not fit is shown once per engine (everything on the GPU, to say why), not in every variant.
    options = [o for o in out if o is not None and ((o.fits and o.ram_ok) or o.code == "all_gpu")]
    options.sort(key=lambda o: (not (o.fits and o.ram_ok), -(o.tokens_per_s or 0.0), o.gpu_gib))
    fit_msg = None
    if "llamacpp" in engines:
        fit = llamacpp_fit(arch, base.with_changes(weights=_gguf_weights(arch, base)), budget, ctx_set_by_user)
        fit_msg = _fit_message(arch, fit, options)
    return RunPlan(arch.model_id, gpu.name, gpu.memory_gib, host_ram_gib, tuple(options), fit_msg)


def vllm_needs_short(arch: ModelArch, req: FitRequest, budget_bytes: float) -> float | None:
    """The whole GiB of --cpu-offload-gb that lets vLLM start (None: none up to the weights' size)."""
    est = estimate(arch, req)
    top = int(math.ceil(est.parts.get("weights", 0.0) / GIB))

    def fits(gib: int) -> bool:
        return _fits(arch, req.with_changes(cpu_offload_gib=float(gib)), budget_bytes)

    if top < 1 or not fits(top):
        return None
    lo, hi = 0, top  # memory falls as more is offloaded: bisect for the smallest that fits
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid
    return float(hi)


def _fit_message(arch: ModelArch, fit: tuple[int, int, int] | None, options: list[PlanOption]) -> Msg:
    if fit is None:
        return translate("FitPlan", "llama.cpp's --fit would not find a setting that fits either")
    seq, n_moe, ngl = fit
    ours = next((o for o in options if o.engine == "llamacpp" and o.fits and o.ram_ok), None)
    if ours is None:
        return translate("FitPlan", "llama.cpp's --fit would choose -c {seq} -ngl {ngl} with the experts of {n} layers on the CPU").format(
            seq=seq, ngl=min(ngl, arch.layers + 1), n=n_moe)
    r = ours.request
    our_ngl = arch.layers + 1 if r.gpu_layers is None else r.gpu_layers
    our_moe = arch.layers if r.override_tensors else r.cpu_moe_layers
    if (seq, n_moe, min(ngl, arch.layers + 1)) == (r.seq, our_moe, our_ngl) and not n_moe:
        return translate("FitPlan", "llama.cpp's --fit would choose the same: -c {seq}, every layer on the GPU").format(seq=seq)
    if (seq, n_moe, min(ngl, arch.layers + 1)) == (r.seq, our_moe, our_ngl):
        return translate("FitPlan", "llama.cpp's --fit would choose the same: -c {seq}, -ngl {ngl}, the experts of {n} layers on the CPU").format(
            seq=seq, ngl=our_ngl, n=n_moe)
    return translate("FitPlan", "llama.cpp's --fit would choose -c {seq} -ngl {ngl} with the experts of {n} layers on the CPU, where the first option here says -c {our_seq} -ngl {our_ngl} and {our_n}: --fit keeps 1 GiB free per GPU (--fit-target) and lowers a context you did not set down to 4096 before moving tensors, while this plan uses the whole card at the context you asked for").format(
        seq=seq, ngl=min(ngl, arch.layers + 1), n=n_moe, our_seq=r.seq, our_ngl=our_ngl, our_n=our_moe)


def plan_to_json(p: RunPlan) -> dict:
    return {
        "model": p.model_id, "gpu": p.gpu_name, "budget_gib": round(p.budget_gib, 3),
        "host_ram_gib": None if p.host_ram_gib is None else round(p.host_ram_gib, 1),
        "options": [{
            "engine": o.engine, "code": o.code, "title": str(o.title), "command": o.command,
            "gpu_gib": round(o.gpu_gib, 3), "host_gib": round(o.host_gib, 3), "fits": o.fits,
            "enough_ram": o.ram_ok,
            "decode_tokens_per_s": None if o.tokens_per_s is None else round(o.tokens_per_s, 1),
            "context": o.request.seq, "weights": o.weights,
        } for o in p.options],
        "llamacpp_fit": None if p.llamacpp_fit is None else str(p.llamacpp_fit),
    }


def plan_lines(p: RunPlan, render) -> list[str]:
    lines = [render(translate("FitPlan", "How to run {model} on {gpu} ({budget:.1f} GiB), best first:").format(
        model=p.model_id, gpu=p.gpu_name, budget=p.budget_gib))]
    for i, o in enumerate(p.options, 1):
        if o.fits and o.ram_ok:
            state = render(translate("FitPlan", "about {tps:.0f} tokens/s").format(tps=o.tokens_per_s)) if o.tokens_per_s else ""
        elif o.fits:
            state = render(translate("FitPlan", "needs more system RAM than there is"))
        else:
            state = render(translate("FitPlan", "does not fit"))
        lines.append(render(translate("FitPlan", "{n}. {title}: {gpu:.1f} GiB on the GPU, {host:.1f} GiB in system RAM; {state}").format(
            n=i, title=o.title, gpu=o.gpu_gib, host=o.host_gib, state=state)))
        for cmd in o.command.splitlines():
            lines.append(f"     {cmd}")
    if p.llamacpp_fit is not None:
        lines.append(render(p.llamacpp_fit))
    return lines
