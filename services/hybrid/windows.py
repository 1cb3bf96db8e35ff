"""Windows pieces behind small interfaces, importable on any OS.

- ``Registry``: the few registry calls we need; ``WinRegistry`` uses ``winreg``.
- Adapters and LUIDs from HKLM\\SOFTWARE\\Microsoft\\DirectX\\{GUID} (the route fastfetch
  uses; no COM needed). LUIDs change each boot, so they are read at run time.
- The "GPU Engine" and "GPU Process Memory" performance counters: instance-name parsing
  and a PDH reader (ctypes on pdh.dll, English counter names so localized Windows works).
"""
from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass
from typing import Any, Protocol
from collections.abc import Callable

from services.hybrid.model import GpuAdapter, GpuKind, Inventory, Vendor, vendor_of
from services.i18n import translate

HKLM = "HKLM"
HKCU = "HKCU"
DIRECTX_KEY = r"SOFTWARE\Microsoft\DirectX"
MICROSOFT_BASIC_RENDER_VENDOR = 0x1414

REG_SZ = 1
REG_DWORD = 4
REG_QWORD = 11


class RegistryError(Exception):
    """A registry call failed (access denied, ...). The message is one line."""


class Registry(Protocol):
    def subkeys(self, hive: str, path: str) -> list[str]: ...

    def values(self, hive: str, path: str) -> dict[str, Any]: ...

    def set_string(self, hive: str, path: str, name: str, data: str) -> None: ...

    def delete_value(self, hive: str, path: str, name: str) -> None: ...


class WinRegistry:
    """``Registry`` on the real Windows registry."""

    def __init__(self) -> None:
        import winreg as winreg_module  # Windows only; imported here so the module loads on Linux

        winreg: Any = winreg_module  # typeshed has winreg on win32 only; mypy checks as on Linux

        self._winreg = winreg
        self._hives = {HKLM: winreg.HKEY_LOCAL_MACHINE, HKCU: winreg.HKEY_CURRENT_USER}

    def subkeys(self, hive: str, path: str) -> list[str]:
        winreg = self._winreg
        try:
            with winreg.OpenKey(self._hives[hive], path) as key:
                count = winreg.QueryInfoKey(key)[0]
                return [winreg.EnumKey(key, i) for i in range(count)]
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise RegistryError(f"{hive}\\{path}: {exc.strerror or exc}") from exc

    def values(self, hive: str, path: str) -> dict[str, Any]:
        winreg = self._winreg
        try:
            with winreg.OpenKey(self._hives[hive], path) as key:
                count = winreg.QueryInfoKey(key)[1]
                result = {}
                for i in range(count):
                    name, data, _kind = winreg.EnumValue(key, i)
                    result[name] = data
                return result
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise RegistryError(f"{hive}\\{path}: {exc.strerror or exc}") from exc

    def set_string(self, hive: str, path: str, name: str, data: str) -> None:
        winreg = self._winreg
        try:
            with winreg.CreateKeyEx(self._hives[hive], path, 0, winreg.KEY_SET_VALUE) as key:
                winreg.SetValueEx(key, name, 0, winreg.REG_SZ, data)
        except OSError as exc:
            raise RegistryError(f"{hive}\\{path}: {exc.strerror or exc}") from exc

    def delete_value(self, hive: str, path: str, name: str) -> None:
        winreg = self._winreg
        try:
            with winreg.OpenKey(self._hives[hive], path, 0, winreg.KEY_SET_VALUE) as key:
                winreg.DeleteValue(key, name)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise RegistryError(f"{hive}\\{path}: {exc.strerror or exc}") from exc


def format_luid(high: int, low: int) -> str:
    """The form used in counter instance names: 0xHHHHHHHH_0xLLLLLLLL (upper-case hex)."""
    return f"0x{high & 0xFFFFFFFF:08X}_0x{low & 0xFFFFFFFF:08X}"


def luid_from_qword(value: int) -> str:
    return format_luid(value >> 32, value & 0xFFFFFFFF)


# fastfetch (gpu_windows.c) calls an adapter with >= 1 GiB dedicated video memory discrete.
DISCRETE_MIN_DEDICATED_BYTES = 1024 ** 3


