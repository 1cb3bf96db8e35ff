"""Starts, replaces and stops the telemetry hub; pages ask it rather than the composition root.

``gui.app`` makes one per run (``build_context``) and hands it to the views that
show readings. The dashboard's "Show the demo", "Leave the demo" and "Back to
live" buttons and the sessions dialog's "Open" call it. Each replacement goes
through ``hubs`` (a ``services.telemetry.hub.CurrentHub``), the event its users
follow: the exporter (``gui.app.attach_exporter``), and in the GUI thread the
one bridge (its ``hub_changed`` signal) that the dashboard, its process view and
the tray listen to.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from gui.monitor.bridge import TelemetryBridge

if TYPE_CHECKING:
    from gui.context import AppContext
    from services.telemetry.feed import TelemetryFeed
    from services.telemetry.hub import CurrentHub
    from services.telemetry.model import TelemetrySource
    from services.telemetry.hub import TelemetryHub
    from services.telemetry.replay import ReplaySource


class TelemetryController:
    """The hub of one app run (``context.telemetry``) and the bridge that carries its readings to the GUI."""

    def __init__(self, context: AppContext, live_source: Callable[[], TelemetrySource] | None = None,
                 record: bool | None = None) -> None:
        """``live_source``: the source of this computer's GPUs (None: NVML; tests: NVML over a fake binding).
        ``record``: services.telemetry.factory.build_hub's ``record`` (None: the settings decide)."""
        self._context = context
        self._live_source = live_source
        self._bridge: TelemetryBridge | None = None
        self._record = record
        self.hubs: CurrentHub = context.hubs
        self.hubs.subscribe(self._follow)

    # ---- Public API
    @property
    def hub(self) -> TelemetryFeed | None:
        return self.hubs.hub

    @property
    def demo(self) -> bool:
        """The live choice: the simulated demo (True) or this computer's GPUs; a replay keeps it."""
        return bool(self._context.demo)

    def bridge(self) -> TelemetryBridge:
        """The run's one bridge, listening to the current hub (made on first use)."""
        hub = self.hubs.hub
        if self._bridge is None:
            self._bridge = TelemetryBridge(hub)
        elif self._bridge.hub is not hub:
            self._bridge.set_hub(hub)
        return self._bridge

    def attach(self, replay: str | ReplaySource | None = None, start: bool = True) -> TelemetryHub:
        """Build the first hub: the demo, a replay (a path or an opened ``ReplaySource``) or NVML."""
        hub = self._build(demo=self._context.demo, replay=replay)
        self.hubs.replace(hub)
        if start:
            hub.start()
        return hub

    def start_demo(self) -> TelemetryHub:
        """Replace the running hub with the simulated two-GPU run."""
        return self._replace(demo=True, replay=None)

    def start_live(self) -> TelemetryHub:
        """Replace the running hub with this computer's GPUs (NVML)."""
        return self._replace(demo=False, replay=None)

    def restart(self) -> TelemetryHub:
        """Back to the live choice (NVIDIA or the demo) that a replay left, with a fresh hub."""
        return self._replace(demo=self._context.demo, replay=None)

    def open_replay(self, path: str) -> TelemetryHub:
        """Show a recording or an nvidia-smi log. Raises ValueError (one line: ``args[0]`` is the
        translatable ``Msg``, ``str()`` English) and keeps the current monitoring when the file cannot be read."""
        from services.telemetry.replay import ReplayError, open_replay

        try:
            source = open_replay(path)
        except ReplayError as exc:
            raise ValueError(exc.message) from None  # str() English; the Msg for the dialog (``render``)
        return self._replace(demo=self._context.demo, replay=source)

    def stop(self) -> None:
        hub = self.hubs.hub
        if hub is not None:
            hub.stop()

    def close(self) -> None:
        """Stop the hub and stop following replacements (the end of the run)."""
        self.stop()
        self.hubs.unsubscribe(self._follow)

    # ---- Internals
    def _build(self, demo: bool, replay: str | ReplaySource | None) -> TelemetryHub:
        from services.telemetry.factory import build_hub

        context = self._context
        sources = None
        if sys.platform == "win32" and not demo and not replay and self._live_source is None:
            # Windows: per-process memory and engines from the GPU counters (NVML has none under WDDM).
            from services.hybrid.gpu_counters import windows_process_sources

            sources = windows_process_sources()
        elif sys.platform.startswith("linux") and not demo and not replay and self._live_source is None:
            # Linux: the integrated GPU's processes from DRM fdinfo (NVML sees only NVIDIA's).
            from services.hybrid.drm_processes import linux_process_sources

            sources = linux_process_sources()
        return build_hub(demo=demo, replay=replay, settings=context.settings_store.settings, paths=context.paths,
                         live_source=self._live_source, record=self._record, process_sources=sources)

    def _replace(self, demo: bool, replay: str | ReplaySource | None) -> TelemetryHub:
        # The new hub is built before the old one stops, so a failure leaves monitoring running.
        hub = self._build(demo=demo, replay=replay)
        self.stop()
        if replay is None:  # a replay leaves the live choice (NVIDIA or demo) to come back to
            self._context.demo = demo
        self.hubs.replace(hub)  # the followers move before it starts, so no reading is missed
        hub.start()
        return hub

    def _follow(self, hub: TelemetryFeed | None) -> None:
        if self._bridge is not None:
            self._bridge.set_hub(hub)
