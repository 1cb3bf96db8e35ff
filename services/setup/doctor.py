"""The environment doctor: gathers facts about the driver stack and the user's
Python environment, then says what is wrong in plain words with the exact fix.

``collect_facts`` only reads (through an injectable runner, file-system root
and NVML module); ``diagnose`` (services.setup.diagnosis) is a pure function of
the facts and the rules file, which is what the tests exercise with recorded
outputs. The facts and the report are in services.setup.doctor_report.
"""
from __future__ import annotations

import platform
import sys
from typing import Any

from services.setup.diagnosis import diagnose
from services.setup.doctor_report import DoctorReport, MachineFacts
from services.setup.os_release import read_os
from services.setup.pci_ids import lookup_device_name
from services.setup.permissions import read_device_permissions
from services.setup.probes import (
    PciGpu, read_gpus, read_kernel_module, read_nvidia_smi, read_nvml, read_secure_boot, read_ubuntu_drivers,
)
from services.setup.python_env import INTERPRETER_HUNG, PythonEnvState, probe_torch, read_externally_managed
from services.setup.rules import Rules
from services.setup.system import Runner, SystemRoot


# ---- collecting -----------------------------------------------------------------
def collect_facts(
    runner: Runner,
    root: SystemRoot | None = None,
    python: str | None = None,
    nvml_module: Any = None,
    windows_probe: Any = None,
    system: str | None = None,
    python_how: str = "",
) -> MachineFacts:
    """Read everything the doctor needs. Slow parts: lspci, NVML, the torch probe.
    ``python``: the interpreter to check (the caller picks the active one with
    ``services.setup.machine.active_python``); ``python_how`` says how it was chosen."""
    root = root or SystemRoot()
    # Which OS this is comes from the platform itself; CIM and the registry only add detail.
    system = system or ("windows" if sys.platform == "win32" else "linux")
    torch = probe_torch(python, runner) if python else None
    nvml = read_nvml(nvml_module)
    smi = read_nvidia_smi(runner)
    if system == "windows":
        from services.setup.windows import LiveWindowsProbe, collect_windows_facts

        windows_probe = windows_probe or LiveWindowsProbe(runner)

        wfacts = collect_windows_facts(windows_probe)
        return MachineFacts(os=wfacts.os, gpus=wfacts.gpus, secure_boot=wfacts.secure_boot,
                            nvml=nvml, nvidia_smi=smi, torch=torch, windows=wfacts, python_how=python_how)
    uname = runner.run(["uname", "-r"], timeout=5)
    kernel = uname.stdout.strip() if uname.ok else (platform.release() if root.is_real else "")
    os_info = read_os(root, kernel)
    return MachineFacts(
        os=os_info,
        python_env=PythonEnvState(python or "python3") if torch is not None and torch.error == INTERPRETER_HUNG  # asked once is enough
        else read_externally_managed(python or "python3", runner, root),
        ubuntu_drivers=read_ubuntu_drivers(runner) if os_info and os_info.family == "ubuntu" else None,
        gpus=tuple(_named(root, g) for g in read_gpus(root, runner)),
        kernel_module=read_kernel_module(root, runner),
        secure_boot=read_secure_boot(root, runner),
        nvml=nvml,
        nvidia_smi=smi,
        torch=torch,
        python_how=python_how,
        permissions=read_device_permissions(root),
    )


def _named(root: SystemRoot, gpu: PciGpu) -> PciGpu:
    """sysfs has no names: take the system's pci.ids name (what lspci would print)."""
    if gpu.name or not gpu.is_nvidia:
        return gpu
    name = lookup_device_name(root, gpu.device_id)
    return PciGpu(gpu.address, gpu.vendor_id, gpu.device_id, name or "", gpu.driver, gpu.modules)


def run_doctor(runner: Runner, rules: Rules, python: str | None = None, root: SystemRoot | None = None,
               nvml_module: Any = None, windows_probe: Any = None, system: str | None = None,
               python_how: str = "") -> DoctorReport:
    facts = collect_facts(runner, root, python, nvml_module, windows_probe, system, python_how)
    return diagnose(facts, rules, python)
