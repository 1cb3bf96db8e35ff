"""``python main.py monitor``: GPU readings in the terminal, as JSON or as a CSV log.

    monitor --once --json                  one snapshot of every GPU, as JSON
    monitor                                a table, refreshed every --interval
    monitor --interval 1 --csv run.csv     log until Ctrl-C (or --duration S)

Exit codes: 0 ok, 2 bad usage, 3 no NVIDIA driver / NVML unavailable / no GPU.
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO
from collections.abc import Callable

from cli import (
    ALREADY_EXISTS, CANNOT_READ, CANNOT_WRITE, EXIT_FAILED, EXIT_NO_GPU, EXIT_OK, UsageError, check_output_file, fail,
    cli_catalog, info, note,
)
from services.i18n import translate
from services.telemetry.model import DeviceState, Snapshot, Tier
from services.telemetry.report import csv_header, csv_rows, render_table, snapshot_to_dict
from services.telemetry.states import NO_GPU_FOUND, state_label

HELP = "GPU readings: one snapshot (--once, --json), a live table, or a CSV log (nvidia-smi columns)"

# How long one snapshot may wait for a slow driver before the readings not taken yet are left out.
ONCE_BUDGET_S = 5.0
MIN_INTERVAL_S = 0.1
MAX_INTERVAL_S = 3600.0
SLOW_TIER_S = 5.0  # fan, PCIe, processes: as often as the app's dashboard reads them
ALL_TIERS = Tier.FAST | Tier.SLOW | Tier.STATIC


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--once", action="store_true", help="take one snapshot and exit")
    parser.add_argument("--json", action="store_true",
                        help="print JSON (with --once one object, otherwise one object per line)")
    parser.add_argument("--interval", type=float, default=1.0, metavar="S",
                        help=f"seconds between readings ({MIN_INTERVAL_S:g} to {MAX_INTERVAL_S:g}, default 1)")
    parser.add_argument("--csv", metavar="FILE",
                        help="append readings to FILE as CSV with nvidia-smi column names")
    parser.add_argument("--duration", type=float, metavar="S", help="stop after S seconds (default: until Ctrl-C)")
    parser.add_argument("--source", choices=("nvml", "demo"), default=None,
                        help="nvml: this machine's GPUs (default); demo: the simulated training run "
                             "(also: main.py --demo monitor ...)")


def use_demo_source(args: argparse.Namespace) -> None:
    """The app's ``--demo`` given before ``monitor`` (see cli.front.apply_app_demo)."""
    if args.source == "nvml":
        raise UsageError(translate("Cli", "--demo and --source nvml contradict each other; give one of them"))
    args.source = "demo"


def run(args: argparse.Namespace, *, source: Any = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        out: TextIO | None = None, err: TextIO | None = None,
        process_sources: dict[str, Any] | None = None) -> int:
    """Run the command; ``source``, clocks, streams and the Windows GPU counters
    (``process_sources``: ``counters`` and ``adapters``, as for ``ProcessService``) are injectable for tests."""
    out = out or sys.stdout
    err = err or sys.stderr
    if args.source is None:
        args.source = "nvml"
    _validate(args)
    if process_sources is None and sys.platform == "win32" and args.source == "nvml" and source is None:
        # Windows WDDM: NVML lists the processes without their memory; the GPU counters have it.
        from services.hybrid.gpu_counters import windows_process_sources

        process_sources = windows_process_sources()
    counters = _Counters(process_sources) if process_sources else None
    csv_path = _check_csv_path(Path(args.csv).expanduser()) if args.csv else None
    if source is None:
        source = _make_source(args.source, once=args.once)
        if source is None:
            return fail(translate("Cli", "the demo source is not in this build yet "
                                         "(services.telemetry.simulated is missing)"), EXIT_FAILED, err=err)
    if not args.once and args.interval < 0.5:
        note(translate("Cli", "polling every {interval} s costs GPU and CPU time; 1 s is usually enough").format(
            interval=f"{args.interval:g}"), err=err)
    status = source.open()
    try:
        if status.state is not DeviceState.OK or not source.devices():
            if args.json:  # stable: the state code and the English line
                print(json.dumps({"status": {"state": status.state.value, "message": status.message},
                                  "gpus": []}), file=out)
            # The line for the person reading the terminal, in their language.
            reader = cli_catalog()
            if status.state is not DeviceState.OK:
                reason = status.describe() or reader.render(state_label(status.state))
                return fail(f"{reader.render(reason)} [{status.state.value}]", EXIT_NO_GPU, err=err, catalog=reader)
            return fail(status.describe() or NO_GPU_FOUND, EXIT_NO_GPU, err=err, catalog=reader)
        catalog = None if args.json else cli_catalog()
        try:
            writer = _CsvLog(csv_path) if csv_path else None
        except CsvLogError as exc:
            return fail(exc.message, EXIT_FAILED, err=err)
        try:
            if args.once:
                nvml = getattr(source, "nvml", None)
                if nvml is not None:  # a driver answering slowly gives what it read in time, and says so
                    nvml.deadline = time.monotonic() + ONCE_BUDGET_S
                snapshot = source.read(ALL_TIERS, wall_clock())
                _emit(snapshot, args, catalog, writer, out, source_name=args.source, clear=False, counters=counters)
                if nvml is not None and nvml.skipped_late:
                    note(translate("Cli", "the NVIDIA driver answered slowly: {count} reading(s) were left out after {seconds} s "
                                          "(shown as not reported)").format(count=nvml.skipped_late, seconds=f"{ONCE_BUDGET_S:g}"),
                         err=err, catalog=catalog or cli_catalog())
                return EXIT_OK
            if writer is not None and not args.json:
                info(translate("Cli", "logging {count} GPU(s) to {path} every {interval} s; Ctrl-C stops").format(
                    count=len(source.devices()), path=str(csv_path), interval=f"{args.interval:g}"),
                    err=err, catalog=catalog)
            code = _loop(source, args, catalog, writer, out, sleep=sleep, clock=clock, wall_clock=wall_clock,
                         counters=counters)
        except CsvLogError as exc:
            return fail(exc.message, EXIT_FAILED, err=err, catalog=catalog)
        else:
            if writer is not None and not args.json:
                info(translate("Cli", "wrote {rows} rows to {path}").format(rows=writer.rows, path=str(csv_path)),
                     err=err, catalog=catalog)
            return code
        finally:
            if writer is not None:
                writer.close()
    finally:
        if counters is not None:
            counters.close()
        source.close()


