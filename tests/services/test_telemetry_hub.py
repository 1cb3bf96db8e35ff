from __future__ import annotations

import threading

from services.telemetry.hub import TelemetryHub, _next_slot
from services.telemetry.feed import TelemetryFeed
from services.telemetry.model import DeviceState, GpuInfo, Snapshot, SourceKind, SourceStatus, Tier

from tests.services.telemetry_helpers import INFO0, sample, trainer


class FakeClock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class ScriptedSource:
    """Records the tiers asked for; slow fields only on SLOW reads, like a real source."""

    name = "scripted"
    kind = SourceKind.NVML

    def __init__(self, open_states=None, devices=(INFO0,)) -> None:
        self.reads: list[Tier] = []
        self.open_states = list(open_states or [DeviceState.OK])
        self.opens = 0
        self.closed = 0
        self._devices = devices
        self.fail_read = False

    def open(self) -> SourceStatus:
        state = self.open_states[min(self.opens, len(self.open_states) - 1)]
        self.opens += 1
        return SourceStatus(state, None if state == DeviceState.OK else "no library")

    def close(self) -> None:
        self.closed += 1

    def devices(self):
        return self._devices

    def read(self, tiers: Tier, now: float) -> Snapshot:
        self.reads.append(tiers)
        if self.fail_read:
            raise RuntimeError("boom")
        fields = dict(utilization_pct=90.0)
        if Tier.SLOW in tiers:
            fields.update(fan_pct=55.0, pcie_gen=4, processes=(trainer(),))
        return Snapshot(t=now, status=SourceStatus(DeviceState.OK), gpus=self._devices,
                        samples=(sample(now, **fields),))


def make(source=None, **kw):
    clock = FakeClock()
    wall = FakeClock(1_700_000_000.0)
    hub = TelemetryHub(source or ScriptedSource(), clock=clock, wall=wall, **kw)
    return hub, clock, wall


def test_the_hub_is_the_feed_front_ends_read_and_live_follows_the_source_kind():
    hub, _, _ = make()
    assert isinstance(hub, TelemetryFeed)
    assert hub.live
    replayed = ScriptedSource()
    replayed.kind = SourceKind.REPLAY
    assert not TelemetryHub(replayed).live


def test_the_hub_implements_every_member_of_the_feed_as_declared():
    """isinstance() on a Protocol only checks that the names exist: check properties and call signatures too."""
    import inspect

    hub, _, _ = make()
    members = set(TelemetryFeed.__annotations__) | {
        name for name, value in vars(TelemetryFeed).items() if callable(value) or isinstance(value, property)
    } - {name for name in vars(TelemetryFeed) if name.startswith("_")}
    assert {"source", "history", "alerts", "latest", "live", "backfill_pending", "add_listener", "start"} <= members
    for name in members:
        declared = vars(TelemetryFeed).get(name)
        if name in TelemetryFeed.__annotations__:
            assert name in vars(hub), name  # a data attribute every hub sets
        elif isinstance(declared, property):
            assert isinstance(inspect.getattr_static(TelemetryHub, name), property), name
        else:
            def shape(fn):  # names, kinds and defaults (the annotations are strings under postponed evaluation)
                return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]

            assert shape(getattr(TelemetryHub, name)) == shape(declared), name


def test_every_shipped_source_says_its_kind(tmp_path):
    from services.telemetry.factory import UnavailableSource
    from services.telemetry.nvml_source import NvmlSource
    from services.telemetry.simulated import SimulatedSource
    from tests.fakes.fake_nvml import FakeNvml

    assert NvmlSource(FakeNvml(1), sysfs_root=tmp_path).kind is SourceKind.NVML
    assert SimulatedSource().kind is SourceKind.SIMULATED
    assert UnavailableSource(DeviceState.NO_DRIVER, "no library").kind is SourceKind.NVML


