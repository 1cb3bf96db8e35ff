from __future__ import annotations

import itertools

import pytest

from services.hybrid.attribution import LinuxAttributor, WindowsAttributor, windows_uses
from services.hybrid.inventory_linux import read_linux_inventory
from services.hybrid.model import Basis, Placement
from services.hybrid.nvidia import NvidiaProcess, NvidiaUtilization, merge_process_lists
from services.hybrid.windows import is_work_engtype, parse_engine_instance, parse_memory_instance, read_windows_inventory
from tests.fakes.hybrid_fakes import (
    AMD_DGPU, INTEL_IGPU, NVIDIA_DGPU, FakeCounters, FakeNvidiaProbe, SwapOnWait, add_process, build_sysfs, data,
    laptop_registry,
)


def one_second_clock():
    ticks = itertools.count(0, 1_000_000_000)
    return lambda: next(ticks)


@pytest.fixture
def laptop(tmp_path):
    inventory = read_linux_inventory(build_sysfs(tmp_path / "root", [INTEL_IGPU, NVIDIA_DGPU]))
    proc = tmp_path / "proc"
    proc.mkdir()
    return inventory, proc


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_linux_offloaded_game_browser_and_cuda(laptop):
    inventory, proc = laptop
    # glxgears on NVIDIA via PRIME offload: NVML graphics process, NVIDIA GL libraries, offload variables.
    add_process(proc, 4100, "glxgears", "/usr/bin/glxgears", fds={5: ("/dev/nvidiactl", None)},
                maps=data("maps_nvidia_offload.txt"),
                environ={"__NV_PRIME_RENDER_OFFLOAD": "1", "__GLX_VENDOR_LIBRARY_NAME": "nvidia"})
    # A browser rendering on the Intel GPU: the same client reached through two fds is counted once.
    browser = add_process(proc, 4200, "firefox", "/usr/lib/firefox/firefox",
                          fds={7: ("/dev/dri/renderD128", data("fdinfo_i915_t0.txt")),
                               9: ("/dev/dri/renderD128", data("fdinfo_i915_t0.txt"))},
                          maps=data("maps_mesa_intel.txt"))
    # A CUDA training run.
    add_process(proc, 4300, "python3.11", "/home/user/venv/bin/python3.11", maps=data("maps_cuda_python.txt"),
                environ={"CUDA_VISIBLE_DEVICES": "0"})
    add_process(proc, 4400, "bash", "/usr/bin/bash")  # no GPU evidence: not listed
    nvidia = FakeNvidiaProbe(
        processes=[NvidiaProcess(4100, 0, "graphics", 38.0), NvidiaProcess(4300, 0, "compute", 5120.0)],
        utilization=[NvidiaUtilization(4100, 0, 41.0, 0.0, 0.0), NvidiaUtilization(4300, 0, 97.0, 0.0, 0.0)])
    swap = SwapOnWait({browser / "fdinfo/7": data("fdinfo_i915_t1.txt"),
                       browser / "fdinfo/9": data("fdinfo_i915_t1.txt")})
    result = LinuxAttributor(proc, nvidia, clock_ns=one_second_clock()).scan(inventory, 1.0, stop=swap)
    assert swap.waited == [1.0]
    assert sorted(p.pid for p in result.processes) == [4100, 4200, 4300]

    game = result.process(4100)
    assert (game.placement, game.basis) == (Placement.NVIDIA, Basis.MEASURED)
    assert game.uses[0].adapter_key == "pci:0000:01:00.0" and game.work_pct == 41.0
    assert dict(game.offload_env)["__NV_PRIME_RENDER_OFFLOAD"] == "1"
    assert "libGLX_nvidia.so.550.78" in game.libraries
    text = [str(m) for m in game.evidence]
    assert any("lists it as a graphics process" in t for t in text)
    assert any("Started with GPU selection variables" in t for t in text)

    fox = result.process(4200)
    assert (fox.placement, fox.basis) == (Placement.INTEGRATED, Basis.MEASURED)
    (use,) = fox.uses
    assert use.source == "fdinfo" and use.work_pct == pytest.approx(45.0)  # not doubled by the second fd
    assert use.memory_mib == pytest.approx(17.0)

    cuda = result.process(4300)
    assert (cuda.placement, cuda.basis) == (Placement.NVIDIA, Basis.MEASURED)
    assert cuda.memory_mib == 5120.0
    assert any("CUDA work always runs on the NVIDIA GPU" in str(m) for m in cuda.evidence)


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_linux_amd_discrete_and_both(tmp_path):
    inventory = read_linux_inventory(build_sysfs(tmp_path / "root", [INTEL_IGPU, AMD_DGPU]))
    proc = tmp_path / "proc"
    proc.mkdir()
    app = add_process(proc, 10, "blender", "/opt/blender/blender", fds={
        3: ("/dev/dri/renderD129", data("fdinfo_amdgpu_t0.txt")),
        4: ("/dev/dri/renderD128", data("fdinfo_xe_t0.txt")),
    })
    swap = SwapOnWait({app / "fdinfo/3": data("fdinfo_amdgpu_t1.txt"), app / "fdinfo/4": data("fdinfo_xe_t1.txt")})
    report = LinuxAttributor(proc, None, clock_ns=one_second_clock()).scan(inventory, 1.0, stop=swap).process(10)
    # amdgpu gfx 75 % on the Radeon card; xe rcs 50 % on the Intel GPU: two non-NVIDIA GPUs, busiest wins.
    assert report.placement is Placement.OTHER and report.basis is Basis.MEASURED
    assert {u.adapter_key for u in report.uses} == {"pci:0000:03:00.0", "pci:0000:00:02.0"}


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_linux_idle_context_and_libraries_only(laptop):
    inventory, proc = laptop
    add_process(proc, 20, "gnome-shell", "/usr/bin/gnome-shell",
                fds={11: ("/dev/dri/card0", data("fdinfo_i915_t0.txt"))})
    add_process(proc, 21, "vkcube", "/usr/bin/vkcube", maps=data("maps_vulkan_both.txt"))
    add_process(proc, 22, "glxgears", "/usr/bin/glxgears", maps=data("maps_mesa_intel.txt"))
    result = LinuxAttributor(proc, None, clock_ns=one_second_clock()).scan(inventory, 1.0, stop=SwapOnWait({}))
    shell = result.process(20)
    assert (shell.placement, shell.basis) == (Placement.INTEGRATED, Basis.CONTEXT)
    vk = result.process(21)
    assert (vk.placement, vk.basis) == (Placement.NONE, Basis.LIBRARIES)
    assert any("cannot tell" in str(m) for m in vk.evidence)
    gears = result.process(22)
    assert (gears.placement, gears.basis) == (Placement.INTEGRATED, Basis.LIBRARIES)


