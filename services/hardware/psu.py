"""Build & PSU calculator (Qt-free).

How the recommended size is found (numbers and sources in resources/data/psu.json):

1. Sustained DC load ``S``: CPU at its long-duration limit (Intel PL2 / AMD PPT),
   each GPU at its TGP, plus board, RAM, drives, fans, pumps, USB.
2. Requirements, the largest wins:
   - vendor: NVIDIA's "required system power" (for several cards: the largest
     requirement plus the other cards' TGP, since the figure assumes one card);
     the recommendation is never below it;
   - sustained share: ``S / 0.80 x ageing`` (the load at most 80 % of the rating;
     ageing 1.2 for 24/7 training, after OuterVision's 20-30 % for 24/7 use);
   - excursion: ATX 3.x lets a PSU carry 160 % for 10 ms and 200 % for 100 us
     (135 % / 150 % without a native 12V-2x6 lead or on ATX 2.x), checked against
     GPU spikes per connector type (PCIe CEM 5.0 cards: up to 3x for 100 us).
3. Rounded up to a size that is sold (450 ... 2000 W, 1 % tolerance). When the
   requirement lands within a few percent over a size, the result says so
   (``boundary``) instead of jumping a size silently.

Every user-visible sentence is a ``Msg``; JSON consumers read the stable codes.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any
from collections.abc import Sequence

from services.hardware.catalog import Catalog, Cpu, Gpu
from services.i18n import Msg, translate



class Usage(str, enum.Enum):
    GAMING = "gaming"
    TRAINING_24X7 = "training-24x7"


class PsuStandard(str, enum.Enum):
    ATX3 = "atx3"  # ATX 3.x with a native 12V-2x6 / 12VHPWR lead
    ATX2 = "atx2"  # ATX 2.x, or ATX 3.x without the native lead (lower excursion limits)


MIN_MARGIN = 1.05  # an existing PSU must carry the sustained load with 5 % to spare

EFFICIENCY_LEVELS = ("none", "white", "bronze", "silver", "gold", "platinum", "titanium")


@dataclass(frozen=True, slots=True)
class Build:
    """What the user is putting together. Counts are clamped to sane ranges by ``validate``."""

    gpus: tuple[Gpu, ...] = ()
    cpu: Cpu | None = None
    cpu_w_override: float | None = None  # overclocked / "unlimited" board defaults
    ram_sticks: int = 2
    nvme: int = 1
    sata_ssd: int = 0
    hdd: int = 0
    fans: int = 3
    aio_pumps: int = 0
    argb_channels: int = 0
    usb_devices: int = 2
    usage: Usage = Usage.GAMING
    psu_standard: PsuStandard = PsuStandard.ATX3
    efficiency: str = "gold"
    psu_w: float | None = None  # the PSU the user already has
    psu_native_12v2x6: int | None = None  # its native 12V-2x6/12VHPWR leads, if known
    psu_pcie_8pin: int | None = None  # its PCIe 8-pin (6+2) leads, if known
    price_per_kwh: float = 0.30
    gaming_hours_per_day: float = 4.0


class BuildError(ValueError):
    """A build that cannot be computed (negative counts, absurd values)."""


COUNT_LIMITS = {"ram_sticks": 16, "nvme": 16, "sata_ssd": 24, "hdd": 60, "fans": 30, "aio_pumps": 4,
                "argb_channels": 16, "usb_devices": 20}
MAX_GPUS = 8


def validate(build: Build) -> None:
    for name, limit in COUNT_LIMITS.items():
        value = getattr(build, name)
        if not isinstance(value, int) or value < 0 or value > limit:
            raise BuildError(f"{name} must be a whole number from 0 to {limit}")
    if len(build.gpus) > MAX_GPUS:
        raise BuildError(f"at most {MAX_GPUS} GPUs")
    for name in ("cpu_w_override", "psu_w"):
        value = getattr(build, name)
        if value is not None and not (0 < value <= 10000 and math.isfinite(value)):
            raise BuildError(f"{name} must be between 1 and 10000 W")
    if not (0 <= build.price_per_kwh <= 100 and math.isfinite(build.price_per_kwh)):  # 100: room for any currency
        raise BuildError("price per kWh must be between 0 and 100")
    if not (0 <= build.gaming_hours_per_day <= 24):
        raise BuildError("hours per day must be between 0 and 24")
    if build.efficiency not in EFFICIENCY_LEVELS:
        raise BuildError(f"efficiency must be one of {', '.join(EFFICIENCY_LEVELS)}")


# ---- Results


class Severity(str, enum.Enum):
    INFO = "info"
    WARNING = "warning"
    PROBLEM = "problem"


@dataclass(frozen=True, slots=True)
class BuildWarning:
    code: str  # stable, for JSON and tests
    severity: Severity
    message: Msg


@dataclass(frozen=True, slots=True)
class PowerLine:
    key: str  # cpu | gpu | board | ram | storage | cooling | usb
    label: Msg
    watts: float


@dataclass(frozen=True, slots=True)
class Candidate:
    key: str  # vendor | sustained_share | excursion
    label: Msg
    watts: float
    reason: Msg | None = None  # the rule and where it comes from, in a sentence


@dataclass(frozen=True, slots=True)
class Boundary:
    """The requirement sits just over a size that is sold: say so, with the smaller size."""

    smaller_w: int
    over_pct: float
    deciding: str  # the candidate key that pushed it over
    message: Msg


@dataclass(frozen=True, slots=True)
class GpuConnectors:
    gpu_name: str
    kind: str  # see catalog.PowerConnector.type
    native_12v2x6: int  # native leads needed
    pcie_8pin: int  # 8-pin leads: the card's own, or what its adapter needs
    eps_8pin: int
    sense_level_w: int | None  # 12V-2x6 level the lead must signal (150/300/450/600)
    message: Msg


@dataclass(frozen=True, slots=True)
class ConnectorPlan:
    gpus: tuple[GpuConnectors, ...]
    native_12v2x6: int  # with native leads for the 16-pin cards
    pcie_8pin_with_native: int  # 8-pin leads still needed when 16-pin cards use native leads
    pcie_8pin_all_adapters: int  # 8-pin leads if every 16-pin card uses its adapter
    eps_8pin_gpu: int


@dataclass(frozen=True, slots=True)
class LanePlan:
    cpu_lanes: int | None
    assignments: tuple[str, ...]  # per GPU: "x16 (CPU)", "x8 (CPU)", "x4 (chipset)"
    message: Msg


class Verdict(str, enum.Enum):
    OK = "ok"  # at or above our recommendation
    TIGHT = "tight"  # above the hard minimum (vendor / headroom without ageing) but below the recommendation
    INSUFFICIENT = "insufficient"


@dataclass(frozen=True, slots=True)
class CostEstimate:
    efficiency_pct: float
    load_pct: float
    wall_w: float
    cost_per_hour: float
    cost_per_day: float
    hours_per_day: float


@dataclass(frozen=True, slots=True)
class Result:
    build: Build
    lines: tuple[PowerLine, ...]
    sustained_w: float
    typical_w: float
    peak_10ms_w: float
    peak_100us_w: float
    hdd_spinup_w: float
    candidates: tuple[Candidate, ...]
    minimum_psu_w: float  # the hard floor: never below this
    recommended_psu_w: int
    connectors: ConnectorPlan
    lanes: LanePlan
    warnings: tuple[BuildWarning, ...]
    verdict: Verdict | None
    cost: CostEstimate
    wall_by_level: tuple[tuple[str, float, float], ...] = ()  # (80 PLUS level, efficiency %, wall W)
    # Add-in cards without NVIDIA's figure in our sources, and how they are sized instead: said, not hidden.
    vendor_figure_missing: tuple[str, ...] = ()
    boundary: Boundary | None = None
    vendor_methods: tuple[Msg, ...] = ()
    required_w: float = 0.0  # the largest requirement before rounding to a size
    deciding: str = ""  # the candidate key that decided the size
    # What the PSU standard lets a unit carry for 10 ms, as a multiple of its rating (ATX 3.x with the
    # native lead: 1.6; ATX 2.x: psu.json's lower figure): a spike under rating x this is within spec.
    excursion_10ms_factor: float = 1.0

    def spike_allowance_10ms_w(self, capacity_w: float) -> float:
        return capacity_w * self.excursion_10ms_factor

    def vendor_missing_text(self) -> Msg | None:
        if not self.vendor_methods:
            return None
        return translate("Psu", "GPU vendor's figure: {methods}").format(methods=tuple(self.vendor_methods))

    def reason_text(self) -> Msg:
        """One sentence: why this size."""
        top = next(c for c in self.candidates if c.key == self.deciding)
        return translate("Psu", "{w} W, set by {rule}: {detail}").format(
            w=self.recommended_psu_w, rule=top.label, detail=top.reason or "")

    @property
    def gpu_w(self) -> float:
        return sum(line.watts for line in self.lines if line.key == "gpu")

    def to_json(self) -> dict[str, Any]:
        return {
            "gpus": [g.name for g in self.build.gpus],
            "cpu": self.build.cpu.name if self.build.cpu else None,
            "usage": self.build.usage.value,
            "lines": [{"key": line.key, "label": str(line.label), "watts": round(line.watts, 1)} for line in self.lines],
            "sustained_w": round(self.sustained_w, 1),
            "typical_w": round(self.typical_w, 1),
            "peak_transient_w": round(self.peak_10ms_w, 1),
            "peak_transient_100us_w": round(self.peak_100us_w, 1),
            "hdd_spinup_w": round(self.hdd_spinup_w, 1),
            "candidates": {c.key: round(c.watts, 1) for c in self.candidates},
            "required_w": round(self.required_w, 1),
            "deciding": self.deciding,
            "reason": str(self.reason_text()),
            "boundary": None if self.boundary is None else {
                "smaller_w": self.boundary.smaller_w, "over_pct": round(self.boundary.over_pct, 1),
                "deciding": self.boundary.deciding, "message": str(self.boundary.message)},
            "vendor_figure_missing": list(dict.fromkeys(self.vendor_figure_missing)),
            "vendor_methods": [str(m) for m in self.vendor_methods],
            "minimum_psu_w": round(self.minimum_psu_w, 1),
            "recommended_psu_w": self.recommended_psu_w,
            "connectors": {
                "native_12v2x6": self.connectors.native_12v2x6,
                "pcie_8pin_with_native": self.connectors.pcie_8pin_with_native,
                "pcie_8pin_all_adapters": self.connectors.pcie_8pin_all_adapters,
                "eps_8pin_gpu": self.connectors.eps_8pin_gpu,
                "per_gpu": [{"gpu": c.gpu_name, "kind": c.kind, "native_12v2x6": c.native_12v2x6,
                             "pcie_8pin": c.pcie_8pin, "eps_8pin": c.eps_8pin, "sense_level_w": c.sense_level_w}
                            for c in self.connectors.gpus],
            },
            "pcie_lanes": {"cpu_lanes": self.lanes.cpu_lanes, "assignments": list(self.lanes.assignments)},
            "warnings": [{"code": w.code, "severity": w.severity.value, "message": str(w.message)} for w in self.warnings],
            "verdict": self.verdict.value if self.verdict else None,
            "wall": {"efficiency_level": self.build.efficiency, "efficiency_pct": round(self.cost.efficiency_pct, 1),
                     "load_pct": round(self.cost.load_pct, 1), "wall_w": round(self.cost.wall_w, 1),
                     "price_per_kwh": self.build.price_per_kwh, "cost_per_hour": round(self.cost.cost_per_hour, 4),
                     "cost_per_day": round(self.cost.cost_per_day, 3), "hours_per_day": self.cost.hours_per_day,
                     "by_level": {level: {"efficiency_pct": round(eff, 1), "wall_w": round(w, 1)}
                                  for level, eff, w in self.wall_by_level}},
        }


# ---- The calculation


def component_lines(build: Build, catalog: Catalog) -> list[PowerLine]:
    c = catalog.components
    lines: list[PowerLine] = []
    if build.cpu is not None or build.cpu_w_override:
        cpu_w = build.cpu_w_override or (build.cpu.max_power_w if build.cpu else 0.0)
        name = build.cpu.name if build.cpu else "CPU"
        lines.append(PowerLine("cpu", translate("Psu", "CPU {name}").format(name=name), cpu_w))
    for gpu in build.gpus:
        lines.append(PowerLine("gpu", translate("Psu", "GPU {name}").format(name=gpu.name), float(gpu.tgp_w or 0.0)))
    lines.append(PowerLine("board", translate("Psu", "Motherboard"), c["motherboard"].watts))
    lines.append(PowerLine("ram", translate("Psu", "Memory ({n} sticks)").format(n=build.ram_sticks),
                           build.ram_sticks * c["ram_stick"].watts))
    storage = build.nvme * c["nvme"].watts + build.sata_ssd * c["sata_ssd"].watts + build.hdd * c["hdd"].watts
    lines.append(PowerLine("storage", translate("Psu", "Drives"), storage))
    cooling = build.fans * c["fan"].watts + build.aio_pumps * c["aio_pump"].watts + build.argb_channels * c["argb_channel"].watts
    lines.append(PowerLine("cooling", translate("Psu", "Fans, pumps, lighting"), cooling))
    lines.append(PowerLine("usb", translate("Psu", "USB devices"), build.usb_devices * c["usb_device"].watts))
    return lines


def round_to_size(watts: float, sizes: Sequence[int]) -> int:
    """Smallest size sold that covers ``watts`` (1 % tolerance); beyond the list, next 100 W."""
    for size in sizes:
        if watts <= size * 1.01:
            return size
    return int(math.ceil(watts / 100.0) * 100)


def efficiency_at(level: str, load_fraction: float, catalog: Catalog) -> float:
    """80 PLUS efficiency (%) at a load fraction, interpolated between certified points (115 V)."""
    table = catalog.psu_rules["efficiency_115v"]
    xs = [p / 100 for p in table["points_pct_load"]]
    ys = table["levels"][level]
    points = [(x, y) for x, y in zip(xs, ys, strict=True) if y is not None]  # a level lists one value per load point
    load = min(max(load_fraction, 0.0), 1.2)
    if load <= points[0][0]:
        # below the lowest certified point efficiency falls off; hold the first point's value minus a margin
        return float(points[0][1]) - (5.0 if load < points[0][0] * 0.5 else 0.0)
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if load <= x1:
            return y0 + (y1 - y0) * (load - x0) / (x1 - x0)
    return float(points[-1][1])


def sense_level(tgp_w: float, levels: Sequence[int]) -> int:
    for level in levels:
        if tgp_w <= level:
            return level
    return levels[-1]


def plan_connectors(gpus: Sequence[Gpu], catalog: Catalog) -> ConnectorPlan:
    conn_rules = catalog.psu_rules["connectors"]
    per_8pin = conn_rules["pcie_8pin_w"]
    slot_w = conn_rules["slot_w"]
    items: list[GpuConnectors] = []
    for gpu in gpus:
        tgp = float(gpu.tgp_w or 0.0)
        kind = gpu.power_connector.type
        native = pcie8 = eps = 0
        level: int | None = None
        if kind == "12v-2x6":
            level = sense_level(tgp, conn_rules["12v2x6_levels_w"])
            native = 1
            pcie8 = level // per_8pin  # NVIDIA's adapters: one 8-pin per 150 W of signalled level
            msg = translate("Psu", "{gpu}: one 12V-2x6 (12VHPWR) lead rated {level} W or more, or the adapter with {n} separate 8-pin leads").format(
                gpu=gpu.name, level=level, n=pcie8)
        elif kind == "12pin-fe":
            pcie8 = max(1, math.ceil((tgp - slot_w) / per_8pin))
            msg = translate("Psu", "{gpu}: Founders Edition 12-pin adapter with {n} separate 8-pin leads (partner cards: see the card's manual)").format(
                gpu=gpu.name, n=pcie8)
        elif kind in ("8pin", "6pin"):
            pcie8 = gpu.power_connector.count + gpu.power_connector.six_pin
            msg = translate("Psu", "{gpu}: {n} PCIe 8-pin (6+2) leads on the reference card; partner cards may need more").format(gpu=gpu.name, n=pcie8)
        elif kind == "eps-8pin":
            eps = gpu.power_connector.count or 1
            msg = translate("Psu", "{gpu}: {n} 8-pin EPS (CPU-type) lead, not a PCIe 8-pin").format(gpu=gpu.name, n=eps)
        elif kind == "none":
            msg = translate("Psu", "{gpu}: powered by the slot alone").format(gpu=gpu.name)
        elif kind == "module":
            msg = translate("Psu", "{gpu}: an SXM module powered by its server baseboard, not by a desktop PSU").format(gpu=gpu.name)
        else:
            msg = translate("Psu", "{gpu}: power connector not in the catalogue; check the card's manual").format(gpu=gpu.name)
        items.append(GpuConnectors(gpu.name, kind, native, pcie8 if kind != "12v-2x6" else 0, eps, level, msg))
    native_total = sum(i.native_12v2x6 for i in items)
    plain_8pin = sum(i.pcie_8pin for i in items)
    adapter_8pin = sum((i.sense_level_w or 0) // per_8pin for i in items if i.kind == "12v-2x6")
    return ConnectorPlan(tuple(items), native_total, plain_8pin, plain_8pin + adapter_8pin, sum(i.eps_8pin for i in items))


def plan_lanes(gpus: Sequence[Gpu], cpu: Cpu | None) -> tuple[LanePlan, list[BuildWarning]]:
    warnings: list[BuildWarning] = []
    cards = [g for g in gpus if g.is_add_in_card]
    if not cards:
        return LanePlan(cpu.gpu_lanes if cpu else None, (), translate("Psu", "No add-in GPU in this build.")), warnings
    if cpu is None:
        return LanePlan(None, tuple("?" for _ in cards), translate("Psu", "Choose a CPU to see how the PCIe lanes are shared.")), warnings
    lanes = cpu.gpu_lanes
    # how many cards the platform can hang off CPU lanes ("x16+x16+x16" -> 3), and at what width
    cpu_cards = min(len(cards), max(split.count("+") + 1 for split in cpu.gpu_splits))
    width = 16
    while width > 8 and width * cpu_cards > lanes:
        width //= 2
    assignments = [f"x{min(width, c.pcie_lanes or 16)} (CPU)" for c in cards[:cpu_cards]]
    assignments += ["x4 (chipset)"] * (len(cards) - cpu_cards)
    if len(cards) == 1:
        msg = translate("Psu", "{gpu} gets x{w} PCIe {gen}.0 from the CPU.").format(
            gpu=cards[0].name, w=min(width, cards[0].pcie_lanes or 16), gen=min(cpu.pcie_gen, cards[0].pcie_gen or cpu.pcie_gen))
    elif width == 16 and cpu_cards == len(cards):
        msg = translate("Psu", "{cpu} has {lanes} lanes for graphics: every card gets x16 from the CPU.").format(cpu=cpu.name, lanes=lanes)
    elif lanes == 16:
        # mainstream desktop: the 16 graphics lanes split x8+x8 only on boards wired for it
        msg = translate("Psu", "{cpu} has 16 lanes for graphics: two cards run x8+x8 only on boards that split the CPU lanes (check the manual); otherwise the second card sits in a chipset x4 slot.").format(cpu=cpu.name)
        warnings.append(BuildWarning("lanes_split", Severity.INFO, msg))
    else:
        msg = translate("Psu", "{cpu} gives {k} cards x{w} from the CPU; the others sit in chipset x4 slots.").format(
            cpu=cpu.name, k=cpu_cards, w=width)
    if len(cards) > cpu_cards:
        warnings.append(BuildWarning("lanes_chipset", Severity.WARNING, translate(
            "Psu", "{n} of the cards share the chipset's uplink at x4 or less: slow for loading models and for multi-GPU training. A platform with more CPU lanes (Threadripper PRO, Xeon W) gives every card x16.").format(
                n=len(cards) - cpu_cards)))
    nvlinked = any(c.nvlink for c in cards)
    if len(cards) > 1 and not nvlinked and any(c.architecture == "Ada Lovelace" and c.segment == "desktop" for c in cards):
        warnings.append(BuildWarning("no_p2p", Severity.INFO, translate("Psu", "GeForce RTX 40 cards have no NVLink and the driver disables peer-to-peer over PCIe: multi-GPU training exchanges gradients through host memory.")))
    # slot width: cards thicker than two slots cover the neighbouring slot
    widths = [c.width_slots or 2.0 for c in cards]
    if len(cards) > 1:
        needed = sum(math.ceil(w - 0.05) for w in widths) + (len(cards) - 1)  # one free slot between cards for air
        if any(w > 2.05 for w in widths) or needed > 7:
            warnings.append(BuildWarning("slot_width", Severity.WARNING, translate("Psu", "{n} cards of up to {slots:.1f} slots each need about {needed} expansion slots with a gap for air; a standard ATX case has 7 and many boards space their x16 slots too closely. Check slot spacing, or use blower-style or water-cooled cards or riser cables.").format(
                    n=len(cards), slots=max(widths), needed=needed)))
    return LanePlan(lanes, tuple(assignments), msg), warnings


def gpu_spike_factors(gpu: Gpu, catalog: Catalog) -> tuple[float, float]:
    """(10 ms, 100 us) spike multiples of TGP for the card's power connector (psu.json)."""
    table = catalog.psu_rules["gpu_transient_factor"]["by_connector"]
    k = table.get(gpu.power_connector.type, table["unknown"])
    return float(k["10ms"]), float(k["100us"])


