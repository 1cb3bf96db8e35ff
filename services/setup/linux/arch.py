"""Arch Linux: the nvidia packages from the official repositories."""
from __future__ import annotations

from services.i18n import Msg, translate
from services.setup.linux.common import (
    INITRAMFS,
    PlanInputs,
    finish_plan,
    manual_target,
    nouveau_step,
    source_target,
)
from services.setup.plan import Check, Plan, Step
from services.setup.os_release import OsInfo
from services.setup.rules import Rules


# ---- Arch ---------------------------------------------------------------------------
def arch_plan(os: OsInfo, inputs: PlanInputs, rules: Rules) -> Plan:
    gen = inputs.generation
    notes: list[Msg] = []
    if os.id == "manjaro" or "manjaro" in os.id_like:
        return _manjaro_plan(os, inputs, rules, notes)
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
    return finish_plan(os, inputs, rules, "arch", steps, notes, target=target)


# ---- Manjaro (ID_LIKE=arch, but its own kernels and driver tool) ------------------------
SRC_MANJARO = ("Manjaro wiki, 'Configure Graphics Cards' (https://wiki.manjaro.org/index.php/Configure_Graphics_Cards): "
               "'sudo mhwd -a pci nonfree 0300' installs the proprietary driver for every installed Manjaro kernel "
               "(its linuxXYZ-nvidia module packages); 'mhwd -li' lists what is installed, 'mhwd -r pci <config>' removes it")


def _manjaro_plan(os: OsInfo, inputs: PlanInputs, rules: Rules, notes: list[Msg]) -> Plan:
    """Manjaro's kernels (linux612, linux66, ...) need their own linuxXYZ-nvidia module packages;
    Arch's nvidia-open is built for Arch's 'linux' kernel only. mhwd picks them per kernel."""
    gen = inputs.generation
    if gen is None or gen.proprietary_only:
        # The current video-nvidia no longer drives older cards; mhwd lists the legacy configurations
        # (video-nvidia-470xx, ...) a card can use, and which one fits is the person's choice.
        target = manual_target(rules, gen)
        steps = [Step(
            id="install-driver",
            title=translate("Setup", "Pick the NVIDIA driver configuration mhwd offers for your card"),
            explanation=translate("Setup", "Manjaro's kernels need their own NVIDIA module packages (linuxXYZ-nvidia), which Arch's nvidia-open does not provide. 'mhwd -l' lists the driver configurations for this card; install the newest video-nvidia one it offers with 'sudo mhwd -i pci <name>'. Then continue with the next step."),
            manual=True,
            commands=(("mhwd", "-l"),),
            check=Check("command_ok", argv=("modinfo", "-F", "version", "nvidia")),
            link="https://wiki.manjaro.org/index.php/Configure_Graphics_Cards",
            source=SRC_MANJARO,
        )]
    else:
        target = source_target(rules, "arch", "open" if gen.open_only else None, "video-nvidia (mhwd)", "manjaro")
        steps = [Step(
            id="install-driver",
            title=translate("Setup", "Install the NVIDIA driver with Manjaro's hardware tool (mhwd)"),
            explanation=translate("Setup", "Manjaro's kernels need their own NVIDIA module packages (linuxXYZ-nvidia), which Arch's nvidia-open does not provide. mhwd installs the driver configuration and the module package for every installed kernel. For a data-center card shown as a 3D controller, use class 0302 instead of 0300."),
            commands=(("mhwd", "-a", "pci", "nonfree", "0300"),),
            needs_root=True,
            check=Check("command_output", argv=("mhwd", "-li"), expect="video-nvidia"),
            undo=(("mhwd", "-r", "pci", "video-nvidia"),),
            source=SRC_MANJARO,
        )]
    steps.append(nouveau_step("arch", inputs, INITRAMFS["arch"]))
    return finish_plan(os, inputs, rules, "arch", steps, notes, target=target)
