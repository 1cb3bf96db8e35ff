"""The system-wide hybrid mode and switcheroo-control, reported and never switched.

prime-select (Ubuntu nvidia-prime), envycontrol and optimus-manager each keep one
system-wide mode that needs a logout or reboot to change; switching them is the most
common cause of black screens, so this module only reads them.
"""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from typing import Protocol

MODE_WORDS = ("on-demand", "hybrid", "integrated", "nvidia", "intel", "amd", "offload")


@dataclass(frozen=True, slots=True)
class CommandResult:
    returncode: int
    stdout: str
    stderr: str


class CommandRunner(Protocol):
    def which(self, name: str) -> str | None: ...

    def run(self, argv: list[str], timeout_s: float) -> CommandResult | None: ...


class SubprocessRunner:
    def which(self, name: str) -> str | None:
        return shutil.which(name)

    def run(self, argv: list[str], timeout_s: float) -> CommandResult | None:
        try:
            # errors="replace": a tool printing in a non-UTF-8 locale must not raise UnicodeDecodeError
            done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s, check=False,
                                  stdin=subprocess.DEVNULL, errors="replace")
        except (OSError, subprocess.TimeoutExpired):
            return None
        return CommandResult(done.returncode, done.stdout, done.stderr)


@dataclass(frozen=True, slots=True)
class ModeReport:
    tool: str  # "prime-select" | "envycontrol" | "optimus-manager"
    command: tuple[str, ...]
    mode: str | None  # normalised word from MODE_WORDS, None if it could not be read
    output: str  # first line of what the tool said


@dataclass(frozen=True, slots=True)
class SwitcherooGpu:
    index: int
    name: str
    default: bool
    environment: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class SystemModes:
    modes: tuple[ModeReport, ...]
    switcheroo: tuple[SwitcherooGpu, ...] | None  # None: switcherooctl missing or the service not running
    switcheroo_output: str | None = None


QUERIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("prime-select", ("prime-select", "query")),
    ("envycontrol", ("envycontrol", "--query")),
    ("optimus-manager", ("optimus-manager", "--print-mode")),
)


def parse_mode(output: str) -> str | None:
    """The mode word in a tool's answer, e.g. 'on-demand', 'Current graphics mode is: hybrid'."""
    text = output.strip().lower()
    if not text:
        return None
    last = text.splitlines()[-1]
    for word in reversed(last.replace(":", " ").split()):
        if word in MODE_WORDS:
            return word
    return None


def parse_switcherooctl_list(output: str) -> tuple[SwitcherooGpu, ...]:
    """Parse ``switcherooctl list``::

        Device: 0
          Name:        Intel Corporation UHD Graphics 630
          Default:     yes
          Environment: DRI_PRIME=pci-0000_00_02_0
    """
    gpus: list[SwitcherooGpu] = []
    current: dict | None = None

    def flush() -> None:
        if current is not None:
            gpus.append(SwitcherooGpu(current["index"], current.get("name", ""), current.get("default", False),
                                      tuple(current.get("env", ()))))

    for line in output.splitlines():
        key, sep, value = line.strip().partition(":")
        if not sep:
            continue
        key, value = key.strip().lower(), value.strip()
        if key == "device":
            flush()
            try:
                current = {"index": int(value)}
            except ValueError:
                current = {"index": len(gpus)}
        elif current is None:
            continue
        elif key == "name":
            current["name"] = value
        elif key == "default":
            current["default"] = value.lower() in ("yes", "true", "1")
        elif key == "environment":
            env = []
            for item in value.split():
                name, eq, val = item.partition("=")
                if eq:
                    env.append((name, val))
            current["env"] = env
    flush()
    return tuple(gpus)


def read_system_modes(runner: CommandRunner | None = None, timeout_s: float = 5.0) -> SystemModes:
    runner = runner or SubprocessRunner()
    modes = []
    for tool, argv in QUERIES:
        if runner.which(argv[0]) is None:
            continue
        result = runner.run(list(argv), timeout_s)
        text = "" if result is None else (result.stdout.strip() or result.stderr.strip())
        first = text.splitlines()[0] if text else ""
        mode = parse_mode(result.stdout) if result is not None and result.returncode == 0 else None
        modes.append(ModeReport(tool, argv, mode, first))
    switcheroo = None
    raw = None
    if runner.which("switcherooctl") is not None:
        result = runner.run(["switcherooctl", "list"], timeout_s)
        if result is not None and result.returncode == 0:
            raw = result.stdout
            switcheroo = parse_switcherooctl_list(result.stdout)
    return SystemModes(tuple(modes), switcheroo, raw)
