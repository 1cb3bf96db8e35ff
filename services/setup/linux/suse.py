"""openSUSE: NVIDIA's openSUSE repository."""
from __future__ import annotations

from services.i18n import translate
from services.setup.linux.common import (
    INITRAMFS,
    PlanInputs,
    finish_plan,
    generic_steps_plan,
    nouveau_step,
    source_target,
)
from services.setup.plan import Check, Plan, Step
from services.setup.os_release import OsInfo
from services.setup.rules import Rules

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
        return generic_steps_plan(os, inputs, rules, [], tool=INITRAMFS["suse"], pkg_tool="zypper")
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
    return finish_plan(os, inputs, rules, "suse", steps, [], target=target)
