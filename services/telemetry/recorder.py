"""Session recordings: every monitoring session is written to its own SQLite file.

Durability: the database runs in WAL mode with ``synchronous=NORMAL`` and the
recorder commits at least once a second of sampling, so a crash or a kill of
the app loses at most the last second or two (a committed WAL transaction
survives the process; only a power cut can cost the last checkpoint window).

``SessionStore`` lists, opens, summarises, compares and exports the sessions
in a folder. A file that cannot be read is reported with its problem and left
exactly where it is: recordings are the user's data and are never deleted.
"""
from __future__ import annotations

import csv
import dataclasses
import json
import logging
import math
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable

import numpy as np

from services.telemetry.history import MAX_COUNTED_GAP_S, mask_to_reasons, reasons_to_mask, UNKNOWN_BIT
from services.telemetry.fields import INTEGER_FIELDS, METRIC_FIELDS
from services.telemetry.model import (
    DeviceState,
    GpuInfo,
    GpuSample,
    ProcessSample,
    Snapshot,
    SourceStatus,
    SystemSample,
)
from services.telemetry.smi_csv import EXPORT_COLUMNS, format_timestamp
from services.telemetry.throttle import REASONS

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2  # 2: GPUs keyed by UUID; samples and processes carry the UUID
SUFFIX = ".sqlite"
PREFIX = "session-"
COMMIT_EVERY_S = 1.0  # sampling-clock seconds between commits: at most ~1-2 s lost on a kill

# The samples table's value columns (their order is the file format: never reorder).
SAMPLE_COLUMNS: tuple[str, ...] = METRIC_FIELDS
SYSTEM_COLUMNS: tuple[str, ...] = (
    "cpu_pct", "cpu_count", "ram_used_mib", "ram_total_mib", "swap_used_mib", "swap_total_mib",
    "disk_read_mib_s", "disk_write_mib_s", "iowait_pct",
)
_INT_FIELDS = INTEGER_FIELDS | {"cpu_count"}

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS gpus(idx INTEGER, uuid TEXT PRIMARY KEY, info TEXT);
CREATE TABLE IF NOT EXISTS samples(
    t REAL NOT NULL, gpu INTEGER NOT NULL, state TEXT, state_detail TEXT,
    {", ".join(f"{c} REAL" for c in SAMPLE_COLUMNS)},
    throttle INTEGER, uuid TEXT);
CREATE INDEX IF NOT EXISTS samples_t ON samples(t);
CREATE TABLE IF NOT EXISTS system(t REAL PRIMARY KEY, {", ".join(f"{c} REAL" for c in SYSTEM_COLUMNS)});
CREATE TABLE IF NOT EXISTS processes(
    t REAL NOT NULL, gpu INTEGER NOT NULL, pid INTEGER, name TEXT, user TEXT, kind TEXT,
    used_mib REAL, cpu_pct REAL, uuid TEXT);
