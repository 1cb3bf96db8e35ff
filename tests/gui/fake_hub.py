"""The real ``TelemetryHub`` driven by a scripted source, for GUI tests.

``FakeHub`` is a ``TelemetryHub`` (same history, carry-over, listeners and
status handling as the app's) whose source returns the snapshots a test
pushes. ``push(..., threaded=True)`` makes the reading on a worker thread, so
the listeners are called off the GUI thread, as in the app.

Its alert engine is attached the way the app attaches it (``attach_alerts``),
so a test raises an alert by pushing readings that cross the thresholds.
"""
from __future__ import annotations

import threading
from collections import deque
from pathlib import Path
from typing import Any

from services.settings import AlertSettings
from services.telemetry.factory import attach_alerts, attach_processes
from services.telemetry.hub import TelemetryHub
from services.telemetry.model import (
    DeviceState, GpuInfo, GpuSample, ProcessSample, Snapshot, SourceKind, SourceStatus, Tier,
)


class ScriptedSource:
    """A ``TelemetrySource`` whose readings are the snapshots queued by the test, in order."""

    def __init__(self, kind: SourceKind = SourceKind.NVML, name: str = "scripted", path: Path | None = None) -> None:
        self.kind = kind
        self.name = name
        self.path = path  # a replay's file, for the dashboard's label
        self._queued: deque[Snapshot] = deque()

    def queue(self, snapshot: Snapshot) -> None:
        self._queued.append(snapshot)

    def open(self) -> SourceStatus:
        return SourceStatus(DeviceState.OK)

    def close(self) -> None:
        pass

    def devices(self) -> tuple[GpuInfo, ...]:
        return ()

    def read(self, tiers: Tier, now: float) -> Snapshot:
        return self._queued.popleft()


class _NoHost:
    def read(self, pids):
        return {}


class _StepClock:
    """The hub's schedule clock: each push moves it one sampling interval on."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class FakeHub(TelemetryHub):
    """A real hub whose every ``push`` is one due sampler step (all tiers read)."""

    def __init__(self, kind: SourceKind = SourceKind.NVML, *, name: str = "scripted",
                 path: Path | None = None, alerts: AlertSettings | None = None) -> None:
        self._step_clock = _StepClock()
        self.scripted = ScriptedSource(kind, name, path)
        super().__init__(self.scripted, fast_interval_s=1.0, slow_interval_s=1.0, clock=self._step_clock)
        engine = attach_alerts(self, alerts if alerts is not None else AlertSettings())
        attach_processes(self, engine, host=_NoHost())  # the scripted PIDs are not this computer's

    def push(self, snapshot: Snapshot, threaded: bool = False) -> None:
        self.scripted.queue(snapshot)
        self._step_clock.t += self.fast_interval_s
        if threaded:
            worker = threading.Thread(target=self.tick, name="fake-hub-worker")
            worker.start()
            worker.join()
        else:
            self.tick()


def gpu_info(index: int) -> GpuInfo:
    return GpuInfo(
        index=index, name=f"NVIDIA GeForce RTX 409{index}", uuid=f"GPU-{index:08d}", pci_bus_id=f"00000000:0{index + 1}:00.0",
        driver_version="550.54.14", cuda_driver_version="12.4", memory_total_mib=24564.0, power_limit_default_w=450.0,
        temp_slowdown_c=90.0, temp_shutdown_c=98.0, sm_clock_max_mhz=2790.0, mem_clock_max_mhz=10501.0,
        pcie_gen_max=4, pcie_width_max=16,
    )


def gpu_sample(index: int, t: float, *, state: DeviceState = DeviceState.OK, util: float = 95.0,
               temperature: float = 74.0, pcie_gen: int = 4, throttle: frozenset[str] | None = frozenset(),
               processes: tuple[ProcessSample, ...] | None = None) -> GpuSample:
    if state != DeviceState.OK:
        return GpuSample(t=t, index=index, uuid=f"GPU-{index:08d}", state=state)
    return GpuSample(
        t=t, index=index, uuid=f"GPU-{index:08d}", utilization_pct=util, memory_utilization_pct=40.0,
        memory_used_mib=18000.0, memory_total_mib=24564.0, temperature_c=temperature, power_w=320.0,
        power_limit_w=450.0, sm_clock_mhz=2500.0, mem_clock_mhz=10501.0, fan_pct=60.0, pstate=2,
        pcie_gen=pcie_gen, pcie_width=16, throttle_reasons=throttle,
        processes=processes if processes is not None else (
            ProcessSample(pid=4242 + index, name="python train.py", user="ada", kind="compute", used_mib=17000.0),
        ),
    )


def snapshot(n_gpus: int, t: float, states: dict[int, DeviceState] | None = None, **kwargs: Any) -> Snapshot:
    states = states or {}
    return Snapshot(
        t=t, status=SourceStatus(DeviceState.OK),
        gpus=tuple(gpu_info(i) for i in range(n_gpus)),
        samples=tuple(gpu_sample(i, t, state=states.get(i, DeviceState.OK), **kwargs) for i in range(n_gpus)),
    )
