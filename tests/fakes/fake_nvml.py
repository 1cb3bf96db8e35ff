"""A fake ``pynvml`` (nvidia-ml-py) module for tests, scenario-driven.

It has the same function names, signatures, constants, error classes (an
``NVMLError`` whose ``NVMLError(code)`` turns into the subclass for that code,
with the real codes) and return shapes (``c_nvmlMemory_t``-like objects,
``[value, period]`` lists, process objects with ``usedGpuMemory=None`` for the
"not available" sentinel) as nvidia-ml-py 13.x. ``tests/services/test_nvml_fake.py``
checks every name here against the installed binding so the fake cannot drift.

Scenarios are plain attributes, changed between calls::

    fake = FakeNvml([FakeGpu(), FakeGpu(name="NVIDIA GeForce RTX 3060")])
    fake.gpus[0].unsupported.add("nvmlDeviceGetFanSpeed")     # NOT_SUPPORTED
    fake.gpus[1].lost = True                                   # GPU_IS_LOST
    fake.fail_until_reinit = True                              # "Unknown Error" after resume
    fake.missing.update(OLD_DRIVER_MISSING)                    # FUNCTION_NOT_FOUND
    FakeNvml(init_error=NVML_ERROR_LIBRARY_NOT_FOUND)          # no driver

``fake.calls`` counts calls per function name.
"""
from __future__ import annotations

import ctypes
import string
from collections import Counter
from dataclasses import dataclass, field
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

# ---- constants (same values as nvidia-ml-py / nvml.h)

NVML_SUCCESS = 0
NVML_ERROR_UNINITIALIZED = 1
NVML_ERROR_INVALID_ARGUMENT = 2
NVML_ERROR_NOT_SUPPORTED = 3
NVML_ERROR_NO_PERMISSION = 4
NVML_ERROR_ALREADY_INITIALIZED = 5
NVML_ERROR_NOT_FOUND = 6
NVML_ERROR_INSUFFICIENT_SIZE = 7
NVML_ERROR_INSUFFICIENT_POWER = 8
NVML_ERROR_DRIVER_NOT_LOADED = 9
NVML_ERROR_TIMEOUT = 10
NVML_ERROR_IRQ_ISSUE = 11
NVML_ERROR_LIBRARY_NOT_FOUND = 12
NVML_ERROR_FUNCTION_NOT_FOUND = 13
NVML_ERROR_CORRUPTED_INFOROM = 14
NVML_ERROR_GPU_IS_LOST = 15
NVML_ERROR_RESET_REQUIRED = 16
NVML_ERROR_OPERATING_SYSTEM = 17
NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18
NVML_ERROR_IN_USE = 19
NVML_ERROR_MEMORY = 20
NVML_ERROR_NO_DATA = 21
NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25
NVML_ERROR_NOT_READY = 27
NVML_ERROR_UNKNOWN = 999

NVML_TEMPERATURE_GPU = 0
NVML_TEMPERATURE_THRESHOLD_SHUTDOWN = 0
NVML_TEMPERATURE_THRESHOLD_SLOWDOWN = 1
NVML_CLOCK_GRAPHICS = 0
NVML_CLOCK_SM = 1
NVML_CLOCK_MEM = 2
NVML_CLOCK_VIDEO = 3
NVML_MEMORY_ERROR_TYPE_CORRECTED = 0
NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1
NVML_VOLATILE_ECC = 0
NVML_AGGREGATE_ECC = 1
NVML_FEATURE_DISABLED = 0
NVML_FEATURE_ENABLED = 1
NVML_PSTATE_UNKNOWN = 32
NVML_FI_DEV_MEMORY_TEMP = 82
NVML_VALUE_TYPE_UNSIGNED_INT = 1
nvmlMemory_v2 = 0x02000028
nvmlTemperature_v1 = 0x100000C

NOT_AVAILABLE_UINT = 0xFFFFFFFF
NOT_AVAILABLE_ULONGLONG = 0xFFFFFFFFFFFFFFFF