CREATE INDEX IF NOT EXISTS processes_t ON processes(t);
CREATE TABLE IF NOT EXISTS status(t REAL NOT NULL, state TEXT, message TEXT);
CREATE TABLE IF NOT EXISTS alerts(t REAL NOT NULL, gpu INTEGER, rule TEXT, severity TEXT, message TEXT);
"""


class RecordingError(Exception):
    """A recording cannot be read; ``str()`` is one line."""


# ---------------------------------------------------------------- writing


class Recorder:
    """Writes snapshots (and alerts) of one session to ``<dir>/session-<id>.sqlite``.

    Use ``on_snapshot`` as a hub listener. The database is created on the first
    snapshot (on the sampler thread); if it cannot be written (disk full, no
    permission) recording stops with ``problem`` set, and sampling goes on.
    """

    def __init__(self, directory: Path, *, source_name: str = "nvml",
                 clock: Callable[[], float] = time.monotonic, commit_every_s: float = COMMIT_EVERY_S,
                 on_commit: Callable[[int], None] | None = None) -> None:
        self.directory = Path(directory)
        self.source_name = source_name
        self.commit_every_s = commit_every_s
        self.problem: str | None = None
        self.path: Path | None = None
        self.snapshots_written = 0
        self.snapshots_committed = 0
        self._clock = clock
        self._on_commit = on_commit
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._last_commit: float | None = None
        self._pending = 0
        self._gpu_indexes: dict[str, int] = {}  # uuid -> index last written (an index can change)
        self._last_procs: dict[str, tuple] = {}  # by uuid
        self._last_status: tuple | None = None
        self._last_t = -math.inf
        self._closed = False

    @property
    def session_id(self) -> str | None:
        return session_id_of(self.path) if self.path else None

    def _open(self, t: float) -> sqlite3.Connection:
        self.directory.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(t))
        path = self.directory / f"{PREFIX}{stamp}{SUFFIX}"
        n = 1
        while path.exists():
            n += 1
            path = self.directory / f"{PREFIX}{stamp}-{n}{SUFFIX}"
        conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(_SCHEMA)
        conn.execute("BEGIN")
        conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
            ("schema_version", str(SCHEMA_VERSION)),
            ("app", "gpu-assistant"),
            ("source", self.source_name),
            ("started_at", repr(t)),
        ])
        conn.execute("COMMIT")
        self.path = path
        return conn

    def on_snapshot(self, snapshot: Snapshot) -> None:
        if self.problem or self._closed:
            return
        if snapshot.t <= self._last_t:
            return  # already written (a listener may be told twice) or the clock stepped back
        if self._conn is None and not snapshot.samples:
            return  # no GPU readings yet (no driver, ...): do not leave empty sessions behind
        self._last_t = snapshot.t
        with self._lock:
            try:
                if self._conn is None:
                    self._conn = self._open(snapshot.t)
                    self._conn.execute("BEGIN")
                    self._last_commit = self._clock()
                self._write(snapshot)
                self.snapshots_written += 1
                self._pending += 1
                now = self._clock()
                if self._last_commit is None or now - self._last_commit >= self.commit_every_s:
                    self._commit(now)
            except (sqlite3.Error, OSError) as exc:
                self._fail(exc)

    def record_alert(self, t: float, gpu_index: int | None, rule: str, severity: str, message: str) -> None:
        if self.problem or self._closed:
            return
        with self._lock:
            if self._conn is None:
                return
            try:
                self._conn.execute("INSERT INTO alerts VALUES (?, ?, ?, ?, ?)", (t, gpu_index, rule, severity, message))
            except sqlite3.Error as exc:
                self._fail(exc)

    def _commit(self, now: float) -> None:
        assert self._conn is not None
        self._conn.execute("COMMIT")
        self._conn.execute("BEGIN")
        self._last_commit = now
        self.snapshots_committed = self.snapshots_written
        self._pending = 0
        if self._on_commit is not None:
            self._on_commit(self.snapshots_committed)

    def _fail(self, exc: BaseException) -> None:
        self.problem = f"recording stopped: {exc}"
        log.warning("%s", self.problem)
        if self._conn is not None:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
            self._conn = None

    def _write(self, snap: Snapshot) -> None:
        conn = self._conn
        assert conn is not None
        status_key = (snap.status.state.value, snap.status.message)
        if status_key != self._last_status:
            conn.execute("INSERT INTO status VALUES (?, ?, ?)", (snap.t, *status_key))
            self._last_status = status_key
        for info in snap.gpus:
            # Keyed by UUID: after a re-ordering each card keeps its own facts (the index is for display).
            if self._gpu_indexes.get(info.uuid) != info.index:
                conn.execute("INSERT OR REPLACE INTO gpus VALUES (?, ?, ?)",
                             (info.index, info.uuid, json.dumps(dataclasses.asdict(info))))
                self._gpu_indexes[info.uuid] = info.index
        rows = []
        for s in snap.samples:
            rows.append((s.t, s.index, s.state.value, s.state_detail,
                         *(getattr(s, c) for c in SAMPLE_COLUMNS),
                         None if s.throttle_reasons is None else reasons_to_mask(s.throttle_reasons), s.uuid))
            if s.processes is not None:
                key = tuple((p.pid, p.name, p.kind, None if p.used_mib is None else round(p.used_mib / 64))
                            for p in s.processes)
                if key != self._last_procs.get(s.uuid):
                    self._last_procs[s.uuid] = key
                    if s.processes:
                        conn.executemany("INSERT INTO processes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                            (s.t, s.index, p.pid, p.name, p.user, p.kind, p.used_mib, p.cpu_pct, s.uuid)
                            for p in s.processes])
                    else:  # a row with no pid marks "no processes from here on"
                        conn.execute("INSERT INTO processes VALUES (?, ?, NULL, NULL, NULL, NULL, NULL, NULL, ?)",
                                     (s.t, s.index, s.uuid))
        if rows:
            marks = ", ".join("?" * (6 + len(SAMPLE_COLUMNS)))
            conn.executemany(f"INSERT INTO samples VALUES ({marks})", rows)
        if snap.system is not None:
            conn.execute(f"INSERT OR REPLACE INTO system VALUES ({', '.join('?' * (1 + len(SYSTEM_COLUMNS)))})",
                         (snap.t, *(getattr(snap.system, c) for c in SYSTEM_COLUMNS)))

    def flush(self) -> None:
        with self._lock:
            if self._conn is not None and not self.problem:
                try:
                    self._commit(self._clock())
                except sqlite3.Error as exc:
                    self._fail(exc)

    def close(self) -> None:
        """Commit what is pending and close; the session's end time is recorded."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            conn, self._conn = self._conn, None
            if conn is None:
                return
            try:
                conn.execute("INSERT OR REPLACE INTO meta VALUES ('ended_at', ?)", (repr(time.time()),))
                conn.execute("COMMIT")
                self.snapshots_committed = self.snapshots_written
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                log.warning("closing the recording failed: %s", exc)
            finally:
                conn.close()


