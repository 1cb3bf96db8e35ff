"""Fakes for the hybrid-GPU checker, built from real formats (tests/data/hybrid)."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from services.hybrid.nvidia import NvidiaGpu, NvidiaProcess, NvidiaUtilization
from services.hybrid.system_mode import CommandResult
from services.hybrid.windows import HKCU, HKLM, CounterSample, RegistryError

DATA = Path(__file__).resolve().parent.parent / "data" / "hybrid"


def data(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def data_json(name: str) -> dict[str, Any]:
    return {k: v for k, v in json.loads(data(name)).items() if not k.startswith("_")}


class FakeRegistry:
    """An in-memory registry. Key paths are case-insensitive, as in Windows."""

    def __init__(self) -> None:
        self.keys: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}  # (hive, lower path) -> (path, values)
        self.fail_writes = False
        self.writes: list[tuple[str, str, str, Any]] = []

    def add_key(self, hive: str, path: str, values: dict[str, Any] | None = None) -> None:
        self.keys[(hive, path.lower())] = (path, dict(values or {}))

    def subkeys(self, hive: str, path: str) -> list[str]:
        prefix = path.lower() + "\\"
        return sorted({original[len(prefix):].split("\\")[0]
                       for (h, key), (original, _) in self.keys.items() if h == hive and key.startswith(prefix)})

    def values(self, hive: str, path: str) -> dict[str, Any]:
        return dict(self.keys.get((hive, path.lower()), (path, {}))[1])

    def set_string(self, hive: str, path: str, name: str, data: str) -> None:
        if self.fail_writes:
            raise RegistryError("Access is denied")
        self.writes.append(("set", hive, name, data))
        self.keys.setdefault((hive, path.lower()), (path, {}))[1][name] = data

    def delete_value(self, hive: str, path: str, name: str) -> None:
        if self.fail_writes:
            raise RegistryError("Access is denied")
        self.writes.append(("delete", hive, name, None))
        self.keys.get((hive, path.lower()), (path, {}))[1].pop(name, None)


def laptop_registry() -> FakeRegistry:
    """The adapters and the user's GPU preferences of the Optimus laptop in tests/data."""
    registry = FakeRegistry()
    for guid, values in data_json("windows_directx_adapters.json").items():
        registry.add_key(HKLM, f"SOFTWARE\\Microsoft\\DirectX\\{guid}", values)
    registry.add_key(HKCU, "Software\\Microsoft\\DirectX\\UserGpuPreferences", data_json("user_gpu_preferences.json"))
    return registry


class FakeCounters:
    def __init__(self) -> None:
        memory = data_json("windows_gpu_process_memory.json")
        self.result = CounterSample(
            engine_utilization=data_json("windows_gpu_engine.json"),
            dedicated_bytes=memory["dedicated"], shared_bytes=memory["shared"])
        self.intervals: list[float] = []

    def sample(self, interval_s: float) -> CounterSample:
        self.intervals.append(interval_s)
        return self.result


class FakeNvidiaProbe:
    def __init__(self, gpus: list[NvidiaGpu] | None = None, processes: list[NvidiaProcess] | None = None,
                 utilization: list[NvidiaUtilization] | None = None) -> None:
        self._gpus = gpus if gpus is not None else [NvidiaGpu(0, "NVIDIA GeForce RTX 3060 Laptop GPU", "0000:01:00.0")]
        self._processes = processes or []
        self._utilization = utilization or []
        self.closed = False
        self.since: list[int] = []

    def gpus(self):
        return list(self._gpus)

    def processes(self):
        return list(self._processes)

    def utilization_since(self, since_us: int):
        self.since.append(since_us)
        return list(self._utilization)

    def close(self) -> None:
        self.closed = True


class FakeRunner:
    """Answers commands from a table {argv tuple: (rc, stdout)}; tools not in it are not installed."""

    def __init__(self, answers: dict[tuple[str, ...], tuple[int, str]]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, ...]] = []

    def which(self, name: str) -> str | None:
        return f"/usr/bin/{name}" if any(argv[0] == name for argv in self.answers) else None

    def run(self, argv: list[str], timeout_s: float) -> CommandResult | None:
        self.calls.append(tuple(argv))
        if tuple(argv) not in self.answers:
            return None
        rc, out = self.answers[tuple(argv)]
        return CommandResult(rc, out, "")


# ---- sysfs --------------------------------------------------------------------------------

INTEL_IGPU = {"address": "0000:00:02.0", "vendor": 0x8086, "device": 0x9BC4, "class": 0x030000, "boot_vga": 1,
              "driver": "i915", "cards": ["card0", "renderD128"], "connectors": {"eDP-1": "connected",
                                                                                  "HDMI-A-1": "disconnected"}}
