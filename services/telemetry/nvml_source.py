"""The real telemetry source: NVIDIA GPUs through NVML, the host through psutil.

Readings are tiered (``Tier``): a tick reads only what it is asked for, and a
field of a tier not read is None in the sample. Carrying the last slow values
into the fast readings between them is done once, by ``carry.SlowFieldCarry``
(the hub and ``monitor`` both use it), for every source. A GPU that is not OK
gives a sample with its state and no values (never stale values presented as
live).

Failures stay per GPU: a lost GPU or an unknown error marks that GPU and is
retried with exponential backoff; errors that only a fresh start can clear
(resume from suspend, GPU lost, driver reloaded) re-initialise NVML, after
which every GPU is found again by UUID (indexes can change).

On Linux a runtime-suspended GPU (``power/runtime_status`` in sysfs) is not
touched: asking NVML about it would wake it and cost a laptop battery. When
every NVIDIA GPU is suspended, NVML is not even started until one wakes (its
name and PCI id then come from sysfs).
"""
from __future__ import annotations

import dataclasses
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable

from services.i18n import Msg, translate
from services.telemetry import throttle
from services.telemetry.fields import READING_FIELDS
from services.telemetry.model import (
    DeviceState, GpuInfo, GpuSample, ProcessSample, SourceKind, SourceStatus, Snapshot, Tier,
)
from services.telemetry.nvml import (
    Attempt, DeviceFailure, Nvml, NvmlUnavailable, clean, text,
)
from services.telemetry.nvml_metrics import (
    FEATURE_ENABLED, PSTATE_UNKNOWN, MetricReader, as_float, as_mib, as_pct, first_value, read_plan, scaled,
)
from services.telemetry.nvml_sysfs import NVIDIA_VENDOR, nvidia_display_devices, read_sysfs, sysfs_bus_id
from services.telemetry.system import SystemProbe, process_identity

_BACKOFF_FIRST_S = 2.0
_BACKOFF_MAX_S = 60.0


@dataclass
class _Slot:
    """One GPU as we know it, kept across re-inits (keyed by UUID)."""

    key: str  # the UUID; "unavailable-<index>" when even the UUID could not be read
    index: int
    handle: Any
    info: GpuInfo
    sysfs_bus_id: str | None = None
    runtime_status_path: str | None = None  # sysfs power/runtime_status of this GPU
    state: DeviceState = DeviceState.OK
    detail: Msg | str | None = None  # why it is not OK; a Msg when it can be translated
    needs_reinit: bool = False
    failures: int = 0
    retry_at: float = 0.0
    static_done: bool = False
    supported_throttle_mask: int | None = None
    ecc_enabled: bool = False
    plan: dict[str, tuple[Attempt, ...]] = field(default_factory=dict)


