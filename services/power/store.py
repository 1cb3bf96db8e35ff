"""Saved sweeps: one JSON file each, in a ``sweeps`` folder beside the recordings."""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from services.i18n import translate
from services.power.model import PowerError, Sweep, recommend

SUFFIX = ".sweep.json"
MAX_BYTES = 5_000_000  # a sweep is a few kB; anything this big is not one


def sweeps_dir() -> Path:
    from services.paths import AppPaths

    return AppPaths.default().data_dir / "sweeps"


def file_name(sweep: Sweep) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(sweep.started))
    return f"{stamp}-gpu{sweep.gpu_index}{SUFFIX}"


def save(sweep: Sweep, folder: Path | None = None) -> Path:
    folder = folder or sweeps_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name(sweep)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(sweep.to_json(), indent=1), encoding="utf-8")
    os.replace(tmp, path)
    return path


def load(path: Path) -> Sweep:
    """A saved sweep, or PowerError with one line saying why not."""
    from services.paths import UnsafePathError, check_regular_file

    try:
        check_regular_file(path, may_be_missing=False, may_be_folder=False)
        if path.stat().st_size > MAX_BYTES:
            raise ValueError("too large to be a sweep")
        return Sweep.from_json(json.loads(path.read_text(encoding="utf-8")))
    except UnsafePathError as exc:
        raise PowerError(exc.message) from None
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise PowerError(translate("Power", "cannot read the sweep {path}: {reason}").format(
            path=str(path), reason=getattr(exc, "strerror", None) or str(exc))) from None


def resolve(name: str, folder: Path | None = None) -> Path:
    """A file path as given, or the name (or its start) of a saved sweep."""
    path = Path(name)
    if path.exists() or os.sep in name or "/" in name:
        return path
    folder = folder or sweeps_dir()
    if (folder / name).is_file():
        return folder / name
    matches = sorted(folder.glob(f"{name}*{SUFFIX}")) if folder.is_dir() else []
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise PowerError(translate("Power", "no saved sweep named {name} (see: python main.py power --list)").format(name=name))
    raise PowerError(translate("Power", "{name} matches {count} saved sweeps; give more of the name").format(
        name=name, count=len(matches)))


@dataclass(frozen=True, slots=True)
class SavedSweep:
    path: Path
    sweep: Sweep | None
    error: str | None = None


def list_saved(folder: Path | None = None) -> list[SavedSweep]:
    folder = folder or sweeps_dir()
    if not folder.is_dir():
        return []
    out: list[SavedSweep] = []
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        try:
            out.append(SavedSweep(path, load(path)))
        except PowerError as exc:
            out.append(SavedSweep(path, None, str(exc)))
    return out


NEWEST_FOR_INSIGHTS = 10  # the insights look at this many of the newest sweeps (read every few seconds)


def recommended_limits(folder: Path | None = None) -> dict[str, float]:
    """UUID -> the limit the newest saved sweep of that GPU recommends (for the insights). Never raises:
    an unreadable folder or sweep gives fewer entries."""
    from services.power.model import recommended_limit

    folder = folder or sweeps_dir()
    try:
        paths = sorted(folder.glob(f"*{SUFFIX}"), reverse=True)[:NEWEST_FOR_INSIGHTS]
    except OSError:
        return {}
    out: dict[str, float] = {}
    for path in paths:  # newest first: the first sweep of a GPU wins
        try:
            sweep = load(path)
        except PowerError:
            continue
        limit = recommended_limit(sweep)
        if limit is not None and sweep.gpu_uuid not in out:
            out[sweep.gpu_uuid] = limit
    return out


@dataclass(frozen=True, slots=True)
class KindComparison:
    kind: str
    limit_w: float
    before: float | None
    after: float | None
    before_power_w: float | None
    after_power_w: float | None

    @property
    def change(self) -> float | None:
        return self.after / self.before - 1.0 if self.before and self.after is not None else None


def compare(before: Sweep, after: Sweep) -> list[KindComparison]:
    """Throughput and power at the limits both sweeps measured (before/after a cooler or a driver)."""
    out: list[KindComparison] = []
    for kind in before.kinds():
        a = {p.limit_w: p for p in before.points_of(kind)}
        b = {p.limit_w: p for p in after.points_of(kind)}
        for limit in sorted(set(a) | set(b), reverse=True):
            pa, pb = a.get(limit), b.get(limit)
            out.append(KindComparison(kind, limit, pa.value if pa else None, pb.value if pb else None,
                                      pa.power_w if pa else None, pb.power_w if pb else None))
    return out


__all__ = ["compare", "list_saved", "load", "recommend", "recommended_limits", "resolve", "save", "sweeps_dir"]
