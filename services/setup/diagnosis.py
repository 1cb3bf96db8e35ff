"""The doctor's diagnosis: a pure function of the collected facts and the rules file, which says
what is wrong in plain words with the exact fix (``diagnose``)."""
from __future__ import annotations

from services.i18n import Msg, translate
from services.setup.doctor_report import DoctorReport, GpuIdentity, MachineFacts
from services.setup.findings import SEVERITIES, Finding, Fix
from services.setup.machine import Machine, describe, product_name
from services.setup.python_env import default_venv_dir
from services.setup.rules import Rules, sm_from_capability, version_at_least
from services.setup.torch_findings import torch_findings


def machine_of(facts: MachineFacts, rules: Rules) -> Machine:
    """The machine model for these facts (the rules' id table names a card nothing else named)."""
    def id_name(device_id: str) -> str | None:
        hit = next((g for g in rules.gpu_ids if device_id and g.device_id == device_id), None)
        return hit.name if hit else None

    return describe(facts, id_name)


def identify(facts: MachineFacts, rules: Rules, machine: Machine | None = None) -> GpuIdentity | None:
    machine = machine or machine_of(facts, rules)
    first = machine.gpu
    if first is None:
        return None
    pci = first.pci
    names = [pci.name, first.name]
    nvml_gpu = facts.nvml.gpus[0] if facts.nvml and facts.nvml.ok and facts.nvml.gpus else None
    if nvml_gpu:
        names.append(nvml_gpu.name)
    if facts.torch and facts.torch.device_name:
        names.append(facts.torch.device_name)
    generation = None
    for name in names:
        generation, _how = rules.identify_gpu(pci.device_id, name)
        if generation:
            break
    sm, measured = None, False
    cap = (facts.torch.capability if facts.torch else None) or (nvml_gpu.capability if nvml_gpu else None)
    if cap:
        sm, measured = sm_from_capability(*cap), True
        generation = generation or (g.name if (g := rules.generation_for_sm(sm)) else None)
    elif generation:
        sm = guess_sm(rules, generation, " ".join(names))
    return GpuIdentity(pci, generation, sm, measured, product_name(first.name))


def guess_sm(rules: Rules, generation: str, name: str) -> str | None:
    gen = rules.generation(generation)
    if not gen:
        return None
    if len(gen.sm) == 1:
        return gen.sm[0]
    # Two architectures in one generation: the data-center part is the odd one out.
    datacenter = {"Ampere": ("A100", "A30"), "Pascal": ("P100",), "Blackwell": ("B200", "GB200", "B100"), "Maxwell": ("750",)}
    if any(tag in name for tag in datacenter.get(generation, ())):
        return gen.sm[0]
    return gen.sm[-1]


def _pep668_findings(facts: MachineFacts) -> list[Finding]:
    """PEP 668: pip into the system Python is refused."""
    pep = facts.python_env
    if pep is None or not pep.externally_managed:
        return []
    venv = default_venv_dir()
    picked = facts.torch is not None and facts.torch.python == pep.python
    return [Finding(
        "python_externally_managed", "warning" if picked else "info",
        translate("Doctor", "{python} is managed by the system: pip will not install into it").format(python=pep.python),
        translate("Doctor", "Its standard library folder {stdlib} has an EXTERNALLY-MANAGED file (PEP 668), so 'pip install torch' stops with 'externally-managed-environment'. Put PyTorch in a virtual environment instead, and pick that environment here.").format(stdlib=pep.stdlib),
        (Fix(translate("Doctor", "Create a virtual environment for PyTorch"),
             (("python3", "-m", "venv", venv),), step="create-venv"),),
    )]


