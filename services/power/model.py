"""What a power sweep measures and saves: plain dataclasses, JSON in and out."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from services.i18n import Msg, TranslatableError

SWEEP_FORMAT = "gpu-assistant-power-sweep"
SWEEP_VERSION = 1

# The two built-in workloads and the unit each reports.
MATMUL = "matmul"
COPY = "copy"
UNITS = {MATMUL: "TFLOP/s", COPY: "GB/s"}


class PowerError(TranslatableError):
    """A power-limit or sweep problem, one line for the user (``message`` translatable)."""


@dataclass(frozen=True, slots=True)
class WorkloadJob:
    kind: str  # MATMUL | COPY
    gpu_index: int  # NVML's index
    seconds: float  # warm-up plus measurement
    warmup_s: float


@dataclass(frozen=True, slots=True)
class WorkloadResult:
    kind: str
    value: float  # TFLOP/s or GB/s over the measured part
    unit: str
    seconds: float  # measured time
    device: str = ""
    dtype: str = ""


@dataclass(frozen=True, slots=True)
class SweepPoint:
    """One workload at one power limit: the throughput and what NVML saw meanwhile."""

    limit_w: float
    kind: str
    value: float  # TFLOP/s or GB/s
    unit: str
    power_w: float | None  # mean board power: energy counter / time, else the mean of the readings
    energy_j: float | None
    seconds: float
    sm_clock_mhz: float | None = None
    temperature_c: float | None = None
    memory_temperature_c: float | None = None
    fan_pct: float | None = None
    power_capped_share: float | None = None  # share of readings held at the power cap

    @property
    def per_watt(self) -> float | None:
        return self.value / self.power_w if self.power_w else None


@dataclass(frozen=True, slots=True)
class Recommendation:
    kind: str
    limit_w: float
    value: float
    share: float  # of full speed (the highest limit's throughput)
    per_watt: float | None
    per_watt_gain: float | None  # per-watt over full speed's per-watt, minus one


@dataclass
class Sweep:
    """A finished (or stopped) sweep of one GPU."""

    gpu_name: str
    gpu_uuid: str
    gpu_index: int
    driver: str
    started: float  # wall time
    start_temperature_c: float | None  # the idle card before the first point: the room, roughly
    default_limit_w: float | None
    min_limit_w: float | None
    max_limit_w: float | None
    original_limit_w: float | None
    keep_share: float = 0.95
    points: list[SweepPoint] = field(default_factory=list)
    limits_w: list[float] = field(default_factory=list)  # planned
    # A refused limit, a lost GPU ...: translatable while the sweep runs, English once saved.
    notes: list[Msg | str] = field(default_factory=list)
    complete: bool = False
    restored: bool | None = None  # None: the limit was never changed

    def kinds(self) -> list[str]:
        return [k for k in (MATMUL, COPY) if any(p.kind == k for p in self.points)]

    def points_of(self, kind: str) -> list[SweepPoint]:
        return sorted((p for p in self.points if p.kind == kind), key=lambda p: -p.limit_w)

    def to_json(self) -> dict:
        data = asdict(self)
        data["notes"] = [str(n) for n in self.notes]
        return {"format": SWEEP_FORMAT, "version": SWEEP_VERSION, **data}

    @classmethod
    def from_json(cls, data: dict) -> "Sweep":
        if not isinstance(data, dict) or data.get("format") != SWEEP_FORMAT:
            raise ValueError("not a GPU Assistant power sweep")
        if data.get("version") != SWEEP_VERSION:
            raise ValueError(f"sweep format version {data.get('version')!r} is not {SWEEP_VERSION}")
        fields = {k: v for k, v in data.items() if k not in ("format", "version")}
        points = [SweepPoint(**p) for p in fields.pop("points", [])]
        return cls(**fields, points=points)


def recommend(sweep: Sweep, kind: str, keep_share: float | None = None) -> Recommendation | None:
    """The lowest-energy limit that keeps ``keep_share`` of full speed: among the limits whose
    throughput is at least that share of the highest limit's, the best throughput per watt
    (on a tie, the higher limit)."""
    share_needed = sweep.keep_share if keep_share is None else keep_share
    points = sweep.points_of(kind)
    if not points:
        return None
    full = points[0]
    if full.value <= 0:
        return None
    best: SweepPoint | None = None
    for p in points:
        if p.value < share_needed * full.value or p.per_watt is None:
            continue
        if best is None or p.per_watt > best.per_watt * (1 + 1e-9):  # type: ignore[operator]
            best = p
    if best is None:
        best = full
    gain = (best.per_watt / full.per_watt - 1.0) if best.per_watt and full.per_watt else None
    return Recommendation(kind, best.limit_w, best.value, best.value / full.value, best.per_watt, gain)


def recommended_limit(sweep: Sweep) -> float | None:
    """One limit for the card: the higher of the workloads' recommendations (each keeps its share)."""
    recs = [r for r in (recommend(sweep, k) for k in sweep.kinds()) if r is not None]
    return max(r.limit_w for r in recs) if recs else None