def read_windows_inventory(registry: Registry) -> Inventory:
    adapters: list[GpuAdapter] = []
    problems = []
    checked = [translate("Hybrid", "Read {path}").format(path="HKLM\\" + DIRECTX_KEY)]
    try:
        subkeys = registry.subkeys(HKLM, DIRECTX_KEY)
    except RegistryError as exc:
        subkeys = []
        problems.append(translate("Hybrid", "Could not read the adapter list: {error}").format(error=str(exc)))
    seen: set[str] = set()
    for sub in sorted(subkeys):
        if not sub.startswith("{"):
            continue
        try:
            values = registry.values(HKLM, f"{DIRECTX_KEY}\\{sub}")
        except RegistryError:
            continue
        vendor_id = values.get("VendorId")
        luid_raw = values.get("AdapterLuid")
        if vendor_id == MICROSOFT_BASIC_RENDER_VENDOR or values.get("SoftwareAdapter") or luid_raw is None:
            continue
        luid = luid_from_qword(int(luid_raw))
        if luid in seen:
            continue
        seen.add(luid)
        vendor = vendor_of(vendor_id)
        dedicated = values.get("DedicatedVideoMemory")
        if vendor is Vendor.NVIDIA:
            kind, reason = GpuKind.DISCRETE, translate("Hybrid", "NVIDIA GPUs in PCs are discrete")
        elif isinstance(dedicated, int):
            if dedicated >= DISCRETE_MIN_DEDICATED_BYTES:
                kind, reason = GpuKind.DISCRETE, translate("Hybrid", "Has its own video memory")
            else:
                kind, reason = GpuKind.INTEGRATED, translate("Hybrid", "Shares the computer's memory")
        else:
            kind, reason = GpuKind.UNKNOWN, translate("Hybrid", "Not enough information to tell")
        device_id = values.get("DeviceId")
        adapters.append(GpuAdapter(
            key=f"luid:{luid}", vendor=vendor, name=str(values.get("Description") or "GPU"), kind=kind,
            kind_reason=reason, vendor_id=vendor_id if isinstance(vendor_id, int) else None,
            device_id=device_id if isinstance(device_id, int) else None, luid=luid,
            dedicated_memory_mib=dedicated / 1024 ** 2 if isinstance(dedicated, int) else None,
            # On an Optimus laptop the panel is wired to the integrated GPU.
            drives_display=None,
        ))
    return Inventory(adapters=tuple(adapters), platform="windows", checked=tuple(checked), problems=tuple(problems))


# ---- performance counters -------------------------------------------------------------

ENGINE_INSTANCE = re.compile(
    r"^pid_(\d+)_luid_(0x[0-9A-Fa-f]{8})_(0x[0-9A-Fa-f]{8})_phys_(\d+)_eng_(\d+)_engtype_(.*)$")
MEMORY_INSTANCE = re.compile(r"^pid_(\d+)_luid_(0x[0-9A-Fa-f]{8})_(0x[0-9A-Fa-f]{8})_phys_(\d+)$")

# Engine types doing rendering or compute. Names come from the driver (3D, Compute_0,
# Cuda, Graphics_1 ...); everything else (Copy, Video*, LegacyOverlay, Security) is not.
_WORK_ENGTYPE = re.compile(r"^(3D|Compute(_\d+)?|Cuda|Graphics(_\d+)?|VR)$", re.IGNORECASE)


def is_work_engtype(engtype: str) -> bool:
    return bool(_WORK_ENGTYPE.match(engtype.strip()))


@dataclass(frozen=True, slots=True)
class EngineInstance:
    pid: int
    luid: str
    phys: int
    engine: int
    engtype: str


def parse_engine_instance(name: str) -> EngineInstance | None:
    match = ENGINE_INSTANCE.match(name.strip())
    if not match:
        return None
    pid, high, low, phys, eng, engtype = match.groups()
    return EngineInstance(int(pid), format_luid(int(high, 16), int(low, 16)), int(phys), int(eng), engtype)


def parse_memory_instance(name: str) -> tuple[int, str] | None:
    match = MEMORY_INSTANCE.match(name.strip())
    if not match:
        return None
    pid, high, low, _phys = match.groups()
    return int(pid), format_luid(int(high, 16), int(low, 16))


@dataclass(frozen=True, slots=True)
class CounterSample:
    engine_utilization: dict[str, float]  # instance -> % over the interval
    dedicated_bytes: dict[str, float]  # GPU Process Memory instance -> bytes
    shared_bytes: dict[str, float]


class CounterSource(Protocol):
    def sample(self, interval_s: float) -> CounterSample: ...


