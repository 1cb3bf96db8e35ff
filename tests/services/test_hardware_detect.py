"""Prefilling the calculator: telemetry devices, NVML fakes, /proc/cpuinfo and the Windows registry."""
from __future__ import annotations

import pytest

from services.hardware import detect
from services.hardware.catalog import load_catalog
from services.telemetry.model import GpuInfo
from tests.fakes.fake_nvml import NVML_ERROR_LIBRARY_NOT_FOUND, FakeNvml, make_gpu


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_telemetry_devices_match_by_pci_id_then_name(catalog):
    infos = (
        GpuInfo(index=0, name="NVIDIA GeForce RTX 4090", uuid="GPU-0", pci_device_id=0x268410DE),
        GpuInfo(index=1, name="NVIDIA GeForce RTX 4060 Ti", uuid="GPU-1", pci_device_id=0x280510DE, memory_total_mib=16380),
        GpuInfo(index=2, name="NVIDIA RTX A6000", uuid="GPU-2"),  # no PCI ID: the name decides
        GpuInfo(index=3, name="Some Future GPU", uuid="GPU-3"),
    )
    names = [g.name for g in detect.detected_gpus(infos, catalog.gpus)]
    assert names == ["GeForce RTX 4090", "GeForce RTX 4060 Ti 16GB", "RTX A6000"]
    assert detect.detected_gpus((), catalog.gpus) == []


def test_nvml_detection_with_fakes(catalog):
    # Two GPUs, the second without PCI info: the name and memory decide for it.
    second = make_gpu(1, name="NVIDIA GeForce RTX 3090", mem_total=24 * 2**30)
    second.unsupported.update({"nvmlDeviceGetPciInfo_v3"})
    nvml = FakeNvml([make_gpu(0, name="NVIDIA GeForce RTX 5090", pci_device_id=0x2B8510DE, mem_total=32 * 2**30),
                     second])
    assert [g.name for g in detect.detected_gpus_nvml(catalog.gpus, nvml)] == ["GeForce RTX 5090", "GeForce RTX 3090"]
    assert nvml.initialized == 0 and nvml.calls["nvmlShutdown"] == 1
    assert detect.nvml_devices(nvml)[1].pci_device_id is None
    no_driver = FakeNvml(0, init_error=NVML_ERROR_LIBRARY_NOT_FOUND)
    assert detect.detected_gpus_nvml(catalog.gpus, no_driver) == []


def test_cpu_name_from_proc_cpuinfo(tmp_path, catalog):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: 13th Gen Intel(R) Core(TM) i9-13900K\n", encoding="utf-8")
    name = detect.cpu_name_linux(cpuinfo)
    assert name == "13th Gen Intel(R) Core(TM) i9-13900K"
    assert detect.detected_cpu(catalog.cpus, name).name == "Core i9-13900K"
    assert detect.cpu_name_linux(tmp_path / "missing") is None


def test_cpu_name_from_the_windows_registry(catalog):
    # ProcessorNameString as Windows stores it (trailing spaces included)
    name = detect.cpu_name_windows(lambda: "AMD Ryzen 9 7950X3D 16-Core Processor           ")
    assert detect.detected_cpu(catalog.cpus, name).name == "Ryzen 9 7950X3D"

    def denied():
        raise PermissionError("access denied")
    detect.cpu_name_windows(denied)  # falls back to platform.processor(), never raises
