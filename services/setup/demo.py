"""The recorded machine the Setup page shows with ``--demo`` (and screenshots).

Everything comes from ``resources/data/setup_demo_machine.json``: real tool
output formats for an RTX 5090 still on nouveau. Nothing here touches the
real system; the files are written under the app's own data folder.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from services.paths import resource_path
from services.setup.system import CommandResult, FakeRunner, SystemRoot

DEMO_FILE = resource_path("data", "setup_demo_machine.json")


class _PciInfo:
    def __init__(self, bus: str) -> None:
        self.busId = bus


class DemoNvmlError(Exception):
    """nvidia-ml-py's NVMLError shape: the NVML return code in ``value``."""

    def __init__(self, value: int) -> None:
        super().__init__(f"NVML error {value}")
        self.value = value


class DemoNvml:
    """Answers the nvidia-ml-py calls the doctor makes, from the recording."""

    NVMLError = DemoNvmlError

    def __init__(self, data: dict) -> None:
        self._d = data

    def nvmlInitWithFlags(self, flags: int) -> None:
        pass

    def nvmlShutdown(self) -> None:
        pass

    def nvmlSystemGetDriverVersion(self) -> str:
        return self._d["driver"]

    def nvmlSystemGetCudaDriverVersion_v2(self) -> int:
        return int(self._d["cuda"])

    def nvmlDeviceGetCount(self) -> int:
        return 1

    def nvmlDeviceGetHandleByIndex(self, index: int) -> int:
        return index

    def nvmlDeviceGetName(self, handle: int) -> str:
        return self._d["name"]

    def nvmlDeviceGetCudaComputeCapability(self, handle: int) -> tuple[int, int]:
        return tuple(self._d["capability"])

    def nvmlDeviceGetPciInfo(self, handle: int) -> _PciInfo:
        return _PciInfo(self._d["bus"])


@dataclass(frozen=True, slots=True)
class DemoMachine:
    runner: FakeRunner
    root: SystemRoot
    nvml: DemoNvml
    python: str


def demo_machine(folder: Path) -> DemoMachine:
    data = json.loads(DEMO_FILE.read_text(encoding="utf-8"))
    for system_path, text in data["files"].items():
        target = folder / system_path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    runner = FakeRunner()
    for c in data["commands"]:
        runner.responses[tuple(c["argv"])] = CommandResult(c["rc"], c.get("stdout", ""), c.get("stderr", ""))
    return DemoMachine(runner, SystemRoot(folder), DemoNvml(data["nvml"]), data["python"])
