"""Debian: the archive's non-free driver packages, or NVIDIA's network repository."""
from __future__ import annotations

import re

from services.i18n import Msg, translate
from services.setup.linux.common import (
    INITRAMFS,
    MANUAL_BRANCH,
    NVIDIA_DRIVER_GUIDE,
    NVIDIA_REPO_URL,
    DriverTarget,
    PlanInputs,
    apt_update_step,
    finish_plan,
    manual_target,
    nouveau_step,
    source_target,
)
from services.setup.plan import Check, FileChange, Plan, Step, staged_path
from services.setup.os_release import OsInfo
from services.setup.rules import Rules
from services.setup.system import SystemRoot

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
NVIDIA_KEYRING_DEB = "cuda-keyring_1.1-1_all.deb"
NVIDIA_DEBIAN_REPOS = {"12": "debian12", "13": "debian13"}
SRC_NVIDIA_DEBIAN = ("NVIDIA Driver Installation Guide, Debian (" + NVIDIA_DRIVER_GUIDE + "): network repository via "
                     "cuda-keyring_1.1-1_all.deb, 'apt install nvidia-open'; Debian's nvidia-driver package versions (packages.debian.org): stable's branch predates RTX 50 support")


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
        steps.append(apt_update_step())
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
        steps.append(apt_update_step())
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
    return finish_plan(os, inputs, rules, "debian", steps, notes, target=target)
