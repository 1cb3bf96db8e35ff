"""Runs the metrics endpoint beside the app, following the user's settings."""
from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Callable

from services.exporter.metrics import TelemetryCollector
from services.exporter.server import ExporterError, ExporterServer
from services.i18n import Msg, translate
from services.settings import ExporterSettings
from services.telemetry.model import Snapshot

if TYPE_CHECKING:
    from services.telemetry.feed import TelemetryFeed
    from services.telemetry.hub import CurrentHub


def hub_collector(hub: TelemetryFeed, hostname: str | None = None) -> TelemetryCollector:
    """A collector reading one hub's latest snapshot and throttle seconds (``exporter``: one hub per run)."""
    return following_collector(lambda: hub, hostname)


def current_hub_collector(hubs: CurrentHub, hostname: str | None = None) -> TelemetryCollector:
    """A collector reading whichever hub is current at scrape time: the app's exporter follows
    the demo, "Leave the demo" and an opened recording instead of serving the first hub."""
    return following_collector(lambda: hubs.hub, hostname)


def following_collector(hub: Callable[[], TelemetryFeed | None], hostname: str | None = None) -> TelemetryCollector:
    def latest() -> Snapshot | None:
        current = hub()
        return current.latest if current is not None else None

    def throttle_seconds(gpu: int | str) -> dict[str, float]:
        current = hub()
        if current is None:
            return {}
        try:
            return dict(current.history.seconds_in_reason(gpu))
        except (IndexError, KeyError, ValueError):
            return {}

    return TelemetryCollector(latest, throttle_seconds, hostname)


class ExporterService:
    """Starts, stops or moves the endpoint when ``apply`` sees new settings."""

    def __init__(self, collector_factory: Callable[[], TelemetryCollector]) -> None:
        self._collector_factory = collector_factory
        self._server: ExporterServer | None = None
        self.problem: Msg | None = None

    @property
    def server(self) -> ExporterServer | None:
        return self._server

    def apply(self, settings: ExporterSettings) -> None:
        want = settings.run_in_background
        current = self._server
        if current is not None and (not want or (current.host, current.port) != (settings.host, settings.port)):
            current.stop()
            self._server = None
        self.problem = None
        if want and self._server is None:
            server = ExporterServer(self._collector_factory(), settings.host, settings.port)
            try:
                server.start()
            except ExporterError as exc:
                self.problem = translate("Exporter", "The metrics endpoint could not start: {error}").format(error=exc.message)
                return
            self._server = server

    def status(self) -> Msg:
        if self.problem is not None:
            return self.problem
        if self._server is None:
            return translate("Exporter", "The metrics endpoint is off.")
        return translate("Exporter", "Serving Prometheus metrics at {url}").format(url=self._server.url)

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None
