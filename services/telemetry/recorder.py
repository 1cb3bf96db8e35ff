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
from typing import Any, Callable, Iterable

import numpy as np

from services.telemetry.history import MAX_COUNTED_GAP_S, mask_to_reasons, reasons_to_mask, UNKNOWN_BIT
from services.telemetry.model import (
    DeviceState,
    GpuInfo,
    GpuSample,
    ProcessSample,
    Snapshot,
    SourceStatus,
    SystemSample,
)
from services.telemetry.replay import EXPORT_COLUMNS, format_timestamp
from services.telemetry.throttle import REASONS

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
SUFFIX = ".sqlite"
PREFIX = "session-"
COMMIT_EVERY_S = 1.0  # sampling-clock seconds between commits: at most ~1-2 s lost on a kill

SAMPLE_COLUMNS: tuple[str, ...] = (
    "utilization_pct", "memory_utilization_pct", "memory_used_mib", "memory_total_mib",
    "temperature_c", "memory_temperature_c", "power_w", "power_limit_w", "energy_j",
    "sm_clock_mhz", "mem_clock_mhz", "fan_pct", "pstate", "pcie_gen", "pcie_width",
    "encoder_pct", "decoder_pct", "ecc_corrected", "ecc_uncorrected",
)
SYSTEM_COLUMNS: tuple[str, ...] = (
    "cpu_pct", "cpu_count", "ram_used_mib", "ram_total_mib", "swap_used_mib", "swap_total_mib",
    "disk_read_mib_s", "disk_write_mib_s", "iowait_pct",
)
_INT_FIELDS = {"pstate", "pcie_gen", "pcie_width", "ecc_corrected", "ecc_uncorrected", "cpu_count"}

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS gpus(idx INTEGER PRIMARY KEY, uuid TEXT, info TEXT);
CREATE TABLE IF NOT EXISTS samples(
    t REAL NOT NULL, gpu INTEGER NOT NULL, state TEXT, state_detail TEXT,
    {", ".join(f"{c} REAL" for c in SAMPLE_COLUMNS)},
    throttle INTEGER);
CREATE INDEX IF NOT EXISTS samples_t ON samples(t);
CREATE TABLE IF NOT EXISTS system(t REAL PRIMARY KEY, {", ".join(f"{c} REAL" for c in SYSTEM_COLUMNS)});
CREATE TABLE IF NOT EXISTS processes(
    t REAL NOT NULL, gpu INTEGER NOT NULL, pid INTEGER, name TEXT, user TEXT, kind TEXT,
    used_mib REAL, cpu_pct REAL);
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
        self._gpu_uuids: dict[int, str] = {}
        self._last_procs: dict[int, tuple] = {}
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
            if self._gpu_uuids.get(info.index) != info.uuid:
                conn.execute("INSERT OR REPLACE INTO gpus VALUES (?, ?, ?)",
                             (info.index, info.uuid, json.dumps(dataclasses.asdict(info))))
                self._gpu_uuids[info.index] = info.uuid
        rows = []
        for s in snap.samples:
            rows.append((s.t, s.index, s.state.value, s.state_detail,
                         *(getattr(s, c) for c in SAMPLE_COLUMNS),
                         None if s.throttle_reasons is None else reasons_to_mask(s.throttle_reasons)))
            if s.processes is not None:
                key = tuple((p.pid, p.name, p.kind, None if p.used_mib is None else round(p.used_mib / 64))
                            for p in s.processes)
                if key != self._last_procs.get(s.index):
                    self._last_procs[s.index] = key
                    if s.processes:
                        conn.executemany("INSERT INTO processes VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
                            (s.t, s.index, p.pid, p.name, p.user, p.kind, p.used_mib, p.cpu_pct)
                            for p in s.processes])
                    else:  # a row with no pid marks "no processes from here on"
                        conn.execute("INSERT INTO processes VALUES (?, ?, NULL, NULL, NULL, NULL, NULL, NULL)",
                                     (s.t, s.index))
        if rows:
            marks = ", ".join("?" * (5 + len(SAMPLE_COLUMNS)))
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


