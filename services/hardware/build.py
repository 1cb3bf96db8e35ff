"""What the Build & PSU calculator is given: the build (cards, CPU, drives, the PSU the user has, prices) and
its limits (Qt-free)."""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from services.hardware.catalog import Cpu, Gpu


class Usage(str, enum.Enum):
    GAMING = "gaming"
    TRAINING_24X7 = "training-24x7"


class PsuStandard(str, enum.Enum):
    ATX3 = "atx3"  # ATX 3.x with a native 12V-2x6 / 12VHPWR lead
    ATX2 = "atx2"  # ATX 2.x, or ATX 3.x without the native lead (lower excursion limits)


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
