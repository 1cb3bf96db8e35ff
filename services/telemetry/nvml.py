"""The one wrapper around nvidia-ml-py (imported as ``pynvml``).

Every NVML call of the app goes through :class:`Nvml`. It

- imports ``pynvml`` lazily (the module object can be injected, so tests pass a
  fake built at the nvidia-ml-py function level) and initialises NVML once;
- maps initialisation errors to a :class:`DeviceState` with a one-line reason;
- probes each (device, metric) pair once: NOT_SUPPORTED, FUNCTION_NOT_FOUND,
  NO_PERMISSION and friends mark it unsupported, and it is never called again;
- tries newer entry points first and falls back to older ones, remembering per
  device which one worked (an old driver then costs one failed call, not one
  per tick);
- turns NVML's "not available" sentinels into ``None``, never 0;
- raises :class:`DeviceFailure` for errors that concern the whole GPU (lost,
  unknown error, driver gone), so the caller can mark that GPU and retry.

Error codes are compared by number (``exc.value``), not by class, so the real
binding and a fake behave the same.
"""
from __future__ import annotations

import time

import ctypes
from types import ModuleType, SimpleNamespace
from typing import Any, NamedTuple
from collections.abc import Callable, Sequence

from services.i18n import Msg, translate
from services.telemetry.model import DeviceState

# NVML return codes (nvml.h; the same numbers as pynvml.NVML_ERROR_*).
SUCCESS = 0
ERROR_UNINITIALIZED = 1
ERROR_INVALID_ARGUMENT = 2
ERROR_NOT_SUPPORTED = 3
ERROR_NO_PERMISSION = 4
ERROR_NOT_FOUND = 6
ERROR_INSUFFICIENT_SIZE = 7
ERROR_INSUFFICIENT_POWER = 8
ERROR_DRIVER_NOT_LOADED = 9
ERROR_TIMEOUT = 10
ERROR_LIBRARY_NOT_FOUND = 12
ERROR_FUNCTION_NOT_FOUND = 13
ERROR_CORRUPTED_INFOROM = 14
ERROR_GPU_IS_LOST = 15
ERROR_RESET_REQUIRED = 16
ERROR_LIB_RM_VERSION_MISMATCH = 18
ERROR_IN_USE = 19
ERROR_NO_DATA = 21
ERROR_ARGUMENT_VERSION_MISMATCH = 25
ERROR_DEPRECATED = 26
ERROR_NOT_READY = 27
ERROR_UNKNOWN = 999

# "This metric does not exist here": stop asking for it on this device.
_UNSUPPORTED_CODES = frozenset({
    ERROR_NOT_SUPPORTED, ERROR_FUNCTION_NOT_FOUND, ERROR_NO_PERMISSION,
    ERROR_INVALID_ARGUMENT, ERROR_NOT_FOUND, ERROR_ARGUMENT_VERSION_MISMATCH,
    ERROR_DEPRECATED, ERROR_CORRUPTED_INFOROM,
})
# "No value right now": None for this tick, ask again next time.
_TRANSIENT_CODES = frozenset({ERROR_NO_DATA, ERROR_TIMEOUT, ERROR_NOT_READY, ERROR_IN_USE,
                              ERROR_INSUFFICIENT_SIZE})
# Everything else (lost, unknown, uninitialised, driver gone, reset required,
# insufficient power ...) is about the whole GPU.

# NVML_VALUE_NOT_AVAILABLE for 32- and 64-bit unsigned values.
NOT_AVAILABLE_UINT = 0xFFFFFFFF
NOT_AVAILABLE_ULONGLONG = 0xFFFFFFFFFFFFFFFF
_SENTINELS = frozenset({NOT_AVAILABLE_UINT, NOT_AVAILABLE_ULONGLONG})

