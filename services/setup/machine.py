"""One picture of this machine: which NVIDIA GPUs it has and their names, which driver runs
(or what failed), and which Python the user works in and what its PyTorch can do.

Every part of Setup (the doctor, the wizard's plan, the troubleshooter) and the pages that
show "no GPU" read this one answer instead of deciding on their own. Each fact comes from
the most reliable source that answered:

- GPUs and names: NVML (it works in WSL2 and containers, where no NVIDIA PCI device is
  visible), then the display-class registry on Windows, then the PCI bus (lspci, sysfs and
  the pci.ids name);
- the driver: NVML, then nvidia-smi, then the registry (Windows), then the loaded kernel module;
  when NVML fails, what failed;
- Python: the interpreter asked for, else the one the user is in (an active venv or conda env,
  then python3/python on PATH).

It is built from what the probes read (``describe``) and never touches the machine itself,
except ``active_python``, which only looks at the environment variables and PATH it is given.
"""
from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.setup.probes import NVIDIA_VENDOR, NvmlState, PciGpu
from services.setup.python_env import PythonEnvState, TorchProbe

# How the checked interpreter was chosen.
PY_GIVEN, PY_VENV, PY_CONDA, PY_PATH = "given", "venv", "conda", "path"


@dataclass(frozen=True, slots=True)
class ActivePython:
    path: str
    how: str  # venv | conda | path


def _env_interpreter(prefix: Path, windows: bool) -> Path | None:
    names = (("python.exe",), ("Scripts", "python.exe")) if windows else (("bin", "python3"), ("bin", "python"))
    return next((prefix.joinpath(*n) for n in names if prefix.joinpath(*n).is_file()), None)


def active_python(environ: Mapping[str, str] | None = None, windows: bool = sys.platform == "win32",
                  which: Callable[..., str | None] = shutil.which) -> ActivePython | None:
    """The interpreter the user is in: an activated venv (VIRTUAL_ENV), an activated conda env
    (CONDA_PREFIX), then python3 / python on PATH. None when there is none."""
    env = dict(environ) if environ is not None else dict(__import__("os").environ)
    for var, how in (("VIRTUAL_ENV", PY_VENV), ("CONDA_PREFIX", PY_CONDA)):
        prefix = env.get(var, "").strip()
        if prefix:
            exe = _env_interpreter(Path(prefix), windows)
            if exe is not None:
                return ActivePython(str(exe), how)
    for name in (("python",) if windows else ("python3", "python")):
        found = which(name, path=env.get("PATH"))
        # Windows' "App execution alias" python.exe under WindowsApps opens the Store instead of running.
        if found and "windowsapps" not in found.lower():
            return ActivePython(found, PY_PATH)
    return None


@dataclass(frozen=True, slots=True)
class MachineGpu:
    name: str  # 'NVIDIA H200', 'NVIDIA GeForce RTX 4090'
    source: str  # nvml | registry | pci: where the GPU (and its name) was found
    pci: PciGpu  # its PCI identity (from the bus, the registry, or NVML's own PCI info)
    capability: tuple[int, int] | None = None  # from NVML


@dataclass(frozen=True, slots=True)
class DriverInfo:
    version: str | None = None
    source: str = ""  # nvml | nvidia-smi | registry | kernel-module
    answers: bool = False  # NVML or nvidia-smi talks to the GPU
    failure: Any = ""  # when a driver is installed but NVML does not answer: NVML's error (str or translatable Msg)


@dataclass(frozen=True, slots=True)
class Machine:
    gpus: tuple[MachineGpu, ...]
    driver: DriverInfo
    python: str | None = None  # the interpreter checked
    python_how: str = ""  # given | venv | conda | path
    python_env: PythonEnvState | None = None
    torch: TorchProbe | None = None

    @property
    def gpu(self) -> MachineGpu | None:
        return self.gpus[0] if self.gpus else None

    @property
    def torch_works(self) -> bool:
        """PyTorch in the checked interpreter ran a matrix multiply on the GPU."""
        t = self.torch
        return bool(t and t.ran and t.cuda_available and t.matmul_ok)

    def to_json(self) -> dict:
        return {
            "gpus": [{"name": g.name, "source": g.source, "pci_id": g.pci.pci_id, "address": g.pci.address}
                     for g in self.gpus],
            "driver": {"version": self.driver.version, "source": self.driver.source, "answers": self.driver.answers,
                       "failure": str(self.driver.failure) if self.driver.failure else None},
            "python": {"interpreter": self.python, "how": self.python_how or None,
                       "virtual_env": self.python_env.in_venv if self.python_env else None,
                       "torch_works": self.torch_works},
        }


