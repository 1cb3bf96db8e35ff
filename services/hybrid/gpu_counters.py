"""Windows' per-process GPU counters, as the process view (services.telemetry.processes) uses them.

Under WDDM, NVML lists a process but not its memory ("not available"), and keeps no
per-process utilisation samples; Task Manager and System Informer read the same
figures from two performance-counter sets, which this module turns into one record
per (process, adapter):

- ``\\GPU Process Memory(pid_<pid>_luid_<hi>_<lo>_phys_<n>)\\Dedicated Usage`` and
  ``...\\Shared Usage``: bytes of the card's own memory, and of system memory the
  adapter maps for the process (a model that no longer fits spills there);
- ``\\GPU Engine(pid_<pid>_luid_<hi>_<lo>_phys_<n>_eng_<e>_engtype_<type>)\\Utilization
  Percentage``: that process's share of one engine over the last interval.

A process's busy figure is its busiest 3D/compute engine, the way Task Manager's GPU
column is the busiest engine (summing several 3D engines gives more than 100 %, PowerToys
#48710); video encode/decode are kept apart.

The live reader keeps one PDH query open and collects it once per refresh (a rate needs
two collections; the first refresh has memory but no engine figures). The parsers read
the two text forms people publish and the tests replay: ``Get-Counter``'s default output
(paths lower-cased, ``path :`` then the value on the next line) and ``typeperf``'s CSV
(``"(PDH-CSV 4.0)"`` header, one column per instance).
"""
from __future__ import annotations

import csv
import io
import re
from typing import Any

from services.hybrid.windows import (
    DEDICATED_COUNTER, ENGINE_COUNTER, SHARED_COUNTER, CounterSample, PdhCounterSource, is_work_engtype,
    parse_engine_instance, parse_memory_instance,
)
from services.telemetry.processes import AdapterProcess

_MIB = 2**20
# "\\host\gpu engine(instance)\utilization percentage" in any case, with or without the host part.
_PATH = re.compile(r"^(?:\\\\[^\\]+)?\\(gpu engine|gpu process memory)\((.+)\)\\(.+?)$", re.IGNORECASE)
_ENCODE = re.compile(r"^video ?encode", re.IGNORECASE)
_DECODE = re.compile(r"^video ?decode|^videoprocessing", re.IGNORECASE)


def per_process(sample: CounterSample) -> dict[tuple[int, str], AdapterProcess]:
    """(pid, luid) -> the process's figures on that adapter."""
    memory: dict[tuple[int, str], list[float | None]] = {}
    for values, slot in ((sample.dedicated_bytes, 0), (sample.shared_bytes, 1)):
        for name, value in values.items():
            key = parse_memory_instance(name)
            if key is None:
                continue
            entry = memory.setdefault(key, [None, None])
            entry[slot] = (entry[slot] or 0.0) + value / _MIB  # several phys_ of one adapter add up
    engines: dict[tuple[int, str], dict[str, Any]] = {}
    for name, value in sample.engine_utilization.items():
        inst = parse_engine_instance(name)
        if inst is None:
            continue
        eng = engines.setdefault((inst.pid, inst.luid), {"busy": None, "type": None, "enc": None, "dec": None})
        value = max(0.0, min(100.0, value))
        if is_work_engtype(inst.engtype):
            if eng["busy"] is None or value > eng["busy"]:
                eng["busy"], eng["type"] = value, inst.engtype
        elif _ENCODE.match(inst.engtype):
            eng["enc"] = max(eng["enc"] or 0.0, value)
        elif _DECODE.match(inst.engtype):
            eng["dec"] = max(eng["dec"] or 0.0, value)
    result = {}
    for key in set(memory) | set(engines):
        dedicated, shared = memory.get(key, (None, None))
        e = engines.get(key, {})
        result[key] = AdapterProcess(pid=key[0], adapter=key[1], dedicated_mib=dedicated, shared_mib=shared,
                                    busy_pct=e.get("busy"), engine_type=e.get("type"),
                                    encoder_pct=e.get("enc"), decoder_pct=e.get("dec"))
    return result


def _add(target: CounterSample, path: str, value: float) -> bool:
    match = _PATH.match(path.strip())
    if match is None:
        return False
    counter_set, instance, counter = (g.lower() for g in match.groups())
    if counter_set == "gpu engine" and counter == "utilization percentage":
        bucket = target.engine_utilization
    elif counter_set == "gpu process memory" and counter == "dedicated usage":
        bucket = target.dedicated_bytes
    elif counter_set == "gpu process memory" and counter == "shared usage":
        bucket = target.shared_bytes
    else:
        return False
    instance = match.group(2)
    bucket[instance] = bucket.get(instance, 0.0) + value
    return True


