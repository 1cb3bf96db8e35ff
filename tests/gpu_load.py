"""A PyTorch process that loads an NVIDIA GPU, for the real-GPU checks (no download: random weights).

    python3 tests/gpu_load.py [--seconds 60] [--gib 4]

It holds about ``--gib`` GiB of GPU memory and keeps the SMs busy with bf16 matrix products
until ``--seconds`` have passed, printing "loaded <pid>" once the memory is held, so a caller
knows when to look. Exit code 3 without CUDA.
"""
from __future__ import annotations

import argparse
import os
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--gib", type=float, default=4.0)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("error: PyTorch is not installed", file=sys.stderr)
        return 3
    if not torch.cuda.is_available():
        print("error: no CUDA GPU", file=sys.stderr)
        return 3
    hold = torch.empty(int(args.gib * 2**30), dtype=torch.uint8, device="cuda")
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn_like(a)
    torch.cuda.synchronize()
    print(f"loaded {os.getpid()}", flush=True)
    end = time.time() + args.seconds
    while time.time() < end:
        for _ in range(20):
            a @ b
        torch.cuda.synchronize()
    del hold
    return 0


if __name__ == "__main__":
    sys.exit(main())
