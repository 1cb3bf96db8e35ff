"""Read-only probes of the machine: OS, GPUs, kernel module, Secure Boot, NVML,
nvidia-smi and the user's Python environment. Each returns a plain dataclass;
parsing is separate from reading so tests feed recorded output in real formats.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.nvml_devices import list_devices
from services.setup.system import CommandResult, Runner, SystemRoot

NVIDIA_VENDOR = "10de"
DISPLAY_CLASSES = ("0300", "0302", "0380")  # VGA, 3D controller, other display


# ---- OS ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class OsInfo:
    system: str  # 'linux' | 'windows' | other platform name
    id: str = ""
    id_like: tuple[str, ...] = ()
    version_id: str = ""
    codename: str = ""
    pretty_name: str = ""
    kernel: str = ""
    base_codename: str = ""  # UBUNTU_CODENAME on Ubuntu derivatives (Mint 22 -> noble)

    @property
    def family(self) -> str:
        """ubuntu | debian | fedora | rhel | suse | arch | windows | unsupported.

        From ID and the ID_LIKE chain (os-release(5)): Rocky/Alma say 'rhel centos
        fedora', Oracle Linux and Amazon Linux 2023 only 'fedora', Mageia 'mandriva
        fedora' -- so Red Hat rebuilds are matched by name before the fedora test."""
        if self.system == "windows":
            return "windows"
        ids = (self.id, *self.id_like)
        if "ubuntu" in ids:  # Ubuntu, Mint, Pop!_OS (ID_LIKE carries ubuntu)
            return "ubuntu"
        if "debian" in ids:
            return "debian"
        if self.id in RHEL_IDS or "rhel" in self.id_like or "centos" in self.id_like:
            return "rhel"
        if "mandriva" in ids or self.id in ("mageia", "openmandriva"):
            return "unsupported"  # RPM-based but not Fedora's repositories
        if self.id == "fedora" or "fedora" in self.id_like:
            return "fedora"
        if "suse" in ids or self.id.startswith(("opensuse", "sles", "sle")):
            return "suse"
        if "arch" in ids:
            return "arch"
        return "unsupported"

    @property
    def initramfs_tool(self) -> str | None:
        """dracut | update-initramfs | mkinitcpio, when the family says which."""
        ids = (self.id, *self.id_like)
        if self.family in ("ubuntu", "debian"):
            return "update-initramfs"
        if self.family in ("fedora", "rhel", "suse") or any(i in ids for i in ("mageia", "mandriva", "openmandriva", "void")):
            return "dracut"
        if self.family == "arch":
            return "mkinitcpio"
        return None


# Red Hat Enterprise Linux and its rebuilds, by os-release ID (their ID_LIKE may say only 'fedora').
RHEL_IDS = ("rhel", "centos", "rocky", "almalinux", "ol", "amzn", "cloudlinux", "eurolinux", "navy", "circle",
            "virtuozzo", "scientific")


# os-release(5) values are short (a name, a URL); a line longer than this is not one, and shlex
# takes quadratic time on it (a 5 MB line took 45 s). Such lines are skipped by the parser; a file
# the user names (setup --os-release) is refused with the line's number (cli.setup.read_os_release, with os_release_long_line).
OS_RELEASE_MAX_LINE = 4096
# A real os-release is well under a kilobyte; a file the user names is read up to this much.
OS_RELEASE_MAX_BYTES = 64 * 1024


def os_release_long_line(text: str) -> int | None:
    """The number (from 1) of the first line of ``text`` the parser would skip as too long, or None."""
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > OS_RELEASE_MAX_LINE:
            return number
    return None