def diagnose(facts: MachineFacts, rules: Rules, python_hint: str | None = None) -> DoctorReport:
    out: list[Finding] = []
    machine = machine_of(facts, rules)
    gpu = identify(facts, rules, machine)
    os_name = facts.os_name
    driver = facts.driver_version
    python = (facts.torch.python if facts.torch else None) or python_hint or "python"
    out += _pep668_findings(facts)

    if facts.os and facts.os.family == "unsupported":
        out.append(Finding(
            "distro_unsupported", "info",
            translate("Doctor", "{distro} is not a distribution the wizard has steps for").format(distro=facts.os.pretty_name),
            translate("Doctor", "The checks below still apply; the wizard shows the generic steps (install your distribution's NVIDIA driver package, blacklist nouveau, reboot, verify)."),
        ))

    if gpu is None:
        out.append(Finding(
            "no_nvidia_gpu", "error",
            translate("Doctor", "No NVIDIA GPU was found"),
            translate("Doctor", "No display device with NVIDIA's PCI vendor id (10de) is visible. Check that the card is seated, powered (PCIe power cables) and enabled in the firmware; in a virtual machine it must be passed through."),
        ))
        return DoctorReport(facts, None, tuple(out), rules.version, machine)

    gen = rules.generation(gpu.generation)
    if gen is None:
        out.append(Finding(
            "gpu_unknown", "warning",
            translate("Doctor", "{name} is not in the rules file"),
            translate("Doctor", "The wizard cannot tell its generation, so it cannot choose between the open and the proprietary kernel module or the right PyTorch build for you. Update the app, or pass the compute capability through a working driver."),
        ))

    # --- kernel driver (Linux) ---
    km = facts.kernel_module
    mismatch = False
    if os_name == "linux" and km is not None and km.loaded_version is None and machine.driver.answers:
        # NVML answers, yet no NVIDIA module is loaded here: the driver lives outside this system
        # (WSL2 reaches the Windows driver; a container its host's), so nothing is installed here.
        wsl = "microsoft" in (facts.os.kernel if facts.os else "").lower()
        out.append(Finding(
            "driver_from_host", "info",
            translate("Doctor", "The driver comes from Windows (WSL2)") if wsl
            else translate("Doctor", "The driver comes from outside this system (a container's host)"),
            translate("Doctor", "NVML answers with driver {driver}, but no NVIDIA kernel module is loaded here. Do not install a Linux NVIDIA driver in this system: update the driver on the host instead (NVIDIA's CUDA on WSL guide says the same for WSL2).").format(
                driver=machine.driver.version or "?"),
        ))
        km = None  # the module checks below are about a driver installed here
    if os_name == "linux" and km is not None:
        bound = gpu.pci.driver
        if km.loaded_version is None:
            if km.nouveau_loaded or bound == "nouveau":
                out.append(Finding(
                    "nouveau_in_use", "error",
                    translate("Doctor", "The open-source nouveau driver is driving the card"),
                    translate("Doctor", "CUDA and PyTorch need NVIDIA's driver. Install it, blacklist nouveau and rebuild the initramfs, then reboot (the wizard does each step)."),
                    (Fix(translate("Doctor", "Run the setup wizard: install the driver and blacklist nouveau"), step="blacklist-nouveau"),),
                ))
            elif km.installed_version is None:
                out.append(Finding(
                    "driver_not_installed", "error",
                    translate("Doctor", "No NVIDIA kernel module is installed"),
                    translate("Doctor", "modinfo cannot find an nvidia module for the running kernel. Install the driver with the setup wizard."),
                    (Fix(translate("Doctor", "Install the driver (setup wizard)"), step="install-driver"),),
                ))
            elif facts.secure_boot == "enabled":
                out.append(Finding(
                    "secure_boot_blocks_module", "error",
                    translate("Doctor", "Secure Boot is on and the NVIDIA module {version} is not loaded").format(version=km.installed_version),
                    translate("Doctor", "With Secure Boot, the kernel refuses a module that is not signed by a key it trusts ('Key was rejected by service' in dmesg). Enrol the module signing key (MOK) and reboot, or turn Secure Boot off in the firmware."),
                    (Fix(translate("Doctor", "Enrol the signing key (setup wizard)"), step="enroll-mok"),
                     Fix(translate("Doctor", "Read the kernel's reason"), (("journalctl", "-k", "-b", "--grep", "nvidia|NVRM"),))),
                ))
            else:
                out.append(Finding(
                    "module_not_loaded", "error",
                    translate("Doctor", "The NVIDIA module {version} is installed but not loaded").format(version=km.installed_version),
                    translate("Doctor", "If you installed it just now, reboot. Otherwise load it by hand and read its error: often the module was not rebuilt for a new kernel (missing kernel headers; see 'dkms status')."),
                    (Fix(translate("Doctor", "Load it and show the error"), (("sudo", "modprobe", "nvidia"), ("dkms", "status"))),),
                ))
        else:
            userspace = facts.nvml.driver_version if facts.nvml and facts.nvml.driver_version else None
            smi_msg = facts.nvidia_smi.message if facts.nvidia_smi else ""
            on_disk = km.installed_version
            if (facts.nvml and facts.nvml.error_code == 18) or "mismatch" in smi_msg.lower() or (
                on_disk and on_disk != km.loaded_version
            ) or (userspace and userspace != km.loaded_version):
                mismatch = True
                newer = userspace or on_disk or "?"
                out.append(Finding(
                    "driver_library_mismatch", "error",
                    translate("Doctor", "Reboot: the loaded module ({loaded}) is older than the libraries ({newer})").format(loaded=km.loaded_version, newer=newer),
                    translate("Doctor", "The driver was updated (often by automatic updates) while the old kernel module kept running, so NVML and CUDA refuse to talk to it ('Driver/library version mismatch'). A reboot loads the new module."),
                    (Fix(translate("Doctor", "Reboot"), (("systemctl", "reboot"),), step="reboot"),),
                ))
            if gen and km.loaded_flavor and km.loaded_flavor not in gen.kernel_modules:
                out.append(Finding(
                    "wrong_module_flavor", "error",
                    translate("Doctor", "{generation} cards need the {needed} kernel module, but the {loaded} one is loaded").format(
                        generation=gen.name, needed=_flavor_word(gen.preferred_module), loaded=_flavor_word(km.loaded_flavor)),
                    translate("Doctor", "Install the other variant of the same driver branch; the wizard picks it for your card."),
                    (Fix(translate("Doctor", "Install the right driver variant (setup wizard)"), step="install-driver"),),
                ))
    # --- driver age for the card ---
    if gen and gen.min_driver_branch and driver and version_at_least(driver, gen.min_driver_branch) is False:
        out.append(Finding(
            "driver_too_old_for_gpu", "error",
            translate("Doctor", "Driver {driver} is too old for {name}").format(driver=driver, name=gpu.name),
            translate("Doctor", "{generation} cards need driver {branch} or newer.").format(generation=gen.name, branch=gen.min_driver_branch),
            (Fix(translate("Doctor", "Update the driver (setup wizard)"), step="install-driver"),),
        ))
    # --- NVML / nvidia-smi ---
    driver_ok = driver is not None and not mismatch and (facts.nvml is None or facts.nvml.ok or facts.nvidia_smi is None or facts.nvidia_smi.exit_code == 0)
    already = {f.code for f in out}
    smi = facts.nvidia_smi
    if smi is not None and smi.present and smi.exit_code not in (0, None) and not (already & {"nouveau_in_use", "driver_not_installed", "secure_boot_blocks_module", "module_not_loaded", "driver_library_mismatch"}):
        meaning = rules.nvidia_smi_exit_codes.get(smi.exit_code, "unknown error")
        out.append(Finding(
            "nvidia_smi_failed", "error",
            translate("Doctor", "nvidia-smi failed with exit code {code}: {meaning}").format(code=smi.exit_code, meaning=meaning),
            translate("Doctor", "Its message: {message}").format(message=smi.message or "-"),
        ))
    elif smi is not None and not smi.present and km is not None and km.loaded_version:
        out.append(Finding(
            "nvidia_smi_missing", "warning",
            translate("Doctor", "nvidia-smi is not installed"),
            translate("Doctor", "The kernel module is loaded but the driver's user-space tools are missing; install your distribution's NVIDIA utilities package."),
        ))
    out += _permission_findings(facts)
    already = {f.code for f in out}
    if machine.driver.version and not machine.driver.answers and not (already & DRIVER_EXPLAINED):
        # Installed (the registry or the loaded module says which) but NVML does not answer:
        # say what failed instead of nothing at all.
        out.append(Finding(
            "driver_not_answering", "error",
            translate("Doctor", "Driver {driver} is installed, but NVIDIA's management library does not answer").format(driver=machine.driver.version),
            translate("Doctor", "NVML ({library}) failed: {error}. CUDA and PyTorch go through the same driver, so they fail too. Reinstalling the driver replaces its libraries.").format(
                library="nvml.dll" if os_name == "windows" else "libnvidia-ml.so.1", error=machine.driver.failure or "-"),
            (Fix(translate("Doctor", "Reinstall the driver (setup wizard)"), step="install-driver"),),
        ))
    if driver and facts.nvml and facts.nvml.ok:
        out.append(Finding(
            "driver_ok", "ok",
            translate("Doctor", "Driver {driver} is working; it supports CUDA up to {cuda}").format(driver=driver, cuda=facts.nvml.cuda_version or "?"),
            translate("Doctor", "The 'CUDA Version' nvidia-smi shows is the highest CUDA this driver can run, not an installed toolkit. PyTorch wheels bring their own CUDA libraries, so no toolkit is needed."),
        ))

    # --- PyTorch in the chosen environment ---
    out += torch_findings(facts, rules, gpu, gen, driver, driver_ok, os_name, python)

    # --- Windows checks ---
    if facts.windows is not None:
        from services.setup.windows import windows_findings

        out += windows_findings(facts.windows, rules)

    order = {s: i for i, s in enumerate(SEVERITIES)}
    out.sort(key=lambda f: order.get(f.severity, 9))
    return DoctorReport(facts, gpu, tuple(out), rules.version, machine)


