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

import os
from pathlib import Path
from collections.abc import Callable

from services.i18n import Msg, translate
from services.telemetry.model import DeviceState, GpuInfo, SourceKind, Snapshot, SourceStatus, Tier
from services.telemetry.replay_errors import (
    CANNOT_READ, IS_A_FOLDER, NO_READABLE_SAMPLES, NO_SUCH_FILE, SHOWING_NEWEST, ReplayError,
)
from services.telemetry.smi_log import KEEP_SNAPSHOTS, Progress, read_nvidia_smi_csv_streaming

SQLITE_MAGIC = b"SQLite format 3\x00"


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