def size_boundary(required: float, sizes: Sequence[int], margin_pct: float) -> tuple[int, float] | None:
    """(smaller size, % over it) when ``required`` lands just over a size: within ``margin_pct``
    but past the 1 % rounding tolerance."""
    below = [s for s in sizes if s * 1.01 < required]
    if not below:
        return None
    smaller = below[-1]
    over = (required / smaller - 1.0) * 100.0
    return (smaller, over) if over <= margin_pct else None


def _vendor_method_text(gpu: Gpu) -> Msg:
    if gpu.rsp_method == "sibling" and gpu.required_system_power_w:
        return translate("Psu", "{gpu}: {w} W, the figure of the same-GPU {sibling}").format(
            gpu=gpu.name, w=round(gpu.required_system_power_w), sibling=gpu.rsp_from or "")
    return translate("Psu", "{gpu}: no vendor figure in our sources; sized from the parts").format(gpu=gpu.name)


def calculate(build: Build, catalog: Catalog) -> Result:
    """Size the PSU for ``build``. Raises ``BuildError`` for impossible input."""
    validate(build)
    rules = catalog.psu_rules
    r = rules["rules"]
    usage = build.usage.value
    lines = component_lines(build, catalog)
    sustained = sum(line.watts for line in lines)
    gpu_w = sum(line.watts for line in lines if line.key == "gpu")
    rest_w = sustained - gpu_w
    typical = sustained * r["typical_fraction"][usage]
    peak_10ms = rest_w
    peak_100us = rest_w
    for gpu in build.gpus:
        k10, k100 = gpu_spike_factors(gpu, catalog)
        peak_10ms += float(gpu.tgp_w or 0.0) * k10
        peak_100us += float(gpu.tgp_w or 0.0) * k100
    hdd_spinup = build.hdd * (catalog.components["hdd"].spinup_watts or 0.0)

    atx3 = build.psu_standard is PsuStandard.ATX3
    exc = rules["excursion_atx3"]["with_12v2x6_over_450w" if atx3 else "without"]
    excursion_min = max(peak_10ms / exc["10ms"], peak_100us / exc["100us"])
    share, ageing = r["sustained_share"], r["ageing"][usage]
    share_w = sustained / share * ageing
    cards = [g for g in build.gpus if g.is_add_in_card]
    rated = [i for i, g in enumerate(cards) if g.required_system_power_w]
    vendor = 0.0
    if rated:
        # NVIDIA's figure assumes one card: add the other cards' TGP to the largest requirement
        top = max(rated, key=lambda i: cards[i].required_system_power_w or 0.0)
        vendor = float(cards[top].required_system_power_w or 0.0) + sum(float(g.tgp_w or 0) for i, g in enumerate(cards) if i != top)
        vendor_reason = translate("Psu", "NVIDIA's required system power for {gpu}: {w} W").format(
            gpu=cards[top].name, w=round(cards[top].required_system_power_w or 0.0))
        if len(cards) > 1:
            vendor_reason = translate("Psu", "{base}, plus the other cards' board power").format(base=vendor_reason)
    else:
        vendor_reason = None
    if ageing > 1.0:
        share_reason = translate("Psu", "{s} W sustained / {share} x {a} (ageing under 24/7 load) = {req} W").format(
            s=round(sustained), share=f"{share:g}", a=f"{ageing:g}", req=round(share_w))
    else:
        share_reason = translate("Psu", "{s} W sustained / {share} = {req} W").format(s=round(sustained), share=f"{share:g}", req=round(share_w))
    std = translate("Psu", "ATX 3.x") if atx3 else translate("Psu", "ATX 2.x")
    excursion_reason = translate("Psu", "GPU spikes of {p100} W for 100 us within {pct100}% and {p10} W for 10 ms within {pct10}% of the rating ({std})").format(
        p100=round(peak_100us), pct100=round(exc["100us"] * 100), p10=round(peak_10ms), pct10=round(exc["10ms"] * 100), std=std)
    candidates = (
        Candidate("vendor", translate("Psu", "GPU vendor's required system power"), vendor, vendor_reason),
        Candidate("sustained_share", translate("Psu", "Sustained load at most {pct}% of the rating").format(pct=round(share * 100))
                  if ageing <= 1.0 else translate("Psu", "Sustained load at most {pct}% of the rating, x {a} ageing (24/7)").format(
                      pct=round(share * 100), a=ageing), share_w, share_reason),
        Candidate("excursion", translate("Psu", "Power excursions (ATX 3.x limits)") if atx3 else translate("Psu", "Power excursions (ATX 2.x limits)"),
                  excursion_min, excursion_reason),
    )
    deciding = max(candidates, key=lambda c: c.watts)
    required = deciding.watts
    recommended = max(round_to_size(required, rules["sizes_w"]), int(math.ceil(vendor)))
    boundary = None
    near = size_boundary(required, rules["sizes_w"], r["boundary_pct"])
    if near is not None and near[0] >= vendor:
        smaller, over = near
        boundary = Boundary(smaller, over, deciding.key, translate(
            "Psu", "Close to a size: the requirement ({req} W, from {rule}) is only {pct}% over {smaller} W. A good {smaller} W unit would run this build at {load}% of its rating under full load; {rec} W keeps the margin the rules ask for.").format(
                req=round(required), rule=deciding.label, pct=f"{over:.1f}", smaller=smaller,
                load=round(sustained / smaller * 100), rec=round_to_size(required, rules["sizes_w"])))
    # the hard floor for judging an existing PSU: the vendor figure, 5 % over the
    # sustained load, and the excursion limits
    minimum = max(vendor, sustained * MIN_MARGIN, excursion_min)

    warnings: list[BuildWarning] = []
    lane_plan, lane_warnings = plan_lanes(build.gpus, build.cpu)
    connectors = plan_connectors(build.gpus, catalog)
    _connector_warnings(build, connectors, warnings)
    warnings.extend(lane_warnings)
    _gpu_warnings(build, warnings)

    verdict = None
    psu_for_cost = float(recommended)
    if build.psu_w:
        psu_for_cost = float(build.psu_w)
        verdict = Verdict.OK if build.psu_w >= recommended * 0.99 else Verdict.TIGHT if build.psu_w >= minimum else Verdict.INSUFFICIENT
        if verdict is Verdict.INSUFFICIENT:
            warnings.insert(0, BuildWarning("psu_insufficient", Severity.PROBLEM, translate("Psu", "Your {psu} W PSU is below the minimum of {min} W for this build.").format(psu=round(build.psu_w), min=round(minimum))))
        elif verdict is Verdict.TIGHT:
            warnings.insert(0, BuildWarning("psu_tight", Severity.WARNING, translate("Psu", "Your {psu} W PSU meets the minimum ({min} W) but not the recommended {rec} W: expect fan noise and little margin as it ages.").format(
                    psu=round(build.psu_w), min=round(minimum), rec=recommended)))
        over = peak_100us > build.psu_w * exc["100us"] or peak_10ms > build.psu_w * exc["10ms"]
        if over and not atx3:
            warnings.append(BuildWarning("excursion_atx2", Severity.WARNING, translate("Psu", "GPU spikes (about {peak} W for 100 us) exceed what an ATX 2.x PSU of this size must tolerate: it may shut down under load.").format(peak=round(peak_100us))))
        elif over:
            warnings.append(BuildWarning("excursion", Severity.WARNING, translate("Psu", "GPU spikes (about {p10} W for 10 ms, {p100} W for 100 us) exceed the ATX 3.x excursion limits of a {psu} W unit: it may shut down under load.").format(
                p10=round(peak_10ms), p100=round(peak_100us), psu=round(build.psu_w))))
    if required > rules["sizes_w"][-1]:
        warnings.append(BuildWarning("beyond_atx", Severity.PROBLEM, translate("Psu", "More than a single {max} W PSU: use two PSUs with an add2psu adapter, a server PSU, or power-limit the GPUs (nvidia-smi -pl).").format(max=rules["sizes_w"][-1])))
    load = sustained / psu_for_cost if psu_for_cost else 0.0
    eff = efficiency_at(build.efficiency, load, catalog)
    wall = sustained / (eff / 100.0) if eff > 0 else sustained
    if wall > r["circuit_continuous_w_120v"]:
        warnings.append(BuildWarning("circuit_120v", Severity.WARNING, translate("Psu", "About {wall} W from the wall: more than a 15 A / 120 V household circuit should carry continuously (1440 W). Fine on 230 V.").format(wall=round(wall))))
    if hdd_spinup > 0 and build.hdd >= 4:
        warnings.append(BuildWarning("hdd_spinup", Severity.INFO, translate("Psu", "{n} hard disks draw about {w} W together while spinning up; enable staggered spin-up if the controller supports it.").format(n=build.hdd, w=round(hdd_spinup))))
    hours = 24.0 if build.usage is Usage.TRAINING_24X7 else build.gaming_hours_per_day
    per_hour = wall / 1000.0 * build.price_per_kwh
    cost = CostEstimate(eff, load * 100.0, wall, per_hour, per_hour * hours, hours)
    by_level = tuple((level, e, sustained / (e / 100.0)) for level, e in
                     ((lv, efficiency_at(lv, load, catalog)) for lv in EFFICIENCY_LEVELS))
    missing = tuple(g.name for g in cards if not g.required_system_power_w or g.rsp_method == "sibling")
    methods = tuple(_vendor_method_text(g) for g in dict.fromkeys(
        g for g in cards if not g.required_system_power_w or g.rsp_method == "sibling"))
    if boundary is not None:
        warnings.append(BuildWarning("size_boundary", Severity.INFO, boundary.message))
    return Result(build, tuple(lines), sustained, typical, peak_10ms, peak_100us, hdd_spinup, candidates,
                  minimum, recommended, connectors, lane_plan, tuple(warnings), verdict, cost, by_level, missing,
                  boundary, methods, required, deciding.key, float(exc["10ms"]))


