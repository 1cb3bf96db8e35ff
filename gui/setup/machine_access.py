"""The machine the Setup page probes and changes, opened: the handed-in parts of a ``SetupMachine``
(tests hand in fakes), this computer's for the rest, or the recorded demo machine."""
from __future__ import annotations

import platform
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gui.context import SetupMachine
from services.setup.system import SubprocessRunner, SystemRoot


@dataclass
class OpenedMachine:
    demo: bool  # the recorded demo machine: nothing runs
    system: str  # "linux" or "windows"
    runner: Any
    root: Any
    nvml: Any
    home: Path | None
    windows_probe: Any
    demo_python: Any  # the demo machine's Python, else None
    active_python: Any  # the interpreter the user is in, on this computer only


def open_machine(machine: SetupMachine | None, demo: bool, work: Path) -> OpenedMachine:
    """``machine``: what was handed in (None: this computer); ``demo``: the app runs its demo, which
    shows a recorded machine unless a runner was handed in; ``work``: the setup folder."""
    machine = machine or SetupMachine()
    demo = demo and machine.runner is None
    system = machine.system or ("windows" if platform.system() == "Windows" else "linux")
    if demo:
        from services.setup.demo import demo_machine

        recorded = demo_machine(work / "demo-root")
        return OpenedMachine(True, "linux", recorded.runner, recorded.root, recorded.nvml, None,
                             machine.windows_probe, recorded.python, None)
    # The interpreter the user is in (active venv or conda env, python3/python on PATH), from the
    # machine model; only on this computer itself, never for a recorded or test machine.
    from services.setup.machine import active_python

    active = active_python() if machine.runner is None and machine.root is None else None
    runner = machine.runner or SubprocessRunner()
    probe = machine.windows_probe
    if system == "windows" and probe is None and sys.platform == "win32":
        from services.setup.windows import LiveWindowsProbe

        probe = LiveWindowsProbe(runner)
    return OpenedMachine(False, system, runner, machine.root or SystemRoot(), machine.nvml,
                         machine.home if machine.home is not None else Path.home(), probe, None, active)