# C symbols an old (pre-R510-ish) driver lacks; with them missing every metric
# must still be read through the older entry point.
OLD_DRIVER_MISSING = frozenset({
    "nvmlDeviceGetCurrentClocksEventReasons",
    "nvmlDeviceGetSupportedClocksEventReasons",
    "nvmlDeviceGetMemoryInfo_v2",
    "nvmlDeviceGetTemperatureV",
    "nvmlDeviceGetComputeRunningProcesses_v3",
    "nvmlDeviceGetGraphicsRunningProcesses_v3",
    "nvmlDeviceGetComputeRunningProcesses_v2",
    "nvmlDeviceGetGraphicsRunningProcesses_v2",
    "nvmlSystemGetCudaDriverVersion_v2",
    "nvmlDeviceGetPerformanceState",
})


# ---- errors, built the way nvidia-ml-py builds them


class NVMLError(Exception):
    _valClassMapping: dict[int, type] = {}

    def __new__(cls, value=None):
        if cls is NVMLError:
            cls = NVMLError._valClassMapping.get(value, cls)
        obj = Exception.__new__(cls)
        obj.value = value
        return obj

    def __init__(self, *args):  # the subclasses are raised without arguments
        super().__init__()

    def __str__(self) -> str:
        return _ERROR_TEXT.get(self.value, f"NVML Error with code {self.value}")

    def __eq__(self, other):
        return getattr(other, "value", None) == self.value

    __hash__ = Exception.__hash__


_ERROR_TEXT = {
    NVML_ERROR_NOT_SUPPORTED: "Not Supported",
    NVML_ERROR_NO_PERMISSION: "Insufficient Permissions",
    NVML_ERROR_DRIVER_NOT_LOADED: "Driver Not Loaded",
    NVML_ERROR_LIBRARY_NOT_FOUND: "NVML Shared Library Not Found",
    NVML_ERROR_FUNCTION_NOT_FOUND: "Function Not Found",
    NVML_ERROR_GPU_IS_LOST: "GPU is lost",
    NVML_ERROR_LIB_RM_VERSION_MISMATCH: "RM has detected an NVML/RM version mismatch.",
    NVML_ERROR_UNINITIALIZED: "Uninitialized",
    NVML_ERROR_UNKNOWN: "Unknown Error",
}

_ERROR_CLASSES: dict[str, type] = {}
for _name, _code in list(globals().items()):
    if _name.startswith("NVML_ERROR_"):
        _cls_name = "NVMLError_" + string.capwords(_name[len("NVML_ERROR_"):], "_").replace("_", "")

        def _make_new(code):
            def __new__(cls, *args):
                return NVMLError.__new__(cls, code)
            return __new__

        _cls = type(_cls_name, (NVMLError,), {"__new__": _make_new(_code)})
        NVMLError._valClassMapping[_code] = _cls
        _ERROR_CLASSES[_cls_name] = _cls
globals().update(_ERROR_CLASSES)


# ---- return shapes