def _loop(source: Any, args: argparse.Namespace, catalog: Any, writer: "_CsvLog | None", out: TextIO, *,
          sleep: Callable[[float], None], clock: Callable[[], float], wall_clock: Callable[[], float],
          counters: "_Counters | None" = None) -> int:
    interval = args.interval
    slow_every = max(1, round(SLOW_TIER_S / interval))
    clear = not args.json and writer is None and hasattr(out, "isatty") and out.isatty()
    start = clock()
    end = start + args.duration if args.duration else math.inf
    next_tick = start
    tick = 0
    # Rows between two slow readings repeat the last fan, PCIe, encoder/decoder, ECC and processes;
    # left empty they would read as "not supported" (null / [N/A]).
    from services.program import start_up_done
    from services.telemetry.carry import SlowFieldCarry  # only a log carries slow fields over
    from services.telemetry.schedule import next_slot  # the hub's schedule too

    start_up_done()  # a table or a log keeps running: the garbage collector's normal pace from here on
    carry = SlowFieldCarry()
    with _sigterm_as_interrupt():
        try:
            while True:
                tiers = Tier.FAST
                if tick % slow_every == 0:
                    tiers |= Tier.SLOW
                if tick == 0:
                    tiers |= Tier.STATIC
                snapshot = carry.apply(source.read(tiers, wall_clock()), tiers)
                _emit(snapshot, args, catalog, writer, out, source_name=args.source, clear=clear, counters=counters)
                tick += 1
                # Paced by the schedule, not by "now + interval"; missed ticks are skipped, not burst.
                next_tick = next_slot(next_tick, interval, clock())
                if next_tick >= end - 1e-9:
                    break
                sleep(max(0.0, next_tick - clock()))
        except KeyboardInterrupt:
            pass  # Ctrl-C is how a log ends; every row written so far is already on disk
    return EXIT_OK


class _Counters:
    """The Windows GPU counters for ``monitor``: their figures go into the snapshot's NVML processes."""

    def __init__(self, sources: dict[str, Any]) -> None:
        self._reader = sources.get("counters")
        self._adapters = sources.get("adapters", ())
        self._for: tuple[str, ...] | None = None
        self._matched: list[Any] = []

    def apply(self, snapshot: Snapshot) -> Snapshot:
        from services.telemetry.processes import with_counters

        if self._reader is None or not any(s.processes for s in snapshot.samples):
            return snapshot
        try:
            found = self._reader.collect()
        except OSError:
            return snapshot  # no counters here: the processes keep "not reported"
        gpus = tuple(g.uuid for g in snapshot.gpus)
        if gpus != self._for:
            self._for = gpus
            try:
                self._matched = list(self._adapters(snapshot.gpus) if callable(self._adapters) else self._adapters)
            except OSError:
                self._matched = []
        return with_counters(snapshot, found, self._matched)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()