def _infos(conn: sqlite3.Connection) -> dict[int, GpuInfo]:
    infos = {}
    names = {f.name for f in dataclasses.fields(GpuInfo)}
    for idx, uuid, info in conn.execute("SELECT idx, uuid, info FROM gpus ORDER BY idx"):
        try:
            data = {k: v for k, v in json.loads(info).items() if k in names}
            infos[idx] = GpuInfo(**data)
        except (ValueError, TypeError):
            infos[idx] = GpuInfo(index=idx, name=f"GPU {idx}", uuid=uuid or f"gpu-{idx}")
    return infos


def read_recording(path: Path) -> list[Snapshot]:
    """All snapshots of one recording, oldest first."""
    path = Path(path)
    conn = _connect_readonly(path)
    try:
        _check_schema(conn, path)
        try:
            return _read_snapshots(conn)
        except sqlite3.DatabaseError as exc:
            raise RecordingError(f"{path.name}: damaged recording ({exc})") from None
    finally:
        conn.close()


def _read_snapshots(conn: sqlite3.Connection) -> list[Snapshot]:
    infos = _infos(conn)
    system = {row[0]: SystemSample(row[0], *(_int_or(v, c) for v, c in zip(row[1:], SYSTEM_COLUMNS)))
              for row in conn.execute("SELECT * FROM system ORDER BY t")}
    # Process lists were stored when they changed: carry each one forward.
    proc_changes: dict[int, list[tuple[float, tuple[ProcessSample, ...]]]] = {}
    current: dict[tuple[int, float], list[ProcessSample]] = {}
    for t, gpu, pid, name, user, kind, used, cpu in conn.execute("SELECT * FROM processes ORDER BY t, rowid"):
        lst = current.setdefault((gpu, t), [])
        if pid is not None:
            lst.append(ProcessSample(int(pid), name or "", user, kind or "compute", used, cpu))
    for (gpu, t), lst in sorted(current.items(), key=lambda kv: kv[0][1]):
        proc_changes.setdefault(gpu, []).append((t, tuple(lst)))
    proc_pos = {gpu: 0 for gpu in proc_changes}
    proc_now: dict[int, tuple[ProcessSample, ...] | None] = {}
    statuses = list(conn.execute("SELECT t, state, message FROM status ORDER BY t"))
    status_pos = 0
    status = SourceStatus(DeviceState.OK)
    snapshots: list[Snapshot] = []
    rows_by_t: list[tuple[float, list[GpuSample]]] = []
    cols = ", ".join(SAMPLE_COLUMNS)
    for row in conn.execute(f"SELECT t, gpu, state, state_detail, {cols}, throttle FROM samples ORDER BY t, gpu"):
        t, gpu, state, detail = row[0], row[1], row[2], row[3]
        values = {c: _int_or(v, c) for c, v in zip(SAMPLE_COLUMNS, row[4:-1])}
        mask = row[-1]
        changes = proc_changes.get(gpu)
        if changes:
            pos = proc_pos[gpu]
            while pos < len(changes) and changes[pos][0] <= t:
                proc_now[gpu] = changes[pos][1]
                pos += 1
            proc_pos[gpu] = pos
        uuid = infos[gpu].uuid if gpu in infos else f"gpu-{gpu}"
        try:
            dev_state = DeviceState(state)
        except ValueError:
            dev_state = DeviceState.ERROR
        sample = GpuSample(t=t, index=gpu, uuid=uuid, state=dev_state, state_detail=detail,
                           throttle_reasons=None if mask is None else mask_to_reasons(int(mask)),
                           processes=proc_now.get(gpu), **values)
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
        gpus = tuple(infos[s.index] for s in samples if s.index in infos)
        snapshots.append(Snapshot(t=t, status=status, gpus=gpus, samples=tuple(samples),
                                  system=system.get(t), extra={"source": "recording"}))
    return snapshots


