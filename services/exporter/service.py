"""Runs the metrics endpoint beside the app, following the user's settings."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from services.exporter.metrics import TelemetryCollector
from services.exporter.server import ExporterError, ExporterServer
from services.i18n import Msg, translate
from services.settings import ExporterSettings
from services.telemetry.model import Snapshot


def hub_collector(hub: Any, hostname: str | None = None) -> TelemetryCollector:
    """A collector reading a TelemetryHub's latest snapshot and throttle seconds."""

    def latest() -> Snapshot | None:
        value = hub.latest
        return value() if callable(value) else value

    def throttle_seconds(gpu: int | str) -> dict[str, float]:
        history = getattr(hub, "history", None)
        if history is None or not hasattr(history, "seconds_in_reason"):
            return {}
        try:
            return dict(history.seconds_in_reason(gpu))
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