def _empty() -> CounterSample:
    return CounterSample(engine_utilization={}, dedicated_bytes={}, shared_bytes={})


def parse_get_counter(text: str) -> list[CounterSample]:
    """``Get-Counter`` default output, one sample per timestamp block (``-MaxSamples N`` gives N)."""
    samples: list[CounterSample] = []
    current: CounterSample | None = None
    pending: str | None = None
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip() or set(line.strip()) <= {"-", " "}:
            continue
        stripped = line.strip()
        if stripped.startswith("Timestamp") and "CounterSamples" in stripped:
            continue
        at = line.find("\\\\")
        if line.endswith(" :") and at >= 0:
            if at > 0 and line[:at].strip():  # a timestamp starts the next sample
                current = None
            if current is None:
                current = _empty()
                samples.append(current)
            pending = line[at:-2]
            continue
        if pending is not None and current is not None:
            try:
                value = float(stripped.replace(",", "."))
            except ValueError:
                value = None
            if value is not None:
                _add(current, pending, value)
            pending = None
    return samples


def parse_typeperf_csv(text: str) -> list[tuple[str, CounterSample]]:
    """``typeperf`` / Performance Monitor CSV: (timestamp as written, sample) per row."""
    rows = list(csv.reader(io.StringIO(text)))
    rows = [r for r in rows if r]
    if not rows or not rows[0] or not rows[0][0].startswith("(PDH-CSV"):
        raise ValueError("not a PDH CSV log: its first cell is not (PDH-CSV ...)")
    header = rows[0]
    result = []
    for row in rows[1:]:
        if not row or row[0].startswith("Exiting") or len(row) < 2:
            continue
        sample = _empty()
        for path, cell in zip(header[1:], row[1:], strict=False):
            try:
                value = float(cell)
            except ValueError:  # " " where the instance did not exist at that moment
                continue
            _add(sample, path, value)
        result.append((row[0], sample))
    return result


class PdhCounterSession(PdhCounterSource):
    """One PDH query kept open: each ``collect`` is one collection, no sleep (Windows only)."""

    def __init__(self, pdh: Any = None) -> None:
        super().__init__(pdh)
        self._query: Any = None
        self._counters: dict[str, Any] = {}
        self._collected = 0

    def open(self) -> None:
        ctypes = self._ctypes
        query = ctypes.c_void_p()
        self._check(self._pdh.PdhOpenQueryW(None, None, ctypes.byref(query)), "PdhOpenQueryW")
        try:
            for path in (ENGINE_COUNTER, DEDICATED_COUNTER, SHARED_COUNTER):
                handle = ctypes.c_void_p()
                self._check(self._pdh.PdhAddEnglishCounterW(query, path, None, ctypes.byref(handle)),
                            "PdhAddEnglishCounterW")
                self._counters[path] = handle
        except OSError:
            self._pdh.PdhCloseQuery(query)
            raise
        self._query = query

    def collect(self) -> CounterSample:
        if self._query is None:
            self.open()
        self._check(self._pdh.PdhCollectQueryData(self._query), "PdhCollectQueryData")
        self._collected += 1
        return CounterSample(
            # A rate needs two collections: nothing from the first.
            engine_utilization=self._array(self._counters[ENGINE_COUNTER]) if self._collected > 1 else {},
            dedicated_bytes=self._array(self._counters[DEDICATED_COUNTER]),
            shared_bytes=self._array(self._counters[SHARED_COUNTER]),
        )

    def close(self) -> None:
        if self._query is not None:
            self._pdh.PdhCloseQuery(self._query)
            self._query = None
            self._counters.clear()
            self._collected = 0


class WindowsProcessCounters:
    """The process view's ``CounterReader`` on Windows: one PDH collection per refresh, per process."""

    def __init__(self, session: PdhCounterSession | None = None) -> None:
        self._session = session if session is not None else PdhCounterSession()

    def collect(self) -> dict[tuple[int, str], AdapterProcess]:
        return per_process(self._session.collect())

    def close(self) -> None:
        self._session.close()


def windows_process_sources() -> dict[str, Any]:
    """``ProcessService`` keyword arguments for this Windows computer: its counters, and its adapters
    (from the DirectX registry) matched to the NVML GPUs. Empty when the counters cannot be opened."""
    from services.hybrid.windows import WinRegistry, read_windows_inventory
    from services.telemetry.processes import adapters_from_inventory

    try:
        counters = WindowsProcessCounters()
    except OSError:  # pdh.dll missing: the view says memory is not reported, and why
        return {}

    def adapters(gpus: Any) -> Any:
        return adapters_from_inventory(read_windows_inventory(WinRegistry()), gpus)

    return {"counters": counters, "adapters": adapters}
