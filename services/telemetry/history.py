"""A bounded, preallocated ring buffer of telemetry, one row per snapshot.

Every GPU gets one float32 block of shape (metric, capacity) allocated the
first time that GPU's UUID appears, so a 2-GPU machine never pays for 8. Blocks
are keyed by UUID, not by index: NVML indexes can change (a GPU lost and found,
a driver reload, a card added), and two cards' readings must never join in one
curve. Readers name a GPU by UUID, or by its current index (for display), which
maps to the card that holds that index now. A row
shares one float64 wall time across GPUs. Missing values are NaN (never 0), so
graphs show gaps instead of false zeros. Throttle reasons are one uint32
bitmask per row and GPU (the NVML bits from ``throttle.REASONS``), with
``UNKNOWN_BIT`` set when the source did not report them.

One writer (the sampler thread) and any number of readers (the GUI) share it
under a lock. Readers get copies: a view into the ring would change under a
plot as soon as the buffer wraps.
"""
from __future__ import annotations

import functools
import math
import operator
import threading
from collections.abc import Iterable

import numpy as np

from services.telemetry.fields import METRIC_FIELDS, SYSTEM_GRAPHED_FIELDS
from services.telemetry.model import DeviceState, GpuSample, Snapshot
from services.telemetry.throttle import BY_CODE, REASONS, encode

# GpuSample fields that are numbers, in column order. Names are the field names.
# (energy_j in float32: ~8 J resolution at 1e8 J, plenty for a graph.)
METRICS: tuple[str, ...] = METRIC_FIELDS
SYSTEM_METRICS: tuple[str, ...] = SYSTEM_GRAPHED_FIELDS
METRIC_INDEX = {name: i for i, name in enumerate(METRICS)}
SYSTEM_INDEX = {name: i for i, name in enumerate(SYSTEM_METRICS)}
UNKNOWN_BIT = 1 << 31  # throttle reasons not reported for this row
STATE_CODES: tuple[DeviceState, ...] = tuple(DeviceState)
_STATE_INDEX = {s: i for i, s in enumerate(STATE_CODES)}
NO_ROW = 255  # state column: GPU absent from this snapshot

# A gap longer than this between two rows is not counted as time spent in a
# throttle reason (the app was closed, the machine slept, or the GPU was lost).
MAX_COUNTED_GAP_S = 10.0
DEFAULT_CAPACITY = 90_000  # 25 h at 1 Hz: "at least 24 h" with an hour to spare
MAX_GPUS = 8

_get_metrics = operator.attrgetter(*METRICS)
_get_system = operator.attrgetter(*SYSTEM_METRICS)


def reasons_to_mask(codes: frozenset[str] | None) -> int:
    return UNKNOWN_BIT if codes is None else encode(codes)


@functools.lru_cache(maxsize=1024)  # few distinct masks occur; reading a long recording repeats them
def mask_to_reasons(mask: int) -> frozenset[str] | None:
    if mask & UNKNOWN_BIT:
        return None
    return frozenset(r.code for r in REASONS if mask & r.bit)


class _GpuBlock:
    __slots__ = ("values", "throttle", "state", "uuid", "seconds", "last_t")

    def __init__(self, capacity: int) -> None:
        self.values = np.full((len(METRICS), capacity), np.nan, dtype=np.float32)
        self.throttle = np.full(capacity, UNKNOWN_BIT, dtype=np.uint32)
        self.state = np.full(capacity, NO_ROW, dtype=np.uint8)
        self.uuid: str | None = None
        self.seconds: dict[str, float] = {r.code: 0.0 for r in REASONS}
        self.last_t: float | None = None


