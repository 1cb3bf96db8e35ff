"""Plan only what is broken: the doctor's report decides which steps of the full plan are kept
(``repair_plan``); a working driver that is new enough leaves only the PyTorch steps."""
from __future__ import annotations

import dataclasses

from services.i18n import Msg, translate
from services.setup.doctor_report import DoctorReport
from services.setup.linux_plans import PlanInputs, plan_outcome, pytorch_steps
from services.setup.plan import Plan, SkippedStep, Step
from services.setup.rules import Rules


# Steps that are not part of getting the driver in: the rest of a Linux plan's
# steps before the reboot (repository, package lists, the driver package, module
# build) are the driver's.
NOUVEAU_STEP, MOK_STEP, REBOOT_STEP, VERIFY_DRIVER = "blacklist-nouveau", "enroll-mok", "reboot", "verify-driver"
PYTORCH_STEPS = ("install-venv-support", "create-venv", "install-pytorch", "verify-pytorch")
# Findings that mean the driver itself must be (re)installed or updated.
# (A driver too old for the *installed* PyTorch is not one: the plan installs a build
# this driver runs, when one exists for the card.)
DRIVER_BROKEN = {"driver_not_installed", "wrong_module_flavor", "driver_too_old_for_gpu", "nvidia_smi_failed",
                 "nvidia_smi_missing", "driver_not_answering"}
# Findings a reboot (and, under Secure Boot, the signing key) fixes without a new driver.
NEEDS_REBOOT = {"driver_library_mismatch", "module_not_loaded", "secure_boot_blocks_module"}



@dataclasses.dataclass(frozen=True, slots=True)
class RepairNeeds:
    """What the doctor's findings say this machine needs (the plan follows it)."""

    driver: Msg | None  # why the driver must be installed/updated; None: it works and is new enough
    nouveau: bool
    mok: bool
    reboot: bool
    pytorch: bool
    windows_mode: str = ""  # windows: pytorch | update | install | reinstall | clean


def driver_problem(report: DoctorReport, rules: Rules) -> Msg | None:
    """Why the driver must be installed or updated, or None when it works and is new enough
    for the card and for the PyTorch build the plan picks."""
    f, gpu = report.facts, report.gpu
    codes = {x.code for x in report.findings}
    km = f.kernel_module
    if "driver_too_old_for_gpu" in codes:
        return translate("Setup", "driver {driver} is too old for this card").format(driver=f.driver_version or "?")
    if "wrong_module_flavor" in codes:
        return translate("Setup", "the wrong kernel module variant is loaded for this card")
    if "driver_not_installed" in codes:
        return translate("Setup", "no NVIDIA driver is installed")
    if "nouveau_in_use" in codes and not (km and km.installed_version):
        return translate("Setup", "no NVIDIA driver is installed")
    if codes & DRIVER_BROKEN:
        return translate("Setup", "the driver does not answer (see the doctor)")
    if f.os_name == "windows" and windows_mixed(report):
        return translate("Setup", "the driver Windows has on the card ({device}) is not the one that answers ({answers}): a mixed install").format(
            device=f.windows.driver_version, answers=f.nvml.driver_version if f.nvml is not None else "")
    driver = f.driver_version
    working = "driver_ok" in codes or (f.nvidia_smi is not None and f.nvidia_smi.exit_code == 0 and driver is not None)
    if not working:
        if codes & NEEDS_REBOOT or "nouveau_in_use" in codes:
            return None  # installed: a reboot, the key or the blacklist is what is missing
        return translate("Setup", "no working NVIDIA driver was found")
    # A current build that runs on this driver, counting CUDA minor-version compatibility (cu126
    # runs on >= 525.60.13, as the full plan knows): only when none does must the driver change.
    # Table 3 alone would re-plan "install the driver" forever on a Debian 535/550 that works.
    if driver and rules.pytorch_for_driver(gpu.sm if gpu else None, driver, f.os_name) is not None:
        return None
    choice = rules.recommend_variant(gpu.sm if gpu else None, driver, f.os_name)
    if choice is not None and not choice.driver_ok:
        return translate("Setup", "driver {driver} is older than any current PyTorch build for this card needs ({need} or newer)").format(
            driver=driver or "?", need=choice.needs_driver or "?")
    return None


