"""The one NVML device listing, through the function-level fake."""
from __future__ import annotations

from services.nvml_devices import list_devices
from services.setup.demo import demo_machine
from services.setup.probes import read_nvml
from services.telemetry.model import DeviceState
from tests.fakes.fake_nvml import (
    NVML_ERROR_DRIVER_NOT_LOADED, NVML_ERROR_GPU_IS_LOST, FakeNvml, make_gpu, scenario,
)


def test_lists_driver_and_every_gpu_then_shuts_down():
    fake = FakeNvml([make_gpu(0), make_gpu(1, name="NVIDIA GeForce RTX 3060", pci_device_id=0x250310DE,
                                            capability=(8, 6))])
    inv = list_devices(fake)
    assert inv.ok and inv.driver_version == "560.35.03" and inv.cuda_driver_version == 12060
    assert [d.name for d in inv.devices] == ["NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3060"]
    second = inv.devices[1]
    assert second.pci_bus_id == "00000000:02:00.0" and second.pci_device_id == 0x250310DE
    assert second.capability == (8, 6)
    # v1 memory info counts the reserved memory as used, as nvidia-smi does
    assert inv.devices[0].memory_total_mib == 24564 and inv.devices[0].memory_used_mib == 18000 + 318
    assert fake.initialized == 0 and fake.calls["nvmlShutdown"] == 1


def test_a_value_one_gpu_lacks_is_none_not_a_failure():
    gpu = make_gpu(0)
    gpu.unsupported.update({"nvmlDeviceGetCudaComputeCapability", "nvmlDeviceGetMemoryInfo"})
    device = list_devices(FakeNvml([gpu])).devices[0]
    assert device.capability is None and device.memory_total_mib is None and device.name == gpu.name


def test_init_failure_is_a_state_with_the_wrappers_reason():
    inv = list_devices(FakeNvml(0, init_error=NVML_ERROR_DRIVER_NOT_LOADED))
    assert not inv.ok and inv.devices == ()
    assert inv.state is DeviceState.DRIVER_NOT_LOADED and inv.error_code == NVML_ERROR_DRIVER_NOT_LOADED
    assert "not loaded" in inv.error and inv.error_text is not None
    assert list_devices(scenario("no_driver")).state is DeviceState.NO_DRIVER


def test_a_lost_gpu_fails_the_listing_and_still_shuts_down():
    fake = FakeNvml([make_gpu(0, lost=True)])
    inv = list_devices(fake)
    assert not inv.ok and inv.state is DeviceState.LOST and inv.error_code == NVML_ERROR_GPU_IS_LOST
    assert fake.initialized == 0


def test_old_binding_without_init_with_flags_is_refused_with_a_fix():
    class OldPynvml:  # the PyPI "pynvml"/"nvidia-ml-py3" shape
        def nvmlInit(self):
            pass

    inv = list_devices(OldPynvml())
    assert not inv.ok and "nvidia-ml-py" in inv.error


def test_doctor_and_demo_machine_read_through_it(tmp_path):
    state = read_nvml(demo_machine(tmp_path / "demo").nvml)
    assert state.ok and state.driver_version and state.cuda_version == "12.4"
    assert state.gpus[0].capability is not None and state.gpus[0].pci_bus_id
