"""The part of a telemetry hub that front ends read, as a type.

``TelemetryHub`` is the one implementation; the GUI tests drive a real hub
with a scripted source (tests/gui/fake_hub.py), so there is no second
behaviour to keep in step. Front ends type their hub as ``TelemetryFeed``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from services.telemetry.alerts import AlertEngine
    from services.telemetry.history import History
    from services.telemetry.model import GpuInfo, Snapshot, SourceStatus, TelemetrySource


@runtime_checkable
class TelemetryFeed(Protocol):
    """A sampled (or replayed) stream of snapshots plus the history they fill.

    Attributes:
        source: where the readings come from; ``source.kind`` says live, demo or replay.
        history: the ring buffer the graphs, throttle bands and insights read.
        alerts: the hub's ``AlertEngine`` (None when alerts are not attached).
    """

    source: TelemetrySource
    history: History
    alerts: AlertEngine | None

    @property
    def status(self) -> SourceStatus: ...

    @property
    def devices(self) -> tuple[GpuInfo, ...]: ...

    @property
    def latest(self) -> Snapshot | None: ...

    @property
    def live(self) -> bool: ...

    @property
    def backfill_pending(self) -> bool: ...

    def add_listener(self, fn: Callable[[Snapshot], None]) -> None: ...

    def remove_listener(self, fn: Callable[[Snapshot], None]) -> None: ...

    def start(self) -> None: ...

    def stop(self, timeout: float = 5.0) -> None: ...