def parse_os_release(text: str, kernel: str = "") -> OsInfo:
    values: dict[str, str] = {}
    for line in text.splitlines():
        if len(line) > OS_RELEASE_MAX_LINE:
            continue
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, raw = line.partition("=")
        try:
            parts = shlex.split(raw)
        except ValueError:
            parts = [raw.strip("\"'")]
        values[key.strip()] = parts[0] if parts else ""
    codename = values.get("VERSION_CODENAME") or values.get("UBUNTU_CODENAME", "")
    # Debian testing/unstable has no VERSION_ID; the codename is in VERSION or PRETTY_NAME.
    if not codename:
        m = re.search(r"\(([a-z]+)\)", values.get("VERSION", "") + values.get("PRETTY_NAME", ""))
        codename = m.group(1) if m else ""
    return OsInfo(
        system="linux",
        id=values.get("ID", "").lower(),
        id_like=tuple(values.get("ID_LIKE", "").lower().split()),
        version_id=values.get("VERSION_ID", ""),
        codename=codename.lower(),
        pretty_name=values.get("PRETTY_NAME", values.get("NAME", "Linux")),
        kernel=kernel,
        base_codename=(values.get("UBUNTU_CODENAME") or codename).lower(),
    )


def read_os(root: SystemRoot, kernel: str = "") -> OsInfo | None:
    for path in ("/etc/os-release", "/usr/lib/os-release"):
        text = root.read_text(path)
        if text is not None:
            return parse_os_release(text, kernel)
    return None


# ---- GPUs -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PciGpu:
    address: str  # '0000:01:00.0'
    vendor_id: str  # '10de'
    device_id: str  # '2684'
    name: str = ""
    driver: str | None = None  # kernel driver in use
    modules: tuple[str, ...] = ()  # kernel modules that could drive it

    @property
    def pci_id(self) -> str:
        return f"{self.vendor_id}:{self.device_id}"

    @property
    def is_nvidia(self) -> bool:
        return self.vendor_id == NVIDIA_VENDOR


def scan_sysfs_gpus(root: SystemRoot) -> list[PciGpu]:
    """Display-class PCI devices from /sys/bus/pci/devices (no lspci needed)."""
    base = root("/sys/bus/pci/devices")
    gpus: list[PciGpu] = []
    try:
        entries = sorted(base.iterdir())
    except OSError:
        return gpus
    for dev in entries:
        cls = _read_hex(dev / "class")
        if cls is None or cls[:4] not in DISPLAY_CLASSES:
            continue
        vendor, device = _read_hex(dev / "vendor"), _read_hex(dev / "device")
        if vendor is None or device is None:
            continue
        driver_link = dev / "driver"
        driver = os.path.basename(os.readlink(driver_link)) if driver_link.is_symlink() else None
        gpus.append(PciGpu(dev.name, vendor[-4:], device[-4:], "", driver))
    return gpus


def _read_hex(path: Path) -> str | None:
    try:
        return path.read_text().strip().lower().removeprefix("0x")
    except OSError:
        return None


_LSPCI_HEAD = re.compile(
    r"^(?P<addr>[0-9a-fA-F:.]+)\s+(?P<cls>[^\[]+)\[(?P<clsid>[0-9a-fA-F]{4})\]:\s+(?P<name>.*)\s\[(?P<ven>[0-9a-fA-F]{4}):(?P<dev>[0-9a-fA-F]{4})\]"
)


def parse_lspci_nnk(text: str) -> list[PciGpu]:
    """Display devices from ``lspci -nnk`` output."""
    gpus: list[PciGpu] = []
    current: dict[str, Any] | None = None

    def flush() -> None:
        if current and current["clsid"][:4] in DISPLAY_CLASSES:
            addr = current["addr"] if current["addr"].count(":") == 2 else "0000:" + current["addr"]
            gpus.append(PciGpu(addr, current["ven"], current["dev"], current["name"], current.get("driver"),
                               tuple(current.get("modules", ()))))

    for line in text.splitlines():
        if line and not line[0].isspace():
            flush()
            m = _LSPCI_HEAD.match(line.strip())
            current = m.groupdict() if m else None
            if current:
                current["ven"], current["dev"] = current["ven"].lower(), current["dev"].lower()
                current["name"] = re.sub(r"\s*\(rev [0-9a-f]+\)$", "", current["name"]).strip()
        elif current is not None:
            s = line.strip()
            if s.startswith("Kernel driver in use:"):
                current["driver"] = s.split(":", 1)[1].strip()
            elif s.startswith("Kernel modules:"):
                current["modules"] = [x.strip() for x in s.split(":", 1)[1].split(",")]
    flush()
    return gpus


