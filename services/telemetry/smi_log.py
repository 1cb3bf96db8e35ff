"""An nvidia-smi CSV log read in one streaming pass: the rows grouped into one Snapshot per sampling tick, the
newest kept up to what the history can show, and what was skipped or dropped said."""
from __future__ import annotations

import collections
import csv
from pathlib import Path
from collections.abc import Callable, Iterator

from services.i18n import Msg
from services.telemetry.model import DeviceState, GpuInfo, Snapshot, SourceStatus
from services.telemetry.replay_errors import (
    BAD_ROWS_SKIPPED, BINARY_DATA, CANNOT_READ, EMPTY_FILE, LINE_TOO_LONG, LONG_LINES_SKIPPED, NO_HEADER, NO_READINGS,
    NOT_A_LOG, SHOWING_NEWEST_HISTORY, TOO_MANY_BAD, ReplayError,
)
from services.telemetry.smi_rows import COLUMNS, cell_number, column_key, gpu_info, gpu_sample, parse_timestamp, row_values

# A row whose time is this far from the current group's first row starts a new snapshot.
SAME_TICK_S = 0.5
# Give up (rather than show half a run) when more rows than this share are unreadable.
MAX_BAD_SHARE = 0.5

# A field (and so a line) longer than this is no nvidia-smi reading: the line is skipped and said.
MAX_FIELD_BYTES = 128 * 1024
# What a replay keeps: the newest snapshots up to this many GPU readings in all (the history ring
# holds 90,000 rows of up to 8 GPUs); older ones are read, counted and let go.
KEEP_READINGS = 90_000 * 8
KEEP_SNAPSHOTS = 90_000
PROGRESS_EVERY_BYTES = 4 * 2**20

Progress = Callable[[int, int], None]  # (bytes read, file size)


def _capped_lines(fh, counters: dict) -> "Iterator[str]":
    """The file's non-empty lines; a line longer than MAX_FIELD_BYTES is skipped whole
    (read through in pieces, never held), and counted."""
    limit = MAX_FIELD_BYTES
    while True:
        line = fh.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith("\n"):
            counters["too_long"] += 1
            while True:  # the rest of the over-long line
                rest = fh.readline(limit)
                if not rest or rest.endswith("\n"):
                    break
            continue
        if line.strip():
            counters["lines"] += 1
            yield line


def read_nvidia_smi_csv_streaming(path: Path, *, progress: Progress | None = None,
                                  keep_readings: int = KEEP_READINGS,
                                  keep_snapshots: int = KEEP_SNAPSHOTS) -> tuple[list[Snapshot], int, tuple[Msg | str, ...]]:
    """Read an nvidia-smi CSV log row by row: (newest snapshots, rows skipped, notes).

    Nothing but the snapshots kept is held in memory: a 100 MB log is read in one pass
    and the oldest readings beyond what the history ring can show are dropped.
    """
    try:
        size = path.stat().st_size
        fh = path.open("r", encoding="utf-8-sig", errors="strict", newline="")
    except OSError as exc:
        raise ReplayError(CANNOT_READ.format(path=str(path), reason=exc.strerror)) from None
    counters = {"too_long": 0, "lines": 0}
    try:
        with fh:
            try:
                return _stream(path, fh, size, counters, progress, keep_readings, keep_snapshots)
            except UnicodeDecodeError:
                raise ReplayError(BINARY_DATA.format(path=str(path))) from None
            except OSError as exc:
                raise ReplayError(CANNOT_READ.format(path=str(path), reason=exc.strerror)) from None
    except ReplayError:
        raise


