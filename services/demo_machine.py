"""The one simulated machine of ``--demo``, described once in ``resources/data/demo_machine.json``.

The dashboard's telemetry simulation, Setup's recorded doctor run and Hybrid's inventory all read
their cards and driver from here, so every page of the demo names the same GPUs.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from services.resources import resource_path

DEMO_MACHINE_FILE = resource_path("data", "demo_machine.json")


@dataclass(frozen=True, slots=True)
class DemoGpu:
    name: str  # NVML's marketing name, "NVIDIA GeForce RTX 4090"
    pci_bus_id: str  # NVML's form, "00000000:01:00.0"
    pci_device_id: int  # NVML's pciDeviceId: device << 16 | vendor
    capability: tuple[int, int]
    lspci_name: str  # what lspci prints after "NVIDIA Corporation"
    boot_vga: bool  # drives the display
    memory_total_mib: float
    power_limit_w: float
    temp_target_c: float  # GPU Boost's temperature target: sw_thermal starts here
    temp_slowdown_c: float
    temp_shutdown_c: float
    sm_clock_max_mhz: float
    mem_clock_max_mhz: float
    pcie_gen_max: int
    pcie_width_max: int
    # behaviour under the simulated workload (not specs: what a training job typically shows)
    load_clock_mhz: float
    load_mem_clock_mhz: float
    idle_power_w: float
    load_power_w: float
    idle_temp_c: float
    load_temp_c: float
    source: str

    @property
    def pci_ids(self) -> tuple[int, int]:
        """(vendor, device) as lspci and sysfs write them."""
        return self.pci_device_id & 0xFFFF, self.pci_device_id >> 16

    @property
    def short_bus(self) -> str:
        """lspci's form, "01:00.0"."""
        return self.pci_bus_id.split(":", 1)[1].lower()


@dataclass(frozen=True, slots=True)
class DemoMachineSpec:
    gpus: tuple[DemoGpu, ...]
    driver_version: str
    cuda_driver_version: str  # "12.4"
    cpu_count: int
    ram_total_mib: float
    swap_total_mib: float

    @property
    def cuda_driver_int(self) -> int:
        """NVML's nvmlSystemGetCudaDriverVersion form: 12040 for 12.4."""
        major, minor = self.cuda_driver_version.split(".")
        return int(major) * 1000 + int(minor) * 10

    @property
    def gpu_names(self) -> tuple[str, ...]:
        return tuple(g.name for g in self.gpus)


@lru_cache(maxsize=1)
def demo_machine_spec() -> DemoMachineSpec:
    data = json.loads(DEMO_MACHINE_FILE.read_text(encoding="utf-8"))
    fields = set(DemoGpu.__dataclass_fields__)
    gpus = []
    for g in data["gpus"]:
        values = {k: v for k, v in g.items() if k in fields}
        values["pci_device_id"] = int(str(g["pci_device_id"]), 16)
        values["capability"] = (int(g["capability"][0]), int(g["capability"][1]))
        gpus.append(DemoGpu(**values))
    return DemoMachineSpec(tuple(gpus), data["driver_version"], data["cuda_driver_version"],
                           int(data["cpu_count"]), float(data["ram_total_mib"]), float(data["swap_total_mib"]))