def read_gpus(root: SystemRoot, runner: Runner) -> list[PciGpu]:
    """lspci when present (it has names), else sysfs."""
    result = runner.run(["lspci", "-nnk"], timeout=15)
    if result.ok:
        found = parse_lspci_nnk(result.stdout)
        if found:
            return found
    return scan_sysfs_gpus(root)


# ---- kernel module ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class KernelModuleState:
    loaded_version: str | None = None  # from /proc/driver/nvidia/version
    loaded_flavor: str | None = None  # 'open' | 'proprietary'
    nouveau_loaded: bool = False
    installed_version: str | None = None  # modinfo -F version nvidia (on disk)


_NVRM = re.compile(r"NVRM version:\s+NVIDIA UNIX (?P<open>Open Kernel Module for \S+|\S+ Kernel Module)\s+(?P<ver>\d+(?:\.\d+)+)")


def parse_proc_driver_version(text: str) -> tuple[str | None, str | None]:
    """(version, flavour) from /proc/driver/nvidia/version."""
    m = _NVRM.search(text or "")
    if not m:
        return None, None
    flavor = "open" if m.group("open").startswith("Open") else "proprietary"
    return m.group("ver"), flavor


def read_kernel_module(root: SystemRoot, runner: Runner) -> KernelModuleState:
    version, flavor = parse_proc_driver_version(root.read_text("/proc/driver/nvidia/version") or "")
    modules = root.read_text("/proc/modules") or ""
    names = {line.split(" ", 1)[0] for line in modules.splitlines() if line}
    installed = runner.run(["modinfo", "-F", "version", "nvidia"], timeout=10)
    return KernelModuleState(
        loaded_version=version,
        loaded_flavor=flavor,
        nouveau_loaded="nouveau" in names,
        installed_version=installed.stdout.strip().splitlines()[0] if installed.ok and installed.stdout.strip() else None,
    )


# ---- Secure Boot --------------------------------------------------------------
SECURE_BOOT_EFIVAR = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"


def parse_mokutil_sb_state(text: str) -> str | None:
    t = (text or "").lower()
    if "secureboot enabled" in t:
        return "enabled"
    if "secureboot disabled" in t:
        return "disabled"
    if "not supported" in t or "efi variables are not supported" in t:
        return "not_uefi"
    return None


def read_secure_boot(root: SystemRoot, runner: Runner) -> str:
    """'enabled' | 'disabled' | 'not_uefi' | 'unknown'."""
    result = runner.run(["mokutil", "--sb-state"], timeout=10)
    state = parse_mokutil_sb_state(result.output) if not result.missing else None
    if state:
        return state
    raw = root.read_bytes(SECURE_BOOT_EFIVAR, 16)
    if raw is not None and len(raw) >= 5:
        # 4 bytes of attributes, then the value (1 = on): how nvidia-installer reads it.
        return "enabled" if raw[4] == 1 else "disabled"
    if not root.exists("/sys/firmware/efi"):
        return "not_uefi"
    return "unknown"


# ---- NVML -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class NvmlGpu:
    name: str
    pci_bus_id: str
    capability: tuple[int, int] | None
    device_id: str | None = None  # '2335', from NVML's pciDeviceId (0x233510DE): device high, vendor low


@dataclass(frozen=True, slots=True)
class NvmlState:
    ok: bool
    driver_version: str | None = None
    cuda_version: str | None = None  # highest CUDA the driver supports, '12.8'
    gpus: tuple[NvmlGpu, ...] = ()
    error_code: int | None = None
    error: str = ""  # English, one line
    error_text: Any = None  # the same line as a translatable Msg, when NVML's wrapper has one


def cuda_from_driver_int(value: int) -> str:
    """NVML/cudaDriverGetVersion encoding: 1000*major + 10*minor (12080 -> '12.8')."""
    return f"{value // 1000}.{(value % 1000) // 10}"


def _nvml_device_id(value: int | None) -> str | None:
    """nvmlPciInfo_t.pciDeviceId packs the device id in the high 16 bits and the vendor id
    in the low 16 (nvml.h: 'The combined 16-bit device id and 16-bit vendor id')."""
    if not value or (value & 0xFFFF) != int(NVIDIA_VENDOR, 16):
        return None
    return f"{(value >> 16) & 0xFFFF:04x}"


