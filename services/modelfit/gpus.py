"""GPUs to fit against: a catalogue (resources/data/fit_gpus.json) or the live GPU.

The catalogue is this tool's own copy of the research GPU table (with its
sources). The live GPU comes from the telemetry hub's latest snapshot, or, in
the headless CLI, straight from NVML.
"""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from services.i18n import translate
from services.modelfit.errors import ModelInputError
from services.paths import resource_path

GPU_FILE = resource_path("data", "fit_gpus.json")


@dataclass(frozen=True, slots=True)
class GpuSpec:
    name: str
    memory_gib: float  # what the fit is judged against
    bandwidth_gbs: float | None = None
    bf16_tflops: float | None = None
    source: str = ""
    live: bool = False  # True: memory_gib is the detected GPU's free memory now
    total_gib: float | None = None  # the card's full memory (engine defaults such as vLLM's)


def _norm(name: str) -> str:
    name = name.lower().replace("nvidia", "").replace("geforce", "")
    return re.sub(r"[^a-z0-9]+", " ", name).strip()


@dataclass(frozen=True, slots=True)
class GpuCatalogue:
    gpus: tuple[GpuSpec, ...]

    @classmethod
    def load(cls, path: Path = GPU_FILE) -> "GpuCatalogue":
        data = json.loads(path.read_text(encoding="utf-8"))
        gpus = []
        for raw in data["gpus"]:
            if not raw.get("vram_gib"):
                continue
            gpus.append(GpuSpec(raw["name"], float(raw["vram_gib"]), raw.get("bandwidth_gbs"),
                                raw.get("bf16_tensor_dense_tflops"), raw.get("source", ""), False, float(raw["vram_gib"])))
        return cls(tuple(gpus))

    def names(self) -> list[str]:
        return [g.name for g in self.gpus]

    def find(self, name: str) -> GpuSpec:
        """Match "4090", "RTX 4090", "GeForce RTX 4090" ...; exact normalised match first."""
        key = _norm(name)
        if not key:
            raise ModelInputError(translate("FitErrors", "Unknown GPU '{name}'").format(name=name), tuple(self.names()[:3]))
        exact = [g for g in self.gpus if _norm(g.name) == key]
        if exact:
            return exact[0]
        words = key.split()
        hits = [g for g in self.gpus if all(w in _norm(g.name).split() for w in words)]
        if len(hits) == 1:
            return hits[0]
        if hits:
            # "3060" matches "RTX 3060 12GB" and "RTX 3060 Ti": prefer the fewest extra words,
            # where a memory size ("12gb") barely counts.
            def extra(g: GpuSpec) -> float:
                return sum(0.1 if w.endswith("gb") else 1.0 for w in _norm(g.name).split() if w not in words)
            return min(hits, key=extra)
        close = difflib.get_close_matches(key, [_norm(n) for n in self.names()], n=3, cutoff=0.3)
        by_norm = {_norm(n): n for n in self.names()}
        raise ModelInputError(translate("FitErrors", "Unknown GPU '{name}'").format(name=name),
                              tuple(by_norm[c] for c in close))


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
    spec = None
    try:
        spec = (catalogue or default_gpu_catalogue()).find(name)
    except ModelInputError:
        spec = None
    free_gib = max(0.0, (total_mib - used_mib) / 1024)
    return GpuSpec(name, free_gib, spec.bandwidth_gbs if spec else None, spec.bf16_tflops if spec else None,
                   "NVML (live free memory)", True, total_mib / 1024)


class NoGpuError(RuntimeError):
    """No NVIDIA driver / NVML or no GPU: exit code 3 in the CLI."""


def live_gpu_from_nvml(index: int = 0, catalogue: GpuCatalogue | None = None) -> GpuSpec:
    """Ask NVML directly (headless CLI): name, total and used memory of GPU ``index``."""
    try:
        import pynvml  # provided by the nvidia-ml-py package
    except ImportError as exc:
        raise NoGpuError("nvidia-ml-py is not installed") from exc
    try:
        pynvml.nvmlInit()
    except Exception as exc:  # NVMLError_LibraryNotFound, DriverNotLoaded, ...
        raise NoGpuError(f"NVML is not available: {exc}") from exc
    try:
        if pynvml.nvmlDeviceGetCount() <= index:
            raise NoGpuError("no NVIDIA GPU found")
        handle = pynvml.nvmlDeviceGetHandleByIndex(index)
        name = pynvml.nvmlDeviceGetName(handle)
        if isinstance(name, bytes):
            name = name.decode(errors="replace")
        mem = pynvml.nvmlDeviceGetMemoryInfo(handle)
        return _live_spec(name, mem.total / 2**20, mem.used / 2**20, catalogue)
    except NoGpuError:
        raise
    except Exception as exc:
        raise NoGpuError(f"NVML error: {exc}") from exc
    finally:
        try:
            pynvml.nvmlShutdown()
        except Exception:
            pass