def _connector_warnings(build: Build, plan: ConnectorPlan, warnings: list[BuildWarning]) -> None:
    if build.psu_native_12v2x6 is not None and build.psu_pcie_8pin is not None:
        native_have = build.psu_native_12v2x6
        missing_native = max(0, plan.native_12v2x6 - native_have)
        # 16-pin cards without a native lead use their adapters: give the native
        # leads to the hungriest cards, the adapters to the rest
        needed_8pin = plan.pcie_8pin_with_native
        adapters = sorted((c for c in plan.gpus if c.kind == "12v-2x6"), key=lambda c: c.sense_level_w or 0)
        for c in adapters[:missing_native]:
            needed_8pin += (c.sense_level_w or 0) // 150
        if needed_8pin > build.psu_pcie_8pin:
            warnings.append(BuildWarning("connectors_short", Severity.PROBLEM, translate("Psu", "The PSU has {have8} PCIe 8-pin and {have16} 12V-2x6 leads; this build needs {need8} 8-pin leads with {use16} native 12V-2x6.").format(
                    have8=build.psu_pcie_8pin, have16=native_have, need8=needed_8pin, use16=min(native_have, plan.native_12v2x6))))
    if any(c.kind == "12v-2x6" for c in plan.gpus):
        warnings.append(BuildWarning("12v2x6_seating", Severity.INFO, translate("Psu", "Push the 12V-2x6 plug fully home and do not bend the cable sharply at the plug; melted connectors were still reported on the revised socket.")))
    if any(c.pcie_8pin >= 2 for c in plan.gpus) or any((c.sense_level_w or 0) >= 300 for c in plan.gpus):
        warnings.append(BuildWarning("separate_leads", Severity.INFO, translate("Psu", "Use a separate PSU lead for each 8-pin input rather than the second plug of a daisy-chained lead.")))


