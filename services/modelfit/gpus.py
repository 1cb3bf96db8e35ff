"""GPUs to fit against: the shared GPU catalogue or the live GPU.

The catalogue is ``services.hardware.catalog`` (resources/data/gpus.json, every
figure with its source): memory, bandwidth and dense BF16 tensor TFLOPS. The
live GPU comes from the telemetry hub's latest snapshot, or, in the headless
CLI, straight from NVML.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from services.hardware.catalog import Gpu, find_gpu, load_gpus, suggest_gpus
from services.i18n import TranslatableError, translate
from services.modelfit.errors import ModelInputError
from services.nvml_devices import list_devices


@dataclass(frozen=True, slots=True)
class GpuSpec:
    name: str
    memory_gib: float  # what the fit is judged against
    bandwidth_gbs: float | None = None
    bf16_tflops: float | None = None
    source: str = ""
    live: bool = False  # True: memory_gib is the detected GPU's free memory now
    total_gib: float | None = None  # the card's full memory (engine defaults such as vLLM's)


def _spec(gpu: Gpu) -> GpuSpec:
    # GPU makers' "GB" of VRAM are GiB (a 24 GB card reports 24564 MiB).
    return GpuSpec(gpu.name, gpu.vram_gb, gpu.bandwidth_gbs, gpu.tensor_bf16_dense_tflops,
                   gpu.sources.get("vram_gb", "resources/data/gpus.json"), False, gpu.vram_gb)


@dataclass(frozen=True, slots=True)
class GpuCatalogue:
    gpus: tuple[GpuSpec, ...]
    raw: tuple[Gpu, ...]

    @classmethod
    def load(cls) -> "GpuCatalogue":
        raw = tuple(g for g in load_gpus() if g.vram_gb)
        return cls(tuple(_spec(g) for g in raw), raw)

    def names(self) -> list[str]:
        return [g.name for g in self.gpus]

    def find(self, name: str, memory_total_mib: float | None = None) -> GpuSpec:
        """Match "4090", "RTX 4090", "NVIDIA GeForce RTX 4090", "4060 laptop" ..."""
        hit = find_gpu(name, self.raw, memory_total_mib=memory_total_mib) if name and name.strip() else None
        if hit is None:
            raise ModelInputError(translate("FitErrors", "Unknown GPU '{name}'").format(name=name),
                                  tuple(suggest_gpus(name or "", self.raw)))
        return _spec(hit)


@lru_cache(maxsize=1)
def default_gpu_catalogue() -> GpuCatalogue:
    return GpuCatalogue.load()


def live_gpu_from_snapshot(snapshot: Any, index: int = 0, catalogue: GpuCatalogue | None = None) -> GpuSpec | None:
    """The detected GPU's free memory from a telemetry ``Snapshot`` (None when unknown)."""
    if snapshot is None:
        return None
    samples = [s for s in getattr(snapshot, "samples", ()) if getattr(s, "index", None) == index]
    if not samples:
        return None
    sample = samples[0]
    total, used = sample.memory_total_mib, sample.memory_used_mib
    if total is None or used is None:
        return None
    info = next((g for g in getattr(snapshot, "gpus", ()) if getattr(g, "index", None) == index), None)
    name = getattr(info, "name", None) or f"GPU {index}"
    return _live_spec(name, total, used, catalogue)


def _live_spec(name: str, total_mib: float, used_mib: float, catalogue: GpuCatalogue | None) -> GpuSpec:
    try:
        spec = (catalogue or default_gpu_catalogue()).find(name, memory_total_mib=total_mib)
    except ModelInputError:
        spec = None
    free_gib = max(0.0, (total_mib - used_mib) / 1024)
    return GpuSpec(name, free_gib, spec.bandwidth_gbs if spec else None, spec.bf16_tflops if spec else None,
                   "NVML (live free memory)", True, total_mib / 1024)


class NoGpuError(TranslatableError, RuntimeError):
    """No NVIDIA driver / NVML or no GPU: exit code 3 in the CLI."""



def live_gpu_from_nvml(index: int = 0, catalogue: GpuCatalogue | None = None, module: Any = None) -> GpuSpec:
    """Ask NVML directly (headless CLI): name, total and used memory of GPU ``index``."""
    inventory = list_devices(module)
    if not inventory.ok:
        raise NoGpuError(translate("FitErrors", "NVML is not available: {reason}").format(
            reason=inventory.error_text or str(inventory.error)))
    if len(inventory.devices) <= index:
        raise NoGpuError(translate("FitErrors", "no NVIDIA GPU found"))
    device = inventory.devices[index]
    if device.memory_total_mib is None or device.memory_used_mib is None:
        raise NoGpuError(translate("FitErrors", "NVML reports no memory figures for {name}").format(name=device.name))
    return _live_spec(device.name, device.memory_total_mib, device.memory_used_mib, catalogue)
