"""``python main.py exporter``: serve dcgm-exporter-compatible Prometheus metrics."""
from __future__ import annotations

import argparse
import math
import signal
import socket
import threading
import time

from cli import EXIT_FAILED, EXIT_NO_GPU, EXIT_OK, EXIT_USAGE, UsageError, cli_catalog, fail, note, warn
from services.exporter.server import DEFAULT_HOST, DEFAULT_PORT, ExporterError, ExporterServer
from services.exporter.service import hub_collector
from services.i18n import translate
from services.paths import AppPaths
from services.program import start_up_done
from services.settings import Settings, SettingsStore
from services.telemetry.model import DeviceState
from services.telemetry.states import state_explanation

HELP = "serve GPU metrics for Prometheus, named as dcgm-exporter names them"

_NO_GPU_STATES = {DeviceState.NO_DRIVER, DeviceState.DRIVER_NOT_LOADED, DeviceState.VERSION_MISMATCH,
                  DeviceState.NO_PERMISSION}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}: this machine only)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--demo", action="store_true", help="serve the simulated GPUs instead of the real ones")
    parser.add_argument("--gpus", type=int, default=2, help="number of simulated GPUs with --demo (1-8)")
    parser.add_argument("--interval", type=float, default=1.0, help="sampling interval in seconds")
    parser.add_argument("--duration", type=float, default=None, help="stop after this many seconds")
    parser.add_argument("--no-record", action="store_true", help="do not record the session")


def use_demo_source(args: argparse.Namespace) -> None:
    """The app's ``--demo`` given before ``exporter``: the same as ``exporter --demo``."""
    args.demo = True


def build_hub(args: argparse.Namespace, settings: Settings):
    from services.telemetry import factory

    settings.monitor.fast_interval_s = args.interval
    if args.no_record:
        settings.monitor.record_sessions = False
    return factory.build_hub(demo=args.demo, replay=None, settings=settings, paths=AppPaths.default(),
                             demo_gpus=args.gpus)


def run(args: argparse.Namespace) -> int:
    if not args.host.strip():
        # An empty host makes the socket listen on every interface: refuse it rather than guess.
        raise UsageError(translate("Cli", "--host must not be empty (use 127.0.0.1 for this machine only, or 0.0.0.0 for every interface)"))
    if not 0 <= args.port <= 65535:
        raise UsageError(translate("Cli", "--port must be 0-65535, not {value}").format(value=args.port))
    if not 1 <= args.gpus <= 8:
        raise UsageError(translate("Cli", "--gpus must be 1-8, not {value}").format(value=args.gpus))
    # "not inside" refuses NaN too (every comparison with NaN is false).
    if not 0 < args.interval <= 3600:
        raise UsageError(translate("Cli", "--interval must be between 0 and 3600 seconds"))
    if args.duration is not None and not (math.isfinite(args.duration) and args.duration > 0):
        raise UsageError(translate("Cli", "--duration must be a positive number of seconds, not {value}").format(
            value=args.duration))
    store = SettingsStore(AppPaths.default().settings_file)
    settings = store.load()
    catalog = cli_catalog()
    problem = store.load_problem_text or store.load_problem
    if store.moved_aside is not None and problem is not None:  # an unreadable file was kept aside: say so
        note(problem, catalog=catalog)
    hub = build_hub(args, settings)
    server = ExporterServer(hub_collector(hub), args.host, args.port)
    try:
        # Listening before the first reading: with a slow driver that reading can take many
        # seconds, and a scrape meanwhile gets an (empty) answer at once instead of waiting.
        server.start()
    except ExporterError as exc:
        fail(exc.message, catalog=catalog)
        _discard(hub)
        # A host name that does not resolve is bad input; a busy port is a failure of the run.
        return EXIT_USAGE if isinstance(exc.__cause__, socket.gaierror) else EXIT_FAILED
    hub.tick()
    status = hub.status
    if status.state in _NO_GPU_STATES or (not args.demo and not hub.devices):
        server.stop()
        reason = catalog.render(state_explanation(status.state)) if status.state in _NO_GPU_STATES \
            else catalog.render(translate("Exporter", "no NVIDIA GPU was found"))
        fail(translate("Exporter", "nothing to export: {reason} (use --demo to serve simulated GPUs)").format(
            reason=reason), catalog=catalog)
        _discard(hub)
        return EXIT_NO_GPU
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    start_up_done()  # serving until stopped: the garbage collector's normal pace from here on
    hub.start()
    print(catalog.render(translate("Exporter", "Serving {url} (Ctrl-C to stop)").format(url=server.url)), flush=True)
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        warn(translate("Exporter", "listening beyond this machine without authentication; see the README "
                                   "section on the exporter for putting TLS and a password in front of it"),
             catalog=catalog)
    try:
        _wait(stop, args.duration)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()
        hub.stop()
    return EXIT_OK


def _wait(stop: threading.Event, duration: float | None) -> None:
    """Wait until stopped or ``duration`` seconds passed. Waits a day at a time: Event.wait with
    1e10 seconds raises OverflowError (the C timeout overflows)."""
    if duration is None:
        while not stop.wait(86400.0):
            pass
        return
    end = time.monotonic() + duration
    while not stop.is_set():
        left = end - time.monotonic()
        if left <= 0:
            return
        stop.wait(min(left, 86400.0))


def _discard(hub) -> None:
    """Stop a hub whose run never started serving, and remove the recording its first probe
    opened: otherwise every failed start adds an empty session to ``sessions --list``."""
    hub.stop()
    recorder = getattr(hub, "recorder", None)
    path = getattr(recorder, "path", None)
    if path is None or getattr(recorder, "snapshots_written", 0) > 1:
        return  # more than the one probe reading: that is data, keep it
    for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            leftover.unlink(missing_ok=True)
        except OSError:
            pass