def test_linux_pid_filter_reports_process_without_evidence(laptop):
    inventory, proc = laptop
    add_process(proc, 30, "bash", "/usr/bin/bash")
    result = LinuxAttributor(proc, None).scan(inventory, 0, pids=[30, 31])
    (report,) = result.processes
    assert report.placement is Placement.NONE and str(report.evidence[0]) == "No sign of GPU use"


def test_nvml_lists_merge_compute_and_graphics():
    class Item:
        def __init__(self, pid, used):
            self.pid, self.usedGpuMemory = pid, used

    merged = merge_process_lists(0, [Item(5, 512 * 2 ** 20), Item(6, None)], [Item(5, 256 * 2 ** 20), Item(7, 2 ** 64 - 1)])
    by_pid = {p.pid: p for p in merged}
    assert by_pid[5].kind == "compute+graphics" and by_pid[5].used_mib == 512.0
    assert by_pid[6].used_mib is None and by_pid[7].used_mib is None and by_pid[7].kind == "graphics"


# ---- Windows -------------------------------------------------------------------------------

def test_counter_instance_names():
    inst = parse_engine_instance("pid_1234_luid_0x00000000_0x0000D1C6_phys_0_eng_0_engtype_3D")
    assert (inst.pid, inst.luid, inst.phys, inst.engine, inst.engtype) == (1234, "0x00000000_0x0000D1C6", 0, 0, "3D")
    assert parse_engine_instance("pid_1_luid_0x00000000_0x0000d1c6_phys_0_eng_5_engtype_").engtype == ""
    assert parse_engine_instance("_Total") is None
    assert parse_memory_instance("pid_4812_luid_0x00000000_0x0000E2F1_phys_0") == (4812, "0x00000000_0x0000E2F1")
    assert all(is_work_engtype(t) for t in ("3D", "Compute_0", "Compute_1", "Cuda", "Graphics_1"))
    assert not any(is_work_engtype(t) for t in ("Copy", "VideoDecode", "VideoEncode", "VideoProcessing",
                                                "LegacyOverlay", "Security", ""))


