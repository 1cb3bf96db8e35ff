"""``python main.py sessions``: list, compare and export recorded monitoring sessions."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from cli import ALREADY_EXISTS, CANNOT_WRITE, EXIT_FAILED, EXIT_OK, UsageError, check_output_file, cli_catalog, fail, note, refuse_empty
from services.i18n import translate
from services.paths import AppPaths
from services.telemetry.recording import RecordingError
from services.telemetry.session_store import SessionStore
from services.telemetry.smi_csv import EXPORT_COLUMNS
from services.telemetry.session_report import render_exported, render_list, render_summary

HELP = "list, compare and export recorded monitoring sessions"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--list", action="store_true", help="list the recorded sessions")
    action.add_argument("--export", metavar="ID", help="export one session (ID or recording file) to CSV")
    action.add_argument("--compare", nargs=2, metavar=("ID", "ID"), help="compare two sessions per GPU")
    action.add_argument("--delete", nargs="+", metavar="ID", help="delete recorded sessions (ids as --list shows them)")
    parser.add_argument("--csv", metavar="FILE", help="target file for --export (nvidia-smi CSV columns)")
    parser.add_argument("--json", action="store_true", help="machine-readable output for --list and --compare")
    parser.add_argument("--dir", metavar="DIR", help="recordings folder (default: the app's data folder)")


def run(args: argparse.Namespace) -> int:
    refuse_empty(args.dir, "--dir")
    directory = Path(args.dir) if args.dir else AppPaths.default().recordings_dir
    if args.dir and not _is_dir(directory):
        raise UsageError(translate("Cli", "{path}: no such folder").format(path=str(directory)))
    store = SessionStore(directory)
    if args.list:
        return _list(store, args.json)
    if args.delete:
        return _delete(store, args.delete, args.json)
    if args.export:
        if not args.csv:
            raise UsageError(translate("Cli", "--export needs --csv FILE"))
        return _export(store, args.export, Path(args.csv))
    return _compare(store, args.compare[0], args.compare[1], args.json)


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name longer than the OS allows, and the like
        return False


def _resolve(store: SessionStore, session: str) -> str:
    """The recording file for a session id or path; one-line error when there is none."""
    if not session.strip():
        raise UsageError(translate("Cli", "a session id is needed (see: sessions --list)"))
    try:
        return str(store.path_of(session))
    except RecordingError as exc:
        raise UsageError(exc.message) from None


def _exists(store: SessionStore, session: str) -> bool:
    try:
        store.path_of(session)
    except RecordingError:
        return False
    return True


def _is_earlier_export(path: Path) -> bool:
    header = ",".join(name for name, _ in EXPORT_COLUMNS)
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.readline().rstrip("\r\n") == header
    except OSError:
        return False



def _list(store: SessionStore, as_json: bool) -> int:
    sessions = store.list()
    if as_json:
        print(json.dumps({"directory": str(store.directory), "sessions": [s.to_json() for s in sessions]}, indent=2))
        return EXIT_OK
    print(render_list(sessions, str(store.directory), cli_catalog()))
    return EXIT_OK


def _export(store: SessionStore, session: str, target: Path) -> int:
    session = _resolve(store, session)
    check_output_file(target)
    if target.is_file() and target.stat().st_size > 0 and not _is_earlier_export(target):
        # Export replaces the file whole: only ever replace one of our own exports.
        raise UsageError(ALREADY_EXISTS.format(path=str(target)))
    try:
        rows, skipped = store.export_csv_checked(session, target)
    except RecordingError as exc:
        raise UsageError(exc.message) from None
    except OSError as exc:
        return fail(CANNOT_WRITE.format(path=str(target), reason=exc.strerror), EXIT_FAILED)
    catalog = cli_catalog()
    print(render_exported(rows, str(target), catalog))
    if skipped:  # a damaged recording exports what can be read and says what was left out
        note(skipped, catalog=catalog)
    return EXIT_OK


def _delete(store: SessionStore, sessions: list[str], as_json: bool) -> int:
    unknown = [s for s in sessions if not _exists(store, s)]
    if unknown:  # bad input: nothing is deleted until every id names a session
        _resolve(store, unknown[0])
    deleted, refused = store.delete(sessions)
    if as_json:
        print(json.dumps({"deleted": deleted, "refused": [{"id": sid, "reason": str(why)} for sid, why in refused]}, indent=2))
    else:
        catalog = cli_catalog()
        for sid in deleted:
            print(catalog.render(translate("Cli", "deleted {session}").format(session=sid)))
        for sid, why in refused:
            fail(translate("Cli", "{session}: {reason}").format(session=sid, reason=why), EXIT_FAILED, catalog=catalog)
    return EXIT_FAILED if refused else EXIT_OK


def _compare(store: SessionStore, a: str, b: str, as_json: bool) -> int:
    a, b = _resolve(store, a), _resolve(store, b)
    try:
        first, second = store.compare(a, b)
    except RecordingError as exc:
        raise UsageError(exc.message) from None
    if as_json:
        print(json.dumps({"sessions": [first.to_json(), second.to_json()]}, indent=2))
        return EXIT_OK
    catalog = cli_catalog()
    print(render_summary(first, catalog))
    print(render_summary(second, catalog))
    return EXIT_OK
