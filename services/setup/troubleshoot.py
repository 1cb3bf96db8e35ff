"""The troubleshooter: paste an error message, get its cause and the fix,
tied to what the doctor found on this machine when a report is at hand."""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from services.i18n import Msg, translate
from services.setup.doctor_report import DoctorReport
from services.setup.findings import Fix
from services.setup.known_errors import match_known
from services.setup.probes import cuda_from_driver_int


@dataclass(frozen=True, slots=True)
class Diagnosis:
    code: str
    title: Msg
    cause: Msg
    fixes: tuple[Fix, ...] = ()
    on_this_machine: tuple[Msg, ...] = ()  # what the doctor's report adds

    def to_json(self) -> dict:
        return {
            "code": self.code, "title": str(self.title), "cause": str(self.cause),
            "fixes": [{"label": str(f.label), "commands": [list(c) for c in f.commands], "step": f.step} for f in self.fixes],
            "on_this_machine": [str(m) for m in self.on_this_machine],
        }


# (code, pattern); the first match in this order wins for overlapping messages.
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((c, re.compile(p, re.IGNORECASE | re.DOTALL)) for c, p in (
    ("nvml_mismatch", r"driver/library version mismatch|nvml.{0,40}version mismatch"),
    ("no_driver_comm", r"couldn't communicate with the nvidia driver|nvidia-smi has failed"),
    ("no_driver", r"found no nvidia driver on your system|no cuda gpus are available|nvidia driver is not loaded"),
    ("driver_insufficient", r"driver version is insufficient for cuda runtime|driver on your system is too old|cudaErrorInsufficientDriver"),
    ("unsupported_ptx", r"unsupported ptx version|CUDA_ERROR_UNSUPPORTED_PTX_VERSION|provided PTX was compiled with an unsupported toolchain"),
    ("no_kernel_image", r"no kernel image is available|is not compatible with the current pytorch installation"),
    ("invalid_device_function", r"invalid device function"),
    ("cpu_build", r"torch not compiled with cuda enabled"),
    ("cuda_oom", r"cuda out of memory|outofmemoryerror|cuda error: out of memory"),
    ("winerror_1455", r"winerror 1455|paging file is too small"),
    ("win_0x80070002", r"0x80070002"),
    ("basic_display", r"microsoft basic display adapter|basic render driver"),
    ("fell_off_bus", r"fallen off the bus|xid[^\n]{0,20}\b79\b|unable to determine the device handle for gpu"),
    ("device_assert", r"device-side assert triggered"),
    ("illegal_memory", r"an illegal memory access was encountered"),
))


def explain(text: str, report: DoctorReport | None = None, system: str | None = None) -> list[Diagnosis]:
    """Every known problem in ``text`` (usually one), most specific first, answered for ``system``
    ('linux' | 'windows'): the doctor's report says which, else the platform this runs on."""
    if system is None:
        system = report.facts.os_name if report else ("windows" if sys.platform == "win32" else "linux")
    found = []
    for code, pattern in PATTERNS:
        m = pattern.search(text or "")
        if m:
            found.append(_diagnose_windows(code, report) if system == "windows" and code in WINDOWS_ANSWERS
                         else _diagnose(code, text, report))
    for code, title, cause, fixes in match_known(text, system):
        found.append(Diagnosis(code, title, cause, fixes, _works_now(code, report)))
    return [d if d.on_this_machine or not _works_now(d.code, report) else
            Diagnosis(d.code, d.title, d.cause, d.fixes, _works_now(d.code, report)) for d in found]


# Messages that say the driver (or PyTorch) does not work: when the doctor's report shows that it does now,
# the answer says so first, since the pasted text is then old or from another machine.
DRIVER_CODES = frozenset({"nvml_mismatch", "no_driver_comm", "no_driver", "basic_display", "code_43", "smi_not_found",
                          "libcuda_missing", "key_rejected", "no_cuda_device"})
TORCH_CODES = frozenset({"cpu_build", "no_kernel_image", "invalid_device_function", "driver_insufficient", "win_dll_missing",
                         "libcudart_missing", "no_torch_wheel"})


