"""The sampler: one worker thread reads a TelemetrySource on a tiered schedule.

FAST fields (utilisation, memory, power, clocks, P-state, temperature, throttling) are
read every ``fast_interval_s``; SLOW ones (fan, PCIe, processes, ECC,
encoder/decoder) every ``slow_interval_s`` and carried over in between;
STATIC facts once at open and again when the GPUs are re-identified.

The source is opened once. A source that cannot give readings (no driver, the
driver unloaded mid-run) says so in the status of each reading and retries on
its own schedule (NvmlSource backs off 2 s, 4 s, ... 60 s): one retry loop,
which ``monitor`` (no hub) relies on too.

The schedule is kept by adding the interval to the previous due time
(``next += interval``), not "now + interval", so the rate does not drift with
the cost of a read; when the thread was held up for longer than a slot, the
missed slots are skipped rather than read in a burst.

Qt-free on purpose: the GUI subscribes with ``add_listener`` (called on the
worker thread; marshal to the GUI thread with a queued signal) and reads the
shared ``History``.
"""
from __future__ import annotations

import logging
import math
import threading
import time
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Iterable

from services.telemetry.carry import SlowFieldCarry
from services.telemetry.history import History
from services.telemetry.schedule import next_slot as _next_slot
from services.telemetry.model import (
    DeviceState,
    GpuInfo,
    Snapshot,
    SourceKind,
    SourceStatus,
    TelemetrySource,
    Tier,
)

if TYPE_CHECKING:
    from services.telemetry.alerts import AlertEngine
    from services.telemetry.feed import TelemetryFeed

log = logging.getLogger(__name__)

MAX_INTERVAL_S = 3600.0

Listener = Callable[[Snapshot], None]


