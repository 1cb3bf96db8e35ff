"""The hybrid-GPU checker's one entry point for the CLI and the GUI."""
from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from collections.abc import Callable

from services.hybrid.attribution import LinuxAttributor, WindowsAttributor
from services.hybrid.inventory_linux import read_linux_inventory
from services.hybrid.launch import LaunchReport, launch_and_check
from services.hybrid.model import (
    GpuAdapter, GpuKind, Inventory, Placement, ProcessReport, ScanResult, Vendor, normalize_pci,
)
from services.hybrid.nvidia import NvidiaProcessProbe, open_nvidia_probe
from services.hybrid.preference import PlanError, PreferencePlan
from services.hybrid.preference_linux import offload_environment, plan_linux
from services.hybrid.preference_store import AppliedRecord, PreferenceStore
from services.hybrid.preference_windows import USER_GPU_PREFERENCES, describe_windows_preference, parse_tokens, plan_windows
from services.hybrid.system_mode import CommandRunner, SystemModes, read_system_modes
from services.hybrid.windows import CounterSource, Registry, RegistryError, read_windows_inventory
from services.i18n import Msg, translate

ProbeFactory = Callable[[], tuple[NvidiaProcessProbe | None, Msg | None]]


@dataclass(frozen=True, slots=True)
class PreferenceOffer:
    """Whether "Run on the NVIDIA GPU" can change anything for one program, and for which command.

    ``program``: the executable; ``args``: the rest of its command line (``train.py`` of
    ``python train.py``); ``cwd``: the folder it ran in. ``reason``: why not, when not offered.
    """

    offered: bool
    reason: Msg | None = None
    program: str | None = None
    args: tuple[str, ...] = ()
    cwd: str | None = None


