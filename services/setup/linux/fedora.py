"""Fedora: RPM Fusion's akmod-nvidia."""
from __future__ import annotations

from services.i18n import translate
from services.setup.linux.common import (
    INITRAMFS,
    PlanInputs,
    finish_plan,
    manual_target,
    module_for,
    mok_step,
    nouveau_step,
    source_target,
)
from services.setup.plan import Check, Plan, Step
from services.setup.os_release import OsInfo
from services.setup.rules import Rules

# ---- Fedora -------------------------------------------------------------------------
SRC_RPMFUSION = ("https://rpmfusion.org/Howto/NVIDIA: akmod-nvidia for current GeForce/Quadro/Tesla cards (it builds the open "
                 "or the proprietary module as NVIDIA recommends for the card); akmod-nvidia-open only for special cases; "
                 "akmod-nvidia-580xx for Maxwell, Pascal and Volta after R590")


def fedora_plan(os: OsInfo, inputs: PlanInputs, rules: Rules) -> Plan:
    release = os.version_id or "41"
    gen = inputs.generation
    if gen and gen.proprietary_only:
        pkgs: tuple[str, ...] = ("akmod-nvidia-580xx", "xorg-x11-drv-nvidia-580xx-cuda")
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
    return finish_plan(os, inputs, rules, "fedora", steps, [], mok_done=mok is not None, target=target)
