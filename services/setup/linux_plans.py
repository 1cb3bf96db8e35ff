"""Linux install plans: Ubuntu (and Mint, Pop!_OS), Debian, Fedora, Arch, and
the generic steps for anything else.

Sources for the per-distro commands are on each step (``source``); the facts
behind the choices (open vs proprietary modules by generation, minimum
drivers) come from the rules file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from services.i18n import Msg, translate
from services.setup.plan import Check, FileChange, Plan, PlanOutcome, Step, staged_path
from services.setup.probes import UBUNTU_DRIVER_PACKAGE, OsInfo
from services.setup.rules import Generation, Rules
from services.setup.system import SystemRoot

# What nvidia-installer itself writes (NVIDIA/nvidia-installer misc.c).
NOUVEAU_BLACKLIST = "# Written by GPU Assistant: keep nouveau off the NVIDIA card\nblacklist nouveau\noptions nouveau modeset=0\n"
NOUVEAU_FILE = "/etc/modprobe.d/blacklist-nouveau.conf"
MODPROBE_DIRS = ("/etc/modprobe.d", "/usr/lib/modprobe.d", "/lib/modprobe.d")
SRC_NOUVEAU = "NVIDIA/nvidia-installer misc.c + initramfs.c; NVIDIA CUDA Installation Guide for Linux, 'Disabling Nouveau'"
SRC_MOK = "dell/dkms README; https://rpmfusion.org/Howto/Secure%20Boot; mokutil(1)"
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
    staging_dir: Path
    generation: Generation | None
    sm: str | None
    gpu_label: str
    secure_boot: str = "unknown"  # enabled | disabled | not_uefi | unknown
    kernel: str = ""
    driver_version: str | None = None  # working driver now, if any
    python: str | None = None  # the user's environment for the PyTorch step
    torch_version: str | None = None  # what is installed there now (for undo)
    torch_cuda: str | None = None
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
    return rules.recommend_variant(inputs.sm, inputs.driver_version, os_name)


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
        undo_cmd = (python, "-m", "pip", "install", "--force-reinstall", f"torch=={pin}")
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
        source="torch.utils.collect_env (pytorch/pytorch); research notes A5",
    )
    return install, verify


def _module_note(gen: Generation | None) -> Msg | None:
    if gen is None:
        return translate("Setup", "The card's generation could not be worked out from its PCI id, so the plan does not pick between the open modules (Turing and newer only) and the proprietary one: the driver step tells you how to choose, and the PyTorch build is the one that runs on the most GPU generations.")
    if gen.open_only:
        return translate("Setup", "{generation} cards work only with NVIDIA's open kernel modules.").format(generation=gen.name)
    if gen.proprietary_only:
        return translate("Setup", "{generation} cards work only with NVIDIA's proprietary kernel module; driver branch {branch} is the last one that supports them.").format(generation=gen.name, branch=gen.last_branch or "580")
    return translate("Setup", "{generation} cards work with both module types; the open modules are NVIDIA's default since driver 560.").format(generation=gen.name)


def _apt_update() -> Step:
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


# ---- Ubuntu family ------------------------------------------------------------------
def ubuntu_listed_branches(inputs: PlanInputs, module: str) -> list[str]:
    """Desktop (not -server) branches that `ubuntu-drivers list` offers here in that module type."""
    out = []
    for pkg in inputs.ubuntu_driver_packages:
        m = UBUNTU_DRIVER_PACKAGE.match(pkg)
        if m and not m.group(2) and bool(m.group(3)) == (module == "open"):
            out.append(m.group(1))
    return out


def ubuntu_open_branch(inputs: PlanInputs) -> str | None:
    """The newest desktop -open branch `ubuntu-drivers list` offers (kept for callers)."""
    branches = ubuntu_listed_branches(inputs, "open")
    return max(branches, key=int) if branches else None


def ubuntu_branch(os: OsInfo, inputs: PlanInputs, rules: Rules, gen: Generation) -> tuple[str | None, str]:
    """(branch, where the list came from): the newest branch in this release's archive
    that runs the card. Newest, so the PyTorch build can be the newest too; the rules'
    per-release list when `ubuntu-drivers list` was not read (another machine)."""
    module = module_for(gen) or "open"
    listed = ubuntu_listed_branches(inputs, module)
    if listed:
        pool, origin = listed, "list"
    elif os.base_codename in rules.ubuntu_branches:
        pool, origin = list(rules.ubuntu_branches[os.base_codename]), "rules"
    else:
        # A release the rules do not list (newer than them): Ubuntu publishes the same
        # production branches to every supported release, so take the newest known ones.
        pool = sorted({b for bs in rules.ubuntu_branches.values() for b in bs}, key=int)
        origin = "assumed"
    fits = [b for b in pool if gen.driver_supports(rules.branch_min_version.get(b, b))]
    return (max(fits, key=int) if fits else None), origin


def ubuntu_plan(os: OsInfo, inputs: PlanInputs, rules: Rules) -> Plan:
    gen = inputs.generation
    notes: list[Msg] = []
    src = ("canonical/ubuntu-drivers-common README, ubuntu-drivers (install [driver[:version]]); UbuntuDrivers/detect.py "
           "_process_driver_string ('nvidia:580-open') and _pkg_get_open_preference (a package without a Prefer-Variant "
           "header is not open-preferred), @d3d7856; NVIDIA/open-gpu-kernel-modules#872 (RTX 50 offered "
           "nvidia-driver-570 as 'recommended', the working one is -open)")
    branch, origin = ubuntu_branch(os, inputs, rules, gen) if gen else (None, "")
    if gen and branch:
        module = module_for(gen)
        if module == "open" and not gen.open_only and int(branch) < OPEN_DEFAULT_BRANCH:
            # Before R560 the open modules were not the supported default on GeForce cards.
            module = "proprietary"
        suffix = "-open" if module == "open" else ""
        # Always name the branch and variant: a bare 'ubuntu-drivers install' takes the
        # package marked recommended, which on RTX 50 is the closed module that cannot
        # drive the card (packages without a Prefer-Variant header count as closed-preferred).
        # 'nvidia:580-open' becomes the glob nvidia*580-open (detect.py _process_driver_string).
        install_cmd: tuple[str, ...] = ("ubuntu-drivers", "install", f"nvidia:{branch}{suffix}")
        if module == "open":
            title = translate("Setup", "Install NVIDIA driver {branch} with the open kernel modules").format(branch=branch)
            explanation = translate("Setup", "{generation} cards run on NVIDIA's open kernel modules (NVIDIA's default since driver 560; RTX 50 cards work only with them). This installs nvidia-driver-{branch}-open by name, never the 'recommended' pick, which can be the closed module. Branch {branch} is the newest in this Ubuntu release that runs the card; the first command makes sure the tool is there.").format(generation=gen.name, branch=branch)
        else:
            title = translate("Setup", "Install NVIDIA driver {branch} (proprietary kernel module)").format(branch=branch)
            explanation = translate("Setup", "{generation} cards need NVIDIA's proprietary kernel module, and driver branch {last} is the last that supports them. This installs nvidia-driver-{branch} by name; the first command makes sure the tool is there.").format(generation=gen.name, branch=branch, last=gen.last_branch or "580")
        if origin == "assumed":
            notes.append(translate("Setup", "GPU Assistant has no driver list for this Ubuntu release, so it assumes branch {branch} is in its archive, as it is in every supported Ubuntu LTS release. If 'ubuntu-drivers list' does not show nvidia-driver-{branch}, pick the newest branch it shows.").format(branch=branch))
        # The branch's first release when the rules know it, else the branch itself
        # ('575' compares as 575.0.0: a lower bound all the same).
        target = DriverTarget(branch, rules.branch_min_version.get(branch) or branch, module, f"nvidia-driver-{branch}{suffix}", "ubuntu")
        install = Step(
            id="install-driver",
            title=title,
            explanation=explanation,
            commands=(("apt-get", "install", "-y", "ubuntu-drivers-common"), install_cmd),
            needs_root=True,
            check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
            undo=(("apt-get", "purge", "-y", "--autoremove", f"nvidia-driver-{branch}{suffix}"),),
            source=src + "; branch list: " + ("ubuntu-drivers list on this machine" if origin == "list" else "setup_rules.json ubuntu_driver_branches (Launchpad nvidia-graphics-drivers-NNN)"),
        )
        steps = [_apt_update(), install]
    else:
        target = manual_target(rules, gen)
        if gen:
            notes.append(translate("Setup", "{os} has no NVIDIA driver package new enough for {generation} cards (they need {need} or newer).").format(
                os=os.pretty_name, generation=gen.name, need=gen.min_driver_branch or "-"))
            explanation = translate("Setup", "This Ubuntu release's archive has no driver branch that runs {generation} cards. Upgrade to Ubuntu 22.04 or 24.04 (then this wizard installs nvidia-driver-{branch}-open), or install driver {branch} from NVIDIA's CUDA repository for your release by following NVIDIA's driver installation guide.").format(generation=gen.name, branch=MANUAL_BRANCH)
        else:
            explanation = translate("Setup", "GPU Assistant could not tell this card's generation from its PCI id, so it does not pick between the open and the proprietary module. Run 'ubuntu-drivers list'. GTX 16xx, RTX 20xx and newer (all RTX 50): 'sudo ubuntu-drivers install nvidia:{branch}-open'. GTX 9xx, GTX 10xx and Volta cards: 'sudo ubuntu-drivers install nvidia:{branch}'. Do not run a bare 'ubuntu-drivers install': its 'recommended' pick can be a module the card cannot use.").format(branch=MANUAL_BRANCH)
        steps = [_apt_update(), Step(
            id="install-driver",
            title=translate("Setup", "Install a driver that runs this card"),
            explanation=explanation,
            manual=True,
            check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
            link=NVIDIA_DRIVER_GUIDE,
            source=src,
        )]
    steps.append(nouveau_step("ubuntu", inputs, INITRAMFS["ubuntu"]))
    return _finish(os, inputs, rules, "ubuntu", steps, notes, target=target)


# ---- Debian ------------------------------------------------------------------------
DEBIAN_COMPONENTS = {"bullseye": ("contrib", "non-free")}
DEBIAN_COMPONENTS_DEFAULT = ("contrib", "non-free", "non-free-firmware")


def add_debian_components(text: str, codename: str) -> str:
    """Add contrib/non-free(-firmware) to every Debian repository line (both formats)."""
    wanted = DEBIAN_COMPONENTS.get(codename, DEBIAN_COMPONENTS_DEFAULT)
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("Components:"):
            have = stripped.split(":", 1)[1].split()
            line = "Components: " + " ".join(have + [c for c in wanted if c not in have])
        elif re.match(r"^deb(-src)?\s", stripped) and "debian" in stripped:
            parts = stripped.split()
            line = " ".join(parts + [c for c in wanted if c not in parts[3:]])
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def debian_components_present(text: str, wanted: list[str] | tuple[str, ...]) -> bool:
    """Every Debian repository line already lists every wanted component."""
    seen = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("Components:"):
            have = stripped.split(":", 1)[1].split()
        elif re.match(r"^deb(-src)?\s", stripped) and "debian" in stripped:
            have = stripped.split()[3:]
        else:
            continue
        seen = True
        if any(c not in have for c in wanted):
            return False
    return seen


def debian_sources_file(root: SystemRoot) -> str | None:
    for path in ("/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"):
        text = root.read_text(path)
        if text and ("deb.debian.org" in text or "debian" in text) and text.strip():
            return path
    return None


# NVIDIA's network repository for Debian (NVIDIA Driver Installation Guide, Debian
# section: cuda-keyring, then 'apt install nvidia-open' for the open kernel modules).
NVIDIA_REPO_URL = "https://developer.download.nvidia.com/compute/cuda/repos"
NVIDIA_KEYRING_DEB = "cuda-keyring_1.1-1_all.deb"
NVIDIA_DEBIAN_REPOS = {"12": "debian12", "13": "debian13"}
NVIDIA_DRIVER_GUIDE = "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/index.html"
SRC_NVIDIA_DEBIAN = ("NVIDIA Driver Installation Guide, Debian (" + NVIDIA_DRIVER_GUIDE + "): network repository via "
                     "cuda-keyring_1.1-1_all.deb, 'apt install nvidia-open'; research notes A3.2 (Debian stable too old for RTX 50)")


def debian_plan(os: OsInfo, inputs: PlanInputs, rules: Rules) -> Plan:
    notes: list[Msg] = []
    codename = os.codename or "bookworm"
    wanted = DEBIAN_COMPONENTS.get(codename, DEBIAN_COMPONENTS_DEFAULT)
    sources = debian_sources_file(inputs.root) if inputs.probe_files else None
    steps: list[Step] = []
    if sources:
        current = inputs.root.read_text(sources) or ""
        staged = staged_path(inputs.staging_dir, "enable-non-free", sources)
        steps.append(Step(
            id="enable-non-free",
            title=translate("Setup", "Enable Debian's contrib and non-free components"),
            explanation=translate("Setup", "NVIDIA's driver is in Debian's non-free component. This adds {components} to your Debian repository lines in {path}; the old file is backed up.").format(components=" ".join(wanted), path=sources),
            commands=(("install", "-m", "0644", staged, str(inputs.root(sources))),),
            needs_root=True,
            check=Check("debian_components", (sources,), " ".join(wanted)),
            files=(FileChange(sources, add_debian_components(current, codename), staged),),
            source="https://wiki.debian.org/NvidiaGraphicsDrivers",
        ))
    else:
        steps.append(Step(
            id="enable-non-free",
            title=translate("Setup", "Enable Debian's contrib and non-free components"),
            explanation=translate("Setup", "Add '{components}' to the components of every Debian repository line (in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list). On this machine the wizard edits the file for you and keeps a backup.").format(components=" ".join(wanted)),
            manual=True,
            source="https://wiki.debian.org/NvidiaGraphicsDrivers",
        ))
    headers = f"linux-headers-{inputs.kernel}" if inputs.kernel else "linux-headers-amd64"
    gen = inputs.generation
    packaged = next((n["driver"] for n in rules.distro_driver_notes if n.get("codename") == codename), None)
    # A card with a minimum driver branch on a release whose packaged driver we do not
    # know (no row in the rules file) is treated like one that is too old: no guessing.
    # Every generation has a guard: too old for the card (Debian 11's 470 and Ada), or
    # past a legacy generation's last branch.
    too_new = bool(gen and (packaged is None or gen.driver_supports(packaged) is False))
    # ... and a driver no current PyTorch build runs on (bullseye's 470 is older than
    # CUDA 12's 525.60.13 floor) would leave torch without the GPU: treated the same way.
    torch_too_old = bool(packaged and rules.pytorch_for_driver(inputs.sm, packaged, "linux") is None)
    if torch_too_old and not too_new:
        notes.append(translate("Setup", "Debian {codename} packages driver {packaged}, which no current PyTorch build runs on (CUDA 12 builds need {floor} or newer).").format(
            codename=codename, packaged=packaged, floor=rules.minor_compat_min_driver("12.0", "linux") or "-"))
    too_new = too_new or torch_too_old
    repo = NVIDIA_DEBIAN_REPOS.get(os.version_id.split(".")[0] if os.version_id else "")
    if too_new and repo and gen and "open" in gen.kernel_modules:
        target = source_target(rules, "nvidia-repo", "open", "nvidia-open", "nvidia-repo")
        # Debian's own nvidia-driver cannot drive this card: never install it. NVIDIA's
        # CUDA repository for this release carries current drivers as 'nvidia-open'.
        notes.append(translate("Setup", "Debian {codename} packages driver {packaged}, but {generation} cards need {need} or newer, which that package cannot provide. This plan installs the driver from NVIDIA's CUDA repository for Debian instead (nvidia-open).").format(
            codename=codename, packaged=packaged, generation=gen.name, need=gen.min_driver_branch))
        # apt's own download cache: exists on every Debian, root-owned like the command.
        keyring = f"/var/cache/apt/archives/{NVIDIA_KEYRING_DEB}"
        steps.append(Step(
            id="add-nvidia-repository",
            title=translate("Setup", "Add NVIDIA's CUDA repository for Debian"),
            explanation=translate("Setup", "Downloads NVIDIA's cuda-keyring package and installs it. It adds the repository list {list} and NVIDIA's signing key; no existing file is changed, so there is nothing to back up. Undo removes the package, and with it both files.").format(list=f"/etc/apt/sources.list.d/cuda-{repo}-x86_64.list"),
            commands=(("wget", "-O", keyring, f"{NVIDIA_REPO_URL}/{repo}/x86_64/{NVIDIA_KEYRING_DEB}"), ("dpkg", "-i", keyring)),
            needs_root=True,
            check=Check("command_output", argv=("dpkg-query", "-W", "-f=${Status}", "cuda-keyring"), expect="install ok installed"),
            undo=(("dpkg", "--purge", "cuda-keyring"),),
            source=SRC_NVIDIA_DEBIAN,
        ))
        steps.append(_apt_update())
        steps.append(Step(
            id="install-driver",
            title=translate("Setup", "Install NVIDIA's open driver (nvidia-open) from NVIDIA's repository"),
            explanation=translate("Setup", "Installs nvidia-open, NVIDIA's current driver with the open kernel modules that {generation} cards require, and the headers for your running kernel (DKMS builds the module against them). It replaces nothing from Debian's nvidia-driver; do not install both.").format(generation=gen.name),
            commands=(("apt-get", "install", "-y", headers, "nvidia-open"),),
            needs_root=True,
            check=Check("command_output", argv=("dpkg-query", "-W", "-f=${Status}", "nvidia-open"), expect="install ok installed"),
            undo=(("apt-get", "purge", "-y", "--autoremove", "nvidia-open"),),
            source=SRC_NVIDIA_DEBIAN,
        ))
    elif too_new:
        target = manual_target(rules, gen)
        if gen and packaged and gen.driver_supports(packaged) is False:
            notes.append(translate("Setup", "Debian {codename} packages driver {packaged}, but {generation} cards need {need} or newer. Install a newer driver by hand (see the driver step).").format(
                codename=codename, packaged=packaged, generation=gen.name, need=gen.min_driver_branch))
        elif gen and not packaged:
            notes.append(translate("Setup", "GPU Assistant does not know which driver Debian {codename} packages, and {generation} cards need {need} or newer. Install a driver that new by hand (see the driver step).").format(
                codename=codename, generation=gen.name, need=gen.min_driver_branch))
        steps.append(Step(
            id="install-driver",
            title=translate("Setup", "Install a driver new enough for this card"),
            explanation=translate("Setup", "Debian's packaged NVIDIA driver cannot run this card together with a current PyTorch build, and GPU Assistant has no tested driver repository for this case. Upgrade to Debian 12 or 13, or install driver {branch} or newer by following NVIDIA's driver installation guide (open kernel modules for Turing and newer cards). Do not install Debian's nvidia-driver package here.").format(branch=MANUAL_BRANCH),
            manual=True,
            check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
            link=NVIDIA_DRIVER_GUIDE,
            source=SRC_NVIDIA_DEBIAN,
        ))
    else:
        target = DriverTarget(packaged.split(".")[0] if packaged else None, packaged, "proprietary", "nvidia-driver", "debian")
        steps.append(_apt_update())
        steps.append(Step(
            id="install-driver",
            title=translate("Setup", "Install Debian's NVIDIA driver"),
            explanation=translate("Setup", "Installs nvidia-driver, the firmware and the headers for your running kernel (DKMS builds the module against them). The package also blacklists nouveau."),
            commands=(("apt-get", "install", "-y", "nvidia-driver", "firmware-misc-nonfree", headers),),
            needs_root=True,
            check=Check("command_output", argv=("dpkg-query", "-W", "-f=${Status}", "nvidia-driver"), expect="install ok installed"),
            undo=(("apt-get", "purge", "-y", "--autoremove", "nvidia-driver"),),
            source="https://wiki.debian.org/NvidiaGraphicsDrivers; https://packages.debian.org/" + codename + "/nvidia-detect",
        ))
    steps.append(nouveau_step("debian", inputs, INITRAMFS["debian"]))
    return _finish(os, inputs, rules, "debian", steps, notes, target=target)


# ---- Fedora -------------------------------------------------------------------------
SRC_RPMFUSION = ("https://rpmfusion.org/Howto/NVIDIA: akmod-nvidia for current GeForce/Quadro/Tesla cards (it builds the open "
                 "or the proprietary module as NVIDIA recommends for the card); akmod-nvidia-open only for special cases; "
                 "akmod-nvidia-580xx for Maxwell, Pascal and Volta after R590")


def fedora_plan(os: OsInfo, inputs: PlanInputs, rules: Rules) -> Plan:
    release = os.version_id or "41"
    gen = inputs.generation
    if gen and gen.proprietary_only:
        pkgs = ("akmod-nvidia-580xx", "xorg-x11-drv-nvidia-580xx-cuda")
        target = source_target(rules, "rpmfusion-580xx", "proprietary", pkgs[0], "rpmfusion")
    elif gen:
        # RPM Fusion's Howto: akmod-nvidia for every current card, Blackwell included;
        # it picks the open modules itself where NVIDIA recommends them.
        pkgs = ("akmod-nvidia", "xorg-x11-drv-nvidia-cuda")
        target = source_target(rules, "rpmfusion", module_for(gen), pkgs[0], "rpmfusion")
    else:
        pkgs = ()  # unknown card: the person picks the package family
        target = manual_target(rules)
    steps: list[Step] = [Step(
        id="enable-rpmfusion",
        title=translate("Setup", "Enable RPM Fusion (free and nonfree)"),
        explanation=translate("Setup", "Fedora does not ship NVIDIA's driver; RPM Fusion packages it."),
        commands=(("dnf", "install", "-y",
                   f"https://mirrors.rpmfusion.org/free/fedora/rpmfusion-free-release-{release}.noarch.rpm",
                   f"https://mirrors.rpmfusion.org/nonfree/fedora/rpmfusion-nonfree-release-{release}.noarch.rpm"),),
        needs_root=True,
        check=Check("command_ok", argv=("rpm", "-q", "rpmfusion-nonfree-release")),
        undo=(("dnf", "remove", "-y", "rpmfusion-free-release", "rpmfusion-nonfree-release"),),
        source="https://rpmfusion.org/Configuration; https://rpmfusion.org/Howto/NVIDIA",
    )]
    mok = mok_step("fedora", inputs)
    if mok:  # the key must exist before akmods builds, so it signs the module
        steps.append(mok)
    if not pkgs:
        steps.append(Step(
            id="install-driver",
            title=translate("Setup", "Pick the NVIDIA driver package for your card"),
            explanation=translate("Setup", "GPU Assistant could not tell this card's generation from its PCI id, so it does not guess. Look up the card ('lspci -nn -d 10de:' shows its name). GTX 16xx, RTX 20xx and newer: 'sudo dnf install akmod-nvidia xorg-x11-drv-nvidia-cuda'. GTX 10xx, GTX 9xx and Volta cards need the legacy branch: 'sudo dnf install akmod-nvidia-580xx xorg-x11-drv-nvidia-580xx-cuda'. Then continue with the next step."),
            manual=True,
            check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
            link="https://rpmfusion.org/Howto/NVIDIA",
            source=SRC_RPMFUSION,
        ))
    else:
        steps.append(Step(
            id="install-driver",
            title=translate("Setup", "Install the NVIDIA driver ({package})").format(package=pkgs[0]),
            explanation=translate("Setup", "akmod builds the kernel module for every kernel you install; the -cuda package adds nvidia-smi and the CUDA driver library."),
            commands=(("dnf", "install", "-y", *pkgs),),
            needs_root=True,
            check=Check("command_ok", argv=("rpm", "-q", pkgs[0])),
            undo=(("dnf", "remove", "-y", *pkgs),),
            source=SRC_RPMFUSION,
        ))
    steps.append(Step(
        id="build-module",
        title=translate("Setup", "Build the kernel module now"),
        explanation=translate("Setup", "akmods builds the module in the background after the install, which takes minutes. Rebooting before it finishes leaves you without a driver, so build it now and wait."),
        commands=(("akmods", "--force"),),
        needs_root=True,
        check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
        source="https://rpmfusion.org/Howto/NVIDIA (wait for akmods; check with modinfo -F version nvidia)",
    ))
    steps.append(nouveau_step("fedora", inputs, INITRAMFS["fedora"]))
    return _finish(os, inputs, rules, "fedora", steps, [], mok_done=mok is not None, target=target)


# ---- Red Hat Enterprise Linux and rebuilds ---------------------------------------------
SRC_NVIDIA_RHEL = ("NVIDIA Driver Installation Guide, Red Hat Enterprise Linux / Rocky / Alma / Oracle / Amazon Linux "
                   "sections (" + NVIDIA_DRIVER_GUIDE + "): EPEL for DKMS, CUDA network repository cuda-<distro>.repo, "
                   "'dnf install nvidia-open' (EL9/EL10, Amazon Linux 2023) or 'dnf module install nvidia-driver:open-dkms' (EL8)")


def rhel_repo(os: OsInfo) -> tuple[str | None, int]:
    """(NVIDIA repository name, major release) for a Red Hat family system."""
    major = int(re.match(r"\d+", os.version_id or "0").group(0)) if re.match(r"\d+", os.version_id or "") else 0
    if os.id == "amzn":
        return ("amzn2023" if major >= 2023 else None), major
    if major in (8, 9, 10):
        return f"rhel{major}", major
    return None, major


def rhel_plan(os: OsInfo, inputs: PlanInputs, rules: Rules) -> Plan:
    gen = inputs.generation
    repo, major = rhel_repo(os)
    pkg_tool = "yum" if 0 < major <= 7 or (os.id == "amzn" and major == 2) else "dnf"
    notes: list[Msg] = []
    if repo is None:
        notes.append(translate("Setup", "{os} is older than the releases NVIDIA's driver repository supports (RHEL 8, 9 and 10, Amazon Linux 2023). Install a current driver by hand or upgrade the system.").format(os=os.pretty_name))
        return _generic(os, inputs, rules, notes, tool=INITRAMFS["fedora"], pkg_tool=pkg_tool)
    repo_file = f"/etc/yum.repos.d/cuda-{repo}.repo"
    repo_url = f"{NVIDIA_REPO_URL}/{repo}/x86_64/cuda-{repo}.repo"
    headers = f"kernel-devel-{inputs.kernel}" if inputs.kernel else "kernel-devel"
    steps: list[Step] = []
    if os.id != "amzn":
        steps.append(Step(
            id="enable-epel",
            title=translate("Setup", "Enable EPEL (for DKMS)"),
            explanation=translate("Setup", "NVIDIA's packages build the kernel module with DKMS, which Red Hat family systems get from EPEL."),
            commands=(("dnf", "install", "-y", f"https://dl.fedoraproject.org/pub/epel/epel-release-latest-{major}.noarch.rpm"),),
            needs_root=True,
            check=Check("command_ok", argv=("rpm", "-q", "epel-release")),
            undo=(("dnf", "remove", "-y", "epel-release"),),
            source=SRC_NVIDIA_RHEL,
        ))
    steps.append(Step(
        id="add-nvidia-repository",
        title=translate("Setup", "Add NVIDIA's CUDA repository"),
        explanation=translate("Setup", "Downloads NVIDIA's repository file to {path}, a new file (nothing to back up); undo deletes it. Also installs the headers for your running kernel, which DKMS builds the module against.").format(path=repo_file),
        commands=(("curl", "-fsSL", "-o", str(inputs.root(repo_file)), repo_url), ("dnf", "install", "-y", headers, "kernel-headers")),
        needs_root=True,
        check=Check("file_exists", (repo_file,)),
        undo=(("rm", "-f", str(inputs.root(repo_file))),),
        source=SRC_NVIDIA_RHEL,
    ))
    if gen and "open" in gen.kernel_modules:
        if major == 8:
            cmd: tuple[str, ...] = ("dnf", "module", "install", "-y", "nvidia-driver:open-dkms")
            undo: tuple[str, ...] = ("dnf", "module", "remove", "-y", "--all", "nvidia-driver")
        else:
            cmd, undo = ("dnf", "install", "-y", "nvidia-open"), ("dnf", "remove", "-y", "nvidia-open")
        target = source_target(rules, "nvidia-repo", "open", "nvidia-open", "nvidia-repo")
        steps.append(Step(
            id="install-driver",
            title=translate("Setup", "Install NVIDIA's open driver (nvidia-open) from NVIDIA's repository"),
            explanation=translate("Setup", "{generation} cards run on NVIDIA's open kernel modules. This installs the newest driver from NVIDIA's repository; DKMS builds the module for your kernel.").format(generation=gen.name),
            commands=(cmd,),
            needs_root=True,
            check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
            undo=(undo,),
            source=SRC_NVIDIA_RHEL,
        ))
    else:
        target = manual_target(rules, gen)
        if gen:
            text = translate("Setup", "{generation} cards need the proprietary kernel module from driver branch {branch}, the last that supports them; NVIDIA's repository installs a newer branch by default. Follow NVIDIA's driver installation guide to install branch {branch} with the proprietary module (on RHEL 8: 'dnf module install nvidia-driver:{branch}-dkms').").format(generation=gen.name, branch=gen.last_branch or MANUAL_BRANCH)
        else:
            text = translate("Setup", "GPU Assistant could not tell this card's generation from its PCI id. GTX 16xx, RTX 20xx and newer: 'sudo dnf install nvidia-open'. GTX 9xx, GTX 10xx and Volta: driver branch {branch} with the proprietary module, as NVIDIA's driver installation guide describes.").format(branch=MANUAL_BRANCH)
        steps.append(Step(
            id="install-driver",
            title=translate("Setup", "Install a driver that runs this card"),
            explanation=text,
            manual=True,
            check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
            link=NVIDIA_DRIVER_GUIDE,
            source=SRC_NVIDIA_RHEL,
        ))
    steps.append(nouveau_step("rhel", inputs, INITRAMFS["fedora"]))
    return _finish(os, inputs, rules, "rhel", steps, notes, target=target)


# ---- openSUSE -----------------------------------------------------------------------
SRC_OPENSUSE = ("https://en.opensuse.org/SDB:NVIDIA_drivers: NVIDIA's repository https://download.nvidia.com/opensuse/<release>, "
                "'zypper install nvidia-open-driver-G06-signed-kmp-meta' for Turing and newer, "
                "'zypper install-new-recommends --repo NVIDIA' to let the repository pick for older cards")


def suse_plan(os: OsInfo, inputs: PlanInputs, rules: Rules) -> Plan:
    gen = inputs.generation
    if os.id == "opensuse-tumbleweed" or "tumbleweed" in os.pretty_name.lower():
        repo = "https://download.nvidia.com/opensuse/tumbleweed"
    elif os.id.startswith("opensuse") and os.version_id:
        repo = f"https://download.nvidia.com/opensuse/leap/{os.version_id}"
    else:  # SLES and others: NVIDIA's openSUSE repository is not for them
        return _generic(os, inputs, rules, [], tool=INITRAMFS["suse"], pkg_tool="zypper")
    steps: list[Step] = [Step(
        id="add-nvidia-repository",
        title=translate("Setup", "Add NVIDIA's repository for openSUSE"),
        explanation=translate("Setup", "Adds NVIDIA's package repository ({url}) under the name NVIDIA and imports its signing key. Undo removes the repository.").format(url=repo),
        commands=(("zypper", "--non-interactive", "addrepo", "--refresh", repo, "NVIDIA"),
                  ("zypper", "--non-interactive", "--gpg-auto-import-keys", "refresh")),
        needs_root=True,
        check=Check("command_output", argv=("zypper", "repos"), expect="NVIDIA"),
        undo=(("zypper", "--non-interactive", "removerepo", "NVIDIA"),),
        source=SRC_OPENSUSE,
    )]
    if gen and "open" in gen.kernel_modules:
        pkgs = ("nvidia-open-driver-G06-signed-kmp-meta", "nvidia-compute-utils-G06")
        cmd: tuple[str, ...] = ("zypper", "--non-interactive", "install", *pkgs)
        undo: tuple[tuple[str, ...], ...] = (("zypper", "--non-interactive", "remove", "--clean-deps", *pkgs),)
        target = source_target(rules, "opensuse-g06", "open", pkgs[0], "opensuse")
        title = translate("Setup", "Install NVIDIA's open driver (G06, signed)")
        text = translate("Setup", "{generation} cards run on NVIDIA's open kernel modules; the signed package loads with Secure Boot on. nvidia-compute-utils-G06 adds nvidia-smi and the CUDA driver library.").format(generation=gen.name)
    else:
        cmd = ("zypper", "--non-interactive", "install-new-recommends", "--repo", "NVIDIA")
        undo = ()
        target = source_target(rules, "opensuse-g06", "proprietary" if gen else None, "nvidia-driver-G06-kmp", "opensuse")
        title = translate("Setup", "Install the driver NVIDIA's repository recommends for this card")
        text = translate("Setup", "zypper install-new-recommends picks the G06 packages that match your card (the proprietary module for cards older than Turing). Undo is by hand: 'zypper remove' the nvidia-*-G06 packages it installed.")
    steps.append(Step(
        id="install-driver",
        title=title,
        explanation=text,
        commands=(cmd,),
        needs_root=True,
        check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
        undo=undo,
        source=SRC_OPENSUSE,
    ))
    steps.append(nouveau_step("suse", inputs, INITRAMFS["suse"]))
    return _finish(os, inputs, rules, "suse", steps, [], target=target)


# ---- Arch ---------------------------------------------------------------------------
def arch_plan(os: OsInfo, inputs: PlanInputs, rules: Rules) -> Plan:
    gen = inputs.generation
    notes: list[Msg] = []
    if gen and gen.proprietary_only:
        target = source_target(rules, "arch-580xx", "proprietary", "nvidia-580xx-dkms", "aur")
        steps = [Step(
            id="install-driver",
            title=translate("Setup", "Install the 580xx legacy driver from the AUR"),
            explanation=translate("Setup", "Arch's nvidia-open packages no longer support {generation} cards. Build 'nvidia-580xx-dkms' (and the matching utils) from the AUR with your AUR helper; GPU Assistant does not run AUR builds for you.").format(generation=gen.name),
            manual=True,
            check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
            link="https://aur.archlinux.org/packages/nvidia-580xx-dkms",
            source="https://wiki.archlinux.org/title/NVIDIA (Pascal and older: nvidia-580xx-dkms from the AUR); archlinux.org news on the 590 driver",
        )]
    elif gen is None:
        target = manual_target(rules)
        steps = [Step(
            id="install-driver",
            title=translate("Setup", "Pick the NVIDIA driver package for your card"),
            explanation=translate("Setup", "GPU Assistant could not tell this card's generation from its PCI id, so it does not guess. Look up the card ('lspci -nn -d 10de:' shows its name). GTX 16xx, RTX 20xx and newer: 'sudo pacman -S nvidia-open nvidia-utils' (nvidia-open-dkms for linux-lts or linux-zen). GTX 10xx, GTX 9xx and Volta cards are not supported by nvidia-open: build 'nvidia-580xx-dkms' from the AUR. Then continue with the next step."),
            manual=True,
            check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
            link="https://wiki.archlinux.org/title/NVIDIA",
            source="https://wiki.archlinux.org/title/NVIDIA: nvidia-open for Turing and newer, AUR nvidia-580xx-dkms for older cards",
        )]
    else:
        target = source_target(rules, "arch", "open", "nvidia-open", "arch")
        steps = [Step(
            id="install-driver",
            title=translate("Setup", "Install nvidia-open and nvidia-utils"),
            explanation=translate("Setup", "nvidia-open is built for Arch's default 'linux' kernel; with another kernel (linux-lts, linux-zen) install nvidia-open-dkms and its headers instead."),
            commands=(("pacman", "-S", "--needed", "--noconfirm", "nvidia-open", "nvidia-utils"),),
            needs_root=True,
            check=Check("command_ok", argv=("pacman", "-Q", "nvidia-open")),
            undo=(("pacman", "-Rns", "--noconfirm", "nvidia-open", "nvidia-utils"),),
            source="https://wiki.archlinux.org/title/NVIDIA; Arch packages nvidia-open / nvidia-utils",
        )]
    steps.append(nouveau_step("arch", inputs, INITRAMFS["arch"]))
    return _finish(os, inputs, rules, "arch", steps, notes, target=target)


# ---- anything else ------------------------------------------------------------------------
INITRAMFS_BY_TOOL = {"dracut": ("dracut", "--force"), "update-initramfs": ("update-initramfs", "-u"), "mkinitcpio": ("mkinitcpio", "-P")}


def generic_plan(os: OsInfo | None, inputs: PlanInputs, rules: Rules) -> Plan:
    tool: tuple[str, ...] | None = None
    if inputs.probe_files:
        for exe, cmd in (("/usr/bin/dracut", ("dracut", "--force")), ("/usr/sbin/update-initramfs", ("update-initramfs", "-u")),
                         ("/usr/bin/mkinitcpio", ("mkinitcpio", "-P"))):
            if inputs.root.exists(exe):
                tool = cmd
                break
    if tool is None and os is not None and os.initramfs_tool:
        tool = INITRAMFS_BY_TOOL[os.initramfs_tool]  # known from ID / ID_LIKE (Mageia: dracut)
    return _generic(os, inputs, rules, [], tool=tool)


def _generic(os: OsInfo | None, inputs: PlanInputs, rules: Rules, notes: list[Msg], tool: tuple[str, ...] | None,
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
        source="research notes A3.5 (mixing .run with distro packages); NVIDIA/open-gpu-kernel-modules README",
    ), nouveau_step("generic", inputs, tool)]
    return _finish(os, inputs, rules, "generic", steps, notes, supported=False, target=manual_target(rules, inputs.generation))


def _finish(os: OsInfo | None, inputs: PlanInputs, rules: Rules, family: str, steps: list[Step],
            notes: list[Msg], supported: bool = True, mok_done: bool = False, target: DriverTarget | None = None) -> Plan:
    if not mok_done:
        mok = mok_step(family, inputs)
        if mok:
            steps.append(mok)
    if needs_venv(inputs, "linux"):
        steps += venv_steps(family, inputs)
    install, verify = pytorch_steps(inputs, rules, "linux", target)
    steps += [reboot_step(), verify_driver_step(), install, verify]
    module = _module_note(inputs.generation)
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


def build_linux_plan(os: OsInfo | None, inputs: PlanInputs, rules: Rules) -> Plan:
    family = os.family if os else "unsupported"
    if family == "ubuntu":
        return ubuntu_plan(os, inputs, rules)  # type: ignore[arg-type]
    if family == "debian":
        return debian_plan(os, inputs, rules)  # type: ignore[arg-type]
    if family == "fedora":
        return fedora_plan(os, inputs, rules)  # type: ignore[arg-type]
    if family == "rhel":
        return rhel_plan(os, inputs, rules)  # type: ignore[arg-type]
    if family == "suse":
        return suse_plan(os, inputs, rules)  # type: ignore[arg-type]
    if family == "arch":
        return arch_plan(os, inputs, rules)  # type: ignore[arg-type]
    return generic_plan(os, inputs, rules)