def windows_scan(nvidia=None, pids=None):
    inventory = read_windows_inventory(laptop_registry())
    names = {4812: "Cyberpunk2077.exe", 9920: "msedge.exe", 15304: "python.exe", 1396: "dwm.exe", 7720: "notepad.exe"}
    info = lambda pid: (names[pid], f"C:\\Apps\\{names[pid]}", ()) if pid in names else None
    counters = FakeCounters()
    result = WindowsAttributor(counters, nvidia, process_info=info).scan(inventory, 1.0, pids=pids)
    assert counters.intervals == [1.0]
    return result


def test_windows_offloaded_game_is_nvidia_despite_copy_on_intel():
    result = windows_scan()
    game = result.process(4812)
    assert (game.placement, game.basis) == (Placement.NVIDIA, Basis.MEASURED)
    nvidia_use = next(u for u in game.uses if u.adapter_key == "luid:0x00000000_0x0000E2F1")
    assert nvidia_use.work_pct == 87.5 and nvidia_use.other_pct == pytest.approx(4.3)  # Copy engines summed
    assert nvidia_use.memory_mib == pytest.approx(3276.8)
    assert any("Only copy/video work on Intel(R) UHD Graphics" in str(m) for m in game.evidence)


def test_windows_other_programs():
    result = windows_scan()
    assert result.process(9920).placement is Placement.INTEGRATED
    cuda = result.process(15304)
    assert cuda.placement is Placement.NVIDIA and cuda.work_pct == 95.5  # two Cuda engines summed
    assert result.process(1396).placement is Placement.INTEGRATED
    assert result.process(7720) is None  # did nothing, holds nothing


def test_windows_nvml_adds_cuda_context_to_idle_program():
    nvidia = FakeNvidiaProbe(processes=[NvidiaProcess(7720, 0, "compute", None)])
    report = windows_scan(nvidia).process(7720)
    assert (report.placement, report.basis) == (Placement.NVIDIA, Basis.CONTEXT)
    assert report.uses[0].adapter_key == "luid:0x00000000_0x0000E2F1"  # NVML GPU joined to the NVIDIA LUID


def test_windows_uses_ignores_foreign_instances():
    inventory = read_windows_inventory(laptop_registry())
    uses = windows_uses(inventory, {"not_a_gpu_instance": 5.0}, {}, {})
    assert uses == {}


def test_nvml_processes_outside_this_pid_namespace_are_counted(laptop):
    inventory, proc = laptop
    nvidia = FakeNvidiaProbe(processes=[NvidiaProcess(987654, 0, "compute", 100.0)])
    result = LinuxAttributor(proc, nvidia).scan(inventory, 0)
    assert result.processes == ()
    assert "lists 1 processes that are not visible here" in str(result.notes[0])


def test_windows_scan_without_gpu_counters_is_a_note_not_a_crash():
    from services.hybrid.attribution import WindowsAttributor
    from services.hybrid.model import Inventory

    class NoCounters:
        def sample(self, interval_s):
            raise OSError("PdhAddEnglishCounterW failed: 0xC0000BB8")

    result = WindowsAttributor(NoCounters(), process_info=lambda pid: None).scan(Inventory((), "windows"), 0.0)
    assert result.processes == ()
    (note,) = result.notes
    assert "0xC0000BB8" in str(note) and "lodctr /R" in str(note)
