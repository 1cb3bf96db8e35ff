"""``fit --measure -- CMD ...`` and ``fit --measurements``: run (or attach to) a process, measure its
GPU memory against the estimate, keep the result and learn from it."""
from __future__ import annotations

import argparse
import json
import os
import sys

from cli import EXIT_FAILED, EXIT_NO_GPU, EXIT_OK, EXIT_USAGE, UsageError, cli_catalog, fail, info, note
from services.i18n import translate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("measure a run")
    group.add_argument("--measure", action="store_true", help="run the command given after -- (or --pid) and measure its GPU memory peak against the estimate; returns the command's exit code")
    group.add_argument("--pid", default=None, metavar="PID", help="with --measure: attach to this running process instead of starting one")
    group.add_argument("--cwd", default=None, metavar="DIR", help="with --measure: working folder of the command")
    group.add_argument("--env", action="append", default=[], metavar="NAME=VALUE", help="with --measure: environment variable for the command (repeatable)")
    group.add_argument("--versions", default=None, metavar="TEXT", help="with --measure: versions to store with the result, e.g. 'torch=2.5.1 transformers=4.46'")
    group.add_argument("--measurements", action="store_true", help="list the stored measurements (with --csv FILE: export them)")
    group.add_argument("--csv", default=None, metavar="FILE", help="with --measurements: write them as CSV")
    group.add_argument("--delete-measurement", default=None, metavar="ID", help="delete one stored measurement")
    parser.add_argument("run_command", nargs="*", metavar="-- COMMAND", help="with --measure: the command to run and its arguments")


def wanted(args: argparse.Namespace) -> bool:
    return bool(args.measure or args.measurements or args.delete_measurement or args.run_command
                or args.pid or args.csv)


def _store():
    from services.modelfit.measurements import MeasurementStore
    from services.paths import AppPaths

    return MeasurementStore(AppPaths.default().recordings_dir)


# ---------------------------------------------------------------- stored measurements
def run_list(args: argparse.Namespace) -> int:
    from services.modelfit.measure import STATUS_TEXT
    from services.modelfit.measurements import StoreError, export_csv

    render = cli_catalog().render
    try:
        if args.delete_measurement:
            try:
                ident = int(args.delete_measurement)
            except ValueError:
                raise UsageError(translate("Cli", "{option} must be a whole number, got '{value}'").format(
                    option="--delete-measurement", value=args.delete_measurement)) from None
            if not _store().delete([ident]):
                return fail(translate("Measure", "no measurement {id}").format(id=ident), EXIT_USAGE)
            print(render(translate("Measure", "deleted measurement {id}").format(id=ident)))
            return EXIT_OK
        rows = _store().list()
        if args.csv:
            count = export_csv(rows, args.csv)
            print(render(translate("Measure", "wrote {count} measurements to {path}").format(count=count, path=args.csv)))
            return EXIT_OK
    except StoreError as exc:
        return fail(exc.message, EXIT_FAILED)
    if args.json:
        json.dump([_row_json(m) for m in rows], sys.stdout, indent=2, ensure_ascii=False)
        print()
        return EXIT_OK
    if not rows:
        print(render(translate("Measure", "no measurements yet: run fit ... --measure -- COMMAND")))
        return EXIT_OK
    heads = [(translate("Measure", "id"), ">"), (translate("Measure", "date"), "<"), (translate("Measure", "model"), "<"),
             (translate("Measure", "engine"), "<"), (translate("Measure", "context"), ">"),
             (translate("Measure", "batch"), ">"), (translate("Measure", "estimate GiB"), ">"),
             (translate("Measure", "peak GiB"), ">"), (translate("Measure", "error"), ">"),
             (translate("Measure", "exit"), ">"), (translate("Measure", "status"), "<")]
    table = [[render(text) for text, _ in heads]]
    for m in rows:
        table.append([str(m.id), m.date, m.model[:40], m.engine, str(m.settings.get("seq", "")),
                      str(m.settings.get("batch", "")), f"{m.estimate_gib:.2f}",
                      "-" if m.peak_gib is None else f"{m.peak_gib:.2f}",
                      "-" if m.error_pct is None else f"{m.error_pct:+.1f}%",
                      "-" if m.exit_code is None else str(m.exit_code), render(STATUS_TEXT.get(m.status, m.status))])
    from services.modelfit.report import _cells

    widths = [max(_cells(row[i]) for row in table) for i in range(len(heads))]
    for row in table:
        print("  ".join(_pad(cell, widths[i], heads[i][1]) for i, cell in enumerate(row)).rstrip())
    return EXIT_OK


def _pad(text: str, width: int, side: str) -> str:
    """Pad to ``width`` terminal columns (a Chinese character takes two)."""
    from services.modelfit.report import _cells

    gap = " " * max(0, width - _cells(text))
    return gap + text if side == ">" else text + gap


def _row_json(m) -> dict:
    return {"id": m.id, "date": m.date, "created": m.created, "model": m.model, "model_key": m.model_key,
            "engine": m.engine, "task": m.task, "settings": m.settings, "command": m.command, "cwd": m.cwd,
            "gpu": m.gpu_name, "driver": m.driver, "versions": m.versions, "estimate_gib": round(m.estimate_gib, 3),
            "parts": m.parts, "peak_gib": None if m.peak_gib is None else round(m.peak_gib, 3),
            "per_gpu": m.per_gpu, "error_gib": None if m.error_gib is None else round(m.error_gib, 3),
            "exit_code": m.exit_code, "status": m.status, "duration_s": round(m.duration_s, 2), "notes": m.notes}