def repair_needs(report: DoctorReport, rules: Rules) -> RepairNeeds:
    f = report.facts
    codes = {x.code for x in report.findings}
    km = f.kernel_module
    driver = driver_problem(report, rules)
    nouveau = "nouveau_in_use" in codes or bool(km and km.nouveau_loaded) or bool(report.gpu and report.gpu.pci.driver == "nouveau")
    module_loaded = bool(km and km.loaded_version)
    # The kernel already loaded NVIDIA's signed module under Secure Boot: its key is trusted.
    mok = f.secure_boot in ("enabled", "unknown") and not module_loaded and (
        driver is not None or "secure_boot_blocks_module" in codes or nouveau)
    reboot = driver is not None or nouveau or mok or bool(codes & NEEDS_REBOOT)
    pytorch = "torch_ok" not in codes
    mode = ""
    if f.os_name == "windows":
        mode = windows_repair_mode(report, driver)
    return RepairNeeds(driver, nouveau, mok, reboot, pytorch, mode)


def windows_mixed(report: DoctorReport) -> bool:
    """Windows has one driver version on the device (WMI) and another answers (NVML): parts of
    two installs, the case DDU is for."""
    f = report.facts
    nvml_version = f.nvml.driver_version if f.nvml and f.nvml.driver_version else None
    wmi_version = getattr(f.windows, "driver_version", None) if f.windows is not None else None
    return bool(nvml_version and wmi_version and nvml_version != wmi_version)


def nvidia_driver_on_device(version: str | None) -> bool:
    """Whether the driver Windows lists for the card is NVIDIA's: NVIDIA's own versions read as
    branch.build (e.g. 560.94, from 32.0.15.6094); Microsoft's basic display driver (10.0.x)
    decodes to a number far below any NVIDIA branch."""
    from services.setup.rules import parse_version

    parsed = parse_version(version)
    return parsed is not None and bool(parsed) and parsed[0] >= 300


def windows_repair_mode(report: DoctorReport, driver: Msg | None) -> str:
    """pytorch: the driver is fine; update: in place with the offline package; install: the
    offline package on a card with no NVIDIA driver yet; clean: DDU."""
    f = report.facts
    codes = {x.code for x in report.findings}
    if driver is None:
        return "pytorch"
    wmi_version = getattr(f.windows, "driver_version", None) if f.windows is not None else None
    if not nvidia_driver_on_device(wmi_version) and not (f.nvml and f.nvml.ok):
        return "install"  # nothing of NVIDIA's is installed (Windows' basic display driver): no clean-up needed
    if windows_mixed(report):
        return "clean"
    # One NVIDIA driver on the device whose libraries (nvml.dll) fail: the offline package's
    # "Perform a clean installation" replaces them in place; DDU is for mixed installs.
    if "driver_not_answering" in codes and nvidia_driver_on_device(wmi_version):
        return "reinstall"
    broken = bool(codes & {"nvidia_smi_failed", "nvidia_smi_missing"}) or (
        wmi_version is not None and not (f.nvml and f.nvml.ok))
    if broken:
        return "clean"
    if f.driver_version:
        return "update"
    return "clean"  # no driver answers at all: the clean install is the safe way in


def _keep_pytorch_step(step: Step, needs: RepairNeeds, facts, keep: list[Step], skipped: list[SkippedStep]) -> None:
    """Linux and Windows alike: a PyTorch that works is only verified."""
    if step.id == "verify-pytorch" or needs.pytorch:
        keep.append(step)
    else:
        version = (facts.torch.torch_version if facts.torch else None) or "?"
        skipped.append(_skip(step, translate("Setup", "PyTorch {version} already works on the GPU").format(version=version)))


def _skip(step: Step, reason: Msg) -> SkippedStep:
    return SkippedStep(step, translate("Setup", "Not needed: {reason}").format(reason=reason))