NVIDIA_DGPU = {"address": "0000:01:00.0", "vendor": 0x10DE, "device": 0x2560, "class": 0x030200, "boot_vga": 0,
               "driver": "nvidia", "cards": ["card1", "renderD129"], "connectors": {}}
AMD_APU = {"address": "0000:c4:00.0", "vendor": 0x1002, "device": 0x1681, "class": 0x030000, "boot_vga": 1,
           "driver": "amdgpu", "cards": ["card0", "renderD128"], "connectors": {"eDP-1": "connected"}}
AMD_APU_NEIGHBOURS = [{"address": "0000:c4:00.1", "vendor": 0x1002, "device": 0x1640, "class": 0x040300},
                      {"address": "0000:c4:00.2", "vendor": 0x1022, "device": 0x15C7, "class": 0x108000}]
AMD_DGPU = {"address": "0000:03:00.0", "vendor": 0x1002, "device": 0x73DF, "class": 0x030000, "boot_vga": 0,
            "driver": "amdgpu", "cards": ["card1", "renderD129"], "connectors": {"DP-1": "disconnected"}}


def build_sysfs(root: Path, gpus: list[dict], other_pci: list[dict] = (), pci_ids: bool = True) -> Path:
    """A sysfs tree like the kernel's: /sys/bus/pci/devices/<addr>, /sys/class/drm/cardN -> device."""
    devices = root / "sys/bus/pci/devices"
    drm = root / "sys/class/drm"
    drivers = root / "sys/bus/pci/drivers"
    devices.mkdir(parents=True, exist_ok=True)
    drm.mkdir(parents=True, exist_ok=True)
    for dev in [*gpus, *other_pci]:
        d = devices / dev["address"]
        d.mkdir()
        (d / "vendor").write_text(f"0x{dev['vendor']:04x}\n")
        (d / "device").write_text(f"0x{dev['device']:04x}\n")
        (d / "class").write_text(f"0x{dev['class']:06x}\n")
        (d / "uevent").write_text(f"DRIVER={dev.get('driver', '')}\nPCI_SLOT_NAME={dev['address']}\n")
        if "boot_vga" in dev:
            (d / "boot_vga").write_text(f"{dev['boot_vga']}\n")
        if dev.get("driver"):
            (drivers / dev["driver"]).mkdir(parents=True, exist_ok=True)
            os.symlink(os.path.relpath(drivers / dev["driver"], d), d / "driver")
    for gpu in gpus:
        for card in gpu.get("cards", []):
            (drm / card).mkdir()
            os.symlink(os.path.relpath(devices / gpu["address"], drm / card), drm / card / "device")
        card = next((c for c in gpu.get("cards", []) if c.startswith("card")), None)
        for name, status in gpu.get("connectors", {}).items():
            conn = drm / f"{card}-{name}"
            conn.mkdir()
            (conn / "status").write_text(status + "\n")
    if pci_ids:
        (root / "usr/share/misc").mkdir(parents=True, exist_ok=True)
        (root / "usr/share/misc/pci.ids").write_text(data("pci.ids"), encoding="utf-8")
    return root


# ---- /proc ---------------------------------------------------------------------------------

def add_process(proc: Path, pid: int, name: str, exe: str, fds: dict[int, tuple[str, str | None]] | None = None,
                maps: str = "", environ: dict[str, str] | None = None, cmdline: list[str] | None = None) -> Path:
    """A /proc/<pid> folder: fds {fd: (link target, fdinfo text)}, maps text, environment."""
    d = proc / str(pid)
    (d / "fd").mkdir(parents=True)
    (d / "fdinfo").mkdir()
    (d / "comm").write_text(name[:15] + "\n")
    os.symlink(exe, d / "exe")
    (d / "cmdline").write_bytes(b"\0".join(a.encode() for a in (cmdline or [exe])) + b"\0")
    (d / "maps").write_text(maps)
    env = {"PATH": "/usr/bin", **(environ or {})}
    (d / "environ").write_bytes(b"\0".join(f"{k}={v}".encode() for k, v in env.items()) + b"\0")
    for fd, (target, info) in (fds or {}).items():
        os.symlink(target, d / "fd" / str(fd))
        (d / "fdinfo" / str(fd)).write_text(info if info is not None else "pos:\t0\nflags:\t0100002\n")
    return d


class SwapOnWait(threading.Event):
    """Stands in for the stop event: during the attributor's wait, the fdinfo files move on to
    their second sample, as the kernel's counters would."""

    def __init__(self, swaps: dict[Path, str]) -> None:
        super().__init__()
        self.swaps = swaps
        self.waited: list[float] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.waited.append(timeout or 0.0)
        for path, text in self.swaps.items():
            path.write_text(text)
        return False
