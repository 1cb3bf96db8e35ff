"""Read GPUs of other machines: from a metrics endpoint (ours or a real
dcgm-exporter) or from a Prometheus server (instant and range queries).

Everything here is blocking I/O with short timeouts; the GUI calls it from a
worker thread. Failures come back as a ``HostReading`` with a state, never as
an exception.
"""
from __future__ import annotations

import enum
import json
import math
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

from prometheus_client.parser import text_string_to_metric_families

from services.i18n import Msg, translate
from services.telemetry.model import GpuInfo, GpuSample

DEFAULT_TIMEOUT_S = 3.0

# DCGM metric -> GpuSample field
SAMPLE_FIELDS: dict[str, str] = {
    "DCGM_FI_DEV_GPU_UTIL": "utilization_pct",
    "DCGM_FI_DEV_MEM_COPY_UTIL": "memory_utilization_pct",
    "DCGM_FI_DEV_FB_USED": "memory_used_mib",
    "DCGM_FI_DEV_GPU_TEMP": "temperature_c",
    "DCGM_FI_DEV_MEMORY_TEMP": "memory_temperature_c",
    "DCGM_FI_DEV_POWER_USAGE": "power_w",
    "DCGM_FI_DEV_POWER_MGMT_LIMIT": "power_limit_w",
    "DCGM_FI_DEV_SM_CLOCK": "sm_clock_mhz",
    "DCGM_FI_DEV_MEM_CLOCK": "mem_clock_mhz",
    "DCGM_FI_DEV_FAN_SPEED": "fan_pct",
    "DCGM_FI_DEV_ENC_UTIL": "encoder_pct",
    "DCGM_FI_DEV_DEC_UTIL": "decoder_pct",
}
# metrics graphed in the multi-host view, in the order shown
GRAPHED = ("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_FB_USED")


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


def _get(url: str, timeout: float) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": "gpu-assistant"})
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - user-chosen http(s) URL
        return response.read()


def _unreachable(url: str, kind: HostKind, exc: Exception) -> HostReading:
    reason = getattr(exc, "reason", None) or exc
    return HostReading(url, kind, HostState.UNREACHABLE,
                       translate("Hosts", "Cannot reach {url}: {reason}").format(url=url, reason=str(reason)),
                       t=time.time())


def _gpus_from_labelled(values: dict[tuple, dict[str, float]], fallback_host: str, now: float) -> tuple[RemoteGpu, ...]:
    gpus = []
    for key, metrics in sorted(values.items(), key=lambda kv: (kv[0][0], _int(kv[0][1]))):
        host, index, uuid, name, bus, driver = key
        total = metrics.get("DCGM_FI_DEV_FB_TOTAL")
        if total is None and "DCGM_FI_DEV_FB_FREE" in metrics and "DCGM_FI_DEV_FB_USED" in metrics:
            total = metrics["DCGM_FI_DEV_FB_FREE"] + metrics["DCGM_FI_DEV_FB_USED"]
        fields = {attr: metrics[m] for m, attr in SAMPLE_FIELDS.items() if m in metrics}
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
    except (ValueError, TypeError) as exc:
        return HostReading(url, HostKind.EXPORTER, HostState.ERROR,
                           translate("Hosts", "{url} did not answer with Prometheus metrics ({error})").format(
                               url=url, error=str(exc)), t=time.time())
    if not gpus:
        return HostReading(url, HostKind.EXPORTER, HostState.ERROR,
                           translate("Hosts", "{url} answered, but reports no GPU metrics").format(url=url),
                           t=time.time())
    return HostReading(url, HostKind.EXPORTER, HostState.OK, gpus=gpus, t=time.time())


def _prom_api(base: str, path: str, params: dict[str, str], timeout: float) -> list:
    url = f"{base}/api/v1/{path}?{urllib.parse.urlencode(params)}"
    payload = json.loads(_get(url, timeout).decode("utf-8"))
    if payload.get("status") != "success":
        raise ValueError(payload.get("error") or "query failed")
    return payload["data"]["result"]