class NvmlSource:
    """``TelemetrySource`` over NVML. No method raises."""

    name = "nvml"
    kind = SourceKind.NVML
    path = None

    def __init__(self, nvml_module: Any = None, *, sysfs_root: str | os.PathLike = "/",
                 clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time,
                 system_probe: SystemProbe | None = None,
                 runtime_pm: bool | None = None) -> None:
        self.nvml = Nvml(nvml_module)
        self._clock = clock
        self._wall_clock = wall_clock  # the clock NVML stamps per-process samples with
        self._pci_devices = Path(sysfs_root) / "sys" / "bus" / "pci" / "devices"
        # Runtime PM lives in sysfs on Linux only; other systems never skip a GPU.
        self._runtime_pm = sys.platform.startswith("linux") if runtime_pm is None else runtime_pm
        self._system = system_probe if system_probe is not None else SystemProbe(clock=clock)
        self._slots: list[_Slot] = []
        self._infos: tuple[GpuInfo, ...] = ()
        self._status = SourceStatus(DeviceState.ERROR, "not opened")
        self._opened = False
        self._source_failures = 0
        self._source_retry_at = 0.0
        self._driver_version: str | None = None
        self._cuda_version: str | None = None
        self._identities: dict[int, tuple[str | None, str | None]] = {}
        self._deferred = False  # every NVIDIA GPU asleep: NVML not started yet
        self._nvidia_pci: list[str] | None = None  # sysfs bus ids of NVIDIA display devices

    # ---- TelemetrySource

    def open(self) -> SourceStatus:
        self._opened = True
        asleep = self._all_nvidia_gpus_asleep() if not self.nvml.initialized else []
        if asleep:
            # Starting NVML talks to every GPU; with all of them runtime-suspended
            # that could wake them, so wait until one wakes up by itself.
            self._deferred = True
            if not self._slots:
                self._slots = [_sleeping_placeholder(i, bdf, self._pci_devices) for i, bdf in enumerate(asleep)]
            for slot in self._slots:
                slot.state, slot.detail = DeviceState.SLEEPING, _ASLEEP_DETAIL
            self._publish_infos()
            self._status = _status(DeviceState.OK, translate(
                "NvmlState", "every NVIDIA GPU is asleep (runtime-suspended); monitoring starts when one wakes"))
            return self._status
        if self._deferred:
            self._deferred = False
            self._slots = [s for s in self._slots if not s.key.startswith("pci-")]
        try:
            self.nvml.init()
            self._read_system_versions()
            self._enumerate()
        except NvmlUnavailable as exc:
            self._source_failed(exc.state, exc.text or exc.message)
            return self._status
        except DeviceFailure as exc:  # even the GPU count failed
            self.nvml.shutdown()
            self._source_failed(exc.state, exc.text or exc.message)
            return self._status
        except Exception as exc:  # a source never raises; say what happened
            self._source_failed(DeviceState.ERROR, translate("NvmlState", "NVML failed: {error}").format(error=repr(exc)))
            return self._status
        self._source_failures = 0
        self._status = _status(DeviceState.OK, None if self._slots else translate("NvmlState", "NVML found no NVIDIA GPU"))
        return self._status

    def close(self) -> None:
        self._opened = False
        self.nvml.shutdown()

    def devices(self) -> tuple[GpuInfo, ...]:
        return self._infos

    def read(self, tiers: Tier, now: float) -> Snapshot:
        try:
            return self._read(tiers, now)
        except Exception as exc:  # last line of defence: a state, not a traceback
            status = _status(DeviceState.ERROR,
                             translate("NvmlState", "telemetry read failed: {error}").format(error=repr(exc)))
            samples = tuple(GpuSample(t=now, index=s.index, uuid=s.key, state=DeviceState.ERROR,
                                      state_detail=status.message, state_detail_text=status.text)
                            for s in self._slots)
            return Snapshot(t=now, status=status, gpus=self._infos, samples=samples)

    # ---- reading

    def _read(self, tiers: Tier, now: float) -> Snapshot:
        if not self._opened:
            self.open()
        elif self._deferred:
            self.open()  # a cheap sysfs check until a GPU wakes; then NVML starts
        elif not self.nvml.initialized and self._clock() >= self._source_retry_at:
            self.open()
        system = self._system.sample(now) if tiers & Tier.FAST else None
        if not self.nvml.initialized:
            samples = tuple(self._state_sample(s, now) for s in self._slots)
            return Snapshot(t=now, status=self._status, gpus=self._infos, samples=samples, system=system)
        self._retry_failed()
        samples = tuple(self._read_slot(slot, tiers, now) for slot in self._slots)
        if tiers & Tier.SLOW:
            live = {p.pid for s in samples for p in (s.processes or ())}
            self._system.forget_processes(live)
            self._identities = {pid: v for pid, v in self._identities.items() if pid in live}
        return Snapshot(t=now, status=self._status, gpus=self._infos, samples=samples, system=system)

    def _read_slot(self, slot: _Slot, tiers: Tier, now: float) -> GpuSample:
        if slot.state not in (DeviceState.OK, DeviceState.SLEEPING):
            return self._state_sample(slot, now)  # still waiting for its retry
        if self._is_suspended(slot):
            slot.state = DeviceState.SLEEPING
            slot.detail = _ASLEEP_DETAIL
            return self._state_sample(slot, now)
        if slot.state is DeviceState.SLEEPING:
            # Awake again: what we knew before it slept is stale.
            slot.state, slot.detail = DeviceState.OK, None
            tiers |= Tier.FAST | Tier.SLOW
        values: dict[str, Any] = {}  # this read's fields only (the carry fills the other tier's)
        try:
            if tiers & Tier.STATIC or not slot.static_done:
                self._read_static(slot)
            reader = MetricReader(self.nvml)
            if tiers & Tier.FAST:
                self._read_fast(slot, reader, values)
            if tiers & Tier.SLOW:
                self._read_slow(slot, reader, values)
            reader.check()
        except DeviceFailure as failure:
            self._slot_failed(slot, failure)
            return self._state_sample(slot, now)
        slot.failures = 0
        fields: dict[str, Any] = {name: values.get(name) for name in READING_FIELDS}
        return GpuSample(t=now, index=slot.index, uuid=slot.key, **fields)

    def _read_fast(self, slot: _Slot, q: MetricReader, v: dict[str, Any]) -> None:
        key, plan = slot.key, slot.plan
        util = q(key, "utilization", plan["utilization"])
        v["utilization_pct"] = as_pct(clean(util.gpu)) if util is not None else None
        v["memory_utilization_pct"] = as_pct(clean(util.memory)) if util is not None else None
        memory = q(key, "memory", plan["memory"])
        if memory is not None:
            v["memory_used_mib"] = as_mib(memory.used)
            v["memory_total_mib"] = as_mib(memory.total)
        else:
            v["memory_used_mib"] = v["memory_total_mib"] = None
        v["temperature_c"] = as_float(q(key, "temperature", plan["temperature"]))
        v["memory_temperature_c"] = as_float(q(key, "memory_temperature", plan["memory_temperature"]))
        v["power_w"] = scaled(q(key, "power", plan["power"]), 1e-3)
        v["power_limit_w"] = scaled(q(key, "power_limit", plan["power_limit"]), 1e-3)
        v["energy_j"] = scaled(q(key, "energy", plan["energy"]), 1e-3)
        v["sm_clock_mhz"] = as_float(q(key, "sm_clock", plan["sm_clock"]))
        v["mem_clock_mhz"] = as_float(q(key, "mem_clock", plan["mem_clock"]))
        pstate = q(key, "pstate", plan["pstate"])
        v["pstate"] = pstate if isinstance(pstate, int) and 0 <= pstate < PSTATE_UNKNOWN else None
        mask = q(key, "throttle", plan["throttle"])
        v["throttle_reasons"] = throttle.decode(mask, slot.supported_throttle_mask)

    def _read_slow(self, slot: _Slot, q: MetricReader, v: dict[str, Any]) -> None:
        key, plan = slot.key, slot.plan
        v["fan_pct"] = as_float(q(key, "fan", plan["fan"]))
        v["pcie_gen"] = q(key, "pcie_gen", plan["pcie_gen"])
        v["pcie_width"] = q(key, "pcie_width", plan["pcie_width"])
        v["encoder_pct"] = as_pct(first_value(q(key, "encoder", plan["encoder"])))
        v["decoder_pct"] = as_pct(first_value(q(key, "decoder", plan["decoder"])))
        if slot.ecc_enabled:
            v["ecc_corrected"] = q(key, "ecc_corrected", plan["ecc_corrected"])
            v["ecc_uncorrected"] = q(key, "ecc_uncorrected", plan["ecc_uncorrected"])
        v["processes"] = self._read_processes(slot, q)

    def _read_processes(self, slot: _Slot, query: MetricReader) -> tuple[ProcessSample, ...] | None:
        merged: dict[int, list[Any]] = {}  # pid -> [kinds, used bytes]
        answered = False
        for kind in ("compute", "graphics"):
            listed = query(slot.key, f"processes_{kind}", slot.plan[f"processes_{kind}"])
            if listed is None:
                continue
            answered = True
            for proc in listed:
                pid = int(proc.pid)
                used = clean(getattr(proc, "usedGpuMemory", None))
                entry = merged.setdefault(pid, [[], None])
                entry[0].append(kind)
                if used is not None:
                    # A process with both contexts is listed twice for the same
                    # memory; take the larger figure rather than adding them.
                    entry[1] = used if entry[1] is None else max(entry[1], used)
        if not answered:
            return None
        # Per-process SM/encoder/decoder share; None where the driver keeps no samples (WDDM).
        util = query(slot.key, "process_utilization", slot.plan["process_utilization"]) if merged else None
        samples = []
        for pid, (kinds, used) in sorted(merged.items()):
            name, user = self._identity(pid)
            share = util.get(pid) if util is not None else None
            idle = 0.0 if util is not None else None  # listed, no sample in the last second: it did no work
            samples.append(ProcessSample(
                pid=pid, name=name, user=user, kind="+".join(kinds),
                used_mib=as_mib(used) if used is not None else None,
                cpu_pct=self._system.process_cpu_pct(pid),
                sm_pct=share.sm_pct if share is not None else idle,
                encoder_pct=share.encoder_pct if share is not None else idle,
                decoder_pct=share.decoder_pct if share is not None else idle,
            ))
        return tuple(samples)

    def _identity(self, pid: int) -> tuple[str, str | None]:
        cached = self._identities.get(pid)
        if cached is None:  # looked up once per process (the cache drops pids that left the GPU)
            name, user = process_identity(pid)
            if name is None:
                # Not visible here (another PID namespace: a container without
                # --pid=host) or already gone: NVML may still know its name.
                try:
                    nvml_name = text(self.nvml.call("nvmlSystemGetProcessName", pid))
                except Exception:  # best effort only
                    nvml_name = None
                name = os.path.basename(nvml_name) if nvml_name else None
            cached = (name, user)
            self._identities[pid] = cached
        return cached[0] or "?", cached[1]

    def _read_static(self, slot: _Slot) -> None:
        q, key, plan = MetricReader(self.nvml), slot.key, slot.plan
        memory = q(key, "memory", plan["memory"])
        ecc_mode = q(key, "ecc_mode", plan["ecc_mode"])
        slot.ecc_enabled = bool(ecc_mode) and ecc_mode[0] == FEATURE_ENABLED
        slot.supported_throttle_mask = q(key, "throttle_supported", plan["throttle_supported"])
        slot.info = dataclasses.replace(
            slot.info,
            driver_version=self._driver_version,
            cuda_driver_version=self._cuda_version,
            memory_total_mib=as_mib(memory.total) if memory is not None else None,
            power_limit_default_w=scaled(q(key, "power_limit_default", plan["power_limit_default"]), 1e-3),
            temp_slowdown_c=as_float(q(key, "temp_slowdown", plan["temp_slowdown"])),
            temp_shutdown_c=as_float(q(key, "temp_shutdown", plan["temp_shutdown"])),
            sm_clock_max_mhz=as_float(q(key, "sm_clock_max", plan["sm_clock_max"])),
            mem_clock_max_mhz=as_float(q(key, "mem_clock_max", plan["mem_clock_max"])),
            pcie_gen_max=q(key, "pcie_gen_max", plan["pcie_gen_max"]),
            pcie_width_max=q(key, "pcie_width_max", plan["pcie_width_max"]),
            ecc_supported=self.nvml.supported(key, "ecc_mode"),
        )
        q.check()
        slot.static_done = True
        self._publish_infos()

    def _read_system_versions(self) -> None:
        q = self.nvml.query
        self._driver_version = text(q("system", "driver_version", (Attempt("nvmlSystemGetDriverVersion"),)))
        cuda = q("system", "cuda_version", (Attempt("nvmlSystemGetCudaDriverVersion_v2"),
                                            Attempt("nvmlSystemGetCudaDriverVersion")))
        self._cuda_version = f"{cuda // 1000}.{(cuda % 1000) // 10}" if isinstance(cuda, int) and cuda > 0 else None

    # ---- devices: enumeration, identity, failure and recovery

    def _enumerate(self) -> None:
        """Find every GPU and match it to what we knew by UUID (indexes can change)."""
        count = self.nvml.device_call("nvmlDeviceGetCount")
        found: list[tuple[int, Any, str | None, DeviceFailure | None]] = []
        for index in range(count):
            try:
                handle = self.nvml.device_call("nvmlDeviceGetHandleByIndex", index)
                uuid = text(self.nvml.device_call("nvmlDeviceGetUUID", handle))
                found.append((index, handle, uuid or None, None))
            except DeviceFailure as exc:
                found.append((index, None, None, exc))
        seen = {uuid for _, _, uuid, _ in found if uuid}
        # Slots whose GPU did not answer with a UUID this time, by the index it had.
        unmatched = {s.index: s for s in self._slots if s.key not in seen}
        known = {s.key: s for s in self._slots}
        slots: list[_Slot] = []
        for index, handle, uuid, failure in found:
            if uuid is None:
                # No identity: keep the history of the GPU that sat at this index, if any.
                slot = unmatched.pop(index) if index in unmatched else _Slot(
                    key=f"unavailable-{index}", index=index, handle=None,
                    info=GpuInfo(index=index, name="NVIDIA GPU", uuid=f"unavailable-{index}"))
                known.pop(slot.key, None)
                slot.handle = None
                self._slot_failed(slot, failure or DeviceFailure(None, translate("NvmlState", "GPU has no UUID")))
                slots.append(slot)
                continue
            slot = known.pop(uuid) if uuid in known else _Slot(key=uuid, index=index, handle=handle,
                                                              info=GpuInfo(index=index, name="NVIDIA GPU", uuid=uuid))
            slot.index, slot.handle = index, handle
            # failures is reset by the next good reading, so a GPU that keeps
            # failing right after a restart still backs off.
            slot.state, slot.detail, slot.needs_reinit = DeviceState.OK, None, False
            slot.plan = read_plan(self.nvml, handle, self._wall_clock)
            try:
                slot.info = self._identify(slot)
                if not self._is_suspended(slot):
                    self._read_static(slot)
            except DeviceFailure as exc:
                self._slot_failed(slot, exc)
            slots.append(slot)
        for missing in known.values():
            if missing.key.startswith("unavailable-") or any(missing is s for s in slots):
                continue  # a placeholder that now has its real identity, or reused above
            missing.handle = None
            self._slot_failed(missing, DeviceFailure(None, translate("NvmlState", "GPU no longer found after NVML restart")),
                              state=DeviceState.LOST)
            slots.append(missing)
        self._slots = slots
        self._publish_infos()

    def _identify(self, slot: _Slot) -> GpuInfo:
        """Name and PCI identity; the rest of the static facts wait until it is awake."""
        q = self.nvml.query
        name = text(q(slot.key, "name", slot.plan["name"])) or "NVIDIA GPU"
        pci = q(slot.key, "pci", slot.plan["pci"])
        bus_id = text(getattr(pci, "busId", None)) if pci is not None else None
        slot.sysfs_bus_id = sysfs_bus_id(bus_id)
        slot.runtime_status_path = (os.path.join(self._pci_devices, slot.sysfs_bus_id, "power", "runtime_status")
                                    if slot.sysfs_bus_id else None)
        device_id = clean(getattr(pci, "pciDeviceId", None)) if pci is not None else None
        return dataclasses.replace(slot.info, index=slot.index, name=name, uuid=slot.key,
                                   pci_bus_id=bus_id or None, pci_device_id=device_id,
                                   driver_version=self._driver_version,
                                   cuda_driver_version=self._cuda_version)

    def _publish_infos(self) -> None:
        # Swapped as a whole so another thread calling devices() sees a consistent tuple.
        self._infos = tuple(s.info for s in self._slots)

    def _slot_failed(self, slot: _Slot, failure: DeviceFailure, state: DeviceState | None = None) -> None:
        slot.state = state or failure.state
        slot.detail = failure.text or failure.message
        slot.needs_reinit = slot.needs_reinit or failure.needs_reinit or state is DeviceState.LOST
        slot.failures += 1
        delay = min(_BACKOFF_MAX_S, _BACKOFF_FIRST_S * 2 ** (slot.failures - 1))
        slot.retry_at = self._clock() + delay

    def _retry_failed(self) -> None:
        now = self._clock()
        due = [s for s in self._slots
               if s.state not in (DeviceState.OK, DeviceState.SLEEPING) and now >= s.retry_at]
        if not due:
            return
        if any(s.needs_reinit or s.handle is None for s in due):
            try:
                self.nvml.reinit()
                self._read_system_versions()
                self._enumerate()
            except NvmlUnavailable as exc:
                self._source_failed(exc.state, exc.text or exc.message)
            except DeviceFailure as exc:
                self.nvml.shutdown()
                self._source_failed(exc.state, exc.text or exc.message)
            return
        for slot in due:
            try:
                handle = self.nvml.device_call("nvmlDeviceGetHandleByUUID", slot.key)
            except DeviceFailure as failure:
                self._slot_failed(slot, failure)
                continue
            slot.handle, slot.plan = handle, read_plan(self.nvml, handle, self._wall_clock)
            slot.state, slot.detail = DeviceState.OK, None

    def _source_failed(self, state: DeviceState, message: Msg | str) -> None:
        self._status = _status(state, message)
        self._source_failures += 1
        delay = min(_BACKOFF_MAX_S, _BACKOFF_FIRST_S * 2 ** (self._source_failures - 1))
        self._source_retry_at = self._clock() + delay
        for slot in self._slots:
            slot.state, slot.detail, slot.handle = state, message, None

    def _is_suspended(self, slot: _Slot) -> bool:
        if not self._runtime_pm or slot.runtime_status_path is None:
            return False
        try:
            with open(slot.runtime_status_path, encoding="ascii", errors="replace") as fh:
                status = fh.read()
        except OSError:
            return False  # no runtime PM for this device (desktops): always awake
        return status.strip() in ("suspended", "suspending")

    def _all_nvidia_gpus_asleep(self) -> list[str]:
        """Bus ids of the NVIDIA GPUs if every one of them is runtime-suspended, else []."""
        if not self._runtime_pm:
            return []
        if self._nvidia_pci is None:
            self._nvidia_pci = nvidia_display_devices(self._pci_devices)
        if not self._nvidia_pci:
            return []
        for bdf in self._nvidia_pci:
            status = read_sysfs(os.path.join(self._pci_devices, bdf, "power", "runtime_status"))
            if status not in ("suspended", "suspending"):
                return []
        return list(self._nvidia_pci)

    @staticmethod
    def _state_sample(slot: _Slot, now: float) -> GpuSample:
        detail = slot.detail
        return GpuSample(t=now, index=slot.index, uuid=slot.key, state=slot.state,
                         state_detail=None if detail is None else str(detail),
                         state_detail_text=detail if isinstance(detail, Msg) else None)

    # ---- for tests and diagnostics

    def unsupported_metrics(self, uuid: str) -> list[str]:
        return self.nvml.unsupported_metrics(uuid)


