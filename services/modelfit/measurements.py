"""The measured runs, kept in SQLite beside the recordings (the app's data folder, recordings/).

One file, ``fit-measurements.sqlite3``, in the recordings folder: the session list reads only
``*.sqlite`` files, so the recordings are not disturbed. Each row holds everything needed to
repeat the run: the model (id and shape hash), engine, every setting of the estimate, the command,
GPU, driver and versions, date, the estimate and its parts, the measured peak per GPU and a
thinned-out memory curve.
"""
from __future__ import annotations

import builtins

import csv
import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterable

from services.i18n import TranslatableError, translate

FILE_NAME = "fit-measurements.sqlite3"
SCHEMA_VERSION = 1
# A memory curve is kept at this many points at most (a 10-minute run at 10 Hz has 6000).
CURVE_POINTS = 600

_COLUMNS = (
    ("created", "REAL"), ("model", "TEXT"), ("model_key", "TEXT"), ("engine", "TEXT"), ("task", "TEXT"),
    ("settings", "TEXT"), ("settings_key", "TEXT"), ("command", "TEXT"), ("cwd", "TEXT"), ("pid", "INTEGER"),
    ("gpu_name", "TEXT"), ("gpu_key", "TEXT"), ("driver", "TEXT"), ("versions", "TEXT"),
    ("estimate_gib", "REAL"), ("fixed_gib", "REAL"), ("scaling_gib", "REAL"), ("parts", "TEXT"),
    ("peak_gib", "REAL"), ("per_gpu", "TEXT"), ("exit_code", "INTEGER"), ("status", "TEXT"),
    ("duration_s", "REAL"), ("notes", "TEXT"), ("curve", "TEXT"),
)
CSV_COLUMNS = ("id", "date", "model", "model_key", "engine", "task", "seq", "batch", "weights", "method",
               "gpu", "driver", "estimate_gib", "peak_gib", "error_gib", "error_pct", "exit_code", "status",
               "duration_s", "command", "versions", "settings")


class StoreError(TranslatableError):
    """The measurements file cannot be read or written: one line."""


@dataclass
class StoredMeasurement:
    created: float
    model: str
    model_key: str
    engine: str
    task: str
    settings: dict
    settings_key: str
    command: list[str]
    cwd: str | None
    pid: int | None
    gpu_name: str | None
    gpu_key: str | None
    driver: str | None
    versions: dict
    estimate_gib: float
    fixed_gib: float
    scaling_gib: float
    parts: dict
    peak_gib: float | None
    per_gpu: dict  # GPU name or key -> peak GiB
    exit_code: int | None
    status: str
    duration_s: float
    notes: list[str] = field(default_factory=list)
    curve: list[tuple[float, float]] = field(default_factory=list)  # (s, GiB on the busiest GPU)
    id: int | None = None

    @property
    def error_gib(self) -> float | None:
        return None if self.peak_gib is None else self.estimate_gib - self.peak_gib

    @property
    def error_pct(self) -> float | None:
        if self.peak_gib is None or self.peak_gib <= 0:
            return None
        return 100.0 * (self.estimate_gib - self.peak_gib) / self.peak_gib

    @property
    def date(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.created))


def thin(points: list[tuple[float, float]], limit: int = CURVE_POINTS) -> list[tuple[float, float]]:
    """At most ``limit`` points, each bucket's highest kept so the peak survives."""
    if len(points) <= limit:
        return points
    size = -(-len(points) // limit)
    return [max(points[i:i + size], key=lambda p: p[1]) for i in range(0, len(points), size)]


class MeasurementStore:
    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / FILE_NAME

    def _connect(self, create: bool) -> sqlite3.Connection | None:
        if not create and not self.path.is_file():
            return None
        conn = None
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=5)
            conn.execute("CREATE TABLE IF NOT EXISTS measurements (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                         + ", ".join(f"{name} {kind}" for name, kind in _COLUMNS) + ")")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return conn
        except (sqlite3.Error, OSError) as exc:
            if conn is not None:
                conn.close()
            raise StoreError(translate("Measure", "cannot use the measurements file {path}: {reason}").format(
                path=str(self.path), reason=str(exc))) from None

    def add(self, row: StoredMeasurement) -> int:
        conn = self._connect(create=True)
        assert conn is not None  # create=True makes the file or raises StoreError
        values = []
        for name, _kind in _COLUMNS:
            value = getattr(row, name)
            if name == "curve":
                value = thin(list(value))
            if isinstance(value, (dict, list, tuple)):
                value = json.dumps(value, ensure_ascii=False)
            values.append(value)
        try:
            with conn:
                cur = conn.execute(f"INSERT INTO measurements ({', '.join(n for n, _ in _COLUMNS)}) VALUES "
                                   f"({', '.join('?' for _ in _COLUMNS)})", values)
            row.id = int(cur.lastrowid or 0)
            return row.id
        except sqlite3.Error as exc:
            raise StoreError(translate("Measure", "cannot save the measurement in {path}: {reason}").format(
                path=str(self.path), reason=str(exc))) from None
        finally:
            conn.close()

    def list(self) -> list[StoredMeasurement]:
        conn = self._connect(create=False)
        if conn is None:
            return []
        try:
            rows = conn.execute(f"SELECT id, {', '.join(n for n, _ in _COLUMNS)} FROM measurements ORDER BY created, id").fetchall()
        except sqlite3.Error as exc:
            raise StoreError(translate("Measure", "cannot read the measurements file {path}: {reason}").format(
                path=str(self.path), reason=str(exc))) from None
        finally:
            conn.close()
        return [m for m in (_from_row(r) for r in rows) if m is not None]

    def delete(self, ids: Iterable[int]) -> int:
        ids = [int(i) for i in ids]
        conn = self._connect(create=False)
        if conn is None or not ids:
            return 0
        try:
            with conn:
                cur = conn.execute(f"DELETE FROM measurements WHERE id IN ({', '.join('?' for _ in ids)})", ids)
            return cur.rowcount
        except sqlite3.Error as exc:
            raise StoreError(translate("Measure", "cannot delete from {path}: {reason}").format(
                path=str(self.path), reason=str(exc))) from None
        finally:
            conn.close()

    def for_model(self, model_key: str, engine: str) -> "builtins.list[StoredMeasurement]":
        return [m for m in self.list() if m.model_key == model_key and m.engine == engine]


