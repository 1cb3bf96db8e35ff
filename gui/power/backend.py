"""Where the power dialogs' NVML, commands and workload come from (tests hand in scripted ones), and
the helpers both dialogs share."""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable

from services.power.limits import LimitJournal, PowerLimitSetter, default_journal


def _nvml_source() -> Any:
    from services.telemetry.nvml_source import NvmlSource

    return NvmlSource()


def _command_runner() -> Any:
    from services.setup.system import SubprocessRunner

    return SubprocessRunner()


def _torch_workload(python: str | None) -> Any:
    from services.power.workload import TorchWorkloadRunner

    return TorchWorkloadRunner(python)


def _smi_present(system: str) -> bool:
    from services.power.persist import nvidia_smi_present

    return nvidia_smi_present(system)


def _gui_elevation() -> str:
    from services.power.limits import power_elevation

    return power_elevation(gui=True)


@dataclass
class PowerBackend:
    """Where the panel's NVML, commands and workload come from (tests hand in scripted ones)."""

    make_source: Callable[[], Any] = _nvml_source
    make_runner: Callable[[], Any] = _command_runner
    make_workload: Callable[[str | None], Any] = _torch_workload
    elevation: Callable[[], str] = _gui_elevation
    journal: Callable[[], LimitJournal] = default_journal
    clock: Callable[[], float] = time.monotonic
    sweeps_folder: Path | None = None
    system: str = field(default_factory=lambda: "windows" if sys.platform == "win32" else "linux")
    smi_present: Callable[[str], bool] = _smi_present  # nvidia-smi at the fixed path a kept limit runs


class OpenedGpu:
    """An opened NVML source and one GPU on it, closed on exit."""

    def __init__(self, backend: PowerBackend, index: int) -> None:
        self.backend, self.index = backend, index

    def __enter__(self) -> tuple[Any, Any]:
        from services.power.sweep import GpuAccess

        self.source = self.backend.make_source()
        self.source.open()
        try:
            gpu = GpuAccess(self.source, self.index)
        except BaseException:
            self.source.close()
            raise
        return self.source, gpu

    def __exit__(self, *exc: object) -> None:
        self.source.close()


def limit_setter(backend: PowerBackend, source: Any) -> PowerLimitSetter:
    """Sets, undoes and restores limits with the backend's runner, journal and elevation."""
    from services.power.sweep import limit_reader

    return PowerLimitSetter(backend.make_runner(), backend.journal(), backend.elevation(), limit_reader(source))


def watts_text(value: float | None) -> str:
    """A wattage as the dialogs show it: "250", "?" when unknown."""
    return "?" if value is None else f"{value:g}"
