from __future__ import annotations

import pytest

from services.hybrid.inventory_linux import read_linux_inventory
from services.hybrid.model import GpuKind, Vendor
from services.hybrid.windows import read_windows_inventory
from tests.fakes.hybrid_fakes import (
    AMD_APU, AMD_APU_NEIGHBOURS, AMD_DGPU, INTEL_IGPU, NVIDIA_DGPU, build_sysfs, laptop_registry,
)


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_intel_nvidia_laptop(tmp_path):
    inv = read_linux_inventory(build_sysfs(tmp_path, [INTEL_IGPU, NVIDIA_DGPU]))
    intel, nvidia = inv.adapters
    assert intel.vendor is Vendor.INTEL and intel.kind is GpuKind.INTEGRATED
    assert intel.name == "CometLake-H GT2 [UHD Graphics]"
    assert intel.driver == "i915" and intel.pci_address == "0000:00:02.0"
    assert intel.drives_display is True and intel.connected_outputs == ("eDP-1",)
    assert intel.drm_cards == ("card0", "renderD128")
    assert nvidia.vendor is Vendor.NVIDIA and nvidia.kind is GpuKind.DISCRETE
    assert nvidia.name == "GA106M [GeForce RTX 3060 Mobile / Max-Q]"
    assert nvidia.drives_display is False and nvidia.boot_vga is False
    assert inv.has_nvidia and inv.by_pci("00000000:01:00.0") is nvidia


def test_amd_apu_and_radeon_card_told_apart(tmp_path):
    inv = read_linux_inventory(build_sysfs(tmp_path, [AMD_APU, AMD_DGPU], AMD_APU_NEIGHBOURS))
    apu = inv.by_pci("0000:c4:00.0")
    card = inv.by_pci("0000:03:00.0")
    assert apu.kind is GpuKind.INTEGRATED and apu.name == "Rembrandt [Radeon 680M]"
    assert card.kind is GpuKind.DISCRETE and card.drives_display is False


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_nvidia_without_drm_node_and_no_names(tmp_path):
    nvidia = dict(NVIDIA_DGPU, cards=[], connectors={})
    inv = read_linux_inventory(build_sysfs(tmp_path, [INTEL_IGPU, nvidia], pci_ids=False))
    assert [a.vendor for a in inv.adapters] == [Vendor.INTEL, Vendor.NVIDIA]
    assert inv.adapters[1].name == "NVIDIA [10de:2560]" and inv.adapters[1].drm_cards == ()


def test_no_gpu_at_all(tmp_path):
    inv = read_linux_inventory(tmp_path)
    assert not inv.has_gpu
    assert any("/sys/class/drm" in str(p) for p in inv.problems)


def test_windows_adapters_from_registry():
    inv = read_windows_inventory(laptop_registry())
    assert [a.name for a in inv.adapters] == ["Intel(R) UHD Graphics", "NVIDIA GeForce RTX 3060 Laptop GPU"]
    intel, nvidia = inv.adapters
    assert intel.luid == "0x00000000_0x0000D1C6" and intel.kind is GpuKind.INTEGRATED  # basic render + stale copy skipped
    assert nvidia.luid == "0x00000000_0x0000E2F1" and nvidia.kind is GpuKind.DISCRETE
    assert nvidia.dedicated_memory_mib == 5996.0
    assert inv.by_luid("0x00000000_0x0000e2f1") is nvidia
