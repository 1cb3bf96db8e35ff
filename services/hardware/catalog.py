"""The GPU, CPU and component catalogue under ``resources/data``, and name matching.

Other tools read the GPU catalogue too (model fit: VRAM, bandwidth, tensor
TFLOPS; setup: PCI device IDs and architecture), so this module is small, has
no Qt and caches nothing globally: call ``load_catalog()`` once and keep it.

``find_gpu("4090")``, ``find_gpu("GeForce RTX 4090")``, ``find_gpu("4060 laptop")``
and ``find_gpu(0x268410DE)`` (NVML's ``pciDeviceId``) all resolve to one card.
"""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar
from collections.abc import Iterable, Sequence

from services.i18n import TranslatableError, translate
from services.paths import resource_path

DATA_DIR = resource_path("data")
NVIDIA_VENDOR_ID = 0x10DE


class CatalogError(TranslatableError):
    """The catalogue file is missing or malformed (a packaging bug, not user input). ``str(exc)`` is
    English; ``message`` the same line, translatable (the parser's own detail stays English)."""


@dataclass(frozen=True, slots=True)
class PowerConnector:
    # "12v-2x6" (also 12VHPWR), "12pin-fe" (RTX 30 Founders 12-pin), "8pin", "6pin",
    # "eps-8pin" (CPU-style, pro/data-centre cards), "none" (slot powered),
    # "module" (SXM: not an add-in card), "unknown"
    type: str
    count: int = 0
    six_pin: int = 0


@dataclass(frozen=True, slots=True)
class Gpu:
    key: str
    name: str
    vendor: str
    architecture: str
    segment: str  # desktop | laptop | workstation | datacenter
    vram_gb: float
    memory_type: str | None
    bus_width_bits: int | None
    bandwidth_gbs: float | None
    fp32_tflops: float | None
    # Dense (no 2:4 sparsity) tensor throughput at FP32 accumulate: what BF16/FP16
    # mixed-precision training really gets. GeForce runs it at half the FP16-accumulate rate.
    tensor_bf16_dense_tflops: float | None
    tensor_fp16_fp16acc_dense_tflops: float | None
    tensor_fp8_dense_tflops: float | None
    bf16_supported: bool
    tgp_w: float | None
    tgp_max_w: float | None
    required_system_power_w: float | None  # NVIDIA's "required system power" (a PSU size)
    rsp_confidence: str | None  # nvidia | secondary | unverified | sibling (the figure of a same-GPU card)
    power_connector: PowerConnector
    pcie_gen: int | None
    pcie_lanes: int | None
    slots: int | None
    thickness_mm: float | None
    nvlink: bool
    ecc: bool
    pci_device_ids: tuple[int, ...]
    launch_year: int | None
    launch_price_usd: float | None
    aliases: tuple[str, ...] = ()
    notes: str = ""
    sources: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    # how the PSU is sized where NVIDIA's figure is not in our sources: "sibling" (a same-GPU
    # card's figure, rsp_from) or "components" (from the parts alone); rsp_why says why
    rsp_method: str | None = None
    rsp_from: str | None = None
    rsp_why: str = ""

    @property
    def is_laptop(self) -> bool:
        return self.segment == "laptop"

    @property
    def is_add_in_card(self) -> bool:
        """A card that goes in a desktop/workstation PCIe slot (not a laptop chip or SXM module)."""
        return self.segment != "laptop" and self.power_connector.type != "module"

    @property
    def width_slots(self) -> float | None:
        if self.thickness_mm:
            return self.thickness_mm / SLOT_PITCH_MM
        return float(self.slots) if self.slots else None


SLOT_PITCH_MM = 20.32  # one expansion-slot pitch (0.8 in), PCI/ATX form factor


@dataclass(frozen=True, slots=True)
class Cpu:
    name: str
    vendor: str
    base_power_w: float
    max_power_w: float  # Intel PL2 "Maximum Turbo Power" or AMD PPT
    limit_kind: str  # PL2 | PPT
    platform: str
    pcie_gen: int
    gpu_lanes: int
    gpu_splits: tuple[str, ...]
    chipset_slot: str | None
    aliases: tuple[str, ...] = ()
    sources: dict[str, str] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Component:
    key: str
    watts: float
    source: str
    spinup_watts: float | None = None


@dataclass(frozen=True, slots=True)
class CloudPrice:
    gpu_key: str
    usd_per_hour: float
    provider: str  # a company name, never translated
    read: str
    source: str
    offer: str = ""  # catalogue_snapshot | market_range | serverless: what kind of price (translated for display)
    offer_detail: str = ""  # the range or per-second rate behind it


