"""Why a host is unreachable is said in the user's language, not as a raw "[Errno 111]"."""
from __future__ import annotations

import socket
import urllib.error

from services.exporter.remote import read_exporter, unreachable_reason
from services.i18n import Catalog, Msg


def _closed_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    return port


def test_refused_connection_is_worded_and_translated():
    reading = read_exporter(f"http://127.0.0.1:{_closed_port()}/metrics", timeout=2)
    assert "connection refused (nothing listens on that port)" in str(reading.message)
    chinese = Catalog.load("zh_CN").render(reading.message)
    assert "连接被拒绝" in chinese and "Errno" not in chinese and "refused" not in chinese


def test_common_failures_have_their_own_words():
    assert isinstance(unreachable_reason(urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))), Msg)
    assert str(unreachable_reason(urllib.error.URLError(TimeoutError("timed out")))) == "no answer in time"
    assert str(unreachable_reason(TimeoutError())) == "no answer in time"
    http = urllib.error.HTTPError("http://x/metrics", 503, "Service Unavailable", {}, None)
    assert str(unreachable_reason(http)) == "the server answered HTTP 503"
    # anything else keeps the system's own words rather than inventing a cause
    assert str(unreachable_reason(urllib.error.URLError("unknown url type: ftp"))) == "unknown url type: ftp"
