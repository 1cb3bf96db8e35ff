"""Read GPUs of other machines: from a metrics endpoint (ours or a real
dcgm-exporter) or from a Prometheus server (instant and range queries).

Everything here is blocking I/O with short timeouts; the GUI calls it from a
worker thread. Failures come back as a ``HostReading`` with a state, never as
an exception.
"""
from __future__ import annotations

import enum
import errno
import json
import math
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any
from dataclasses import dataclass

from prometheus_client.parser import text_string_to_metric_families

from services.i18n import Msg, translate
from services.telemetry.fields import GPU_FIELDS
from services.telemetry.history import History
from services.telemetry.model import DeviceState, GpuInfo, GpuSample, Snapshot, SourceStatus
from services.telemetry.throttle import decode

DEFAULT_TIMEOUT_S = 3.0

# DCGM metric -> GpuSample field, for the measured values read back as they are (from the
# field table). The integer ones (P-state, PCIe link, ECC counts) are not read from a remote
# host; its memory total comes from FB_TOTAL, or FB_FREE + FB_USED.
SAMPLE_FIELDS: dict[str, str] = {
    spec.dcgm: spec.name for spec in GPU_FIELDS
    if spec.dcgm is not None and not spec.integer and spec.name != "memory_total_mib"
}


class HostKind(str, enum.Enum):
    EXPORTER = "exporter"  # a /metrics endpoint
    PROMETHEUS = "prometheus"  # a Prometheus server's HTTP API


class HostState(str, enum.Enum):
    OK = "ok"
    UNREACHABLE = "unreachable"
    ERROR = "error"  # it answered, but not with what we expected


@dataclass(frozen=True, slots=True)
class RemoteGpu:
    host: str  # the Hostname label, or the URL's host
    info: GpuInfo
    sample: GpuSample


@dataclass(frozen=True, slots=True)
class HostReading:
    url: str
    kind: HostKind
    state: HostState
    message: Msg | None = None
    gpus: tuple[RemoteGpu, ...] = ()
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class Series:
    t: tuple[float, ...]
    y: tuple[float, ...]


def normalize_url(text: str) -> tuple[str, HostKind]:
    """Clean a user-typed address and guess what it points at.

    ``host:9400`` or anything ending in ``/metrics`` is an exporter;
    ``host:9090`` (Prometheus' default port) or a URL with ``/api/`` is Prometheus.
    """
    text = text.strip()
    if not text:
        raise ValueError("empty address")
    if "://" not in text:
        text = "http://" + text
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) address: {text}")
    path = parts.path.rstrip("/")
    if path.endswith("/metrics"):
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", "")), HostKind.EXPORTER
    if parts.port == 9090 or "/api" in path:
        base = path.split("/api")[0]
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, base, "", "")), HostKind.PROMETHEUS
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, (path or "") + "/metrics", "", "")), HostKind.EXPORTER


# One answer is at most this big: a dcgm-exporter page for 8 GPUs is ~100 kB, a Prometheus
# query over 300 GPUs a few MB; beyond it the host is refused rather than read into memory.
MAX_BODY_BYTES = 32 * 1024 * 1024
# The whole request (connect, headers, body) ends within this many times the per-read timeout:
# a server that sends a byte now and then resets a read timeout forever, never this deadline.
DEADLINE_FACTOR = 3.0


class AnswerTooLarge(ValueError):
    pass


