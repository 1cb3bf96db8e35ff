"""Linux: the process view's rows for the GPUs NVML does not see, from DRM fdinfo, and the wrong-GPU
rule on them (issue 26). /proc and sysfs are built in a temporary folder from the kernel's formats."""
from __future__ import annotations

import itertools

import pytest

from services.hybrid.drm_processes import DrmProcessCounters, linux_adapters, linux_process_sources
from services.hybrid.inventory_linux import read_linux_inventory
from services.settings import AlertSettings
from services.telemetry.alerts import AlertEngine, Rule
from services.telemetry.model import DeviceState, GpuInfo, GpuSample, ProcessSample, Snapshot, SourceStatus
from services.telemetry.processes import HostProcess, ProcessService
from tests.fakes.hybrid_fakes import INTEL_IGPU, NVIDIA_DGPU, add_process, build_sysfs, data

pytestmark = pytest.mark.linux_only("builds a Linux /proc tree (fd symbolic links) in a temporary folder")

UUID = "GPU-4060-laptop"


def with_render_ns(text: str, render_ns: int) -> str:
    """The i915 fixture with its render engine's busy time set (the kernel's counter only grows)."""
    return "\n".join(f"drm-engine-render:\t{render_ns} ns" if line.startswith("drm-engine-render:") else line
                     for line in text.splitlines()) + "\n"


class Host:
    def read(self, pids):
        return {pid: HostProcess(pid=pid, name="python3", command_line="python3 train.py", user="alice",
                                 started_at=0.0, cpu_pct=99.0, host_mib=900.0) for pid in pids}


def nvml_snapshot(t: float) -> Snapshot:
    info = GpuInfo(0, "NVIDIA GeForce RTX 4060 Laptop GPU", UUID, memory_total_mib=8188.0, pci_bus_id="00000000:01:00.0")
    sample = GpuSample(t=t, index=0, uuid=UUID, state=DeviceState.OK, memory_total_mib=8188.0,
                       processes=(ProcessSample(pid=4300, name="Xorg", user="root", kind="graphics", used_mib=4.0),))
    return Snapshot(t=t, status=SourceStatus(DeviceState.OK), gpus=(info,), samples=(sample,))


@pytest.fixture
def laptop(tmp_path):
    root = build_sysfs(tmp_path / "root", [INTEL_IGPU, NVIDIA_DGPU])
    proc = tmp_path / "proc"
    proc.mkdir()
    return root, proc


def test_a_process_busy_on_the_integrated_gpu_gets_a_row_and_the_wrong_gpu_alert(laptop):
    root, proc = laptop
    t0 = data("fdinfo_i915_t0.txt")
    # A training script that landed on the Intel GPU (two fds on one context: counted once) ...
    train = add_process(proc, 4200, "python3", "/usr/bin/python3",
                        fds={7: ("/dev/dri/renderD128", t0), 9: ("/dev/dri/renderD128", t0)})
    # ... and a shell with no GPU open.
    add_process(proc, 4400, "bash", "/usr/bin/bash")
    inventory = read_linux_inventory(root)
    ticks = itertools.count(0, 1_000_000_000)  # one refresh a second
    counters = DrmProcessCounters(proc, clock_ns=lambda: next(ticks))
    service = ProcessService(Host(), counters=counters, adapters=lambda gpus: linux_adapters(inventory, gpus))
    engine = AlertEngine(AlertSettings(wrong_gpu_for_s=10.0))
    render = 1_419_437_262
    fired = []
    for second in range(13):
        render += 900_000_000  # 90 % of each second on the render engine
        for fd in (7, 9):
            (train / "fdinfo" / str(fd)).write_text(with_render_ns(t0, render))
        table = service.update(nvml_snapshot(float(second)))
        fired += [(second, a) for a in engine.evaluate_processes(table)]
    row = table.find((4200, "pci:0000:00:02.0"))
    assert row is not None and row.integrated and row.gpu_index is None
    assert "UHD Graphics" in row.gpu_label and row.engine_type == "render"  # the name pci.ids gives
    assert row.sm_pct == pytest.approx(90.0) and row.used_mib == pytest.approx(17280 / 1024)
    assert table.find((4400, "pci:0000:00:02.0")) is None
    assert table.find((4300, UUID)) is not None  # NVML's own row stays
    assert [(s, a.rule) for s, a in fired] == [(11, Rule.WRONG_GPU)]  # busy from second 1, for 10 s
    text = str(fired[0][1].message)
    assert "python3 (4200)" in text and "render" in text and "Run on the NVIDIA GPU" in text