def _emit(snapshot: Snapshot, args: argparse.Namespace, catalog: Any, writer: "_CsvLog | None",
          out: TextIO, *, source_name: str, clear: bool, counters: _Counters | None = None) -> None:
    if counters is not None:
        snapshot = counters.apply(snapshot)
    if writer is not None:
        writer.write(snapshot)
    if args.json:
        doc = snapshot_to_dict(snapshot, source_name)
        print(json.dumps(doc, indent=2 if args.once else None, ensure_ascii=False), file=out, flush=True)
    elif writer is None or args.once:
        text = render_table(snapshot, catalog)
        print(("\x1b[H\x1b[2J" if clear else "") + text + ("" if clear else "\n"), file=out, flush=True)


class CsvLogError(Exception):
    """The log could not be written further (disk full, file-size limit); one line, exit 1."""

    @property
    def message(self):  # a Msg
        return self.args[0]


class _CsvLog:
    """Appends rows, one ``os.write`` per tick, so a kill leaves whole rows.

    Written unbuffered and byte-counted: when the disk fills up or a file-size limit is reached
    in the middle of a tick, the half-written rows are cut off again and the rows before them
    stay intact. Appending to a log whose last line was cut (a kill mid-write on another
    system, a full disk) starts on a new line instead of gluing onto the broken one.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows = 0
        try:
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
            self._size = os.fstat(self._fd).st_size
        except OSError as exc:
            raise UsageError(CANNOT_WRITE.format(path=str(path), reason=exc.strerror or str(exc))) from exc
        if self._size == 0:
            self._append((csv_header() + "\n").encode("utf-8"), rows=0)
        elif not self._ends_with_newline():
            self._append(b"\n", rows=0)

    def _ends_with_newline(self) -> bool:
        try:
            with open(self.path, "rb") as fh:
                fh.seek(-1, os.SEEK_END)
                return fh.read(1) == b"\n"
        except OSError:
            return True

    def _append(self, data: bytes, rows: int) -> None:
        before = self._size
        view = memoryview(data)
        try:
            while view:
                n = os.write(self._fd, view)
                if n <= 0:
                    raise OSError(28, os.strerror(28))  # ENOSPC: nothing more goes in
                self._size += n
                view = view[n:]
        except OSError as exc:
            try:  # take the half-written rows back off: the rows before them stay whole
                os.ftruncate(self._fd, before)
                self._size = before
            except OSError:
                pass
            raise CsvLogError(translate("Cli", "cannot write {path} ({reason}); stopped after {rows} rows, "
                                               "which are intact").format(
                path=str(self.path), reason=exc.strerror or str(exc), rows=self.rows)) from None
        self.rows += rows

    def write(self, snapshot: Snapshot) -> None:
        rows = csv_rows(snapshot)
        if rows:
            self._append("".join(row + "\n" for row in rows).encode("utf-8"), rows=len(rows))

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _validate(args: argparse.Namespace) -> None:
    if not math.isfinite(args.interval) or not MIN_INTERVAL_S <= args.interval <= MAX_INTERVAL_S:
        raise UsageError(translate("Cli", "--interval must be between {low} and {high} seconds").format(
            low=f"{MIN_INTERVAL_S:g}", high=f"{MAX_INTERVAL_S:g}"))
    if args.duration is not None:
        if args.once:
            raise UsageError(translate("Cli", "--duration is for logging; --once takes a single reading"))
        if not math.isfinite(args.duration) or args.duration <= 0:
            raise UsageError(translate("Cli", "--duration must be a positive number of seconds"))


def _check_csv_path(path: Path) -> Path:
    check_output_file(path)
    if path.exists() and path.stat().st_size > 0:
        # Append only to one of our own logs; never mix columns into someone else's file.
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                first = fh.readline().rstrip("\r\n")
        except OSError as exc:
            raise UsageError(CANNOT_READ.format(path=str(path), reason=exc.strerror or str(exc))) from exc
        if first != csv_header():
            raise UsageError(ALREADY_EXISTS.format(path=str(path)))
    return path


def _make_source(name: str, *, once: bool = False) -> Any:
    if name == "nvml":
        from services.telemetry.nvml_source import NvmlSource
        from services.telemetry.system import SystemProbe

        # One reading has no rates (CPU %, disk, a process's CPU need two), so it reads no rate
        # counters: on Linux it then never loads psutil.
        return NvmlSource(system_probe=SystemProbe(rates=not once))
    try:
        module = importlib.import_module("services.telemetry.simulated")
    except ModuleNotFoundError:
        return None
    cls = getattr(module, "SimulatedSource", None)
    return cls() if cls is not None else None



class _sigterm_as_interrupt:
    """While logging, SIGTERM (kill, systemd stop) ends the log like Ctrl-C."""

    def __enter__(self) -> None:
        self._previous = None
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGTERM, self._handler)

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)

    @staticmethod
    def _handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt
