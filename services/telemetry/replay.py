"""Replay: a past run read from a file, shown like a live one.

Two formats:

- an ``nvidia-smi --query-gpu=... --format=csv[,nounits]`` log (for example
  from a remote server: ``nvidia-smi --query-gpu=timestamp,index,name,...
  --format=csv -l 1 > run.csv``). Any subset and order of the known columns;
  values with or without units; ``[N/A]``/``[Not Supported]`` become None;
  several GPUs interleaved. A log cut off mid-line (Ctrl-C) loses that line
  only.
- the app's own recordings (SQLite, see ``recording.py``).

The CSV column names and units are also what ``session_store.SessionStore.export_csv`` writes,
so an exported session reads back here.
"""
from __future__ import annotations

import collections
import csv
import datetime as dt
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Iterator

from services.i18n import Msg, TranslatableError, translate
from services.telemetry.fields import GPU_FIELDS, METRIC_FIELDS, FieldSpec
from services.telemetry.smi_csv import EXPORT_COLUMNS, format_timestamp  # noqa: F401 - re-exported
from services.telemetry.model import (
    DeviceState,
    GpuInfo,
    GpuSample,
    SourceKind,
    Snapshot,
    SourceStatus,
    Tier,
)
from services.telemetry.recording import T_MAX, T_MIN
from services.telemetry.throttle import BY_CODE, decode

SQLITE_MAGIC = b"SQLite format 3\x00"
NOT_AVAILABLE = {"", "n/a", "[n/a]", "[not supported]", "not supported", "[unknown error]",
                 "[insufficient permissions]", "[gpu requires reset]", "[gpu is lost]", "unknown"}
