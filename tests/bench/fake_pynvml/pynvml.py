"""A stand-in ``pynvml`` for the monitor benchmark: nvidia-ml-py's module with its NVML
calls answered by the test fake (``tests/fakes/fake_nvml.py``, scenario "desktop").

Put this folder first on ``PYTHONPATH`` and every process that does ``import pynvml``
(our NVML wrapper, and nvitop, which imports nvidia-ml-py by that name) talks to the
same fake two-GPU machine: both programs pay for the same NVML answers, so what the
benchmark compares is their own start-up and work. Constants and structures are the
real binding's; an NVML function the fake does not answer fails with
NOT_SUPPORTED, as a feature the card lacks does (both programs show such a value as absent).
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parents[2]
if str(_ROOT) not in sys.path:
    sys.path.append(str(_ROOT))


def _load_real_binding():
    """nvidia-ml-py's pynvml.py, found on sys.path past this folder."""
    for entry in sys.path:
        if not entry or Path(entry).resolve() == _HERE:
            continue
        candidate = Path(entry) / "pynvml.py"
        if candidate.is_file():
            spec = importlib.util.spec_from_file_location("_real_pynvml", candidate)
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module  # the binding looks itself up there
            spec.loader.exec_module(module)
            return module
    raise ImportError("nvidia-ml-py (pynvml.py) is not installed")


_real = _load_real_binding()
globals().update({name: value for name, value in vars(_real).items() if not name.startswith("__")})

from tests.fakes import fake_nvml as _fake_module  # noqa: E402

_fake = _fake_module.scenario("desktop")


def _answer(method):
    """The fake's answer, its errors raised as the real binding's classes (nvitop catches those)."""
    def call(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except _fake_module.NVMLError as exc:
            raise _real.NVMLError(exc.value) from None
    call.__name__ = method.__name__
    return call


def _not_found(*_args, **_kwargs):
    raise NVMLError(NVML_ERROR_NOT_SUPPORTED)  # noqa: F821 - copied from the binding above


for _name, _value in list(globals().items()):
    if (_name.startswith("nvml") and callable(_value) and not isinstance(_value, type)
            and _name not in ("nvmlExceptionClass", "nvmlStructToFriendlyObject", "nvmlFriendlyObjectToStruct")):
        globals()[_name] = _answer(getattr(_fake, _name)) if callable(getattr(type(_fake), _name, None)) else _not_found


def _c_call(fill):
    """A C-style entry point: fills its out-parameters, returns the NVML code."""
    def c_function(*args):
        try:
            fill(*args)
        except _fake_module.NVMLError as exc:
            return exc.value
        return NVML_SUCCESS  # noqa: F821 - copied from the binding above
    return c_function


def _fill_memory(handle, ref):
    memory = _fake.nvmlDeviceGetMemoryInfo(handle)
    target = ref._obj
    for field in ("total", "free", "used"):
        setattr(target, field, getattr(memory, field))


def _fill_temperature_v(handle, ref):
    ref._obj.temperature = _fake.nvmlDeviceGetTemperature(handle, int(ref._obj.sensorType))


def _fill_temperature(handle, sensor, ref):
    ref._obj.value = _fake.nvmlDeviceGetTemperature(handle, int(getattr(sensor, "value", sensor)))


def _nvmlGetFunctionPointer(symbol: str):  # the binding's name
    """Raw entry points, for callers that bypass the binding's wrappers (nvitop does, for some)."""
    if symbol.startswith("nvmlDeviceGetMemoryInfo"):
        return _c_call(_fill_memory)
    if symbol == "nvmlDeviceGetTemperatureV":
        return _c_call(_fill_temperature_v)
    if symbol == "nvmlDeviceGetTemperature":
        return _c_call(_fill_temperature)
    for base in ("nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetGraphicsRunningProcesses"):
        if symbol.startswith(base):
            return _answer(_fake._nvmlGetFunctionPointer)(base)
    raise NVMLError(NVML_ERROR_NOT_SUPPORTED)  # noqa: F821
