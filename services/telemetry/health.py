"""Plain-words readings of one GPU sample for the dashboard, the tray and the CLI.

Judgements that are more than formatting live here, not in the GUI, so the
CLI and the tests use the same rules: when a PCIe link counts as degraded, when
a temperature is worth colouring, what each device state means for the user.
"""
from __future__ import annotations

from dataclasses import dataclass

from services.i18n import Msg, translate
from services.settings import AlertSettings
from services.telemetry.model import DeviceState, GpuInfo, GpuSample

# GPUs drop their PCIe link to Gen1 (and some to a narrower width) when idle to
# save power, so a slow link only means something while the card is working.
PCIE_LOAD_PCT = 40.0
# Colour a temperature this many degrees before the slowdown threshold.
TEMP_WARM_MARGIN_C = 10.0
# Without a threshold from the driver: NVIDIA consumer cards start to pull
# clocks back in the low 80s (the AlertSettings default is 83 C).
TEMP_WARM_FALLBACK_C = 80.0
# Power this close to the enforced limit means the card is at its limit: the driver
# holds it there (the "power_cap" slowdown) rather than letting it go over.
POWER_AT_LIMIT_FRACTION = 0.98


@dataclass(frozen=True, slots=True)
class PcieLink:
    gen: int | None
    width: int | None
    gen_max: int | None
    width_max: int | None
    below_max: bool  # the link runs below what card and slot can do
    warn: bool  # ... and the card is busy, so it matters
    message: Msg | None

    @property
    def known(self) -> bool:
        return self.gen is not None or self.width is not None


def pcie_link(info: GpuInfo | None, sample: GpuSample | None) -> PcieLink:
    gen = sample.pcie_gen if sample else None
    width = sample.pcie_width if sample else None
    gen_max = info.pcie_gen_max if info else None
    width_max = info.pcie_width_max if info else None
    slow_gen = gen is not None and gen_max is not None and gen < gen_max
    narrow = width is not None and width_max is not None and width < width_max
    below = slow_gen or narrow
    busy = sample is not None and sample.utilization_pct is not None and sample.utilization_pct >= PCIE_LOAD_PCT
    message: Msg | None = None
    if below and busy:
        message = translate(
            "Health",
            "Under load the card runs at PCIe Gen{gen} x{width}, below its maximum Gen{gen_max} x{width_max}. "
            "Check that it sits in a full-speed x16 slot, that riser cables are rated for this generation, "
            "and the PCIe setting in the BIOS.",
        ).format(gen=gen if gen is not None else "?", width=width if width is not None else "?",
                 gen_max=gen_max if gen_max is not None else "?", width_max=width_max if width_max is not None else "?")
    elif below:
        message = translate(
            "Health", "The link is slower than its maximum while the card is idle. That is normal power saving.")
    return PcieLink(gen, width, gen_max, width_max, below, below and busy, message)


def temperature_level(info: GpuInfo | None, sample: GpuSample | None) -> str:
    """'ok', 'warm' (approaching the slowdown point) or 'hot' (at or past it)."""
    if sample is None or sample.temperature_c is None:
        return "ok"
    slowdown = info.temp_slowdown_c if info else None
    if slowdown is not None:
        if sample.temperature_c >= slowdown:
            return "hot"
        if sample.temperature_c >= slowdown - TEMP_WARM_MARGIN_C:
            return "warm"
        return "ok"
    return "warm" if sample.temperature_c >= TEMP_WARM_FALLBACK_C else "ok"


def memory_fraction(info: GpuInfo | None, sample: GpuSample | None) -> float | None:
    if sample is None or sample.memory_used_mib is None:
        return None
    total = sample.memory_total_mib or (info.memory_total_mib if info else None)
    if not total:
        return None
    return sample.memory_used_mib / total


def memory_level(info: GpuInfo | None, sample: GpuSample | None, alerts: AlertSettings) -> str:
    """'hot' when memory is as full as the user's "memory almost full" alert, else 'ok'."""
    fraction = memory_fraction(info, sample)
    return "hot" if fraction is not None and fraction * 100.0 >= alerts.memory_pct else "ok"


def power_level(info: GpuInfo | None, sample: GpuSample | None) -> str:
    """'warm' when the card draws (about) its enforced power limit, else 'ok'."""
    if sample is None or sample.power_w is None:
        return "ok"
    limit = sample.power_limit_w or (info.power_limit_default_w if info else None)
    return "warm" if limit and sample.power_w >= POWER_AT_LIMIT_FRACTION * limit else "ok"


def fan_level(sample: GpuSample | None, alerts: AlertSettings) -> str:
    """'hot' when the fan stands still at a temperature the "fan stopped while hot" alert fires at."""
    if sample is None or sample.fan_pct is None or sample.temperature_c is None:
        return "ok"
    return "hot" if sample.fan_pct <= 0 and sample.temperature_c >= alerts.fan_zero_hot_c else "ok"


@dataclass(frozen=True, slots=True)
class StateText:
    title: Msg | str
    detail: Msg | str
    setup_helps: bool  # the Setup tool can fix or diagnose this


_STATE_TEXTS: dict[DeviceState, StateText] = {
    DeviceState.OK: StateText(translate("Health", "Working"), translate("Health", "Readings are coming in."), False),
    DeviceState.SLEEPING: StateText(
        translate("Health", "Sleeping"),
        translate("Health", "The GPU is powered down to save energy. It is not polled, so it can stay asleep; "
                            "it wakes when a program uses it."),
        False),
    DeviceState.NO_DRIVER: StateText(
        translate("Health", "No NVIDIA driver found"),
        translate("Health", "The NVIDIA driver (and its NVML library) is not installed, so no NVIDIA GPU can be read. "
                            "The Setup page checks your system and installs the right driver."),
        True),
    DeviceState.DRIVER_NOT_LOADED: StateText(
        translate("Health", "The NVIDIA driver is not loaded"),
        translate("Health", "The driver is installed but not running. This often happens after a kernel update or "
                            "when Secure Boot blocks the driver. The Setup page finds out why."),
        True),
    DeviceState.VERSION_MISMATCH: StateText(
        translate("Health", "Restart needed after a driver update"),
        translate("Health", "The running driver and the installed driver files have different versions. "
                            "Restart the computer to finish the driver update."),
        True),
    DeviceState.NO_PERMISSION: StateText(
        translate("Health", "No permission to read the GPU"),
        translate("Health", "Your user account is not allowed to open the NVIDIA device. The Setup page shows how "
                            "to grant access."),
        True),
    DeviceState.LOST: StateText(
        translate("Health", "GPU lost"),
        translate("Health", "The GPU stopped answering (it fell off the bus or the driver reset it). Its history is "
                            "kept and it is retried. If it does not come back, check power cables and restart."),
        False),
    DeviceState.ERROR: StateText(
        translate("Health", "GPU error"),
        translate("Health", "The driver reported an error while reading this GPU. It is retried automatically."),
        False),
}


def state_text(state: DeviceState) -> StateText:
    return _STATE_TEXTS.get(state, _STATE_TEXTS[DeviceState.ERROR])


REPLAY_FAILED_TEXT = StateText(
    translate("Health", "This file cannot be opened"),
    translate("Health", "It is not an nvidia-smi CSV log or a GPU Assistant recording, or it cannot be read. "
                        "The reason is below."),
    False,
)


NO_GPU_TEXT = StateText(
    translate("Health", "No NVIDIA GPU found"),
    translate("Health", "The NVIDIA driver is running but reports no GPU. On a laptop, check that the NVIDIA GPU is "
                        "enabled in the BIOS or the vendor's power tool (hybrid mode)."),
    True,
)