def read_nvml(nvml: Any = None) -> NvmlState:
    """Driver, CUDA and GPUs through the app's one NVML device listing."""
    inventory = list_devices(nvml)
    if not inventory.ok:
        return NvmlState(False, error_code=inventory.error_code, error=inventory.error, error_text=inventory.error_text)
    cuda = cuda_from_driver_int(inventory.cuda_driver_version) if inventory.cuda_driver_version else None
    gpus = tuple(NvmlGpu(d.name, d.pci_bus_id, d.capability, _nvml_device_id(d.pci_device_id)) for d in inventory.devices)
    return NvmlState(True, inventory.driver_version, cuda, gpus)


# ---- nvidia-smi -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class NvidiaSmiState:
    present: bool
    exit_code: int | None
    driver_version: str | None = None
    message: str = ""  # first meaningful line of output on failure


def read_nvidia_smi(runner: Runner) -> NvidiaSmiState:
    result = runner.run(["nvidia-smi", "--query-gpu=driver_version,name,pci.bus_id", "--format=csv,noheader"], timeout=20)
    if result.missing:
        return NvidiaSmiState(False, None)
    if result.ok:
        first = result.stdout.strip().splitlines()[0] if result.stdout.strip() else ""
        version = first.split(",")[0].strip() if first else None
        return NvidiaSmiState(True, 0, version)
    lines = [ln.strip() for ln in result.output.splitlines() if ln.strip()]
    return NvidiaSmiState(True, result.returncode, None, lines[0] if lines else "")


# ---- the user's Python environment ---------------------------------------------------
# Runs inside the *target* interpreter; prints one JSON line. Kept free of f-strings
# and walrus so it works on old interpreters too.
TORCH_PROBE = r'''
import json, sys, warnings
out = {"python": sys.version.split()[0], "executable": sys.executable}
try:
    import torch
except Exception as exc:
    out["torch_error"] = "%s: %s" % (type(exc).__name__, exc)
    print("GPUA-PROBE " + json.dumps(out)); sys.exit(0)
out["torch_version"] = torch.__version__
out["cuda_build"] = getattr(torch.version, "cuda", None)
out["hip"] = getattr(torch.version, "hip", None)
try:
    out["cudnn"] = torch.backends.cudnn.version()
except Exception:
    out["cudnn"] = None
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        out["cuda_available"] = bool(torch.cuda.is_available())
    except Exception as exc:
        out["cuda_available"] = False
        out["cuda_error"] = str(exc)
    try:
        out["arch_list"] = list(torch.cuda.get_arch_list())
    except Exception:
        out["arch_list"] = []
    if out["cuda_available"]:
        try:
            out["device_count"] = torch.cuda.device_count()
            out["device_name"] = torch.cuda.get_device_name(0)
            out["capability"] = list(torch.cuda.get_device_capability(0))
            a = torch.ones((256, 256), device="cuda")
            b = a @ a
            torch.cuda.synchronize()
            out["matmul_ok"] = float(b[0, 0].item()) == 256.0
        except Exception as exc:
            out["matmul_ok"] = False
            out["matmul_error"] = "%s: %s" % (type(exc).__name__, exc)
out["warnings"] = [str(w.message) for w in caught][:5]
print("GPUA-PROBE " + json.dumps(out))
'''
PROBE_MARK = "GPUA-PROBE "


@dataclass(frozen=True, slots=True)
class TorchProbe:
    python: str  # interpreter that was probed
    ran: bool  # the interpreter started and answered
    error: str = ""  # why it did not answer
    python_version: str = ""
    torch_version: str | None = None
    torch_error: str = ""
    cuda_build: str | None = None
    hip: str | None = None
    cudnn: int | None = None
    cuda_available: bool = False
    cuda_error: str = ""
    arch_list: tuple[str, ...] = ()
    device_name: str = ""
    capability: tuple[int, int] | None = None
    matmul_ok: bool | None = None
    matmul_error: str = ""
    warnings: tuple[str, ...] = ()

    @property
    def has_torch(self) -> bool:
        return self.torch_version is not None

    @property
    def is_cpu_build(self) -> bool:
        return self.has_torch and self.cuda_build is None and self.hip is None

    @property
    def cudnn_text(self) -> str:
        if not self.cudnn:
            return ""
        n = int(self.cudnn)  # 91900 -> 9.19.0 (cuDNN 9); 8907 -> 8.9.7 (cuDNN 8)
        if n >= 10000:
            return f"{n // 10000}.{(n % 10000) // 100}.{n % 100}"
        return f"{n // 1000}.{(n % 1000) // 100}.{n % 100}"


