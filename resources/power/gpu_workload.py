"""GPU Assistant's sweep workload: run in the user's PyTorch environment, never imported by the app.

    python gpu_workload.py --kind matmul|copy --device N --seconds S --warmup W

- ``matmul``: a bf16 (fp16 before Ampere) square matrix-multiply loop, compute-bound like training
  and prompt processing. Reports TFLOP/s, counting 2*n^3 floating-point operations per product.
- ``copy``: a large device-to-device copy, memory-bound like token generation. Reports GB/s
  counting each byte read and written (2 x size per copy, as CUDA's bandwidthTest does for
  device-to-device copies: cuda-samples Samples/1_Utilities/bandwidthTest, "2.0f * memSize").

It prints one JSON object per line on stdout: ``{"event": "ready", ...}`` once the GPU is set up,
``{"event": "measuring"}`` when the warm-up ends (the app averages NVML's power from here on),
and ``{"event": "result", ...}`` at the end; or ``{"event": "error", "code": ..., "message": ...}``
with exit status 3 (no PyTorch, no CUDA) or 1 (anything else). The device index is NVML's (the
app sets CUDA_DEVICE_ORDER=PCI_BUS_ID so both count the same way).
"""
from __future__ import annotations

import argparse
import json
import sys
import time


def say(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=("matmul", "copy"), required=True)
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=25.0, help="warm-up plus measurement")
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--size", type=int, default=0, help="matrix side or copy MiB (0: automatic)")
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError as exc:
        say(event="error", code="no_torch", message=f"PyTorch is not installed here: {exc}")
        return 3
    if not torch.cuda.is_available() or args.device >= torch.cuda.device_count():
        say(event="error", code="no_cuda",
            message=f"PyTorch {torch.__version__} sees no CUDA GPU {args.device}")
        return 3
    device = torch.device("cuda", args.device)
    torch.cuda.set_device(device)
    try:
        if args.kind == "matmul":
            return matmul(torch, device, args)
        return copy(torch, device, args)
    except torch.cuda.OutOfMemoryError as exc:
        say(event="error", code="oom", message=str(exc).splitlines()[0])
        return 1
    except RuntimeError as exc:
        say(event="error", code="cuda", message=str(exc).splitlines()[0])
        return 1


def run_timed(torch, step, args) -> tuple[int, float]:  # noqa: ANN001
    """Warm up for ``args.warmup`` s, then count steps until ``args.seconds`` is over."""
    start = time.monotonic()
    while time.monotonic() - start < args.warmup:
        step()
        torch.cuda.synchronize()
    say(event="measuring")
    steps = 0
    t0 = time.perf_counter()
    end = start + max(args.seconds, args.warmup + 1.0)
    while time.monotonic() < end:
        for _ in range(4):  # a few steps per synchronise: the queue never runs dry
            step()
        steps += 4
        torch.cuda.synchronize()
    return steps, time.perf_counter() - t0


def matmul(torch, device, args) -> int:  # noqa: ANN001
    major, _ = torch.cuda.get_device_capability(device)
    dtype = torch.bfloat16 if major >= 8 else torch.float16  # bf16 tensor cores from Ampere (sm_80)
    n = args.size or 8192
    a = torch.randn(n, n, device=device, dtype=dtype)
    b = torch.randn(n, n, device=device, dtype=dtype)
    out = torch.empty(n, n, device=device, dtype=dtype)
    say(event="ready", device=torch.cuda.get_device_name(device), dtype=str(dtype).replace("torch.", ""), size=n)
    steps, elapsed = run_timed(torch, lambda: torch.matmul(a, b, out=out), args)
    tflops = 2.0 * n ** 3 * steps / elapsed / 1e12
    say(event="result", kind="matmul", value=round(tflops, 2), unit="TFLOP/s", seconds=round(elapsed, 2), steps=steps)
    return 0


def copy(torch, device, args) -> int:  # noqa: ANN001
    free, _total = torch.cuda.mem_get_info(device)
    # Far larger than any L2 cache (H100/H200: 50 MiB; RTX 4090: 72 MiB), small enough to fit twice.
    mib = args.size or int(min(2048, free / 2**20 / 4))
    if mib < 64:
        say(event="error", code="oom", message=f"only {free / 2**20:.0f} MiB free on the GPU")
        return 1
    count = mib * 2**20 // 2
    src = torch.empty(count, device=device, dtype=torch.float16).normal_()
    dst = torch.empty_like(src)
    say(event="ready", device=torch.cuda.get_device_name(device), dtype="float16", size=mib)
    steps, elapsed = run_timed(torch, lambda: dst.copy_(src), args)
    gbps = 2.0 * count * 2 * steps / elapsed / 1e9
    say(event="result", kind="copy", value=round(gbps, 1), unit="GB/s", seconds=round(elapsed, 2), steps=steps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
