"""What each DeviceState means, in words the UI and the CLI show (translated)."""
from __future__ import annotations

from services.i18n import Msg, translate
from services.telemetry.model import DeviceState

STATE_LABELS: dict[DeviceState, Msg] = {
    DeviceState.OK: translate("DeviceState", "OK"),
    DeviceState.SLEEPING: translate("DeviceState", "Sleeping"),
    DeviceState.NO_DRIVER: translate("DeviceState", "No NVIDIA driver"),
    DeviceState.DRIVER_NOT_LOADED: translate("DeviceState", "Driver not loaded"),
    DeviceState.VERSION_MISMATCH: translate("DeviceState", "Reboot needed"),
    DeviceState.NO_PERMISSION: translate("DeviceState", "No permission"),
    DeviceState.LOST: translate("DeviceState", "GPU lost"),
    DeviceState.ERROR: translate("DeviceState", "Error"),
}

STATE_EXPLANATIONS: dict[DeviceState, Msg] = {
    DeviceState.OK: translate("DeviceState", "Readings are live."),
    DeviceState.SLEEPING: translate(
        "DeviceState",
        "The GPU is powered down by the system to save energy; it is not polled so that it can stay asleep."),
    DeviceState.NO_DRIVER: translate(
        "DeviceState",
        "The NVIDIA driver (its NVML library) was not found. Install the NVIDIA driver; the Setup tool can help."),
    DeviceState.DRIVER_NOT_LOADED: translate(
        "DeviceState",
        "The NVIDIA driver is installed but not running. Often nouveau is in use or Secure Boot blocked the module."),
    DeviceState.VERSION_MISMATCH: translate(
        "DeviceState",
        "The NVIDIA driver was updated but the old one is still running. Reboot to finish the update."),
    DeviceState.NO_PERMISSION: translate(
        "DeviceState",
        "This user may not access the NVIDIA device files. Check the permissions of /dev/nvidia*."),
    DeviceState.LOST: translate(
        "DeviceState",
        "The GPU stopped answering (fallen off the bus). History is kept and it is retried; "
        "if it stays lost, check power and seating, then reboot."),
    DeviceState.ERROR: translate(
        "DeviceState",
        "NVML reported an error for this GPU. History is kept and it is retried."),
}

# The source works but lists no GPU (the CLI's one line; the dashboard has its own card).
NO_GPU_FOUND = translate("DeviceState", "no NVIDIA GPU found")


def state_label(state: DeviceState) -> Msg:
    return STATE_LABELS[state]


def state_explanation(state: DeviceState) -> Msg:
    return STATE_EXPLANATIONS[state]
