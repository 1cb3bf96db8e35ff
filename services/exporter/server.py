"""The HTTP endpoint that serves ``/metrics`` (Prometheus text format)."""
from __future__ import annotations

import queue
import selectors
import socket
import threading
import time
from dataclasses import dataclass
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import CollectorRegistry
from prometheus_client.registry import Collector

from services.exporter.metrics import render_text
from services.i18n import TranslatableError, translate

DEFAULT_HOST = "127.0.0.1"  # loopback unless the user says otherwise
DEFAULT_PORT = 9400  # dcgm-exporter's default port
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class ExporterError(TranslatableError):
    """The endpoint could not start (port in use, address not available, ...)."""



_CANNOT_LISTEN = translate("Exporter", "cannot listen on {host}:{port}: {reason}")

# Under load (issue 16): 50 scrapers at once, idle or half-open connections by the thousand.
LISTEN_BACKLOG = 128  # the kernel queue of connections not yet accepted (socketserver's default is 5)
WORKERS = 8  # requests answered at once; more wait in the queue below
QUEUE_LIMIT = 256  # requests with data waiting for a worker; beyond that a connection is closed at once
IDLE_TIMEOUT_S = 10.0  # a connection that sends no request within this is closed
READ_TIMEOUT_S = 10.0  # a request that stalls mid-way is dropped after this
MAX_PENDING = 2048  # connections accepted and waiting for their request; the oldest is closed beyond


class _QuietHandler(WSGIRequestHandler):
    timeout = READ_TIMEOUT_S  # StreamRequestHandler puts this on the socket: no read waits forever

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - wsgiref's signature
        pass


class _Server(WSGIServer):
    """A WSGI server for many scrapers and hostile clients.

    One thread accepts connections and watches them with a selector until a request
    arrives; only then does a connection go to one of a fixed number of workers. Idle
    and half-open connections cost a file descriptor, never a thread, and are closed
    after ``IDLE_TIMEOUT_S``.
    """

    request_queue_size = LISTEN_BACKLOG
    allow_reuse_address = True

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._work: "queue.Queue[tuple | None]" = queue.Queue(maxsize=QUEUE_LIMIT)
        self._workers: list[threading.Thread] = []
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._stopped.set()
        self.rejected = 0  # connections closed because every worker and the queue were busy
        self.timed_out = 0  # connections closed for sending nothing in time

    # ---- the accept loop

    def serve_forever(self, poll_interval: float = 0.25) -> None:  # noqa: D401 - socketserver's name
        self._stopped.clear()
        for n in range(WORKERS):
            worker = threading.Thread(target=self._work_loop, name=f"metrics-worker-{n}", daemon=True)
            worker.start()
            self._workers.append(worker)
        pending: dict[socket.socket, tuple[tuple, float]] = {}
        selector = selectors.DefaultSelector()
        selector.register(self.socket, selectors.EVENT_READ, None)
        try:
            while not self._stopping.is_set():
                for key, _ in selector.select(poll_interval):
                    if key.data is None:
                        self._accept(selector, pending)
                    else:
                        conn = key.fileobj
                        assert isinstance(conn, socket.socket)  # only accepted sockets carry data
                        selector.unregister(conn)
                        address, _ = pending.pop(conn)
                        self._dispatch(conn, address)
                self._close_idle(selector, pending)
        finally:
            for conn in list(pending):
                self._drop(selector, pending, conn)
            selector.close()
            for _ in self._workers:
                self._work.put(None)
            for worker in self._workers:
                worker.join(timeout=READ_TIMEOUT_S + 1)
            self._workers.clear()
            self._stopped.set()

    def shutdown(self) -> None:
        self._stopping.set()
        self._stopped.wait()

    def _accept(self, selector: selectors.BaseSelector, pending: dict) -> None:
        try:
            conn, address = self.socket.accept()
        except OSError:
            return
        if len(pending) >= MAX_PENDING:  # the oldest silent one makes room
            oldest = min(pending, key=lambda c: pending[c][1])
            self._drop(selector, pending, oldest)
            self.timed_out += 1
        pending[conn] = (address, time.monotonic())
        selector.register(conn, selectors.EVENT_READ, address)

    def _close_idle(self, selector: selectors.BaseSelector, pending: dict) -> None:
        if not pending:
            return
        limit = time.monotonic() - IDLE_TIMEOUT_S
        for conn in [c for c, (_, since) in pending.items() if since < limit]:
            self._drop(selector, pending, conn)
            self.timed_out += 1

    @staticmethod
    def _drop(selector: selectors.BaseSelector, pending: dict, conn: socket.socket) -> None:
        try:
            selector.unregister(conn)
        except (KeyError, ValueError):
            pass
        pending.pop(conn, None)
        try:
            conn.close()
        except OSError:
            pass

    def _dispatch(self, conn: socket.socket, address: tuple) -> None:
        try:
            self._work.put_nowait((conn, address))
        except queue.Full:  # every worker busy and the queue full: say so at once rather than hang
            self.rejected += 1
            try:
                conn.settimeout(1.0)
                conn.sendall(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 1\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(conn)

    # ---- workers

    def _work_loop(self) -> None:
        while True:
            item = self._work.get()
            if item is None:
                return
            conn, address = item
            try:
                conn.settimeout(READ_TIMEOUT_S)
                self.finish_request(conn, address)
            except Exception:  # noqa: BLE001 - a client that hangs up or times out is not our error
                pass
            finally:
                self.shutdown_request(conn)

    def handle_error(self, request, client_address) -> None:  # noqa: ANN001 - socketserver's signature
        pass  # no traceback on stderr for a client that went away or timed out


def make_app(registry: CollectorRegistry):
    def app(environ, start_response):
        path = environ.get("PATH_INFO", "/")
        if path in ("/metrics", "/metrics/"):
            body = render_text(registry.collect())
            start_response("200 OK", [("Content-Type", CONTENT_TYPE), ("Content-Length", str(len(body)))])
            return [body]
        if path == "/":
            body = b'<html><body><a href="/metrics">/metrics</a></body></html>'
            start_response("200 OK", [("Content-Type", "text/html")])
            return [body]
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found\n"]

    return app


@dataclass
class ExporterServer:
    collector: Collector
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT

    def __post_init__(self) -> None:
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._httpd is not None

    @property
    def bound_port(self) -> int:
        return self._httpd.server_address[1] if self._httpd is not None else self.port

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.bound_port}/metrics"

    def start(self) -> None:
        if self._httpd is not None:
            return
        registry = CollectorRegistry(auto_describe=False)
        registry.register(self.collector)
        server_cls: type[_Server] = _Server
        if ":" in self.host:
            server_cls = type("_Server6", (_Server,), {"address_family": socket.AF_INET6})
        try:
            self._httpd = make_server(self.host, self.port, make_app(registry), server_cls, handler_class=_QuietHandler)
        except OSError as exc:
            raise ExporterError(_CANNOT_LISTEN.format(host=self.host, port=self.port, reason=exc.strerror or str(exc))) from exc
        except (OverflowError, ValueError, TypeError) as exc:  # a port of 99999 or -1 from a bad settings file
            raise ExporterError(_CANNOT_LISTEN.format(host=self.host, port=self.port, reason=str(exc))) from exc
        httpd = self._httpd
        self._thread = threading.Thread(target=httpd.serve_forever, name="metrics-http", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None
