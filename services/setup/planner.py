"""Pick the plan for a machine (or for a given os-release file and PCI id).

On the machine itself the doctor's findings decide which steps the plan keeps
(``repair_plan``): a working driver that is new enough leaves only the PyTorch
steps; each step left out is listed with the reason. ``full=True`` keeps every
step ("reinstall everything"; on Windows the DDU clean reinstall).
"""
from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path, PurePath, PurePosixPath

from services.i18n import Msg, TranslatableError, translate
from services.paths import AppPaths
from services.setup.doctor_report import DoctorReport
from services.setup.linux_plans import PlanInputs, build_linux_plan, plan_outcome, pytorch_steps
from services.setup.os_release import OsInfo
from services.setup.pci_ids import lookup_device_name
from services.setup.plan import Plan, SkippedStep, Step
from services.setup.python_env import default_venv_dir
from services.setup.rules import Rules
from services.setup.system import SystemRoot

PCI_ID = re.compile(r"^(?:10de:)?([0-9a-fA-F]{4})$")


def setup_dir(paths: AppPaths) -> Path:
    return paths.data_dir / "setup"


class PciIdError(TranslatableError, ValueError):
    """Not a PCI id (or a card name the rules know). ``str(exc)`` is English; ``message`` the same
    sentence, translatable."""



def parse_pci_id(text: str) -> str:
    """'10de:2684' or '2684' -> '2684'; ``PciIdError`` (a ValueError) otherwise."""
    m = PCI_ID.match(text.strip())
    if not m:
        raise PciIdError(translate("Setup", "not an NVIDIA PCI id: {text} (expected something like 10de:2684)").format(
            text=repr(text)))
    return m.group(1).lower()


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



# ---- plan only what is broken ----------------------------------------------------------------
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


# ---- planning for another machine ------------------------------------------------------------------
OS_RELEASE_DIR = "os-release"


@dataclasses.dataclass(frozen=True, slots=True)
class TargetSystem:
    """A system the wizard can plan for without sitting at it (Windows or a known os-release)."""

    key: str  # 'windows' or the os-release file's name
    label: str
    os: OsInfo


def known_systems() -> list[TargetSystem]:
    """Windows and every distribution whose os-release file ships in resources/data/os-release."""
    from services.paths import resource_path
    from services.setup.os_release import parse_os_release

    out = [TargetSystem("windows", "Windows 10 / 11", OsInfo(system="windows", id="windows", pretty_name="Windows"))]
    folder = resource_path("data", OS_RELEASE_DIR)
    try:
        files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.endswith(".md"))
    except OSError:
        files = []
    for path in files:
        try:
            info = parse_os_release(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if info.id:
            out.append(TargetSystem(path.name, info.pretty_name or path.name, info))
    return out


def resolve_card(rules: Rules, text: str) -> tuple[str, str]:
    """A card name or model number ('RTX 4090', '4090', 'h200') or an explicit PCI id
    ('10de:2684') -> (device id, name). A bare 4-digit text is a model number first: '4090'
    is the RTX 4090, not PCI id 10de:4090; it is read as a PCI id only when no card has that
    number in its name. ValueError with a sentence when it is neither."""
    text = (text or "").strip()
    if text.lower().startswith("10de:"):
        device_id = parse_pci_id(text)
        hit = next((g for g in rules.gpu_ids if g.device_id == device_id), None)
        return device_id, hit.name if hit else ""
    wanted = _normal_name(text)
    for g in rules.gpu_ids:
        if wanted and wanted in (_normal_name(g.name), _normal_name(f"{g.name} (10de:{g.device_id})")):
            return g.device_id, g.name
    found = search_cards(rules, text)
    if found:
        return found[0]
    try:
        typed_id: str | None = parse_pci_id(text)
    except ValueError:
        typed_id = None
    if typed_id:
        hit = next((g for g in rules.gpu_ids if g.device_id == typed_id), None)
        return typed_id, hit.name if hit else ""
    raise PciIdError(translate("Setup", "not a card GPU Assistant knows or a PCI id (like 10de:2684): {text}").format(
        text=repr(text)))


def card_names(rules: Rules) -> list[tuple[str, str]]:
    """(name, device id) once per card name, for a picker searched by name: the rules' id table has
    several ids for many cards (and test entries such as 'GTX 960 FAKE'), which are not for people."""
    out: dict[str, str] = {}
    for g in rules.gpu_ids:
        if "fake" in g.name.lower():
            continue
        out.setdefault(g.name, g.device_id)
    return list(out.items())


def search_cards(rules: Rules, text: str) -> list[tuple[str, str]]:
    """(device id, name) of the cards whose name holds every word of ``text`` ('4090', 'rtx 3060'),
    the plainest name first (the desktop card before 'Laptop GPU', 'Ti' or 'D' variants)."""
    words = _normal_name(text).split()
    if not words:
        return []
    pats = [re.compile(r"(?<![0-9a-z])" + re.escape(w) + r"(?![0-9a-z])") for w in words]
    hits = [(g.device_id, g.name) for g in rules.gpu_ids
            if "fake" not in g.name.lower() and all(p.search(_normal_name(g.name)) for p in pats)]
    unique = list({name: (device_id, name) for device_id, name in reversed(hits)}.values())[::-1]  # first of each name
    return sorted(unique, key=lambda h: ("laptop" in h[1].lower(), len(h[1])))


# Where a plan for another Linux machine stages its files and puts the PyTorch venv: the app's own
# folders on that machine (platformdirs' Linux user_data_dir, and default_venv_dir()), from the
# target user's home: this host's folders (C:\Users\... on Windows, or another user's home) mean
# nothing there.
LINUX_TARGET_STAGING = PurePosixPath("~/.local/share/gpu-assistant/setup/staged")
LINUX_TARGET_VENV = "~/.venvs/torch"


def target_paths(os_info: OsInfo | None, staging_dir: PurePath) -> tuple[SystemRoot, PurePath, str | None]:
    """The root, staging folder and venv folder (None: the default) of a plan for another machine.

    A Linux target gets its own POSIX paths (/etc/modprobe.d/..., never \\etc\\... when made on
    Windows) and its own staging and venv folders, never this host's.
    """
    if os_info is not None and os_info.system == "windows":
        return SystemRoot(), staging_dir, None
    # Only str()'d into commands (probe_files is off for another machine), so a pure path will do.
    root = SystemRoot(PurePosixPath("/")) if os.name == "nt" else SystemRoot()  # type: ignore[arg-type]
    return root, LINUX_TARGET_STAGING, LINUX_TARGET_VENV


def plan_for_target(rules: Rules, target: TargetSystem, device_id: str, name: str, staging_dir: Path,
                    root: SystemRoot | None = None, windows_options=None) -> Plan:
    """The full plan for another machine, as 'setup --plan --os-release F --gpu ID' makes it
    (nothing of this machine is read; its paths are the target's)."""
    target_root, staging, venv_dir = target_paths(target.os, staging_dir)
    inputs = inputs_for(rules, root or target_root, staging, device_id, name=name, probe_files=False,
                        venv_dir=venv_dir)
    return plan_for_os(target.os, inputs, rules, windows_options)


def _normal_name(name: str) -> str:
    return re.sub(r"\s+", " ", name.lower().replace("nvidia", "").replace("geforce", "")).strip()