def _gpu_warnings(build: Build, warnings: list[BuildWarning]) -> None:
    for gpu in build.gpus:
        if gpu.is_laptop:
            warnings.append(BuildWarning("laptop_gpu", Severity.WARNING, translate("Psu", "{gpu} is a laptop GPU: the laptop's own adapter powers it, so desktop PSU sizing does not apply.").format(gpu=gpu.name)))
        elif gpu.power_connector.type == "module":
            warnings.append(BuildWarning("sxm_module", Severity.WARNING, translate("Psu", "{gpu} is an SXM module for servers, not a desktop card.").format(gpu=gpu.name)))
        if gpu.rsp_confidence == "unverified":
            warnings.append(BuildWarning("rsp_unverified", Severity.INFO, translate("Psu", "{gpu}: NVIDIA's required system power ({w} W) is not verified in our sources; we use it anyway, which only errs high.").format(
                    gpu=gpu.name, w=round(gpu.required_system_power_w or 0))))
    if any(g.segment == "desktop" and g.architecture in ("Ada Lovelace", "Blackwell") and (g.tgp_w or 0) >= 450 for g in build.gpus):
        warnings.append(BuildWarning("aib_power", Severity.INFO, translate("Psu", "Factory-overclocked partner cards often raise the power limit (some 4090s ask for a 1000 W PSU): use the card maker's figure if it is higher.")))


