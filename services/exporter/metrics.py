"""Turn telemetry snapshots into Prometheus metric families.

Names and labels follow NVIDIA dcgm-exporter (``DCGM_FI_DEV_*``, labels ``gpu``,
``UUID``, ``pci_bus_id``, ``device``, ``modelName``, ``Hostname``/``hostname``,
``DCGM_FI_DRIVER_VERSION``) so the stock Grafana dashboards work unchanged.
Sources: dcgm-exporter ``etc/default-counters.csv`` and
``internal/pkg/rendermetrics/render_metrics.go``; DCGM ``dcgm_fields.h``.
``hostname`` replaced ``Hostname`` in dcgm-exporter (2026-05-12, #655): we send
both so dashboards of either age match.

A metric the GPU does not report is left out, never sent as 0. Our extras use
the ``gpu_assistant_`` prefix.
"""
from __future__ import annotations

import operator
import socket
from dataclasses import dataclass
from collections.abc import Callable, Iterable, Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from services.telemetry.fields import GPU_FIELD
from services.telemetry.model import DeviceState, GpuInfo, GpuSample, Snapshot
from services.telemetry.throttle import REASONS

PREFIX = "gpu_assistant_"
LABELS = ["gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname", "hostname", "DCGM_FI_DRIVER_VERSION"]


@dataclass(frozen=True, slots=True)
class DcgmField:
    name: str
    kind: str  # "gauge" | "counter"
    help: str
    read: Callable[[GpuSample, GpuInfo | None], float | None]


def _mib_free(s: GpuSample, _i: GpuInfo | None) -> float | None:
    if s.memory_total_mib is None or s.memory_used_mib is None:
        return None
    return max(0.0, s.memory_total_mib - s.memory_used_mib)


def _energy_mj(s: GpuSample, _i: GpuInfo | None) -> float | None:
    return None if s.energy_j is None else s.energy_j * 1000.0


def _throttle_mask(s: GpuSample, _i: GpuInfo | None) -> float | None:
    if s.throttle_reasons is None:
        return None
    return float(sum(r.bit for r in REASONS if r.code in s.throttle_reasons))


def _sample_field(name: str) -> DcgmField:
    """A GpuSample field published as it is, named and described by the field table."""
    spec = GPU_FIELD[name]
    assert spec.dcgm is not None, name
    get = operator.attrgetter(name)
    if spec.integer:
        def read(s: GpuSample, _i: GpuInfo | None) -> float | None:
            value = get(s)
            return None if value is None else float(value)
    else:
        def read(s: GpuSample, _i: GpuInfo | None) -> float | None:
            return get(s)
    return DcgmField(spec.dcgm, spec.dcgm_type, spec.dcgm_help, read)


