"""What the Build & PSU calculator answers: the power lines, the candidate sizes, connectors, PCIe lanes,
warnings and running cost of one build, and their JSON (Qt-free)."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from services.hardware.build import Build
from services.i18n import Msg, translate


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
