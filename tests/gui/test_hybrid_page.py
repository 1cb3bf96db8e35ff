from __future__ import annotations

import sys
import threading

import pytest

from gui.hybrid.adapters import AdapterCard
from services.hybrid.nvidia import NvidiaProcess, NvidiaUtilization
from services.hybrid.service import HybridService
from tests.fakes.hybrid_fakes import (
    INTEL_IGPU, NVIDIA_DGPU, FakeNvidiaProbe, FakeRunner, add_process, build_sysfs, data,
)

import gui.hybrid.page as page_module


@pytest.fixture(autouse=True)
def fast_sampling(monkeypatch):
    monkeypatch.setattr(page_module, "FIRST_INTERVAL_S", 0.01)
    monkeypatch.setattr(page_module, "INTERVAL_S", 0.01)
    monkeypatch.setattr(page_module, "REFRESH_MS", 50)


def make_page(qtbot, app_paths, service):
    page = page_module.HybridPage(service)
    qtbot.addWidget(page)
    page.resize(1100, 800)
    with qtbot.waitSignal(page.scan_done, timeout=10000):
        page.show()
    return page


@pytest.fixture
def laptop_service(tmp_path):
    root = build_sysfs(tmp_path / "root", [INTEL_IGPU, NVIDIA_DGPU])
    proc = tmp_path / "proc"
    proc.mkdir()
    program = tmp_path / "Stable Diffusion" / "webui"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    add_process(proc, 4100, "webui", str(program), maps=data("maps_nvidia_offload.txt"), cmdline=[str(program)])
    add_process(proc, 4200, "firefox", "/usr/lib/firefox/firefox",
                fds={7: ("/dev/dri/renderD128", data("fdinfo_i915_t0.txt"))}, maps=data("maps_mesa_intel.txt"))
    # "python train.py" run from a project folder, on the integrated GPU.
    python = tmp_path / "bin" / "python3"
    python.parent.mkdir()
    python.write_text("#!/bin/sh\n")
    python.chmod(0o755)
    project = tmp_path / "project"
    project.mkdir()
    add_process(proc, 4300, "python", str(python), maps=data("maps_mesa_intel.txt"), cmdline=["python", "train.py"],
                fds={7: ("/dev/dri/renderD128", data("fdinfo_i915_t0.txt"))})
    (proc / "4300" / "cwd").symlink_to(project)
    probe = FakeNvidiaProbe(processes=[NvidiaProcess(4100, 0, "graphics", 38.0)],
                            utilization=[NvidiaUtilization(4100, 0, 41.0, 0.0, 0.0)])
    runner = FakeRunner({("prime-select", "query"): (0, "on-demand\n")})
    return HybridService(platform="linux", sysfs_root=root, proc_root=proc, nvidia_factory=lambda: (probe, None),
                         runner=runner, home=tmp_path / "home", backup_dir=tmp_path / "backups")


