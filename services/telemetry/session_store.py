"""The sessions in a folder: list, open, summarise, compare and export them.

A file that cannot be read is reported with its problem and left exactly where
it is: recordings are the user's data and are never deleted.
"""
from __future__ import annotations

import builtins
import csv
import dataclasses
import math
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterable

import numpy as np

from services.i18n import Msg, translate
from services.telemetry.history import MAX_COUNTED_GAP_S, mask_to_reasons, reasons_to_mask, UNKNOWN_BIT
from services.telemetry.model import (
    DeviceState,
    GpuInfo,
    GpuSample,
    Snapshot,
)
from services.telemetry.smi_csv import EXPORT_COLUMNS, format_timestamp
from services.telemetry.throttle import REASONS
from services.telemetry.recording import (
    PREFIX,
    DAMAGED,
    RecordingError,
    SAMPLE_COLUMNS,
    SUFFIX,
    CellSkips,
    check_schema,
    table_columns,
    connect_readonly,
    read_gpu_infos,
    number_cell,
    uuid_of_row,
    read_recording,
    session_id_of,
)



# ---------------------------------------------------------------- sessions

NO_SESSION = translate("Recording", "no session {session} in {folder}")


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: str
    path: Path
    start: float | None = None
    end: float | None = None
    gpus: tuple[str, ...] = ()
    samples: int = 0
    source: str | None = None
    problem: str | None = None  # set when the file cannot be read: shown, never deleted (English: JSON, CSV)
    # The same line translatable, for a person (see ``shown_problem``).
    problem_message: Msg | None = field(default=None, compare=False, repr=False)

    @property
    def shown_problem(self) -> Msg | str | None:
        """Why the file cannot be read, to show a person: the translatable line, else the English one."""
        return self.problem_message if self.problem_message is not None else self.problem

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


