"""Pick the plan for a machine (or for a given os-release file and PCI id).

On the machine itself the doctor's findings decide which steps the plan keeps
(``repair_plan``, services.setup.repair_plan): a working driver that is new enough
leaves only the PyTorch steps; each step left out is listed with the reason.
``full=True`` keeps every step ("reinstall everything"; on Windows the DDU clean
reinstall). Plans for another machine are made in services.setup.target_systems,
the card to plan for is looked up in services.setup.card_lookup.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path, PurePath

from services.paths import AppPaths
from services.setup.doctor_report import DoctorReport
from services.setup.linux_plans import PlanInputs, build_linux_plan
from services.setup.os_release import OsInfo
from services.setup.pci_ids import lookup_device_name
from services.setup.plan import Plan, Step
from services.setup.python_env import default_venv_dir
from services.setup.repair_plan import repair_plan
from services.setup.rules import Rules
from services.setup.system import SystemRoot


def setup_dir(paths: AppPaths) -> Path:
    return paths.data_dir / "setup"


def _product_name(name: str) -> str:
    """'GP104 [GeForce GTX 1080]' -> 'GeForce GTX 1080' (pci.ids / lspci form)."""
    m = re.search(r"\[([^\]]+)\]\s*$", name or "")
    return m.group(1) if m else name


def inputs_for(rules: Rules, root: SystemRoot, staging_dir: PurePath, device_id: str | None, name: str = "",
               sm: str | None = None, secure_boot: str = "unknown", kernel: str = "",
               driver_version: str | None = None, python: str | None = None,
               torch_version: str | None = None, probe_files: bool = True,
               externally_managed: bool | None = None, venv_dir: str | None = None,
               ubuntu_driver_packages: tuple[str, ...] = (), ubuntu_recommended: str = "") -> PlanInputs:
    # Generation: exact id in the rules file, then the system's pci.ids name, then
    # name patterns. A card none of them knows stays None: the plans then refuse to
    # guess (no open modules, no newest wheel) instead of assuming Turing or newer.
    generation_name, _ = rules.identify_gpu(device_id, name)
    if generation_name is None and device_id:
        pci_name = lookup_device_name(root, device_id)
        if pci_name:
            generation_name, _ = rules.identify_gpu(device_id, pci_name)
            if not name or ":" in name:  # no name, or just the id (sysfs without lspci)
                name = pci_name
    gen = rules.generation(generation_name)
    if sm is None and gen is not None:
        from services.setup.diagnosis import guess_sm

        sm = guess_sm(rules, gen.name, name)
    label = _product_name(name) or (f"10de:{device_id}" if device_id else "NVIDIA GPU")
    hit = next((g for g in rules.gpu_ids if device_id and g.device_id == device_id), None)
    if hit and (not name or ":" in name):  # no name, or only the id (sysfs without lspci)
        label = hit.name
    return PlanInputs(root=root, staging_dir=staging_dir, generation=gen, sm=sm, gpu_label=label,
                      secure_boot=secure_boot, kernel=kernel, driver_version=driver_version,
                      python=python, torch_version=torch_version, probe_files=probe_files,
                      externally_managed=externally_managed,
                      venv_dir=venv_dir if venv_dir is not None else default_venv_dir(),
                      ubuntu_driver_packages=ubuntu_driver_packages, ubuntu_recommended=ubuntu_recommended)


def plan_for_os(os: OsInfo | None, inputs: PlanInputs, rules: Rules, windows_options=None) -> Plan:
    if os is not None and os.system == "windows":
        from services.setup.windows_plan import WindowsPlanOptions, build_windows_plan

        plan = build_windows_plan(inputs, rules, windows_options or WindowsPlanOptions())
    else:
        plan = build_linux_plan(os, inputs, rules)
    return with_base_fingerprints(plan, inputs.root) if inputs.probe_files else plan


def with_base_fingerprints(plan: Plan, root: SystemRoot) -> Plan:
    """Record what each file looked like when the plan (the preview) was made, so the
    executor can refuse to write over a file edited since then."""
    from services.setup.step_backups import file_fingerprint

    def stamp(step: Step) -> Step:
        if not step.files:
            return step
        files = tuple(dataclasses.replace(f, base_sha256=file_fingerprint(root(f.path))) if f.base_sha256 is None else f
                      for f in step.files)
        return dataclasses.replace(step, files=files)

    return dataclasses.replace(plan, steps=tuple(stamp(s) for s in plan.steps))


def facts_for_plan(f) -> dict:
    """What the doctor read that only the plan needs (PEP 668 state, ubuntu-drivers list)."""
    return {
        "externally_managed": f.python_env.externally_managed if f.python_env else None,
        "ubuntu_driver_packages": f.ubuntu_drivers.packages if f.ubuntu_drivers else (),
        "ubuntu_recommended": f.ubuntu_drivers.recommended if f.ubuntu_drivers else "",
    }


def plan_for_report(report: DoctorReport, rules: Rules, root: SystemRoot, staging_dir: Path, windows_options=None,
                    full: bool = False) -> Plan:
    """The plan for the machine the doctor looked at: only what is broken, or every step with ``full``."""
    f = report.facts
    gpu = report.gpu
    driver_ok = bool(f.nvml and f.nvml.ok)
    inputs = inputs_for(
        rules, root, staging_dir,
        device_id=gpu.pci.device_id if gpu else None,
        name=gpu.name if gpu else "",
        sm=gpu.sm if gpu else None,
        secure_boot=f.secure_boot,
        kernel=f.os.kernel if f.os else "",
        driver_version=f.driver_version if driver_ok else None,
        python=f.torch.python if f.torch and f.torch.ran else None,
        torch_version=f.torch.torch_version if f.torch else None,
        **facts_for_plan(f),
    )
    if gpu and inputs.generation is None and gpu.generation:
        inputs = dataclasses.replace(inputs, generation=rules.generation(gpu.generation))
    plan = plan_for_os(f.os, inputs, rules, windows_options)
    if full:
        return plan
    return repair_plan(plan, report, rules, inputs, windows_options)
