"""Shared by the real-GPU test modules: does NVML find a GPU here?"""
from __future__ import annotations

from services.telemetry.nvml import Nvml, NvmlUnavailable


def nvml_gpu_count() -> int:
    nvml = Nvml()
    try:
        nvml.init()
        return int(nvml.call("nvmlDeviceGetCount"))
    except (NvmlUnavailable, Exception):  # any failure means "no usable GPU here"
        return 0
    finally:
        nvml.shutdown()