def parse_torch_probe(python: str, result: CommandResult) -> TorchProbe:
    line = next((ln for ln in reversed(result.stdout.splitlines()) if ln.startswith(PROBE_MARK)), None)
    if line is None:
        if result.missing:
            why = "the interpreter was not found"
        elif result.timed_out:
            why = "the interpreter did not answer in time"
        else:
            tail = [ln for ln in result.output.splitlines() if ln.strip()]
            why = tail[-1] if tail else f"exit code {result.returncode}"
        return TorchProbe(python, False, why)
    try:
        data = json.loads(line[len(PROBE_MARK):])
    except json.JSONDecodeError:
        return TorchProbe(python, False, "the probe printed something unreadable")
    cap = data.get("capability")
    return TorchProbe(
        python=python, ran=True, python_version=str(data.get("python", "")),
        torch_version=data.get("torch_version"), torch_error=data.get("torch_error", ""),
        cuda_build=data.get("cuda_build"), hip=data.get("hip"), cudnn=data.get("cudnn"),
        cuda_available=bool(data.get("cuda_available")), cuda_error=data.get("cuda_error", ""),
        arch_list=tuple(data.get("arch_list") or ()), device_name=data.get("device_name", ""),
        capability=(int(cap[0]), int(cap[1])) if isinstance(cap, list) and len(cap) == 2 else None,
        matmul_ok=data.get("matmul_ok"), matmul_error=data.get("matmul_error", ""),
        warnings=tuple(data.get("warnings") or ()),
    )


# An interpreter must at least start and print within this; one that hangs (a broken site
# hook, a stuck network drive) was given the torch probe's 90 s and then the stdlib query's
# 20 s more. Starting Python takes well under a second; 15 s leaves room for a slow disk.
STARTUP_TIMEOUT_S = 15.0
INTERPRETER_HUNG = f"the interpreter did not start within {STARTUP_TIMEOUT_S:g} s"


def probe_torch(python: str, runner: Runner, timeout: float = 90.0) -> TorchProbe:
    """Run the probe in the user's interpreter (never import torch in the app). It is first asked
    to start and print, briefly: a hanging interpreter is reported after STARTUP_TIMEOUT_S."""
    alive = runner.run([python, "-c", "print('ok')"], timeout=STARTUP_TIMEOUT_S)
    if alive.timed_out:
        return TorchProbe(python, False, INTERPRETER_HUNG)
    return parse_torch_probe(python, runner.run([python, "-c", TORCH_PROBE], timeout=timeout))


def default_venv_dir() -> str:
    """Where the wizard puts PyTorch when the system Python refuses pip (PEP 668)."""
    return str(Path.home() / ".venvs" / "torch")


# The stdlib folder (where PEP 668's marker lives), then 1 when the interpreter is a virtual
# environment: PEP 668 exempts those ("sys.prefix != sys.base_prefix"), so its marker does not apply.
STDLIB_QUERY = ("import sys, sysconfig; print(sysconfig.get_path('stdlib')); "
                "print(int(sys.prefix != getattr(sys, 'base_prefix', getattr(sys, 'real_prefix', sys.prefix))))")


@dataclass(frozen=True, slots=True)
class PythonEnvState:
    """PEP 668 state of one interpreter: is 'pip install' into it refused?"""

    python: str
    stdlib: str = ""  # '' when the interpreter did not answer
    externally_managed: bool | None = None  # None = could not ask; False in a virtual environment
    in_venv: bool | None = None  # sys.prefix != sys.base_prefix (None: not asked)
    marker: bool = False  # the stdlib folder has the EXTERNALLY-MANAGED file (a venv ignores it)