# In dcgm-exporter's order; help texts as in its default-counters.csv (the sample fields' in the field table).
DCGM_FIELDS: tuple[DcgmField, ...] = (
    _sample_field("sm_clock_mhz"),
    _sample_field("mem_clock_mhz"),
    _sample_field("memory_temperature_c"),
    _sample_field("temperature_c"),
    _sample_field("power_w"),
    DcgmField("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter",
              "Total energy consumption since boot (in mJ).", _energy_mj),
    _sample_field("utilization_pct"),
    _sample_field("memory_utilization_pct"),
    _sample_field("encoder_pct"),
    _sample_field("decoder_pct"),
    DcgmField("DCGM_FI_DEV_FB_FREE", "gauge", "Frame buffer memory free (in MiB).", _mib_free),
    _sample_field("memory_used_mib"),
    _sample_field("memory_total_mib"),
    _sample_field("fan_pct"),
    _sample_field("pstate"),
    _sample_field("power_limit_w"),
    _sample_field("pcie_gen"),
    _sample_field("pcie_width"),
    DcgmField("DCGM_FI_DEV_PCIE_MAX_LINK_GEN", "gauge", "PCIe max link generation.",
              lambda s, i: None if i is None or i.pcie_gen_max is None else float(i.pcie_gen_max)),
    DcgmField("DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH", "gauge", "PCIe max link width.",
              lambda s, i: None if i is None or i.pcie_width_max is None else float(i.pcie_width_max)),
    DcgmField("DCGM_FI_DEV_SLOWDOWN_TEMP", "gauge", "Slowdown temperature (in C).",
              lambda s, i: None if i is None else i.temp_slowdown_c),
    DcgmField("DCGM_FI_DEV_SHUTDOWN_TEMP", "gauge", "Shutdown temperature (in C).",
              lambda s, i: None if i is None else i.temp_shutdown_c),
    DcgmField("DCGM_FI_DEV_MAX_SM_CLOCK", "gauge", "Maximum SM clock (in MHz).",
              lambda s, i: None if i is None else i.sm_clock_max_mhz),
    DcgmField("DCGM_FI_DEV_MAX_MEM_CLOCK", "gauge", "Maximum memory clock (in MHz).",
              lambda s, i: None if i is None else i.mem_clock_max_mhz),
    DcgmField("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "gauge", "Current clock event reasons (bitmask).", _throttle_mask),
    _sample_field("ecc_corrected"),
    _sample_field("ecc_uncorrected"),
)


def gpu_labels(sample: GpuSample, info: GpuInfo | None, hostname: str) -> list[str]:
    return [
        str(sample.index),
        sample.uuid,
        (info.pci_bus_id or "") if info else "",
        f"nvidia{sample.index}",
        info.name if info else "",
        hostname,
        hostname,
        (info.driver_version or "") if info else "",
    ]


class TelemetryCollector(Collector):
    """A prometheus_client collector reading the latest snapshot at scrape time.

    ``latest`` returns the newest Snapshot (or None before the first one);
    ``throttle_seconds(uuid)`` returns seconds spent per clock-event code (by the GPU's UUID, so a
    card that changed index keeps its own count; an int index is accepted where there is no UUID).
    """

    def __init__(
        self,
        latest: Callable[[], Snapshot | None],
        throttle_seconds: Callable[[int | str], dict[str, float]] | None = None,
        hostname: str | None = None,
    ) -> None:
        self._latest = latest
        self._throttle_seconds = throttle_seconds
        self.hostname = hostname or socket.gethostname()

    def describe(self) -> Iterable:
        return []  # no description at registration: collect() reads live data

    def cache_key(self) -> object:
        """What the rendered page depends on: the snapshot (a new one each tick, with the throttle
        counts updated beside it). Scrapes of the same snapshot can share one rendering."""
        snapshot = self._latest()
        return None if snapshot is None else (id(snapshot), snapshot.t)

    def collect(self) -> Iterator:
        snapshot = self._latest()
        if snapshot is None:
            return
        infos = {g.index: g for g in snapshot.gpus}
        ok_samples = [s for s in snapshot.samples if s.state == DeviceState.OK]
        for field in DCGM_FIELDS:
            family = _family(field.name, field.kind, field.help, LABELS)
            for sample in ok_samples:
                info = infos.get(sample.index)
                value = field.read(sample, info)
                if value is None or value != value:  # None or NaN: leave the series out
                    continue
                family.add_metric(gpu_labels(sample, info, self.hostname), float(value))
            if family.samples:
                yield family
        yield from self._extras(snapshot, infos)

    def _extras(self, snapshot: Snapshot, infos: dict[int, GpuInfo]) -> Iterator:
        state = GaugeMetricFamily(PREFIX + "device_state", "1 for the GPU's current state (ok, sleeping, lost, ...).",
                                  labels=LABELS + ["state"])
        for sample in snapshot.samples:
            state.add_metric(gpu_labels(sample, infos.get(sample.index), self.hostname) + [sample.state.value], 1.0)
        yield state
        if self._throttle_seconds is not None:
            seconds = GaugeMetricFamily(
                PREFIX + "clock_event_seconds",
                "Seconds spent in each clock-event (throttle) reason since monitoring began.",
                labels=LABELS + ["clock_event"],
            )
            for sample in snapshot.samples:
                for code, value in sorted(self._throttle_seconds(sample.uuid or sample.index).items()):
                    seconds.add_metric(gpu_labels(sample, infos.get(sample.index), self.hostname) + [code], float(value))
            if seconds.samples:
                yield seconds
        active = GaugeMetricFamily(PREFIX + "clock_event_active", "1 while the clock-event reason is active.",
                                   labels=LABELS + ["clock_event"])
        procs = GaugeMetricFamily(PREFIX + "process_gpu_memory_bytes", "GPU memory used by a process.",
                                  labels=LABELS + ["pid", "process", "user", "type"])
        for sample in snapshot.samples:
            if sample.state != DeviceState.OK:
                continue
            labels = gpu_labels(sample, infos.get(sample.index), self.hostname)
            if sample.throttle_reasons is not None:
                for reason in REASONS:
                    active.add_metric(labels + [reason.code], 1.0 if reason.code in sample.throttle_reasons else 0.0)
            for proc in sample.processes or ():
                if proc.used_mib is None:
                    continue
                procs.add_metric(labels + [str(proc.pid), proc.name, proc.user or "", proc.kind],
                                 proc.used_mib * 1024 * 1024)
        if active.samples:
            yield active
        if procs.samples:
            yield procs


def _family(name: str, kind: str, help_text: str, labels: list[str]):
    if kind == "counter":
        return CounterMetricFamily(name, help_text, labels=labels)
    return GaugeMetricFamily(name, help_text, labels=labels)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def render_text(families: Iterable) -> bytes:
    """Prometheus text format 0.0.4, with counters under their exact names.

    prometheus_client's own renderer appends ``_total`` to every counter, but
    dcgm-exporter exposes e.g. ``DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION`` bare;
    dashboards query that name, so we render the families ourselves.
    """
    lines: list[str] = []
    for family in families:
        name = family.name
        lines.append(f"# HELP {name} {family.documentation}")
        lines.append(f"# TYPE {name} {family.type}")
        for sample in family.samples:
            if sample.name.endswith("_created"):
                continue
            labels = ",".join(f'{k}="{_escape(str(v))}"' for k, v in sample.labels.items())
            value = repr(float(sample.value))
            lines.append(f"{name}{{{labels}}} {value}" if labels else f"{name} {value}")
    return ("\n".join(lines) + "\n").encode("utf-8")