# ---- Buy vs rent


@dataclass(frozen=True, slots=True)
class BuyVsRent:
    purchase_usd: float  # amounts are in the caller's currency (the name is kept for the JSON)
    resale_usd: float
    cloud_usd_per_hour: float
    energy_usd_per_hour: float
    break_even_hours: float | None  # None: renting is always cheaper (cloud rate <= own energy cost)
    message: Msg


def buy_vs_rent(purchase_usd: float, resale_usd: float, cloud_usd_per_hour: float, wall_w: float,
                price_per_kwh: float, symbol: str = "$") -> BuyVsRent:
    """Hours of use after which owning is cheaper than renting (research sec.5).

    ``break_even = (purchase - resale) / (cloud rate - own energy cost per hour)``; every
    amount in one currency, ``symbol`` for the message.
    """
    if purchase_usd < 0 or resale_usd < 0 or cloud_usd_per_hour < 0 or wall_w < 0 or price_per_kwh < 0:
        raise BuildError("prices and power must not be negative")
    energy = wall_w / 1000.0 * price_per_kwh
    margin = cloud_usd_per_hour - energy
    net = max(0.0, purchase_usd - resale_usd)
    if margin <= 0:
        return BuyVsRent(purchase_usd, resale_usd, cloud_usd_per_hour, energy, None, translate("Psu", "Renting at {rate}/h costs less than the electricity this card's share of the PC uses ({energy}/h): buying never pays off.").format(
                rate=f"{symbol}{cloud_usd_per_hour:.2f}", energy=f"{symbol}{energy:.3f}"))
    hours = net / margin
    return BuyVsRent(purchase_usd, resale_usd, cloud_usd_per_hour, energy, hours, translate("Psu", "Owning pays off after {hours} hours of use ({days} days at 24/7), against renting at {rate}/h.").format(
            hours=f"{hours:,.0f}", days=f"{hours / 24.0:,.0f}", rate=f"{symbol}{cloud_usd_per_hour:.2f}"))