def _stream(path: Path, fh, size: int, counters: dict, progress: Progress | None,
            keep_readings: int, keep_snapshots: int) -> tuple[list[Snapshot], int, tuple[Msg | str, ...]]:
    lines = _capped_lines(fh, counters)
    reader = csv.reader(lines, skipinitialspace=True)
    header_row = _next_row(reader)
    if header_row is None:
        if counters["too_long"]:
            raise ReplayError(LINE_TOO_LONG.format(path=str(path), kib=MAX_FIELD_BYTES // 1024))
        raise ReplayError(EMPTY_FILE.format(path=str(path)))
    header = [column_key(h) for h in header_row]
    known = [COLUMNS.get(h) for h in header]
    measured = [c for c in known if c and c.field not in ("timestamp", "index", "uuid") and not c.field.startswith("info:")]
    if not measured:
        if any(cell_number(h) is not None for h in header_row):
            raise ReplayError(NO_HEADER.format(path=str(path)))
        raise ReplayError(NOT_A_LOG.format(path=str(path)))
    has_time = "timestamp" in header
    total_lines = _count_lines(path)
    grouper = _Grouper(has_index="index" in header, keep_readings=keep_readings, keep_snapshots=keep_snapshots)
    bad = rows = 0
    next_report = PROGRESS_EVERY_BYTES
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error:  # a broken quote and the like: that row only
            rows += 1
            bad += 1
            continue
        rows += 1
        if rows == PROBE_ROWS:
            # Enough rows to know how many GPUs share a tick: the rows that the history could
            # not hold anyway are read through without being parsed (the newest are kept).
            want = min(keep_readings, keep_snapshots * max(1, grouper.widest)) + 4 * max(1, grouper.widest)
            extra = total_lines - counters["lines"] - want
            if extra > 0:
                grouper.skip_older()
                skipped_lines = _skip_lines(lines, extra)
                grouper.dropped_rows += skipped_lines
                rows += skipped_lines
        if progress is not None and rows % 256 == 0:
            done = fh.buffer.tell() if hasattr(fh, "buffer") else 0
            if done >= next_report:
                next_report = done + PROGRESS_EVERY_BYTES
                progress(min(done, size), size)
        values = row_values(row, header, known)
        if values is None:
            bad += 1
            continue
        if has_time:
            t = parse_timestamp(values.get("timestamp", ""))
            if t is None:
                bad += 1
                continue
        else:
            t = float(rows - 1)  # 1 s apart; moved to end at the file's time below
        grouper.add(t, values)
    if progress is not None:
        progress(size, size)
    too_long = counters["too_long"]
    total = rows + too_long
    bad_all = bad + too_long
    snaps = grouper.finish()
    if total == 0:
        raise ReplayError(NO_READINGS.format(path=str(path)))
    if not snaps or bad_all > MAX_BAD_SHARE * total:
        raise ReplayError(TOO_MANY_BAD.format(path=str(path), bad=bad_all, total=total))
    if not has_time:
        shift = path.stat().st_mtime - rows
        snaps = [_shifted(snap, shift) for snap in snaps]
    notes: list[Msg | str] = []
    if too_long:
        notes.append(LONG_LINES_SKIPPED.format(name=path.name, count=too_long, kib=MAX_FIELD_BYTES // 1024))
    if bad:
        notes.append(BAD_ROWS_SKIPPED.format(name=path.name, count=bad))
    if grouper.dropped or grouper.dropped_rows:
        notes.append(SHOWING_NEWEST_HISTORY.format(name=path.name, kept=sum(len(s.samples) for s in snaps), total=rows))
    return snaps, bad_all, tuple(notes)


PROBE_ROWS = 4096


def _count_lines(path: Path) -> int:
    """Lines in the file, counted in big binary chunks (a fraction of a second for 100 MB)."""
    n = 0
    with path.open("rb") as fh:
        while True:
            chunk = fh.read(1 << 22)
            if not chunk:
                return n
            n += chunk.count(b"\n")


def _skip_lines(lines: Iterator[str], count: int) -> int:
    skipped = 0
    for _ in lines:
        skipped += 1
        if skipped >= count:
            break
    return skipped


def _next_row(reader) -> list[str] | None:
    while True:
        try:
            return next(reader)
        except StopIteration:
            return None
        except csv.Error:
            continue

def _shifted(snap: Snapshot, shift: float) -> Snapshot:
    import dataclasses

    return dataclasses.replace(snap, t=snap.t + shift,
                               samples=tuple(dataclasses.replace(s, t=s.t + shift) for s in snap.samples))


class _Grouper:
    """Interleaved per-GPU rows -> one Snapshot per sampling tick, keeping only the newest."""

    def __init__(self, has_index: bool, keep_readings: int, keep_snapshots: int) -> None:
        self.has_index = has_index
        self.keep_readings = keep_readings
        self.keep_snapshots = keep_snapshots
        self.kept: "collections.deque[Snapshot]" = collections.deque()
        self.readings = 0
        self.dropped = 0
        self.dropped_rows = 0  # read through without parsing: older than what is kept
        self.widest = 0  # most GPUs seen in one tick
        self._current: list[tuple[float, dict]] = []
        self._seen: set = set()
        self._order: dict[str, int] = {}
        self._infos: dict[int, GpuInfo] = {}

    def add(self, t: float, values: dict) -> None:
        if self.has_index:
            key = values.get("index", 0)
        else:
            ident = values.get("uuid") or values.get("info:pci_bus_id")
            key = self._order.setdefault(ident, len(self._order)) if ident else len(self._current)
        values["index"] = key
        current = self._current
        if current and (key in self._seen or abs(t - current[0][0]) > SAME_TICK_S):
            self._flush()
        self._current.append((t, values))
        self._seen.add(key)

    def _flush(self) -> None:
        group, self._current, self._seen = self._current, [], set()
        if not group:
            return
        samples = []
        for t, values in group:
            index = int(values["index"])
            info = self._infos.get(index)
            if info is None or (values.get("uuid") and values["uuid"] != info.uuid):
                info = self._infos[index] = gpu_info(index, values)
            samples.append(gpu_sample(t, index, info.uuid, values))
        samples.sort(key=lambda s: s.index)
        self.widest = max(self.widest, len(samples))
        gpus = tuple(self._infos[s.index] for s in samples)
        self.kept.append(Snapshot(t=group[0][0], status=SourceStatus(DeviceState.OK), gpus=gpus,
                                  samples=tuple(samples)))
        self.readings += len(samples)
        while len(self.kept) > 1 and (self.readings > self.keep_readings or len(self.kept) > self.keep_snapshots):
            old = self.kept.popleft()
            self.readings -= len(old.samples)
            self.dropped += 1

    def skip_older(self) -> None:
        """What was kept so far is older than the rows about to be skipped: let it go too
        (the replay shows one unbroken stretch, the newest)."""
        self._flush()
        self.dropped += len(self.kept)
        self.kept.clear()
        self.readings = 0

    def finish(self) -> list[Snapshot]:
        self._flush()
        snaps = list(self.kept)
        snaps.sort(key=lambda s: s.t)
        return snaps
