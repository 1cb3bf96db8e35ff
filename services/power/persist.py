"""Keeping a power limit across restarts, undoably.

The driver forgets ``nvidia-smi -pl`` at every restart. To keep it, the app installs
- on Linux a systemd oneshot unit that runs ``/usr/bin/nvidia-smi -i <UUID> -pl W`` at boot
  (written with ``tee`` from standard input, so nothing elevated reads a user-writable file);
- on Windows a scheduled task that runs ``nvidia-smi.exe`` from System32 as SYSTEM at start-up.
Each is a list of exact commands shown before they run, with the commands that undo it. The
GPU is named by UUID, which, unlike the index, does not change when cards are added.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from services.i18n import Msg, translate
from services.power.model import PowerError
from services.setup.elevation import elevate
from services.setup.plan import Argv
from services.setup.system import Runner, SystemRoot

UNIT_DIR = "/etc/systemd/system"
# The driver package's nvidia-smi: a fixed system path, never one found on the user's PATH
# (a root service must not run a user-writable file).
LINUX_NVIDIA_SMI = "/usr/bin/nvidia-smi"
# The DCH driver installs nvidia-smi.exe into System32 (NVIDIA's nvidia-smi documentation,
# "Windows: C:\Windows\System32\" since driver R430-era DCH packages).
WINDOWS_NVIDIA_SMI = r"C:\Windows\System32\nvidia-smi.exe"
TASK_FOLDER = "GPU Assistant"


@dataclass(frozen=True, slots=True)
class Step:
    argv: Argv
    input_text: str | None = None  # given on standard input (the unit file's text for tee)

    def shown(self) -> str:
        from services.setup.elevation import windows_command_line

        text = windows_command_line(self.argv) if self.argv and self.argv[0] == "schtasks" else " ".join(self.argv)
        return text + (" <<'EOF'\n" + self.input_text + "EOF" if self.input_text is not None else "")


@dataclass(frozen=True, slots=True)
class KeepPlan:
    system: str  # linux | windows
    uuid: str
    watts: float
    keep: tuple[Step, ...]
    undo: tuple[Step, ...]
    where: str  # the unit file or the task's name


def _safe_uuid(uuid: str) -> str:
    if not re.fullmatch(r"(GPU|MIG)-[0-9A-Za-z-]{8,64}", uuid):
        raise PowerError(translate("Power", "'{uuid}' does not look like a GPU UUID").format(uuid=uuid))
    return uuid


def unit_name(uuid: str) -> str:
    return f"gpu-assistant-power-limit-{_safe_uuid(uuid).lower()}.service"


def unit_text(uuid: str, watts: float, nvidia_smi: str = LINUX_NVIDIA_SMI) -> str:
    return (
        "[Unit]\n"
        f"Description=GPU Assistant: power limit {watts:g} W for {uuid}\n"
        "After=nvidia-persistenced.service systemd-modules-load.service\n\n"
        "[Service]\n"
        "Type=oneshot\n"
        f"ExecStart={nvidia_smi} -i {uuid} -pl {watts:g}\n\n"
        "[Install]\n"
        "WantedBy=multi-user.target\n"
    )


def task_name(uuid: str) -> str:
    return f"{TASK_FOLDER}\\Power limit {_safe_uuid(uuid)}"


def keep_plan(system: str, uuid: str, watts: float) -> KeepPlan:
    if system == "windows":
        name = task_name(uuid)
        action = f'"{WINDOWS_NVIDIA_SMI}" -i {uuid} -pl {watts:g}'
        keep: tuple[Step, ...] = (Step(("schtasks", "/Create", "/F", "/TN", name, "/SC", "ONSTART", "/RU", "SYSTEM",
                      "/RL", "HIGHEST", "/TR", action)),)
        undo: tuple[Step, ...] = (Step(("schtasks", "/Delete", "/F", "/TN", name)),)
        return KeepPlan(system, uuid, watts, keep, undo, name)
    unit = unit_name(uuid)
    path = f"{UNIT_DIR}/{unit}"
    keep = (Step(("tee", path), unit_text(uuid, watts)), Step(("systemctl", "daemon-reload")),
            Step(("systemctl", "enable", unit)))
    undo = (Step(("systemctl", "disable", unit)), Step(("rm", "-f", path)), Step(("systemctl", "daemon-reload")))
    return KeepPlan(system, uuid, watts, keep, undo, path)


def kept_limit(system: str, uuid: str, root: SystemRoot | None = None) -> float | None:
    """The limit a unit installed by the app keeps for this GPU (Linux; None when there is none)."""
    if system == "windows":
        return None  # the task's action is only readable elevated: the app does not guess
    text = (root or SystemRoot()).read_text(f"{UNIT_DIR}/{unit_name(uuid)}")
    match = re.search(r"-pl ([0-9.]+)", text or "")
    return float(match.group(1)) if match else None


def run_steps(steps: tuple[Step, ...], runner: Runner, elevation: str) -> tuple[bool, Msg | str]:
    """Run each step elevated; stop at the first failure and say which."""
    for step in steps:
        result = runner.run(list(elevate(step.argv, elevation)), timeout=180, input_text=step.input_text)
        if not result.ok:
            last = (result.output.splitlines() or [f"exit status {result.returncode}"])[-1]
            return False, translate("Power", "{command} failed: {detail}").format(command=" ".join(step.argv), detail=last)
    return True, ""


def nvidia_smi_present(system: str, root: SystemRoot | None = None) -> bool:
    root = root or SystemRoot()
    if system == "windows":
        return Path(WINDOWS_NVIDIA_SMI).is_file()
    return root(LINUX_NVIDIA_SMI).is_file()


def keep_problem(system: str, smi_present: bool) -> Msg | None:
    """Why keeping a limit would not work here, or None: the unit or task runs nvidia-smi from its
    fixed path at start-up, so without it the limit would silently not come back."""
    if smi_present:
        return None
    path = WINDOWS_NVIDIA_SMI if system == "windows" else LINUX_NVIDIA_SMI
    return translate("Power", "{path} is not there, so a limit kept after restarts would not be set at start-up: "
                              "install the NVIDIA driver's utilities (nvidia-smi) first").format(path=path)
