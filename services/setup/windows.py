"""Windows: the facts the doctor collects and the findings it makes of them (behind small interfaces).

Imports cleanly on Linux. Registry values are read through a ``RegistryReader``
(services.setup.windows_registry); the clean-reinstall plan is in services.setup.windows_plan. The rest
goes through a ``Runner`` (powercfg, PowerShell CIM queries and counters), so tests use fakes built
from the real output formats. That the machine is Windows comes from the platform itself
(``sys.platform``); CIM and the registry only add detail (edition, build, the GPUs' driver).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Protocol
from collections.abc import Callable

from services.i18n import translate
from services.setup.os_release import OsInfo
from services.setup.probes import PciGpu
from services.setup.system import Runner
from services.setup.windows_registry import RegistryError, RegistryReader, RegValue, default_registry

# A process whose GPU memory sits in shared system memory above this is worth a
# word (our threshold, not a vendor figure: small shared use is normal for any app).
SPILL_WARN_BYTES = 512 * 1024 * 1024

CURRENT_VERSION_KEY = r"HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion"
# The display adapters' device class: one numbered subkey per installed display driver.
DISPLAY_CLASS_KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}"
GRAPHICS_DRIVERS_KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\GraphicsDrivers"
MEMORY_MANAGEMENT_KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Memory Management"
DIRECTX_KEY = r"HKLM\SOFTWARE\Microsoft\DirectX"


def wmi_driver_to_nvidia(version: str) -> str | None:
    """WMI's '32.0.15.6094' -> NVIDIA's '560.94' (last 5 digits of the last two fields)."""
    parts = (version or "").strip().split(".")
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        return None
    n = (int(parts[2]) % 10) * 10000 + int(parts[3])
    return f"{n // 100}.{n % 100:02d}"


_PNP = re.compile(r"VEN_([0-9A-Fa-f]{4})&DEV_([0-9A-Fa-f]{4})")


@dataclass(frozen=True, slots=True)
class ProcessSpill:
    pid: int
    name: str
    dedicated_bytes: int
    shared_bytes: int


@dataclass(frozen=True, slots=True)
class WindowsFacts:
    os: OsInfo
    gpus: tuple[PciGpu, ...] = ()
    wmi_driver_version: str | None = None
    driver_version: str | None = None
    power_scheme_guid: str | None = None
    power_scheme_name: str | None = None
    hags_mode: int | None = None  # 2 on, 1 off, None: value absent (Windows default)
    paging_files: tuple[str, ...] | None = None  # None: unknown
    spills: tuple[ProcessSpill, ...] = ()
    counters_ok: bool = False
    secure_boot: str = "unknown"

    def to_json(self) -> dict:
        return {
            "version": self.os.version_id, "caption": self.os.pretty_name,
            "wmi_driver_version": self.wmi_driver_version, "driver_version": self.driver_version,
            "power_scheme": {"guid": self.power_scheme_guid, "name": self.power_scheme_name},
            "hags_mode": self.hags_mode,
            "paging_files": None if self.paging_files is None else list(self.paging_files),
            "spills": [vars_of(s) for s in self.spills],
        }


def vars_of(obj: Any) -> dict:
    return {k: getattr(obj, k) for k in obj.__slots__}


class WindowsProbe(Protocol):
    """The questions the doctor asks Windows: PowerShell/powercfg answers as raw text in Windows' own
    format, registry values through a ``RegistryReader``."""

    registry: RegistryReader

    def os_json(self) -> str: ...
    def video_controllers_json(self) -> str: ...
    def powercfg_active(self) -> str: ...
    def gpu_process_memory_json(self) -> str: ...
    def process_name(self, pid: int) -> str: ...


PS = ("powershell.exe", "-NoProfile", "-NonInteractive", "-Command")


class LiveWindowsProbe(WindowsProbe):
    """Asks a real Windows: the registry through ``winreg``, powercfg, PowerShell (CIM, Get-Counter)."""

    def __init__(self, runner: Runner, process_name: Callable[[int], str] | None = None,
                 registry: RegistryReader | None = None) -> None:
        self.runner = runner
        self._process_name = process_name
        self.registry = registry or default_registry(runner)

    def _ps(self, script: str) -> str:
        r = self.runner.run((*PS, script), timeout=30)
        return r.stdout if r.ok else ""

    def os_json(self) -> str:
        return self._ps("Get-CimInstance Win32_OperatingSystem | Select-Object Caption,Version,BuildNumber | ConvertTo-Json")

    def video_controllers_json(self) -> str:
        return self._ps("Get-CimInstance Win32_VideoController | Select-Object Name,DriverVersion,PNPDeviceID,AdapterCompatibility | ConvertTo-Json")

    def powercfg_active(self) -> str:
        r = self.runner.run(("powercfg", "/getactivescheme"), timeout=15)
        return r.stdout if r.ok else ""

    def gpu_process_memory_json(self) -> str:
        # English counter paths; on a localized Windows this can fail and the check says "unknown".
        return self._ps(
            "(Get-Counter -Counter '\\GPU Process Memory(*)\\Dedicated Usage','\\GPU Process Memory(*)\\Shared Usage' "
            "-ErrorAction Stop).CounterSamples | Select-Object Path,InstanceName,CookedValue | ConvertTo-Json"
        )

    def process_name(self, pid: int) -> str:
        if self._process_name:
            return self._process_name(pid)
        try:
            import psutil

            return psutil.Process(pid).name()
        except Exception:
            return f"pid {pid}"


def _json_list(text: str) -> list[dict]:
    try:
        data = json.loads(text) if text.strip() else []
    except json.JSONDecodeError:
        return []
    if isinstance(data, dict):
        return [data]
    return [d for d in data if isinstance(d, dict)] if isinstance(data, list) else []


def parse_counter_samples(samples: list[dict], nvidia_luids: set[str]) -> dict[int, tuple[int, int]]:
    """{pid: (dedicated, shared)} on the NVIDIA adapter(s) from Get-Counter samples."""
    usage: dict[int, list[int]] = {}
    for s in samples:
        inst = str(s.get("InstanceName", "")).lower()
        m = re.match(r"pid_(\d+)_luid_(0x[0-9a-f]{8})_(0x[0-9a-f]{8})_phys_\d+", inst)
        if not m:
            continue
        luid = f"{m.group(2)}_{m.group(3)}"
        if nvidia_luids and luid not in nvidia_luids:
            continue
        pid = int(m.group(1))
        path = str(s.get("Path", "")).lower()
        slot = 0 if path.endswith("dedicated usage") else 1 if path.endswith("shared usage") else None
        if slot is None:
            continue
        usage.setdefault(pid, [0, 0])[slot] += int(float(s.get("CookedValue") or 0))
    return {pid: (v[0], v[1]) for pid, v in usage.items()}


def nvidia_luids_from_registry(tree: dict[str, dict[str, tuple[str, str]]]) -> set[str]:
    luids = set()
    for values in tree.values():
        vendor = values.get("VendorId")
        luid = values.get("AdapterLuid")
        if vendor and luid and int(vendor[1]) == 0x10DE:
            v = int(luid[1])
            luids.add(f"0x{v >> 32:08x}_0x{v & 0xFFFFFFFF:08x}")
    return luids


def _registry(read: Callable[[], Any], empty: Any) -> Any:
    """A registry read that may be refused: the doctor goes on without that detail."""
    try:
        return read()
    except (RegistryError, ValueError):
        return empty


def windows_os_from_registry(values: dict[str, RegValue]) -> OsInfo:
    """Edition and build from HKLM\\...\\Windows NT\\CurrentVersion (no CIM needed)."""
    name = values.get("ProductName", ("", ""))[1]
    build = values.get("CurrentBuildNumber", values.get("CurrentBuild", ("", "")))[1]
    major = values.get("CurrentMajorVersionNumber", ("", ""))[1]
    minor = values.get("CurrentMinorVersionNumber", ("", "0"))[1]
    display = values.get("DisplayVersion", ("", ""))[1]
    # Windows 11 keeps "Windows 10" in ProductName; build 22000 is the first Windows 11 build.
    if name.startswith("Windows 10") and build.isdigit() and int(build) >= 22000:
        name = "Windows 11" + name[len("Windows 10"):]
    version = f"{major}.{minor}.{build}" if major and build else build
    pretty = " ".join(x for x in ((name and f"Microsoft {name}") or "Windows", display) if x)
    return OsInfo(system="windows", id="windows", version_id=version, pretty_name=pretty)


def gpus_from_registry(tree: dict[str, dict[str, RegValue]]) -> list[tuple[PciGpu, str]]:
    """(GPU, WMI-style driver version) from the display class key: each installed display driver's
    subkey has MatchingDeviceId (pci\\ven_10de&dev_2684), DriverDesc and DriverVersion."""
    out = []
    for path in sorted(tree):
        values = tree[path]
        m = _PNP.search(values.get("MatchingDeviceId", ("", ""))[1].upper())
        if not m or not re.search(r"\\\d{4}$", path):
            continue
        gpu = PciGpu(values["MatchingDeviceId"][1], m.group(1).lower(), m.group(2).lower(), values.get("DriverDesc", ("", ""))[1])
        out.append((gpu, values.get("DriverVersion", ("", ""))[1]))
    return out


def collect_windows_facts(probe: WindowsProbe) -> WindowsFacts:
    reg = probe.registry
    os_rows = _json_list(probe.os_json())
    row = os_rows[0] if os_rows else {}
    if row:
        os = OsInfo(system="windows", id="windows", version_id=str(row.get("Version", "")),
                    pretty_name=str(row.get("Caption", "Windows")) or "Windows")
    else:  # no PowerShell/CIM answer: the registry still tells the edition; the platform said Windows
        os = windows_os_from_registry(_registry(lambda: reg.values(CURRENT_VERSION_KEY), {}))
    gpus, wmi_version = [], None
    for vc in _json_list(probe.video_controllers_json()):
        m = _PNP.search(str(vc.get("PNPDeviceID", "")))
        if not m:
            continue
        gpu = PciGpu(str(vc.get("PNPDeviceID", "")), m.group(1).lower(), m.group(2).lower(), str(vc.get("Name", "")))
        gpus.append(gpu)
        if gpu.is_nvidia and wmi_version is None:
            wmi_version = str(vc.get("DriverVersion", "")) or None
    if not gpus:
        for gpu, version in gpus_from_registry(_registry(lambda: reg.tree(DISPLAY_CLASS_KEY), {})):
            gpus.append(gpu)
            if gpu.is_nvidia and wmi_version is None:
                wmi_version = version or None
    scheme = re.search(r"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\s*(?:\((.*)\))?", probe.powercfg_active())
    hags = _registry(lambda: reg.value(GRAPHICS_DRIVERS_KEY, "HwSchMode"), None)
    paging = _registry(lambda: reg.value(MEMORY_MANAGEMENT_KEY, "PagingFiles"), None)
    luids = nvidia_luids_from_registry(_registry(lambda: reg.tree(DIRECTX_KEY), {}))
    counters_text = probe.gpu_process_memory_json()
    samples = _json_list(counters_text)
    spills = []
    for pid, (dedicated, shared) in sorted(parse_counter_samples(samples, luids).items()):
        if shared >= SPILL_WARN_BYTES and dedicated > 0:
            spills.append(ProcessSpill(pid, probe.process_name(pid), dedicated, shared))
    return WindowsFacts(
        os=os, gpus=tuple(gpus), wmi_driver_version=wmi_version,
        driver_version=wmi_driver_to_nvidia(wmi_version or ""),
        power_scheme_guid=scheme.group(1).lower() if scheme else None,
        power_scheme_name=(scheme.group(2) or None) if scheme else None,
        hags_mode=int(hags[1]) if hags and hags[1].isdigit() else None,
        paging_files=tuple(x for x in paging[1].split("\\0") if x) if paging else None,
        spills=tuple(spills), counters_ok=bool(samples),
    )


def windows_findings(w: WindowsFacts, rules) -> list:
    from services.setup.findings import Finding, Fix

    out = []
    plans = {p["guid"]: p["name"] for p in rules.windows["power_plans"]}
    fast = {g for g, n in plans.items() if n in ("High performance", "Ultimate Performance")}
    high = next(g for g, n in plans.items() if n == "High performance")
    if w.power_scheme_guid:
        name = plans.get(w.power_scheme_guid, w.power_scheme_name or w.power_scheme_guid)
        if w.power_scheme_guid in fast:
            out.append(Finding("win_power_plan_ok", "ok", translate("Doctor", "Power plan: {name}").format(name=name),
                               translate("Doctor", "Good for long training runs.")))
        else:
            out.append(Finding(
                "win_power_plan", "info", translate("Doctor", "Power plan: {name}").format(name=name),
                translate("Doctor", "For long runs, 'High performance' keeps the CPU and PCIe link from dropping into power saving between batches. On laptops also set the power mode to 'Best performance' while plugged in."),
                (Fix(translate("Doctor", "Switch to High performance"), (("powercfg", "/setactive", high),)),),
            ))
    hk = rules.windows["hags"]
    if w.hags_mode == hk["on"]:
        state = translate("Doctor", "on")
    elif w.hags_mode == hk["off"]:
        state = translate("Doctor", "off")
    else:
        state = translate("Doctor", "Windows default (value not set)")
    out.append(Finding(
        "win_hags", "info", translate("Doctor", "Hardware-accelerated GPU scheduling: {state}").format(state=state),
        translate("Doctor", "Set in Settings > System > Display > Graphics (HwSchMode: 2 = on, 1 = off); a change needs a reboot. DLSS Frame Generation needs it on; for CUDA work either setting is fine."),
    ))
    if w.paging_files is not None:
        entries = [e.strip() for e in w.paging_files if e.strip()]
        if not entries:
            out.append(Finding(
                "win_no_pagefile", "warning", translate("Doctor", "There is no page file"),
                translate("Doctor", "Loading PyTorch's CUDA libraries reserves a lot of virtual memory; without a page file this fails with 'OSError: [WinError 1455] The paging file is too small'. Let Windows manage the page file size (System > About > Advanced system settings > Performance > Virtual memory)."),
            ))
        elif any(e.startswith("?:") or re.search(r"\s0\s+0$", e) or len(e.split()) == 1 for e in entries):
            out.append(Finding("win_pagefile_ok", "ok", translate("Doctor", "The page file is managed by Windows"),
                               translate("Doctor", "It grows when PyTorch needs it, which avoids WinError 1455.")))
        else:
            sizes = ", ".join(entries)
            out.append(Finding(
                "win_pagefile_fixed", "warning", translate("Doctor", "The page file has a fixed size: {sizes}").format(sizes=sizes),
                translate("Doctor", "If you see 'WinError 1455: The paging file is too small', let Windows manage the size or raise the maximum (sizes are in MB), then reboot."),
            ))
    fallback = rules.windows.get("sysmem_fallback", {})
    for s in w.spills:
        out.append(Finding(
            "win_gpu_memory_spill", "warning",
            translate("Doctor", "{name} (pid {pid}) has {shared} GiB of GPU memory in shared system memory").format(
                name=s.name, pid=s.pid, shared=f"{s.shared_bytes / 2**30:.1f}"),
            translate("Doctor", "When dedicated GPU memory is full, the driver moves allocations into system RAM, which the GPU reaches over PCIe, many times slower, so the job keeps running but crawls. The driver's '{setting}' ({where}) decides this for CUDA apps: 'Prefer No Sysmem Fallback' gives a clear out-of-memory error instead, so you can lower the batch size or use a smaller model.").format(
                setting=fallback.get("setting", "CUDA - Sysmem Fallback Policy"), where=fallback.get("where", "NVIDIA Control Panel")),
        ))
    return out
