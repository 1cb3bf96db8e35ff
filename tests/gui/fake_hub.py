"""A stand-in for ``services.telemetry.hub.TelemetryHub`` in GUI tests.

Same public surface the GUI uses (add_listener, start/stop, history, status,
latest); snapshots are pushed by the test. ``push(..., threaded=True)`` calls
the listeners from a worker thread, as the real hub does.
"""
from __future__ import annotations

import math
import threading
from typing import Any
from collections.abc import Callable

import numpy as np

from services.telemetry.model import (
    DeviceState, GpuInfo, GpuSample, ProcessSample, Snapshot, SourceStatus,
)


class FakeHistory:
    def __init__(self) -> None:
        self._rows: dict[int, list[GpuSample]] = {}

    def add(self, snapshot: Snapshot) -> None:
        for sample in snapshot.samples:
            self._rows.setdefault(sample.index, []).append(sample)

    def series(self, gpu_index: int, metric: str, t0: float, t1: float) -> tuple[np.ndarray, np.ndarray]:
        rows = [s for s in self._rows.get(gpu_index, []) if t0 <= s.t <= t1]
        t = np.array([s.t for s in rows], dtype=float)
        y = np.array([_num(getattr(s, metric)) for s in rows], dtype=float)
        return t, y

    def throttle_intervals(self, gpu_index: int, code: str, t0: float, t1: float) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        start = None
        prev = None
        for s in self._rows.get(gpu_index, []):
            if not t0 <= s.t <= t1:
                continue
            on = bool(s.throttle_reasons and code in s.throttle_reasons)
            if on and start is None:
                start = s.t
            if not on and start is not None:
                out.append((start, s.t))
                start = None
            prev = s.t
        if start is not None:
            out.append((start, prev))
        return out

    def seconds_in_reason(self, gpu_index: int) -> dict[str, float]:
        seconds: dict[str, float] = {}
        rows = self._rows.get(gpu_index, [])
        for a, b in zip(rows, rows[1:], strict=False):
            for code in a.throttle_reasons or ():
                seconds[code] = seconds.get(code, 0.0) + (b.t - a.t)
        return seconds


def _num(value: Any) -> float:
    return math.nan if value is None else float(value)


class FakeHub:
    def __init__(self, status: SourceStatus | None = None) -> None:
        self.history = FakeHistory()
        self.status = status or SourceStatus(DeviceState.OK)
        self.source_name = "fake"
        self._listeners: list[Callable[[Snapshot], None]] = []
        self._latest: Snapshot | None = None
        self.started = False
        self.insight_list: list[Any] = []

    def add_listener(self, fn: Callable[[Snapshot], None]) -> None:
        self._listeners.append(fn)

    def remove_listener(self, fn: Callable[[Snapshot], None]) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def latest(self) -> Snapshot | None:
        return self._latest

    def insights(self) -> list[Any]:
        return list(self.insight_list)

    @property
    def devices(self) -> tuple[GpuInfo, ...]:
        return self._latest.gpus if self._latest else ()

    def push(self, snapshot: Snapshot, threaded: bool = False) -> None:
        self._latest = snapshot
        self.status = snapshot.status
        self.history.add(snapshot)

        def deliver() -> None:
            for fn in list(self._listeners):
                fn(snapshot)

        if threaded:
            worker = threading.Thread(target=deliver, name="fake-hub-worker")
            worker.start()
            worker.join()
        else:
            deliver()


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