# ---------------------------------------------------------------- reading


def session_id_of(path: Path) -> str:
    name = path.name
    if name.startswith(PREFIX) and name.endswith(SUFFIX):
        return name[len(PREFIX):-len(SUFFIX)]
    return path.stem


def _connect_readonly(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise RecordingError(f"{path}: no such recording")
    # A closed session has no -wal file: open it immutable so reading creates
    # no side files. A live or crashed one is read through its WAL.
    wal = path.with_name(path.name + "-wal")
    query = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc) or "malformed" in str(exc):
            raise RecordingError(f"{path.name}: not a readable recording ({exc})") from None
    # A crashed session's WAL without its index cannot be opened read-only; a
    # normal connection recovers it (without losing anything).
    try:
        conn = sqlite3.connect(str(path))
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.DatabaseError as exc:
        raise RecordingError(f"{path.name}: not a readable recording ({exc})") from None


def _check_schema(conn: sqlite3.Connection, path: Path) -> None:
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as exc:
        raise RecordingError(f"{path.name}: not a readable recording ({exc})") from None
    if not {"meta", "gpus", "samples"} <= tables:
        raise RecordingError(f"{path.name}: an SQLite file, but not a GPU Assistant recording")


class _Skips:
    """Counts the cells and rows of a damaged recording that could not be read (they are left out)."""

    def __init__(self) -> None:
        self.cells = 0
        self.rows = 0

    def __bool__(self) -> bool:
        return bool(self.cells or self.rows)

    def describe(self) -> str:
        parts = []
        if self.rows:
            parts.append(f"{self.rows} unreadable rows")
        if self.cells:
            parts.append(f"{self.cells} unreadable values")
        return " and ".join(parts) + " skipped"


