"""The Windows backends' own code, run on any OS with stand-ins at the API level:
a fake ``winreg`` module for WinRegistry and a fake pdh.dll for PdhCounterSource."""
from __future__ import annotations

import ctypes
import sys
import types

import pytest

from services.hybrid.windows import (
    DEDICATED_COUNTER, ENGINE_COUNTER, HKCU, SHARED_COUNTER, PdhCounterSource, RegistryError, pdh_item_type,
)
from tests.fakes.hybrid_fakes import data_json


# ---- winreg ------------------------------------------------------------------------------------

class FakeKey:
    def __init__(self, store, path):
        self.store, self.path = store, path

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def fake_winreg(store: dict[str, dict], denied: set[str] = frozenset()):
    """``winreg`` at the function level: keys are 'HKCU\\path' strings in ``store``."""
    mod = types.ModuleType("winreg")
    mod.HKEY_LOCAL_MACHINE, mod.HKEY_CURRENT_USER = "HKLM", "HKCU"
    mod.KEY_SET_VALUE, mod.REG_SZ = 0x0002, 1

    def full(hive, path):
        return f"{hive}\\{path}".lower()

    def OpenKey(hive, path, reserved=0, access=0):  # winreg's names
        key = full(hive, path)
        if key in denied:
            raise PermissionError(13, "Access is denied")
        if key not in store:
            raise FileNotFoundError(2, "The system cannot find the file specified")
        return FakeKey(store, key)

    def CreateKeyEx(hive, path, reserved=0, access=0):
        key = full(hive, path)
        if key in denied:
            raise PermissionError(13, "Access is denied")
        store.setdefault(key, {})
        return FakeKey(store, key)

    def QueryInfoKey(key):
        subs = [k for k in store if k.startswith(key.path + "\\")]
        return (len(subs), len(store[key.path]), 0)

    def EnumKey(key, index):
        subs = sorted({k[len(key.path) + 1:].split("\\")[0] for k in store if k.startswith(key.path + "\\")})
        return subs[index]

    def EnumValue(key, index):
        name, value = list(store[key.path].items())[index]
        return name, value, 1

    def SetValueEx(key, name, reserved, kind, value):
        store[key.path][name] = value

    def DeleteValue(key, name):
        if name not in store[key.path]:
            raise FileNotFoundError(2, "not found")
        del store[key.path][name]

    for fn in (OpenKey, CreateKeyEx, QueryInfoKey, EnumKey, EnumValue, SetValueEx, DeleteValue):
        setattr(mod, fn.__name__, fn)
    return mod


PREFS = "Software\\Microsoft\\DirectX\\UserGpuPreferences"


@pytest.fixture
def registry(monkeypatch):
    store = {f"hkcu\\{PREFS}".lower(): dict(data_json("user_gpu_preferences.json"))}
    for guid, values in data_json("windows_directx_adapters.json").items():
        store[f"hklm\\software\\microsoft\\directx\\{guid}".lower()] = dict(values)
    store["hklm\\software\\microsoft\\directx"] = {}
    monkeypatch.setitem(sys.modules, "winreg", fake_winreg(store, denied={"hkcu\\software\\locked"}))
    from services.hybrid.windows import WinRegistry

    return WinRegistry(), store


def test_winregistry_reads_writes_and_deletes(registry):
    reg, store = registry
    assert len(reg.subkeys("HKLM", "SOFTWARE\\Microsoft\\DirectX")) == 5
    assert reg.values(HKCU, PREFS)["DirectXUserGlobalSettings"] == "SwapEffectUpgradeEnable=1;"
    reg.set_string(HKCU, PREFS, "C:\\a b\\x.exe", "GpuPreference=2;")
    assert reg.values(HKCU, PREFS)["C:\\a b\\x.exe"] == "GpuPreference=2;"
    reg.delete_value(HKCU, PREFS, "C:\\a b\\x.exe")
    reg.delete_value(HKCU, PREFS, "C:\\a b\\x.exe")  # already gone: fine
    assert reg.values(HKCU, "Software\\Nothing") == {} and reg.subkeys(HKCU, "Software\\Nothing") == []


