"""Red Hat Enterprise Linux and rebuilds (Rocky, Alma, Oracle): NVIDIA's repository."""
from __future__ import annotations

import re

from services.i18n import Msg, translate
from services.setup.linux.common import (
    INITRAMFS,
    MANUAL_BRANCH,
    NVIDIA_DRIVER_GUIDE,
    NVIDIA_REPO_URL,
    PlanInputs,
    finish_plan,
    generic_steps_plan,
    manual_driver_step,
    manual_target,
    nouveau_step,
    source_target,
)
from services.setup.plan import Check, Plan, Step
from services.setup.os_release import OsInfo
from services.setup.rules import Rules

# ---- Red Hat Enterprise Linux and rebuilds ---------------------------------------------
SRC_NVIDIA_RHEL = ("NVIDIA Driver Installation Guide, Red Hat Enterprise Linux / Rocky / Alma / Oracle / Amazon Linux "
                   "sections (" + NVIDIA_DRIVER_GUIDE + "): EPEL for DKMS, CUDA network repository cuda-<distro>.repo, "
                   "'dnf install nvidia-open' (EL9/EL10, Amazon Linux 2023) or 'dnf module install nvidia-driver:open-dkms' (EL8)")


def rhel_repo(os: OsInfo) -> tuple[str | None, int]:
    """(NVIDIA repository name, major release) for a Red Hat family system."""
    digits = re.match(r"\d+", os.version_id or "")
    major = int(digits.group(0)) if digits else 0
    if os.id == "amzn":
        return ("amzn2023" if major >= 2023 else None), major
    if major in (8, 9, 10):
        return f"rhel{major}", major
    return None, major


SRC_CRB = ("NVIDIA Driver Installation Guide, RHEL 8/9/10 and Rocky/Alma sections (" + NVIDIA_DRIVER_GUIDE + "): "
           "enable the CodeReady Builder repository beside EPEL (RHEL: subscription-manager repos --enable="
           "codeready-builder-for-rhel-<major>-<arch>-rpms; Rocky/Alma 9 and 10: dnf config-manager --set-enabled crb; "
           "8: powertools; Oracle Linux: ol<major>_codeready_builder); Rocky Linux documentation, "
           "'Installing NVIDIA GPU drivers' (CRB enabled before the driver)")
SRC_KERNEL_DEVEL = ("NVIDIA Driver Installation Guide, RHEL/Rocky/Oracle Linux preparation (" + NVIDIA_DRIVER_GUIDE + "): "
                    "'dnf install kernel-devel-matched kernel-headers' on 9 and 10, "
                    "'dnf install kernel-devel-$(uname -r) kernel-headers' on 8")


def crb_repository(os: OsInfo, major: int) -> tuple[tuple[str, ...], tuple[str, ...], str] | None:
    """(enable command, undo command, repository id) of the CodeReady Builder repository."""
    if os.id == "amzn" or major < 8:
        return None
    arch = "x86_64"
    if os.id == "rhel":
        repo = f"codeready-builder-for-rhel-{major}-{arch}-rpms"
        return (("subscription-manager", "repos", f"--enable={repo}"),
                ("subscription-manager", "repos", f"--disable={repo}"), repo)
    if os.id == "ol":
        repo = f"ol{major}_codeready_builder"
    else:
        repo = "powertools" if major == 8 else "crb"
    return (("dnf", "config-manager", "--set-enabled", repo), ("dnf", "config-manager", "--set-disabled", repo), repo)


def kernel_devel(kernel: str, major: int) -> str:
    """The kernel headers DKMS builds against: the running kernel's, by version; for another
    machine (kernel unknown) EL9+'s kernel-devel-matched, which follows the installed kernel."""
    if kernel:
        return f"kernel-devel-{kernel}"
    return "kernel-devel-matched" if major >= 9 else "kernel-devel"


def rhel_plan(os: OsInfo, inputs: PlanInputs, rules: Rules) -> Plan:
    gen = inputs.generation
    repo, major = rhel_repo(os)
    pkg_tool = "yum" if 0 < major <= 7 or (os.id == "amzn" and major == 2) else "dnf"
    notes: list[Msg] = []
    if repo is None:
        notes.append(translate("Setup", "{os} is older than the releases NVIDIA's driver repository supports (RHEL 8, 9 and 10, Amazon Linux 2023). Install a current driver by hand or upgrade the system.").format(os=os.pretty_name))
        return generic_steps_plan(os, inputs, rules, notes, tool=INITRAMFS["fedora"], pkg_tool=pkg_tool)
    repo_file = f"/etc/yum.repos.d/cuda-{repo}.repo"
    repo_url = f"{NVIDIA_REPO_URL}/{repo}/x86_64/cuda-{repo}.repo"
    headers = kernel_devel(inputs.kernel, major)
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
    crb = crb_repository(os, major)
    if crb is not None:
        enable, disable, repo_id = crb
        steps.append(Step(
            id="enable-crb",
            title=translate("Setup", "Enable the CodeReady Builder repository ({repo})").format(repo=repo_id),
            explanation=translate("Setup", "EPEL's DKMS and the driver's build needs come partly from CodeReady Builder, which is off by default; NVIDIA's installation guide enables it beside EPEL. Undo turns it off again."),
            commands=(enable,),
            needs_root=True,
            check=Check("command_output", argv=("dnf", "repolist", "--enabled"), expect=repo_id),
            undo=(disable,),
            source=SRC_CRB,
        ))
    steps.append(Step(
        id="add-nvidia-repository",
        title=translate("Setup", "Add NVIDIA's CUDA repository"),
        explanation=translate("Setup", "Downloads NVIDIA's repository file to {path}, a new file (nothing to back up); undo deletes it. Also installs the headers for your running kernel, which DKMS builds the module against.").format(path=repo_file),
        commands=(("curl", "-fsSL", "-o", str(inputs.root(repo_file)), repo_url), ("dnf", "install", "-y", headers, "kernel-headers")),
        needs_root=True,
        check=Check("file_exists", (repo_file,)),
        undo=(("rm", "-f", str(inputs.root(repo_file))),),
        source=f"{SRC_NVIDIA_RHEL}; {SRC_KERNEL_DEVEL}",
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
        steps.append(manual_driver_step(text, SRC_NVIDIA_RHEL))
    steps.append(nouveau_step("rhel", inputs, INITRAMFS["fedora"]))
    return finish_plan(os, inputs, rules, "rhel", steps, notes, target=target)
