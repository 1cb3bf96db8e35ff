"""The recording file: its schema, and reading it back into snapshots.

One SQLite file per monitoring session (``recorder.Recorder`` writes it,
``session_store.SessionStore`` lists and exports them, ``replay`` opens one).
Files written by older versions are read as they are; a damaged file raises
``RecordingError`` with one line for the user.
"""
from __future__ import annotations

import dataclasses
import json
import math
import sqlite3
from pathlib import Path
from typing import Any


from services.i18n import Msg, TranslatableError, translate
from services.telemetry.history import mask_to_reasons
from services.telemetry.fields import INTEGER_FIELDS, METRIC_FIELDS, SYSTEM_INTEGER_FIELDS, SYSTEM_VALUE_FIELDS
from services.telemetry.model import (
    DeviceState,
    GpuInfo,
    GpuSample,
    ProcessSample,
    Snapshot,
    SourceStatus,
    SystemSample,
)


SCHEMA_VERSION = 2  # 2: GPUs keyed by UUID; samples and processes carry the UUID
SUFFIX = ".sqlite"
PREFIX = "session-"
COMMIT_EVERY_S = 1.0  # sampling-clock seconds between commits: at most ~1-2 s lost on a kill

# The samples table's value columns (their order is the file format: never reorder).
SAMPLE_COLUMNS: tuple[str, ...] = METRIC_FIELDS
SYSTEM_COLUMNS: tuple[str, ...] = SYSTEM_VALUE_FIELDS
_INT_FIELDS = INTEGER_FIELDS | SYSTEM_INTEGER_FIELDS

SCHEMA_SQL = f"""
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
CREATE TABLE IF NOT EXISTS alerts(t REAL NOT NULL, gpu INTEGER, rule TEXT, severity TEXT, message TEXT, uuid TEXT);
"""


class RecordingError(TranslatableError):
    """A recording cannot be read. ``str()`` is one line in English (JSON, logs);
    ``message`` is the same line translatable, for a person (CLI ``fail``, GUI ``render``)."""



# What a person is told about a recording; file names, ids and SQLite's own words are placeholders.
NO_SUCH_RECORDING = translate("Recording", "{path}: no such recording")
NOT_READABLE = translate("Recording", "{name}: not a readable recording ({error})")
NOT_A_RECORDING = translate("Recording", "{name}: an SQLite file, but not a GPU Assistant recording")
DAMAGED = translate("Recording", "{name}: damaged recording ({error})")
ROWS_SKIPPED = translate("Recording", "{name}: {rows} unreadable rows skipped")
VALUES_SKIPPED = translate("Recording", "{name}: {cells} unreadable values skipped")
ROWS_AND_VALUES_SKIPPED = translate("Recording", "{name}: {rows} unreadable rows and {cells} unreadable values skipped")


# ---------------------------------------------------------------- reading


def session_id_of(path: Path) -> str:
    name = path.name
    if name.startswith(PREFIX) and name.endswith(SUFFIX):
        return name[len(PREFIX):-len(SUFFIX)]
    return path.stem


def connect_readonly(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise RecordingError(NO_SUCH_RECORDING.format(path=str(path)))
    # A closed session has no -wal file: open it immutable so reading creates
    # no side files. A live or crashed one is read through its WAL.
    wal = path.with_name(path.name + "-wal")
    query = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    try:
        return _opened(sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True))
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc) or "malformed" in str(exc):
            raise RecordingError(NOT_READABLE.format(name=path.name, error=str(exc))) from None
    # A crashed session's WAL without its index cannot be opened read-only; a
    # normal connection recovers it (without losing anything).
    try:
        return _opened(sqlite3.connect(str(path)))
    except sqlite3.DatabaseError as exc:
        raise RecordingError(NOT_READABLE.format(name=path.name, error=str(exc))) from None