# Findings that already say why the driver does not answer.
DRIVER_EXPLAINED = {"nouveau_in_use", "driver_not_installed", "secure_boot_blocks_module", "module_not_loaded",
                    "driver_library_mismatch", "nvidia_smi_failed", "device_permission", "wrong_module_flavor"}
NVML_NO_PERMISSION = 4  # NVML_ERROR_NO_PERMISSION (nvml.h)


def _permission_findings(facts: MachineFacts) -> list[Finding]:
    """Linux: device files this user may not open (NVML's 'Insufficient Permissions')."""
    perms = facts.permissions
    if perms is None or facts.os_name != "linux":
        return []
    blocked = perms.blocked
    nvml_refused = facts.nvml is not None and facts.nvml.error_code == NVML_NO_PERMISSION
    if not blocked and not nvml_refused:
        return []
    if not blocked:
        return [Finding(
            "device_permission", "error",
            translate("Doctor", "NVML refuses access to the GPU (insufficient permissions)"),
            translate("Doctor", "The device files /dev/nvidia* look usable, so the refusal comes from elsewhere: a container started without the GPU (docker run --gpus all), or a security module. Run the app as the user who owns the session."),
        )]
    node = blocked[0]
    paths = ", ".join(n.path for n in blocked)
    fixes: list[Fix] = []
    if node.gid != 0:
        fixes.append(Fix(translate("Doctor", "Add yourself to the '{group}' group, then log out and back in").format(group=node.group),
                         (("sudo", "usermod", "-aG", node.group, perms.user),)))
    fixes.append(Fix(translate("Doctor", "Or let every user open them: set NVreg_DeviceFileMode=0666 in a file under /etc/modprobe.d, then reboot"),
                     (("sudo", "grep", "-r", "NVreg_DeviceFile", "/etc/modprobe.d", "/usr/lib/modprobe.d"),)))
    return [Finding(
        "device_permission", "error",
        translate("Doctor", "You may not open the GPU's device files ({paths})").format(paths=paths),
        translate("Doctor", "{path} has mode {mode} and group '{group}', and {user} is not allowed to read and write it, so NVML and CUDA report 'Insufficient Permissions'. The NVIDIA module sets these from its NVreg_DeviceFileMode and NVreg_DeviceFileGID options.").format(
            path=node.path, mode=f"{node.mode:04o}", group=node.group, user=perms.user or "-"),
        tuple(fixes),
    )]


def _flavor_word(flavor: str | None) -> Msg:
    if flavor == "open":
        return translate("Doctor", "open")
    return translate("Doctor", "proprietary")