@dataclass(frozen=True, slots=True)
class Catalog:
    gpus: tuple[Gpu, ...]
    cpus: tuple[Cpu, ...]
    components: dict[str, Component]
    cloud_prices: dict[str, CloudPrice]
    psu_rules: dict[str, Any]
    electricity_default: dict[str, Any]
    # the whole cloud_prices.json: currencies, local card prices, notes (see services.hardware.money)
    money: dict[str, Any] = field(default_factory=dict)

    def gpu(self, key: str) -> Gpu:
        for gpu in self.gpus:
            if gpu.key == key:
                return gpu
        raise KeyError(key)

    def find_gpu(self, query: "str | int") -> Gpu | None:
        return find_gpu(query, self.gpus)

    def find_cpu(self, query: str) -> Cpu | None:
        return find_cpu(query, self.cpus)


# ---- Loading

def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogError(translate("Catalog", "cannot read {file}: {reason}").format(
            file=path.name, reason=str(exc))) from exc


def _gpu_from(d: dict[str, Any]) -> Gpu:
    conn = d.get("power_connector") or {}
    return Gpu(
        key=d["key"], name=d["name"], vendor=d.get("vendor", "NVIDIA"), architecture=d.get("architecture", ""),
        segment=d.get("segment", "desktop"), vram_gb=float(d["vram_gb"]), memory_type=d.get("memory_type"),
        bus_width_bits=d.get("bus_width_bits"), bandwidth_gbs=d.get("bandwidth_gbs"), fp32_tflops=d.get("fp32_tflops"),
        tensor_bf16_dense_tflops=d.get("tensor_bf16_dense_tflops"),
        tensor_fp16_fp16acc_dense_tflops=d.get("tensor_fp16_fp16acc_dense_tflops"),
        tensor_fp8_dense_tflops=d.get("tensor_fp8_dense_tflops"), bf16_supported=bool(d.get("bf16_supported", True)),
        tgp_w=d.get("tgp_w"), tgp_max_w=d.get("tgp_max_w"), required_system_power_w=d.get("required_system_power_w"),
        rsp_confidence=d.get("rsp_confidence"),
        power_connector=PowerConnector(conn.get("type", "unknown"), int(conn.get("count", 0)), int(conn.get("six_pin", 0))),
        pcie_gen=d.get("pcie_gen"), pcie_lanes=d.get("pcie_lanes"), slots=d.get("slots"), thickness_mm=d.get("thickness_mm"),
        nvlink=bool(d.get("nvlink")), ecc=bool(d.get("ecc")),
        pci_device_ids=tuple(int(x, 16) for x in d.get("pci_device_ids", [])),
        launch_year=d.get("launch_year"), launch_price_usd=d.get("launch_price_usd"),
        aliases=tuple(d.get("aliases", [])), notes=d.get("notes", ""), sources=dict(d.get("sources", {})),
        rsp_method=(d.get("rsp_method") or {}).get("kind"), rsp_from=(d.get("rsp_method") or {}).get("from"),
        rsp_why=str((d.get("rsp_method") or {}).get("why", "")),
    )


def _cpu_from(d: dict[str, Any]) -> Cpu:
    return Cpu(
        name=d["name"], vendor=d["vendor"], base_power_w=float(d["base_power_w"]), max_power_w=float(d["max_power_w"]),
        limit_kind=d["limit_kind"], platform=d["platform"], pcie_gen=int(d["pcie_gen"]), gpu_lanes=int(d["gpu_lanes"]),
        gpu_splits=tuple(d["gpu_splits"]), chipset_slot=d.get("chipset_slot"), aliases=tuple(d.get("aliases", [])),
        sources=dict(d.get("sources", {})),
    )


def load_catalog(data_dir: Path = DATA_DIR) -> Catalog:
    """Read every catalogue file. Raises ``CatalogError`` if one is unreadable."""
    try:
        gpus = tuple(_gpu_from(g) for g in _read_json(data_dir / "gpus.json")["gpus"])
        cpus = tuple(_cpu_from(c) for c in _read_json(data_dir / "cpus.json")["cpus"])
        comps = {c["key"]: Component(c["key"], float(c["watts"]), c["source"], c.get("spinup_watts"))
                 for c in _read_json(data_dir / "components.json")["components"]}
        cloud_doc = _read_json(data_dir / "cloud_prices.json")
        cloud = {p["gpu"]: CloudPrice(p["gpu"], float(p["usd_per_hour"]), p["provider"], p["read"], p["source"],
                                      str(p.get("offer", "")), str(p.get("offer_detail", "")))
                 for p in cloud_doc["prices"]}
        rules = _read_json(data_dir / "psu.json")
    except (KeyError, TypeError, ValueError) as exc:
        raise CatalogError(translate("Catalog", "catalogue data is malformed: {problem}").format(
            problem=repr(exc))) from exc
    return Catalog(gpus, cpus, comps, cloud, rules, cloud_doc.get("electricity", {}), cloud_doc)