def _unreadable(sid: str, path: Path, message: Msg | str) -> SessionInfo:
    """A listed file that cannot be read: its problem in English and, for a person, translatable."""
    return SessionInfo(sid, path, problem=str(message),
                       problem_message=message if isinstance(message, Msg) else None)


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
        raise RecordingError(NO_SESSION.format(session=repr(session[:80]), folder=str(self.directory)))

    def info(self, path: Path) -> SessionInfo:
        sid = session_id_of(path)
        try:
            conn = connect_readonly(path)
        except RecordingError as exc:
            return _unreadable(sid, path, exc.message)
        try:
            check_schema(conn, path)
            meta = {k: v for k, v in conn.execute("SELECT key, value FROM meta") if isinstance(k, str)}
            # Only numeric times count: a damaged cell is not a start or an end.
            start, end, count = conn.execute(
                "SELECT min(t), max(t), count(DISTINCT t) FROM samples WHERE typeof(t) IN ('real', 'integer') AND t BETWEEN 0 AND 4102444800"
            ).fetchone()
            infos, _ = read_gpu_infos(conn)
            source = meta.get("source")
            return SessionInfo(sid, path, start=number_cell(start, "t"), end=number_cell(end, "t"),
                               samples=int(count or 0),
                               gpus=tuple(g.name for g in sorted(infos.values(), key=lambda g: g.index)),
                               source=source if isinstance(source, str) else None)
        except RecordingError as exc:
            return _unreadable(sid, path, exc.message)
        except sqlite3.DatabaseError as exc:
            return _unreadable(sid, path, DAMAGED.format(name=path.name, error=str(exc)))
        finally:
            conn.close()

    def open(self, session: str) -> builtins.list[Snapshot]:  # list: the method above
        return read_recording(self.path_of(session))

    def delete(self, sessions: Iterable[str],
               keep: Path | None = None) -> tuple[builtins.list[str], builtins.list[tuple[str, Msg]]]:
        """Remove recordings of this folder (ids as listed, or their paths) with SQLite's side files.

        Returns (deleted ids, [(id, why not)]). Only a recording file directly in this folder is removed,
        never one elsewhere, a link or ``keep`` (the session being recorded now)."""
        deleted: builtins.list[str] = []  # builtins: ``list`` in this class is the method above
        refused: builtins.list[tuple[str, Msg]] = []
        here = self.directory.resolve()
        for session in sessions:
            try:
                path = self.path_of(session)
            except RecordingError as exc:
                refused.append((session, exc.message if isinstance(exc.message, Msg) else Msg("Recording", exc.message)))
                continue
            sid = session_id_of(path)
            if path.is_symlink() or path.resolve().parent != here:
                refused.append((sid, translate("Recording", "not a recording of this folder")))
                continue
            if keep is not None and path.resolve() == keep.resolve():
                refused.append((sid, translate("Recording", "this session is being recorded now")))
                continue
            try:
                path.unlink()
            except OSError as exc:
                refused.append((sid, translate("Recording", "cannot remove it: {reason}").format(reason=exc.strerror or str(exc))))
                continue
            for side in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                try:
                    side.unlink()
                except OSError:
                    pass  # absent (a closed session has none) or held: the main file is gone either way
            deleted.append(sid)
        return deleted, refused

    def summary(self, session: str) -> SessionSummary:
        """Per-GPU statistics, one entry per card (by UUID: a card that changed index stays one)."""
        path = self.path_of(session)
        info = self.info(path)
        if info.problem:
            raise RecordingError(info.shown_problem or info.problem)
        conn = connect_readonly(path)
        try:
            infos, by_index = read_gpu_infos(conn)
            has_uuid = "uuid" in table_columns(conn, "samples")
            per_gpu: dict[str, list[tuple]] = {}
            last_index: dict[str, int] = {}
            for row in conn.execute(
                    "SELECT t, temperature_c, utilization_pct, power_w, memory_used_mib, throttle, gpu, "
                    f"{'uuid' if has_uuid else 'NULL'} FROM samples ORDER BY t"):
                t, gpu = number_cell(row[0], "t"), row[6]
                if t is None or not isinstance(gpu, int):
                    continue
                uuid = uuid_of_row(row[7], gpu, by_index)
                last_index[uuid] = gpu
                per_gpu.setdefault(uuid, []).append(
                    (t, *(number_cell(v, "x") for v in row[1:5]), number_cell(row[5], "throttle")))
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
            raise RecordingError(DAMAGED.format(name=path.name, error=str(exc))) from None
        finally:
            conn.close()

    def compare(self, a: str, b: str) -> tuple[SessionSummary, SessionSummary]:
        return self.summary(a), self.summary(b)

    def export_csv(self, session: str, target: Path) -> int:
        """Write the session as an nvidia-smi style CSV; returns the rows written."""
        return self.export_csv_checked(session, target)[0]

    def export_csv_checked(self, session: str, target: Path) -> tuple[int, Msg | None]:
        """Write the session as an nvidia-smi style CSV: (rows written, what was skipped as unreadable).

        Streams the rows straight from the database (no snapshots are built),
        so a day-long session exports in seconds.
        """
        path = self.path_of(session)
        info = self.info(path)
        if info.problem:
            raise RecordingError(info.shown_problem or info.problem)
        conn = connect_readonly(path)
        skips = CellSkips()
        try:
            infos, by_index = read_gpu_infos(conn)
            cols = ", ".join(SAMPLE_COLUMNS)
            uuid_col = "uuid" if "uuid" in table_columns(conn, "samples") else "NULL"
            rows = conn.execute(f"SELECT t, gpu, state, {cols}, throttle, {uuid_col} FROM samples ORDER BY t, gpu")

            def samples() -> Iterable[tuple[GpuSample, GpuInfo | None]]:
                for row in rows:
                    t, gpu = number_cell(row[0], "t"), row[1]
                    if t is None or not isinstance(gpu, int) or isinstance(gpu, bool):
                        skips.rows += 1
                        continue
                    uuid = uuid_of_row(row[-1], gpu, by_index)
                    values = {c: number_cell(v, c, skips) for c, v in zip(SAMPLE_COLUMNS, row[3:-2], strict=True)}
                    mask = number_cell(row[-2], "throttle", skips)
                    try:
                        state = DeviceState(row[2])
                    except ValueError:
                        state = DeviceState.ERROR
                    gi = infos.get(uuid)
                    yield GpuSample(t=t, index=gpu, uuid=uuid, state=state,
                                    throttle_reasons=None if mask is None else mask_to_reasons(int(mask) & 0xFFFFFFFF),
                                    **values), (dataclasses.replace(gi, index=gpu) if gi else None)

            written = _write_csv(samples(), Path(target))
            return written, (skips.describe(path.name) if skips else None)
        except sqlite3.DatabaseError as exc:
            raise RecordingError(DAMAGED.format(name=path.name, error=str(exc))) from None
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
