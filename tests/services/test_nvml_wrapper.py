"""The NVML wrapper itself: error mapping, probing, fallbacks, sentinels."""
from __future__ import annotations

import pytest

from services.telemetry import nvml as nv
from services.telemetry.model import DeviceState
from tests.fakes.fake_nvml import (
    NVML_ERROR_GPU_IS_LOST, NVML_ERROR_LIB_RM_VERSION_MISMATCH, NVML_ERROR_NO_PERMISSION,
    NVML_ERROR_TIMEOUT, FakeNvml, NVMLError,
)


def started(fake: FakeNvml) -> nv.Nvml:
    wrapper = nv.Nvml(fake)
    wrapper.init()
    return wrapper


def test_error_codes_map_to_states():
    assert nv.state_for_code(12) is DeviceState.NO_DRIVER
    assert nv.state_for_code(9) is DeviceState.DRIVER_NOT_LOADED
    assert nv.state_for_code(18) is DeviceState.VERSION_MISMATCH
    assert nv.state_for_code(4) is DeviceState.NO_PERMISSION
    assert nv.state_for_code(15) is DeviceState.LOST
    assert nv.state_for_code(999) is DeviceState.ERROR
    assert nv.state_for_code(None) is DeviceState.ERROR


def test_fake_errors_become_their_subclass_like_the_binding():
    exc = NVMLError(NVML_ERROR_GPU_IS_LOST)
    assert type(exc).__name__ == "NVMLError_GpuIsLost"
    assert nv.error_code(exc) == 15
    assert "reboot" in nv.reason_for(NVMLError(NVML_ERROR_LIB_RM_VERSION_MISMATCH))


def test_init_once_and_shutdown():
    fake = FakeNvml(1)
    wrapper = nv.Nvml(fake)
    wrapper.init()
    wrapper.init()
    assert fake.calls["nvmlInitWithFlags"] == 1
    wrapper.shutdown()
    wrapper.shutdown()
    assert fake.calls["nvmlShutdown"] == 1 and fake.initialized == 0


def test_init_error_raises_unavailable_with_state():
    wrapper = nv.Nvml(FakeNvml(1, init_error=NVML_ERROR_NO_PERMISSION))
    with pytest.raises(nv.NvmlUnavailable) as info:
        wrapper.init()
    assert info.value.state is DeviceState.NO_PERMISSION
    assert not wrapper.initialized


def test_sentinels_and_text():
    assert nv.clean(0xFFFFFFFF) is None
    assert nv.clean(0xFFFFFFFFFFFFFFFF) is None
    assert nv.clean(0) == 0
    assert nv.clean(True) is True
    assert nv.text(b"GPU-1\xff") == "GPU-1\ufffd"


def test_query_falls_back_and_remembers_the_entry_point_that_worked():
    fake = FakeNvml(1, missing={"nvmlDeviceGetTemperatureV"})
    wrapper = started(fake)
    handle = fake.nvmlDeviceGetHandleByIndex(0)
    attempts = (nv.Attempt("nvmlDeviceGetTemperatureV", (handle, 0)),
                nv.Attempt("nvmlDeviceGetTemperature", (handle, 0)))
    assert [wrapper.query("gpu", "temperature", attempts) for _ in range(3)] == [71, 71, 71]
    assert fake.calls["nvmlDeviceGetTemperatureV"] == 1
    assert fake.calls["nvmlDeviceGetTemperature"] == 3
    assert wrapper.supported("gpu", "temperature") is True


def test_query_marks_unsupported_once_all_entry_points_refuse():
    fake = FakeNvml(1)
    fake.gpus[0].unsupported.add("nvmlDeviceGetFanSpeed")
    wrapper = started(fake)
    handle = fake.nvmlDeviceGetHandleByIndex(0)
    attempt = (nv.Attempt("nvmlDeviceGetFanSpeed", (handle,)),)
    assert wrapper.supported("gpu", "fan") is None
    assert wrapper.query("gpu", "fan", attempt) is None
    assert wrapper.query("gpu", "fan", attempt) is None
    assert fake.calls["nvmlDeviceGetFanSpeed"] == 1
    assert wrapper.supported("gpu", "fan") is False
    wrapper.forget("gpu")
    assert wrapper.supported("gpu", "fan") is None


def test_query_transient_error_is_none_without_marking():
    fake = FakeNvml(1)
    fake.gpus[0].errors["nvmlDeviceGetFanSpeed"] = NVML_ERROR_TIMEOUT
    wrapper = started(fake)
    handle = fake.nvmlDeviceGetHandleByIndex(0)
    attempt = (nv.Attempt("nvmlDeviceGetFanSpeed", (handle,)),)
    assert wrapper.query("gpu", "fan", attempt) is None
    assert wrapper.supported("gpu", "fan") is None


def test_query_device_error_raises_device_failure():
    fake = FakeNvml(1)
    wrapper = started(fake)
    handle = fake.nvmlDeviceGetHandleByIndex(0)
    fake.gpus[0].lost = True
    with pytest.raises(nv.DeviceFailure) as info:
        wrapper.query("gpu", "fan", (nv.Attempt("nvmlDeviceGetFanSpeed", (handle,)),))
    assert info.value.state is DeviceState.LOST and info.value.needs_reinit


def test_v1_process_call_through_the_raw_symbol():
    fake = FakeNvml(1)
    wrapper = started(fake)
    handle = fake.nvmlDeviceGetHandleByIndex(0)
    procs = wrapper.call("nvmlDeviceGetComputeRunningProcesses_v1", handle)
    assert [(p.pid, p.usedGpuMemory) for p in procs] == [(4242, 17000 * 2**20)]
    fake.gpus[0].compute = []
    assert wrapper.call("nvmlDeviceGetComputeRunningProcesses_v1", handle) == []


def test_real_binding_module_has_what_the_wrapper_calls():
    pynvml = pytest.importorskip("pynvml")
    for name in ("nvmlInitWithFlags", "nvmlShutdown", "nvmlDeviceGetCount", "_nvmlGetFunctionPointer",
                 "NVMLError"):
        assert hasattr(pynvml, name), name
    assert pynvml.nvmlMemory_v2 == 0x02000028
    assert pynvml.NVML_VALUE_NOT_AVAILABLE_uint.value == nv.NOT_AVAILABLE_UINT
    assert pynvml.NVML_VALUE_NOT_AVAILABLE_ulonglong.value == nv.NOT_AVAILABLE_ULONGLONG
    for name, value in vars(nv).items():
        if name.startswith("ERROR_"):
            assert getattr(pynvml, "NVML_" + name) == value, name


def test_real_binding_without_a_driver_is_no_driver():
    pytest.importorskip("pynvml")
    wrapper = nv.Nvml()
    try:
        wrapper.init()
    except nv.NvmlUnavailable as exc:
        assert exc.state in (DeviceState.NO_DRIVER, DeviceState.DRIVER_NOT_LOADED,
                             DeviceState.VERSION_MISMATCH, DeviceState.NO_PERMISSION, DeviceState.ERROR)
    else:  # a machine with a driver: it must have started
        assert wrapper.initialized
        wrapper.shutdown()