def _number_cell(value: Any, column: str, skips: _Skips | None = None) -> Any:
    """A stored value as int/float, or None: text, blobs and non-finite numbers in a number
    column (a damaged or hand-edited file) are left out and counted, never a crash."""
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        if column in _INT_FIELDS:
            if abs(value) >= 2 ** 63:
                if skips is not None:
                    skips.cells += 1
                return None
            return int(value)
        return float(value)
    if skips is not None:
        skips.cells += 1
    return None


# kept for callers that used the old name
_int_or = _number_cell


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _infos(conn: sqlite3.Connection) -> tuple[dict[str, GpuInfo], dict[int, str]]:
    """The recorded GPUs by UUID, and the UUID each index had last (for version-1 files,
    whose samples carry only the index)."""
    by_uuid: dict[str, GpuInfo] = {}
    by_index: dict[int, str] = {}
    names = {f.name for f in dataclasses.fields(GpuInfo)}
    for idx, uuid, info in conn.execute("SELECT idx, uuid, info FROM gpus ORDER BY rowid"):
        if not isinstance(idx, int) or isinstance(idx, bool):
            continue  # a damaged row: the GPU's samples still show, under a generic name
        uuid = uuid if isinstance(uuid, str) and uuid else f"gpu-{idx}"
        try:
            data = {k: v for k, v in json.loads(info).items() if k in names}
            data["index"], data["uuid"] = idx, uuid
            gpu = GpuInfo(**data)
            if not isinstance(gpu.name, str):
                raise TypeError("name")
        except (ValueError, TypeError, AttributeError):
            gpu = GpuInfo(index=idx, name=f"GPU {idx}", uuid=uuid)
        by_uuid[uuid] = gpu
        by_index[idx] = uuid
    return by_uuid, by_index


def _uuid_of(row_uuid: Any, gpu: int, by_index: dict[int, str]) -> str:
    if isinstance(row_uuid, str) and row_uuid:
        return row_uuid
    return by_index.get(gpu, f"gpu-{gpu}")


def _info_at(infos: dict[str, GpuInfo], uuid: str, index: int) -> GpuInfo:
    info = infos.get(uuid)
    if info is None:
        info = infos[uuid] = GpuInfo(index=index, name=f"GPU {index}", uuid=uuid)
    if info.index != index:  # the same card under another index in this part of the session
        info = dataclasses.replace(info, index=index)
    return info


def read_recording(path: Path) -> list[Snapshot]:
    """All snapshots of one recording, oldest first."""
    return read_recording_checked(path)[0]


def read_recording_checked(path: Path) -> tuple[list[Snapshot], str | None]:
    """All readable snapshots of one recording, and what was skipped as unreadable (or None)."""
    path = Path(path)
    conn = _connect_readonly(path)
    try:
        _check_schema(conn, path)
        skips = _Skips()
        try:
            snaps = _read_snapshots(conn, skips)
        except sqlite3.DatabaseError as exc:
            raise RecordingError(f"{path.name}: damaged recording ({exc})") from None
        return snaps, (f"{path.name}: {skips.describe()}" if skips else None)
    finally:
        conn.close()