LOST_VALUES = {"[gpu is lost]", "[gpu requires reset]"}
TIMESTAMP_FORMATS = ("%Y/%m/%d %H:%M:%S.%f", "%Y/%m/%d %H:%M:%S", "%Y-%m-%d %H:%M:%S.%f",
                     "%Y-%m-%dT%H:%M:%S.%f", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S")
# A row whose time is this far from the current group's first row starts a new snapshot.
SAME_TICK_S = 0.5
# Give up (rather than show half a run) when more rows than this share are unreadable.
MAX_BAD_SHARE = 0.5


class ReplayError(TranslatableError):
    """The file cannot be replayed. ``str()`` is one line in English (JSON, logs);
    ``message`` is the same line translatable, for a person (CLI ``fail``, GUI ``render``)."""



# What a person is told about a file to replay; file names, counts and the OS's own words are placeholders.
NO_SUCH_FILE = translate("Replay", "{path}: no such file")
IS_A_FOLDER = translate("Replay", "{path}: is a folder, not a file")
CANNOT_READ = translate("Replay", "{path}: cannot read it ({reason})")
NO_READABLE_SAMPLES = translate("Replay", "{path}: the recording holds no readable samples")
SHOWING_NEWEST = translate("Replay", "{name}: showing the newest {kept} of {total} readings")
SHOWING_NEWEST_HISTORY = translate("Replay", "{name}: showing the newest {kept} of {total} readings (what the history holds)")
BINARY_DATA = translate("Replay", "{path}: not an nvidia-smi CSV log or a GPU Assistant recording (binary data)")
LINE_TOO_LONG = translate("Replay", "{path}: not an nvidia-smi CSV log (a line longer than {kib} KiB)")
EMPTY_FILE = translate("Replay", "{path}: the file is empty")
NO_HEADER = translate("Replay", "{path}: no header line; record with --format=csv (without noheader)")
NOT_A_LOG = translate("Replay", "{path}: not an nvidia-smi CSV log or a GPU Assistant recording")
NO_READINGS = translate("Replay", "{path}: the log has a header but no readings")
TOO_MANY_BAD = translate("Replay", "{path}: {bad} of {total} rows are unreadable; not a usable nvidia-smi CSV log")
LONG_LINES_SKIPPED = translate("Replay", "{name}: {count} lines longer than {kib} KiB skipped")
BAD_ROWS_SKIPPED = translate("Replay", "{name}: {count} unreadable rows skipped")


@dataclass(frozen=True, slots=True)
class Column:
    field: str  # GpuSample field, or "info:<GpuInfo field>", or a special key
    kind: str  # "float" | "int" | "pstate" | "mask" | "active" | "str"


def _sample_column(spec: FieldSpec) -> Column:
    if spec.role == "reasons":
        return Column("throttle_mask", "mask")
    if spec.name == "pstate":
        return Column("pstate", "pstate")  # "P2"
    if spec.role == "key":
        return Column(spec.name, "int" if spec.name == "index" else "str")
    return Column(spec.name, "int" if spec.integer else "float")


# nvidia-smi query names (lower case, units stripped) -> where the value goes: the sample
# fields' names from the field table, then the GPU facts and the special columns.
COLUMNS: dict[str, Column] = {
    **{name: _sample_column(spec) for spec in GPU_FIELDS for name in spec.smi},
    "power.default_limit": Column("info:power_limit_default_w", "float"),
    "clocks.gr": Column("graphics_clock", "float"),  # used for the SM clock when that is absent
    "clocks.current.graphics": Column("graphics_clock", "float"),
    "clocks.max.sm": Column("info:sm_clock_max_mhz", "float"),
    "clocks.max.memory": Column("info:mem_clock_max_mhz", "float"),
    "clocks.max.mem": Column("info:mem_clock_max_mhz", "float"),
    "pcie.link.gen.max": Column("info:pcie_gen_max", "int"),
    "pcie.link.gen.gpumax": Column("info:pcie_gen_max", "int"),
    "pcie.link.width.max": Column("info:pcie_width_max", "int"),
    "name": Column("info:name", "str"),
    "gpu_name": Column("info:name", "str"),
    "pci.bus_id": Column("info:pci_bus_id", "str"),
    "gpu_bus_id": Column("info:pci_bus_id", "str"),
    "driver_version": Column("info:driver_version", "str"),
    "timestamp": Column("timestamp", "str"),
}
# One-reason columns, e.g. clocks_throttle_reasons.sw_thermal_slowdown = Active
_REASON_SUFFIX = {
    "gpu_idle": "gpu_idle",
    "applications_clocks_setting": "clocks_setting",
    "sw_power_cap": "power_cap",
    "hw_slowdown": "hw_slowdown",
    "sync_boost": "sync_boost",
    "sw_thermal_slowdown": "sw_thermal",
    "hw_thermal_slowdown": "hw_thermal",
    "hw_power_brake_slowdown": "hw_power_brake",
    "display_clocks_setting": "display_clocks",
}
for _prefix in ("clocks_throttle_reasons", "clocks_event_reasons"):
    for _suffix, _code in _REASON_SUFFIX.items():
        COLUMNS[f"{_prefix}.{_suffix}"] = Column(f"reason:{_code}", "active")

_UNIT_RE = re.compile(r"\s*\[[^\]]*\]\s*$")
_NUMBER_RE = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)")


def column_key(header: str) -> str:
    """'utilization.gpu [%]' -> 'utilization.gpu'."""
    return _UNIT_RE.sub("", header.strip()).strip().lower()


def parse_timestamp(text: str) -> float | None:
    """Seconds since the epoch, or None: unreadable, or outside 1970-2100 (recording.T_MIN..T_MAX),
    which no real log holds and which would make the replay's time line absurdly long."""
    t = _parse_timestamp(text)
    return t if t is not None and T_MIN <= t <= T_MAX else None


def _parse_timestamp(text: str) -> float | None:
    text = text.strip()
    # Fast path for nvidia-smi's own "2026/11/21 09:15:02.417" (strptime is slow on big logs).
    if len(text) == 23 and text[4] == "/" and text[7] == "/" and text[13] == ":" and text[19] == ".":
        try:
            return dt.datetime(int(text[0:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]),
                               int(text[14:16]), int(text[17:19]), int(text[20:23]) * 1000).timestamp()
        except (ValueError, OverflowError, OSError):
            pass
    for fmt in TIMESTAMP_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).timestamp()
        except (ValueError, OverflowError, OSError):  # year 1 or 9999: out of the platform's range
            continue
    return None


def _number(text: str) -> float | None:
    try:
        value = float(text)  # the common case (nounits)
        return value if math.isfinite(value) else None
    except ValueError:
        pass
    match = _NUMBER_RE.match(text)
    return float(match.group(1)) if match else None


