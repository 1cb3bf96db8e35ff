"""Other hosts that answer badly: a byte now and then, an endless body, absurdly deep JSON, and
credentials in the URL (never shown). Everything on 127.0.0.1, bounded in time."""
from __future__ import annotations

import socket
import threading
import time

import pytest

from services.exporter import remote
from services.exporter.remote import HostState, read_exporter, read_prometheus


class OneShotServer:
    """Accepts connections on 127.0.0.1 and answers each with ``respond(conn, request_bytes)``."""

    def __init__(self, respond) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.requests: list[bytes] = []
        self._respond = respond
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    data = b""
                    while b"\r\n\r\n" not in data:
                        part = conn.recv(4096)
                        if not part:
                            break
                        data += part
                    self.requests.append(data)
                    self._respond(conn, self._stop)
                except OSError:
                    pass

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self.sock.close()


@pytest.fixture
def serve():
    servers = []

    def start(respond) -> OneShotServer:
        s = OneShotServer(respond)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.close()


def test_a_server_that_drips_bytes_is_cut_at_the_deadline(serve):
    def drip(conn, stop):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")
        while not stop.is_set():
            conn.sendall(b"#")
            time.sleep(0.1)  # well inside the read timeout: only an overall deadline stops it

    server = serve(drip)
    started = time.monotonic()
    reading = read_exporter(f"http://127.0.0.1:{server.port}/metrics", timeout=0.5)
    took = time.monotonic() - started
    assert reading.state == HostState.UNREACHABLE and "no answer in time" in str(reading.message)
    assert took < 0.5 * remote.DEADLINE_FACTOR + 1.0


def test_a_server_that_drips_its_headers_is_cut_too(serve):
    def drip(conn, stop):
        for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 1000:
            if stop.is_set():
                return
            conn.sendall(bytes([byte]))
            time.sleep(0.05)

    server = serve(drip)
    started = time.monotonic()
    reading = read_exporter(f"http://127.0.0.1:{server.port}/metrics", timeout=0.4)
    assert reading.state == HostState.UNREACHABLE and time.monotonic() - started < 0.4 * remote.DEADLINE_FACTOR + 1.0


def test_an_endless_body_is_capped(serve, monkeypatch):
    monkeypatch.setattr(remote, "MAX_BODY_BYTES", 1024 * 1024)

    def endless(conn, stop):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")
        block = b"# filler line\n" * 4096
        while not stop.is_set():
            conn.sendall(block)

    server = serve(endless)
    reading = read_exporter(f"http://127.0.0.1:{server.port}/metrics", timeout=2)
    assert reading.state == HostState.UNREACHABLE and "larger than 1 MB" in str(reading.message)


def test_a_declared_huge_length_is_refused_before_reading(serve):
    def huge(conn, stop):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 600000000000\r\n\r\nDCGM")

    server = serve(huge)
    reading = read_exporter(f"http://127.0.0.1:{server.port}/metrics", timeout=2)
    assert reading.state == HostState.UNREACHABLE and "larger than" in str(reading.message)


def test_deep_json_from_prometheus_is_an_error_not_a_recursion(serve):
    body = b"[" * 200000 + b"]" * 200000

    def deep(conn, stop):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)

    server = serve(deep)
    reading = read_prometheus(f"http://127.0.0.1:{server.port}", timeout=2)
    assert reading.state == HostState.ERROR


def test_credentials_are_sent_as_a_header_and_never_shown(serve):
    def refuse(conn, stop):
        conn.sendall(b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n")

    server = serve(refuse)
    url = f"http://li:s3cret-pw@127.0.0.1:{server.port}/metrics"
    reading = read_exporter(url, timeout=2)
    assert reading.state == HostState.UNREACHABLE and "401" in str(reading.message)
    assert "s3cret-pw" not in str(reading.message) and "li:***@127.0.0.1" in str(reading.message)
    request = server.requests[0]
    assert b"Authorization: Basic bGk6czNjcmV0LXB3" in request and b"s3cret" not in request
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    gone = read_exporter(f"http://li:s3cret-pw@127.0.0.1:{port}/metrics", timeout=1)
    assert gone.state == HostState.UNREACHABLE and "s3cret-pw" not in str(gone.message)


def test_mask_url():
    assert remote.mask_url("http://u:p@h:1/x?q") == "http://u:***@h:1/x?q"
    assert remote.mask_url("http://h:1/x") == "http://h:1/x"