class History:
    """Ring buffer of snapshots: per-GPU numeric series, wall times, throttle masks."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY, max_gpus: int = MAX_GPUS) -> None:
        if capacity < 2:
            raise ValueError("capacity must be at least 2")
        self.capacity = int(capacity)
        self.max_gpus = int(max_gpus)
        self._lock = threading.Lock()
        self._times = np.full(self.capacity, np.nan, dtype=np.float64)
        self._system = np.full((len(SYSTEM_METRICS), self.capacity), np.nan, dtype=np.float32)
        self._gpus: list[_GpuBlock | None] = []
        self._slots: dict[str, int] = {}  # GPU UUID -> block
        self._index_slot: dict[int, int] = {}  # index shown now -> block of the card there
        self._head = 0  # next row to write
        self._count = 0  # rows filled (<= capacity)
        self._latest: Snapshot | None = None
        self._last_t = -math.inf
        self._row_buf = np.empty(len(METRICS), dtype=np.float32)

    # ---- writing

    def append(self, snapshot: Snapshot) -> None:
        with self._lock:
            self._append_locked(snapshot)

    def load(self, snapshots: Iterable[Snapshot]) -> None:
        """Replace the content with ``snapshots`` (oldest first)."""
        with self._lock:
            self._clear_locked()
            for snap in snapshots:
                self._append_locked(snap)

    def clear(self) -> None:
        with self._lock:
            self._clear_locked()

    def _clear_locked(self) -> None:
        self._times.fill(np.nan)
        self._system.fill(np.nan)
        self._gpus = []
        self._slots = {}
        self._index_slot = {}
        self._head = 0
        self._count = 0
        self._latest = None
        self._last_t = -math.inf

    def _slot_for(self, sample: GpuSample, present: set[str]) -> int | None:
        """The block of this sample's GPU, by UUID; a new one for a card not seen before."""
        key = sample.uuid or f"index-{sample.index}"
        slot = self._slots.get(key)
        if slot is None:
            if len(self._gpus) < self.max_gpus:
                slot = len(self._gpus)
                self._gpus.append(_GpuBlock(self.capacity))
            else:
                # All slots taken: reuse the one of the card gone longest (not one in this snapshot).
                gone = [(b.last_t if b.last_t is not None else -math.inf, i) for i, b in enumerate(self._gpus)
                        if b is not None and b.uuid not in present]
                if not gone:
                    return None  # more GPUs at once than we keep: ignored rather than growing without bound
                slot = min(gone)[1]
                old = self._gpus[slot]
                if old is not None and old.uuid is not None:
                    self._slots.pop(old.uuid, None)
                self._gpus[slot] = _GpuBlock(self.capacity)
            self._slots[key] = slot
            block = self._gpus[slot]
            assert block is not None
            block.uuid = key
        # The index is only where the card is shown now; it follows the card.
        for index, held in list(self._index_slot.items()):
            if held == slot and index != sample.index:
                del self._index_slot[index]
        self._index_slot[sample.index] = slot
        return slot

    def _resolve(self, gpu: int | str) -> _GpuBlock | None:
        """A GPU named by UUID, or by the index it is shown under now."""
        slot = self._slots.get(gpu) if isinstance(gpu, str) else self._index_slot.get(gpu)
        return self._gpus[slot] if slot is not None else None

    def _append_locked(self, snapshot: Snapshot) -> None:
        row = self._head
        t = float(snapshot.t)
        if self._count and t < self._last_t:
            # The wall clock stepped back (NTP, a manual change): keep the time
            # axis sorted, which every windowed read relies on.
            t = self._last_t
        self._last_t = t
        self._times[row] = t
        system = snapshot.system
        if system is not None:
            self._system[:, row] = [math.nan if v is None else v for v in _get_system(system)]
        else:
            self._system[:, row] = math.nan
        seen: set[int] = set()
        present = {s.uuid or f"index-{s.index}" for s in snapshot.samples}
        for sample in snapshot.samples:
            slot = self._slot_for(sample, present)
            if slot is None or slot in seen:
                continue
            seen.add(slot)
            self._write_sample(self._gpus[slot], row, t, sample)  # type: ignore[arg-type]
        for slot, block in enumerate(self._gpus):
            if block is not None and slot not in seen:
                block.values[:, row] = math.nan
                block.throttle[row] = UNKNOWN_BIT
                block.state[row] = NO_ROW
        self._head = (row + 1) % self.capacity
        self._count = min(self._count + 1, self.capacity)
        self._latest = snapshot

    def _write_sample(self, block: _GpuBlock, row: int, t: float, sample: GpuSample) -> None:
        buf = self._row_buf
        for i, v in enumerate(_get_metrics(sample)):
            buf[i] = math.nan if v is None else v
        block.values[:, row] = buf
        mask = reasons_to_mask(sample.throttle_reasons)
        block.throttle[row] = mask
        block.state[row] = _STATE_INDEX.get(sample.state, NO_ROW)
        # Seconds per reason: the time since the previous row is charged to the
        # reasons seen now (a 1 s sampler cannot tell when inside the second a
        # reason began), as DCGM's clock-event counter does.
        if block.last_t is not None and not mask & UNKNOWN_BIT:
            dt = t - block.last_t
            if 0 < dt <= MAX_COUNTED_GAP_S:
                for reason in REASONS:
                    if mask & reason.bit:
                        block.seconds[reason.code] += dt
        block.last_t = t

    # ---- reading

    @property
    def gpu_count(self) -> int:
        """Number of GPUs (by UUID) with a block so far."""
        with self._lock:
            return len(self._gpus)

    def uuids(self) -> list[str]:
        """The GPUs with a block, by UUID, in the order first seen."""
        with self._lock:
            return [b.uuid for b in self._gpus if b is not None and b.uuid is not None]

    def __len__(self) -> int:
        with self._lock:
            return self._count

    def latest(self) -> Snapshot | None:
        with self._lock:
            return self._latest

    def time_range(self) -> tuple[float, float] | None:
        with self._lock:
            if self._count == 0:
                return None
            first = self._head if self._count == self.capacity else 0
            return float(self._times[first]), float(self._times[(self._head - 1) % self.capacity])

    def _segments(self) -> list[tuple[int, int]]:
        """Row ranges [a, b) of the ring in chronological order."""
        if self._count < self.capacity:
            return [(0, self._count)]
        if self._head == 0:
            return [(0, self.capacity)]
        return [(self._head, self.capacity), (0, self._head)]

    def _window(self, t0: float | None, t1: float | None) -> list[tuple[int, int]]:
        """Chronological row ranges whose times fall in [t0, t1]."""
        out = []
        for a, b in self._segments():
            times = self._times[a:b]
            lo = a if t0 is None else a + int(np.searchsorted(times, t0, side="left"))
            hi = b if t1 is None else a + int(np.searchsorted(times, t1, side="right"))
            if hi > lo:
                out.append((lo, hi))
        return out

    @staticmethod
    def _take(array: np.ndarray, ranges: list[tuple[int, int]]) -> np.ndarray:
        if not ranges:
            return array[..., 0:0].copy()
        if len(ranges) == 1:
            a, b = ranges[0]
            return array[..., a:b].copy()
        return np.concatenate([array[..., a:b] for a, b in ranges], axis=-1)

    def times(self, t0: float | None = None, t1: float | None = None) -> np.ndarray:
        with self._lock:
            return self._take(self._times, self._window(t0, t1))

    def series(self, gpu_index: int | str, metric: str, t0: float | None = None,
               t1: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(wall times float64, values float32 with NaN gaps), oldest first."""
        column = METRIC_INDEX[metric]  # KeyError for a name that is not a GpuSample metric
        with self._lock:
            ranges = self._window(t0, t1)
            t = self._take(self._times, ranges)
            block = self._resolve(gpu_index)
            if block is None:
                return t, np.full(t.shape, np.nan, dtype=np.float32)
            return t, self._take(block.values[column], ranges)

    def series_many(self, gpu_index: int | str, metrics: Iterable[str], t0: float | None = None,
                    t1: float | None = None) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """One time axis and several metrics of one GPU, read under one lock."""
        columns = {m: METRIC_INDEX[m] for m in metrics}
        with self._lock:
            ranges = self._window(t0, t1)
            t = self._take(self._times, ranges)
            block = self._resolve(gpu_index)
            if block is None:
                return t, {m: np.full(t.shape, np.nan, dtype=np.float32) for m in columns}
            return t, {m: self._take(block.values[c], ranges) for m, c in columns.items()}

    def system_series(self, metric: str, t0: float | None = None,
                      t1: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        column = SYSTEM_INDEX[metric]
        with self._lock:
            ranges = self._window(t0, t1)
            return self._take(self._times, ranges), self._take(self._system[column], ranges)

    def throttle_masks(self, gpu_index: int | str, t0: float | None = None,
                       t1: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:
            ranges = self._window(t0, t1)
            t = self._take(self._times, ranges)
            block = self._resolve(gpu_index)
            if block is None:
                return t, np.full(t.shape, UNKNOWN_BIT, dtype=np.uint32)
            return t, self._take(block.throttle, ranges)

    def throttle_intervals(self, gpu_index: int | str, code: str, t0: float | None = None,
                           t1: float | None = None) -> list[tuple[float, float]]:
        """[(start, end)] wall-time spans where reason ``code`` was active, for bands.

        A span ends at the first row without the reason (or at the last row's
        time when it is still active); a gap in the data ends it too.
        """
        bit = BY_CODE[code].bit
        t, masks = self.throttle_masks(gpu_index, t0, t1)
        if t.size == 0:
            return []
        active = ((masks & bit) != 0) & ((masks & UNKNOWN_BIT) == 0)
        if not active.any():
            return []
        padded = np.concatenate(([False], active, [False]))
        edges = np.flatnonzero(np.diff(padded.astype(np.int8)))
        starts, stops = edges[0::2], edges[1::2]  # stop = index of first inactive row
        spans = []
        last = t.size - 1
        for a, b in zip(starts, stops, strict=True):  # padded with False at both ends: edges pair up
            end = t[b] if b <= last else t[last]
            spans.append((float(t[a]), float(end)))
        return spans

    def seconds_in_reason(self, gpu_index: int | str) -> dict[str, float]:
        """Seconds spent in each reason since the history began (for this session)."""
        with self._lock:
            block = self._resolve(gpu_index)
            if block is None:
                return {r.code: 0.0 for r in REASONS}
            return dict(block.seconds)

    def nbytes(self) -> int:
        """Memory held by the arrays (what the 24 h budget is about)."""
        with self._lock:
            total = self._times.nbytes + self._system.nbytes
            for block in self._gpus:
                if block is not None:
                    total += block.values.nbytes + block.throttle.nbytes + block.state.nbytes
            return total
