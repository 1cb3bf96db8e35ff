"""Ubuntu and its derivatives (Mint, Pop!_OS): ubuntu-drivers and the archive's driver packages."""
from __future__ import annotations

from services.i18n import Msg, translate
from services.setup.linux.common import (
    INITRAMFS,
    MANUAL_BRANCH,
    OPEN_DEFAULT_BRANCH,
    DriverTarget,
    PlanInputs,
    apt_update_step,
    finish_plan,
    manual_driver_step,
    manual_target,
    module_for,
    nouveau_step,
)
from services.setup.plan import Check, Plan, Step
from services.setup.probes import UBUNTU_DRIVER_PACKAGE
from services.setup.os_release import OsInfo
from services.setup.rules import Generation, Rules


# ---- Ubuntu family ------------------------------------------------------------------
def ubuntu_listed_branches(inputs: PlanInputs, module: str) -> list[str]:
    """Desktop (not -server) branches that `ubuntu-drivers list` offers here in that module type."""
    out = []
    for pkg in inputs.ubuntu_driver_packages:
        m = UBUNTU_DRIVER_PACKAGE.match(pkg)
        if m and not m.group(2) and bool(m.group(3)) == (module == "open"):
            out.append(m.group(1))
    return out


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
            explanation = translate("Setup", "{generation} cards run on NVIDIA's open kernel modules (NVIDIA's default since driver 560; RTX 50 cards work only with them). This installs nvidia-driver-{branch}-open by name, never the 'recommended' pick, which can be the closed module. Branch {branch} is the newest that this Ubuntu release supports (its restricted archive) and that runs the card; the first command makes sure the tool is there.").format(generation=gen.name, branch=branch)
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
            # Done when this branch's package is installed, not when any nvidia module is
            # (a 570 already there does not make "Install driver 580" done).
            check=Check("command_output", argv=("dpkg-query", "-W", "-f=${Status}", f"nvidia-driver-{branch}{suffix}"),
                        expect="install ok installed"),
            undo=(("apt-get", "purge", "-y", "--autoremove", f"nvidia-driver-{branch}{suffix}"),),
            source=src + "; branch list: " + ("ubuntu-drivers list on this machine" if origin == "list" else "setup_rules.json ubuntu_driver_branches (Launchpad nvidia-graphics-drivers-NNN)"),
        )
        steps = [apt_update_step(), install]
    else:
        target = manual_target(rules, gen)
        if gen:
            notes.append(translate("Setup", "{os} has no NVIDIA driver package new enough for {generation} cards (they need {need} or newer).").format(
                os=os.pretty_name, generation=gen.name, need=gen.min_driver_branch or "-"))
            explanation = translate("Setup", "This Ubuntu release's archive has no driver branch that runs {generation} cards. Upgrade to Ubuntu 22.04 or 24.04 (then this wizard installs nvidia-driver-{branch}-open), or install driver {branch} from NVIDIA's CUDA repository for your release by following NVIDIA's driver installation guide.").format(generation=gen.name, branch=MANUAL_BRANCH)
        else:
            explanation = translate("Setup", "GPU Assistant could not tell this card's generation from its PCI id, so it does not pick between the open and the proprietary module. Run 'ubuntu-drivers list'. GTX 16xx, RTX 20xx and newer (all RTX 50): 'sudo ubuntu-drivers install nvidia:{branch}-open'. GTX 9xx, GTX 10xx and Volta cards: 'sudo ubuntu-drivers install nvidia:{branch}'. Do not run a bare 'ubuntu-drivers install': its 'recommended' pick can be a module the card cannot use.").format(branch=MANUAL_BRANCH)
        steps = [apt_update_step(), manual_driver_step(explanation, src)]
    steps.append(nouveau_step("ubuntu", inputs, INITRAMFS["ubuntu"]))
    return finish_plan(os, inputs, rules, "ubuntu", steps, notes, target=target)