def _read_snapshots(conn: sqlite3.Connection, skips: _Skips | None = None) -> list[Snapshot]:
    skips = skips if skips is not None else _Skips()
    infos, by_index = _infos(conn)
    system: dict[float, SystemSample] = {}
    for row in conn.execute("SELECT * FROM system ORDER BY t"):
        t = _number_cell(row[0], "t", skips)
        if t is not None:
            system[t] = SystemSample(t, *(_number_cell(v, c, skips) for v, c in zip(row[1:], SYSTEM_COLUMNS)))
    # Process lists were stored when they changed: carry each one forward (per GPU, by UUID).
    proc_uuid = "uuid" if "uuid" in _columns(conn, "processes") else "NULL"
    proc_changes: dict[str, list[tuple[float, tuple[ProcessSample, ...]]]] = {}
    current: dict[tuple[str, float], list[ProcessSample]] = {}
    for t, gpu, pid, name, user, kind, used, cpu, uuid in conn.execute(
            f"SELECT t, gpu, pid, name, user, kind, used_mib, cpu_pct, {proc_uuid} FROM processes ORDER BY t, rowid"):
        t = _number_cell(t, "t", skips)
        if t is None or not isinstance(gpu, int):
            skips.rows += 1
            continue
        lst = current.setdefault((_uuid_of(uuid, gpu, by_index), t), [])
        if pid is not None:
            pid_n = _number_cell(pid, "pid", skips)
            if pid_n is None:
                continue
            lst.append(ProcessSample(int(pid_n), name if isinstance(name, str) else "",
                                     user if isinstance(user, str) else None,
                                     kind if isinstance(kind, str) and kind else "compute",
                                     _number_cell(used, "used_mib", skips), _number_cell(cpu, "cpu_pct", skips)))
    for (uuid, t), lst in sorted(current.items(), key=lambda kv: kv[0][1]):
        proc_changes.setdefault(uuid, []).append((t, tuple(lst)))
    proc_pos = {uuid: 0 for uuid in proc_changes}
    proc_now: dict[str, tuple[ProcessSample, ...] | None] = {}
    statuses = []
    for t, st, msg in conn.execute("SELECT t, state, message FROM status ORDER BY t"):
        t = _number_cell(t, "t", skips)
        if t is not None:
            statuses.append((t, st, msg if isinstance(msg, str) else None))
    status_pos = 0
    status = SourceStatus(DeviceState.OK)
    snapshots: list[Snapshot] = []
    rows_by_t: list[tuple[float, list[GpuSample]]] = []
    cols = ", ".join(SAMPLE_COLUMNS)
    sample_uuid = "uuid" if "uuid" in _columns(conn, "samples") else "NULL"
    for row in conn.execute(f"SELECT t, gpu, state, state_detail, {cols}, throttle, {sample_uuid} "
                            f"FROM samples ORDER BY t, gpu"):
        t, gpu, state, detail = _number_cell(row[0], "t"), row[1], row[2], row[3]
        if t is None or not isinstance(gpu, int) or isinstance(gpu, bool) or not 0 <= gpu < 2 ** 31:
            skips.rows += 1  # no time or no GPU: nothing to place this reading at
            continue
        values = {c: _number_cell(v, c, skips) for c, v in zip(SAMPLE_COLUMNS, row[4:-2])}
        mask = _number_cell(row[-2], "throttle", skips)
        uuid = _uuid_of(row[-1], gpu, by_index)
        changes = proc_changes.get(uuid)
        if changes:
            pos = proc_pos[uuid]
            while pos < len(changes) and changes[pos][0] <= t:
                proc_now[uuid] = changes[pos][1]
                pos += 1
            proc_pos[uuid] = pos
        try:
            dev_state = DeviceState(state)
        except ValueError:
            dev_state = DeviceState.ERROR
        sample = GpuSample(t=t, index=gpu, uuid=uuid, state=dev_state,
                           state_detail=detail if isinstance(detail, str) else None,
                           throttle_reasons=None if mask is None else mask_to_reasons(int(mask) & 0xFFFFFFFF),
                           processes=proc_now.get(uuid), **values)
        if rows_by_t and rows_by_t[-1][0] == t:
            rows_by_t[-1][1].append(sample)
        else:
            rows_by_t.append((t, [sample]))
    for t, samples in rows_by_t:
        while status_pos < len(statuses) and statuses[status_pos][0] <= t:
            _, st, msg = statuses[status_pos]
            try:
                status = SourceStatus(DeviceState(st), msg)
            except ValueError:
                status = SourceStatus(DeviceState.ERROR, msg)
            status_pos += 1
        gpus = tuple(_info_at(infos, s.uuid, s.index) for s in samples)
        snapshots.append(Snapshot(t=t, status=status, gpus=gpus, samples=tuple(samples),
                                  system=system.get(t), extra={"source": "recording"}))
    return snapshots


