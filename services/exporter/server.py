"""The HTTP endpoint that serves ``/metrics`` (Prometheus text format)."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from wsgiref.simple_server import WSGIRequestHandler, make_server

from prometheus_client import CollectorRegistry
from prometheus_client.exposition import ThreadingWSGIServer
from prometheus_client.registry import Collector

from services.exporter.metrics import render_text

DEFAULT_HOST = "127.0.0.1"  # loopback unless the user says otherwise
DEFAULT_PORT = 9400  # dcgm-exporter's default port
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class ExporterError(Exception):
    """The endpoint could not start (port in use, address not available, ...)."""


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002 - wsgiref's signature
        pass


class _Server(ThreadingWSGIServer):
    daemon_threads = True


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
        self._httpd = None
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
        server_cls = _Server
        if ":" in self.host:
            import socket

            server_cls = type("_Server6", (_Server,), {"address_family": socket.AF_INET6})
        try:
            self._httpd = make_server(self.host, self.port, make_app(registry), server_cls, handler_class=_QuietHandler)
        except OSError as exc:
            raise ExporterError(f"cannot listen on {self.host}:{self.port}: {exc.strerror or exc}") from exc
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="metrics-http", daemon=True)
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