def read_prometheus(base: str, timeout: float = DEFAULT_TIMEOUT_S) -> HostReading:
    """Latest DCGM values of every GPU that the Prometheus server scrapes."""
    names = sorted(set(SAMPLE_FIELDS) | {"DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_TOTAL", "DCGM_FI_DEV_SLOWDOWN_TEMP",
                                         "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"})
    query = '{__name__=~"' + "|".join(names) + '"}'
    try:
        result = _prom_api(base, "query", {"query": query}, timeout)
    except (urllib.error.URLError, OSError) as exc:
        return _unreachable(base, HostKind.PROMETHEUS, exc)
    except (ValueError, KeyError, TypeError) as exc:
        return HostReading(base, HostKind.PROMETHEUS, HostState.ERROR,
                           translate("Hosts", "{url} did not answer as a Prometheus server ({error})").format(
                               url=base, error=str(exc)), t=time.time())
    values: dict[tuple, dict[str, float]] = {}
    for item in result:
        labels = item.get("metric", {})
        try:
            value = float(item["value"][1])
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        if math.isnan(value):
            continue
        values.setdefault(_label_key(labels), {})[labels.get("__name__", "")] = value
    gpus = _gpus_from_labelled(values, urllib.parse.urlsplit(base).hostname or base, time.time())
    if not gpus:
        return HostReading(base, HostKind.PROMETHEUS, HostState.ERROR,
                           translate("Hosts", "{url} has no DCGM GPU metrics yet").format(url=base), t=time.time())
    return HostReading(base, HostKind.PROMETHEUS, HostState.OK, gpus=gpus, t=time.time())


def query_range(base: str, metric: str, uuid: str, start: float, end: float, step_s: float,
                timeout: float = DEFAULT_TIMEOUT_S) -> Series:
    """History of one metric of one GPU from a Prometheus server."""
    if metric not in SAMPLE_FIELDS and metric not in GRAPHED:
        raise ValueError(f"unknown metric {metric}")
    uuid_q = uuid.replace("\\", "\\\\").replace('"', '\\"')
    query = f'{metric}{{UUID="{uuid_q}"}} or {metric}{{uuid="{uuid_q}"}}'
    result = _prom_api(base, "query_range", {"query": query, "start": f"{start:.3f}", "end": f"{end:.3f}",
                                             "step": f"{max(step_s, 1.0):g}"}, timeout)
    if not result:
        return Series((), ())
    points = result[0].get("values", [])
    return Series(tuple(float(t) for t, _ in points), tuple(float(v) for _, v in points))


@dataclass
class RemoteHost:
    """One host of the multi-host view, with a short local history for exporter hosts."""

    url: str
    kind: HostKind
    keep_s: float = 3600.0
    last: HostReading | None = None
    _history: dict[tuple[str, str], list[tuple[float, float]]] = field(default_factory=dict)

    def poll(self, timeout: float = DEFAULT_TIMEOUT_S) -> HostReading:
        reading = read_exporter(self.url, timeout) if self.kind == HostKind.EXPORTER else read_prometheus(self.url, timeout)
        self.last = reading
        if reading.state == HostState.OK:
            for gpu in reading.gpus:
                for metric in GRAPHED:
                    value = getattr(gpu.sample, SAMPLE_FIELDS[metric], None)
                    if value is None:
                        continue
                    points = self._history.setdefault((gpu.info.uuid, metric), [])
                    points.append((reading.t, float(value)))
                    cutoff = reading.t - self.keep_s
                    while points and points[0][0] < cutoff:
                        points.pop(0)
        return reading

    def history(self, uuid: str, metric: str, seconds: float, timeout: float = DEFAULT_TIMEOUT_S) -> Series:
        """Recent values: from Prometheus' range API, or what this app has polled."""
        if self.kind == HostKind.PROMETHEUS:
            end = time.time()
            return query_range(self.url, metric, uuid, end - seconds, end, max(1.0, seconds / 300), timeout)
        points = self._history.get((uuid, metric), [])
        return Series(tuple(p[0] for p in points), tuple(p[1] for p in points))