def _works_now(code: str, report: DoctorReport | None) -> tuple[Msg, ...]:
    if report is None:
        return ()
    if code in TORCH_CODES:
        return tuple(translate("Troubleshooter", "On this machine now: {finding}. The message is from before, or from another environment.").format(finding=f.title)
                     for f in report.findings if f.code == "torch_ok")
    if code in DRIVER_CODES:
        return tuple(translate("Troubleshooter", "On this machine now: {finding}. The message is from before, or from another machine.").format(finding=f.title)
                     for f in report.findings if f.code == "driver_ok")
    return ()


# Problems whose cause and fix differ on Windows (no kernel modules, DKMS, MOK or nouveau there).
WINDOWS_ANSWERS = frozenset({"nvml_mismatch", "no_driver_comm", "no_driver", "fell_off_bus"})
# Sources for the Windows answers: ../shared/research/setup-and-hybrid.md A4.1 (DDU Readme.txt: use it to
# repair a broken install, in Safe Mode), A4.3 (offline package, "Perform a clean installation"), A4.4
# (nvidia-smi and nvml.dll in System32 with DCH drivers); Code 43 is Device Manager's CM_PROB_FAILED_POST_START,
# https://learn.microsoft.com/windows-hardware/drivers/install/cm-prob-failed-post-start ; pnputil
# /enum-devices (Windows 10 2004+), https://learn.microsoft.com/windows-hardware/drivers/devtest/pnputil-command-syntax
WINDOWS_LOOK = ("pnputil", "/enum-devices", "/class", "Display")


def _diagnose_windows(code: str, report: DoctorReport | None) -> Diagnosis:
    if code == "nvml_mismatch":
        return Diagnosis(code,
            translate("Troubleshooter", "The driver was updated but Windows still runs the old one"),
            translate("Troubleshooter", "nvidia-smi and CUDA load the new driver's nvml.dll, which refuses to talk to the driver still running since before the update (often an update by Windows Update). Restart Windows; if it comes back, keep Windows Update from replacing the driver (setup wizard)."),
            (Fix(translate("Troubleshooter", "Restart Windows"), (("shutdown", "/r", "/t", "0"),)),
             Fix(translate("Troubleshooter", "Keep Windows Update from replacing the driver (setup wizard)"), step="block-driver-updates")),
            _machine_lines(report, "driver_library_mismatch"))
    if code in ("no_driver_comm", "no_driver"):
        return Diagnosis(code,
            translate("Troubleshooter", "Windows has no working NVIDIA driver"),
            translate("Troubleshooter", "The usual reasons on Windows: the driver is not installed (Windows shows 'Microsoft Basic Display Adapter'); Device Manager stopped the card with error Code 43 after the driver failed to start; or Windows Update replaced or half removed the driver. First reinstall the driver with NVIDIA's full offline package, choosing 'Custom (Advanced)' and 'Perform a clean installation'. If that does not help, do the clean reinstall: block Windows Update drivers, remove the old driver with DDU in Safe Mode, then install the offline package."),
            (Fix(translate("Troubleshooter", "See the display adapters and their problem code (43: the driver failed to start)"), (WINDOWS_LOOK,)),
             Fix(translate("Troubleshooter", "Reinstall the driver as a clean installation (setup wizard)"), step="install-driver"),
             Fix(translate("Troubleshooter", "Start the clean reinstall with DDU (setup wizard)"), step="block-driver-updates")),
            _machine_lines(report, "driver_not_installed", "no_nvidia_gpu"))
    return Diagnosis(code,  # fell_off_bus
        translate("Troubleshooter", "The GPU stopped responding"),
        translate("Troubleshooter", "This is a hardware-level failure, not a setup problem: check the power cables and connectors, reseat the card, and look at power draw and temperature before the crash (the Dashboard records them). Windows may then show the card with error Code 43 in Device Manager until the next restart."))


def _finding_fixes(report: DoctorReport | None, *codes: str) -> tuple[Fix, ...]:
    if report is None:
        return ()
    for f in report.findings:
        if f.code in codes and f.fixes:
            return f.fixes
    return ()


