"""Shared bits for the exporter tests: a snapshot provider on the simulated
source and a real Prometheus server started on loopback."""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from services.telemetry.model import Snapshot, Tier


class SimulatedFeed:
    """Reads the simulated source at a fixed simulated time per call."""

    def __init__(self, gpus: int = 2, start: float = 1_750_000_000.0) -> None:
        from services.telemetry.simulated import SimulatedSource

        self.source = SimulatedSource(seed=1, gpus=gpus, start_wall=start)
        self.source.open()
        self.now = start + 3600.0  # an hour into the run: training under way
        self.latest: Snapshot = self.source.read(Tier.FAST | Tier.SLOW | Tier.STATIC, self.now)

    def step(self, seconds: float = 1.0) -> Snapshot:
        self.now += seconds
        self.latest = self.source.read(Tier.FAST | Tier.SLOW, self.now)
        return self.latest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout_s: float = 20.0, every_s: float = 0.2):
    """Poll ``predicate`` until it returns a truthy value (bounded in time)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        time.sleep(every_s)


class PrometheusServer:
    """The distribution's Prometheus, on loopback, with a temporary data dir."""

    def __init__(self, workdir: Path, target: str, scrape_interval: str = "1s") -> None:
        self.binary = shutil.which("prometheus")
        self.port = free_port()
        self.workdir = workdir
        config = workdir / "prometheus.yml"
        config.write_text(
            "global:\n"
            f"  scrape_interval: {scrape_interval}\n"
            f"  evaluation_interval: {scrape_interval}\n"
            "scrape_configs:\n"
            "  - job_name: gpu\n"
            "    static_configs:\n"
            f"      - targets: ['{target}']\n",
            encoding="utf-8",
        )
        self.config = config
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        args = [self.binary, f"--config.file={self.config}", f"--storage.tsdb.path={self.workdir / 'data'}",
                f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"]
        with open(self.workdir / "log", "wb") as log:  # the child keeps its own copy of the handle
            self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=log)
        wait_for(self._ready, timeout_s=30)

    def _ready(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError("prometheus exited: " + (self.workdir / "log").read_text(errors="replace")[-500:])
        try:
            with urllib.request.urlopen(self.url + "/-/ready", timeout=1) as r:
                return r.status == 200
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
