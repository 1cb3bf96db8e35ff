"""The metrics endpoint under load: many concurrent scrapers, and idle connections.

    python tests/bench/bench_exporter_load.py [--scrapers 50] [--rounds 10] [--idle 1000]

Baseline in the same run: the server this app used before (prometheus_client's
ThreadingWSGIServer: a thread per connection, listen backlog 5, no read timeout), serving
the same collector. Figures:
- 50 scrapers at once, each scraping ``--rounds`` times: p50/p95 latency and failures;
- ``--idle`` connections opened and left silent: the server's threads, and a scrape's
  latency while they are open; then whether they are closed after the idle timeout;
- hostile mix (issue 23): the same scrapers while ``--drip`` connections send a request one
  byte every 5 s and ``--unfinished`` connections sent half a request line and stopped:
  scrape p50/p95 and failures (the goal: p95 <= 100 ms, no failures).
"""
from __future__ import annotations

import argparse
import resource
import socket
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, make_server

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from prometheus_client import CollectorRegistry
from prometheus_client.exposition import ThreadingWSGIServer

from services.exporter import server as server_module
from services.exporter.metrics import TelemetryCollector
from services.exporter.server import ExporterServer, make_app
from tests.exporter_helpers import SimulatedFeed


class _OldHandler(WSGIRequestHandler):
    def log_message(self, *args) -> None:
        pass


class _OldServer(ThreadingWSGIServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        pass


class OldExporter:
    """The previous server, kept here only as the baseline."""

    def __init__(self, collector) -> None:
        registry = CollectorRegistry(auto_describe=False)
        registry.register(collector)
        self.httpd = make_server("127.0.0.1", 0, make_app(registry), _OldServer, handler_class=_OldHandler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/metrics"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def scrape(url: str, timeout: float = 10.0) -> float | None:
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            r.read()
    except OSError:
        return None
    return time.perf_counter() - t0


def concurrent(url: str, scrapers: int, rounds: int) -> tuple[list[float], int]:
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()
    start = threading.Barrier(scrapers)

    def one() -> None:
        start.wait()
        for _ in range(rounds):
            value = scrape(url)
            with lock:
                if value is None:
                    failures[0] += 1
                else:
                    latencies.append(value)

    threads = [threading.Thread(target=one) for _ in range(scrapers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, failures[0]


def idle_connections(url: str, port: int, count: int) -> tuple[int, float | None, list[socket.socket]]:
    before = threading.active_count()
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        socks.append(s)
    time.sleep(0.5)
    threads = threading.active_count() - before
    return threads, scrape(url, timeout=15), socks


def hostile_mix(url: str, port: int, scrapers: int, rounds: int, drips: int, unfinished: int) -> tuple[list[float], int]:
    """Scrapes while slow-drip and unfinished connections are open (all on 127.0.0.1)."""
    stop = threading.Event()
    request = b"GET /metrics HTTP/1.1\r\nHost: bench\r\n\r\n"
    drip_socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(drips)]
    half = []
    for _ in range(unfinished):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        try:
            s.sendall(b"GET /metr")
        except OSError:
            pass
        half.append(s)

    def drip() -> None:
        i = 0
        while not stop.wait(5.0 if i else 0.0):  # a byte every 5 s, as in the issue
            for s in drip_socks:
                try:
                    s.sendall(request[i % len(request):i % len(request) + 1])
                except OSError:
                    pass
            i += 1

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    time.sleep(0.5)
    try:
        return concurrent(url, scrapers, rounds)
    finally:
        stop.set()
        dripper.join()
        for s in drip_socks + half:
            s.close()


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scrapers", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--drip", type=int, default=10)
    parser.add_argument("--unfinished", type=int, default=1000)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * max(args.idle, args.unfinished) + 256)), hard))
    feed = SimulatedFeed(gpus=8)

    def collector():
        return TelemetryCollector(lambda: feed.latest, lambda gpu: {"power_cap": 1.0})

    new = ExporterServer(collector(), "127.0.0.1", 0)
    new.start()
    old = OldExporter(collector())
    results = {}
    ticking = threading.Event()

    def tick() -> None:  # a new snapshot every second, as the hub makes them
        while not ticking.wait(1.0):
            feed.step(1.0)

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        for name, url in (("old", old.url), ("new", new.url)):
            concurrent(url, 4, 3)  # warm-up
            lat, fail = concurrent(url, args.scrapers, args.rounds)
            results[name] = (statistics.median(lat) if lat else float("nan"), pct(lat, 0.95), fail, len(lat))
        print(f"{args.scrapers} concurrent scrapers x {args.rounds} scrapes, 8 simulated GPUs:")
        for name in ("old", "new"):
            med, p95, fail, n = results[name]
            label = "baseline (thread per connection, backlog 5)" if name == "old" else "this server"
            print(f"  {label}: median {med * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, failed {fail} of {n + fail}")
        print(f"  ratio p95 this/baseline: {results['new'][1] / results['old'][1]:.2f}x")

        mixed = {}
        for name, url, port in (("old", old.url, old.httpd.server_address[1]), ("new", new.url, new.bound_port)):
            lat, fail = hostile_mix(url, port, args.scrapers, args.rounds, args.drip, args.unfinished)
            mixed[name] = (statistics.median(lat) if lat else float("nan"), pct(lat, 0.95), fail, len(lat))
        print(f"{args.scrapers} scrapers x {args.rounds} with {args.drip} slow-drip (1 byte / 5 s) and "
              f"{args.unfinished} unfinished connections open:")
        for name in ("old", "new"):
            med, p95, fail, n = mixed[name]
            label = "baseline (thread per connection, backlog 5)" if name == "old" else "this server"
            print(f"  {label}: median {med * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, failed {fail} of {n + fail}")
        new_p95 = mixed["new"][1]
        print(f"  ratio p95 this/baseline: {new_p95 / mixed['old'][1]:.2f}x; goal p95 <= 100 ms: "
              f"{'met' if new_p95 <= 0.100 and mixed['new'][2] == 0 else 'NOT met'}")

        for name, _server, url, port in (("old", old, old.url, old.httpd.server_address[1]),
                                        ("new", new, new.url, new.bound_port)):
            threads, latency, socks = idle_connections(url, port, args.idle)
            label = "baseline" if name == "old" else "this server"
            shown = "failed" if latency is None else f"{latency * 1000:.1f} ms"
            print(f"{args.idle} idle connections, {label}: +{threads} server threads, a scrape meanwhile {shown}")
            if name == "new":
                time.sleep(server_module.IDLE_TIMEOUT_S + 1.5)
                closed = 0
                for s in socks:
                    s.settimeout(0.01)
                    try:
                        if s.recv(1) == b"":
                            closed += 1
                    except OSError:
                        pass
                print(f"  after {server_module.IDLE_TIMEOUT_S:g} s idle: {closed} of {len(socks)} closed by the server")
            for s in socks:
                s.close()
    finally:
        ticking.set()
        ticker.join()
        new.stop()
        old.stop()


if __name__ == "__main__":
    main()