def _opened(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn`` once it has read the schema; closed (never left to the garbage collector) if it cannot."""
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


def check_schema(conn: sqlite3.Connection, path: Path) -> None:
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as exc:
        raise RecordingError(NOT_READABLE.format(name=path.name, error=str(exc))) from None
    if not {"meta", "gpus", "samples"} <= tables:
        raise RecordingError(NOT_A_RECORDING.format(name=path.name))


class CellSkips:
    """Counts the cells and rows of a damaged recording that could not be read (they are left out)."""

    def __init__(self) -> None:
        self.cells = 0
        self.rows = 0

    def __bool__(self) -> bool:
        return bool(self.cells or self.rows)

    def describe(self, name: str) -> Msg:
        """What was left out of the file ``name``, one line (``str()`` is English)."""
        if self.rows and self.cells:
            return ROWS_AND_VALUES_SKIPPED.format(name=name, rows=self.rows, cells=self.cells)
        if self.rows:
            return ROWS_SKIPPED.format(name=name, rows=self.rows)
        return VALUES_SKIPPED.format(name=name, cells=self.cells)


# The times a recording can hold: from 1970 to 2100 (4102444800 = 2100-01-01 UTC). A row at
# t = 1e12 in a damaged file once made replay lay out 30,000 years; one beyond what a clock
# shows made export and replay overflow. Such rows are skipped and counted.
T_MIN = 0.0
T_MAX = 4_102_444_800.0
# A GPU's info is a small JSON object; anything much bigger (or nested deep) is damage.
MAX_INFO_CHARS = 65536


def number_cell(value: Any, column: str, skips: CellSkips | None = None) -> Any:
    """A stored value as int/float, or None: text, blobs and non-finite numbers in a number
    column (a damaged or hand-edited file) are left out and counted, never a crash."""
    if value is None:
        return None
    if column == "t" and isinstance(value, (int, float)) and not isinstance(value, bool) \
            and not T_MIN <= value <= T_MAX:
        if skips is not None:
            skips.cells += 1
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


def table_columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def read_gpu_infos(conn: sqlite3.Connection) -> tuple[dict[str, GpuInfo], dict[int, str]]:
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
            if not isinstance(info, str) or len(info) > MAX_INFO_CHARS:
                raise TypeError("info")
            # Only plain values are kept: a nested object in a field is damage, not a GPU property.
            data: dict[str, Any] = {k: v for k, v in json.loads(info).items()
                    if k in names and (v is None or isinstance(v, (str, int, float, bool)))}
            data["index"], data["uuid"] = idx, uuid
            gpu = GpuInfo(**data)
            if not isinstance(gpu.name, str):
                raise TypeError("name")
        except (ValueError, TypeError, AttributeError, RecursionError):
            gpu = GpuInfo(index=idx, name=f"GPU {idx}", uuid=uuid)
        by_uuid[uuid] = gpu
        by_index[idx] = uuid
    return by_uuid, by_index


def uuid_of_row(row_uuid: Any, gpu: int, by_index: dict[int, str]) -> str:
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


def read_recording_checked(path: Path) -> tuple[list[Snapshot], Msg | None]:
    """All readable snapshots of one recording, and what was skipped as unreadable (or None)."""
    path = Path(path)
    conn = connect_readonly(path)
    try:
        check_schema(conn, path)
        skips = CellSkips()
        try:
            snaps = _read_snapshots(conn, skips)
        except sqlite3.DatabaseError as exc:
            raise RecordingError(DAMAGED.format(name=path.name, error=str(exc))) from None
        return snaps, (skips.describe(path.name) if skips else None)
    finally:
        conn.close()


def _read_snapshots(conn: sqlite3.Connection, skips: CellSkips | None = None) -> list[Snapshot]:
    skips = skips if skips is not None else CellSkips()
    infos, by_index = read_gpu_infos(conn)
    system: dict[float, SystemSample] = {}
    for row in conn.execute("SELECT * FROM system ORDER BY t"):
        t = number_cell(row[0], "t", skips)
        if t is not None:
            system[t] = SystemSample(t, *(number_cell(v, c, skips) for v, c in zip(row[1:], SYSTEM_COLUMNS, strict=False)))  # SELECT *: a later version's file may have more columns
    # Process lists were stored when they changed: carry each one forward (per GPU, by UUID).
    proc_uuid = "uuid" if "uuid" in table_columns(conn, "processes") else "NULL"
    proc_changes: dict[str, list[tuple[float, tuple[ProcessSample, ...]]]] = {}
    current: dict[tuple[str, float], list[ProcessSample]] = {}
    for t, gpu, pid, name, user, kind, used, cpu, uuid in conn.execute(
            f"SELECT t, gpu, pid, name, user, kind, used_mib, cpu_pct, {proc_uuid} FROM processes ORDER BY t, rowid"):
        t = number_cell(t, "t", skips)
        if t is None or not isinstance(gpu, int):
            skips.rows += 1
            continue
        lst = current.setdefault((uuid_of_row(uuid, gpu, by_index), t), [])
        if pid is not None:
            pid_n = number_cell(pid, "pid", skips)
            if pid_n is None:
                continue
            lst.append(ProcessSample(int(pid_n), name if isinstance(name, str) else "",
                                     user if isinstance(user, str) else None,
                                     kind if isinstance(kind, str) and kind else "compute",
                                     number_cell(used, "used_mib", skips), number_cell(cpu, "cpu_pct", skips)))
    for (uuid, t), lst in sorted(current.items(), key=lambda kv: kv[0][1]):
        proc_changes.setdefault(uuid, []).append((t, tuple(lst)))
    proc_pos = {uuid: 0 for uuid in proc_changes}
    proc_now: dict[str, tuple[ProcessSample, ...] | None] = {}
    statuses = []
    for t, st, msg in conn.execute("SELECT t, state, message FROM status ORDER BY t"):
        t = number_cell(t, "t", skips)
        if t is not None:
            statuses.append((t, st, msg if isinstance(msg, str) else None))
    status_pos = 0
    status = SourceStatus(DeviceState.OK)
    snapshots: list[Snapshot] = []
    rows_by_t: list[tuple[float, list[GpuSample]]] = []
    cols = ", ".join(SAMPLE_COLUMNS)
    sample_uuid = "uuid" if "uuid" in table_columns(conn, "samples") else "NULL"
    for row in conn.execute(f"SELECT t, gpu, state, state_detail, {cols}, throttle, {sample_uuid} "
                            f"FROM samples ORDER BY t, gpu"):
        t, gpu, state, detail = number_cell(row[0], "t"), row[1], row[2], row[3]
        if t is None or not isinstance(gpu, int) or isinstance(gpu, bool) or not 0 <= gpu < 2 ** 31:
            skips.rows += 1  # no time or no GPU: nothing to place this reading at
            continue
        values = {c: number_cell(v, c, skips) for c, v in zip(SAMPLE_COLUMNS, row[4:-2], strict=True)}
        mask = number_cell(row[-2], "throttle", skips)
        uuid = uuid_of_row(row[-1], gpu, by_index)
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
                                  system=system.get(t)))
    return snapshots