def repair_plan(plan: Plan, report: DoctorReport, rules: Rules, inputs: PlanInputs, windows_options=None) -> Plan:
    """Keep only the steps the doctor's findings call for; the rest are listed with the reason."""
    needs = repair_needs(report, rules)
    if plan.system == "windows":
        return _repair_windows(plan, report, needs, windows_options)
    f = report.facts
    driver = f.driver_version or "?"
    keep: list[Step] = []
    skipped: list[SkippedStep] = []
    for step in plan.steps:
        sid = step.id
        if sid in PYTORCH_STEPS:
            _keep_pytorch_step(step, needs, f, keep, skipped)
        elif sid == NOUVEAU_STEP:
            if needs.nouveau:
                keep.append(step)
            else:
                skipped.append(_skip(step, translate("Setup", "nouveau is not loaded")))
        elif sid == MOK_STEP:
            if needs.mok:
                keep.append(step)
            elif f.kernel_module and f.kernel_module.loaded_version and f.secure_boot == "enabled":
                skipped.append(_skip(step, translate("Setup", "the NVIDIA module is already loaded under Secure Boot, so the kernel trusts its signing key")))
            else:
                skipped.append(_skip(step, translate("Setup", "no new kernel module has to be signed")))
        elif sid == REBOOT_STEP:
            if needs.reboot:
                keep.append(step)
            else:
                skipped.append(_skip(step, translate("Setup", "nothing that needs a restart changes")))
        elif sid == VERIFY_DRIVER:
            if needs.reboot or needs.driver is not None:
                keep.append(step)
            else:
                skipped.append(_skip(step, translate("Setup", "driver {driver} already works").format(driver=driver)))
        else:  # the driver's own steps: repository, package lists, package, module build
            if needs.driver is not None:
                keep.append(step)
            elif any(x.code in NEEDS_REBOOT for x in report.findings) or needs.nouveau:
                skipped.append(_skip(step, translate("Setup", "driver {driver} is installed; it only needs the steps below to load").format(
                    driver=(f.kernel_module.installed_version if f.kernel_module else None) or driver)))
            else:
                skipped.append(_skip(step, translate("Setup", "driver {driver} works and is new enough for this card and the PyTorch build").format(driver=driver)))
    if needs.driver is None and inputs.driver_version:
        # The driver stays: the full plan's PyTorch step was chosen for the driver it would
        # install, so pick it again for the driver that is working now.
        plan, keep = _pytorch_for_current_driver(plan, keep, inputs, rules)
    return _repaired(plan, keep, skipped, needs)


def _pytorch_for_current_driver(plan: Plan, keep: list[Step], inputs: PlanInputs, rules: Rules) -> tuple[Plan, list[Step]]:
    install, verify = pytorch_steps(inputs, rules, "linux", None)
    fresh = {install.id: install, verify.id: verify}
    keep = [fresh.get(s.id, s) for s in keep]
    return dataclasses.replace(plan, outcome=plan_outcome(inputs, rules, None)), keep


def _repaired(plan: Plan, keep: list[Step], skipped: list[SkippedStep], needs: RepairNeeds) -> Plan:
    notes = plan.notes
    if needs.driver is not None:
        notes = (translate("Setup", "The driver steps are in the plan because {reason}.").format(reason=needs.driver), *notes)
    if not skipped:
        return dataclasses.replace(plan, mode="repair", notes=notes)
    if needs.driver is None and not needs.reboot:
        summary = translate("Setup", "The driver works. PyTorch steps for {os}: {steps}; not needed: {skipped} (shown below)").format(
            steps=len(keep), os=plan.os_label, skipped=len(skipped))
    else:
        summary = translate("Setup", "Steps that fix what the doctor found on {os}: {steps}; not needed: {skipped} (shown below)").format(
            steps=len(keep), os=plan.os_label, skipped=len(skipped))
    return dataclasses.replace(plan, steps=tuple(keep), skipped=tuple(skipped), mode="repair", summary=summary, notes=notes)