_STATE_BY_CODE = {
    ERROR_LIBRARY_NOT_FOUND: DeviceState.NO_DRIVER,
    ERROR_DRIVER_NOT_LOADED: DeviceState.DRIVER_NOT_LOADED,
    ERROR_LIB_RM_VERSION_MISMATCH: DeviceState.VERSION_MISMATCH,
    ERROR_NO_PERMISSION: DeviceState.NO_PERMISSION,
    ERROR_GPU_IS_LOST: DeviceState.LOST,
}

# One line each; str() is the English line (JSON, logs), the UI and the CLI translate it.
_REASON_BY_CODE: dict[int, Msg] = {
    ERROR_LIBRARY_NOT_FOUND: translate(
        "NvmlState", "NVIDIA driver not found (NVML library missing): install the NVIDIA driver"),
    ERROR_DRIVER_NOT_LOADED: translate(
        "NvmlState",
        "NVIDIA driver is installed but not loaded (nouveau in use, or Secure Boot blocked the module?)"),
    ERROR_LIB_RM_VERSION_MISMATCH: translate(
        "NvmlState", "NVIDIA driver and library versions differ (driver updated without a reboot): reboot"),
    ERROR_NO_PERMISSION: translate(
        "NvmlState", "no permission to use the NVIDIA GPU (device files not accessible)"),
    ERROR_GPU_IS_LOST: translate("NvmlState", "GPU has fallen off the bus (GPU is lost): retrying"),
    ERROR_RESET_REQUIRED: translate("NvmlState", "GPU needs a reset or reboot"),
    ERROR_INSUFFICIENT_POWER: translate(
        "NvmlState", "GPU reports insufficient external power: check its power cables"),
    ERROR_UNINITIALIZED: translate("NvmlState", "NVML is not initialised (driver restarted?): retrying"),
}


def error_code(exc: BaseException) -> int | None:
    """The NVML return code carried by an NVMLError (real or fake)."""
    value = getattr(exc, "value", None)
    return value if isinstance(value, int) else None


def state_for_code(code: int | None) -> DeviceState:
    return _STATE_BY_CODE.get(code, DeviceState.ERROR) if code is not None else DeviceState.ERROR


def reason_text(exc: BaseException) -> Msg:
    """One translatable line for an NVMLError (real or fake)."""
    code = error_code(exc)
    if code in _REASON_BY_CODE:
        return _REASON_BY_CODE[code]
    try:
        text = str(exc)
    except Exception:  # the binding's __str__ calls NVML itself, which may be gone
        text = ""
    if text:
        return translate("NvmlState", "NVML error {code}: {text}").format(code=code, text=text)
    return translate("NvmlState", "NVML error {code}").format(code=code)


def reason_for(exc: BaseException) -> str:
    """The same line in English."""
    return str(reason_text(exc))


def clean(value: Any) -> Any:
    """None for NVML's "not available" sentinels; everything else unchanged."""
    # type() check first: this runs on every value of every sample.
    if type(value) is int and value >= NOT_AVAILABLE_UINT and value in _SENTINELS:
        return None
    return value


def text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


class NvmlUnavailable(Exception):
    """NVML cannot be used at all; ``state`` says why.

    ``message`` is the English line, ``text`` the same line translatable.
    """

    def __init__(self, state: DeviceState, text: Msg | str) -> None:
        super().__init__(str(text))
        self.state = state
        self.message = str(text)
        self.text = text if isinstance(text, Msg) else None


class DeviceFailure(Exception):
    """An NVML error about a whole GPU (lost, unknown error, driver gone ...)."""

    def __init__(self, code: int | None, text: Msg | str) -> None:
        super().__init__(str(text))
        self.code = code
        self.state = state_for_code(code)
        self.message = str(text)  # English
        self.text = text if isinstance(text, Msg) else None  # translatable, when known

    @property
    def needs_reinit(self) -> bool:
        """Errors after which only a fresh nvmlInit can help (resume, driver reload)."""
        return self.code in (ERROR_UNINITIALIZED, ERROR_UNKNOWN, ERROR_GPU_IS_LOST,
                             ERROR_DRIVER_NOT_LOADED, ERROR_LIB_RM_VERSION_MISMATCH)