def _from_row(row: tuple) -> StoredMeasurement | None:
    values = dict(zip(["id"] + [n for n, _ in _COLUMNS], row, strict=True))
    try:
        for name in ("settings", "versions", "parts", "per_gpu"):
            values[name] = json.loads(values[name] or "{}")
        for name in ("command", "notes", "curve"):
            values[name] = json.loads(values[name] or "[]")
        values["curve"] = [tuple(p) for p in values["curve"]]
        return StoredMeasurement(**values)
    except (TypeError, ValueError):
        return None  # a row another version wrote wrongly: left in the file, not shown


def export_csv(rows: list[StoredMeasurement], target: Path) -> int:
    target = Path(target)
    try:
        with target.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(CSV_COLUMNS)
            for m in rows:
                s = m.settings
                writer.writerow([
                    m.id, m.date, m.model, m.model_key, m.engine, m.task, s.get("seq"), s.get("batch"),
                    s.get("weights"), s.get("method") if m.task == "train" else "", m.gpu_name or "", m.driver or "",
                    f"{m.estimate_gib:.3f}", "" if m.peak_gib is None else f"{m.peak_gib:.3f}",
                    "" if m.error_gib is None else f"{m.error_gib:.3f}",
                    "" if m.error_pct is None else f"{m.error_pct:.1f}",
                    "" if m.exit_code is None else m.exit_code, m.status, f"{m.duration_s:.1f}",
                    json.dumps(m.command, ensure_ascii=False), json.dumps(m.versions, ensure_ascii=False),
                    json.dumps(s, ensure_ascii=False, sort_keys=True),
                ])
    except OSError as exc:
        raise StoreError(translate("Measure", "cannot write {path}: {reason}").format(
            path=str(target), reason=exc.strerror or str(exc))) from None
    return len(rows)


def record(est, result, *, command: list[str], cwd: str | None, pid: int | None,
           versions: dict | None = None) -> StoredMeasurement:
    """The row for one measurement of one estimate."""
    import platform

    from services.modelfit.calibration import model_key, request_settings, settings_hash, split_gib
    from services.version import __version__

    fixed, scaling = split_gib(est)
    busiest = result.busiest_gpu
    ref = result.gpu(busiest) if busiest else (result.gpus[0] if result.gpus else None)
    full_versions = {"app": __version__, "python_app": platform.python_version(), "os": platform.platform()}
    full_versions.update(versions or {})
    curve = [(round(s.t_s, 2), round(s.used_gib.get(busiest, 0.0), 4)) for s in result.samples] if busiest else []
    return StoredMeasurement(
        created=time.time(), model=est.arch.model_id, model_key=model_key(est), engine=est.request.engine,
        task=est.request.task, settings=request_settings(est.request) | {"weights": est.weight_format},
        settings_key=settings_hash(est.request), command=list(command), cwd=cwd, pid=pid,
        gpu_name=ref.name if ref else None, gpu_key=ref.key if ref else None,
        driver=full_versions.get("driver"), versions=full_versions,
        estimate_gib=fixed + scaling, fixed_gib=fixed, scaling_gib=scaling,
        parts={k: round(v / 2**30, 4) for k, v in est.parts.items()},
        peak_gib=result.peak_busiest_gib,
        per_gpu={(result.gpu(k).name + f" #{result.gpu(k).index}") if result.gpu(k) else k: round(v, 4)
                 for k, v in result.peak_gib.items()},
        exit_code=result.exit_code, status=result.status, duration_s=result.duration_s,
        notes=[str(n) for n in result.notes], curve=curve,
    )