@dataclass(frozen=True, slots=True)
class CardRent:
    """One card of the build against renting that card."""

    gpu: Gpu
    power_share_w: float  # wall power charged to this card: its TGP plus an equal share of the rest
    purchase: float | None
    cloud_per_hour: float | None
    outcome: BuyVsRent | None  # None: a price is missing (message says which)
    message: Msg


def card_power_share(result: Result, index: int) -> float:
    """Wall watts of card ``index``: its board power plus an equal share of the rest of
    the PC (which only runs because of the cards), scaled by the PSU efficiency."""
    gpus = result.build.gpus
    if not gpus or result.sustained_w <= 0:
        return 0.0
    rest = result.sustained_w - result.gpu_w
    dc = float(gpus[index].tgp_w or 0.0) + rest / len(gpus)
    return result.cost.wall_w * dc / result.sustained_w


def buy_vs_rent_per_card(result: Result, purchases: Sequence[float | None], cloud_rates: Sequence[float | None],
                         resale: float = 0.0, symbol: str = "$") -> list[CardRent]:
    """Each card against renting that same card: its price, its share of the power."""
    rows: list[CardRent] = []
    for i, gpu in enumerate(result.build.gpus):
        share = card_power_share(result, i)
        price = purchases[i] if i < len(purchases) else None
        rate = cloud_rates[i] if i < len(cloud_rates) else None
        if not price:
            rows.append(CardRent(gpu, share, price, rate, None, translate("Psu", "{gpu}: no price on file: enter one.").format(gpu=gpu.name)))
            continue
        if rate is None or rate <= 0:
            rows.append(CardRent(gpu, share, price, rate, None, translate("Psu", "{gpu}: no cloud price on file for this card: enter one.").format(gpu=gpu.name)))
            continue
        outcome = buy_vs_rent(price, min(resale, price), rate, share, result.build.price_per_kwh, symbol)
        rows.append(CardRent(gpu, share, price, rate, outcome, translate("Psu", "{gpu}: {verdict}").format(gpu=gpu.name, verdict=outcome.message)))
    return rows
