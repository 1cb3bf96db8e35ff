"""``python main.py sessions``: list, compare and export recorded monitoring sessions."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from services.cli import EXIT_FAILED, EXIT_OK, UsageError
from services.paths import AppPaths
from services.telemetry.recorder import RecordingError, SessionInfo, SessionStore, SessionSummary
from services.telemetry.throttle import BY_CODE

HELP = "list, compare and export recorded monitoring sessions"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--list", action="store_true", help="list the recorded sessions")
    action.add_argument("--export", metavar="ID", help="export one session (ID or recording file) to CSV")
    action.add_argument("--compare", nargs=2, metavar=("ID", "ID"), help="compare two sessions per GPU")
    parser.add_argument("--csv", metavar="FILE", help="target file for --export (nvidia-smi CSV columns)")
    parser.add_argument("--json", action="store_true", help="machine-readable output for --list and --compare")
    parser.add_argument("--dir", metavar="DIR", help="recordings folder (default: the app's data folder)")


def run(args: argparse.Namespace) -> int:
    directory = Path(args.dir) if args.dir else AppPaths.default().recordings_dir
    if args.dir and not directory.is_dir():
        raise UsageError(f"{directory}: no such folder")
    store = SessionStore(directory)
    if args.list:
        return _list(store, args.json)
    if args.export:
        if not args.csv:
            raise UsageError("--export needs --csv FILE")
        return _export(store, args.export, Path(args.csv))
    return _compare(store, args.compare[0], args.compare[1], args.json)


def _when(t: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) if t is not None else "-"


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def _list(store: SessionStore, as_json: bool) -> int:
    sessions = store.list()
    if as_json:
        print(json.dumps({"directory": str(store.directory), "sessions": [s.to_json() for s in sessions]}, indent=2))
        return EXIT_OK
    if not sessions:
        print(f"No recorded sessions in {store.directory}")
        return EXIT_OK
    print(f"{'ID':<20} {'start':<19}  {'duration':>9}  {'samples':>7}  GPUs")
    for s in sessions:
        if s.problem:
            print(f"{s.id:<20} unreadable: {s.problem}")
            continue
        print(f"{s.id:<20} {_when(s.start):<19}  {_duration(s.duration_s):>9}  {s.samples:>7}  {', '.join(s.gpus) or '-'}")
    return EXIT_OK


def _export(store: SessionStore, session: str, target: Path) -> int:
    if target.exists() and target.is_dir():
        raise UsageError(f"{target}: is a folder")
    if not target.parent.exists():
        raise UsageError(f"{target.parent}: no such folder")
    try:
        rows = store.export_csv(session, target)
    except RecordingError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        print(f"error: cannot write {target}: {exc.strerror}", file=sys.stderr)
        return EXIT_FAILED
    print(f"{rows} rows written to {target}")
    return EXIT_OK


def _compare(store: SessionStore, a: str, b: str, as_json: bool) -> int:
    try:
        first, second = store.compare(a, b)
    except RecordingError as exc:
        raise UsageError(str(exc)) from None
    if as_json:
        print(json.dumps({"sessions": [first.to_json(), second.to_json()]}, indent=2))
        return EXIT_OK
    for summary in (first, second):
        _print_summary(summary)
    return EXIT_OK


def _fmt(value: float | None, digits: int = 0, unit: str = "") -> str:
    if value is None:
        return "-"
    return f"{value:.{digits}f}{unit}"


def _print_summary(summary: SessionSummary) -> None:
    s: SessionInfo = summary.session
    print(f"Session {s.id}: {_when(s.start)}, {_duration(s.duration_s)}")
    for g in summary.gpus:
        throttled = ", ".join(f"{BY_CODE[c].label} {_duration(v)}" for c, v in g.throttle_seconds.items()
                              if v >= 1 and c in BY_CODE) or "none"
        print(f"  GPU {g.index} {g.name}: temperature mean {_fmt(g.mean_temperature_c, 1, ' C')} "
              f"peak {_fmt(g.peak_temperature_c, 0, ' C')}, utilisation mean {_fmt(g.mean_utilization_pct, 1, '%')}, "
              f"power mean {_fmt(g.mean_power_w, 0, ' W')}, energy {_fmt(g.energy_wh, 1, ' Wh')}")
        print(f"    throttled: {throttled}")