def test_first_tick_reads_every_tier_then_fast_and_slow_on_schedule():
    hub, clock, wall = make(fast_interval_s=1.0, slow_interval_s=5.0)
    src = hub.source
    assert hub.tick() is not None
    assert src.reads[0] == Tier.FAST | Tier.SLOW | Tier.STATIC
    for _ in range(10):
        clock.t += 1.0
        wall.t += 1.0
        hub.tick()
    tiers = src.reads[1:]
    assert all(Tier.FAST in t for t in tiers)
    assert [Tier.SLOW in t for t in tiers] == [False, False, False, False, True] * 2
    assert not any(Tier.STATIC in t for t in tiers)
    assert hub.ticks == 11


def test_nothing_due_means_no_read():
    hub, clock, _ = make()
    hub.tick()
    clock.t += 0.4
    assert hub.tick() is None
    assert len(hub.source.reads) == 1


def test_missed_slots_are_skipped_not_burst():
    hub, clock, _ = make(fast_interval_s=1.0, slow_interval_s=5.0)
    hub.tick()  # due times now 1001 / 1005
    clock.t += 7.3  # held up for seven slots
    hub.tick()
    assert hub._next_fast == 1008.0  # schedule kept: 1001 + k, first one after now
    assert hub._next_slow == 1010.0
    clock.t += 0.5
    assert hub.tick() is None  # no catch-up burst
    assert _next_slot(10.0, 1.0, 10.5) == 11.0
    assert _next_slot(10.0, 1.0, 11.0) == 12.0
    assert _next_slot(None, 2.0, 5.0) == 7.0


def test_slow_fields_carry_over_between_slow_ticks():
    hub, clock, wall = make()
    first = hub.tick()
    assert first.samples[0].fan_pct == 55.0
    clock.t += 1.0
    wall.t += 1.0
    second = hub.tick()
    assert hub.source.reads[-1] == Tier.FAST
    g = second.samples[0]
    assert g.fan_pct == 55.0 and g.pcie_gen == 4 and g.processes[0].pid == 4242
    assert hub.history.series(0, "fan_pct")[1].tolist() == [55.0, 55.0]


def test_listener_errors_are_logged_and_do_not_stop_others(caplog):
    hub, clock, _ = make()
    got = []

    def broken(_snapshot):
        raise ValueError("listener bug")

    hub.add_listener(broken)
    hub.add_listener(got.append)
    hub.tick()
    assert len(got) == 1
    assert "listener" in caplog.text
    hub.remove_listener(got.append)
    clock.t += 1
    hub.tick()
    assert len(got) == 1


def test_source_errors_become_states():
    src = ScriptedSource()
    src.fail_read = True
    hub, _, _ = make(src)
    snap = hub.tick()
    assert snap.status.state == DeviceState.ERROR
    assert "boom" in snap.status.message
    assert hub.status.state == DeviceState.ERROR


class NoDriverYet(ScriptedSource):
    """Cannot read until ``driver`` is set; like NvmlSource, each reading says why."""

    def __init__(self) -> None:
        super().__init__(open_states=[DeviceState.NO_DRIVER])
        self.driver = False

    def read(self, tiers: Tier, now: float) -> Snapshot:
        if not self.driver:
            self.reads.append(tiers)
            return Snapshot(t=now, status=SourceStatus(DeviceState.NO_DRIVER, "no library"))
        return super().read(tiers, now)


def test_a_failed_open_is_not_retried_by_the_hub_the_source_retries_and_its_readings_say_why():
    src = NoDriverYet()
    hub, clock, _ = make(src)
    snap = hub.tick()
    assert snap.status.state == DeviceState.NO_DRIVER and hub.status.message == "no library"
    assert not snap.samples and len(hub.history) == 0  # nothing to graph
    clock.t += 1.0
    assert hub.tick().status.state == DeviceState.NO_DRIVER  # read on the schedule, no backoff of its own
    src.driver = True  # the source's own retry succeeded
    clock.t += 1.0
    snap = hub.tick()
    clock.t += 1.0
    hub.tick()
    assert src.opens == 1  # one retry loop: the source's
    assert snap.status.state == DeviceState.OK and hub.status.state == DeviceState.OK
    assert Tier.STATIC in src.reads[-1]  # recovered: the static facts are read again


