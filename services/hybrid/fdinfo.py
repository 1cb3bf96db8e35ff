"""DRM client usage from /proc/PID/fdinfo (kernel Documentation/gpu/drm-usage-stats.rst).

Keys used: drm-driver, drm-pdev, drm-client-id, drm-engine-<e> (busy ns),
drm-engine-capacity-<e>, drm-cycles-<e> / drm-total-cycles-<e> (xe), and the memory
keys drm-memory-<region> (legacy), drm-total-, drm-resident-, drm-shared-.
Formats: i915 and amdgpu report busy nanoseconds; xe reports busy and total GPU cycles.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Engines whose time is 3D/graphics/compute work; the rest (copy, video, enhance) is
# moving or decoding pictures. Names per driver: amdgpu gfx/compute, i915 render/compute,
# xe rcs (render) / ccs (compute).
WORK_ENGINES = frozenset({"gfx", "compute", "render", "rcs", "ccs", "3d", "graphics"})

_UNITS = {"": 1, "B": 1, "KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3}
_MEMORY_KINDS = ("total", "shared", "resident", "purgeable", "active")


def is_work_engine(name: str) -> bool:
    return name.lower() in WORK_ENGINES


@dataclass(frozen=True, slots=True)
class DrmClient:
    """One DRM client (one open GPU context) as read from one fdinfo file."""

    driver: str
    pdev: str | None
    client_id: str | None
    engine_ns: dict[str, int] = field(default_factory=dict)
    engine_capacity: dict[str, int] = field(default_factory=dict)
    cycles: dict[str, int] = field(default_factory=dict)
    total_cycles: dict[str, int] = field(default_factory=dict)
    memory_bytes: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> region -> bytes

    @property
    def key(self) -> tuple[str, str | None, str | None]:
        return (self.driver, self.pdev, self.client_id)

    def memory_used_bytes(self) -> int | None:
        """Resident memory if the driver reports it, else total, else the legacy drm-memory-*."""
        for kind in ("resident", "total", "memory"):
            regions = self.memory_bytes.get(kind)
            if regions:
                return sum(regions.values())
        return None


def _parse_size(value: str) -> int | None:
    parts = value.split()
    if not parts:
        return None
    try:
        number = int(parts[0])
    except ValueError:
        return None
    unit = parts[1] if len(parts) > 1 else ""
    return number * _UNITS.get(unit, 1) if unit in _UNITS else None


def _parse_int(value: str) -> int | None:
    parts = value.split()
    try:
        return int(parts[0]) if parts else None
    except ValueError:
        return None


def parse_fdinfo(text: str) -> DrmClient | None:
    """Parse one fdinfo file; None when it is not a DRM client with usage stats."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            values[key.strip()] = value.strip()
    driver = values.get("drm-driver")
    if not driver:
        return None
    client = DrmClient(driver=driver, pdev=values.get("drm-pdev"), client_id=values.get("drm-client-id"))
    for key, value in values.items():
        if not key.startswith("drm-"):
            continue
        rest = key[4:]
        if rest.startswith("engine-capacity-"):
            number = _parse_int(value)
            if number:
                client.engine_capacity[rest[len("engine-capacity-"):]] = number
        elif rest.startswith("engine-"):
            number = _parse_int(value)  # "1419437262 ns"
            if number is not None:
                client.engine_ns[rest[len("engine-"):]] = number
        elif rest.startswith("total-cycles-"):
            number = _parse_int(value)
            if number is not None:
                client.total_cycles[rest[len("total-cycles-"):]] = number
        elif rest.startswith("cycles-"):
            number = _parse_int(value)
            if number is not None:
                client.cycles[rest[len("cycles-"):]] = number
        elif rest.startswith("memory-"):
            size = _parse_size(value)
            if size is not None:
                client.memory_bytes.setdefault("memory", {})[rest[len("memory-"):]] = size
        else:
            kind, _, region = rest.partition("-")
            if kind in _MEMORY_KINDS and region:
                size = _parse_size(value)
                if size is not None:
                    client.memory_bytes.setdefault(kind, {})[region] = size
    return client


def engine_busy_pct(before: DrmClient, after: DrmClient, elapsed_ns: int) -> dict[str, float]:
    """Busy % per engine between two reads of the same client.

    Nanosecond counters are divided by the wall time (times the engine count when the
    driver groups several identical engines); xe cycle counters by the GPU's total cycles.
    """
    result: dict[str, float] = {}
    if elapsed_ns > 0:
        for engine, ns in after.engine_ns.items():
            if engine not in before.engine_ns:
                continue
            capacity = after.engine_capacity.get(engine, 1)
            delta = ns - before.engine_ns[engine]
            result[engine] = _clamp(100.0 * delta / (elapsed_ns * capacity))
    for engine, cycles in after.cycles.items():
        if engine in result or engine not in before.cycles:
            continue
        total_delta = after.total_cycles.get(engine, 0) - before.total_cycles.get(engine, 0)
        if total_delta <= 0:
            continue
        capacity = after.engine_capacity.get(engine, 1)
        result[engine] = _clamp(100.0 * (cycles - before.cycles[engine]) / (total_delta * capacity))
    return result


def _clamp(value: float) -> float:
    return max(0.0, min(100.0, value))