def _machine_lines(report: DoctorReport | None, *codes: str) -> tuple[Msg, ...]:
    if report is None:
        return ()
    return tuple(translate("Troubleshooter", "This machine: {finding}").format(finding=f.title) for f in report.findings if f.code in codes)


def _diagnose(code: str, text: str, report: DoctorReport | None) -> Diagnosis:
    facts = report.facts if report else None
    if code == "nvml_mismatch":
        return Diagnosis(code,
            translate("Troubleshooter", "The driver was updated but the old kernel module is still running"),
            translate("Troubleshooter", "NVML (and with it nvidia-smi and CUDA) refuses to talk to a kernel module of another version. This happens after a driver update, often an automatic one."),
            _finding_fixes(report, "driver_library_mismatch") or (Fix(translate("Troubleshooter", "Reboot"), (("systemctl", "reboot"),)),),
            _machine_lines(report, "driver_library_mismatch"))
    if code in ("no_driver_comm", "no_driver"):
        return Diagnosis(code,
            translate("Troubleshooter", "The NVIDIA kernel module is not loaded"),
            translate("Troubleshooter", "The usual reasons: the driver is not installed; the kernel was updated and the module was not rebuilt (missing headers); Secure Boot rejected the unsigned module; or nouveau took the card. The doctor tells which one applies here."),
            _finding_fixes(report, "nouveau_in_use", "driver_not_installed", "secure_boot_blocks_module", "module_not_loaded")
            or (Fix(translate("Troubleshooter", "Find out why"), (("dkms", "status"), ("mokutil", "--sb-state"), ("lsmod",))),),
            _machine_lines(report, "nouveau_in_use", "driver_not_installed", "secure_boot_blocks_module", "module_not_loaded", "no_nvidia_gpu"))
    if code == "driver_insufficient":
        m = re.search(r"found version (\d{4,6})", text)
        lines = list(_machine_lines(report, "driver_too_old_for_torch", "driver_minor_compat"))
        if m:
            lines.insert(0, translate("Troubleshooter", "The driver in the message supports CUDA up to {cuda}.").format(cuda=cuda_from_driver_int(int(m.group(1)))))
        return Diagnosis(code,
            translate("Troubleshooter", "The driver is older than the CUDA version PyTorch was built with"),
            translate("Troubleshooter", "Each CUDA version needs a minimum driver. Either update the driver, or install the PyTorch build for an older CUDA that your driver supports."),
            _finding_fixes(report, "driver_too_old_for_torch") or (Fix(translate("Troubleshooter", "Update the driver (setup wizard)"), step="install-driver"),),
            tuple(lines))
    if code == "unsupported_ptx":
        return Diagnosis(code,
            translate("Troubleshooter", "The driver cannot compile code made by a newer CUDA"),
            translate("Troubleshooter", "PTX from a newer CUDA toolkit cannot be JIT-compiled by an older driver. Update the driver."),
            (Fix(translate("Troubleshooter", "Update the driver (setup wizard)"), step="install-driver"),),
            _machine_lines(report, "driver_too_old_for_torch", "driver_minor_compat"))
    if code in ("no_kernel_image", "invalid_device_function"):
        lines = list(_machine_lines(report, "torch_arch_missing"))
        if report and report.gpu and report.gpu.sm:
            lines.append(translate("Troubleshooter", "Your card is {sm}.").format(sm=report.gpu.sm))
        return Diagnosis(code,
            translate("Troubleshooter", "This PyTorch (or extension) has no code for your GPU"),
            translate("Troubleshooter", "The library was built for other GPU architectures. RTX 50 cards (sm_120) need PyTorch 2.7 or newer built with CUDA 12.8 or later; GTX 10 and 900 cards need the cu126 build. A custom CUDA extension must be rebuilt for your card."),
            _finding_fixes(report, "torch_arch_missing", "torch_matmul_failed"),
            tuple(lines))
    if code == "cpu_build":
        return Diagnosis(code,
            translate("Troubleshooter", "This is a CPU-only build of PyTorch"),
            translate("Troubleshooter", "It was installed without PyTorch's CUDA index (on Windows, plain 'pip install torch' gives the CPU build). Reinstall from the index for your card."),
            _finding_fixes(report, "torch_cpu_build", "torch_missing"),
            _machine_lines(report, "torch_cpu_build"))
    if code == "cuda_oom":
        lines = []
        m = re.search(r"Tried to allocate ([\d.]+ [KMG]iB).*?total capacity of ([\d.]+ [KMG]iB) of which ([\d.]+ [KMG]iB) is free", text, re.DOTALL)
        if m:
            lines.append(translate("Troubleshooter", "It asked for {want} while only {free} of {total} was free.").format(want=m.group(1), free=m.group(3), total=m.group(2)))
        if re.search(r"reserved but unallocated", text, re.IGNORECASE):
            lines.append(translate("Troubleshooter", "PyTorch says much memory is reserved but unused (fragmentation): set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True before starting."))
        if report is not None and facts is not None and facts.windows is not None:
            lines += [translate("Troubleshooter", "This machine: {finding}").format(finding=f.title) for f in report.findings if f.code == "win_gpu_memory_spill"]
        return Diagnosis(code,
            translate("Troubleshooter", "The GPU ran out of memory"),
            translate("Troubleshooter", "The model, its activations and the optimizer state did not fit. Lower the batch size or resolution, use bf16/fp16, enable gradient checkpointing, or pick a smaller or quantized model. Close other programs using the GPU (nvidia-smi lists them). 'Model fit' estimates what fits."),
            (Fix(translate("Troubleshooter", "See what else uses the GPU"), (("nvidia-smi",),)),),
            tuple(lines))
    if code == "winerror_1455":
        return Diagnosis(code,
            translate("Troubleshooter", "Windows' page file is too small"),
            translate("Troubleshooter", "Loading CUDA's DLLs reserves a lot of virtual memory, which Windows backs with the page file. Let Windows manage the page file size (or raise its maximum), then reboot."),
            (),
            _machine_lines(report, "win_no_pagefile", "win_pagefile_fixed"))
    if code == "win_0x80070002":
        return Diagnosis(code,
            translate("Troubleshooter", "The driver installer could not find its files (0x80070002)"),
            translate("Troubleshooter", "0x80070002 is Windows' 'file not found'. For a driver install it usually means the old driver was half removed or Windows Update installed its own driver at the same time. A clean reinstall fixes it: block Windows Update drivers, remove the old driver with DDU in Safe Mode, then run the full offline package."),
            (Fix(translate("Troubleshooter", "Start the clean reinstall (setup wizard)"), step="block-driver-updates"),))
    if code == "basic_display":
        return Diagnosis(code,
            translate("Troubleshooter", "Windows fell back to its basic display driver"),
            translate("Troubleshooter", "The NVIDIA driver failed to load, so Windows uses the Microsoft Basic Display Adapter (low resolution, no CUDA). Reinstall the driver cleanly."),
            (Fix(translate("Troubleshooter", "Start the clean reinstall (setup wizard)"), step="block-driver-updates"),))
    if code == "fell_off_bus":
        return Diagnosis(code,
            translate("Troubleshooter", "The GPU stopped responding on the PCIe bus"),
            translate("Troubleshooter", "This is a hardware-level failure, not a setup problem: check the power cables and connectors, reseat the card, and look at power draw and temperature before the crash (the Dashboard records them)."))
    if code == "device_assert":
        return Diagnosis(code,
            translate("Troubleshooter", "A check inside a GPU kernel failed"),
            translate("Troubleshooter", "Usually a bug in the program or data (for example a class label outside the range of the model's outputs), not the driver. Run once with CUDA_LAUNCH_BLOCKING=1 to see the line that failed."))
    return Diagnosis(code,
        translate("Troubleshooter", "A GPU kernel read or wrote memory it should not"),
        translate("Troubleshooter", "Usually a bug in the program or a custom extension; if it also happens with known-good code, test the card for stability (clocks, temperature, power)."))


def no_match_message() -> Msg:
    return translate("Troubleshooter", "No known problem in this text. Paste the whole error, including the lines just above it, or run the doctor.")