ENGINE_COUNTER = r"\GPU Engine(*)\Utilization Percentage"
DEDICATED_COUNTER = r"\GPU Process Memory(*)\Dedicated Usage"
SHARED_COUNTER = r"\GPU Process Memory(*)\Shared Usage"


def pdh_item_type() -> type:
    """PDH_FMT_COUNTERVALUE_ITEM_W: {LPWSTR szName; PDH_FMT_COUNTERVALUE FmtValue} with
    FmtValue = {DWORD CStatus; union {LONG; double; LONGLONG; LPCSTR; LPCWSTR}} (pdh.h).
    Fixed-width types so the layout is Windows' on every OS (the tests build it on Linux)."""
    import ctypes

    class Value(ctypes.Union):
        _fields_ = [("longValue", ctypes.c_int32), ("doubleValue", ctypes.c_double),
                    ("largeValue", ctypes.c_int64), ("AnsiStringValue", ctypes.c_char_p),
                    ("WideStringValue", ctypes.c_wchar_p)]

    class FmtValue(ctypes.Structure):
        _fields_ = [("CStatus", ctypes.c_uint32), ("value", Value)]

    class Item(ctypes.Structure):
        _fields_ = [("szName", ctypes.c_wchar_p), ("FmtValue", FmtValue)]

    return Item


class PdhCounterSource:
    """Reads the GPU counters through pdh.dll (Windows only)."""

    PDH_FMT_DOUBLE = 0x00000200
    PDH_FMT_NOCAP100 = 0x00008000
    PDH_MORE_DATA = 0x800007D2

    def __init__(self, pdh: Any = None, sleep: Callable[[float], None] = time.sleep) -> None:
        import ctypes

        if pdh is None:
            if sys.platform != "win32":
                raise OSError("performance counters exist only on Windows")
            pdh = ctypes.WinDLL("pdh.dll")
        self._ctypes = ctypes
        self._pdh = pdh
        self._sleep = sleep
        self._Item = pdh_item_type()

    def sample(self, interval_s: float) -> CounterSample:
        ctypes = self._ctypes
        query = ctypes.c_void_p()
        self._check(self._pdh.PdhOpenQueryW(None, None, ctypes.byref(query)), "PdhOpenQueryW")
        try:
            counters = {}
            for path in (ENGINE_COUNTER, DEDICATED_COUNTER, SHARED_COUNTER):
                handle = ctypes.c_void_p()
                self._check(self._pdh.PdhAddEnglishCounterW(query, path, None, ctypes.byref(handle)),
                            "PdhAddEnglishCounterW")
                counters[path] = handle
            # Utilization Percentage is a rate: two collections an interval apart.
            self._check(self._pdh.PdhCollectQueryData(query), "PdhCollectQueryData")
            self._sleep(interval_s)
            self._check(self._pdh.PdhCollectQueryData(query), "PdhCollectQueryData")
            return CounterSample(
                engine_utilization=self._array(counters[ENGINE_COUNTER]),
                dedicated_bytes=self._array(counters[DEDICATED_COUNTER]),
                shared_bytes=self._array(counters[SHARED_COUNTER]),
            )
        finally:
            self._pdh.PdhCloseQuery(query)

    def _array(self, counter: Any) -> dict[str, float]:
        ctypes = self._ctypes
        size = ctypes.c_ulong(0)
        count = ctypes.c_ulong(0)
        fmt = self.PDH_FMT_DOUBLE | self.PDH_FMT_NOCAP100
        status = self._pdh.PdhGetFormattedCounterArrayW(counter, fmt, ctypes.byref(size), ctypes.byref(count), None)
        if (status & 0xFFFFFFFF) != self.PDH_MORE_DATA:
            return {}
        buffer = ctypes.create_string_buffer(size.value)
        self._check(self._pdh.PdhGetFormattedCounterArrayW(counter, fmt, ctypes.byref(size), ctypes.byref(count),
                                                           buffer), "PdhGetFormattedCounterArrayW")
        items = ctypes.cast(buffer, ctypes.POINTER(self._Item))
        result: dict[str, float] = {}
        for i in range(count.value):
            item = items[i]
            if item.FmtValue.CStatus in (0, 1):  # PDH_CSTATUS_VALID_DATA, PDH_CSTATUS_NEW_DATA
                result[item.szName] = result.get(item.szName, 0.0) + item.FmtValue.value.doubleValue
        return result

    @staticmethod
    def _check(status: int, call: str) -> None:
        if status & 0xFFFFFFFF:
            raise OSError(f"{call} failed: 0x{status & 0xFFFFFFFF:08X}")