# ---------------------------------------------------------------- sessions


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: str
    path: Path
    start: float | None = None
    end: float | None = None
    gpus: tuple[str, ...] = ()
    samples: int = 0
    source: str | None = None
    problem: str | None = None  # set when the file cannot be read: shown, never deleted

    @property
    def duration_s(self) -> float | None:
        if self.start is None or self.end is None:
            return None
        return max(0.0, self.end - self.start)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "file": str(self.path),
            "start": self.start,
            "end": self.end,
            "duration_s": self.duration_s,
            "gpus": list(self.gpus),
            "samples": self.samples,
            "source": self.source,
            "problem": self.problem,
        }


@dataclass(frozen=True, slots=True)
class GpuSummary:
    index: int
    name: str
    uuid: str
    samples: int
    duration_s: float
    mean_temperature_c: float | None
    peak_temperature_c: float | None
    mean_utilization_pct: float | None
    peak_memory_used_mib: float | None
    mean_power_w: float | None
    energy_wh: float | None
    throttle_seconds: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class SessionSummary:
    session: SessionInfo
    gpus: tuple[GpuSummary, ...]

    def to_json(self) -> dict:
        return {"session": self.session.to_json(), "gpus": [g.to_json() for g in self.gpus]}


def summarize_gpu(index: int, name: str, uuid: str, t: np.ndarray, temp: np.ndarray, util: np.ndarray,
                  power: np.ndarray, mem: np.ndarray, masks: np.ndarray) -> GpuSummary:
    """Per-GPU statistics; gaps longer than MAX_COUNTED_GAP_S are not integrated."""
    def mean(a: np.ndarray) -> float | None:
        a = a[np.isfinite(a)]
        return float(a.mean()) if a.size else None

    def peak(a: np.ndarray) -> float | None:
        a = a[np.isfinite(a)]
        return float(a.max()) if a.size else None

    dt = np.diff(t) if t.size > 1 else np.zeros(0)
    counted = (dt > 0) & (dt <= MAX_COUNTED_GAP_S)
    energy = None
    if t.size > 1:
        p0, p1 = power[:-1], power[1:]
        ok = counted & np.isfinite(p0) & np.isfinite(p1)
        if ok.any():
            energy = float(np.sum((p0[ok] + p1[ok]) / 2 * dt[ok]) / 3600.0)
    seconds = {}
    if t.size > 1:
        later = masks[1:]
        known = (later & UNKNOWN_BIT) == 0
        for r in REASONS:
            hit = counted & known & ((later & r.bit) != 0)
            seconds[r.code] = float(dt[hit].sum())
    return GpuSummary(
        index=index, name=name, uuid=uuid, samples=int(t.size),
        duration_s=float(t[-1] - t[0]) if t.size > 1 else 0.0,
        mean_temperature_c=mean(temp), peak_temperature_c=peak(temp), mean_utilization_pct=mean(util),
        peak_memory_used_mib=peak(mem), mean_power_w=mean(power), energy_wh=energy,
        throttle_seconds=seconds,
    )


