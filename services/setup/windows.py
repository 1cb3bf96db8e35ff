"""Windows: facts, checks and the clean-reinstall plan (behind small interfaces).

Imports cleanly on Linux. Registry values are read through ``winreg`` (``WinregReader``); the rest
goes through a ``Runner`` (powercfg, PowerShell CIM queries and counters), so tests use fakes built
from the real output formats. That the machine is Windows comes from the platform itself
(``sys.platform``); CIM and the registry only add detail (edition, build, the GPUs' driver).
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any, Protocol
from collections.abc import Callable

from services.i18n import translate
from services.setup.plan import Check, Plan, RegistryChange, Step
from services.setup.probes import OsInfo, PciGpu
from services.setup.system import Runner

# A process whose GPU memory sits in shared system memory above this is worth a
# word (our threshold, not a vendor figure: small shared use is normal for any app).
SPILL_WARN_BYTES = 512 * 1024 * 1024

# (type name, data as text): DWORD/QWORD as decimal, MULTI_SZ joined with "\\0" (as reg.exe shows it).
RegValue = tuple[str, str]

CURRENT_VERSION_KEY = r"HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion"
# The display adapters' device class: one numbered subkey per installed display driver.
DISPLAY_CLASS_KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}"
GRAPHICS_DRIVERS_KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\GraphicsDrivers"
MEMORY_MANAGEMENT_KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Memory Management"
DIRECTX_KEY = r"HKLM\SOFTWARE\Microsoft\DirectX"


class RegistryError(Exception):
    """The registry could not be read (access denied, ...); one line."""


class RegistryReader(Protocol):
    """Read-only registry access for the doctor, the checks and the backups before a change."""

    def values(self, key: str) -> dict[str, RegValue]: ...  # {} when the key is absent
    def value(self, key: str, name: str) -> RegValue | None: ...  # None when absent
    def tree(self, key: str) -> dict[str, dict[str, RegValue]]: ...  # {full subkey path: values}, recursive


_HIVE_NAMES = {
    "HKLM": "HKEY_LOCAL_MACHINE", "HKEY_LOCAL_MACHINE": "HKEY_LOCAL_MACHINE",
    "HKCU": "HKEY_CURRENT_USER", "HKEY_CURRENT_USER": "HKEY_CURRENT_USER",
    "HKCR": "HKEY_CLASSES_ROOT", "HKEY_CLASSES_ROOT": "HKEY_CLASSES_ROOT",
    "HKU": "HKEY_USERS", "HKEY_USERS": "HKEY_USERS",
}


def split_key(key: str) -> tuple[str, str]:
    """``HKLM\\SOFTWARE\\X`` -> (``HKEY_LOCAL_MACHINE``, ``SOFTWARE\\X``); ValueError for an unknown hive."""
    hive, _, path = key.partition("\\")  # "/" is a legal character in a key name
    full = _HIVE_NAMES.get(hive.upper())
    if full is None:
        raise ValueError(f"unknown registry hive in {key!r}")
    return full, path.strip("\\")


class WinregReader:
    """``RegistryReader`` on the real registry, through ``winreg`` (no reg.exe output to parse)."""

    def __init__(self) -> None:
        import winreg as winreg_module  # Windows only; imported here so the module loads on Linux

        winreg: Any = winreg_module  # typeshed has winreg on win32 only; mypy checks as on Linux

        self._winreg = winreg
        self._kinds = {winreg.REG_SZ: "REG_SZ", winreg.REG_EXPAND_SZ: "REG_EXPAND_SZ", winreg.REG_DWORD: "REG_DWORD",
                       winreg.REG_QWORD: "REG_QWORD", winreg.REG_MULTI_SZ: "REG_MULTI_SZ", winreg.REG_BINARY: "REG_BINARY",
                       winreg.REG_NONE: "REG_NONE"}

    def _open(self, key: str):
        hive, path = split_key(key)
        return self._winreg.OpenKey(getattr(self._winreg, hive), path)

    def _text(self, kind: int, data: Any) -> RegValue:
        name = self._kinds.get(kind, f"REG_{kind}")
        if isinstance(data, (list, tuple)):
            return name, "\\0".join(str(x) for x in data)
        if isinstance(data, (bytes, bytearray)):
            return name, bytes(data).hex()
        if data is None:
            return name, ""
        return name, str(data)

    def values(self, key: str) -> dict[str, RegValue]:
        try:
            with self._open(key) as handle:
                return self._read_values(handle)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise RegistryError(f"{key}: {exc.strerror or exc}") from exc

    def _read_values(self, handle) -> dict[str, RegValue]:
        out: dict[str, RegValue] = {}
        for i in range(self._winreg.QueryInfoKey(handle)[1]):
            name, data, kind = self._winreg.EnumValue(handle, i)
            out[name] = self._text(kind, data)
        return out

    def value(self, key: str, name: str) -> RegValue | None:
        try:
            with self._open(key) as handle:
                data, kind = self._winreg.QueryValueEx(handle, name)
                return self._text(kind, data)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise RegistryError(f"{key}\\{name}: {exc.strerror or exc}") from exc

    def tree(self, key: str) -> dict[str, dict[str, RegValue]]:
        out: dict[str, dict[str, RegValue]] = {}
        winreg = self._winreg

        def walk(path: str, depth: int) -> None:
            try:
                with self._open(path) as handle:
                    out[path] = self._read_values(handle)
                    subkeys = [winreg.EnumKey(handle, i) for i in range(winreg.QueryInfoKey(handle)[0])]
            except OSError:  # absent, or a subkey we may not read (e.g. Properties under a driver key)
                return
            if depth < 4:
                for sub in subkeys:
                    walk(f"{path}\\{sub}", depth + 1)

        walk(key, 0)
        return out


class RegQueryTextReader:
    """``RegistryReader`` answering from ``reg query`` text through a ``Runner``: how tests on Linux
    replay output recorded on real Windows machines. On Windows the app uses ``WinregReader``."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    def _query(self, argv: list[str]) -> str | None:
        r = self.runner.run(argv, timeout=30)
        if r.ok:
            return r.stdout
        if r.returncode == 1:  # reg.exe: 1 = key or value not found
            return None
        raise RegistryError(r.output or f"reg query failed ({r.returncode})")

    def values(self, key: str) -> dict[str, RegValue]:
        return parse_reg_query(self._query(["reg", "query", key]) or "")

    def value(self, key: str, name: str) -> RegValue | None:
        return parse_reg_query(self._query(["reg", "query", key, "/v", name]) or "").get(name)

    def tree(self, key: str) -> dict[str, dict[str, RegValue]]:
        return parse_reg_query_tree(self._query(["reg", "query", key, "/s"]) or "")