def row_names(page):
    return sorted(page.programs.proxy.index(r, 0).data() for r in range(page.programs.proxy.rowCount()))


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_laptop_inventory_list_filter_and_verdict(qtbot, app_paths, laptop_service):
    page = make_page(qtbot, app_paths, laptop_service)
    cards = page.inventory.inventory_box.findChildren(AdapterCard)
    assert len(cards) == 2 and not page.inventory.no_gpu_box.isVisible()
    assert "prime-select" in page.inventory.mode_label.text() and "never switches" in page.inventory.mode_label.text()
    assert row_names(page) == ["firefox", "python3", "webui"]
    page.programs.filter_edit.setText("fire")
    assert row_names(page) == ["firefox"]
    page.programs.filter_edit.setText("4100")
    assert row_names(page) == ["webui"]
    page.programs.filter_edit.setText("nothing-like-this")
    assert page.programs.list_stack.currentWidget() is page.programs.empty_label
    page.programs.filter_edit.clear()
    assert page.select_pid(4100)
    assert "NVIDIA GPU" in page.details.verdict_label.text()
    assert "lists it as a graphics process" in page.details.evidence_label.text()
    # Measured on the NVIDIA GPU already: nothing to move, and the page says so.
    assert not page.details.prefer_button.isEnabled() and page.details.launch_button.isEnabled()
    assert "already runs on the NVIDIA GPU" in page.details.action_label.text()
    assert page.select_pid(4200)
    assert "Integrated GPU" in page.details.verdict_label.text()
    assert page.details.prefer_button.isEnabled()
    page.shutdown()


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_run_on_nvidia_shows_change_applies_and_undoes(qtbot, app_paths, laptop_service, tmp_path):
    page = make_page(qtbot, app_paths, laptop_service)
    page.select_pid(4300)
    page.details.prefer_button.click()
    dialog = page._plan_dialog
    assert dialog is not None and dialog.isVisible()
    launcher = tmp_path / "home/.local/bin/python3-train-on-nvidia"  # named after the script, not "python"
    assert str(launcher) in dialog.text.toPlainText()
    assert not launcher.exists()  # nothing written before Apply
    with qtbot.waitSignal(page.preference_applied):
        dialog.apply_button.click()
    script = launcher.read_text()
    assert "__NV_PRIME_RENDER_OFFLOAD" in script
    assert f"cd '{tmp_path / 'project'}'" in script and f"exec '{tmp_path / 'bin/python3'}' 'train.py' \"$@\"" in script
    assert page.details.undo_button.isVisible()
    page.details.undo_button.click()
    said = page.details.action_label.text()
    assert not launcher.exists() and "Undone" in said
    # Undo removed the launcher: it says so, and never that the interpreter was "back as it was".
    assert "was never changed" in said and "python3-train-on-nvidia" in said and "back as it was" not in said
    page.shutdown()


def test_launch_and_check_reports_an_early_exit(qtbot, app_paths, laptop_service):
    page = make_page(qtbot, app_paths, laptop_service)
    with qtbot.waitSignal(page.launch_done, timeout=15000) as blocker:
        page.launch_program([sys.executable, "-c", "pass"], timeout_s=5)
    assert blocker.args[0].outcome == "exited"
    assert "ended" in page.details.action_label.text()
    # The scans that follow (every few seconds) keep the outcome: the selected program's "why the button
    # is off" note used to replace it.
    for _ in range(2):
        with qtbot.waitSignal(page.scan_done, timeout=10000):
            page.refresh()
    assert "ended" in page.details.action_label.text()
    page.shutdown()


def test_launch_of_missing_program_is_one_line(qtbot, app_paths, laptop_service, tmp_path):
    page = make_page(qtbot, app_paths, laptop_service)
    with qtbot.waitSignal(page.launch_done, timeout=10000) as blocker:
        page.launch_program([str(tmp_path / "missing")])
    assert blocker.args[0] is None and "No program at" in page.details.action_label.text()
    page.shutdown()


def test_no_gpu_state_explains_and_still_lists_programs(qtbot, app_paths, tmp_path):
    proc = tmp_path / "proc"
    proc.mkdir()
    add_process(proc, 300, "blender", "/opt/blender/blender", maps=data("maps_mesa_intel.txt"))
    add_process(proc, 301, "bash", "/usr/bin/bash")
    service = HybridService(platform="linux", sysfs_root=tmp_path / "empty", proc_root=proc,
                            nvidia_factory=lambda: (None, None), runner=FakeRunner({}),
                            home=tmp_path / "home", backup_dir=tmp_path / "b")
    page = make_page(qtbot, app_paths, service)
    assert page.inventory.no_gpu_box.isVisible() and not page.inventory.inventory_box.isVisible()
    assert "/sys/class/drm" in page.inventory.no_gpu_text.text()
    assert page.programs.all_check.isChecked()  # nothing uses a GPU: every program is listed instead
    qtbot.waitUntil(lambda: row_names(page) == ["bash", "blender"], timeout=5000)
    assert not page.details.prefer_button.isEnabled() and not page.details.launch_button.isEnabled()
    assert "none was found" in page.details.action_label.text()
    page.shutdown()


def test_polling_stops_when_hidden(qtbot, app_paths, laptop_service):
    page = make_page(qtbot, app_paths, laptop_service)
    qtbot.waitUntil(lambda: page._timer.isActive(), timeout=5000)
    page.hide()
    assert not page._timer.isActive()
    page.shutdown()
    assert not [t for t in threading.enumerate() if t.name.startswith("hybrid-")]  # shutdown joined the scan


