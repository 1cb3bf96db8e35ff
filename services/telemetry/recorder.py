"""Session recordings: every monitoring session is written to its own SQLite file.

Durability: the database runs in WAL mode with ``synchronous=NORMAL`` and the
recorder commits at least once a second of sampling, so a crash or a kill of
the app loses at most the last second or two (a committed WAL transaction
survives the process; only a power cut can cost the last checkpoint window).

The file format and its reader are in ``recording``; listing, summarising and
exporting sessions in ``session_store``.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
import sqlite3
import threading
import time
from pathlib import Path
from collections.abc import Callable


from services.telemetry.history import reasons_to_mask
from services.telemetry.model import (
    Snapshot,
)
from services.telemetry.recording import (
    COMMIT_EVERY_S,
    PREFIX,
    SAMPLE_COLUMNS,
    SCHEMA_VERSION,
    SUFFIX,
    SYSTEM_COLUMNS,
    SCHEMA_SQL,
    session_id_of,
)

log = logging.getLogger(__name__)

# A session shorter than this and without an alert is not kept: opening the app for a glance, a
# screenshot run or a quick restart would otherwise fill the sessions list with seconds of nothing.
MIN_KEPT_S = 10.0


# ---------------------------------------------------------------- writing


class Recorder:
    """Writes snapshots (and alerts) of one session to ``<dir>/session-<id>.sqlite``.

    Use ``on_snapshot`` as a hub listener. The database is created on the first
    snapshot (on the sampler thread); if it cannot be written (disk full, no
    permission) recording stops with ``problem`` set, and sampling goes on.
    """

    def __init__(self, directory: Path, *, source_name: str = "nvml",
                 clock: Callable[[], float] = time.monotonic, commit_every_s: float = COMMIT_EVERY_S,
                 on_commit: Callable[[int], None] | None = None, min_kept_s: float = 0.0) -> None:
        """``min_kept_s``: a session shorter than this with no alert is removed on close (the app uses MIN_KEPT_S)."""
        self.directory = Path(directory)
        self.min_kept_s = min_kept_s
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
        self._first_t: float | None = None
        self._alerts = 0
        self._closed = False
        self.discarded = False  # closed too short and quiet to keep (MIN_KEPT_S): the file was removed

    @property
    def session_id(self) -> str | None:
        return session_id_of(self.path) if self.path else None

    def _open(self, t: float) -> sqlite3.Connection:
        self.directory.mkdir(parents=True, exist_ok=True)
        try:
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(t))
        except (OverflowError, ValueError, OSError):  # a clock far off: name it by the wall clock
            stamp = time.strftime("%Y%m%d-%H%M%S")
        # The name is taken by creating the file exclusively (O_EXCL): checking that it does not
        # exist and then opening it let two recorders started in one second share one file.
        n = 1
        while True:
            path = self.directory / (f"{PREFIX}{stamp}{SUFFIX}" if n == 1 else f"{PREFIX}{stamp}-{n}{SUFFIX}")
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
                break
            except FileExistsError:
                n += 1
                if n > 10000:
                    raise OSError(17, "no free recording name", str(path)) from None
        conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(SCHEMA_SQL)
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
        if self._first_t is None:
            self._first_t = snapshot.t
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

    def record_alert(self, t: float, gpu_index: int | None, rule: str, severity: str, message: str,
                     gpu_uuid: str | None = None) -> None:
        if self.problem or self._closed:
            return
        with self._lock:
            if self._conn is None:
                return
            try:
                self._conn.execute("INSERT INTO alerts(t, gpu, rule, severity, message, uuid) VALUES (?, ?, ?, ?, ?, ?)",
                                   (t, gpu_index, rule, severity, message, gpu_uuid))
                self._alerts += 1
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
            if self._alerts == 0 and self._first_t is not None and self._last_t - self._first_t < self.min_kept_s:
                self._discard()

    def _discard(self) -> None:
        """Remove this session's own file (and SQLite's side files): it holds seconds and no alert."""
        path = self.path
        if path is None:
            return
        for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            try:
                p.unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:  # kept then: a short session listed is better than an error
                log.warning("could not remove the short recording %s: %s", p, exc)
                return
        self.discarded = True

