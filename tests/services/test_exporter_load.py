"""The metrics endpoint keeps answering with idle connections open, closes them, and bounds its threads."""
from __future__ import annotations

import socket
import threading
import time
import urllib.request

from services.exporter import server as server_module
from services.exporter.metrics import TelemetryCollector
from services.exporter.server import ExporterServer
from tests.exporter_helpers import SimulatedFeed


def _scrape(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read()


def test_idle_connections_take_no_thread_and_are_closed(monkeypatch):
    monkeypatch.setattr(server_module, "IDLE_TIMEOUT_S", 0.5)
    feed = SimulatedFeed(gpus=2)
    server = ExporterServer(TelemetryCollector(lambda: feed.latest), "127.0.0.1", 0)
    server.start()
    socks = []
    try:
        _scrape(server.url)  # the workers are up
        before = threading.active_count()
        socks = [socket.create_connection(("127.0.0.1", server.bound_port), timeout=5) for _ in range(100)]
        assert b"DCGM_FI_DEV_GPU_TEMP" in _scrape(server.url)  # answered while 100 sit idle
        assert threading.active_count() <= before + 1
        deadline = time.monotonic() + 5
        closed = 0
        while time.monotonic() < deadline and closed < len(socks):
            closed = 0
            for s in socks:
                s.settimeout(0.01)
                try:
                    closed += s.recv(1) == b""
                except TimeoutError:
                    pass
                except OSError:
                    closed += 1
        assert closed == len(socks)
    finally:
        for s in socks:
            s.close()
        server.stop()


def test_a_half_sent_request_does_not_hold_a_worker_forever(monkeypatch):
    monkeypatch.setattr(server_module, "READ_TIMEOUT_S", 0.3)
    monkeypatch.setattr(server_module._QuietHandler, "timeout", 0.3)
    feed = SimulatedFeed(gpus=1)
    server = ExporterServer(TelemetryCollector(lambda: feed.latest), "127.0.0.1", 0)
    server.start()
    stalled = []
    try:
        for _ in range(server_module.WORKERS * 2):  # more stalled requests than workers
            s = socket.create_connection(("127.0.0.1", server.bound_port), timeout=5)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")  # never finished
            stalled.append(s)
        assert b"DCGM_FI_DEV_GPU_TEMP" in _scrape(server.url)
    finally:
        for s in stalled:
            s.close()
        server.stop()


def test_stop_ends_every_server_thread():
    before = {t.name for t in threading.enumerate()}
    server = ExporterServer(TelemetryCollector(lambda: None), "127.0.0.1", 0)
    server.start()
    try:
        assert _scrape(server.url).strip() == b""  # no reading yet: an empty answer at once, not a wait
    finally:
        server.stop()
    left = {t.name for t in threading.enumerate()} - before
    assert not left, left


def test_an_out_of_range_port_is_an_exporter_error_not_a_crash():
    import pytest

    from services.exporter.server import ExporterError
    from services.exporter.service import ExporterService
    from services.settings import ExporterSettings

    for port in (99999, -1):
        with pytest.raises(ExporterError):
            ExporterServer(TelemetryCollector(lambda: None), "127.0.0.1", port).start()
        service = ExporterService(lambda: TelemetryCollector(lambda: None))
        service.apply(ExporterSettings(run_in_background=True, port=port))
        assert service.server is None and service.problem is not None