class c_nvmlMemory_t(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


class c_nvmlMemory_v2_t(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("total", ctypes.c_ulonglong), ("reserved", ctypes.c_ulonglong),
                ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


class c_nvmlUtilization_t(ctypes.Structure):
    _fields_ = [("gpu", ctypes.c_uint), ("memory", ctypes.c_uint)]


class nvmlPciInfo_t(ctypes.Structure):
    _fields_ = [("busIdLegacy", ctypes.c_char * 16), ("domain", ctypes.c_uint), ("bus", ctypes.c_uint),
                ("device", ctypes.c_uint), ("pciDeviceId", ctypes.c_uint), ("pciSubSystemId", ctypes.c_uint),
                ("busId", ctypes.c_char * 32)]


@dataclass
class FakeProcess:
    pid: int
    used_bytes: int | None  # None: the driver does not say (WDDM); sent as the sentinel


@dataclass
class FakeGpu:
    """One GPU's readings. Values are in NVML units (bytes, mW, mJ, MHz)."""

    name: str = "NVIDIA GeForce RTX 4090"
    uuid: str = "GPU-4f1c2a9e-0000-4000-8000-000000000001"
    bus_id: str = "00000000:01:00.0"
    pci_device_id: int = 0x268410DE
    capability: tuple[int, int] = (8, 9)  # CUDA compute capability (Ada)
    util_gpu: int = 87
    util_mem: int = 41
    mem_total: int = 24564 * 2**20
    mem_reserved: int = 318 * 2**20
    mem_used: int = 18000 * 2**20
    temperature: int = 71
    temp_slowdown: int = 87
    temp_shutdown: int = 92
    mem_temperature: int | None = None  # GeForce: NVML_FI_DEV_MEMORY_TEMP not supported
    power_mw: int = 312_450
    power_limit_mw: int = 450_000
    power_default_limit_mw: int = 450_000
    power_min_limit_mw: int = 150_000  # nvmlDeviceGetPowerManagementLimitConstraints
    power_max_limit_mw: int = 600_000
    energy_mj: int = 987_654_321
    sm_clock: int = 2520
    mem_clock: int = 10501
    sm_clock_max: int = 3105
    mem_clock_max: int = 10501
    fan: int = 64
    pstate: int = 2
    pcie_gen: int = 4
    pcie_width: int = 16
    pcie_gen_max: int = 4
    pcie_width_max: int = 16
    throttle_mask: int = 0x4  # SwPowerCap
    supported_throttle_mask: int = 0x1FF
    encoder: int = 0
    decoder: int = 3
    ecc_mode: int | None = None  # None: NOT_SUPPORTED (GeForce)
    ecc_corrected: int = 0
    ecc_uncorrected: int = 0
    compute: list[FakeProcess] = field(default_factory=lambda: [FakeProcess(4242, 17000 * 2**20)])
    graphics: list[FakeProcess] = field(default_factory=list)
    # pid -> (sm, mem, enc, dec) %: how busy the process keeps the engines (see the fake's
    # nvmlDeviceGetProcessUtilization for how the driver averages it)
    process_util: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    # pid -> the wall time (s) its load began; idle before. Absent: busy since before the buffer.
    process_util_since: dict[int, float] = field(default_factory=dict)
    unsupported: set[str] = field(default_factory=set)  # C symbols answering NOT_SUPPORTED
    errors: dict[str, int] = field(default_factory=dict)  # C symbol -> NVML error code
    lost: bool = False  # every call on this GPU: GPU_IS_LOST


@dataclass(frozen=True)
class FakeHandle:
    gpu: FakeGpu
    generation: int  # handles from before a re-init are stale


class FakeNvml:
    """Stands in for the ``pynvml`` module. Attribute access mirrors the binding."""

    NVMLError = NVMLError
    c_nvmlMemory_t = c_nvmlMemory_t
    c_nvmlMemory_v2_t = c_nvmlMemory_v2_t

    def __init__(self, gpus: list[FakeGpu] | int | None = 2, *, init_error: int | None = None,
                 driver_version: str = "560.35.03", cuda_version: int = 12060,
                 missing: set[str] | frozenset[str] = frozenset(),
                 absent: set[str] | frozenset[str] = frozenset(),
                 process_names: dict[int, str] | None = None) -> None:
        if gpus is None:
            gpus = 0
        if isinstance(gpus, int):
            gpus = [make_gpu(i) for i in range(gpus)]
        self.gpus: list[FakeGpu] = list(gpus)
        self.init_error = init_error  # code nvmlInit fails with (library missing, driver not loaded ...)
        self.driver_version = driver_version
        self.cuda_version = cuda_version
        self.missing: set[str] = set(missing)  # C symbols this driver lacks: FUNCTION_NOT_FOUND
        self.absent: set[str] = set(absent)  # Python wrappers this binding lacks: AttributeError
        self.fail_until_reinit: bool = False  # every device call: UNKNOWN until the next nvmlInit
        self.process_names = dict(process_names or {})
        self.calls: Counter[str] = Counter()
        # The CPU clock (seconds since the epoch) the driver stamps per-process samples with; a
        # test pins it and hands the same function to the source as its wall clock.
        self.wall_time: Callable[[], float] = time.time
        self.initialized = 0  # nvmlInit refcount
        self.generation = 0
        if self.absent:
            # Only a fake of an old binding pays for the attribute filter.
            self.__class__ = _OldBindingFakeNvml

    # Every NVMLError_* class and NVML_* constant, like the module.
    def __getattr__(self, name: str) -> Any:
        if name in _ERROR_CLASSES:
            return _ERROR_CLASSES[name]
        if name.startswith(("NVML_", "nvmlMemory_", "nvmlTemperature_")) and name in globals():
            return globals()[name]
        raise AttributeError(name)

    # ---- helpers

    def _enter(self, symbol: str, count: bool = True) -> None:
        if count:
            self.calls[symbol] += 1
        if symbol in self.missing:
            raise NVMLError(NVML_ERROR_FUNCTION_NOT_FOUND)
        if not self.initialized and symbol not in ("nvmlInitWithFlags", "nvmlInit"):
            raise NVMLError(NVML_ERROR_UNINITIALIZED)

    def _gpu(self, handle: FakeHandle, symbol: str, count: bool = True) -> FakeGpu:
        self._enter(symbol, count)
        if self.fail_until_reinit:
            raise NVMLError(NVML_ERROR_UNKNOWN)
        if not isinstance(handle, FakeHandle) or handle.generation != self.generation:
            raise NVMLError(NVML_ERROR_INVALID_ARGUMENT)
        gpu = handle.gpu
        if gpu.lost:
            raise NVMLError(NVML_ERROR_GPU_IS_LOST)
        if symbol in gpu.errors:
            raise NVMLError(gpu.errors[symbol])
        if symbol in gpu.unsupported:
            raise NVMLError(NVML_ERROR_NOT_SUPPORTED)
        return gpu

    # ---- init / system

    def nvmlInitWithFlags(self, flags: int) -> None:
        self._enter("nvmlInitWithFlags")
        if self.init_error is not None:
            raise NVMLError(self.init_error)
        self.initialized += 1
        self.generation += 1
        self.fail_until_reinit = False

    def nvmlInit(self) -> None:
        self.nvmlInitWithFlags(0)

    def nvmlShutdown(self) -> None:
        self._enter("nvmlShutdown")
        self.initialized = max(0, self.initialized - 1)

    def nvmlSystemGetDriverVersion(self) -> str:
        self._enter("nvmlSystemGetDriverVersion")
        return self.driver_version

    def nvmlSystemGetCudaDriverVersion(self) -> int:
        self._enter("nvmlSystemGetCudaDriverVersion")
        return self.cuda_version

    def nvmlSystemGetCudaDriverVersion_v2(self) -> int:
        self._enter("nvmlSystemGetCudaDriverVersion_v2")
        return self.cuda_version

    def nvmlSystemGetProcessName(self, pid: int) -> str:
        self._enter("nvmlSystemGetProcessName")
        if pid not in self.process_names:
            raise NVMLError(NVML_ERROR_NOT_FOUND)
        return self.process_names[pid]

    # ---- handles and identity

    def nvmlDeviceGetCount(self) -> int:
        self._enter("nvmlDeviceGetCount_v2")
        if self.fail_until_reinit:
            raise NVMLError(NVML_ERROR_UNKNOWN)
        return len(self.gpus)

    def nvmlDeviceGetHandleByIndex(self, index: int) -> FakeHandle:
        self._enter("nvmlDeviceGetHandleByIndex_v2")
        if self.fail_until_reinit:
            raise NVMLError(NVML_ERROR_UNKNOWN)
        if not 0 <= index < len(self.gpus):
            raise NVMLError(NVML_ERROR_INVALID_ARGUMENT)
        gpu = self.gpus[index]
        if gpu.lost:
            raise NVMLError(NVML_ERROR_GPU_IS_LOST)
        return FakeHandle(gpu, self.generation)

    def nvmlDeviceGetHandleByUUID(self, uuid: str | bytes) -> FakeHandle:
        self._enter("nvmlDeviceGetHandleByUUID")
        if isinstance(uuid, bytes):
            uuid = uuid.decode()
        for gpu in self.gpus:
            if gpu.uuid == uuid:
                if gpu.lost:
                    raise NVMLError(NVML_ERROR_GPU_IS_LOST)
                return FakeHandle(gpu, self.generation)
        raise NVMLError(NVML_ERROR_NOT_FOUND)

    def nvmlDeviceGetIndex(self, handle: FakeHandle) -> int:
        gpu = self._gpu(handle, "nvmlDeviceGetIndex")
        return self.gpus.index(gpu)

    def nvmlDeviceGetName(self, handle: FakeHandle) -> str:
        return self._gpu(handle, "nvmlDeviceGetName").name

    def nvmlDeviceGetUUID(self, handle: FakeHandle) -> str:
        return self._gpu(handle, "nvmlDeviceGetUUID").uuid

    def nvmlDeviceGetPciInfo_v3(self, handle: FakeHandle) -> nvmlPciInfo_t:
        gpu = self._gpu(handle, "nvmlDeviceGetPciInfo_v3")
        info = nvmlPciInfo_t()
        info.busId = gpu.bus_id.encode()  # the binding hands back bytes here
        info.busIdLegacy = gpu.bus_id[-12:].encode()
        info.pciDeviceId = gpu.pci_device_id
        return info

    def nvmlDeviceGetPciInfo(self, handle: FakeHandle) -> nvmlPciInfo_t:
        return self.nvmlDeviceGetPciInfo_v3(handle)

    def nvmlDeviceGetCudaComputeCapability(self, handle: FakeHandle) -> tuple[int, int]:
        return self._gpu(handle, "nvmlDeviceGetCudaComputeCapability").capability

    # ---- fast metrics

    def nvmlDeviceGetUtilizationRates(self, handle: FakeHandle) -> c_nvmlUtilization_t:
        gpu = self._gpu(handle, "nvmlDeviceGetUtilizationRates")
        return c_nvmlUtilization_t(gpu.util_gpu, gpu.util_mem)

    def nvmlDeviceGetMemoryInfo(self, handle: FakeHandle, version: int | None = None):
        if not version:
            gpu = self._gpu(handle, "nvmlDeviceGetMemoryInfo")
            # v1 counts the reserved memory as used.
            used = gpu.mem_used + gpu.mem_reserved
            return c_nvmlMemory_t(gpu.mem_total, gpu.mem_total - used, used)
        gpu = self._gpu(handle, "nvmlDeviceGetMemoryInfo_v2")
        if version != nvmlMemory_v2:
            raise NVMLError(NVML_ERROR_ARGUMENT_VERSION_MISMATCH)
        free = gpu.mem_total - gpu.mem_reserved - gpu.mem_used
        return c_nvmlMemory_v2_t(version, gpu.mem_total, gpu.mem_reserved, free, gpu.mem_used)

    def nvmlDeviceGetTemperatureV(self, handle: FakeHandle, sensor: int, version: int = nvmlTemperature_v1) -> int:
        gpu = self._gpu(handle, "nvmlDeviceGetTemperatureV")
        if sensor != NVML_TEMPERATURE_GPU:
            raise NVMLError(NVML_ERROR_INVALID_ARGUMENT)
        return gpu.temperature

    def nvmlDeviceGetTemperature(self, handle: FakeHandle, sensor: int) -> int:
        gpu = self._gpu(handle, "nvmlDeviceGetTemperature")
        if sensor != NVML_TEMPERATURE_GPU:
            raise NVMLError(NVML_ERROR_INVALID_ARGUMENT)
        return gpu.temperature

    def nvmlDeviceGetTemperatureThreshold(self, handle: FakeHandle, threshold: int) -> int:
        gpu = self._gpu(handle, "nvmlDeviceGetTemperatureThreshold")
        if threshold == NVML_TEMPERATURE_THRESHOLD_SLOWDOWN:
            return gpu.temp_slowdown
        if threshold == NVML_TEMPERATURE_THRESHOLD_SHUTDOWN:
            return gpu.temp_shutdown
        raise NVMLError(NVML_ERROR_NOT_SUPPORTED)

    def nvmlDeviceGetFieldValues(self, handle: FakeHandle, field_ids: list[int]):
        gpu = self._gpu(handle, "nvmlDeviceGetFieldValues")
        values = []
        for field_id in field_ids:
            value = SimpleNamespace(uiVal=0, ullVal=0, dVal=0.0, siVal=0, sllVal=0, ulVal=0, usVal=0)
            ret = NVML_ERROR_NOT_SUPPORTED
            if field_id == NVML_FI_DEV_MEMORY_TEMP and gpu.mem_temperature is not None:
                value.uiVal = gpu.mem_temperature
                ret = NVML_SUCCESS
            values.append(SimpleNamespace(fieldId=field_id, scopeId=0, timestamp=0, latencyUsec=0,
                                          valueType=NVML_VALUE_TYPE_UNSIGNED_INT, nvmlReturn=ret, value=value))
        return values

    def nvmlDeviceGetPowerUsage(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetPowerUsage").power_mw

    def nvmlDeviceGetEnforcedPowerLimit(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetEnforcedPowerLimit").power_limit_mw

    def nvmlDeviceGetPowerManagementLimit(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetPowerManagementLimit").power_limit_mw

    def nvmlDeviceGetPowerManagementDefaultLimit(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetPowerManagementDefaultLimit").power_default_limit_mw

    def nvmlDeviceGetPowerManagementLimitConstraints(self, handle: FakeHandle) -> list[int]:
        gpu = self._gpu(handle, "nvmlDeviceGetPowerManagementLimitConstraints")
        return [gpu.power_min_limit_mw, gpu.power_max_limit_mw]

    def nvmlDeviceGetTotalEnergyConsumption(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetTotalEnergyConsumption").energy_mj

    def nvmlDeviceGetClockInfo(self, handle: FakeHandle, clock_type: int) -> int:
        gpu = self._gpu(handle, "nvmlDeviceGetClockInfo")
        return {NVML_CLOCK_SM: gpu.sm_clock, NVML_CLOCK_GRAPHICS: gpu.sm_clock,
                NVML_CLOCK_MEM: gpu.mem_clock}.get(clock_type, 0)

    def nvmlDeviceGetMaxClockInfo(self, handle: FakeHandle, clock_type: int) -> int:
        gpu = self._gpu(handle, "nvmlDeviceGetMaxClockInfo")
        return {NVML_CLOCK_SM: gpu.sm_clock_max, NVML_CLOCK_GRAPHICS: gpu.sm_clock_max,
                NVML_CLOCK_MEM: gpu.mem_clock_max}.get(clock_type, 0)

    def nvmlDeviceGetPerformanceState(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetPerformanceState").pstate

    def nvmlDeviceGetPowerState(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetPowerState").pstate

    def nvmlDeviceGetCurrentClocksEventReasons(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetCurrentClocksEventReasons").throttle_mask

    def nvmlDeviceGetCurrentClocksThrottleReasons(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetCurrentClocksThrottleReasons").throttle_mask

    def nvmlDeviceGetSupportedClocksEventReasons(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetSupportedClocksEventReasons").supported_throttle_mask

    def nvmlDeviceGetSupportedClocksThrottleReasons(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetSupportedClocksThrottleReasons").supported_throttle_mask

    # ---- slow metrics

    def nvmlDeviceGetFanSpeed(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetFanSpeed").fan

    def nvmlDeviceGetCurrPcieLinkGeneration(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetCurrPcieLinkGeneration").pcie_gen

    def nvmlDeviceGetCurrPcieLinkWidth(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetCurrPcieLinkWidth").pcie_width

    def nvmlDeviceGetMaxPcieLinkGeneration(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetMaxPcieLinkGeneration").pcie_gen_max

    def nvmlDeviceGetMaxPcieLinkWidth(self, handle: FakeHandle) -> int:
        return self._gpu(handle, "nvmlDeviceGetMaxPcieLinkWidth").pcie_width_max

    def nvmlDeviceGetEncoderUtilization(self, handle: FakeHandle) -> list[int]:
        return [self._gpu(handle, "nvmlDeviceGetEncoderUtilization").encoder, 167000]

    def nvmlDeviceGetDecoderUtilization(self, handle: FakeHandle) -> list[int]:
        return [self._gpu(handle, "nvmlDeviceGetDecoderUtilization").decoder, 167000]

    def nvmlDeviceGetEccMode(self, handle: FakeHandle) -> list[int]:
        gpu = self._gpu(handle, "nvmlDeviceGetEccMode")
        if gpu.ecc_mode is None:
            raise NVMLError(NVML_ERROR_NOT_SUPPORTED)
        return [gpu.ecc_mode, gpu.ecc_mode]

    def nvmlDeviceGetTotalEccErrors(self, handle: FakeHandle, error_type: int, counter_type: int) -> int:
        gpu = self._gpu(handle, "nvmlDeviceGetTotalEccErrors")
        if gpu.ecc_mode is None:
            raise NVMLError(NVML_ERROR_NOT_SUPPORTED)
        return gpu.ecc_corrected if error_type == NVML_MEMORY_ERROR_TYPE_CORRECTED else gpu.ecc_uncorrected

    def _processes(self, handle: FakeHandle, symbol: str, kind: str) -> list[SimpleNamespace]:
        gpu = self._gpu(handle, symbol)
        procs = gpu.compute if kind == "compute" else gpu.graphics
        # The binding maps the "not available" sentinel to None for v2/v3.
        return [SimpleNamespace(pid=p.pid, usedGpuMemory=p.used_bytes, gpuInstanceId=NOT_AVAILABLE_UINT,
                                computeInstanceId=NOT_AVAILABLE_UINT) for p in procs]

    def nvmlDeviceGetComputeRunningProcesses_v3(self, handle: FakeHandle):
        return self._processes(handle, "nvmlDeviceGetComputeRunningProcesses_v3", "compute")

    def nvmlDeviceGetComputeRunningProcesses_v2(self, handle: FakeHandle):
        return self._processes(handle, "nvmlDeviceGetComputeRunningProcesses_v2", "compute")

    def nvmlDeviceGetGraphicsRunningProcesses_v3(self, handle: FakeHandle):
        return self._processes(handle, "nvmlDeviceGetGraphicsRunningProcesses_v3", "graphics")

    def nvmlDeviceGetGraphicsRunningProcesses_v2(self, handle: FakeHandle):
        return self._processes(handle, "nvmlDeviceGetGraphicsRunningProcesses_v2", "graphics")

    # The driver takes a per-process sample every 1/6 s to 1 s (nvidia-smi(1) on utilization) and
    # keeps a buffer whose length is not documented ("depends on the driver": nvtop#91); 20 s here.
    UTIL_PERIOD_US = 166_667
    UTIL_BUFFER_US = 20_000_000

    def nvmlDeviceGetProcessUtilization(self, handle: FakeHandle, timeStamp: int):
        """Like the driver: the samples taken after ``timeStamp`` (CPU µs), NOT_FOUND when none.

        Each sample's share is averaged from ``timeStamp`` (or the buffer's start) to its own time,
        which is what nvtop and nvitop found (a 0 or old ``timeStamp`` gives an average over a
        long window: https://github.com/Syllo/nvtop/pull/91, https://github.com/XuehaiPan/nvitop/issues/83).
        Two samples per process, older first: the reader must keep the newest.
        """
        gpu = self._gpu(handle, "nvmlDeviceGetProcessUtilization")
        now_us = int(self.wall_time() * 1_000_000)
        newest_us = now_us - now_us % self.UTIL_PERIOD_US
        start_us = max(timeStamp, now_us - self.UTIL_BUFFER_US)
        if not gpu.process_util or newest_us <= timeStamp:
            raise NVMLError(NVML_ERROR_NOT_FOUND)
        samples = []
        for pid, shares in gpu.process_util.items():
            since = gpu.process_util_since.get(pid)
            busy_from_us = start_us if since is None else max(start_us, int(since * 1_000_000))
            for at_us in (newest_us - self.UTIL_PERIOD_US, newest_us):
                if at_us <= start_us:
                    continue
                busy = max(0, at_us - busy_from_us) / (at_us - start_us)
                sm, mem, enc, dec = (round(share * busy) for share in shares)
                samples.append(SimpleNamespace(pid=pid, timeStamp=at_us, smUtil=sm, memUtil=mem,
                                               encUtil=enc, decUtil=dec))
        if not samples:
            raise NVMLError(NVML_ERROR_NOT_FOUND)
        return samples

    def _nvmlGetFunctionPointer(self, symbol: str):
        """The raw C symbol, for the v1 process calls nvidia-ml-py no longer wraps."""
        self._enter(symbol)
        kind = {"nvmlDeviceGetComputeRunningProcesses": "compute",
                "nvmlDeviceGetGraphicsRunningProcesses": "graphics"}.get(symbol)
        if kind is None:
            raise NVMLError(NVML_ERROR_FUNCTION_NOT_FOUND)

        def c_function(handle, count_ref, infos) -> int:
            try:
                gpu = self._gpu(handle, symbol, count=False)  # counted once, at lookup
            except NVMLError as exc:
                return exc.value
            procs = gpu.compute if kind == "compute" else gpu.graphics
            count = count_ref._obj  # ctypes.byref(c_uint) -> the c_uint
            if infos is None or count.value < len(procs):
                count.value = len(procs)
                return NVML_ERROR_INSUFFICIENT_SIZE if procs else NVML_SUCCESS
            for i, proc in enumerate(procs):
                infos[i].pid = proc.pid
                infos[i].usedGpuMemory = NOT_AVAILABLE_ULONGLONG if proc.used_bytes is None else proc.used_bytes
            count.value = len(procs)
            return NVML_SUCCESS

        return c_function


# ---- a card under load whose power, clocks and energy counter answer to its power limit

# What each built-in sweep workload asks of a card at full speed, as a share of its default limit:
# a matrix-multiply loop draws the whole budget, a memory copy about two thirds of it.
LOAD_DEMAND = {"matmul": 1.0, "copy": 0.68}


def apply_load(gpu: FakeGpu, kind: str, seconds: float) -> float:
    """Run ``kind`` on ``gpu`` for ``seconds``: power is held to the limit, the SM clock falls with
    the cube root of the power cut (dynamic power goes as f*V^2, and V follows f), the energy
    counter advances. Returns the speed as a share of full speed."""
    demand_mw = gpu.power_default_limit_mw * LOAD_DEMAND[kind]
    power_mw = min(demand_mw, gpu.power_limit_mw)
    ratio = power_mw / demand_mw
    clock_share = ratio ** (1 / 3)
    gpu.power_mw = int(power_mw)
    gpu.sm_clock = int(round(gpu.sm_clock_max * 0.85 * clock_share))
    gpu.energy_mj += int(power_mw * seconds)
    gpu.throttle_mask = 0x4 if demand_mw > gpu.power_limit_mw else 0
    gpu.temperature = int(round(35 + 40 * power_mw / gpu.power_default_limit_mw))
    # A copy waits on memory, not on the SM clock: it only slows when the clock falls far.
    return clock_share if kind == "matmul" else 0.4 + 0.6 * clock_share ** 0.5


class _OldBindingFakeNvml(FakeNvml):
    def __getattribute__(self, name: str) -> Any:
        if name.startswith("nvml") and name in object.__getattribute__(self, "absent"):
            raise AttributeError(name)
        return object.__getattribute__(self, name)


def make_gpu(index: int, **overrides: Any) -> FakeGpu:
    """A distinct GPU per index (its own UUID, bus id and process)."""
    base = dict(
        uuid=f"GPU-4f1c2a9e-0000-4000-8000-{index + 1:012d}",
        bus_id=f"00000000:{index + 1:02X}:00.0",
        compute=[FakeProcess(4242 + index, (17000 - 1000 * index) * 2**20)],
    )
    base.update(overrides)
    return FakeGpu(**base)


def scenario(name: str) -> FakeNvml:
    """Ready-made machines for other tests (hybrid checker, dashboard, CLI).

    - ``desktop``: two desktop cards, a training process on each.
    - ``laptop``: one RTX laptop GPU; no fan reading, no ECC (as on most laptops).
    - ``server``: one data-centre GPU with ECC on and memory temperature.
    - ``old_driver``: two cards on a driver without the newer NVML entry points.
    - ``no_driver`` / ``driver_not_loaded`` / ``version_mismatch``: nvmlInit fails that way.
    """
    if name == "desktop":
        return FakeNvml(2)
    if name == "laptop":
        gpu = make_gpu(0, name="NVIDIA GeForce RTX 4060 Laptop GPU", pci_device_id=0x28A010DE,
                       mem_total=8188 * 2**20, mem_used=5200 * 2**20, power_mw=78_000,
                       power_limit_mw=115_000, power_default_limit_mw=115_000, sm_clock_max=3105,
                       mem_clock_max=8001, mem_clock=8001, pcie_gen_max=4, pcie_width=8, pcie_width_max=8,
                       compute=[FakeProcess(5151, 5000 * 2**20)])
        gpu.unsupported.add("nvmlDeviceGetFanSpeed")
        return FakeNvml([gpu])
    if name == "server":
        return FakeNvml([make_gpu(0, name="NVIDIA H100 80GB HBM3", pci_device_id=0x233010DE,
                                  mem_total=81559 * 2**20, mem_used=40000 * 2**20, mem_temperature=52,
                                  power_mw=420_000, power_limit_mw=700_000, power_default_limit_mw=700_000,
                                  ecc_mode=NVML_FEATURE_ENABLED, pcie_gen=5, pcie_gen_max=5)])
    if name == "old_driver":
        return FakeNvml(2, driver_version="470.256.02", cuda_version=11040, missing=OLD_DRIVER_MISSING)
    errors = {"no_driver": NVML_ERROR_LIBRARY_NOT_FOUND, "driver_not_loaded": NVML_ERROR_DRIVER_NOT_LOADED,
              "version_mismatch": NVML_ERROR_LIB_RM_VERSION_MISMATCH}
    if name in errors:
        return FakeNvml(0, init_error=errors[name])
    raise ValueError(f"unknown scenario {name!r}")
