"""The metrics endpoint keeps answering with idle connections open, closes them, and bounds its threads."""
from __future__ import annotations

import socket
import threading
import time
import urllib.request

import pytest

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


# ---- issue 23: slow drip, unfinished requests by the thousand, no file descriptors left ----
def test_slow_drip_connections_do_not_hold_the_workers(monkeypatch):
    """More drip-feeding clients than workers (a byte every 0.1 s, well inside any read timeout):
    scrapes still answer at once, and the drips are cut at the request deadline."""
    monkeypatch.setattr(server_module, "REQUEST_DEADLINE_S", 0.8)
    feed = SimulatedFeed(gpus=1)
    server = ExporterServer(TelemetryCollector(lambda: feed.latest), "127.0.0.1", 0)
    server.start()
    drips = [socket.create_connection(("127.0.0.1", server.bound_port), timeout=5) for _ in range(server_module.WORKERS + 2)]
    try:
        request = b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
        cut = 0
        for i in range(12):
            for s in drips:
                try:
                    s.sendall(request[i:i + 1])
                except OSError:
                    pass
            started = time.monotonic()
            assert b"DCGM_FI_DEV_GPU_TEMP" in _scrape(server.url)
            assert time.monotonic() - started < 1.0
            time.sleep(0.1)
        for s in drips:
            s.settimeout(2)
            try:
                cut += s.recv(1) == b""
            except OSError:
                cut += 1
        assert cut == len(drips)
    finally:
        for s in drips:
            s.close()
        server.stop()


def test_a_thousand_unfinished_requests_from_one_peer_do_not_stop_scrapes(monkeypatch):
    monkeypatch.setattr(server_module, "MAX_PER_PEER", 200)
    try:
        import resource
    except ImportError:  # Windows: sockets are handles, with no descriptor limit to raise
        resource = None
    if resource is not None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < 2600:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    feed = SimulatedFeed(gpus=1)
    server = ExporterServer(TelemetryCollector(lambda: feed.latest), "127.0.0.1", 0)
    server.start()
    socks = []
    try:
        for _ in range(1000):
            s = socket.create_connection(("127.0.0.1", server.bound_port), timeout=5)
            s.sendall(b"GET /metr")
            socks.append(s)
        started = time.monotonic()
        for _ in range(5):
            assert b"DCGM_FI_DEV_GPU_TEMP" in _scrape(server.url)
        assert time.monotonic() - started < 2.0
        assert server._httpd.evicted >= 1000 - 200 - 5
    finally:
        for s in socks:
            s.close()
        server.stop()
        if resource is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


_EMFILE_SERVER = """
import resource, sys, time
sys.path.insert(0, sys.argv[1])
from services.exporter.metrics import TelemetryCollector
from services.exporter.server import ExporterServer
resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
server = ExporterServer(TelemetryCollector(lambda: None), "127.0.0.1", 0)
server.start()
print(server.bound_port, flush=True)
time.sleep(float(sys.argv[2]))
print(server._httpd.accept_pauses, flush=True)
server.stop()
"""


@pytest.mark.linux_only("lowers the file-descriptor limit with setrlimit (POSIX); Windows sockets are handles with no such limit")
def test_out_of_file_descriptors_the_accept_loop_backs_off_instead_of_spinning(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    import psutil

    script = tmp_path / "server.py"
    script.write_text(_EMFILE_SERVER)
    repo = str(Path(__file__).resolve().parents[2])
    proc = subprocess.Popen([sys.executable, str(script), repo, "4"], stdout=subprocess.PIPE, text=True)
    socks = []
    try:
        port = int(proc.stdout.readline())
        for _ in range(150):  # far more than the server's 64 descriptors
            try:
                socks.append(socket.create_connection(("127.0.0.1", port), timeout=2))
            except OSError:
                break
        ps = psutil.Process(proc.pid)
        before = ps.cpu_times()
        time.sleep(1.5)
        after = ps.cpu_times()
        busy = (after.user + after.system) - (before.user + before.system)
        assert busy < 0.5, f"the server used {busy:.2f} s of CPU in 1.5 s with no descriptors left"
        pauses = int(proc.stdout.readline())
        assert pauses >= 1
    finally:
        for s in socks:
            s.close()
        proc.wait(timeout=15)
        proc.stdout.close()


def test_a_huge_duration_waits_without_overflow():
    from cli.exporter import _wait

    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    started = time.monotonic()
    _wait(stop, 1e10)  # Event.wait(1e10) raises OverflowError
    timer.join()
    assert time.monotonic() - started < 5