@lru_cache(maxsize=1)
def _default_catalog() -> Catalog:
    return load_catalog()


def load_gpus() -> tuple[Gpu, ...]:
    """Every GPU in the shipped catalogue."""
    return _default_catalog().gpus


def load_cpus() -> tuple[Cpu, ...]:
    return _default_catalog().cpus


# ---- Name matching

# Words people add or leave out without changing which product they mean.
_GPU_NOISE = {"nvidia", "geforce", "rtx", "generation", "gpu", "graphics", "edition", "card", "founders", "fe"}
_CPU_NOISE = {"intel", "amd", "core", "ryzen", "processor", "cpu", "r", "tm", "threadripper"}


def _tokens(text: str, noise: set[str]) -> tuple[str, ...]:
    t = text.lower()
    t = re.sub(r"\((r|tm)\)", " ", t)
    t = re.sub(r"@.*$", " ", t)  # "@ 3.00GHz"
    t = re.sub(r"\b\d+-cores?\b", " ", t)  # "16-Core Processor", "24-Cores"
    t = re.sub(r"\b\d+th gen\b", " ", t)  # "13th Gen Intel(R) Core(TM) i7-13700K"
    t = t.replace("max-q", "laptop").replace("mobile", "laptop")
    t = re.sub(r"(\d+)\s*gb\b", r"\1gb", t)
    t = re.sub(r"[^a-z0-9]+", " ", t)
    # "4070ti" -> "4070 ti", "4090d" -> "4090 d"; keep CPU model suffixes like 13900k / 9950x3d together
    t = re.sub(r"\b(\d{4})(ti|super|d)\b", r"\1 \2", t)
    t = re.sub(r"\b(rtx|gtx)(\d)", r"\1 \2", t)  # "rtx4090"
    t = re.sub(r"\b([2-5]0[5-9]0)\s?m\b", r"\1 laptop", t)  # "4060m", "4090 M": the laptop chip
    t = re.sub(r"\b(i[3579])(\d{4,5})", r"\1 \2", t)
    words = [w for w in t.split() if w and w not in noise]
    return tuple(words)


T = TypeVar("T")


def _ranked(query: str, items: Sequence[T], names_of, noise: set[str]) -> list[T]:
    """Items with a name holding every word of ``query``, best first: fewest extra words,
    then an exact name, then catalogue order."""
    q = _tokens(query, noise)
    if not q:
        return []
    qs = set(q)
    # A family name is not a model: "AMD EPYC" (what a virtual machine reports) is not the EPYC 9124.
    names_a_model = any(any(ch.isdigit() for ch in word) for word in q)
    scores: dict[int, tuple[tuple[int, int, int], T]] = {}
    for order, item in enumerate(items):
        for name in names_of(item):
            c = _tokens(name, noise)
            cs = set(c)
            if not qs <= cs:
                continue
            if not names_a_model and any(any(ch.isdigit() for ch in word) for word in c):
                continue
            score = (len(cs - qs), 0 if c == q else 1, order)
            if order not in scores or score < scores[order][0]:
                scores[order] = (score, item)
    return [item for _score, item in sorted(scores.values(), key=lambda pair: pair[0])]


def _best(query: str, items: Sequence[T], names_of, noise: set[str]) -> T | None:
    ranked = _ranked(query, items, names_of, noise)
    return ranked[0] if ranked else None


# Names offered when nothing typed is close ("RTX9999", "zzz"): a user always gets three real
# names to copy. Cards and CPUs people most often build AI machines around; not a ranking.
POPULAR_GPUS = ("GeForce RTX 4090", "GeForce RTX 3090", "GeForce RTX 4060 Ti 16GB")
POPULAR_CPUS = ("Core i7-14700K", "Ryzen 7 7800X3D", "Ryzen 9 9950X")


