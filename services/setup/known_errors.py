"""More of the error messages users paste most, each with its cause and fix per platform.

The troubleshooter (``services/setup/troubleshoot.py``) matches its older patterns first; these answers are
table rows, not code, because each is one message, one cause and a fix that does not depend on the doctor's
report. The sources are named beside each row: NVIDIA's CUDA Runtime API error list
(https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html), the CUDA Compatibility guide
(https://docs.nvidia.com/deploy/cuda-compatibility/), the Fabric Manager user guide
(https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/), the NVIDIA Container Toolkit's
troubleshooting page (https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/troubleshooting.html),
Microsoft's TDR registry keys (https://learn.microsoft.com/windows-hardware/drivers/display/tdr-registry-keys),
PyTorch's Windows FAQ (https://pytorch.org/docs/stable/notes/windows.html) and the issue threads quoted per row.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from services.i18n import Msg, translate
from services.setup.findings import Fix


@dataclass(frozen=True, slots=True)
class KnownError:
    code: str
    pattern: re.Pattern[str]
    title: Msg
    cause: Msg
    fixes: tuple[Fix, ...] = ()
    # Where the cause and fix differ on Windows; None: the same answer everywhere.
    windows_cause: Msg | None = None
    windows_fixes: tuple[Fix, ...] | None = None


def _p(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE | re.DOTALL)


def known_errors() -> tuple[KnownError, ...]:
    """Built on each call so the texts follow the current language (they are small)."""
    return (
        # Device Manager's CM_PROB_FAILED_POST_START; https://learn.microsoft.com/windows-hardware/drivers/install/cm-prob-failed-post-start
        KnownError("code_43", _p(r"\bcode\s+43\b|\(code\s*43\)|代码\s*43"),
            translate("Troubleshooter", "Windows stopped the card: Code 43"),
            translate("Troubleshooter", "Code 43 is Device Manager saying the driver started and then reported a failure. On Linux there is no Code 43; it appears there only inside a Windows virtual machine that was given the card."),
            (Fix(translate("Troubleshooter", "See the display adapters and their problem code"), (("pnputil", "/enum-devices", "/class", "Display"),)),),
            windows_cause=translate("Troubleshooter", "Code 43 is Device Manager saying the driver started and then reported a failure. The usual causes: a damaged or mixed driver install (often after Windows Update replaced part of it), a card that lacks power (check every power connector) or a failing card. First do the clean reinstall with DDU in Safe Mode and NVIDIA's offline package; if Code 43 stays, test the card in another PC or slot."),
            windows_fixes=(Fix(translate("Troubleshooter", "See the display adapters and their problem code"), (("pnputil", "/enum-devices", "/class", "Display"),)),
                           Fix(translate("Troubleshooter", "Start the clean reinstall with DDU (setup wizard)"), step="block-driver-updates"))),
        # nvidia-smi ships with the driver (Linux: the distribution's utils package; Windows DCH drivers: System32).
        KnownError("smi_not_found", _p(r"nvidia-smi: (command )?not found|'nvidia-smi' is not recognized|nvidia-smi.{0,40}(无法将|不是内部或外部命令)|command 'nvidia-smi' not found"),
            translate("Troubleshooter", "nvidia-smi is not installed"),
            translate("Troubleshooter", "nvidia-smi comes with the NVIDIA driver. If it is missing, the driver is not installed, or only the kernel module is (Ubuntu and Debian put nvidia-smi in a separate utils package, e.g. nvidia-utils-580). Install the driver with the setup wizard; the doctor says which part is missing."),
            (Fix(translate("Troubleshooter", "Install the driver (setup wizard)"), step="install-driver"),),
            windows_cause=translate("Troubleshooter", "nvidia-smi comes with the NVIDIA driver: current drivers put nvidia-smi.exe in C:\\Windows\\System32, old ones in C:\\Program Files\\NVIDIA Corporation\\NVSMI (which is not on PATH). If it is in neither folder, the NVIDIA driver is not installed (Windows may be using its basic display driver)."),
            windows_fixes=(Fix(translate("Troubleshooter", "Look for nvidia-smi.exe"), (("where", "nvidia-smi"),)),
                           Fix(translate("Troubleshooter", "Install the driver (setup wizard)"), step="install-driver"))),
        # cudaErrorCompatNotSupportedOnDevice = 804 (CUDA Runtime API); forward compatibility is for data-centre
        # GPUs only (CUDA Compatibility guide, "Forward Compatibility", supported hardware).
        KnownError("compat_804", _p(r"forward compatibility was attempted on non supported hw|cudaErrorCompatNotSupportedOnDevice|CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE|error\s*(code\s*)?804\b"),
            translate("Troubleshooter", "CUDA's forward-compatibility package is loaded on a card that does not support it (error 804)"),
            translate("Troubleshooter", "A cuda-compat library (a newer libcuda.so meant for data-centre GPUs) is loaded instead of the driver's own. GeForce and most RTX workstation cards do not support forward compatibility. It comes from a cuda-compat-XX-Y package, an LD_LIBRARY_PATH entry such as /usr/local/cuda/compat, or a container image that enables it. Remove that package or path so the driver's libcuda.so is used; if the program needs a newer CUDA than the driver supports, update the driver instead."),
            (Fix(translate("Troubleshooter", "See which libcuda.so is found"), (("ldconfig", "-p"),)),
             Fix(translate("Troubleshooter", "Update the driver (setup wizard)"), step="install-driver"))),
        # cudaErrorSystemNotReady = 802 (CUDA Runtime API); NVSwitch systems need nvidia-fabricmanager of the
        # driver's exact version (Fabric Manager user guide).
        KnownError("fabric_802", _p(r"system not yet initialized|cudaErrorSystemNotReady|CUDA_ERROR_SYSTEM_NOT_READY|error\s*(code\s*)?802\b"),
            translate("Troubleshooter", "The GPUs' NVSwitch fabric is not ready (error 802)"),
            translate("Troubleshooter", "On servers whose GPUs are joined by NVSwitch (HGX/DGX boards with 4 or 8 GPUs), CUDA waits for NVIDIA Fabric Manager. Error 802 means its service is not running, or its version differs from the driver's. Install nvidia-fabricmanager of exactly the driver's version and start it. Desktop RTX cards have no NVSwitch: there this error means the driver install is incomplete."),
            (Fix(translate("Troubleshooter", "Check the Fabric Manager service"), (("systemctl", "status", "nvidia-fabricmanager"),)),
             Fix(translate("Troubleshooter", "Start it now and at every boot"), (("systemctl", "enable", "--now", "nvidia-fabricmanager"),)))),
        # The driver ships libcuda only; libcudart comes with the CUDA toolkit or a pip wheel (nvidia-cuda-runtime-cuXX).
        KnownError("libcudart_missing", _p(r"libcudart\.so(\.\d+)*[^\n]{0,80}cannot open shared object file|could not load dynamic library 'libcudart|cudart64_\d+\.dll[^\n]{0,80}not found"),
            translate("Troubleshooter", "The CUDA runtime library is missing"),
            translate("Troubleshooter", "libcudart (the CUDA runtime) is not part of the driver: it comes with the CUDA toolkit or with a Python wheel. PyTorch brings its own; other programs (TensorFlow, llama.cpp builds, compiled extensions) need the runtime of the CUDA major version they were built for, e.g. libcudart.so.12 for CUDA 12. Install that CUDA toolkit or the pip package nvidia-cuda-runtime-cu12 in the same environment, and make sure the folder is on the library path."),
            (Fix(translate("Troubleshooter", "See which CUDA runtimes are installed"), (("ldconfig", "-p"),)),)),
        # libcuda.so.1 is the driver's user-space library. WSL2 maps it in /usr/lib/wsl/lib (Microsoft/NVIDIA CUDA on
        # WSL guide); containers get it from the NVIDIA Container Toolkit (--gpus).
        KnownError("libcuda_missing", _p(r"libcuda\.so(\.1)?[^\n]{0,80}cannot open shared object file|could not load dynamic library 'libcuda\.so|nvcuda\.dll[^\n]{0,80}not found"),
            translate("Troubleshooter", "The driver's CUDA library is missing"),
            translate("Troubleshooter", "libcuda.so.1 belongs to the NVIDIA driver. It is missing when the driver is not installed; under WSL2 when /usr/lib/wsl/lib is not on the library path (never install a Linux driver inside WSL2: Windows' driver provides it); in a container started without the NVIDIA Container Toolkit (docker run --gpus all)."),
            (Fix(translate("Troubleshooter", "See whether the library is known"), (("ldconfig", "-p"),)),
             Fix(translate("Troubleshooter", "Install the driver (setup wizard)"), step="install-driver"))),
        # cuBLAS creates its handle (and workspace) on first use: most often this fails for lack of memory.
        KnownError("cublas_init", _p(r"CUBLAS_STATUS_NOT_INITIALIZED|CUBLAS_STATUS_ALLOC_FAILED|cublasCreate\(handle\)"),
            translate("Troubleshooter", "cuBLAS could not start: usually the GPU is out of memory"),
            translate("Troubleshooter", "cuBLAS allocates its workspace the first time a program multiplies matrices. When the GPU is already full (another process, or this program's own tensors) that fails with CUBLAS_STATUS_NOT_INITIALIZED or ALLOC_FAILED rather than 'out of memory'. See what holds the memory and make the job smaller. Less often, a CUDA toolkit on LD_LIBRARY_PATH puts a different cuBLAS in front of PyTorch's own: unset LD_LIBRARY_PATH and try again."),
            (Fix(translate("Troubleshooter", "See what else uses the GPU"), (("nvidia-smi",),)),)),
        KnownError("cudnn_init", _p(r"CUDNN_STATUS_NOT_INITIALIZED|CUDNN_STATUS_INTERNAL_ERROR|CUDNN_STATUS_ALLOC_FAILED"),
            translate("Troubleshooter", "cuDNN could not start: usually the GPU is out of memory"),
            translate("Troubleshooter", "cuDNN reports a failed start when the GPU has no memory left for its workspace, and sometimes when an older cuDNN from the system is loaded in place of the one PyTorch ships. Free GPU memory or make the job smaller; unset LD_LIBRARY_PATH if it points at a CUDA toolkit."),
            (Fix(translate("Troubleshooter", "See what else uses the GPU"), (("nvidia-smi",),)),)),
        # NVIDIA Container Toolkit troubleshooting: "Containers losing access to GPUs with error: Failed to
        # initialize NVML: Unknown Error" (systemd cgroup driver + daemon-reload).
        KnownError("nvml_unknown", _p(r"failed to initialize nvml: unknown error"),
            translate("Troubleshooter", "NVML lost the GPU inside a container"),
            translate("Troubleshooter", "A known problem of containers with the systemd cgroup driver: after the host runs 'systemctl daemon-reload' (package updates do), a running container loses access to /dev/nvidia*. Restarting the container restores it; NVIDIA's container-toolkit guide gives the lasting fix (create the /dev/char symlinks with 'nvidia-ctk system create-dev-char-symlinks' or use the cgroupfs driver). Outside a container this message points at permissions on /dev/nvidia*: the doctor checks them."),
            (Fix(translate("Troubleshooter", "Create the device symlinks on the host"), (("nvidia-ctk", "system", "create-dev-char-symlinks", "--create-all"),)),)),
        KnownError("docker_no_gpu", _p(r"could not select device driver \"?\"? with capabilities: \[\[gpu\]\]|unknown or invalid runtime name: nvidia|nvidia-container-cli: initialization error"),
            translate("Troubleshooter", "Docker cannot give the container a GPU"),
            translate("Troubleshooter", "Docker needs the NVIDIA Container Toolkit to pass GPUs into containers ('--gpus all'). Install nvidia-container-toolkit from NVIDIA's repository, register it with Docker ('nvidia-ctk runtime configure --runtime=docker') and restart Docker. 'initialization error' from nvidia-container-cli means the toolkit is there but the host driver is not working: fix the driver first."),
            (Fix(translate("Troubleshooter", "Register the toolkit with Docker"), (("nvidia-ctk", "runtime", "configure", "--runtime=docker"),)),
             Fix(translate("Troubleshooter", "Restart Docker"), (("systemctl", "restart", "docker"),)))),
        # research notes A3.4: Secure Boot rejects the unsigned module ("Key was rejected by service").
        KnownError("key_rejected", _p(r"key was rejected by service|required key not available"),
            translate("Troubleshooter", "Secure Boot refused the NVIDIA kernel module"),
            translate("Troubleshooter", "With Secure Boot on, the kernel loads only signed modules. The NVIDIA module was built on this machine (DKMS) and signed with a key the firmware does not know yet. Enrol the key with mokutil, reboot and confirm it in the blue MOK manager screen, or turn Secure Boot off in the firmware. The setup wizard has the enrolment step."),
            (Fix(translate("Troubleshooter", "See Secure Boot's state"), (("mokutil", "--sb-state"),)),
             Fix(translate("Troubleshooter", "Enrol the module signing key (setup wizard)"), step="enroll-mok"))),
        # cudaErrorLaunchTimeout = 702; Windows' TDR resets a GPU that does not answer within TdrDelay (2 s default).
        KnownError("launch_timeout", _p(r"the launch timed out and was terminated|cudaErrorLaunchTimeout|CUDA_ERROR_LAUNCH_TIMEOUT"),
            translate("Troubleshooter", "A GPU kernel ran too long and was stopped"),
            translate("Troubleshooter", "On a GPU that also drives a display, the system resets any GPU task that takes more than a few seconds so the screen does not freeze. Run compute on a GPU without a monitor attached, or make each step shorter (smaller batch)."),
            (),
            windows_cause=translate("Troubleshooter", "Windows' Timeout Detection and Recovery (TDR) resets a GPU that does not answer within 2 seconds. A long CUDA kernel on the GPU that drives the display hits it. Run on a GPU without a monitor, make each step shorter, or raise TdrDelay in the registry (Microsoft's TDR registry keys; restart after changing it)."),
            windows_fixes=()),
        # PyTorch Windows FAQ: "Import error ... DLL load failed" → the Visual C++ Redistributable is missing.
        KnownError("win_dll_missing", _p(r"winerror 126|dll load failed while importing|error loading \"?[^\n\"]*\\(c10|torch_cpu|torch_python|fbgemm|cudnn[^\\\n\"]*|shm)\.dll"),
            translate("Troubleshooter", "A DLL PyTorch needs could not be loaded"),
            translate("Troubleshooter", "On Windows this usually means the Microsoft Visual C++ Redistributable (2015-2022, x64) is missing or broken; PyTorch's Windows notes name it first. Install it, then open a new terminal. If it still fails, reinstall torch in a fresh virtual environment (a half-finished pip install leaves DLLs out)."),
            (Fix(translate("Troubleshooter", "Install the Visual C++ Redistributable"), (("winget", "install", "Microsoft.VCRedist.2015+.x64"),)),)),
        # pip's message when no wheel matches this Python (version, 32-bit) or platform.
        KnownError("no_torch_wheel", _p(r"(could not find a version that satisfies the requirement|no matching distribution found for) torch\b"),
            translate("Troubleshooter", "No PyTorch build for this Python"),
            translate("Troubleshooter", "PyTorch publishes wheels for 64-bit CPython of recent versions only. A Python that is too new (before PyTorch catches up), too old, or 32-bit finds nothing to install. The doctor shows which Python this is; make a virtual environment with a supported version and install there."),
            ()),
        # nvcc lists the architectures it knows; sm_120 (RTX 50) needs CUDA 12.8 or newer (CUDA 12.8 release notes).
        KnownError("nvcc_arch", _p(r"unsupported gpu architecture '?compute_(\d+)'?"),
            translate("Troubleshooter", "This CUDA toolkit is older than your GPU"),
            translate("Troubleshooter", "nvcc does not know the architecture it was asked to compile for. RTX 50 cards (compute_120) need CUDA 12.8 or newer; RTX 40 (compute_89) need 11.8. Install a newer CUDA toolkit, or set TORCH_CUDA_ARCH_LIST to architectures this nvcc knows when building an extension."),
            ()),
        # cudaErrorNoDevice = 100: no device visible to CUDA (CUDA_VISIBLE_DEVICES, container without --gpus).
        KnownError("no_cuda_device", _p(r"no cuda-capable device is detected|cudaErrorNoDevice|CUDA_ERROR_NO_DEVICE"),
            translate("Troubleshooter", "CUDA sees no GPU"),
            translate("Troubleshooter", "The driver may be fine while CUDA is told to see nothing: CUDA_VISIBLE_DEVICES set to an empty or wrong value, a container started without '--gpus all', or a laptop whose NVIDIA GPU is switched off in the firmware or by the graphics mode. If nvidia-smi lists the card, look at CUDA_VISIBLE_DEVICES first."),
            (Fix(translate("Troubleshooter", "See the GPUs the driver knows"), (("nvidia-smi", "-L"),)),)),
    )


# Programs that exist on one platform only: a fix that runs one is not offered on the other.
LINUX_ONLY = frozenset({"ldconfig", "systemctl", "mokutil", "nvidia-ctk", "modprobe", "dkms", "lsmod"})
WINDOWS_ONLY = frozenset({"pnputil", "where", "winget", "shutdown"})


def _runs_on(fix: Fix, system: str) -> bool:
    wrong = LINUX_ONLY if system == "windows" else WINDOWS_ONLY
    return not any(command and command[0] in wrong for command in fix.commands)


def match_known(text: str, system: str) -> list[tuple[str, Msg, Msg, tuple[Fix, ...]]]:
    """(code, title, cause, fixes) for each row whose pattern is in ``text``, answered for ``system``
    ('linux' | 'windows'); fixes that run a program the other platform alone has are left out."""
    found = []
    for row in known_errors():
        if not row.pattern.search(text or ""):
            continue
        windows = system == "windows" and row.windows_cause is not None
        cause = row.windows_cause if windows and row.windows_cause is not None else row.cause
        fixes = row.windows_fixes if windows and row.windows_fixes is not None else row.fixes
        found.append((row.code, row.title, cause, tuple(f for f in fixes if _runs_on(f, system))))
    return found
