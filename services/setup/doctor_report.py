"""What the doctor works with: the facts it collected (``MachineFacts``), the GPU it identified
and its report (``DoctorReport``), which the wizard, the troubleshooter and the planner read."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from services.setup.findings import SEVERITIES, Finding
from services.setup.machine import Machine
from services.setup.os_release import OsInfo
from services.setup.probes import KernelModuleState, NvidiaSmiState, NvmlState, PciGpu, UbuntuDriversList
from services.setup.python_env import PythonEnvState, TorchProbe


@dataclass(frozen=True, slots=True)
class GpuIdentity:
    pci: PciGpu
    generation: str | None
    sm: str | None
    sm_measured: bool  # from NVML/torch rather than guessed from the model
    label: str = ""  # the machine model's name for it (NVML's first)

    @property
    def name(self) -> str:
        """The machine model's name, else 'NVIDIA Corporation AD102 [GeForce RTX 4090]' -> 'GeForce RTX 4090'."""
        if self.label:
            return self.label
        m = re.search(r"\[([^\]]+)\]\s*$", self.pci.name or "")
        return m.group(1) if m else (self.pci.name or self.pci.pci_id)


@dataclass(frozen=True, slots=True)
class MachineFacts:
    os: OsInfo | None
    gpus: tuple[PciGpu, ...] = ()
    kernel_module: KernelModuleState | None = None
    secure_boot: str = "unknown"
    nvml: NvmlState | None = None
    nvidia_smi: NvidiaSmiState | None = None
    torch: TorchProbe | None = None
    windows: Any = None  # services.setup.windows.WindowsFacts on Windows
    python_env: PythonEnvState | None = None  # PEP 668 state of the checked (or default) interpreter
    ubuntu_drivers: UbuntuDriversList | None = None  # Ubuntu family only
    python_how: str = ""  # how the checked interpreter was chosen: given | venv | conda | path
    permissions: Any = None  # services.setup.permissions.DevicePermissions on Linux

    @property
    def os_name(self) -> str:
        return "windows" if self.os and self.os.system == "windows" else "linux"

    @property
    def nvidia_gpus(self) -> tuple[PciGpu, ...]:
        return tuple(g for g in self.gpus if g.is_nvidia)

    @property
    def driver_version(self) -> str | None:
        """User-space driver version (NVML, then nvidia-smi, then the loaded module)."""
        if self.nvml and self.nvml.driver_version:
            return self.nvml.driver_version
        if self.nvidia_smi and self.nvidia_smi.driver_version:
            return self.nvidia_smi.driver_version
        if self.windows is not None and getattr(self.windows, "driver_version", None):
            return self.windows.driver_version
        if self.kernel_module and self.kernel_module.loaded_version:
            return self.kernel_module.loaded_version
        return None


@dataclass(frozen=True, slots=True)
class DoctorReport:
    facts: MachineFacts
    gpu: GpuIdentity | None
    findings: tuple[Finding, ...]
    rules_version: str
    machine: Machine | None = None  # the one picture of the machine every page reads

    @property
    def worst(self) -> str:
        for sev in SEVERITIES:
            if any(f.severity == sev for f in self.findings):
                return sev
        return "ok"

    def has(self, code: str) -> bool:
        return any(f.code == code for f in self.findings)

    def to_json(self) -> dict:
        f = self.facts
        return {
            "rules_version": self.rules_version,
            "os": None if f.os is None else {
                "system": f.os.system, "id": f.os.id, "version_id": f.os.version_id,
                "pretty_name": f.os.pretty_name, "family": f.os.family, "kernel": f.os.kernel,
            },
            "gpus": [{"pci_id": g.pci_id, "address": g.address, "name": g.name, "driver": g.driver} for g in f.gpus],
            "gpu": None if self.gpu is None else {
                "pci_id": self.gpu.pci.pci_id, "name": self.gpu.name, "generation": self.gpu.generation,
                "sm": self.gpu.sm, "sm_measured": self.gpu.sm_measured,
            },
            "kernel_module": None if f.kernel_module is None else {
                "loaded_version": f.kernel_module.loaded_version, "loaded_flavor": f.kernel_module.loaded_flavor,
                "installed_version": f.kernel_module.installed_version, "nouveau_loaded": f.kernel_module.nouveau_loaded,
            },
            "secure_boot": f.secure_boot,
            "driver_version": f.driver_version,
            "nvml": None if f.nvml is None else {
                "ok": f.nvml.ok, "driver_version": f.nvml.driver_version, "cuda_version": f.nvml.cuda_version,
                "error_code": f.nvml.error_code, "error": f.nvml.error,
            },
            "nvidia_smi": None if f.nvidia_smi is None else {
                "present": f.nvidia_smi.present, "exit_code": f.nvidia_smi.exit_code, "message": f.nvidia_smi.message,
            },
            "python": None if f.torch is None else {
                "interpreter": f.torch.python, "ran": f.torch.ran, "error": f.torch.error,
                "torch_version": f.torch.torch_version, "cuda_build": f.torch.cuda_build,
                "cudnn": f.torch.cudnn_text or None, "cuda_available": f.torch.cuda_available,
                "arch_list": list(f.torch.arch_list), "matmul_ok": f.torch.matmul_ok,
            },
            "python_env": None if f.python_env is None else {
                "interpreter": f.python_env.python, "stdlib": f.python_env.stdlib or None,
                "externally_managed": f.python_env.externally_managed,
            },
            "windows": None if f.windows is None else f.windows.to_json(),
            "machine": None if self.machine is None else self.machine.to_json(),
            "worst": self.worst,
            "findings": [
                {
                    "code": x.code, "severity": x.severity, "title": str(x.title), "detail": str(x.detail),
                    "fixes": [{"label": str(fx.label), "commands": [list(c) for c in fx.commands], "step": fx.step} for fx in x.fixes],
                }
                for x in self.findings
            ],
        }