class SessionStore:
    """The recordings in one folder."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def paths(self) -> list[Path]:
        if not self.directory.is_dir():
            return []
        return sorted(p for p in self.directory.glob(f"*{SUFFIX}") if p.is_file())

    def list(self) -> list[SessionInfo]:
        return [self.info(p) for p in self.paths()]

    def path_of(self, session: str) -> Path:
        """A session id (as listed) or a path to a recording file."""
        direct = Path(session)
        candidate = self.directory / f"{PREFIX}{session}{SUFFIX}"
        try:
            if direct.suffix == SUFFIX and direct.is_file():
                return direct
            if candidate.is_file():
                return candidate
        except OSError:  # not even a valid file name here (too long, ...): no such session either
            pass
        raise RecordingError(f"no session {session[:80]!r} in {self.directory}")

    def info(self, path: Path) -> SessionInfo:
        sid = session_id_of(path)
        try:
            conn = _connect_readonly(path)
        except RecordingError as exc:
            return SessionInfo(sid, path, problem=str(exc))
        try:
            _check_schema(conn, path)
            meta = {k: v for k, v in conn.execute("SELECT key, value FROM meta") if isinstance(k, str)}
            # Only numeric times count: a damaged cell is not a start or an end.
            start, end, count = conn.execute(
                "SELECT min(t), max(t), count(DISTINCT t) FROM samples WHERE typeof(t) IN ('real', 'integer')"
            ).fetchone()
            infos, _ = _infos(conn)
            source = meta.get("source")
            return SessionInfo(sid, path, start=_number_cell(start, "t"), end=_number_cell(end, "t"),
                               samples=int(count or 0),
                               gpus=tuple(g.name for g in sorted(infos.values(), key=lambda g: g.index)),
                               source=source if isinstance(source, str) else None)
        except RecordingError as exc:
            return SessionInfo(sid, path, problem=str(exc))
        except sqlite3.DatabaseError as exc:
            return SessionInfo(sid, path, problem=f"{path.name}: damaged recording ({exc})")
        finally:
            conn.close()

    def open(self, session: str) -> list[Snapshot]:
        return read_recording(self.path_of(session))

    def summary(self, session: str) -> SessionSummary:
        """Per-GPU statistics, one entry per card (by UUID: a card that changed index stays one)."""
        path = self.path_of(session)
        info = self.info(path)
        if info.problem:
            raise RecordingError(info.problem)
        conn = _connect_readonly(path)
        try:
            infos, by_index = _infos(conn)
            has_uuid = "uuid" in _columns(conn, "samples")
            per_gpu: dict[str, list[tuple]] = {}
            last_index: dict[str, int] = {}
            for row in conn.execute(
                    "SELECT t, temperature_c, utilization_pct, power_w, memory_used_mib, throttle, gpu, "
                    f"{'uuid' if has_uuid else 'NULL'} FROM samples ORDER BY t"):
                t, gpu = _number_cell(row[0], "t"), row[6]
                if t is None or not isinstance(gpu, int):
                    continue
                uuid = _uuid_of(row[7], gpu, by_index)
                last_index[uuid] = gpu
                per_gpu.setdefault(uuid, []).append(
                    (t, *(_number_cell(v, "x") for v in row[1:5]), _number_cell(row[5], "throttle")))
            gpus = []
            for uuid, rows in sorted(per_gpu.items(), key=lambda kv: (last_index[kv[0]], kv[0])):
                arr = np.array([[np.nan if v is None else v for v in r[:5]] for r in rows], dtype=np.float64)
                masks = np.array([UNKNOWN_BIT if r[5] is None else int(r[5]) & 0xFFFFFFFF for r in rows],
                                 dtype=np.uint32)
                gi = infos.get(uuid)
                index = last_index[uuid]
                gpus.append(summarize_gpu(index, gi.name if gi else f"GPU {index}", uuid,
                                          arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], arr[:, 4], masks))
            return SessionSummary(info, tuple(gpus))
        except sqlite3.DatabaseError as exc:
            raise RecordingError(f"{path.name}: damaged recording ({exc})") from None
        finally:
            conn.close()

    def compare(self, a: str, b: str) -> tuple[SessionSummary, SessionSummary]:
        return self.summary(a), self.summary(b)

    def export_csv(self, session: str, target: Path) -> int:
        """Write the session as an nvidia-smi style CSV; returns the rows written."""
        return self.export_csv_checked(session, target)[0]

    def export_csv_checked(self, session: str, target: Path) -> tuple[int, str | None]:
        """Write the session as an nvidia-smi style CSV: (rows written, what was skipped as unreadable).

        Streams the rows straight from the database (no snapshots are built),
        so a day-long session exports in seconds.
        """
        path = self.path_of(session)
        info = self.info(path)
        if info.problem:
            raise RecordingError(info.problem)
        conn = _connect_readonly(path)
        skips = _Skips()
        try:
            infos, by_index = _infos(conn)
            cols = ", ".join(SAMPLE_COLUMNS)
            uuid_col = "uuid" if "uuid" in _columns(conn, "samples") else "NULL"
            rows = conn.execute(f"SELECT t, gpu, state, {cols}, throttle, {uuid_col} FROM samples ORDER BY t, gpu")

            def samples() -> Iterable[tuple[GpuSample, GpuInfo | None]]:
                for row in rows:
                    t, gpu = _number_cell(row[0], "t"), row[1]
                    if t is None or not isinstance(gpu, int) or isinstance(gpu, bool):
                        skips.rows += 1
                        continue
                    uuid = _uuid_of(row[-1], gpu, by_index)
                    values = {c: _number_cell(v, c, skips) for c, v in zip(SAMPLE_COLUMNS, row[3:-2])}
                    mask = _number_cell(row[-2], "throttle", skips)
                    try:
                        state = DeviceState(row[2])
                    except ValueError:
                        state = DeviceState.ERROR
                    gi = infos.get(uuid)
                    yield GpuSample(t=t, index=gpu, uuid=uuid, state=state,
                                    throttle_reasons=None if mask is None else mask_to_reasons(int(mask) & 0xFFFFFFFF),
                                    **values), (dataclasses.replace(gi, index=gpu) if gi else None)

            written = _write_csv(samples(), Path(target))
            return written, (f"{path.name}: {skips.describe()}" if skips else None)
        except sqlite3.DatabaseError as exc:
            raise RecordingError(f"{path.name}: damaged recording ({exc})") from None
        finally:
            conn.close()


def _write_csv(samples: Iterable[tuple[GpuSample, GpuInfo | None]], target: Path) -> int:
    """Write to a fresh temporary file beside ``target`` and rename it over ``target``.

    The temporary name is made by ``mkstemp`` (O_EXCL, random): it can never be a file of the
    user's (an old ``TARGET.part`` is left alone), and a failure removes only what we created.
    """
    import tempfile

    try:
        mode = os.stat(target).st_mode & 0o777
    except OSError:
        mode = 0o644
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=str(target.parent))
    tmp = Path(tmp_name)
    rows = 0
    try:
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow([name for name, _ in EXPORT_COLUMNS])
            for s, info in samples:
                writer.writerow([_csv_value(key, s, info) for _, key in EXPORT_COLUMNS])
                rows += 1
        try:
            os.chmod(tmp, mode)  # mkstemp makes 0600: give the export the target's (or a normal) mode
        except OSError:
            pass
        os.replace(tmp, target)  # never leave half a file under the user's name
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    return rows


def _csv_value(key: str, s: GpuSample, info: GpuInfo | None) -> str:
    if key == "timestamp":
        return format_timestamp(s.t)
    if key == "index":
        return str(s.index)
    if key == "uuid":
        return s.uuid
    if s.state is DeviceState.LOST and not key.startswith("info:"):
        return "[GPU is lost]"  # as nvidia-smi writes it, not "[N/A]" (= not supported)
    if key.startswith("info:"):
        value = getattr(info, key[5:], None) if info else None
        return "[N/A]" if value is None else str(value)
    if key == "throttle_mask":
        return "[N/A]" if s.throttle_reasons is None else f"0x{reasons_to_mask(s.throttle_reasons):016X}"
    value = getattr(s, key)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "[N/A]"
    if key == "pstate":
        return f"P{int(value)}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:.2f}" if isinstance(value, float) else str(value)
