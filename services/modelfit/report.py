"""One answer as plain data (JSON) and as lines of text (CLI), from the same source."""
from __future__ import annotations

import unicodedata
from typing import Any, Callable

from services.i18n import Msg, translate
from services.modelfit.estimate import COMPONENTS
from services.modelfit.gpus import GpuSpec
from services.modelfit.solver import FitAnswer
from services.modelfit.speed import SpeedEstimate

COMPONENT_LABELS: dict[str, Msg] = {
    "weights": translate("FitParts", "Weights"),
    "lora_adapters": translate("FitParts", "LoRA adapters"),
    "gradients": translate("FitParts", "Gradients"),
    "optimizer": translate("FitParts", "Optimizer states"),
    "kv_cache": translate("FitParts", "KV cache"),
    "activations": translate("FitParts", "Activations"),
    "logits": translate("FitParts", "Logits and loss"),
    "engine_buffers": translate("FitParts", "Engine buffers"),
    "cuda_graphs": translate("FitParts", "CUDA graphs"),
    "allocator": translate("FitParts", "Allocator slack"),
    "cuda_context": translate("FitParts", "CUDA context"),
}


def _r(x: float | None, digits: int = 3) -> float | None:
    return None if x is None else round(float(x), digits)


def answer_to_json(ans: FitAnswer, gpu: GpuSpec | None, speed: SpeedEstimate | None) -> dict[str, Any]:
    est = ans.estimate
    req = est.request
    return {
        "model": est.arch.model_id,
        "params_b": _r(est.arch.total_params / 1e9, 4),
        "model_source": est.arch.source,
        "request": {
            "task": req.task, "method": req.method if req.task == "train" else None, "weights": est.weight_format,
            "kv_dtype": req.kv_dtype, "engine": req.engine, "seq": req.seq, "batch": req.batch,
            "lora_rank": req.lora_rank if req.method != "full" else None, "lora_targets": req.lora_targets if req.method != "full" else None,
            "grad_ckpt": req.grad_ckpt if req.task == "train" else None, "optimizer": req.optimizer if req.task == "train" else None,
            "gpus": req.gpus, "strategy": req.strategy, "attention": req.attention,
        },
        "per_gpu_gib": _r(est.per_gpu_gib),
        "total_gib": _r(est.total_gib),
        "breakdown": {k: _r(v) for k, v in est.breakdown_gib().items()},
        "host_gib": _r(est.host_bytes / 2**30),
        "engine_reserved_gib": _r(est.engine_reserved_bytes / 2**30),
        "gpu": None if gpu is None else {"name": gpu.name, "budget_gib": _r(gpu.memory_gib), "live_free_memory": gpu.live},
        "fits": ans.fits,
        "headroom_gib": _r(ans.headroom_gib),
        "max_seq_that_fits": ans.max_seq,
        "max_batch_that_fits": ans.max_batch,
        "max_lora_rank_that_fits": ans.max_lora_rank,
        "suggestions": [
            {"code": s.code, "text": str(s.text), "per_gpu_gib": _r(s.per_gpu_gib), "fits": s.fits} for s in ans.suggestions
        ],
        "speed_estimate": None if speed is None else {
            "label": "rough estimate from spec-sheet TFLOPS and bandwidth",
            "decode_tokens_per_s": _r(speed.decode_tokens_per_s, 1),
            "prefill_tokens_per_s": _r(speed.prefill_tokens_per_s, 0),
            "step_seconds": _r(speed.step_seconds, 3),
            "train_tokens_per_s": _r(speed.train_tokens_per_s, 0),
        },
        "notes": [str(n) for n in est.notes],
    }


def answer_lines(ans: FitAnswer, gpu: GpuSpec | None, speed: SpeedEstimate | None,
                 render: Callable[[Msg | str], str]) -> list[str]:
    est = ans.estimate
    req = est.request
    lines = [render(translate("FitReport", "{model}: {params:.2f} B parameters, {weights} weights").format(
        model=est.arch.model_id, params=est.arch.total_params / 1e9, weights=est.weight_format))]
    if req.gpus > 1:
        lines.append(render(translate("FitReport", "Needs {per:.2f} GiB per GPU ({total:.2f} GiB on {gpus} GPUs, {strategy})").format(
            per=est.per_gpu_gib, total=est.total_gib, gpus=req.gpus, strategy=req.strategy)))
    else:
        lines.append(render(translate("FitReport", "Needs {per:.2f} GiB of GPU memory").format(per=est.per_gpu_gib)))
    width = max(_cells(render(COMPONENT_LABELS[k])) for k in COMPONENTS)
    for key, gib in est.breakdown_gib().items():
        if gib < 0.005:
            continue
        label = render(COMPONENT_LABELS[key])
        lines.append(f"  {label}{' ' * (width - _cells(label))}  {gib:8.2f} GiB")
    if est.host_bytes:
        lines.append(render(translate("FitReport", "Plus {gib:.2f} GiB in system RAM").format(gib=est.host_bytes / 2**30)))
    if est.engine_reserved_bytes:
        lines.append(render(translate("FitReport", "vLLM reserves {gib:.2f} GiB more for extra KV cache").format(gib=est.engine_reserved_bytes / 2**30)))
    if gpu is not None and ans.fits is not None:
        what = translate("FitReport", "free now") if gpu.live else translate("FitReport", "total")
        if ans.fits:
            lines.append(render(translate("FitReport", "Fits on {gpu} ({budget:.1f} GiB {what}) with {left:.2f} GiB to spare").format(
                gpu=gpu.name, budget=gpu.memory_gib, what=what, left=ans.headroom_gib)))
        else:
            lines.append(render(translate("FitReport", "Does NOT fit on {gpu} ({budget:.1f} GiB {what}): {short:.2f} GiB short").format(
                gpu=gpu.name, budget=gpu.memory_gib, what=what, short=-ans.headroom_gib)))
        if ans.max_seq is not None:
            lines.append(render(translate("FitReport", "Largest context that fits: {seq} tokens").format(seq=ans.max_seq) if ans.max_seq
                                else translate("FitReport", "No context length fits with these settings")))
        if ans.max_batch:
            lines.append(render(translate("FitReport", "Largest batch that fits: {batch}").format(batch=ans.max_batch)))
        if ans.max_lora_rank:
            lines.append(render(translate("FitReport", "Largest LoRA rank that fits: {rank}").format(rank=ans.max_lora_rank)))
        for s in ans.suggestions:
            mark = render(translate("FitReport", "fits")) if s.fits else render(translate("FitReport", "still too big"))
            lines.append(f"  - {render(s.text)}: {s.per_gpu_gib:.2f} GiB ({mark})")
    for note in est.notes:
        lines.append(render(note))
    if speed is not None:
        if speed.decode_tokens_per_s:
            lines.append(render(translate("FitReport", "Estimate: about {tps:.0f} tokens/s generated, prompt at about {pps:.0f} tokens/s").format(
                tps=speed.decode_tokens_per_s, pps=speed.prefill_tokens_per_s or 0)))
        if speed.step_seconds:
            lines.append(render(translate("FitReport", "Estimate: about {s:.2f} s per step ({tps:.0f} tokens/s per GPU)").format(
                s=speed.step_seconds, tps=speed.train_tokens_per_s)))
    return lines


def _cells(text: str) -> int:
    """Terminal columns: a Chinese character takes two, so padding by len() misaligns the table."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)
