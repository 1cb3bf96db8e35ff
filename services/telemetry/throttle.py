"""Clock-event ("throttle") reasons: NVML bits, stable codes and plain words.

Bits from nvml.h as shipped in nvidia-ml-py (nvmlClocksEventReason* and the
older nvmlClocksThrottleReason* names share them). GpuIdle is benign: it is
recorded but never warned about (the same exclusion DCGM alerting uses).
"""
from __future__ import annotations

from typing import NamedTuple

from services.i18n import Msg, translate


# An immutable record as a NamedTuple, not a dataclass: creating the class is part of every command's
# start-up, about 1 ms for a dataclass on Python 3.11 (it compiles each generated method), a fifth of that here.
class ThrottleReason(NamedTuple):
    """One clock-event reason: its NVML bit, stable code and words for the user."""

    code: str  # stable id used in JSON, CSV, recordings and the exporter's clock_event label
    bit: int
    label: Msg  # a few words for legends and chips
    explanation: Msg  # one plain sentence for the user
    warn: bool  # worth telling the user about
    color: str  # band colour on graphs


REASONS: tuple[ThrottleReason, ...] = (
    ThrottleReason("gpu_idle", 0x1, translate("Throttle", "Idle"),
                   translate("Throttle", "Nothing to do, so the clocks are lowered to save power."), False, "#9e9e9e"),
    ThrottleReason("clocks_setting", 0x2, translate("Throttle", "Clock setting"),
                   translate("Throttle", "Clocks are held by an application clock setting."), True, "#8d6e63"),
    ThrottleReason("power_cap", 0x4, translate("Throttle", "Power limit"),
                   translate("Throttle", "The card reached its power limit and lowered its clocks to stay under it."), True, "#ffa000"),
    ThrottleReason("hw_slowdown", 0x8, translate("Throttle", "Hardware slowdown"),
                   translate("Throttle", "The hardware cut clocks hard (overheating, power brake or a power supply problem)."), True, "#d32f2f"),
    ThrottleReason("sync_boost", 0x10, translate("Throttle", "Sync boost"),
                   translate("Throttle", "Clocks are kept in step with other GPUs in a sync-boost group."), False, "#5c6bc0"),
    ThrottleReason("sw_thermal", 0x20, translate("Throttle", "Thermal limit"),
                   translate("Throttle", "The card is too warm and the driver lowered its clocks to cool down."), True, "#f4511e"),
    ThrottleReason("hw_thermal", 0x40, translate("Throttle", "Thermal slowdown (hardware)"),
                   translate("Throttle", "The card hit its hardware temperature limit and cut clocks hard."), True, "#b71c1c"),
    ThrottleReason("hw_power_brake", 0x80, translate("Throttle", "Power brake"),
                   translate("Throttle", "An external power brake signal (often the power supply) cut the clocks."), True, "#880e4f"),
    ThrottleReason("display_clocks", 0x100, translate("Throttle", "Display clock setting"),
                   translate("Throttle", "Clocks are limited to match the display clock."), False, "#78909c"),
)

BY_CODE: dict[str, ThrottleReason] = {r.code: r for r in REASONS}


def encode(codes: frozenset[str]) -> int:
    """The NVML bit mask of reason codes (codes we do not know add nothing): ``decode`` turned round."""
    mask = 0
    for code in codes:
        reason = BY_CODE.get(code)
        if reason is not None:
            mask |= reason.bit
    return mask


def decode(mask: int | None, supported: int | None = None) -> frozenset[str] | None:
    """Codes of the reasons set in ``mask`` (ANDed with ``supported`` when known)."""
    if mask is None:
        return None
    if supported is not None:
        mask &= supported
    return frozenset(r.code for r in REASONS if mask & r.bit)


def warning_codes(codes: frozenset[str] | None) -> list[str]:
    """The codes worth showing as a warning, in a stable order."""
    if not codes:
        return []
    return [r.code for r in REASONS if r.code in codes and r.warn]