def default_registry(runner: Runner) -> RegistryReader:
    """The real registry on Windows; elsewhere (tests, planning for another machine) recorded text."""
    return WinregReader() if sys.platform == "win32" else RegQueryTextReader(runner)


def parse_reg_query(text: str) -> dict[str, RegValue]:
    """``reg query`` output (recorded on real Windows) -> {value name: (type, data)}; DWORDs as decimal strings."""
    values: dict[str, RegValue] = {}
    for line in text.splitlines():
        m = re.match(r"^\s{4}(?P<name>.+?)\s{4}(?P<type>REG_[A-Z_]+)(?:\s{4}(?P<data>.*))?$", line)
        if not m:
            continue
        kind, data = m.group("type"), (m.group("data") or "").strip()
        if kind in ("REG_DWORD", "REG_QWORD") and data.lower().startswith("0x"):
            data = str(int(data, 16))
        values[m.group("name")] = (kind, data)
    return values


def parse_reg_query_tree(text: str) -> dict[str, dict[str, RegValue]]:
    """``reg query KEY /s`` output -> {subkey path: values}."""
    tree: dict[str, dict[str, RegValue]] = {}
    current = None
    block: list[str] = []
    for line in text.splitlines() + ["HKEY_END"]:
        if line.startswith("HKEY_"):
            if current is not None:
                tree[current] = parse_reg_query("\n".join(block))
            current, block = line.strip(), []
        else:
            block.append(line)
    tree.pop("HKEY_END", None)
    return tree


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


# ---- the clean reinstall plan -------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WindowsPlanOptions:
    driver_package: str = ""  # path of the downloaded offline package (.exe)
    ddu_exe: str = ""  # path of 'Display Driver Uninstaller.exe'
    reopen_command: str = ""  # the command line that reopens this app at the setup page ("": app_reopen_command())


# The user's RunOnce key: Windows runs each value once at the user's next sign-in, then deletes it; a
# name starting with '*' runs in Safe Mode too (https://learn.microsoft.com/windows/win32/setupapi/
# run-and-runonce-registry-keys). HKCU, so the app reopens as the user, not as the administrator.
USER_RUNONCE_KEY = r"HKCU\Software\Microsoft\Windows\CurrentVersion\RunOnce"
REOPEN_VALUE = "*GPUAssistantSetup"
INSTALLED_APP = r"%LOCALAPPDATA%\Programs\GPU Assistant\gpu-assistant.exe"


