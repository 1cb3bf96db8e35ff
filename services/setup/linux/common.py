"""Steps every Linux plan shares, the driver a plan ends with, and how a plan is finished.

Sources for the commands are on each step (``source``); the facts behind the
choices (open vs proprietary modules by generation, minimum drivers) come
from the rules file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from services.i18n import Msg, translate
from services.setup.plan import Check, FileChange, Plan, PlanOutcome, Step, staged_path
from services.setup.os_release import OsInfo
from services.setup.rules import Generation, Rules
from services.setup.system import SystemRoot

# What nvidia-installer itself writes (NVIDIA/nvidia-installer misc.c).
NOUVEAU_BLACKLIST = "# Written by GPU Assistant: keep nouveau off the NVIDIA card\nblacklist nouveau\noptions nouveau modeset=0\n"
NOUVEAU_FILE = "/etc/modprobe.d/blacklist-nouveau.conf"
MODPROBE_DIRS = ("/etc/modprobe.d", "/usr/lib/modprobe.d", "/lib/modprobe.d")
SRC_NOUVEAU = "NVIDIA/nvidia-installer misc.c + initramfs.c; NVIDIA CUDA Installation Guide for Linux, 'Disabling Nouveau'"
SRC_MOK = "dell/dkms README; https://rpmfusion.org/Howto/Secure%20Boot; mokutil(1)"
# NVIDIA's own package repositories (Debian, RHEL) and the guide that documents them.
NVIDIA_REPO_URL = "https://developer.download.nvidia.com/compute/cuda/repos"
NVIDIA_DRIVER_GUIDE = "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/index.html"
MOK_CERTS = {
    "ubuntu": "/var/lib/shim-signed/mok/MOK.der",
    "debian": "/var/lib/dkms/mok.pub",
    "fedora": "/etc/pki/akmods/certs/public_key.der",
}
INITRAMFS = {
    "ubuntu": ("update-initramfs", "-u"),
    "debian": ("update-initramfs", "-u"),
    "fedora": ("dracut", "--force"),
    "rhel": ("dracut", "--force"),
    "suse": ("dracut", "--force"),
    "arch": ("mkinitcpio", "-P"),
}


@dataclass(frozen=True, slots=True)
class PlanInputs:
    """Everything a plan depends on besides the OS."""

    root: SystemRoot
    staging_dir: PurePath  # the target's folder: a PurePosixPath in a plan for another Linux machine
    generation: Generation | None
    sm: str | None
    gpu_label: str
    secure_boot: str = "unknown"  # enabled | disabled | not_uefi | unknown
    kernel: str = ""
    driver_version: str | None = None  # working driver now, if any
    python: str | None = None  # the user's environment for the PyTorch step
    torch_version: str | None = None  # what is installed there now (for undo)
    # False when planning for another machine (--os-release): do not read this one's files.
    probe_files: bool = True
    # PEP 668: does the interpreter the PyTorch step would use (``python``, else python3)
    # carry EXTERNALLY-MANAGED? None = not asked
    # (another machine, or it did not answer); then the plan uses a venv, which works either way.
    externally_managed: bool | None = None
    venv_dir: str = ""  # where the PyTorch venv goes when one is needed (~/.venvs/torch)
    # `ubuntu-drivers list` on this machine: package names, and the branch it recommends.
    ubuntu_driver_packages: tuple[str, ...] = ()
    ubuntu_recommended: str = ""


def plan_key(os_label: str, gpu_label: str) -> str:
    return re.sub(r"[^A-Za-z0-9._:-]+", "-", f"{os_label}-{gpu_label}").strip("-").lower()


# ---- shared steps ------------------------------------------------------------------
def nouveau_step(family: str, inputs: PlanInputs, initramfs: tuple[str, ...] | None) -> Step:
    staged = staged_path(inputs.staging_dir, "blacklist-nouveau", NOUVEAU_FILE)
    target = str(inputs.root(NOUVEAU_FILE))
    commands: list[tuple[str, ...]] = [("install", "-D", "-m", "0644", staged, target)]
    if initramfs:
        commands.append(initramfs)
    return Step(
        id="blacklist-nouveau",
        title=translate("Setup", "Keep the nouveau driver off the card"),
        explanation=translate("Setup", "nouveau, the open-source driver, grabs the card before NVIDIA's module can. This writes the same blacklist file NVIDIA's installer writes and rebuilds the initramfs so it takes effect at boot. Many driver packages already do this; then the step shows as done."),
        commands=tuple(commands),
        needs_root=True,
        check=Check("any_file_contains", MODPROBE_DIRS, "blacklist nouveau"),
        undo=(initramfs,) if initramfs else (),
        files=(FileChange(NOUVEAU_FILE, NOUVEAU_BLACKLIST, staged),),
        source=SRC_NOUVEAU,
    )


def mok_step(family: str, inputs: PlanInputs) -> Step | None:
    """Secure Boot: enrol the key the module is signed with (skipped when SB is off)."""
    if inputs.secure_boot in ("disabled", "not_uefi"):
        return None
    cert = MOK_CERTS.get(family)
    if cert is None:
        return Step(
            id="enroll-mok",
            title=translate("Setup", "Secure Boot: sign the module"),
            explanation=translate("Setup", "Secure Boot is on (or could not be read). This distribution has no standard signing key for NVIDIA's module: either turn Secure Boot off in the firmware settings, or sign the module with your own key (see your distribution's wiki on Secure Boot)."),
            manual=True,
            check=Check("secure_boot_key"),
            source=SRC_MOK,
        )
    commands: list[tuple[str, ...]] = []
    if family == "fedora":
        commands += [("dnf", "install", "-y", "kmodtool", "akmods", "mokutil", "openssl"), ("kmodgenca", "-a")]
    commands.append(("mokutil", "--import", cert))
    return Step(
        id="enroll-mok",
        title=translate("Setup", "Secure Boot: enrol the module signing key"),
        explanation=translate("Setup", "With Secure Boot on, the kernel only loads modules signed by a key it trusts. mokutil asks you to make up a one-time password. At the next boot a blue 'MOK management' screen appears: choose 'Enroll MOK', 'Continue', 'Yes', type that password, then reboot. If you miss the screen, run this step again."),
        commands=tuple(commands),
        needs_root=True,
        needs_reboot=True,
        check=Check("secure_boot_key", (cert,), argv=("mokutil", "--test-key", cert), expect="already enrolled"),
        undo=(("mokutil", "--delete", cert),),
        source=SRC_MOK,
    )


def reboot_step() -> Step:
    return Step(
        id="reboot",
        title=translate("Setup", "Reboot"),
        explanation=translate("Setup", "The new kernel module loads at boot. Save your work first. After the reboot, open GPU Assistant again: the wizard continues where it stopped."),
        commands=(("systemctl", "reboot"),),
        needs_reboot=True,
        check=Check("driver_loaded"),
        source="canonical/ubuntu-server-documentation PR #369 (loaded vs installed module)",
    )


def verify_driver_step() -> Step:
    return Step(
        id="verify-driver",
        title=translate("Setup", "Check that the driver works"),
        explanation=translate("Setup", "nvidia-smi talks to the driver through NVML. Exit code 0 means the driver is loaded and answers; its header shows the highest CUDA version this driver can run."),
        commands=(("nvidia-smi",),),
        check=Check("command_ok", argv=("nvidia-smi",)),
        source="https://docs.nvidia.com/deploy/nvidia-smi/index.html (RETURN VALUE)",
    )


SRC_PEP668 = "PEP 668 (EXTERNALLY-MANAGED in sysconfig's stdlib directory); https://docs.python.org/3/library/venv.html"


def needs_venv(inputs: PlanInputs, os_name: str) -> bool:
    """On Linux: the interpreter refuses pip (PEP 668), or none was picked and we could not ask."""
    if os_name == "windows" or not inputs.venv_dir:
        return False
    if inputs.python:  # the person's choice stands, unless pip cannot install into it
        return inputs.externally_managed is True
    return inputs.externally_managed is not False


def venv_steps(family: str, inputs: PlanInputs) -> list[Step]:
    """A virtual environment for PyTorch, because pip may not install into the system Python."""
    venv = inputs.venv_dir
    steps: list[Step] = []
    if family in ("ubuntu", "debian"):
        # Debian and Ubuntu split venv support out of python3 (ensurepip is missing without it).
        steps.append(Step(
            id="install-venv-support",
            title=translate("Setup", "Install Python's venv support"),
            explanation=translate("Setup", "Debian and Ubuntu ship 'python3 -m venv' in a separate package, python3-venv. Without it the next step fails with 'ensurepip is not available'."),
            commands=(("apt-get", "install", "-y", "python3-venv"),),
            needs_root=True,
            check=Check("command_output", argv=("dpkg-query", "-W", "-f=${Status}", "python3-venv"), expect="install ok installed"),
            undo=(("apt-get", "remove", "-y", "python3-venv"),),
            source="https://docs.python.org/3/library/venv.html; Debian package python3-venv",
        ))
    if inputs.externally_managed:
        why = translate("Setup", "The system Python is marked EXTERNALLY-MANAGED (PEP 668), so 'pip install' into it fails with 'externally-managed-environment'. PyTorch goes into its own virtual environment in {path} instead; use {python} (or 'source {path}/bin/activate') to train with it.")
    else:
        why = translate("Setup", "No Python environment was picked, and installing into the system Python is refused on many distributions (PEP 668: 'externally-managed-environment'). PyTorch goes into its own virtual environment in {path}; use {python} (or 'source {path}/bin/activate') to train with it.")
    steps.append(Step(
        id="create-venv",
        title=translate("Setup", "Create a Python virtual environment for PyTorch"),
        explanation=why.format(path=venv, python=f"{venv}/bin/python"),
        commands=((inputs.python or "python3", "-m", "venv", venv),),
        check=Check("file_exists", (f"{venv}/bin/python",)),
        owned_dir=venv,
        source=SRC_PEP668,
    ))
    return steps


def pytorch_choice(inputs: PlanInputs, rules: Rules, os_name: str, target: DriverTarget | None = None):
    """The PyTorch build for the driver the plan ends with (target), else for the
    driver working now, else the newest build for the card."""
    if target is not None and target.version:
        return rules.pytorch_for_driver(inputs.sm, target.version, os_name)
    choice = rules.recommend_variant(inputs.sm, inputs.driver_version, os_name)
    if inputs.driver_version and (choice is None or not choice.driver_ok):
        # The working driver stays (the repair plan keeps it): a build it runs through
        # minor-version compatibility beats one that needs a newer driver.
        return rules.pytorch_for_driver(inputs.sm, inputs.driver_version, os_name) or choice
    return choice


def pytorch_steps(inputs: PlanInputs, rules: Rules, os_name: str, target: DriverTarget | None = None) -> tuple[Step, Step]:
    if needs_venv(inputs, os_name):
        python = f"{inputs.venv_dir}/bin/python"
    else:
        python = inputs.python or ("python" if os_name == "windows" else "python3")
    choice = pytorch_choice(inputs, rules, os_name, target)
    variant = choice.variant.variant if choice else "cu126"
    url = choice.index_url if choice else rules.index_url(variant)
    need = choice.needs_driver if choice else None
    commands: list[tuple[str, ...]] = []
    if inputs.torch_version:
        commands.append((python, "-m", "pip", "uninstall", "-y", "torch"))
    commands.append((python, "-m", "pip", "install", "--upgrade", "torch", "--index-url", url))
    if inputs.torch_version:
        old = inputs.torch_version
        old_variant = old.split("+", 1)[1] if "+" in old else None
        pin = old.split("+", 1)[0]
        undo_cmd: tuple[str, ...] = (python, "-m", "pip", "install", "--force-reinstall", f"torch=={pin}")
        if old_variant:
            undo_cmd += ("--index-url", rules.index_url(old_variant))
        undo: tuple[tuple[str, ...], ...] = (undo_cmd,)
    else:
        undo = ((python, "-m", "pip", "uninstall", "-y", "torch"),)
    if target is not None and target.version and choice is not None:
        explanation = translate("Setup", "Installs PyTorch's {variant} build into {python}, chosen for the driver this plan installs ({driver} or newer). It brings its own CUDA and cuDNN libraries; only the driver is needed system-wide. Add torchvision/torchaudio to the command if you use them, so their builds match.").format(
            variant=variant, python=python, driver=target.version)
        if choice.compat == "minor_compat":
            explanation = translate("Setup", "{explanation} That driver is older than the one CUDA {cuda} shipped with ({need}); PyTorch still runs on it through CUDA minor-version compatibility (any driver from {floor} on), though a few newer CUDA features may be missing.").format(
                explanation=explanation, cuda=choice.variant.cuda, need=need or "-", floor=choice.floor_driver or "-")
    elif inputs.driver_version:
        explanation = translate("Setup", "Installs PyTorch's {variant} build into {python}. It brings its own CUDA and cuDNN libraries; only the driver is needed system-wide. It needs driver {need} or newer (you have {driver}). Add torchvision/torchaudio to the command if you use them, so their builds match.").format(
            variant=variant, python=python, need=need or "-", driver=inputs.driver_version)
    else:
        explanation = translate("Setup", "Installs PyTorch's {variant} build into {python}. It brings its own CUDA and cuDNN libraries; only the driver is needed system-wide. It needs driver {need} or newer: after the reboot the wizard re-reads the driver and picks an older build if yours needs one.").format(
            variant=variant, python=python, need=need or "-")
    if choice and choice.most_compatible:
        explanation = translate("Setup", "{explanation} The card's generation is not known, so this is the build that covers the most GPU generations (Maxwell to Hopper), not the newest one. For an RTX 50 (Blackwell) card use cu128 or newer instead.").format(explanation=explanation)
    install = Step(
        id="install-pytorch",
        title=translate("Setup", "Install PyTorch for this card ({variant})").format(variant=variant),
        explanation=explanation,
        commands=tuple(commands),
        check=Check("torch_ok", argv=(python,)),
        undo=undo,
        source="https://pytorch.org/get-started/locally/; RFC pytorch/pytorch#145544, #172663",
    )
    verify = Step(
        id="verify-pytorch",
        title=translate("Setup", "Check PyTorch on the GPU"),
        explanation=translate("Setup", "Runs a small matrix multiply on the GPU in your environment and checks that this card's architecture is in PyTorch's build."),
        commands=((python, "-c", 'import torch; x = torch.ones(256, 256, device="cuda"); print(torch.__version__, torch.cuda.get_device_name(0), (x @ x)[0, 0].item())'),),
        check=Check("torch_ok", argv=(python,)),
        source="torch.cuda.get_arch_list and torch.utils.collect_env (pytorch/pytorch)",
    )
    return install, verify


def module_note(gen: Generation | None) -> Msg | None:
    if gen is None:
        return translate("Setup", "The card's generation could not be worked out from its PCI id, so the plan does not pick between the open modules (Turing and newer only) and the proprietary one: the driver step tells you how to choose, and the PyTorch build is the one that runs on the most GPU generations.")
    if gen.open_only:
        return translate("Setup", "{generation} cards work only with NVIDIA's open kernel modules.").format(generation=gen.name)
    if gen.proprietary_only:
        return translate("Setup", "{generation} cards work only with NVIDIA's proprietary kernel module; driver branch {branch} is the last one that supports them.").format(generation=gen.name, branch=gen.last_branch or "580")
    return translate("Setup", "{generation} cards work with both module types; the open modules are NVIDIA's default since driver 560.").format(generation=gen.name)


def apt_update_step() -> Step:
    return Step(
        id="update-package-lists",
        title=translate("Setup", "Refresh the package lists"),
        explanation=translate("Setup", "Downloads the current package lists so the newest driver packages are seen."),
        commands=(("apt-get", "update"),),
        needs_root=True,
        source="apt-get(8)",
    )


# ---- what the plan ends with ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DriverTarget:
    """The driver a plan leaves on the machine: its branch, the lowest version that
    branch can be, the module type and where it comes from."""

    branch: str | None
    version: str | None
    module: str | None  # open | proprietary | None (the package decides)
    package: str
    origin: str  # ubuntu | debian | nvidia-repo | rpmfusion | arch | aur | opensuse | manual


# A plan that ends in a manual driver step asks for this branch: the last one with
# Maxwell, Pascal and Volta, new enough for Blackwell and for PyTorch's cu130 build.
MANUAL_BRANCH = "580"
# NVIDIA made the open kernel modules the default (and fully supported on GeForce) in R560.
OPEN_DEFAULT_BRANCH = 560


def manual_target(rules: Rules, gen: Generation | None = None) -> DriverTarget:
    return DriverTarget(MANUAL_BRANCH, rules.branch_min_version.get(MANUAL_BRANCH, "580.65.06"), module_for(gen), "", "manual")


def source_target(rules: Rules, source_id: str, module: str | None, package: str, origin: str) -> DriverTarget:
    row = rules.driver_sources.get(source_id, {})
    return DriverTarget(row.get("branch"), row.get("driver"), module, package, origin)


def module_for(gen: Generation | None) -> str | None:
    if gen is None:
        return None
    return "open" if "open" in gen.kernel_modules else "proprietary"



INITRAMFS_BY_TOOL = {"dracut": ("dracut", "--force"), "update-initramfs": ("update-initramfs", "-u"), "mkinitcpio": ("mkinitcpio", "-P")}

def generic_steps_plan(os: OsInfo | None, inputs: PlanInputs, rules: Rules, notes: list[Msg], tool: tuple[str, ...] | None,
             pkg_tool: str = "") -> Plan:
    notes = list(notes)
    if tool:
        notes.append(translate("Setup", "The initramfs is rebuilt with '{tool}', the tool this distribution family uses.").format(tool=" ".join(tool)))
    else:
        notes.append(translate("Setup", "GPU Assistant cannot tell which tool rebuilds this system's initramfs; the nouveau step only writes the blacklist file. Rebuild the initramfs with your distribution's tool before rebooting."))
    explanation = translate("Setup", "Use your distribution's own NVIDIA packages (its package manager or driver tool); mixing them with NVIDIA's .run installer is the most common cause of breakage. Install driver branch {branch} or newer: the open kernel modules for Turing and newer cards, the proprietary module (branch {branch}, the last with them) for Maxwell, Pascal and Volta.").format(branch=MANUAL_BRANCH)
    if pkg_tool:
        explanation = translate("Setup", "{explanation} This system installs packages with {tool}.").format(explanation=explanation, tool=pkg_tool)
    steps = [Step(
        id="install-driver",
        title=translate("Setup", "Install your distribution's NVIDIA driver package"),
        explanation=explanation,
        manual=True,
        check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
        link="https://www.nvidia.com/Download/index.aspx",
        source="NVIDIA/nvidia-installer option_table.h (the .run installer's flags); NVIDIA/open-gpu-kernel-modules README",
    ), nouveau_step("generic", inputs, tool)]
    return finish_plan(os, inputs, rules, "generic", steps, notes, supported=False, target=manual_target(rules, inputs.generation))


def finish_plan(os: OsInfo | None, inputs: PlanInputs, rules: Rules, family: str, steps: list[Step],
            notes: list[Msg], supported: bool = True, mok_done: bool = False, target: DriverTarget | None = None) -> Plan:
    if not mok_done:
        mok = mok_step(family, inputs)
        if mok:
            steps.append(mok)
    if needs_venv(inputs, "linux"):
        steps += venv_steps(family, inputs)
    install, verify = pytorch_steps(inputs, rules, "linux", target)
    steps += [reboot_step(), verify_driver_step(), install, verify]
    module = module_note(inputs.generation)
    all_notes = [n for n in (module, *notes) if n is not None]
    label = os.pretty_name if os else "Linux"
    if supported:
        summary = translate("Setup", "{steps} steps for {gpu} on {os}").format(steps=len(steps), gpu=inputs.gpu_label, os=label)
    else:
        summary = translate("Setup", "{os} is not a distribution GPU Assistant has tested steps for. These are the generic steps; follow your distribution's documentation for the driver package.").format(os=label)
    outcome = plan_outcome(inputs, rules, target)
    if target is not None and outcome.pytorch_build is None:
        all_notes.append(translate("Setup", "No current PyTorch build runs on driver {driver} with this card; install a newer driver before the PyTorch step.").format(driver=target.version or "-"))
    return Plan(plan_key(label, inputs.gpu_label), "linux", label, supported, summary, tuple(all_notes), tuple(steps), outcome)


def plan_outcome(inputs: PlanInputs, rules: Rules, target: DriverTarget | None) -> PlanOutcome:
    choice = pytorch_choice(inputs, rules, "linux", target)
    gen = inputs.generation
    version = target.version if target else inputs.driver_version
    release = rules.newest_release(choice.variant.variant) if choice else None
    runs = None
    if choice and version:
        runs = rules.driver_ok_for_cuda(version, choice.variant.cuda, "linux")
    return PlanOutcome(
        driver_branch=target.branch if target else None,
        driver_version=version,
        driver_module=target.module if target else None,
        driver_package=target.package if target else "",
        driver_from=target.origin if target else "installed",
        driver_supports_card=gen.driver_supports(version) if gen and version else None,
        pytorch_build=choice.variant.variant if choice else None,
        pytorch_cuda=choice.variant.cuda if choice else None,
        pytorch_index_url=choice.index_url if choice else None,
        pytorch_needs_driver=choice.needs_driver if choice else None,
        pytorch_runs=runs,
        pytorch_release=".".join(map(str, release)) if release else None,
    )


def outcome_summary(outcome: PlanOutcome) -> Msg:
    """One line: the driver the plan ends with and the PyTorch build chosen for it."""
    driver = outcome.driver_version or outcome.driver_branch or "-"
    if outcome.driver_from == "manual":
        driver_text = translate("Setup", "driver {driver} or newer, installed by hand").format(driver=driver)
    else:
        driver_text = translate("Setup", "driver {driver} or newer ({package})").format(driver=driver, package=outcome.driver_package or outcome.driver_from)
    if outcome.pytorch_build:
        return translate("Setup", "Ends with {driver} and PyTorch {release} {build}, which that driver runs.").format(
            driver=driver_text, release=outcome.pytorch_release or "", build=outcome.pytorch_build)
    return translate("Setup", "Ends with {driver}; no current PyTorch build runs on it.").format(driver=driver_text)


def manual_driver_step(explanation: Msg, source: str) -> Step:
    """The driver step a person does by hand (no package of this release fits the card)."""
    return Step(
        id="install-driver",
        title=translate("Setup", "Install a driver that runs this card"),
        explanation=explanation,
        manual=True,
        check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
        link=NVIDIA_DRIVER_GUIDE,
        source=source,
    )