# Windows: the clean reinstall's own steps (DDU and what it needs).
WINDOWS_CLEAN_ONLY = ("download-ddu", "block-driver-updates", "restore-point", "safe-mode", "run-ddu", "restore-update-settings")
WINDOWS_DRIVER = ("download-driver", "install-driver", "verify-driver")


def windows_update_step(options, first_install: bool = False, reinstall: bool = False) -> Step:
    """Update (or, with ``reinstall``, repair) the driver in place with the offline package (no DDU, no Safe Mode)."""
    from services.setup.plan import Check
    from services.setup.windows_plan import DRIVER_PLACEHOLDER

    pkg = getattr(options, "driver_package", "") or DRIVER_PLACEHOLDER
    if first_install:
        title = translate("Setup", "Install the driver with the offline package")
        explanation = translate("Setup", "No NVIDIA driver is installed yet (Windows shows its basic display driver), so nothing has to be cleaned up first: run the offline package, choose 'Express' or 'Custom (Advanced)', and restart when it asks.")
        source = "NVIDIA driver installer (its setup.exe switches are community-documented; NVIDIA publishes no list)"
    elif reinstall:
        title = translate("Setup", "Reinstall the driver with the offline package (clean installation)")
        explanation = translate("Setup", "The installed driver does not answer (its nvml.dll fails), so its files are repaired in place: run the offline package, choose 'Custom (Advanced)' and tick 'Perform a clean installation', which replaces every file of the driver and resets its settings. Restart when it asks. If the doctor still finds no answer afterwards, tick 'Reinstall everything' for the clean reinstall with DDU.")
        source = "NVIDIA driver installer: 'Perform a clean installation' (setup.exe -clean, community-documented)"
    else:
        title = translate("Setup", "Update the driver in place with the offline package")
        explanation = translate("Setup", "Run the offline package over the installed driver: it replaces it in place, with no clean-up and no Safe Mode. For a clean installation choose 'Custom (Advanced)' and tick 'Perform a clean installation' (it resets the driver's settings, a lighter clean-up than DDU). Restart when it asks.")
        source = "NVIDIA driver installer: 'Perform a clean installation' (setup.exe -clean, community-documented)"
    return Step(id="install-driver", title=title, explanation=explanation, commands=((pkg,),), needs_root=True,
                check=Check("command_ok", argv=("nvidia-smi",)), source=source)


def _repair_windows(plan: Plan, report: DoctorReport, needs: RepairNeeds, options) -> Plan:
    f = report.facts
    driver = f.driver_version or "?"
    mode = needs.windows_mode
    if mode == "clean":
        note = translate("Setup", "The doctor found a broken or mixed driver install ({reason}), so this is the clean reinstall with DDU.").format(
            reason=needs.driver or translate("Setup", "no working NVIDIA driver was found"))
        return dataclasses.replace(plan, mode="repair", notes=(note, *plan.notes))
    keep: list[Step] = []
    skipped: list[SkippedStep] = []
    for step in plan.steps:
        sid = step.id
        if sid in PYTORCH_STEPS:
            _keep_pytorch_step(step, needs, f, keep, skipped)
        elif sid in WINDOWS_CLEAN_ONLY:
            skipped.append(_skip(step, translate("Setup", "the clean reinstall with DDU is for a broken or mixed driver install; choose 'Reinstall everything' to do it anyway")))
        elif mode in ("update", "install", "reinstall"):
            keep.append(windows_update_step(options, first_install=mode == "install", reinstall=mode == "reinstall")
                        if sid == "install-driver" else step)
        else:
            skipped.append(_skip(step, translate("Setup", "driver {driver} works and is new enough for this card and the PyTorch build").format(driver=driver)))
    # The driver update goes before anything else: PyTorch's build depends on it.
    order = {sid: i for i, sid in enumerate(WINDOWS_DRIVER)}
    keep.sort(key=lambda s: order.get(s.id, len(order)))
    return _repaired(plan, keep, skipped, needs)