def app_reopen_command(frozen: bool | None = None, executable: str | None = None, main_script: str | None = None,
                       windows: bool | None = None) -> str:
    """The command line that opens this app at the setup page, for RunOnce: the windowed
    gpu-assistant.exe of a bundle (not its -cli twin), or pythonw.exe with main.py from a checkout.
    Planning for another machine (not on Windows) names the installer's default location."""
    import subprocess
    from pathlib import PureWindowsPath

    windows = sys.platform == "win32" if windows is None else windows
    frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    executable = executable or sys.executable
    if not windows:
        return f'"{INSTALLED_APP}" --page setup'
    exe = PureWindowsPath(executable)
    if frozen:
        if exe.stem.lower().endswith("-cli"):
            exe = exe.with_name(exe.stem[: -len("-cli")] + exe.suffix)
        return subprocess.list2cmdline([str(exe), "--page", "setup"])
    if exe.name.lower() == "python.exe":
        exe = exe.with_name("pythonw.exe")  # no console window at sign-in
    if main_script is None:
        from pathlib import Path

        main_script = str(Path(__file__).resolve().parents[2] / "main.py")
    return subprocess.list2cmdline([str(exe), main_script, "--page", "setup"])


DRIVER_PLACEHOLDER = "<NVIDIA driver package .exe>"
# DDU's options and Safe Mode advice: Wagnard/display-drivers-uninstaller Readme.txt,
# AppLaunchOptions.vb, Application.xaml.vb.
DDU_PLACEHOLDER = "<Display Driver Uninstaller.exe>"


