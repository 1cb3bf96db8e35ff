"""The HTTP endpoint that serves ``/metrics`` (Prometheus text format)."""
from __future__ import annotations

import errno
import io
import queue
import selectors
import socket
import sys
import threading
import time
import urllib.parse
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
# Issue 23: the request's header must be complete this long after the connection was accepted,
# however it trickles in (a byte every few seconds used to reset a per-read timeout forever).
# The accept thread reads headers itself; a worker only ever gets a complete request.
REQUEST_DEADLINE_S = 5.0
READ_TIMEOUT_S = 10.0  # sending the answer: a client that stops reading is dropped after this
MAX_HEADER_BYTES = 8192  # a scrape's request is a few hundred bytes
# Connections accepted and waiting for their request; beyond this the oldest is closed. Windows'
# select() takes at most 512 sockets, so it keeps fewer.
MAX_PENDING = 2048 if sys.platform != "win32" else 400
# One peer (IP address) holds at most this many of them: its oldest is closed to make room, so one
# client opening connections by the thousand cannot push out everyone else's.
MAX_PER_PEER = 256 if sys.platform != "win32" else 100
ACCEPT_BACKOFF_S = 0.25  # out of file descriptors (EMFILE): stop accepting this long, do not spin


class _QuietHandler(WSGIRequestHandler):
    """Kept for make_server's signature; requests are parsed by _Server itself."""

    timeout = READ_TIMEOUT_S

    def log_message(self, format: str, *args) -> None:  # wsgiref's signature
        pass


@dataclass
class _Pending:
    address: tuple
    since: float
    data: bytearray