def test_windows_laptop_counters_and_registry_preference(qtbot, app_paths, tmp_path):
    from services.hybrid.preference_windows import USER_GPU_PREFERENCES
    from services.hybrid.windows import HKCU
    from tests.fakes.hybrid_fakes import FakeCounters, laptop_registry

    registry = laptop_registry()
    names = {4812: "Cyberpunk2077.exe", 9920: "msedge.exe", 15304: "python.exe", 1396: "dwm.exe"}
    exe = {pid: f"C:\\Program Files\\Games\\{name}" for pid, name in names.items()}
    service = HybridService(platform="win32", registry=registry, counters=FakeCounters(),
                            nvidia_factory=lambda: (None, None), backup_dir=tmp_path / "b",
                            process_info=lambda pid: (names[pid], exe[pid], (exe[pid],)) if pid in names else None,
                            path_exists=lambda path: True)
    page = make_page(qtbot, app_paths, service)
    cards = page.inventory.inventory_box.findChildren(AdapterCard)
    assert len(cards) == 2
    assert row_names(page) == sorted(names.values())
    assert page.select_pid(4812)
    assert "NVIDIA GPU" in page.details.verdict_label.text()
    assert "Only copy/video work on Intel(R) UHD Graphics" in page.details.evidence_label.text()
    assert "Windows GPU preference: not set" in page.details.evidence_label.text()
    assert not page.details.prefer_button.isEnabled()  # the game already runs on the NVIDIA GPU
    assert page.select_pid(9920)  # the browser, on the Intel GPU
    assert page.details.prefer_button.isEnabled()
    page.details.prefer_button.click()
    dialog = page._plan_dialog
    assert "GpuPreference=2;" in dialog.text.toPlainText()
    with qtbot.waitSignal(page.preference_applied):
        dialog.apply_button.click()
    assert registry.values(HKCU, USER_GPU_PREFERENCES)[exe[9920]] == "GpuPreference=2;"
    assert "Restart the program" in page.details.action_label.text()
    page.details.undo_button.click()
    assert exe[9920] not in registry.values(HKCU, USER_GPU_PREFERENCES)
    assert "graphics preference" in page.details.action_label.text()
    page.shutdown()


def _scan(*reports):
    from services.hybrid.model import Inventory, ScanResult

    return ScanResult(inventory=Inventory(adapters=(), platform="linux"), processes=tuple(reports), interval_s=1.0)


def _report(pid, name, work):
    from services.hybrid.model import AdapterUse, Basis, EngineUse, Placement, ProcessReport

    use = AdapterUse(adapter_key="pci:0000:00:02.0", source="fdinfo",
                     engines=(EngineUse("render", work, True),), memory_mib=None, kind=None)
    return ProcessReport(pid=pid, name=name, exe=None, cmdline=(name,), uses=(use,), placement=Placement.INTEGRATED,
                         basis=Basis.MEASURED, evidence=())


def test_program_list_keeps_the_selected_program_across_refreshes(qtbot):
    from gui.hybrid.programs import PID_ROLE, ProgramList

    programs = ProgramList()
    qtbot.addWidget(programs)
    changes = []
    programs.selection_changed.connect(lambda: changes.append(programs.selected_pid))
    programs.fill(_scan(_report(10, "game", 80.0), _report(20, "blender", 40.0)), lambda r: [])
    assert programs.selected_pid == 10  # nothing chosen yet: the busiest one is shown
    assert programs.select_pid(20)
    for work in (90.0, 10.0, 55.0):  # refreshes that reorder the list (sorted by engine use)
        programs.fill(_scan(_report(10, "game", 80.0), _report(20, "blender", work)), lambda r: [])
        rows = programs.table.selectionModel().selectedRows()
        assert programs.selected_pid == 20 and [r.data(PID_ROLE) for r in rows] == [20]
    assert changes == [10, 20]  # a refresh is not a change of selection
    # The selected program ends: nothing is selected (never the next program), and the page hears it.
    programs.fill(_scan(_report(10, "game", 80.0)), lambda r: [])
    assert programs.selected_pid == 20 and programs.table.selectionModel().selectedRows() == []
    assert changes[-1] == 20