_ASLEEP_DETAIL = translate("NvmlState", "runtime-suspended by the system; not polled so it can stay asleep")


def _sleeping_placeholder(index: int, bdf: str, pci_devices: Path) -> _Slot:
    """What sysfs alone can say about a GPU NVML has not been asked about."""
    device = read_sysfs(os.path.join(pci_devices, bdf, "device"))
    try:
        # NVML's pciDeviceId is (device << 16) | vendor.
        pci_device_id = (int(device, 16) << 16) | int(NVIDIA_VENDOR, 16) if device else None
    except ValueError:
        pci_device_id = None
    nvml_bus_id = ("0000" + bdf).upper() if len(bdf) == 12 else bdf.upper()
    info = GpuInfo(index=index, name="NVIDIA GPU", uuid=f"pci-{bdf}", pci_bus_id=nvml_bus_id,
                   pci_device_id=pci_device_id)
    return _Slot(key=f"pci-{bdf}", index=index, handle=None, info=info, sysfs_bus_id=bdf,
                 state=DeviceState.SLEEPING, detail=_ASLEEP_DETAIL)


def _status(state: DeviceState, message: Msg | str | None) -> SourceStatus:
    """A status with the English line and, when it is a Msg, the translatable one."""
    return SourceStatus(state, None if message is None else str(message),
                        text=message if isinstance(message, Msg) else None)