class _Server(WSGIServer):
    """A WSGI server for many scrapers and hostile clients.

    One thread accepts connections and reads each request's header without blocking, under a
    deadline; only a complete request goes to one of a fixed number of workers. Idle, slow and
    half-open connections cost a file descriptor, never a thread or a worker.
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
        self.timed_out = 0  # connections closed for not sending a whole request in time
        self.evicted = 0  # connections closed to make room (per peer or overall)
        self.accept_pauses = 0  # times accepting paused because file descriptors ran out

    # ---- the accept loop

    def serve_forever(self, poll_interval: float = 0.25) -> None:  # socketserver's name
        self._stopped.clear()
        for n in range(WORKERS):
            worker = threading.Thread(target=self._work_loop, name=f"metrics-worker-{n}", daemon=True)
            worker.start()
            self._workers.append(worker)
        pending: dict[socket.socket, _Pending] = {}
        per_peer: dict[str, int] = {}
        selector = selectors.DefaultSelector()
        selector.register(self.socket, selectors.EVENT_READ, None)
        paused_until = 0.0
        try:
            while not self._stopping.is_set():
                if paused_until and time.monotonic() >= paused_until:
                    selector.register(self.socket, selectors.EVENT_READ, None)
                    paused_until = 0.0
                timeout = min(poll_interval, 0.1) if pending or paused_until else poll_interval
                for key, _ in selector.select(timeout):
                    if key.data is None:
                        if not self._accept(selector, pending, per_peer):
                            selector.unregister(self.socket)  # EMFILE: back off instead of spinning
                            paused_until = time.monotonic() + ACCEPT_BACKOFF_S
                            self.accept_pauses += 1
                            if pending:  # and free a descriptor: the oldest silent connection goes
                                self._drop(selector, pending, per_peer, min(pending, key=lambda c: pending[c].since))
                                self.evicted += 1
                            break
                    else:
                        conn = key.fileobj
                        assert isinstance(conn, socket.socket)  # only accepted sockets are registered
                        self._read(selector, pending, per_peer, conn)
                self._close_late(selector, pending, per_peer)
        finally:
            for conn in list(pending):
                self._drop(selector, pending, per_peer, conn)
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

    def _accept(self, selector: selectors.BaseSelector, pending: dict, per_peer: dict) -> bool:
        """Accept one connection; False when the process is out of file descriptors."""
        try:
            conn, address = self.socket.accept()
        except OSError as exc:
            return exc.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
        conn.setblocking(False)
        peer = str(address[0]) if isinstance(address, tuple) and address else ""
        if per_peer.get(peer, 0) >= MAX_PER_PEER:  # this peer's oldest waiting connection makes room
            oldest = min((c for c in pending if _peer(pending[c]) == peer), key=lambda c: pending[c].since)
            self._drop(selector, pending, per_peer, oldest)
            self.evicted += 1
        elif len(pending) >= MAX_PENDING:  # the oldest of the peer holding the most makes room
            busiest = max(per_peer, key=lambda p: per_peer[p])
            oldest = min((c for c in pending if _peer(pending[c]) == busiest), key=lambda c: pending[c].since)
            self._drop(selector, pending, per_peer, oldest)
            self.evicted += 1
        pending[conn] = _Pending(address, time.monotonic(), bytearray())
        per_peer[peer] = per_peer.get(peer, 0) + 1
        selector.register(conn, selectors.EVENT_READ, address)
        return True

    def _read(self, selector: selectors.BaseSelector, pending: dict, per_peer: dict, conn: socket.socket) -> None:
        entry = pending.get(conn)
        if entry is None:
            return
        try:
            chunk = conn.recv(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:  # the client went away
            self._drop(selector, pending, per_peer, conn)
            return
        entry.data += chunk
        if b"\r\n\r\n" in entry.data or b"\n\n" in entry.data:
            self._forget(selector, pending, per_peer, conn)
            self._dispatch(conn, entry.address, bytes(entry.data))
        elif len(entry.data) > MAX_HEADER_BYTES:
            self._forget(selector, pending, per_peer, conn)
            _answer_and_close(conn, b"HTTP/1.0 431 Request Header Fields Too Large\r\nContent-Length: 0\r\n\r\n")

    def _close_late(self, selector: selectors.BaseSelector, pending: dict, per_peer: dict) -> None:
        if not pending:
            return
        now = time.monotonic()
        for conn in [c for c, e in pending.items()
                     if e.since < now - (IDLE_TIMEOUT_S if not e.data else min(IDLE_TIMEOUT_S, REQUEST_DEADLINE_S))]:
            self._drop(selector, pending, per_peer, conn)
            self.timed_out += 1

    @staticmethod
    def _forget(selector: selectors.BaseSelector, pending: dict, per_peer: dict, conn: socket.socket) -> None:
        try:
            selector.unregister(conn)
        except (KeyError, ValueError):
            pass
        entry = pending.pop(conn, None)
        if entry is not None:
            peer = _peer(entry)
            per_peer[peer] -= 1
            if per_peer[peer] <= 0:
                del per_peer[peer]

    def _drop(self, selector: selectors.BaseSelector, pending: dict, per_peer: dict, conn: socket.socket) -> None:
        self._forget(selector, pending, per_peer, conn)
        try:
            conn.close()
        except OSError:
            pass

    def _dispatch(self, conn: socket.socket, address: tuple, request: bytes) -> None:
        try:
            self._work.put_nowait((conn, address, request))
        except queue.Full:  # every worker busy and the queue full: say so at once rather than hang
            self.rejected += 1
            _answer_and_close(conn, b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 1\r\n\r\n")

    # ---- workers

    def _work_loop(self) -> None:
        while True:
            item = self._work.get()
            if item is None:
                return
            conn, address, request = item
            try:
                _answer_and_close(conn, self._respond(request, address))
            except Exception:  # a client that hangs up or times out is not our error
                try:
                    conn.close()
                except OSError:
                    pass

    def _respond(self, request: bytes, address: tuple) -> bytes:
        line = request.split(b"\n", 1)[0].decode("latin-1").strip()
        parts = line.split()
        if len(parts) != 3 or not parts[2].startswith("HTTP/"):
            return b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
        method, target, _version = parts
        if method not in ("GET", "HEAD"):
            return b"HTTP/1.0 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Length: 0\r\n\r\n"
        path, _, query = target.partition("?")
        environ = dict(self.base_environ)
        environ.update({"REQUEST_METHOD": method, "PATH_INFO": urllib.parse.unquote(path, "latin-1"),
                        "QUERY_STRING": query, "SERVER_PROTOCOL": "HTTP/1.0",
                        "REMOTE_ADDR": str(address[0]) if address else "", "wsgi.input": io.BytesIO(),
                        "wsgi.errors": io.StringIO(), "wsgi.version": (1, 0), "wsgi.url_scheme": "http",
                        "wsgi.multithread": True, "wsgi.multiprocess": False, "wsgi.run_once": False})
        answer: dict = {}

        def start_response(status, headers, exc_info=None):  # WSGI's signature
            answer["status"], answer["headers"] = status, headers

        app = self.get_app()
        assert app is not None  # workers start only once the app is set
        body = b"".join(app(environ, start_response))
        headers = [(k, v) for k, v in answer.get("headers", []) if k.lower() not in ("content-length", "connection")]
        head = f"HTTP/1.0 {answer.get('status', '500 Internal Server Error')}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
        head += f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        return head.encode("latin-1") + (b"" if method == "HEAD" else body)

    def handle_error(self, request, client_address) -> None:  # socketserver's signature
        pass  # no traceback on stderr for a client that went away or timed out


def _peer(entry: _Pending) -> str:
    return str(entry.address[0]) if isinstance(entry.address, tuple) and entry.address else ""


def _answer_and_close(conn: socket.socket, data: bytes) -> None:
    """Send ``data`` within READ_TIMEOUT_S in all (not per send), then close."""
    deadline = time.monotonic() + READ_TIMEOUT_S
    try:
        conn.setblocking(True)
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            conn.settimeout(left)
            sent = conn.send(view)
            view = view[sent:]
        try:
            conn.shutdown(socket.SHUT_WR)
        except OSError:
            pass
    except OSError:
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def make_app(registry: CollectorRegistry, cache_key=None):  # () -> hashable, or None
    """The WSGI app. With ``cache_key``, scrapes that see the same key (the same snapshot) share
    one rendering: 50 scrapers at once cost one render per tick, not fifty."""
    lock = threading.Lock()
    cached: list = [None, None]  # key, body

    def metrics_body() -> bytes:
        if cache_key is None:
            return render_text(registry.collect())
        with lock:
            key = cache_key()
            if key is None or key != cached[0]:
                cached[0], cached[1] = key, render_text(registry.collect())
            return cached[1]

    def app(environ, start_response):
        path = environ.get("PATH_INFO", "/")
        if path in ("/metrics", "/metrics/"):
            body = metrics_body()
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
            app = make_app(registry, getattr(self.collector, "cache_key", None))
            self._httpd = make_server(self.host, self.port, app, server_cls, handler_class=_QuietHandler)
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
