"""The app's services and models, built by ``gui.app``. Pages are not given this bag:
``gui.pages.page_arguments`` hands each page the ones it shows."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from services.paths import AppPaths
from services.settings import SettingsStore
from services.telemetry.hub import CurrentHub

if TYPE_CHECKING:
    from services.telemetry.feed import TelemetryFeed
    from services.exporter.service import ExporterService
    from services.hybrid.service import HybridService


class TelemetryControl(Protocol):
    """What pages ask of ``gui.monitor.controller.TelemetryController`` (typed here, so that
    this module, which every page imports, does not import the monitor package back)."""

    hubs: CurrentHub

    @property
    def hub(self) -> TelemetryFeed | None: ...

    @property
    def demo(self) -> bool: ...  # the live choice: the demo (True) or this computer's GPUs

    def bridge(self) -> Any: ...  # the run's TelemetryBridge: hub_changed(object), snapshot_received(object)

    def start_demo(self) -> Any: ...

    def start_live(self) -> Any: ...

    def restart(self) -> Any: ...

    def open_replay(self, path: str) -> Any: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


@dataclass
class SetupMachine:
    """The machine the Setup page probes and changes; tests hand in fakes.

    A field left None means the real one (a subprocess runner, ``/``, NVML,
    the user's home, this platform).
    """

    runner: Any = None  # services.setup.executor runner: runs argument lists
    root: Any = None  # services.setup.system.SystemRoot
    nvml: Any = None  # an NVML binding (tests: tests.fakes.fake_nvml.FakeNvml)
    home: Path | None = None
    system: str | None = None  # "linux" or "windows"
    windows_probe: Any = None  # services.setup.windows.LiveWindowsProbe


@dataclass
class AppContext:
    paths: AppPaths
    settings_store: SettingsStore
    language: str = "en"
    demo: bool = False
    # The hub monitored now and the event of its replacement (demo, live, a recording):
    # views and services that show readings are given this, never a hub to keep.
    hubs: CurrentHub = field(default_factory=CurrentHub)
    # Starts and replaces the hub; made by gui.app.build_context.
    telemetry_control: TelemetryControl | None = None
    # Serves this machine's metrics when Settings say so; made by gui.app.attach_exporter.
    exporter: ExporterService | None = None
    # The hybrid-GPU service; gui.pages.hybrid_service makes the default one on first use.
    hybrid_service: HybridService | None = None
    # What the Setup page runs against; None: this computer.
    setup_machine: SetupMachine | None = None

    @property
    def telemetry(self) -> TelemetryFeed | None:
        """The current hub, or None when monitoring is not running."""
        return self.hubs.hub

    @telemetry.setter
    def telemetry(self, hub: TelemetryFeed | None) -> None:
        self.hubs.replace(hub)  # its followers hear of it