def mask_url(url: str) -> str:
    """The URL with the password of ``user:pass@host`` replaced by ***, for anything shown or logged."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return url
    if parts.password is None and "@" not in parts.netloc:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    user = parts.username or ""
    return urllib.parse.urlunsplit((parts.scheme, f"{user}:***@{host}" if user else f"***@{host}", parts.path, parts.query, parts.fragment))


def _get(url: str, timeout: float, max_bytes: int = MAX_BODY_BYTES) -> bytes:
    """GET ``url`` with a deadline for the whole exchange and a cap on the body. Credentials in
    the URL go in an Authorization header (never into the Host line or a message)."""
    import base64
    import http.client
    import threading

    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) address: {mask_url(url)}")
    cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = cls(parts.hostname, parts.port, timeout=timeout)
    headers = {"User-Agent": "gpu-assistant", "Accept-Encoding": "identity"}
    if parts.username is not None:
        secret = f"{urllib.parse.unquote(parts.username)}:{urllib.parse.unquote(parts.password or '')}"
        headers["Authorization"] = "Basic " + base64.b64encode(secret.encode("utf-8")).decode("ascii")
    cut = threading.Event()

    def past_deadline() -> None:
        cut.set()
        sock = conn.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)  # a read blocked on it returns at once
            except OSError:
                pass

    timer = threading.Timer(max(timeout, 0.1) * DEADLINE_FACTOR, past_deadline)
    timer.daemon = True
    timer.start()
    try:
        conn.request("GET", urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, "")), headers=headers)
        response = conn.getresponse()
        if response.status >= 300:
            raise urllib.error.HTTPError(mask_url(url), response.status, response.reason, response.headers, None)
        length = response.getheader("Content-Length")
        if length is not None and length.strip().isdigit() and int(length) > max_bytes:
            raise AnswerTooLarge(f"the answer is larger than {max_bytes // (1024 * 1024)} MB")
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = response.read1(1 << 16)
            if not chunk:
                break
            size += len(chunk)
            if size > max_bytes:
                raise AnswerTooLarge(f"the answer is larger than {max_bytes // (1024 * 1024)} MB")
            chunks.append(chunk)
            if cut.is_set():
                break
        if cut.is_set():
            raise TimeoutError("no complete answer in time")
        return b"".join(chunks)
    except (OSError, http.client.HTTPException) as exc:
        if cut.is_set():
            raise TimeoutError("no complete answer in time") from None
        if isinstance(exc, http.client.HTTPException):
            raise ConnectionError(f"{type(exc).__name__}: {exc}"[:200]) from None
        raise
    finally:
        timer.cancel()
        timer.join()
        conn.close()


def unreachable_reason(exc: BaseException) -> Msg | str:
    """The common network failures in the user's language; anything else as the OS words it
    (a raw "[Errno 111] Connection refused" inside a Chinese sentence reads badly)."""
    if isinstance(exc, urllib.error.HTTPError):
        return translate("Hosts", "the server answered HTTP {code}").format(code=exc.code)
    if isinstance(exc, AnswerTooLarge):
        return translate("Hosts", "the answer is larger than {size} MB").format(size=MAX_BODY_BYTES // (1024 * 1024))
    reason = getattr(exc, "reason", None) or exc
    if isinstance(reason, ConnectionRefusedError):
        return translate("Hosts", "connection refused (nothing listens on that port)")
    if isinstance(reason, (TimeoutError, socket.timeout)):
        return translate("Hosts", "no answer in time")
    if isinstance(reason, socket.gaierror):
        return translate("Hosts", "the host name is not known")
    if isinstance(reason, OSError) and reason.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH):
        return translate("Hosts", "no network route to that host")
    return str(reason)


def _unreachable(url: str, kind: HostKind, exc: Exception) -> HostReading:
    return HostReading(url, kind, HostState.UNREACHABLE,
                       translate("Hosts", "Cannot reach {url}: {reason}").format(url=mask_url(url), reason=unreachable_reason(exc)),
                       t=time.time())


def _gpus_from_labelled(values: dict[tuple, dict[str, float]], fallback_host: str, now: float) -> tuple[RemoteGpu, ...]:
    gpus = []
    for key, metrics in sorted(values.items(), key=lambda kv: (kv[0][0], _int(kv[0][1]))):
        host, index, uuid, name, bus, driver = key
        total = metrics.get("DCGM_FI_DEV_FB_TOTAL")
        if total is None and "DCGM_FI_DEV_FB_FREE" in metrics and "DCGM_FI_DEV_FB_USED" in metrics:
            total = metrics["DCGM_FI_DEV_FB_FREE"] + metrics["DCGM_FI_DEV_FB_USED"]
        fields: dict[str, Any] = {attr: metrics[m] for m, attr in SAMPLE_FIELDS.items() if m in metrics}
        mask = metrics.get("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS")
        if mask is not None:
            fields["throttle_reasons"] = decode(int(mask))
        energy = metrics.get("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")
        info = GpuInfo(index=_int(index), name=name or "GPU", uuid=uuid, pci_bus_id=bus or None,
                       driver_version=driver or None, memory_total_mib=total,
                       temp_slowdown_c=metrics.get("DCGM_FI_DEV_SLOWDOWN_TEMP"))
        sample = GpuSample(t=now, index=_int(index), uuid=uuid, memory_total_mib=total,
                           energy_j=None if energy is None else energy / 1000.0, **fields)
        gpus.append(RemoteGpu(host or fallback_host, info, sample))
    return tuple(gpus)


def _int(text: str) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        return 0


def _label_key(labels: dict[str, str]) -> tuple:
    return (
        labels.get("Hostname") or labels.get("hostname") or labels.get("instance", ""),
        labels.get("gpu", "0"),
        labels.get("UUID") or labels.get("uuid", ""),
        labels.get("modelName", ""),
        labels.get("pci_bus_id", ""),
        labels.get("DCGM_FI_DRIVER_VERSION", ""),
    )


def parse_metrics_text(text: str, fallback_host: str, now: float | None = None) -> tuple[RemoteGpu, ...]:
    """GPUs found in a Prometheus text exposition of DCGM metrics."""
    now = time.time() if now is None else now
    values: dict[tuple, dict[str, float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            name = sample.name
            if not name.startswith("DCGM_FI_"):
                continue
            if name.endswith("_total") and name[:-6].startswith("DCGM_FI_DEV_TOTAL_ENERGY"):
                name = name[:-6]
            if math.isnan(sample.value):
                continue
            values.setdefault(_label_key(sample.labels), {})[name] = sample.value
    return _gpus_from_labelled(values, fallback_host, now)


def read_exporter(url: str, timeout: float = DEFAULT_TIMEOUT_S) -> HostReading:
    try:
        text = _get(url, timeout).decode("utf-8", errors="replace")
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return _unreachable(url, HostKind.EXPORTER, exc)
    try:
        gpus = parse_metrics_text(text, urllib.parse.urlsplit(url).hostname or url)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError, OverflowError) as exc:
        return HostReading(url, HostKind.EXPORTER, HostState.ERROR,
                           translate("Hosts", "{url} did not answer with Prometheus metrics ({error})").format(
                               url=mask_url(url), error=str(exc)[:200]), t=time.time())
    if not gpus:
        return HostReading(url, HostKind.EXPORTER, HostState.ERROR,
                           translate("Hosts", "{url} answered, but reports no GPU metrics").format(url=mask_url(url)),
                           t=time.time())
    return HostReading(url, HostKind.EXPORTER, HostState.OK, gpus=gpus, t=time.time())


def _prom_api(base: str, path: str, params: dict[str, str], timeout: float) -> list:
    url = f"{base}/api/v1/{path}?{urllib.parse.urlencode(params)}"
    payload = json.loads(_get(url, timeout).decode("utf-8"))  # RecursionError on absurd nesting: callers catch it
    if not isinstance(payload, dict):
        raise ValueError("not a JSON object")
    if payload.get("status") != "success":
        raise ValueError(payload.get("error") or "query failed")
    return payload["data"]["result"]


def read_prometheus(base: str, timeout: float = DEFAULT_TIMEOUT_S) -> HostReading:
    """Latest DCGM values of every GPU that the Prometheus server scrapes."""
    names = sorted(set(SAMPLE_FIELDS) | {"DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_TOTAL", "DCGM_FI_DEV_SLOWDOWN_TEMP",
                                         "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"})
    query = '{__name__=~"' + "|".join(names) + '"}'
    try:
        result = _prom_api(base, "query", {"query": query}, timeout)
    except (urllib.error.URLError, OSError, AnswerTooLarge) as exc:
        return _unreachable(base, HostKind.PROMETHEUS, exc)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        return HostReading(base, HostKind.PROMETHEUS, HostState.ERROR,
                           translate("Hosts", "{url} did not answer as a Prometheus server ({error})").format(
                               url=mask_url(base), error=str(exc)[:200]), t=time.time())
    if not isinstance(result, list):
        result = []
    values: dict[tuple, dict[str, float]] = {}
    for item in result:
        labels = item.get("metric", {}) if isinstance(item, dict) else None
        if not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values()):
            continue
        try:
            value = float(item["value"][1])
        except (KeyError, IndexError, TypeError, ValueError, OverflowError):
            continue
        if math.isnan(value):
            continue
        values.setdefault(_label_key(labels), {})[labels.get("__name__", "")] = value
    gpus = _gpus_from_labelled(values, urllib.parse.urlsplit(base).hostname or base, time.time())
    if not gpus:
        return HostReading(base, HostKind.PROMETHEUS, HostState.ERROR,
                           translate("Hosts", "{url} has no DCGM GPU metrics yet").format(url=mask_url(base)), t=time.time())
    return HostReading(base, HostKind.PROMETHEUS, HostState.OK, gpus=gpus, t=time.time())


def query_range(base: str, metric: str, uuid: str | None, start: float, end: float, step_s: float,
                timeout: float = DEFAULT_TIMEOUT_S) -> dict[str, Series]:
    """History of one metric from a Prometheus server, per GPU UUID (one GPU if ``uuid`` is given)."""
    if not metric.startswith("DCGM_FI_") or not metric.replace("_", "").isalnum():
        raise ValueError(f"not a DCGM metric name: {metric}")
    if uuid is None:
        query = metric
    else:
        uuid_q = uuid.replace("\\", "\\\\").replace('"', '\\"')
        query = f'{metric}{{UUID="{uuid_q}"}} or {metric}{{uuid="{uuid_q}"}}'
    result = _prom_api(base, "query_range", {"query": query, "start": f"{start:.3f}", "end": f"{end:.3f}",
                                             "step": f"{max(step_s, 1.0):g}"}, timeout)
    out: dict[str, Series] = {}
    for item in result:
        labels = item.get("metric", {})
        key = labels.get("UUID") or labels.get("uuid") or ""
        points = item.get("values", [])
        out[key] = Series(tuple(float(t) for t, _ in points), tuple(float(v) for _, v in points))
    return out


# metrics fetched to rebuild a Prometheus host's recent history
BACKFILL = tuple(SAMPLE_FIELDS) + ("DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS")


class RemoteHost:
    """One host of the multi-host view and its recent history.

    The history is the same ring buffer the dashboard draws, one slot per GPU
    UUID (up to ``History.max_gpus``), so remote GPUs get the same graphs. A
    Prometheus host's history is first filled from range queries; after that,
    and for exporter hosts, each poll adds a row.
    """

    def __init__(self, url: str, kind: HostKind, keep_s: float = 3600.0, poll_s: float = 5.0) -> None:
        self.url = url
        self.kind = kind
        self.keep_s = keep_s
        self.poll_s = poll_s
        self.history = History(capacity=max(16, int(keep_s / poll_s) + 16))
        self.last: HostReading | None = None
        self.slots: dict[str, int] = {}
        self.infos: dict[int, GpuInfo] = {}
        self._backfilled = False

    def slot_of(self, uuid: str) -> int | None:
        if uuid not in self.slots:
            if len(self.slots) >= self.history.max_gpus:
                return None  # more GPUs than history slots: shown live, without graphs
            self.slots[uuid] = len(self.slots)
        return self.slots[uuid]

    def poll(self, timeout: float = DEFAULT_TIMEOUT_S) -> HostReading:
        if self.kind == HostKind.EXPORTER:
            reading = read_exporter(self.url, timeout)
        else:
            reading = read_prometheus(self.url, timeout)
        self.last = reading
        if reading.state != HostState.OK:
            return reading
        if self.kind == HostKind.PROMETHEUS and not self._backfilled:
            self._backfilled = True
            try:
                self.backfill(reading, timeout)
            except (urllib.error.URLError, OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError, OverflowError):
                pass  # live values still show; the graphs start from now
        self.history.append(self._snapshot(reading.t, reading.gpus))
        return reading

    def _snapshot(self, t: float, gpus) -> Snapshot:
        samples = []
        for gpu in gpus:
            slot = self.slot_of(gpu.info.uuid)
            if slot is None:
                continue
            self.infos[slot] = _replace_index(gpu.info, slot)
            samples.append(_replace_index(gpu.sample, slot))
        infos = tuple(self.infos[i] for i in sorted(self.infos))
        return Snapshot(t=t, status=SourceStatus(DeviceState.OK), gpus=infos, samples=tuple(samples))

    def backfill(self, reading: HostReading, timeout: float = DEFAULT_TIMEOUT_S) -> int:
        """Fill the history from Prometheus range queries; returns rows added."""
        end = reading.t
        start = end - self.keep_s
        step = max(self.poll_s, self.keep_s / 720)  # at most ~720 points per series
        per_metric = {m: query_range(self.url, m, None, start, end, step, timeout) for m in BACKFILL}
        by_uuid = {g.info.uuid: g for g in reading.gpus}
        times = sorted({t for series in per_metric.values() for s in series.values() for t in s.t})
        lookup = {m: {u: dict(zip(s.t, s.y, strict=True)) for u, s in series.items()} for m, series in per_metric.items()}
        rows = []
        for t in times:
            gpus = []
            for uuid, gpu in by_uuid.items():
                values = {m: lookup[m].get(uuid, {}).get(t) for m in BACKFILL}
                fields: dict[str, Any] = {SAMPLE_FIELDS[m]: v for m, v in values.items() if m in SAMPLE_FIELDS and v is not None}
                if not fields:
                    continue
                total = gpu.info.memory_total_mib
                mask = values.get("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS")
                if mask is not None:
                    fields["throttle_reasons"] = decode(int(mask))
                sample = GpuSample(t=t, index=gpu.info.index, uuid=uuid, memory_total_mib=total, **fields)
                gpus.append(RemoteGpu(gpu.host, gpu.info, sample))
            if gpus:
                rows.append(self._snapshot(t, gpus))
        self.history.load(rows)
        return len(rows)

    def series(self, uuid: str, field_name: str) -> Series:
        """The recorded values of one GpuSample field for one GPU."""
        slot = self.slots.get(uuid)
        if slot is None:
            return Series((), ())
        t, y = self.history.series(slot, field_name)
        keep = [i for i in range(len(y)) if y[i] == y[i]]
        return Series(tuple(float(t[i]) for i in keep), tuple(float(y[i]) for i in keep))


def _replace_index(obj, index: int):
    import dataclasses

    return dataclasses.replace(obj, index=index)