def _int_or(value: Any, column: str) -> Any:
    if value is None:
        return None
    if column in _INT_FIELDS:
        return int(value)
    return float(value)


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
            meta = dict(conn.execute("SELECT key, value FROM meta"))
            start, end, count = conn.execute("SELECT min(t), max(t), count(DISTINCT t) FROM samples").fetchone()
            infos = _infos(conn)
            return SessionInfo(sid, path, start=start, end=end, samples=int(count or 0),
                               gpus=tuple(infos[i].name for i in sorted(infos)), source=meta.get("source"))
        except RecordingError as exc:
            return SessionInfo(sid, path, problem=str(exc))
        except sqlite3.DatabaseError as exc:
            return SessionInfo(sid, path, problem=f"{path.name}: damaged recording ({exc})")
        finally:
            conn.close()

    def open(self, session: str) -> list[Snapshot]:
        return read_recording(self.path_of(session))

    def summary(self, session: str) -> SessionSummary:
        path = self.path_of(session)
        info = self.info(path)
        if info.problem:
            raise RecordingError(info.problem)
        conn = _connect_readonly(path)
        try:
            infos = _infos(conn)
            gpus = []
            for gpu in sorted({r[0] for r in conn.execute("SELECT DISTINCT gpu FROM samples")}):
                rows = conn.execute(
                    "SELECT t, temperature_c, utilization_pct, power_w, memory_used_mib, throttle "
                    "FROM samples WHERE gpu = ? ORDER BY t", (gpu,)).fetchall()
                arr = np.array([[np.nan if v is None else v for v in r[:5]] for r in rows], dtype=np.float64)
                masks = np.array([UNKNOWN_BIT if r[5] is None else r[5] for r in rows], dtype=np.uint32)
                gi = infos.get(gpu)
                gpus.append(summarize_gpu(gpu, gi.name if gi else f"GPU {gpu}", gi.uuid if gi else "",
                                          arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], arr[:, 4], masks))
            return SessionSummary(info, tuple(gpus))
        except sqlite3.DatabaseError as exc:
            raise RecordingError(f"{path.name}: damaged recording ({exc})") from None
        finally:
            conn.close()

    def compare(self, a: str, b: str) -> tuple[SessionSummary, SessionSummary]:
        return self.summary(a), self.summary(b)

    def export_csv(self, session: str, target: Path) -> int:
        """Write the session as an nvidia-smi style CSV; returns the rows written.

        Streams the rows straight from the database (no snapshots are built),
        so a day-long session exports in seconds.
        """
        path = self.path_of(session)
        info = self.info(path)
        if info.problem:
            raise RecordingError(info.problem)
        conn = _connect_readonly(path)
        try:
            infos = _infos(conn)
            cols = ", ".join(SAMPLE_COLUMNS)
            rows = conn.execute(f"SELECT t, gpu, state, {cols}, throttle FROM samples ORDER BY t, gpu")

            def samples() -> Iterable[tuple[GpuSample, GpuInfo | None]]:
                for row in rows:
                    gpu = row[1]
                    gi = infos.get(gpu)
                    values = {c: _int_or(v, c) for c, v in zip(SAMPLE_COLUMNS, row[3:-1])}
                    mask = row[-1]
                    yield GpuSample(t=row[0], index=gpu, uuid=gi.uuid if gi else f"gpu-{gpu}",
                                    throttle_reasons=None if mask is None else mask_to_reasons(int(mask)),
                                    **values), gi

            return _write_csv(samples(), Path(target))
        except sqlite3.DatabaseError as exc:
            raise RecordingError(f"{path.name}: damaged recording ({exc})") from None
        finally:
            conn.close()


def write_nvidia_smi_csv(snapshots: Iterable[Snapshot], target: Path) -> int:
    """nvidia-smi ``--format=csv,nounits`` layout (``replay`` reads it back)."""
    def samples() -> Iterable[tuple[GpuSample, GpuInfo | None]]:
        for snap in snapshots:
            infos = {g.index: g for g in snap.gpus}
            for s in snap.samples:
                yield s, infos.get(s.index)

    return _write_csv(samples(), target)


def _write_csv(samples: Iterable[tuple[GpuSample, GpuInfo | None]], target: Path) -> int:
    tmp = target.with_name(target.name + ".part")
    rows = 0
    try:
        with tmp.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow([name for name, _ in EXPORT_COLUMNS])
            for s, info in samples:
                writer.writerow([_csv_value(key, s, info) for _, key in EXPORT_COLUMNS])
                rows += 1
        os.replace(tmp, target)  # never leave half a file under the user's name
    finally:
        if tmp.exists():
            tmp.unlink()
    return rows


def _csv_value(key: str, s: GpuSample, info: GpuInfo | None) -> str:
    if key == "timestamp":
        return format_timestamp(s.t)
    if key == "index":
        return str(s.index)
    if key == "uuid":
        return s.uuid
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