class TelemetryHub:
    """Samples one source on a worker thread and feeds history and listeners.

    Attributes:
        history: the shared ring buffer.
        alerts: the ``AlertEngine`` attached by the factory (or None).
        recorder: the session ``Recorder`` attached by the factory (or None).
    """

    def __init__(
        self,
        source: TelemetrySource,
        *,
        history: History | None = None,
        fast_interval_s: float = 1.0,
        slow_interval_s: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        if not (0 < fast_interval_s < math.inf and 0 < slow_interval_s < math.inf):
            raise ValueError("sampling intervals must be positive and finite")
        # An hour at most: Event.wait() overflows on huge timeouts, which would end the thread.
        fast_interval_s, slow_interval_s = min(fast_interval_s, MAX_INTERVAL_S), min(slow_interval_s, MAX_INTERVAL_S)
        self.source = source
        self.history = history if history is not None else History()
        self.fast_interval_s = float(fast_interval_s)
        self.slow_interval_s = max(float(slow_interval_s), self.fast_interval_s)
        self._clock = clock
        self._wall = wall
        self.alerts: AlertEngine | None = None
        self.recorder: Any = None
        self.processes: Any = None  # the ProcessService the factory attaches (the process view's model)
        self._listeners: list[Listener] = []
        self._stop_callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()  # guards listeners and the public state below
        self._stop_event = threading.Event()
        self._thread: threading.Thread | None = None
        self._opened = False
        self._closed = False
        self._status = SourceStatus(DeviceState.ERROR, "monitoring has not started yet")
        self._devices: tuple[GpuInfo, ...] = ()
        self._latest: Snapshot | None = None
        self._need_static = True
        self._next_fast: float | None = None
        self._next_slow: float | None = None
        self._carry = SlowFieldCarry()  # fills the slow fields of FAST-only readings
        self._backfill: Callable[[], Iterable[Snapshot]] | None = None
        self._backfill_running = False
        self.ticks = 0  # reads made (for tests and the idle-cost benchmark)

    # ---- public state

    @property
    def status(self) -> SourceStatus:
        with self._lock:
            return self._status

    @property
    def devices(self) -> tuple[GpuInfo, ...]:
        with self._lock:
            return self._devices

    @property
    def latest(self) -> Snapshot | None:
        with self._lock:
            return self._latest

    @property
    def live(self) -> bool:
        """False for a replay: everything is in the history, nothing is sampled."""
        return self.source.kind is not SourceKind.REPLAY

    @property
    def running(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    # ---- listeners

    def add_listener(self, fn: Listener) -> None:
        with self._lock:
            if fn not in self._listeners:
                self._listeners.append(fn)

    def remove_listener(self, fn: Listener) -> None:
        with self._lock:
            if fn in self._listeners:
                self._listeners.remove(fn)

    def add_stop_callback(self, fn: Callable[[], None]) -> None:
        """Called once by ``stop()`` after the thread ended (recorder close, etc.)."""
        self._stop_callbacks.append(fn)

    # ---- lifecycle

    def preload(self, snapshots: Iterable[Snapshot]) -> None:
        """Fill the history with past snapshots (demo prehistory, a replay)."""
        snaps = list(snapshots)
        self.history.load(snaps)
        if snaps:
            last = snaps[-1]
            with self._lock:
                self._latest = last
                if last.gpus:
                    self._devices = last.gpus
                self._status = last.status

    def set_backfill(self, fn: Callable[[], Iterable[Snapshot]]) -> None:
        """Past snapshots to load on the sampler thread right after the first
        reading (the demo's hours of prehistory: the window need not wait)."""
        self._backfill = fn

    @property
    def backfill_pending(self) -> bool:
        """True until a set backfill has been loaded (screenshots wait for it)."""
        return self._backfill is not None or self._backfill_running

    def _run_backfill(self) -> None:
        """Load the backfill under the first live reading (which is kept)."""
        fn = self._backfill
        if fn is None:
            return
        self._backfill_running = True  # set before clearing: backfill_pending never blinks False
        self._backfill = None
        try:
            self._load_backfill(fn)
        finally:
            self._backfill_running = False

    def _load_backfill(self, fn: Callable[[], Iterable[Snapshot]]) -> None:
        live = self.latest
        try:
            past = [s for s in fn() if live is None or s.t < live.t]
        except Exception:
            log.exception("telemetry backfill failed")
            return
        self.history.load(past + ([live] if live is not None else []))
        if live is not None:
            # Tell listeners again so views redraw with the hours just loaded
            # (the recorder skips a snapshot it already wrote).
            self._notify(live)

    def start(self) -> None:
        """Open the source and start sampling (a replay only opens)."""
        if self._thread is not None or self._closed:
            return
        if not self.live:
            if not self._open() and self.latest is None:
                # A replay that could not be read: publish its reason as a reading, so the
                # dashboard says why instead of waiting for a first reading that never comes.
                self._emit(Snapshot(t=self._wall(), status=self._status, gpus=self._devices))
            return
        self._stop_event.clear()
        self._thread = threading.Thread(target=self._run, name="telemetry-sampler", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop sampling, join the thread, close the source. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._stop_event.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if thread.is_alive():
                log.warning("telemetry sampler did not stop within %.1f s", timeout)
        self._close_source()
        for fn in self._stop_callbacks:
            try:
                fn()
            except Exception:  # one failing closer must not keep the others from running
                log.exception("telemetry stop callback failed")

    def _close_source(self) -> None:
        if self._opened:
            self._opened = False
            try:
                self.source.close()
            except Exception:
                log.exception("closing the telemetry source failed")

    def _run(self) -> None:
        while not self._stop_event.is_set():
            now = self._clock()
            due = self._next_due()
            if due is not None and due > now:
                if self._stop_event.wait(min(due - now, MAX_INTERVAL_S)):
                    break
                continue
            try:
                self.tick()
            except Exception as exc:  # a bug in one step must not end monitoring
                log.exception("telemetry sampler step failed")
                with self._lock:
                    self._status = SourceStatus(DeviceState.ERROR, f"internal error while sampling: {exc!r}")
                self._advance(self._clock(), Tier.FAST | Tier.SLOW)
                if self._stop_event.wait(self.fast_interval_s):
                    break

    def _next_due(self) -> float | None:
        if not self._opened:
            return None
        candidates = [t for t in (self._next_fast, self._next_slow) if t is not None]
        return min(candidates) if candidates else None

    # ---- one step

    def tick(self) -> Snapshot | None:
        """Do what is due now: open (first time), then one read. Returns the snapshot made, if any."""
        now = self._clock()
        if not self._opened:
            self._open()  # when it fails the read says why, and the source retries on its own
        tiers = Tier(0)
        if self._next_fast is None or now >= self._next_fast:
            tiers |= Tier.FAST
        if self._next_slow is None or now >= self._next_slow:
            tiers |= Tier.SLOW
        if not tiers:
            return None
        if self._need_static:
            tiers |= Tier.STATIC
        snapshot = self._read(tiers)
        self._advance(now, tiers)
        self._emit(snapshot)
        if self._backfill is not None:
            # After the first reading, so the window shows live values at once.
            self._run_backfill()
        return snapshot

    def _open(self) -> bool:
        try:
            status = self.source.open()
        except Exception as exc:  # the protocol says open() never raises; a bug must not kill us
            log.exception("telemetry source open() raised")
            status = SourceStatus(DeviceState.ERROR, f"could not open {getattr(self.source, 'name', 'source')}: {exc}")
        self._opened = True
        devices: tuple[GpuInfo, ...] = ()
        if status.state == DeviceState.OK:
            try:
                devices = tuple(self.source.devices())
            except Exception:
                log.exception("telemetry source devices() raised")
        with self._lock:
            self._status = status
            if devices:
                self._devices = devices
        if status.state == DeviceState.OK:
            self._need_static = True
            return True
        return False

    def _read(self, tiers: Tier) -> Snapshot:
        wall = self._wall()
        try:
            snapshot = self.source.read(tiers, wall)
        except Exception as exc:
            log.exception("telemetry source read() raised")
            snapshot = Snapshot(t=wall, status=SourceStatus(DeviceState.ERROR, f"read failed: {exc}"),
                                gpus=self._devices)
        self.ticks += 1
        if Tier.STATIC in tiers and snapshot.status.state == DeviceState.OK:
            self._need_static = False
        snapshot = self._carry.apply(snapshot, tiers)
        self._note_identity(snapshot)
        return snapshot

    def _note_identity(self, snapshot: Snapshot) -> None:
        with self._lock:
            before = self._status.state
            self._status = snapshot.status
            if snapshot.gpus:
                old_ids = {g.uuid for g in self._devices}
                new_ids = {g.uuid for g in snapshot.gpus}
                if old_ids and new_ids != old_ids:
                    self._need_static = True  # a GPU came, went or was re-identified after a resume
                self._devices = snapshot.gpus
        if before != DeviceState.OK and snapshot.status.state == DeviceState.OK and self.ticks > 1:
            self._need_static = True  # recovered (e.g. after a re-init): re-read the static facts

    def _advance(self, now: float, tiers: Tier) -> None:
        if Tier.FAST in tiers:
            self._next_fast = _next_slot(self._next_fast, self.fast_interval_s, now)
        if Tier.SLOW in tiers:
            self._next_slow = _next_slot(self._next_slow, self.slow_interval_s, now)

    def _emit(self, snapshot: Snapshot) -> Snapshot:
        # A reading without samples while GPUs are known (the driver went away)
        # still gets a row: it is a gap (NaN) in the graphs, not a line drawn
        # straight across the outage.
        if snapshot.samples or snapshot.status.state == DeviceState.OK or self.history.gpu_count:
            self.history.append(snapshot)
        with self._lock:
            self._latest = snapshot
        self._notify(snapshot)
        return snapshot

    def _notify(self, snapshot: Snapshot) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for fn in listeners:
            try:
                fn(snapshot)
            except Exception:  # a broken listener is logged, never kills the sampler
                log.exception("telemetry listener %r failed", fn)


HubListener = Callable[["TelemetryFeed | None"], None]


class CurrentHub:
    """The hub a run monitors now, and the event of its replacement.

    The demo, "Leave the demo", opening a recording and "Back to live" each build a
    new hub and stop the old one. Whatever shows or serves the readings (the
    exporter, the dashboard, the process view, the recorder's indicator) is given
    this object and follows ``subscribe``: it must never keep the first hub it saw.
    Callbacks run on the thread that calls ``replace`` (the GUI thread in the app).
    """

    def __init__(self, hub: TelemetryFeed | None = None) -> None:
        self._hub = hub
        self._lock = threading.Lock()
        self._subscribers: list[HubListener] = []

    @property
    def hub(self) -> TelemetryFeed | None:
        return self._hub

    def replace(self, hub: TelemetryFeed | None) -> None:
        """Make ``hub`` the current one and tell every subscriber (not when it is the same hub)."""
        with self._lock:
            if hub is self._hub:
                return
            self._hub = hub
            subscribers = list(self._subscribers)
        for fn in subscribers:
            try:
                fn(hub)
            except Exception:  # one broken follower must not keep the others on the old hub
                log.exception("hub replacement subscriber %r failed", fn)

    def subscribe(self, fn: HubListener) -> None:
        with self._lock:
            if fn not in self._subscribers:
                self._subscribers.append(fn)

    def unsubscribe(self, fn: HubListener) -> None:
        with self._lock:
            if fn in self._subscribers:
                self._subscribers.remove(fn)
