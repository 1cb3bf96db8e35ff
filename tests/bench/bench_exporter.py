"""Scrape latency and CPU cost per scrape of /metrics with 8 simulated GPUs.

    python tests/bench/bench_exporter.py [--scrapes 300]

Baseline in the same run: fetching a static page of the same size from the
same kind of HTTP server (so the ratio isolates the cost of building metrics).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from prometheus_client.registry import Collector

from services.exporter.metrics import TelemetryCollector
from services.exporter.server import ExporterServer
from tests.exporter_helpers import SimulatedFeed


class _Static(Collector):
    def __init__(self, families):
        self.families = families

    def collect(self):
        return iter(self.families)


def _measure(url: str, scrapes: int) -> tuple[list[float], float, int]:
    latencies = []
    size = 0
    cpu0 = time.process_time()
    for _ in range(scrapes):
        t0 = time.perf_counter()
        with urllib.request.urlopen(url, timeout=5) as r:
            size = len(r.read())
        latencies.append(time.perf_counter() - t0)
    cpu = (time.process_time() - cpu0) / scrapes
    return latencies, cpu, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scrapes", type=int, default=300)
    args = parser.parse_args()
    feed = SimulatedFeed(gpus=8)
    live = ExporterServer(TelemetryCollector(lambda: feed.latest, lambda i: {"power_cap": 1.0}), "127.0.0.1", 0)
    frozen = list(TelemetryCollector(lambda: feed.latest, lambda i: {"power_cap": 1.0}).collect())
    static = ExporterServer(_Static(frozen), "127.0.0.1", 0)
    live.start()
    static.start()
    try:
        _measure(live.url, 20)  # warm-up
        _measure(static.url, 20)
        lat, cpu, size = _measure(live.url, args.scrapes)
        base_lat, base_cpu, base_size = _measure(static.url, args.scrapes)
    finally:
        live.stop()
        static.stop()
    med, p95 = statistics.median(lat), sorted(lat)[int(0.95 * len(lat))]
    bmed = statistics.median(base_lat)
    print(f"8 simulated GPUs, {args.scrapes} scrapes, {size} bytes per scrape ({len(frozen)} metric families)")
    print(f"scrape latency: median {med * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms")
    print(f"baseline (pre-built families, same server): median {bmed * 1000:.2f} ms -> ratio {med / bmed:.2f}x")
    print(f"CPU per scrape (client + server, one process): {cpu * 1000:.2f} ms; baseline {base_cpu * 1000:.2f} ms "
          f"-> ratio {cpu / base_cpu:.2f}x")


if __name__ == "__main__":
    main()