# ---------------------------------------------------------------- what is known for this estimate
def known_lines(ans, gpu, render) -> tuple[list[str], dict | None]:
    """'measured on this machine' and the calibrated figure for this estimate, from the store."""
    from services.modelfit.calibration import known_for
    from services.modelfit.measurements import StoreError

    try:
        rows = _store().list()
    except StoreError as exc:
        return [render(translate("Measure", "stored measurements not read: {reason}").format(reason=exc.message))], None
    known = known_for(rows, ans.estimate, gpu.memory_gib if gpu is not None else None)
    if known is None:
        return [], None
    return [render(line) for line in known.lines()], known.to_json()


# ---------------------------------------------------------------- measure a run
def _env(pairs: list[str]) -> dict[str, str]:
    env = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UsageError(translate("Measure", "--env takes NAME=VALUE, got '{value}'").format(value=pair))
        env[name] = value
    return env


def run_measure(args: argparse.Namespace, answer_fn) -> int:
    from services.modelfit.calibration import compare
    from services.modelfit.errors import MeasureError
    from services.modelfit.measure import STATUS_TEXT, Measurement, default_probe, revealed_versions, run_to_end
    from services.modelfit.measurements import StoreError, record

    render = cli_catalog().render
    if args.run_command and args.pid:
        raise UsageError(translate("Measure", "give a command after -- or --pid, not both"))
    if not args.measure:
        raise UsageError(translate("Measure", "a command after -- is run only with --measure"))
    if not args.run_command and not args.pid:
        raise UsageError(translate("Measure", "--measure needs a command after -- (e.g. -- python train.py) or --pid PID"))
    pid = None
    if args.pid:
        try:
            pid = int(args.pid)
        except ValueError:
            raise UsageError(translate("Cli", "{option} must be a whole number, got '{value}'").format(
                option="--pid", value=args.pid)) from None
    env = _env(args.env)
    keep: dict = {}
    data, lines = answer_fn(args, render, keep)
    ans, gpu = keep["answer"], keep["gpu"]
    extra, known = known_lines(ans, gpu, render)
    # --json: stdout carries the JSON alone; the command's own output goes to stderr.
    say = (lambda *a: None) if args.json else print
    for line in lines + extra:
        say(line)
    sys.stdout.flush()
    try:
        probe = default_probe()
    except MeasureError as exc:
        return fail(exc.message, EXIT_NO_GPU)
    try:
        if pid is not None:
            run = Measurement.attach(probe, pid)
        else:
            run = Measurement.launch(probe, args.run_command, cwd=args.cwd, env=env or None,
                                     stdout=sys.stderr if args.json else None)
    except MeasureError as exc:
        return fail(exc.message, EXIT_USAGE)
    info(translate("Measure", "measuring process {pid} and its children, 10 times a second").format(pid=run.pid))
    versions = {}
    seen_gpu = [False]

    def on_sample(point) -> None:
        if point.used_gib and not seen_gpu[0]:
            seen_gpu[0] = True
            versions.update(revealed_versions(run.result.pids_seen))

    result = run_to_end(run, on_sample=on_sample)
    versions.update(probe.versions())
    if args.versions:
        versions["given"] = args.versions
    sys.stdout.flush()
    say()
    say(render(translate("Measure", "Measured: {status}").format(status=render(STATUS_TEXT[result.status]))))
    for key, peak in result.peak_gib.items():
        ref = result.gpu(key)
        say(render(translate("Measure", "  GPU {index} {name}: peak {gib:.2f} GiB at {at:.1f} s").format(
            index=ref.index if ref else "?", name=ref.name if ref else key, gib=peak, at=result.peak_at_s.get(key, 0.0))))
    cmp = None
    if result.peak_busiest_gib is not None:
        cmp = compare(ans.estimate, result.peak_busiest_gib)
        share = cmp.error_share
        say(render(translate("Measure", "Estimate {est:.2f} GiB, measured peak {peak:.2f} GiB: the estimate is {diff:+.2f} GiB ({pct:+.1f}%) off").format(
            est=cmp.estimate_gib, peak=cmp.measured_gib, diff=cmp.error_gib, pct=100 * share if share is not None else 0.0)))
        say(render(translate("Measure", "Where the difference sits: {where}").format(where=render(cmp.where_text()))))
    for line in result.notes:
        note(line)
    command = list(args.run_command) if args.run_command else []
    row = record(ans.estimate, result, command=command, cwd=args.cwd or (os.getcwd() if command else None),
                 pid=run.pid, versions=versions)
    try:
        ident = _store().add(row)
        info(translate("Measure", "saved as measurement {id} (list them: fit --measurements)").format(id=ident))
    except StoreError as exc:
        note(exc.message)
    if result.exit_code is not None:
        say(render(translate("Measure", "Command exit code: {code}").format(code=result.exit_code)))
    if args.json:
        data["measured_here"] = known
        data["measurement"] = _row_json(row) | {
            "where": None if cmp is None else cmp.where, "device_wide": result.device_wide,
            "samples": len(result.samples), "pids_seen": sorted(result.pids_seen)}
        json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
        print()
    if result.exit_code is not None:
        # A child killed by a signal (-9) returns 128 + 9, as a shell does.
        return result.exit_code if result.exit_code >= 0 else 128 - result.exit_code
    return EXIT_OK
