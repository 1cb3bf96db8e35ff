"""``python main.py sessions``: list, compare and export recorded monitoring sessions."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from services.cli import EXIT_FAILED, EXIT_OK, UsageError
from services.i18n import Catalog, resolve_language
from services.paths import AppPaths
from services.settings import SettingsStore
from services.telemetry.recorder import RecordingError, SessionStore
from services.telemetry.session_report import render_exported, render_list, render_summary

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


def _catalog() -> Catalog:
    try:
        language = SettingsStore(AppPaths.default().settings_file).load().general.language
    except Exception:  # noqa: BLE001 - a settings problem must not stop the command
        language = "auto"
    return Catalog.load(resolve_language(language))


def _list(store: SessionStore, as_json: bool) -> int:
    sessions = store.list()
    if as_json:
        print(json.dumps({"directory": str(store.directory), "sessions": [s.to_json() for s in sessions]}, indent=2))
        return EXIT_OK
    print(render_list(sessions, str(store.directory), _catalog()))
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
    print(render_exported(rows, str(target), _catalog()))
    return EXIT_OK


def _compare(store: SessionStore, a: str, b: str, as_json: bool) -> int:
    try:
        first, second = store.compare(a, b)
    except RecordingError as exc:
        raise UsageError(str(exc)) from None
    if as_json:
        print(json.dumps({"sessions": [first.to_json(), second.to_json()]}, indent=2))
        return EXIT_OK
    catalog = _catalog()
    print(render_summary(first, catalog))
    print(render_summary(second, catalog))
    return EXIT_OK