class HybridService:
    """Inventory, attribution, preference and launch-and-check, for one platform.

    Everything that touches the system is injectable: the sysfs and /proc roots, the NVIDIA
    probe, the Windows registry and counters, the command runner and the home folder.
    """

    def __init__(self, platform: str = sys.platform, sysfs_root: Path | str = "/", proc_root: Path | str = "/proc",
                 nvidia_factory: ProbeFactory = open_nvidia_probe, registry: Registry | None = None,
                 counters: CounterSource | None = None, runner: CommandRunner | None = None,
                 home: Path | None = None, backup_dir: Path | None = None,
                 process_info: Callable[[int], tuple[str, str | None, tuple[str, ...]] | None] | None = None,
                 path_exists: Callable[[str], bool] | None = None) -> None:
        self.platform = "windows" if platform.startswith("win") else "linux" if platform.startswith("linux") else platform
        self.sysfs_root = Path(sysfs_root)
        self.proc_root = Path(proc_root)
        self._nvidia_factory = nvidia_factory
        self._nvidia: NvidiaProcessProbe | None = None
        self._nvidia_status: Msg | None = None
        self._nvidia_opened = False
        self._registry = registry
        self._counters = counters
        self._runner = runner
        self._process_info = process_info  # Windows: pid -> (name, exe, cmdline); psutil when None
        self._path_exists = path_exists or os.path.exists
        self.home = home or Path.home()
        if backup_dir is None:
            from services.paths import AppPaths

            backup_dir = AppPaths.default().data_dir / "hybrid-backups"
        self.store = PreferenceStore(backup_dir, registry, home=self.home)
        self._lock = threading.Lock()
        self._modes: tuple[float, SystemModes] | None = None

    # ---- NVIDIA
    def nvidia(self) -> tuple[NvidiaProcessProbe | None, Msg | None]:
        with self._lock:
            if not self._nvidia_opened:
                self._nvidia, self._nvidia_status = self._nvidia_factory()
                self._nvidia_opened = True
            return self._nvidia, self._nvidia_status

    def close(self) -> None:
        with self._lock:
            if self._nvidia is not None:
                self._nvidia.close()
            self._nvidia, self._nvidia_opened = None, False

    # ---- inventory
    def inventory(self) -> Inventory:
        if self.platform == "windows":
            if self._registry is None:
                return Inventory((), "windows", problems=(translate("Hybrid", "The Windows registry is not available here"),))
            inventory = read_windows_inventory(self._registry)
        elif self.platform == "linux":
            inventory = read_linux_inventory(self.sysfs_root)
        else:
            inventory = Inventory((), self.platform, problems=(translate("Hybrid", "This system is not supported"),))
        return self._add_nvml_gpus(inventory)

    def _add_nvml_gpus(self, inventory: Inventory) -> Inventory:
        probe, status = self.nvidia()
        checked = list(inventory.checked) + [translate("Hybrid", "Asked the NVIDIA driver (NVML)")]
        problems = list(inventory.problems)
        if status is not None:
            problems.append(status)
        adapters = list(inventory.adapters)
        if probe is not None:
            known_nvidia = [a for a in adapters if a.vendor is Vendor.NVIDIA]
            for position, gpu in enumerate(probe.gpus()):
                match = inventory.by_pci(gpu.pci_bus_id)
                if match is None and self.platform == "windows" and position < len(known_nvidia):
                    match = known_nvidia[position]
                if match is not None:
                    index = adapters.index(match)
                    adapters[index] = replace(match, name=gpu.name)  # the driver's marketing name
                    continue
                address = normalize_pci(gpu.pci_bus_id) if gpu.pci_bus_id else None
                adapters.append(GpuAdapter(
                    key=f"pci:{address}" if address else f"nvml:{gpu.index}", vendor=Vendor.NVIDIA, name=gpu.name,
                    kind=GpuKind.DISCRETE, kind_reason=translate("Hybrid", "NVIDIA GPUs in PCs are discrete"),
                    pci_address=address, driver="nvidia"))
        return Inventory(tuple(adapters), inventory.platform, tuple(checked), tuple(problems))

    # ---- attribution
    def scan(self, interval_s: float = 1.0, pids: list[int] | None = None, stop: threading.Event | None = None,
             include_all: bool = False, inventory: Inventory | None = None) -> ScanResult:
        inventory = inventory or self.inventory()
        probe, status = self.nvidia()
        if self.platform == "windows":
            counters = self._counters
            if counters is None:
                from services.hybrid.windows import PdhCounterSource

                counters = self._counters = PdhCounterSource()
            return WindowsAttributor(counters, probe, status, self._process_info).scan(
                inventory, interval_s, pids, stop, include_all)
        return LinuxAttributor(self.proc_root, probe, status).scan(inventory, interval_s, pids, stop, include_all)

    def process(self, pid: int, interval_s: float = 1.0) -> ProcessReport | None:
        return self.scan(interval_s, pids=[pid]).process(pid)

    # ---- system mode (Linux)
    MODES_TTL_S = 60.0

    def system_modes(self) -> SystemModes:
        """Cached for a minute: it runs up to four small commands, and modes change only with a reboot."""
        if self.platform != "linux":
            return SystemModes((), None)
        now = time.monotonic()
        if self._modes is None or now - self._modes[0] > self.MODES_TTL_S:
            self._modes = (now, read_system_modes(self._runner))
        return self._modes[1]

    # ---- preference
    def plan_prefer_nvidia(self, program: str, inventory: Inventory | None = None,
                           args: tuple[str, ...] = (), cwd: str | None = None) -> PreferencePlan:
        """``args``/``cwd``: the rest of the command line and its folder (Linux launchers keep
        them; the Windows preference is per program file and takes no arguments)."""
        if self.platform == "windows":
            if self._registry is None:
                raise PlanError(translate("Hybrid", "The Windows registry is not available here"))
            return plan_windows(self._registry, program, exists=self._path_exists)
        inventory = inventory or self.inventory()
        modes = self.system_modes()
        return plan_linux(program, inventory, self.home, switcheroo_running=modes.switcheroo is not None,
                          args=args, cwd=cwd)

    def preference_offer(self, report: ProcessReport, inventory: Inventory | None) -> PreferenceOffer:
        """Offer the preference only where it can move the program to the NVIDIA GPU."""
        if inventory is None or not inventory.has_nvidia:
            return PreferenceOffer(False, translate("Hybrid", "Needs an NVIDIA GPU; none was found."))
        if not any(a.kind is GpuKind.INTEGRATED or (not a.is_nvidia and a.drives_display) for a in inventory.adapters):
            return PreferenceOffer(False, translate(
                "Hybrid", "This computer has no integrated GPU: programs already run on the NVIDIA GPU."))
        if report.placement is Placement.NVIDIA:
            return PreferenceOffer(False, translate(
                "Hybrid", "It already runs on the NVIDIA GPU: there is nothing to change."))
        if not report.exe:
            return PreferenceOffer(False, translate(
                "Hybrid", "Its program file cannot be read from this account (another user's program)."))
        args = tuple(report.cmdline[1:]) if report.cmdline else ()
        cwd = None
        if args and self.platform == "linux":
            try:  # relative paths in the command (python train.py) are relative to this folder
                cwd = os.readlink(self.proc_root / str(report.pid) / "cwd")
            except OSError:
                cwd = None
        return PreferenceOffer(True, None, report.exe, args if self.platform != "windows" else (), cwd)

    def nvidia_gpu_names(self, report: ProcessReport, inventory: Inventory | None) -> tuple[str, ...]:
        """The NVIDIA GPUs ``report`` uses, by name, when the machine has more than one (else empty)."""
        if inventory is None or sum(1 for a in inventory.adapters if a.is_nvidia) < 2:
            return ()
        names = []
        for use in report.uses:
            adapter = inventory.adapter(use.adapter_key)
            if adapter is not None and adapter.is_nvidia and adapter.name not in names:
                names.append(adapter.name)
        return tuple(names)

    def apply(self, plan: PreferencePlan) -> AppliedRecord:
        return self.store.apply(plan)

    def undo(self, program: str) -> AppliedRecord:
        return self.store.undo(program)

    def current_preference(self, program: str) -> Msg | None:
        """What is already set for ``program``: the Windows preference, or a launcher made here."""
        if self.platform == "windows":
            if self._registry is None:
                return None
            try:
                values = self._registry.values("HKCU", USER_GPU_PREFERENCES)
            except RegistryError:
                return None
            data = next((v for k, v in values.items() if k.lower() == program.lower() and isinstance(v, str)), None)
            return describe_windows_preference(data)
        records = self.store.records(program)
        if not records:
            return translate("Hybrid", "No launcher from GPU Assistant for this program yet")
        launcher = records[-1].plan.changes[0].target
        return translate("Hybrid", "Has a GPU Assistant launcher: {path}").format(path=launcher)

    # ---- launch and check
    def launch_env(self, inventory: Inventory) -> tuple[tuple[str, str], ...]:
        return offload_environment(inventory) if self.platform == "linux" else ()

    def launch_and_check(self, argv: list[str], timeout_s: float = 20.0, poll_s: float = 1.0,
                         stop: threading.Event | None = None, inventory: Inventory | None = None,
                         on_progress=None) -> LaunchReport:
        inventory = inventory or self.inventory()
        env = self.launch_env(inventory)

        def scan(pids: list[int], interval: float, stop_event: threading.Event | None) -> ScanResult:
            return self.scan(interval, pids=pids, stop=stop_event, inventory=inventory)

        notes: list[Msg] = []
        if self.platform == "windows" and argv and self._registry is not None:
            try:
                values = self._registry.values("HKCU", USER_GPU_PREFERENCES)
            except RegistryError:
                values = {}
            data = next((v for k, v in values.items() if k.lower() == argv[0].lower() and isinstance(v, str)), None)
            if parse_tokens(data).get("GpuPreference") != "2":
                notes.append(translate(
                    "Hybrid", "Its Windows GPU preference is not High performance: use Run on the NVIDIA GPU first"))
        elif self.platform == "linux" and env:
            notes.append(translate("Hybrid", "Started with {vars}").format(vars=" ".join(f"{k}={v}" for k, v in env)))
        report = launch_and_check(argv, env, scan, timeout_s=timeout_s, poll_s=poll_s, stop=stop,
                                  on_progress=on_progress)
        return replace(report, notes=tuple(notes))


def default_service() -> HybridService:
    """The service for this computer (real sysfs, /proc, NVML, registry)."""
    registry = None
    if sys.platform == "win32":
        from services.hybrid.windows import WinRegistry

        registry = WinRegistry()
    return HybridService(registry=registry)