def product_name(name: str) -> str:
    """'NVIDIA Corporation AD102 [GeForce RTX 4090]' or pci.ids' 'AD102 [GeForce RTX 4090]'
    -> 'GeForce RTX 4090'; other names stay as they are."""
    name = (name or "").strip()
    if name.endswith("]") and "[" in name:
        return name[name.rindex("[") + 1:-1].strip() or name
    return name


def _bus_key(address: str) -> tuple[int, int, int, int] | None:
    """'00000000:01:00.0' (NVML) and '0000:01:00.0' (sysfs, lspci) -> the same key."""
    try:
        head, _, fn = address.strip().lower().rpartition(".")
        parts = head.split(":")
        domain = int(parts[-3], 16) if len(parts) >= 3 else 0
        return domain, int(parts[-2], 16), int(parts[-1], 16), int(fn, 16)
    except (ValueError, IndexError):
        return None


def _gpus(nvml: NvmlState | None, bus: tuple[PciGpu, ...], windows: bool,
          id_names: Callable[[str], str | None]) -> tuple[MachineGpu, ...]:
    nvidia = [g for g in bus if g.is_nvidia]
    bus_source = "registry" if windows else "pci"
    if nvml is not None and nvml.ok and nvml.gpus:
        by_key = {_bus_key(g.address): g for g in nvidia if _bus_key(g.address) is not None}
        out = []
        for i, n in enumerate(nvml.gpus):
            pci = by_key.get(_bus_key(n.pci_bus_id))
            if pci is None and len(nvidia) == len(nvml.gpus) and not by_key:
                pci = nvidia[i]  # the bus gave no addresses (the registry): same order
            if pci is None:  # WSL2, containers: NVML sees the GPU, the PCI bus does not
                pci = PciGpu(n.pci_bus_id, NVIDIA_VENDOR, n.device_id or "", n.name)
            elif n.device_id and not pci.device_id:
                pci = PciGpu(pci.address, pci.vendor_id, n.device_id, pci.name, pci.driver, pci.modules)
            out.append(MachineGpu(n.name, "nvml", pci, n.capability))
        return tuple(out)
    named = []
    for g in nvidia:
        name = product_name(g.name) if g.name and g.name != g.pci_id else ""
        named.append(MachineGpu(name or id_names(g.device_id) or f"NVIDIA GPU ({g.pci_id})", bus_source, g))
    return tuple(named)


def _driver(facts: Any) -> DriverInfo:
    nvml, smi, km, win = facts.nvml, facts.nvidia_smi, facts.kernel_module, facts.windows
    failure = (nvml.error_text or nvml.error) if nvml is not None and not nvml.ok else ""
    if nvml is not None and nvml.ok and nvml.driver_version:
        return DriverInfo(nvml.driver_version, "nvml", True)
    if smi is not None and smi.exit_code == 0 and smi.driver_version:
        return DriverInfo(smi.driver_version, "nvidia-smi", True, failure)
    if win is not None and getattr(win, "driver_version", None):
        return DriverInfo(win.driver_version, "registry", False, failure)
    if km is not None and km.loaded_version:
        return DriverInfo(km.loaded_version, "kernel-module", False, failure)
    return DriverInfo(None, "", False, failure)


def describe(facts: Any, id_names: Callable[[str], str | None] = lambda _device_id: None) -> Machine:
    """The machine model from the doctor's facts (``services.setup.doctor.MachineFacts``).
    ``id_names`` names a PCI device id when neither NVML nor the bus did (the rules' id table)."""
    windows = facts.windows is not None
    return Machine(
        gpus=_gpus(facts.nvml, tuple(facts.gpus), windows, id_names),
        driver=_driver(facts),
        python=facts.torch.python if facts.torch is not None else (facts.python_env.python if facts.python_env else None),
        python_how=getattr(facts, "python_how", ""),
        python_env=facts.python_env,
        torch=facts.torch,
    )
