"""The recorded machine the Setup page shows with ``--demo`` (and screenshots).

The cards and the driver are the one demo machine (``services.demo_machine``, which the
dashboard's simulation reads too); the GPU tools' answers (lspci, nvidia-smi, modinfo,
/proc/driver/nvidia/version, NVML) are written from it in the real formats, the rest comes
from ``resources/data/setup_demo_machine.json``. Nothing here touches the real system; the
files are written under the app's own data folder.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from services.demo_machine import DemoMachineSpec, demo_machine_spec
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

    def __init__(self, spec: DemoMachineSpec) -> None:
        self._spec = spec

    def nvmlInitWithFlags(self, flags: int) -> None:
        pass

    def nvmlShutdown(self) -> None:
        pass

    def nvmlSystemGetDriverVersion(self) -> str:
        return self._spec.driver_version

    def nvmlSystemGetCudaDriverVersion_v2(self) -> int:
        return self._spec.cuda_driver_int

    def nvmlDeviceGetCount(self) -> int:
        return len(self._spec.gpus)

    def nvmlDeviceGetHandleByIndex(self, index: int) -> int:
        return index

    def nvmlDeviceGetName(self, handle: int) -> str:
        return self._spec.gpus[handle].name

    def nvmlDeviceGetCudaComputeCapability(self, handle: int) -> tuple[int, int]:
        return self._spec.gpus[handle].capability

    def nvmlDeviceGetPciInfo(self, handle: int) -> _PciInfo:
        return _PciInfo(self._spec.gpus[handle].pci_bus_id)


@dataclass(frozen=True, slots=True)
class DemoMachine:
    runner: FakeRunner
    root: SystemRoot
    nvml: DemoNvml
    python: str


def _gpu_answers(spec: DemoMachineSpec, data: dict) -> tuple[dict[str, str], dict[tuple[str, ...], CommandResult]]:
    """The GPU tools' answers for ``spec``, in the formats the real tools print."""
    lspci = data["lspci_host"]
    for gpu in spec.gpus:
        vendor, device = gpu.pci_ids
        lspci += (f"{gpu.short_bus} VGA compatible controller [0300]: NVIDIA Corporation {gpu.lspci_name} "
                  f"[{vendor:04x}:{device:04x}] (rev a1)\n\tSubsystem: NVIDIA Corporation Device [{vendor:04x}:0000]\n"
                  "\tKernel driver in use: nvidia\n\tKernel modules: nouveau, nvidia_drm, nvidia\n")
    smi = "".join(f"{spec.driver_version}, {g.name}, {g.pci_bus_id}\n" for g in spec.gpus)
    files = {"/proc/driver/nvidia/version": data["proc_driver_version"].format(driver=spec.driver_version)}
    commands = {
        ("lspci", "-nnk"): CommandResult(0, lspci, ""),
        ("modinfo", "-F", "version", "nvidia"): CommandResult(0, spec.driver_version + "\n", ""),
        ("nvidia-smi",): CommandResult(0, smi, ""),
    }
    return files, commands


def demo_machine(folder: Path) -> DemoMachine:
    data = json.loads(DEMO_FILE.read_text(encoding="utf-8"))
    spec = demo_machine_spec()
    gpu_files, gpu_commands = _gpu_answers(spec, data)
    for system_path, text in {**data["files"], **gpu_files}.items():
        target = folder / system_path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    runner = FakeRunner()
    for c in data["commands"]:
        runner.responses[tuple(c["argv"])] = CommandResult(c["rc"], c.get("stdout", ""), c.get("stderr", ""))
    runner.responses.update(gpu_commands)
    return DemoMachine(runner, SystemRoot(folder), DemoNvml(spec), data["python"])
