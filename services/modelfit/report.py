"""One answer as plain data (JSON) and as lines of text (CLI), from the same source."""
from __future__ import annotations

import unicodedata
from typing import Any
from collections.abc import Callable

from services.i18n import Msg, translate
from services.modelfit.request import COMPONENTS, GIB
from services.modelfit.gpus import GpuSpec
from services.modelfit.solver import FitAnswer, vllm_needs_bytes
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


GRID_STATUS: dict[str, Msg] = {
    "fits": translate("FitReport", "fits"),
    "tight": translate("FitReport", "tight"),
    "no": translate("FitReport", "no"),
    "invalid": translate("FitReport", "n/a"),
}


def as_measured(est) -> dict[str, float | None]:
    """The figure each common counter would show for this run, so a measurement can be compared
    with the same thing: torch.cuda.max_memory_allocated (no CUDA context, no allocator slack),
    max_memory_reserved (no CUDA context), an engine's own log (vLLM's profiling lines: weights,
    non-torch, activation peak, KV cache; llama.cpp's buffer lines), and nvidia-smi (everything
    the process holds; vLLM: its whole share of the card when the card is known)."""
    parts = est.parts

    def without(*drop: str) -> float:
        return sum(v for k, v in parts.items() if k not in drop) / GIB

    smi = est.per_gpu_gib + est.engine_reserved_bytes / GIB
    return {
        "torch_max_allocated_gib": _r(without("cuda_context", "allocator", "cuda_graphs")),
        "torch_max_reserved_gib": _r(without("cuda_context", "cuda_graphs")),
        "engine_log_gib": _r(without("cuda_context", "allocator", "cuda_graphs")),
        "nvidia_smi_gib": _r(smi),
    }


def _r(x: float | None, digits: int = 3) -> float | None:
    return None if x is None else round(float(x), digits)


def answer_to_json(ans: FitAnswer, gpu: GpuSpec | None, speed: SpeedEstimate | None,
                   offload_speed: SpeedEstimate | None = None) -> dict[str, Any]:
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
            "activation_offload": req.activation_offload if req.task == "train" else None,
            "chunked_loss": req.chunked_loss if req.task == "train" else None,
            "fused_loss": req.fused_loss if req.task == "train" else None,
            "optimizer_in_backward": req.optimizer_in_backward if req.task == "train" else None,
            "compile": req.compile if req.task == "train" else None,
            "lora_output": req.lora_on_output if req.task == "train" and req.method != "full" else None,
            "lora_dtype": ("fp32" if req.lora_adapter_bytes == 4 else "bf16") if req.task == "train" and req.method != "full" else None,
            "kbit_fp32_cast": req.kbit_fp32_upcast if req.task == "train" and req.method == "qlora" else None,
            "gpu_memory_utilization": req.gpu_memory_utilization if req.runtime == "vllm" else None,
            "gpu_layers": req.gpu_layers if req.runtime == "llamacpp" else None,
        },
        "per_gpu_gib": _r(est.per_gpu_gib),
        "total_gib": _r(est.total_gib),
        "breakdown": {k: _r(v) for k, v in est.breakdown_gib().items()},
        "host_gib": _r(est.host_bytes / 2**30),
        "engine_reserved_gib": _r(est.engine_reserved_bytes / 2**30),
        "as_measured": as_measured(est),
        "vllm": None if req.runtime != "vllm" else {
            "needs_gib": _r(vllm_needs_bytes(est) / GIB),
            "cuda_graphs_gib": _r(est.gib("cuda_graphs")),
            "takes_at_start_gib": _r(ans.vllm_takes_gib),
            "gpu_memory_utilization": req.gpu_memory_utilization,
            "starts": ans.fits,
            "largest_max_model_len": ans.max_seq,
        },
        "offload": None if ans.offload is None else {
            "gpu_layers": ans.offload.gpu_layers, "layers": ans.offload.layers,
            "flag": ans.offload.flag if req.engine == "llamacpp" else f"num_gpu {ans.offload.gpu_layers}",
            "cpu_moe_layers": ans.offload.cpu_moe_layers or None,
            "gpu_gib": _r(ans.offload.gpu_gib), "host_gib": _r(ans.offload.host_gib),
            "decode_tokens_per_s": None if offload_speed is None else _r(offload_speed.decode_tokens_per_s, 1),
            "speed_label": "rough estimate: GPU layers at 61% of the card's bandwidth, the rest at 61% of the RAM bandwidth",
        },
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
                 render: Callable[[Msg | str], str], offload_speed: SpeedEstimate | None = None) -> list[str]:
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
    if req.runtime == "vllm" and ans.vllm_takes_gib is not None:
        lines.append(render(translate("FitReport", "vLLM needs {needs:.2f} GiB for max_model_len {seq}; at start it takes {takes:.2f} GiB ({util:.0%} of the card + CUDA graphs)").format(
            needs=vllm_needs_bytes(est) / GIB, seq=req.seq, takes=ans.vllm_takes_gib, util=req.gpu_memory_utilization)))
    if gpu is not None and ans.fits is not None:
        what = translate("FitReport", "free now") if gpu.live else translate("FitReport", "total")
        if ans.fits:
            lines.append(render(translate("FitReport", "Fits on {gpu} ({budget:.1f} GiB {what}) with {left:.2f} GiB to spare").format(
                gpu=gpu.name, budget=gpu.memory_gib, what=what, left=ans.headroom_gib)))
        else:
            lines.append(render(translate("FitReport", "Does NOT fit on {gpu} ({budget:.1f} GiB {what}): {short:.2f} GiB short").format(
                gpu=gpu.name, budget=gpu.memory_gib, what=what, short=-(ans.headroom_gib or 0.0))))
        if ans.fits is not None and req.runtime == "vllm" and req.gpu_total_gib is not None:
            lines.append(render(translate("FitReport", "vLLM starts with this max_model_len") if ans.fits
                                else translate("FitReport", "vLLM does not start with this max_model_len")))
        if ans.max_seq is not None:
            if req.runtime == "vllm" and ans.max_seq:
                lines.append(render(translate("FitReport", "Largest max_model_len vLLM starts with: {seq} tokens").format(seq=ans.max_seq)))
            else:
                lines.append(render(translate("FitReport", "Largest context that fits: {seq} tokens").format(seq=ans.max_seq) if ans.max_seq
                                    else translate("FitReport", "No context length fits with these settings")))
        if ans.offload is not None:
            flag = ans.offload.flag if req.engine == "llamacpp" else f"num_gpu {ans.offload.gpu_layers}"
            if ans.offload.cpu_moe_layers:
                lines.append(render(translate("FitReport", "Expert offload: every layer on the GPU, the experts of the first {n} layers in system RAM ({flag}), {gpu:.2f} GiB on the GPU and {host:.2f} GiB in system RAM").format(
                    n=ans.offload.cpu_moe_layers, flag=flag, gpu=ans.offload.gpu_gib, host=ans.offload.host_gib)))
            else:
                lines.append(render(translate("FitReport", "Partial offload: {n} of {total} layers on the GPU ({flag}), {gpu:.2f} GiB there and {host:.2f} GiB in system RAM").format(
                    n=min(ans.offload.gpu_layers, ans.offload.layers), total=ans.offload.layers, flag=flag, gpu=ans.offload.gpu_gib, host=ans.offload.host_gib)))
            if offload_speed is not None and offload_speed.decode_tokens_per_s:
                lines.append(render(translate("FitReport", "Estimate for that split: about {tps:.1f} tokens/s generated (rough: RAM bandwidth limits the layers on the CPU)").format(
                    tps=offload_speed.decode_tokens_per_s)))
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
