"""Read-only probes of the machine: GPUs, kernel module, Secure Boot, NVML, nvidia-smi and
ubuntu-drivers (the OS is read in services.setup.os_release, the user's Python environments in
services.setup.python_env). Each returns a plain dataclass; parsing is separate from reading so
tests feed recorded output in real formats.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.nvml_devices import list_devices
from services.setup.system import Runner, SystemRoot

NVIDIA_VENDOR = "10de"
DISPLAY_CLASSES = ("0300", "0302", "0380")  # VGA, 3D controller, other display


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


# ---- ubuntu-drivers -------------------------------------------------------------------
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