def read_externally_managed(python: str, runner: Runner, root: SystemRoot) -> PythonEnvState:
    """Ask the interpreter for its stdlib folder and whether it is a virtual environment, and look
    for PEP 668's EXTERNALLY-MANAGED there. PEP 668 ("Marking the Python environment as externally
    managed"): installers ignore the marker inside a virtual environment."""
    r = runner.run([python, "-c", STDLIB_QUERY], timeout=20)
    lines = [ln.strip() for ln in r.stdout.splitlines() if ln.strip()]
    stdlib = next((ln for ln in lines if ln.startswith("/")), None)
    if not r.ok or stdlib is None:
        return PythonEnvState(python)
    in_venv = {"1": True, "0": False}.get(lines[-1]) if lines[-1] != stdlib else None
    marker = root.exists(stdlib.rstrip("/") + "/EXTERNALLY-MANAGED")
    return PythonEnvState(python, stdlib, marker and not in_venv, in_venv, marker)


@dataclass(frozen=True, slots=True)
class UbuntuDriversList:
    """`ubuntu-drivers list` and `list --recommended` on this machine."""

    packages: tuple[str, ...] = ()
    recommended: str = ""


UBUNTU_DRIVER_PACKAGE = re.compile(r"^nvidia-driver-(\d+)(-server)?(-open)?$")


def parse_ubuntu_drivers_list(text: str) -> tuple[str, ...]:
    """Package names from `ubuntu-drivers list` ('nvidia-driver-570-open, (kernel modules provided by ...)')."""
    out = []
    for line in text.splitlines():
        name = line.split(",", 1)[0].split()[0] if line.strip() else ""
        if UBUNTU_DRIVER_PACKAGE.match(name):
            out.append(name)
    return tuple(out)


def read_ubuntu_drivers(runner: Runner) -> UbuntuDriversList | None:
    full = runner.run(["ubuntu-drivers", "list"], timeout=60)
    if not full.ok:
        return None
    rec = runner.run(["ubuntu-drivers", "list", "--recommended"], timeout=60)
    recommended = parse_ubuntu_drivers_list(rec.stdout) if rec.ok else ()
    return UbuntuDriversList(parse_ubuntu_drivers_list(full.stdout), recommended[0] if recommended else "")


@dataclass(frozen=True, slots=True)
class PythonEnv:
    name: str
    python: str
    kind: str  # venv | conda | system | app


def _interpreter(prefix: Path, windows: bool) -> Path | None:
    candidates = [prefix / "Scripts" / "python.exe", prefix / "python.exe"] if windows else [prefix / "bin" / "python3", prefix / "bin" / "python"]
    return next((c for c in candidates if c.is_file()), None)


def find_python_envs(home: Path, windows: bool = sys.platform == "win32", extra_conda_roots: Sequence[Path] = ()) -> list[PythonEnv]:
    """venvs and conda environments in the usual places under ``home``."""
    found: list[PythonEnv] = []
    seen: set[str] = set()

    def add(name: str, prefix: Path, kind: str) -> None:
        exe = _interpreter(prefix, windows)
        if exe and str(exe) not in seen:
            seen.add(str(exe))
            found.append(PythonEnv(name, str(exe), kind))

    for single in (".venv", "venv", ".env"):
        if (home / single / "pyvenv.cfg").is_file():
            add(f"~/{single}", home / single, "venv")
    for parent in (".virtualenvs", ".venvs", "venvs", "envs", ".local/share/virtualenvs"):
        try:
            for d in sorted((home / parent).iterdir()):
                if (d / "pyvenv.cfg").is_file():
                    add(d.name, d, "venv")
        except OSError:
            pass
    conda_roots = [home / n for n in ("miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba")]
    conda_roots += list(extra_conda_roots)
    for croot in conda_roots:
        if (croot / "conda-meta").is_dir():
            add(f"conda base ({croot.name})", croot, "conda")
        try:
            for d in sorted((croot / "envs").iterdir()):
                add(d.name, d, "conda")
        except OSError:
            pass
    try:
        for d in sorted((home / ".conda" / "envs").iterdir()):
            add(d.name, d, "conda")
    except OSError:
        pass
    listing = home / ".conda" / "environments.txt"
    try:
        for line in listing.read_text(encoding="utf-8", errors="replace").splitlines():
            p = Path(line.strip())
            if line.strip():
                add(p.name, p, "conda")
    except OSError:
        pass
    return found