# An immutable record as a NamedTuple, not a dataclass: creating the class is part of every command's
# start-up, about 1 ms for a dataclass on Python 3.11 (it compiles each generated method), a fifth of that here.
class Attempt(NamedTuple):
    """One way to read a metric: an NVML function name (or a helper) and its arguments."""

    function: str | Callable[..., Any]  # a name on the binding, or a helper built on calls
    args: tuple = ()
    kwargs: dict[str, Any] | None = None
    # Rejects an answer that cannot be right (a struct read with the wrong
    # layout); this entry point is then never used again for that device.
    validate: Callable[[Any], bool] | None = None


class _ProcessInfoV1(ctypes.Structure):
    # nvmlProcessInfo_v1_t, taken by the unversioned *RunningProcesses symbols
    # of drivers older than the _v2 entry points. nvidia-ml-py has no wrapper
    # for it any more (its unversioned name now calls _v3), so we call the
    # symbol ourselves.
    _fields_ = [("pid", ctypes.c_uint), ("usedGpuMemory", ctypes.c_ulonglong)]


class Nvml:
    """Lazy, probing, version-tolerant access to one NVML library."""

    def __init__(self, module: ModuleType | Any | None = None) -> None:
        self._module = module
        self._lib: Any = None
        self._initialized = False
        self._unsupported: set[tuple[str, str]] = set()
        self._chosen: dict[tuple[str, str], int] = {}
        self._worked: set[tuple[str, str]] = set()
        # (device, metric) -> (the attempts tuple, the attempt that worked): the fast path
        self._steady: dict[tuple[str, str], tuple[Sequence[Attempt], Attempt]] = {}
        self.calls = 0  # NVML function calls made, for tests and the benchmark
        # A one-shot reading's time budget (time.monotonic()): past it, a metric not read yet is left out
        # (None, "not reported") rather than asked for; identity calls still go through. A driver whose
        # every call takes 300 ms would otherwise hold ``monitor --once`` for half a minute.
        self.deadline: float | None = None
        self.skipped_late = 0  # metrics left out because the deadline had passed

    # ---- lifecycle

    @property
    def initialized(self) -> bool:
        return self._initialized

    @property
    def lib(self) -> Any:
        return self._lib

    def init(self) -> None:
        """Load and initialise NVML once; raise :class:`NvmlUnavailable`."""
        if self._initialized:
            return
        if self._lib is None:
            self._lib = self._load_module()
        init = getattr(self._lib, "nvmlInitWithFlags", None)
        if not callable(init) or not callable(getattr(self._lib, "nvmlDeviceGetCount", None)):
            # The PyPI "pynvml"/"nvidia-ml-py3" packages shadow the official
            # binding under the same module name and break on new drivers.
            raise NvmlUnavailable(DeviceState.ERROR, translate(
                "NvmlState",
                "the installed 'pynvml' module is not nvidia-ml-py: pip install --force-reinstall nvidia-ml-py"))
        try:
            self.calls += 1
            init(0)
        except Exception as exc:  # any failure here is a state, not a crash
            code = error_code(exc)
            if code is None:
                raise NvmlUnavailable(DeviceState.ERROR, translate(
                    "NvmlState", "NVML failed to start: {error}").format(error=str(exc))) from exc
            raise NvmlUnavailable(state_for_code(code), reason_text(exc)) from exc
        self._initialized = True

    def shutdown(self) -> None:
        if not self._initialized:
            return
        self._initialized = False
        try:
            self.calls += 1
            self._lib.nvmlShutdown()
        except Exception:  # shutting down a broken NVML must not raise
            pass

    def reinit(self) -> None:
        """Shut down and initialise again (after a resume or a lost GPU).

        The support cache is kept: it is keyed by UUID, and what a GPU supports
        does not change because the driver was re-initialised.
        """
        self.shutdown()
        self.init()

    def _load_module(self) -> Any:
        if self._module is not None:
            return self._module
        try:
            import pynvml  # nvidia-ml-py; imported only when monitoring starts
        except ImportError as exc:
            raise NvmlUnavailable(DeviceState.NO_DRIVER, translate(
                "NvmlState", "nvidia-ml-py is not installed (pip install nvidia-ml-py)")) from exc
        return pynvml

    # ---- raw calls

    def call(self, function: str | Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Call one NVML function; raises the binding's NVMLError unchanged."""
        self.calls += 1
        if not isinstance(function, str):
            return function(*args, **kwargs)
        fn = getattr(self._lib, function, None)
        if fn is None:
            if function.endswith("RunningProcesses_v1"):
                return self._running_processes_v1(function[: -len("_v1")], *args)
            # An older nvidia-ml-py without this wrapper: same as an old driver.
            raise self._error(ERROR_FUNCTION_NOT_FOUND)
        return fn(*args, **kwargs)

    def device_call(self, function: str, *args: Any) -> Any:
        """A call whose every error is about the device (handles, identity)."""
        try:
            return self.call(function, *args)
        except self._lib.NVMLError as exc:
            raise DeviceFailure(error_code(exc), reason_text(exc)) from exc

    def _error(self, code: int) -> BaseException:
        return self._lib.NVMLError(code)

    def _running_processes_v1(self, symbol: str, handle: Any) -> list[SimpleNamespace]:
        lookup = getattr(self._lib, "_nvmlGetFunctionPointer", None)
        if lookup is None:
            raise self._error(ERROR_FUNCTION_NOT_FOUND)
        fn = lookup(symbol)
        count = ctypes.c_uint(0)
        ret = fn(handle, ctypes.byref(count), None)
        if ret == SUCCESS:
            return []
        if ret != ERROR_INSUFFICIENT_SIZE:
            raise self._error(ret)
        count.value = count.value * 2 + 5  # room for processes started meanwhile
        infos = (_ProcessInfoV1 * count.value)()
        ret = fn(handle, ctypes.byref(count), infos)
        if ret != SUCCESS:
            raise self._error(ret)
        return [SimpleNamespace(pid=infos[i].pid, usedGpuMemory=clean(infos[i].usedGpuMemory))
                for i in range(count.value)]

    # ---- probed, fallback-aware queries

    def supported(self, device: str, metric: str) -> bool | None:
        """True once it worked, False once probed unsupported, None if not yet asked."""
        key = (device, metric)
        if key in self._unsupported:
            return False
        return True if key in self._worked else None

    def unsupported_metrics(self, device: str) -> list[str]:
        return sorted(m for d, m in self._unsupported if d == device)

    def forget(self, device: str) -> None:
        """Drop what we learned about ``device`` (it was replaced by another card)."""
        self._unsupported = {k for k in self._unsupported if k[0] != device}
        self._worked = {k for k in self._worked if k[0] != device}
        self._chosen = {k: v for k, v in self._chosen.items() if k[0] != device}
        self._steady = {k: v for k, v in self._steady.items() if k[0] != device}

    def query(self, device: str, metric: str, attempts: Sequence[Attempt],
              convert: Callable[[Any], Any] | None = None) -> Any:
        """Read ``metric`` of ``device`` trying ``attempts`` newest first.

        Returns the value (``convert``-ed, sentinels as None) or None when the
        metric is not supported here. Raises :class:`DeviceFailure` for errors
        about the whole GPU.
        """
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.skipped_late += 1
            return None
        key = (device, metric)
        steady = self._steady.get(key)
        if steady is not None and steady[0] is attempts:
            # Steady state: the entry point that worked last time, no bookkeeping.
            attempt = steady[1]
            fn = attempt.function if not isinstance(attempt.function, str) else getattr(
                self._lib, attempt.function, None)
            if fn is not None and attempt.validate is None:
                self.calls += 1
                try:
                    raw = fn(*attempt.args, **attempt.kwargs) if attempt.kwargs else fn(*attempt.args)
                except self._lib.NVMLError as exc:
                    code = error_code(exc)
                    if code in _TRANSIENT_CODES or code in _UNSUPPORTED_CODES:
                        return None  # it worked before: one odd answer does not make it unsupported
                    raise DeviceFailure(code, reason_text(exc)) from exc
                except (UnicodeDecodeError, ValueError):
                    return None
                if raw.__class__ is int and raw >= NOT_AVAILABLE_UINT and raw in _SENTINELS:
                    return None
                return raw if convert is None or raw is None else convert(raw)
        if key in self._unsupported:
            return None
        start = self._chosen.get(key, 0)
        last_code: int | None = None
        for position in range(start, len(attempts)):
            attempt = attempts[position]
            try:
                if attempt.kwargs:
                    raw = self.call(attempt.function, *attempt.args, **attempt.kwargs)
                else:
                    raw = self.call(attempt.function, *attempt.args)
            except self._lib.NVMLError as exc:
                code = error_code(exc)
                if code in _TRANSIENT_CODES:
                    return None
                if code in _UNSUPPORTED_CODES:
                    last_code = code
                    if key in self._worked:
                        # It worked before: one odd answer does not make it unsupported.
                        return None
                    continue  # try the older entry point
                raise DeviceFailure(code, reason_text(exc)) from exc
            except (UnicodeDecodeError, ValueError):
                # A garbled string or struct from an odd driver: no value this time.
                return None
            if attempt.validate is not None and not attempt.validate(raw):
                last_code = ERROR_NOT_SUPPORTED
                self._chosen[key] = position + 1
                continue
            self._chosen[key] = position
            self._worked.add(key)
            self._steady[key] = (attempts, attempt)
            value = clean(raw)
            if value is None or convert is None:
                return value
            return convert(value)
        if last_code is not None:
            self._unsupported.add(key)
        return None


# ---- power limits (the efficiency sweep and "Set power limit")


class PowerLimits(NamedTuple):
    """A GPU's power limits in watts; None where the card does not say."""

    current_w: float | None  # the enforced limit (nvidia-smi's "Current Power Limit")
    default_w: float | None
    min_w: float | None  # nvmlDeviceGetPowerManagementLimitConstraints: what -pl accepts
    max_w: float | None


def _mw_to_w(value: Any) -> float | None:
    value = clean(value)
    return None if value is None else value / 1000.0


def read_power_limits(nvml: Nvml, device: str, handle: Any) -> PowerLimits:
    """The limits ``nvidia-smi -pl`` works within; raises :class:`DeviceFailure` for a lost GPU."""
    current = nvml.query(device, "sweep.power_limit", (Attempt("nvmlDeviceGetEnforcedPowerLimit", (handle,)),
                                                 Attempt("nvmlDeviceGetPowerManagementLimit", (handle,))))
    default = nvml.query(device, "sweep.power_limit_default",
                         (Attempt("nvmlDeviceGetPowerManagementDefaultLimit", (handle,)),))
    bounds = nvml.query(device, "sweep.power_limit_constraints",
                        (Attempt("nvmlDeviceGetPowerManagementLimitConstraints", (handle,)),))
    low, high = (bounds[0], bounds[1]) if isinstance(bounds, (list, tuple)) and len(bounds) == 2 else (None, None)
    return PowerLimits(_mw_to_w(current), _mw_to_w(default), _mw_to_w(low), _mw_to_w(high))


def read_energy_mj(nvml: Nvml, device: str, handle: Any) -> int | None:
    """Energy used since the driver loaded, in millijoules (Volta and newer); None where unsupported."""
    value = nvml.query(device, "sweep.energy", (Attempt("nvmlDeviceGetTotalEnergyConsumption", (handle,)),))
    return value if isinstance(value, int) else None