def _convert(kind: str, raw: str):
    text = raw.strip()
    if text.lower() in NOT_AVAILABLE:
        return None
    if kind == "str":
        return text
    if kind == "pstate":
        return int(text[1:]) if text[:1].upper() == "P" and text[1:].isdigit() else None
    if kind == "mask":
        try:
            return int(text, 16) if text.lower().startswith("0x") else int(text)
        except ValueError:
            return None
    if kind == "active":
        low = text.lower()
        if low in ("active", "yes", "1"):
            return True
        if low in ("not active", "no", "0"):
            return False
        return None
    value = _number(text)
    if value is None:
        raise ValueError(f"not a number: {text!r}")
    return int(value) if kind == "int" else value


# A field (and so a line) longer than this is no nvidia-smi reading: the line is skipped and said.
MAX_FIELD_BYTES = 128 * 1024
# What a replay keeps: the newest snapshots up to this many GPU readings in all (the history ring
# holds 90,000 rows of up to 8 GPUs); older ones are read, counted and let go.
KEEP_READINGS = 90_000 * 8
KEEP_SNAPSHOTS = 90_000
PROGRESS_EVERY_BYTES = 4 * 2**20

Progress = Callable[[int, int], None]  # (bytes read, file size)


class ReplaySource:
    """A finished run as a TelemetrySource. Its kind is REPLAY: the hub preloads
    ``snapshots()`` into its history instead of sampling."""

    name = "replay"
    kind = SourceKind.REPLAY

    def __init__(self, path: Path, snapshots: list[Snapshot], file_format: str, skipped_rows: int = 0,
                 notes: tuple[Msg | str, ...] = ()) -> None:
        self.path = path
        self.file_format = file_format  # "nvidia-smi-csv" | "recording"
        self.skipped_rows = skipped_rows
        self.notes = notes  # one line each (``str()`` English): what was skipped, dropped or capped
        self._snapshots = snapshots
        gpus: dict[str, GpuInfo] = {}
        for snap in snapshots:
            for info in snap.gpus:
                gpus[info.uuid] = info  # the newest index of each card
        self._devices = tuple(sorted(gpus.values(), key=lambda g: g.index))

    def snapshots(self) -> list[Snapshot]:
        return list(self._snapshots)

    def time_range(self) -> tuple[float, float]:
        return self._snapshots[0].t, self._snapshots[-1].t

    def open(self) -> SourceStatus:
        return SourceStatus(DeviceState.OK)

    def close(self) -> None:
        pass

    def devices(self) -> tuple[GpuInfo, ...]:
        return self._devices

    def read(self, tiers: Tier, now: float) -> Snapshot:
        # Nothing new ever arrives from a file: the last reading stands.
        return self._snapshots[-1]


