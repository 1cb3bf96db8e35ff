"""Rough speed: tokens per second (inference) or seconds per training step.

These are estimates from two numbers on the spec sheet, not benchmarks:
- Decoding is memory-bound: each new token reads the weights on the GPU and
  the KV cache once. The llama.cpp Llama-3-8B Q4_K_M generation speeds in the
  project's research GPU table (gpus.csv, column llamacpp_llama3_8b_q4km_tg_tps,
  14 GPUs) reach a median 61% of the rated bandwidth (4.31 GiB read per token),
  so we use that share.
- Prefill and training are compute-bound: 2 FLOPs per active parameter per
  token forward, 4 more backward (full fine-tuning), 2 backward for LoRA
  (activation gradients only) and 2 more for recomputing checkpointed layers.
  Dense BF16 tensor TFLOPS at an assumed 40% model-FLOPs utilisation
  (a typical figure for single-node fine-tuning; measure your own).
- llama.cpp / Ollama with layers in system RAM: each token also reads the
  layers left on the CPU from RAM. We assume dual-channel DDR4-3200 (2 x 8 B x
  3200 MT/s = 51.2 GB/s, JEDEC) at the same 61% share unless told otherwise.
- Mixture-of-Experts: a token reads the experts_per_token routed experts of each
  layer, not all of them; with experts in system RAM (--n-cpu-moe, -ot exps=CPU)
  those bytes are read by the CPU at RAM bandwidth while attention stays on the GPU.
- vLLM --cpu-offload-gb: the offloaded weights the token touches cross PCIe. We take
  PCIe 4.0 x16 (31.5 GB/s per direction, PCI-SIG) at 80% = 25 GB/s.
"""
from __future__ import annotations

from dataclasses import dataclass

from services.modelfit.request import Estimate
from services.modelfit.gpus import GpuSpec

DECODE_BANDWIDTH_EFFICIENCY = 0.61
HOST_BANDWIDTH_GBS = 51.2
MODEL_FLOPS_UTILISATION = 0.40
PCIE_GBS = 25.0


@dataclass(frozen=True, slots=True)
class SpeedEstimate:
    decode_tokens_per_s: float | None = None  # inference: generated tokens per second (all sequences)
    prefill_tokens_per_s: float | None = None
    step_seconds: float | None = None  # training: one optimizer step of batch x seq tokens per GPU
    train_tokens_per_s: float | None = None


def estimate_speed(est: Estimate, gpu: GpuSpec | None, host_bandwidth_gbs: float = HOST_BANDWIDTH_GBS) -> SpeedEstimate | None:
    if gpu is None:
        return None
    req, arch = est.request, est.arch
    active = arch.active_params()
    n = max(1, req.gpus)
    flops_rate = gpu.bf16_tflops * 1e12 * MODEL_FLOPS_UTILISATION if gpu.bf16_tflops else None
    if req.task == "inference":
        decode = None
        if gpu.bandwidth_gbs and est.traffic:
            rate = DECODE_BANDWIDTH_EFFICIENCY * 1e9
            step_s = (est.traffic.get("gpu", 0.0) / (gpu.bandwidth_gbs * rate)
                      + est.traffic.get("host", 0.0) / (host_bandwidth_gbs * rate)
                      + est.traffic.get("pcie", 0.0) / (PCIE_GBS * 1e9))  # traffic is whole-model: GPUs take turns
            decode = req.batch / step_s if step_s > 0 else None
        elif gpu.bandwidth_gbs:
            share = active / max(arch.total_params, 1)
            weight_bytes = est.parts.get("weights", 0.0) * share
            kv_read = est.parts.get("kv_cache", 0.0) / 2  # on average the cache is half full while generating
            step_s = (weight_bytes + kv_read) / (gpu.bandwidth_gbs * 1e9 * DECODE_BANDWIDTH_EFFICIENCY)
            if req.runtime == "llamacpp" and req.gpu_layers is not None and req.gpu_layers <= arch.layers:
                # Layers left in RAM are read from there for every token (the embedding table is
                # only looked up, one row per token: not counted).
                from services.modelfit.arch import EMBED
                from services.modelfit.weights import weight_bytes_by_kind
                embed = weight_bytes_by_kind(arch, est.weight_format, req.double_quant, req.runtime)[EMBED]
                host_read = max(0.0, est.host_bytes - embed) * share
                step_s += host_read / (host_bandwidth_gbs * 1e9 * DECODE_BANDWIDTH_EFFICIENCY)
            if req.strategy == "layer_split":
                step_s *= n  # GPUs take turns
            decode = req.batch / step_s if step_s > 0 else None
        prefill = flops_rate * (n if req.strategy == "tp" else 1) / (2 * active) if flops_rate else None
        return SpeedEstimate(decode_tokens_per_s=decode, prefill_tokens_per_s=prefill)
    if not flops_rate:
        return SpeedEstimate()
    per_token = 6 * active if req.method == "full" else 4 * active
    if req.grad_ckpt:
        per_token += 2 * active
    tokens = req.seq * req.batch
    step = tokens * per_token / flops_rate
    return SpeedEstimate(step_seconds=step, train_tokens_per_s=tokens / step)