def test_reidentified_devices_trigger_a_static_read():
    hub, clock, _ = make()
    hub.tick()
    other = GpuInfo(index=0, name="NVIDIA GeForce RTX 4090", uuid="GPU-new")
    hub.source._devices = (other,)
    clock.t += 1
    hub.tick()  # sees the new UUID
    clock.t += 1
    hub.tick()
    assert Tier.STATIC in hub.source.reads[-1]


def test_thread_starts_samples_and_stops_cleanly():
    src = ScriptedSource()
    seen = threading.Event()
    hub = TelemetryHub(src, fast_interval_s=0.01, slow_interval_s=0.05)
    hub.add_listener(lambda s: seen.set())
    stopped = []
    hub.add_stop_callback(lambda: stopped.append(True))
    hub.start()
    assert seen.wait(5.0)
    hub.stop()
    hub.stop()  # idempotent
    assert not hub.running
    assert src.closed == 1 and stopped == [True]


def test_preload_fills_history_and_latest():
    from tests.services.telemetry_helpers import snap

    hub, _, _ = make()
    snaps = [snap(float(k), sample(float(k), utilization_pct=k)) for k in range(5)]
    hub.preload(snaps)
    assert len(hub.history) == 5
    assert hub.latest is snaps[-1]
    assert hub.devices == snaps[-1].gpus


def test_backfill_goes_under_the_first_live_reading():
    from tests.services.telemetry_helpers import snap

    hub, _, wall = make()
    hub.set_backfill(lambda: [snap(float(k), sample(float(k))) for k in range(3)])
    hub.tick()
    assert hub.history.times().tolist() == [0.0, 1.0, 2.0, wall.t]


def test_replay_like_source_is_not_sampled():
    class Finished(ScriptedSource):
        kind = SourceKind.REPLAY

    src = Finished()
    hub = TelemetryHub(src)
    hub.start()
    assert not hub.running and src.opens == 1
    hub.stop()


def test_an_outage_is_a_gap_in_the_history():
    src = ScriptedSource()
    hub, clock, wall = make(src)
    hub.tick()

    def down(tiers, now):
        return Snapshot(t=now, status=SourceStatus(DeviceState.DRIVER_NOT_LOADED, "driver gone"))

    src.read = down
    clock.t += 1
    wall.t += 1
    hub.tick()
    t, util = hub.history.series(0, "utilization_pct")
    assert len(t) == 2 and util[0] == 90 and util[1] != util[1]  # NaN
    assert hub.status.state == DeviceState.DRIVER_NOT_LOADED


def test_a_failing_step_does_not_end_the_sampler_thread():
    src = ScriptedSource()
    hub = TelemetryHub(src, fast_interval_s=0.01, slow_interval_s=0.05)
    calls = []
    ok = threading.Event()

    def flaky_append(snapshot, _real=hub.history.append):
        calls.append(snapshot)
        if len(calls) == 1:
            raise ValueError("bad value from a source")
        _real(snapshot)
        ok.set()

    hub.history.append = flaky_append
    hub.start()
    try:
        assert ok.wait(5.0)
        assert hub.running
    finally:
        hub.stop()


def test_listeners_hear_again_after_the_backfill():
    from tests.services.telemetry_helpers import snap

    hub, _, wall = make()
    heard = []
    hub.add_listener(heard.append)
    hub.set_backfill(lambda: [snap(float(k), sample(float(k))) for k in range(3)])
    hub.tick()
    assert len(heard) == 2 and heard[0] is heard[1]  # the live reading, then again once the past is in
    assert len(hub.history) == 4