def text_progress(path: str | os.PathLike, out, min_bytes: int = 32 * 2**20,
                  render: Callable[[Msg], str] = str) -> Progress:
    """A progress callback writing "reading FILE: 40%" lines to ``out`` (a big file only, every 10%),
    each through ``render`` (the caller's language; English by default)."""
    shown = {"step": -1}

    def report(done: int, total: int) -> None:
        if total < min_bytes or total <= 0:
            return
        step = min(10, done * 10 // total)
        if step > shown["step"]:
            shown["step"] = step
            line = translate("Replay", "reading {name}: {pct}%").format(name=Path(path).name, pct=step * 10)
            print(render(line), file=out, flush=True)

    return report


def open_replay(path: str | os.PathLike, progress: Progress | None = None) -> ReplaySource:
    """Read a recording or an nvidia-smi CSV log. Raises ReplayError (one line)."""
    from services.paths import UnsafePathError, check_regular_file

    p = Path(path)
    try:  # a FIFO would block the open below forever
        check_regular_file(p, may_be_missing=True)
    except UnsafePathError as exc:
        raise ReplayError(str(exc)) from None  # services.paths says it in English only
    try:
        with p.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        raise ReplayError(NO_SUCH_FILE.format(path=str(p))) from None
    except OSError as exc:
        if isinstance(exc, IsADirectoryError) or p.is_dir():  # Windows says "permission denied" for a folder
            raise ReplayError(IS_A_FOLDER.format(path=str(p))) from None
        raise ReplayError(CANNOT_READ.format(path=str(p), reason=exc.strerror)) from None
    if head == SQLITE_MAGIC:
        from services.telemetry.recording import RecordingError, read_recording_checked

        try:
            snaps, skipped = read_recording_checked(p)
        except RecordingError as exc:
            raise ReplayError(exc.message) from None
        if not snaps:
            raise ReplayError(NO_READABLE_SAMPLES.format(path=str(p)))
        notes: tuple[Msg | str, ...] = (skipped,) if skipped else ()
        if len(snaps) > KEEP_SNAPSHOTS:
            notes += (SHOWING_NEWEST.format(name=p.name, kept=KEEP_SNAPSHOTS, total=len(snaps)),)
            snaps = snaps[-KEEP_SNAPSHOTS:]
        return ReplaySource(p, snaps, "recording", notes=notes)
    snaps, skipped_rows, notes = read_nvidia_smi_csv_streaming(p, progress=progress)
    return ReplaySource(p, snaps, "nvidia-smi-csv", skipped_rows, notes)


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
        if any(_number(h) is not None for h in header_row):
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
        values = _row_values(row, header, known)
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


_SLOW = object()


def _fast_number(raw: str):
    """The common cells ("87", "87 %", "312.45 W") without regexes; _SLOW for anything else."""
    try:
        value = float(raw)
    except ValueError:
        space = raw.find(" ")
        if space <= 0:
            return _SLOW
        try:
            value = float(raw[:space])
        except ValueError:
            return _SLOW
    if value != value or value in (math.inf, -math.inf):
        return None
    return value


def _row_values(row: list[str], header: list[str], known: list[Column | None]) -> dict | None:
    if len(row) != len(header):
        return None
    values: dict = {}
    try:
        for col, raw in zip(known, row, strict=True):
            if col is None:
                continue
            kind = col.kind
            if kind == "float" or kind == "int":
                value = _fast_number(raw)
                if value is _SLOW:
                    if "[" in raw and raw.strip().lower() in LOST_VALUES:
                        values["lost"] = True
                    value = _convert(kind, raw)
                elif value is not None and kind == "int":
                    value = int(value)
            else:
                if "[" in raw and raw.strip().lower() in LOST_VALUES:
                    values["lost"] = True
                value = _convert(kind, raw)
            if value is not None:
                if col.field not in values:
                    values[col.field] = value  # first of two aliases wins
            elif col.field.startswith("reason:"):
                values.setdefault("reason_unknown", True)
    except ValueError:
        return None
    return values


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
                info = self._infos[index] = _info(index, values)
            samples.append(_sample(t, index, info.uuid, values))
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


def _info(index: int, values: dict) -> GpuInfo:
    get: Callable[[str], object] = lambda key: values.get(f"info:{key}")
    return GpuInfo(
        index=index,
        name=str(get("name") or f"GPU {index}"),
        uuid=str(values.get("uuid") or f"replay-gpu-{index}"),
        pci_bus_id=get("pci_bus_id"),  # type: ignore[arg-type]
        driver_version=get("driver_version"),  # type: ignore[arg-type]
        memory_total_mib=values.get("memory_total_mib"),
        power_limit_default_w=get("power_limit_default_w"),  # type: ignore[arg-type]
        sm_clock_max_mhz=get("sm_clock_max_mhz"),  # type: ignore[arg-type]
        mem_clock_max_mhz=get("mem_clock_max_mhz"),  # type: ignore[arg-type]
        pcie_gen_max=get("pcie_gen_max"),  # type: ignore[arg-type]
        pcie_width_max=get("pcie_width_max"),  # type: ignore[arg-type]
    )


def _sample(t: float, index: int, uuid: str, values: dict) -> GpuSample:
    reasons = None
    if "throttle_mask" in values:
        reasons = decode(values["throttle_mask"])
    elif any(k.startswith("reason:") for k in values):
        reasons = frozenset(k[7:] for k, v in values.items() if k.startswith("reason:") and v and k[7:] in BY_CODE)
    sm = values.get("sm_clock_mhz", values.get("graphics_clock"))
    fields = {k: v for k, v in values.items() if k in _SAMPLE_FIELDS}
    fields["sm_clock_mhz"] = sm
    state = DeviceState.LOST if values.get("lost") else DeviceState.OK
    return GpuSample(t=t, index=index, uuid=uuid, state=state, throttle_reasons=reasons, **fields)


# Read into GpuSample as they are (the SM clock is set on its own: the graphics clock stands in).
_SAMPLE_FIELDS = frozenset(METRIC_FIELDS) - {"sm_clock_mhz"}