def test_light_desktop_use_of_the_integrated_gpu_is_not_flagged(laptop):
    root, proc = laptop
    t0 = data("fdinfo_i915_t0.txt")
    browser = add_process(proc, 4200, "firefox", "/usr/lib/firefox/firefox", fds={7: ("/dev/dri/renderD128", t0)})
    inventory = read_linux_inventory(root)
    ticks = itertools.count(0, 1_000_000_000)
    service = ProcessService(Host(), counters=DrmProcessCounters(proc, clock_ns=lambda: next(ticks)),
                             adapters=lambda gpus: linux_adapters(inventory, gpus))
    engine = AlertEngine(AlertSettings(wrong_gpu_for_s=10.0))
    render = 1_419_437_262
    for second in range(30):
        render += 80_000_000  # 8 %: drawing a web page
        (browser / "fdinfo" / "7").write_text(with_render_ns(t0, render))
        assert engine.evaluate_processes(service.update(nvml_snapshot(float(second)))) == []


def test_new_contexts_are_found_on_the_next_rescan_and_ended_processes_leave(laptop):
    _root, proc = laptop
    now = [0]
    counters = DrmProcessCounters(proc, clock_ns=lambda: now[0], rescan_s=5.0)
    assert counters.collect() == {}
    add_process(proc, 4200, "vkcube", "/usr/bin/vkcube", fds={7: ("/dev/dri/renderD128", data("fdinfo_i915_t0.txt"))})
    now[0] = 1_000_000_000
    assert counters.collect() == {}  # not walked yet: /proc/*/fd is walked every 5 s here
    now[0] = 5_000_000_000
    first = counters.collect()[(4200, "pci:0000:00:02.0")]
    assert first.busy_pct is None and first.dedicated_mib == pytest.approx(16.875)  # a share needs two reads
    (proc / "4200" / "fdinfo" / "7").write_text(data("fdinfo_i915_t1.txt"))
    now[0] = 6_000_000_000
    second = counters.collect()[(4200, "pci:0000:00:02.0")]
    assert second.busy_pct == pytest.approx(45.0) and second.engine_type == "render"
    assert second.decoder_pct == pytest.approx(5.0)  # the video engine: 100 ms of 2 engines x 1 s
    for path in sorted((proc / "4200").rglob("*"), reverse=True):
        path.unlink() if not path.is_dir() or path.is_symlink() else path.rmdir()
    (proc / "4200").rmdir()
    now[0] = 7_000_000_000
    assert counters.collect() == {}


def test_nvidia_contexts_are_left_to_nvml(laptop):
    root, proc = laptop
    nvidia_fdinfo = data("fdinfo_i915_t0.txt").replace("i915", "nvidia-drm").replace("0000:00:02.0", "0000:01:00.0")
    add_process(proc, 4300, "Xorg", "/usr/bin/Xorg", fds={3: ("/dev/dri/card1", nvidia_fdinfo)})
    sources = linux_process_sources(str(proc), str(root))
    assert sources["counters"].collect() == {}
    adapters = sources["adapters"]([GpuInfo(0, "NVIDIA", UUID, pci_bus_id="00000000:01:00.0")])
    assert {(a.key, a.integrated, a.nvml_uuid) for a in adapters} == {
        ("pci:0000:00:02.0", True, None), ("pci:0000:01:00.0", False, UUID)}


def test_without_a_working_nvidia_gpu_nothing_is_the_wrong_gpu(laptop):
    """The NVIDIA driver is not loaded: the Intel GPU is the only one there is, so heavy work on it is
    listed but not flagged (there is nowhere better to send it)."""
    root, proc = laptop
    t0 = data("fdinfo_i915_t0.txt")
    game = add_process(proc, 4200, "vkcube", "/usr/bin/vkcube", fds={7: ("/dev/dri/renderD128", t0)})
    inventory = read_linux_inventory(root)
    ticks = itertools.count(0, 1_000_000_000)
    service = ProcessService(Host(), counters=DrmProcessCounters(proc, clock_ns=lambda: next(ticks)),
                             adapters=lambda gpus: linux_adapters(inventory, gpus))
    engine = AlertEngine(AlertSettings(wrong_gpu_for_s=2.0))
    render = 1_419_437_262
    for second in range(6):
        render += 950_000_000
        (game / "fdinfo" / "7").write_text(with_render_ns(t0, render))
        table = service.update(Snapshot(t=float(second), status=SourceStatus(DeviceState.ERROR, "no driver")))
        assert engine.evaluate_processes(table) == []
    assert table.find((4200, "pci:0000:00:02.0")).sm_pct == pytest.approx(95.0)


def test_a_computer_with_only_nvidia_gpus_gets_no_drm_reader(tmp_path):
    root = build_sysfs(tmp_path / "root", [NVIDIA_DGPU])
    (tmp_path / "proc").mkdir()
    assert linux_process_sources(str(tmp_path / "proc"), str(root)) == {}