def _suggest(query: str, names: Iterable[str], noise: set[str], n: int = 3, popular: Sequence[str] = ()) -> list[str]:
    """The ``n`` closest names (difflib), then names sharing digits, then the popular ones."""
    names = list(dict.fromkeys(names))
    q = " ".join(_tokens(query, noise)) or query.lower()
    keyed = {" ".join(_tokens(name, noise)): name for name in names}
    close = difflib.get_close_matches(q, list(keyed), n=n, cutoff=0.4)
    digits = re.findall(r"\d{3,}", q)  # shared digits ("4095" -> the 409x cards)
    close += [k for k in keyed if k not in close and any(d[:3] in k for d in digits)]
    found = [keyed[c] for c in close[:n]]
    found += [name for name in popular if name in names and name not in found]
    if len(found) < n:  # a catalogue without the popular names still gives n
        found += [name for name in names if name not in found]
    return found[:n]


def _gpu_names(gpu: Gpu) -> tuple[str, ...]:
    return (gpu.name, gpu.key.replace("-", " "), *gpu.aliases)


def parse_pci_device_id(value: "str | int") -> int | None:
    """Device ID from NVML's ``pciDeviceId`` (0xDDDD10DE), '0x2684' or '10de:2684'."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        if value > 0xFFFF:
            return (value >> 16) & 0xFFFF if (value & 0xFFFF) == NVIDIA_VENDOR_ID else None
        return value
    text = value.strip().lower()
    m = re.fullmatch(r"(?:10de:)?(?:0x)?([0-9a-f]{4})(10de)?", text)
    if m and (text.startswith(("0x", "10de:")) or m.group(2)):
        return int(m.group(1), 16)
    return None


def find_gpu(query: "str | int", gpus: Sequence[Gpu] | None = None, memory_total_mib: float | None = None) -> Gpu | None:
    """The catalogue card a user or a driver means, or None.

    ``query`` is a name as people type it or a PCI device ID. Some IDs are shared by
    two memory sizes (4060 Ti 8/16 GB, 5060 Ti 8/16 GB): pass ``memory_total_mib``
    (from NVML) to pick the right one.
    """
    gpus = load_gpus() if gpus is None else gpus
    device_id = parse_pci_device_id(query)
    if device_id is not None:
        hits = [g for g in gpus if device_id in g.pci_device_ids]
        if not hits:
            return None
        if memory_total_mib and len(hits) > 1:
            return min(hits, key=lambda g: abs(g.vram_gb * 1024 - memory_total_mib))
        return hits[0]
    if not isinstance(query, str):
        return None
    return _best(query, gpus, _gpu_names, _GPU_NOISE)


@dataclass(frozen=True, slots=True)
class GpuMatch:
    gpu: Gpu
    passed_over: Gpu | None = None  # the SXM module the name also matches, when the add-in card was preferred


def find_gpu_for_build(query: "str | int", gpus: Sequence[Gpu] | None = None) -> GpuMatch | None:
    """Like ``find_gpu``, for a desktop build: when a name fits both an SXM module and a PCIe
    add-in card ("H100", "A100 80GB"), it means the card, since a desktop has slots, not SXM
    sockets. ``passed_over`` tells the caller to say so."""
    gpus = load_gpus() if gpus is None else gpus
    if parse_pci_device_id(query) is not None or not isinstance(query, str):
        hit = find_gpu(query, gpus)
        return GpuMatch(hit) if hit else None
    ranked = _ranked(query, gpus, _gpu_names, _GPU_NOISE)
    if not ranked:
        return None
    best = ranked[0]
    if best.is_add_in_card or best.is_laptop:
        return GpuMatch(best)
    card = next((g for g in ranked if g.is_add_in_card), None)
    return GpuMatch(card, best) if card else GpuMatch(best)


def suggest_gpus(query: str, gpus: Sequence[Gpu] | None = None) -> list[str]:
    gpus = load_gpus() if gpus is None else gpus
    return _suggest(query, (g.name for g in gpus), _GPU_NOISE, popular=POPULAR_GPUS)


def find_cpu(query: str, cpus: Sequence[Cpu] | None = None) -> Cpu | None:
    cpus = load_cpus() if cpus is None else cpus
    return _best(query, cpus, lambda c: (c.name, *c.aliases), _CPU_NOISE)


def suggest_cpus(query: str, cpus: Sequence[Cpu] | None = None) -> list[str]:
    cpus = load_cpus() if cpus is None else cpus
    return _suggest(query, (c.name for c in cpus), _CPU_NOISE, popular=POPULAR_CPUS)