def test_winregistry_refusal_is_a_registry_error(registry):
    reg, _ = registry
    with pytest.raises(RegistryError, match="Access is denied"):
        reg.set_string(HKCU, "Software\\Locked", "x", "y")
    with pytest.raises(RegistryError):
        reg.values(HKCU, "Software\\Locked")


def test_inventory_through_winregistry(registry):
    from services.hybrid.windows import read_windows_inventory

    reg, _ = registry
    names = [a.name for a in read_windows_inventory(reg).adapters]
    assert names == ["Intel(R) UHD Graphics", "NVIDIA GeForce RTX 3060 Laptop GPU"]


# ---- pdh.dll -------------------------------------------------------------------------------------

class FakePdh:
    """pdh.dll's five calls with the two-call size pattern of PdhGetFormattedCounterArrayW."""

    MORE_DATA = 0x800007D2

    def __init__(self, arrays: dict[str, dict[str, float]], fail: str | None = None):
        self.arrays, self.fail = arrays, fail
        self.counters: dict[int, str] = {}
        self.collected = 0
        self.closed = False
        self._keep: list = []
        self.item = pdh_item_type()

    def PdhOpenQueryW(self, source, user, query_ref):
        query_ref._obj.value = 1
        return 0x800007D0 if self.fail == "open" else 0

    def PdhAddEnglishCounterW(self, query, path, user, counter_ref):
        handle = len(self.counters) + 10
        self.counters[handle] = path
        counter_ref._obj.value = handle
        return 0xC0000BB8 if self.fail == "add" else 0  # PDH_CSTATUS_NO_OBJECT

    def PdhCollectQueryData(self, query):
        self.collected += 1
        return 0

    def PdhGetFormattedCounterArrayW(self, counter, fmt, size_ref, count_ref, buffer):
        values = self.arrays[self.counters[counter.value]]
        if buffer is None:
            size_ref._obj.value = ctypes.sizeof(self.item) * len(values)
            count_ref._obj.value = len(values)
            return self.MORE_DATA if values else 0
        items = ctypes.cast(buffer, ctypes.POINTER(self.item))
        for i, (name, value) in enumerate(values.items()):
            text = ctypes.create_unicode_buffer(name)
            self._keep.append(text)
            items[i].szName = ctypes.cast(text, ctypes.c_wchar_p)
            items[i].FmtValue.CStatus = 0
            items[i].FmtValue.value.doubleValue = value
        count_ref._obj.value = len(values)
        return 0

    def PdhCloseQuery(self, query):
        self.closed = True
        return 0


def test_pdh_source_collects_twice_and_decodes_arrays():
    engine = data_json("windows_gpu_engine.json")
    memory = data_json("windows_gpu_process_memory.json")
    pdh = FakePdh({ENGINE_COUNTER: engine, DEDICATED_COUNTER: memory["dedicated"], SHARED_COUNTER: {}})
    slept = []
    sample = PdhCounterSource(pdh=pdh, sleep=slept.append).sample(1.0)
    assert pdh.collected == 2 and slept == [1.0] and pdh.closed
    assert sample.engine_utilization == engine
    assert sample.dedicated_bytes["pid_15304_luid_0x00000000_0x0000E2F1_phys_0"] == 5368709120
    assert sample.shared_bytes == {}


def test_pdh_failure_is_an_oserror_and_closes_the_query():
    pdh = FakePdh({}, fail="add")
    with pytest.raises(OSError, match="PdhAddEnglishCounterW failed: 0xC0000BB8"):
        PdhCounterSource(pdh=pdh, sleep=lambda s: None).sample(1.0)
    assert pdh.closed


def test_pdh_source_needs_windows_without_a_dll():
    if sys.platform != "win32":
        with pytest.raises(OSError):
            PdhCounterSource()
