"""Builds the telemetry hub for the app: picks the source, attaches recording and alerts.

- ``demo``: the simulated two-GPU run, with hours of history filled in on the
  sampler thread before the first live reading (the window opens at once).
- ``replay``: a recording or an nvidia-smi CSV log, loaded into the history;
  nothing is sampled or recorded.
- otherwise NVML (``services.telemetry.nvml_source``). When the NVIDIA library
  is missing, the hub still runs and reports the state.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from services.i18n import Msg
from services.paths import AppPaths
from services.settings import AlertSettings, Settings
from services.telemetry.alerts import Alert, AlertEngine
from services.telemetry.history import DEFAULT_CAPACITY, History
from services.telemetry.hub import TelemetryHub
from services.telemetry.processes import ProcessService, ProcessTable
from services.telemetry.model import DeviceState, GpuInfo, Snapshot, SourceKind, SourceStatus, TelemetrySource, Tier
from services.telemetry.recorder import MIN_KEPT_S, Recorder
from services.telemetry.replay import ReplaySource, open_replay
from services.telemetry.replay_errors import ReplayError
from services.telemetry.simulated import STEADY_S, THERMAL, SimulatedSource

log = logging.getLogger(__name__)

# The demo opens 2 h 13 min into the run: the CPU- and disk-bound stretches are
# in the history, and GPU 1 has been held back by heat for a few minutes.
DEMO_PREHISTORY_S = STEADY_S + THERMAL[0] + 800.0


# The demo's history is generated at 1 s steps for the last DEMO_FINE_S only; before that one
# reading every DEMO_COARSE_STEP_S (under downsample.MIN_GAP_S, so no gaps are drawn). A third
# of the readings to generate: the demo starts in a couple of seconds, not a quarter of a minute.
DEMO_FINE_S = 1800.0
DEMO_COARSE_STEP_S = 4.0


def _demo_prehistory(source: SimulatedSource, start: float, fast: float) -> list[Snapshot]:
    now = time.time()
    fine_from = max(start, now - DEMO_FINE_S)
    tiers = Tier.FAST | Tier.SLOW | Tier.STATIC
    times = [start + k * DEMO_COARSE_STEP_S for k in range(int((fine_from - start) / DEMO_COARSE_STEP_S))]
    t = times[-1] + DEMO_COARSE_STEP_S if times else start
    while t < now:
        times.append(t)
        t += fast
    return [source.read(tiers, t) for t in times]


class UnavailableSource:
    """A source that cannot give readings, with the reason as its state."""

    kind = SourceKind.NVML  # stands in for the driver's readings: every reading says why there are none
    path = None

    def __init__(self, state: DeviceState, message: Msg | str, name: str = "unavailable") -> None:
        self.name = name
        self._status = SourceStatus(state, str(message), text=message if isinstance(message, Msg) else None)

    def open(self) -> SourceStatus:
        return self._status

    def close(self) -> None:
        pass

    def devices(self) -> tuple[GpuInfo, ...]:
        return ()

    def read(self, tiers: Tier, now: float) -> Snapshot:
        return Snapshot(t=now, status=self._status)


class _ReplayFailed(UnavailableSource):
    kind = SourceKind.REPLAY  # nothing to retry: the file is what it is


def _capacity(interval_s: float) -> int:
    # At least 24 h at the configured rate (and never less than the default).
    return max(DEFAULT_CAPACITY, int(24 * 3600 / max(interval_s, 0.1) * 1.04))


def build_hub(*, demo: bool, replay: "str | ReplaySource | None", settings: Settings, paths: AppPaths,
              demo_gpus: int = 2, live_source: Callable[[], TelemetrySource] | None = None,
              record: bool | None = None, process_sources: dict[str, Any] | None = None) -> TelemetryHub:
    """``live_source``: makes the source for this computer's GPUs (None: NVML; tests: NVML over a fake binding).
    ``record``: None records this computer's sessions (when Settings say so) and never the demo;
    True records the demo too (the user asked: ``--record``); False records nothing (a screenshot run).
    ``process_sources``: extra ``ProcessService`` arguments for a live hub (on Windows the front end
    passes ``services.hybrid.gpu_counters.windows_process_sources()``)."""
    mon = settings.monitor
    fast = max(0.25, float(mon.fast_interval_s))  # below 0.25 s polling itself disturbs the GPU
    slow = max(fast, float(mon.slow_interval_s))
    recorder: Recorder | None = None
    if replay:
        try:
            # An already opened replay (the app checks the file before any window) is used as it is.
            replayed = replay if isinstance(replay, ReplaySource) else open_replay(replay)
        except ReplayError as exc:
            hub = TelemetryHub(_ReplayFailed(DeviceState.ERROR, exc.message, "replay"),
                               fast_interval_s=fast, slow_interval_s=slow)
            hub.alerts = AlertEngine(settings.alerts)
            return hub
        snaps = replayed.snapshots()
        hub = TelemetryHub(replayed, history=History(capacity=max(len(snaps) + 1, 2)),
                           fast_interval_s=fast, slow_interval_s=slow)
        engine = AlertEngine(settings.alerts)
        for snap in snaps:  # the alerts this run would have raised, in its own time
            engine.evaluate(snap)
        hub.preload(snaps)
        hub.alerts = engine
        # The processes as recorded at the end; this computer's processes are not asked about.
        service = ProcessService(_NoHost())
        hub.processes = service
        if snaps:
            service.update(snaps[-1])
        return hub

    history = History(capacity=_capacity(fast))
    if demo:
        start = time.time() - DEMO_PREHISTORY_S
        simulated = SimulatedSource(seed=0, gpus=demo_gpus, start_wall=start)
        hub = TelemetryHub(simulated, history=history, fast_interval_s=fast, slow_interval_s=slow)
        # Generated on the sampler thread so the window does not wait for it.
        hub.set_backfill(lambda: _demo_prehistory(simulated, start, fast))
    else:
        if live_source is None:
            from services.telemetry.nvml_source import NvmlSource  # only when monitoring this computer

            hub = TelemetryHub(NvmlSource(), history=history, fast_interval_s=fast, slow_interval_s=slow)
        else:
            hub = TelemetryHub(live_source(), history=history, fast_interval_s=fast, slow_interval_s=slow)
    if mon.record_sessions and (not demo if record is None else record):
        recorder = Recorder(paths.recordings_dir, source_name=(SourceKind.SIMULATED if demo else SourceKind.NVML).value,
                            min_kept_s=MIN_KEPT_S)
        hub.recorder = recorder
        hub.add_listener(recorder.on_snapshot)
        hub.add_stop_callback(recorder.close)
    engine = attach_alerts(hub, settings.alerts, recorder)
    if demo:
        from services.telemetry.demo_processes import DemoCounters, DemoHost, demo_adapters

        attach_processes(hub, engine, recorder, host=DemoHost(start), counters=DemoCounters(),
                         adapters=lambda gpus: demo_adapters([g.uuid for g in gpus]))
    else:
        attach_processes(hub, engine, recorder, **(process_sources or {}))
    return hub


def attach_processes(hub: TelemetryHub, engine: AlertEngine | None, recorder: Recorder | None = None,
                     **sources: Any) -> ProcessService:
    """Give a sampling hub its ``ProcessService`` (``hub.processes``): the process table is built from
    every snapshot on the sampler thread, and its spill and wrong-GPU alerts go to the engine's
    listeners (the tray, the dashboard) and into the recording, like the GPU alerts."""
    service = ProcessService(**sources)
    hub.processes = service
    hub.add_listener(service.on_snapshot)
    if engine is not None:
        def on_table(table: ProcessTable) -> None:
            for alert in engine.evaluate_processes(table):
                if recorder is not None:
                    recorder.record_alert(alert.t, alert.gpu_index, alert.rule.value, alert.severity.value,
                                          str(alert.message))

        service.add_listener(on_table)
    hub.add_stop_callback(service.close)
    return service


class _NoHost:
    """A replay's processes ran on another computer (or earlier): no host facts."""

    def read(self, pids: Any) -> dict:
        return {}


def attach_alerts(hub: TelemetryHub, settings: AlertSettings, recorder: Recorder | None = None) -> AlertEngine:
    """Give a sampling hub its ``AlertEngine``: every snapshot is evaluated on the sampler
    thread, and each alert goes to the engine's listeners (and into the recording)."""
    engine = AlertEngine(settings)
    hub.alerts = engine

    def on_snapshot(snapshot: Snapshot) -> None:
        for alert in engine.evaluate(snapshot):
            if recorder is not None:
                recorder.record_alert(alert.t, alert.gpu_index, alert.rule.value, alert.severity.value,
                                      str(alert.message), alert.gpu_uuid)

    hub.add_listener(on_snapshot)
    return engine


__all__ = ["Alert", "UnavailableSource", "attach_alerts", "attach_processes", "build_hub"]