def build_windows_plan(inputs, rules, options: WindowsPlanOptions) -> Plan:
    from services.setup.linux_plans import plan_key, pytorch_steps

    w = rules.windows
    downloads = {d["name"]: d for d in rules.downloads}
    drv = downloads.get("NVIDIA driver (full offline package)", {})
    ddu = downloads.get("Display Driver Uninstaller (DDU)", {})
    # Placeholders until the person picks the files; the executor refuses to run them.
    pkg = options.driver_package or DRIVER_PLACEHOLDER
    ddu_exe = options.ddu_exe or DDU_PLACEHOLDER
    wu, search, sm = w["wu_driver_policy"], w["driver_search"], w["safe_mode_undo"]
    undo_sm = "bcdedit /deletevalue {current} safeboot"
    steps = [
        Step(
            id="download-driver",
            title=translate("Setup", "Download the driver's full offline package"),
            explanation=translate("Setup", "From NVIDIA's download page, pick your card and Windows and save the installer. Download it now: after the clean-up you may have no display driver and no easy way to browse. GPU Assistant does not bundle or fetch it."),
            manual=True, link=drv.get("url", ""), source=drv.get("source", ""),
            check=Check("file_exists", (options.driver_package,)) if options.driver_package else None,
        ),
        Step(
            id="download-ddu",
            title=translate("Setup", "Download Display Driver Uninstaller (DDU)"),
            explanation=translate("Setup", "Get DDU from its official site and unpack it. Use it only to repair a broken install or when changing GPU brand, not for every update."),
            manual=True, link=ddu.get("url", ""), source=ddu.get("source", ""),
            check=Check("file_exists", (options.ddu_exe,)) if options.ddu_exe else None,
        ),
        Step(
            id="block-driver-updates",
            title=translate("Setup", "Keep Windows Update from replacing the driver"),
            explanation=translate("Setup", "Sets the policy 'Do not include drivers with Windows Updates' and turns off automatic driver downloads for devices, so Windows does not install its own NVIDIA driver between the clean-up and your install. The old values are saved; the 'restore update settings' step puts them back."),
            registry=(RegistryChange(wu["key"], wu["value"], "REG_DWORD", str(wu["block"]),
                                     tuple(str(v) for v in wu.get("values", ()))),
                      RegistryChange(search["key"], search["value"], "REG_DWORD", str(search["block"]),
                                     tuple(str(v) for v in search.get("values", ())))),
            needs_root=True,
            check=Check("registry_value", argv=("reg", "query", wu["key"], "/v", wu["value"]), text=wu["value"], expect=str(wu["block"])),
            source=f'{wu["source"]}; {search["source"]}',
        ),
        Step(
            id="restore-point",
            title=translate("Setup", "Create a restore point"),
            explanation=translate("Setup", "A System Restore point lets you go back if something goes wrong. System Protection must be on for drive C:."),
            commands=(("powershell.exe", "-NoProfile", "-NonInteractive", "-Command",
                       "Checkpoint-Computer -Description 'GPU Assistant: before NVIDIA driver reinstall' -RestorePointType MODIFY_SETTINGS"),),
            needs_root=True,
            undo_note=translate("Setup", "A restore point is not undone; remove old ones in System Protection if you need the space."),
            source="DDU Readme.txt (make a restore point first)",
        ),
        Step(
            id="safe-mode",
            title=translate("Setup", "Restart into Safe Mode"),
            explanation=translate("Setup", "DDU works best in Safe Mode. First a RunOnce entry '*UndoSM' is written that switches Safe Mode off again at the next sign-in (the * makes it run in Safe Mode too), so the PC cannot get stuck there. If it ever does: at the Windows recovery command prompt run 'bcdedit /deletevalue {default} safeboot'. A second RunOnce entry reopens GPU Assistant at the next step (removing the old driver with DDU) when you sign in to Safe Mode, so the wizard continues after the restart. Save your work: this restarts the PC."),
            registry=(RegistryChange(sm["runonce_key"], sm["value"], "REG_SZ", undo_sm),
                      RegistryChange(USER_RUNONCE_KEY, REOPEN_VALUE, "REG_SZ", options.reopen_command or app_reopen_command())),
            commands=(("bcdedit", "/set", "{current}", "safeboot", "minimal"), ("shutdown", "/r", "/t", "15")),
            needs_root=True, needs_reboot=True,
            check=Check("command_output", argv=("bcdedit", "/enum", "{current}"), expect="safeboot"),
            undo=(("bcdedit", "/deletevalue", "{current}", "safeboot"),),
            source=sm["source"],
        ),
        Step(
            id="run-ddu",
            title=translate("Setup", "Remove the old driver with DDU"),
            explanation=translate("Setup", "In Safe Mode, DDU removes every trace of the NVIDIA driver and restarts into normal mode. -NoRestorePoint because the wizard made one."),
            commands=((ddu_exe, *w["ddu_args"]["args"], "-NoRestorePoint"),),
            needs_root=True, needs_reboot=True,
            undo_note=translate("Setup", "DDU's removal is not undone; the next step installs the new driver (or use the restore point)."),
            source=w["ddu_args"]["source"],
        ),
        Step(
            id="install-driver",
            title=translate("Setup", "Install the driver as a clean installation"),
            explanation=translate("Setup", "Back in normal mode, run the offline package. Choose 'Custom (Advanced)' and tick 'Perform a clean installation'. Restart when it asks."),
            commands=((pkg,),),
            needs_root=True,
            check=Check("command_ok", argv=("nvidia-smi",)),
            source="NVIDIA driver installer: its 'Perform a clean installation' option (the setup.exe -clean switch is community-documented; NVIDIA publishes no switch list)",
        ),
        Step(
            id="restore-update-settings",
            title=translate("Setup", "Restore the Windows Update settings"),
            explanation=translate("Setup", "Puts back the values the 'keep Windows Update from replacing the driver' step saved. Skip it if you want Windows to keep its hands off your driver."),
            commands=(), needs_root=True, restores="block-driver-updates",
            source=wu["source"],
        ),
        Step(
            id="verify-driver",
            title=translate("Setup", "Check that the driver works"),
            explanation=translate("Setup", "nvidia-smi talks to the driver through NVML. Exit code 0 means the driver is loaded and answers; its header shows the highest CUDA version this driver can run."),
            commands=(("nvidia-smi",),),
            check=Check("command_ok", argv=("nvidia-smi",)),
            source="https://docs.nvidia.com/deploy/nvidia-smi/index.html",
        ),
    ]
    install, verify = pytorch_steps(inputs, rules, "windows")
    steps += [install, verify]
    summary = translate("Setup", "Clean driver reinstall for {gpu} on Windows, then PyTorch").format(gpu=inputs.gpu_label)
    notes = (translate("Setup", "Each step that changes the system asks for administrator rights through a Windows (UAC) prompt."),)
    return Plan(plan_key("windows", inputs.gpu_label), "windows", "Windows", True, summary, notes, tuple(steps))

