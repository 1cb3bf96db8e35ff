from __future__ import annotations

import argparse
import json

import pytest

from gui.app import build_context
from gui.context import SetupMachine
from gui.setup.page import SetupPage
from services.setup.system import CommandResult
from tests.services.setup.machine import RUNS_LINUX_COMMANDS, FakeNvml, Machine, recorded

PY = "/home/li/.venv/bin/python"


@pytest.fixture
def machine(tmp_path):
    m = Machine(tmp_path / "root")
    m.distro("ubuntu-24.04").lspci("lspci-4090-nvidia.txt").loaded("proc-driver-version-open-570.txt", "nvidia 1 0\n")
    m.modinfo("570.133.07").secure_boot("mokutil-disabled.txt").smi(0, "570.133.07, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    m.python(PY, "torch-cpu-windows.json")
    m.runner.responses[("update-initramfs",)] = CommandResult(0, "")
    return m


@pytest.fixture
def page(qtbot, app_paths, machine, tmp_path):
    ctx = build_context(argparse.Namespace(demo=False), app_paths)
    (tmp_path / "home").mkdir()
    ctx.setup_machine = SetupMachine(runner=machine.runner, root=machine.root, nvml=FakeNvml(),
                      home=tmp_path / "home", system="linux")
    p = SetupPage(ctx.paths, ctx.setup_machine, ctx.demo)
    qtbot.addWidget(p)
    assert p.report is None and not p.busy()  # nothing is probed before the page is shown
    p.show()
    yield p
    p.shutdown()



def wait_report(qtbot, page, full: bool = True):
    """The doctor's report is in; with ``full`` the wizard shows every step ('Reinstall everything')."""
    qtbot.waitUntil(lambda: page.report is not None and not page.busy(), timeout=5000)
    if full and not page.wizard.full_check.isChecked():
        page.wizard.full_check.setChecked(True)
        qtbot.waitUntil(lambda: not page.busy(), timeout=5000)


def test_doctor_runs_in_background_and_shows_findings(qtbot, page):
    wait_report(qtbot, page)
    assert page.doctor_tab.fact_labels["driver"].text() == "570.133.07"
    assert "GeForce RTX 4090" in page.doctor_tab.fact_labels["gpu"].text()
    assert page.doctor_tab.findings_layout.count() >= 2  # cards + stretch


def test_choosing_an_environment_reruns_with_torch(qtbot, page):
    wait_report(qtbot, page)
    page.select_python(PY)
    with qtbot.waitSignal(page.report_ready, timeout=5000) as blocker:
        page.run_doctor()
    report = blocker.args[0]
    assert "torch_cpu_build" in [f.code for f in report.findings]
    assert "CPU only" in page.doctor_tab.fact_labels["torch"].text()


def test_wizard_shows_whole_plan_and_checks(qtbot, page):
    wait_report(qtbot, page)
    qtbot.waitUntil(lambda: bool(page.check_states), timeout=5000)
    ids = [page.wizard.step_list.item(i).data(256) for i in range(page.wizard.step_list.count())]
    assert ids[:3] == ["update-package-lists", "install-driver", "blacklist-nouveau"]
    # 570 is installed and the plan installs 580: not done (its package is missing), so no ✔
    assert page.check_states["install-driver"] == "not_done"
    assert not page.wizard.step_list.item(1).text().startswith("✔")
    # resumes at the first step that is neither recorded done nor found done
    assert page.wizard.step_list.currentRow() == 0  # update-package-lists has no check


@RUNS_LINUX_COMMANDS
def test_dry_run_then_run_then_undo_a_step(qtbot, page, machine):
    wait_report(qtbot, page)
    page.open_step("blacklist-nouveau")
    assert page.tabs.currentIndex() == 1
    assert "install -D -m 0644" in page.wizard.step_commands.toPlainText()
    assert not page.wizard.undo_button.isEnabled()  # never ran: nothing to undo
    page.wizard.dry_run_check.setChecked(True)
    page.wizard.run_button.click()
    assert "Dry run: nothing was changed" in page.wizard.step_output.toPlainText()
    target = machine.root_dir / "etc/modprobe.d/blacklist-nouveau.conf"
    assert not target.exists()
    page.wizard.dry_run_check.setChecked(False)
    # the temporary root needs no privilege: install runs for real inside it
    machine.runner.handler = _real_install_inside(machine.root_dir, page, machine.runner)
    with qtbot.waitSignal(page.step_finished, timeout=5000) as done:
        page.wizard.run_button.click()
    assert done.args[0].ok, done.args[0].message
    assert "blacklist nouveau" in target.read_text()
    assert page.progress.state("blacklist-nouveau") == "done"
    # a step that worked says what comes next
    assert "Next step: " in page.wizard.step_output.toPlainText()
    assert page.wizard.undo_button.isEnabled()
    with qtbot.waitSignal(page.step_finished, timeout=5000) as undone:
        page.wizard.undo_button.click()
    assert undone.args[0].ok and not target.exists()


def _real_install_inside(root, page, runner):
    import subprocess

    allowed = (str(root), str(page._work))

    def handler(argv):
        if argv[0] in ("install", "rm") and all(a.startswith(allowed) for a in argv if a.startswith("/") and a != "/dev/stdin"):
            done = subprocess.run(list(argv), capture_output=True, text=True, input=runner.stdin)
            return CommandResult(done.returncode, done.stdout, done.stderr)
        return None

    return handler


def test_skip_is_saved_for_resume(qtbot, page, app_paths, machine):
    machine.runner.add(["dpkg-query", "-W", "-f=${Status}"], 0, "install ok installed")  # the plan's driver package is in
    wait_report(qtbot, page)
    page.open_step("update-package-lists")
    page.wizard.skip_button.click()
    data = json.loads((app_paths.data_dir / "setup" / "progress.json").read_text())
    assert data["steps"]["update-package-lists"]["state"] == "skipped"
    # Moved on to the next step still to do: the driver this machine already has (its check passed) is passed over.
    states = page.session.states()
    assert [s.id for s in page.plan.steps][1:3] == ["install-driver", "blacklist-nouveau"]
    assert states["install-driver"] == "done" and states["blacklist-nouveau"] == "pending"
    assert page.wizard.step_list.currentRow() == 2


def test_troubleshooter_uses_the_report(qtbot, page):
    wait_report(qtbot, page)
    found = page.explain_text(recorded("nvidia-smi-mismatch.txt"))
    assert found[0].code == "nvml_mismatch"
    assert page.troubleshoot_tab.answers_layout.count() == 2
    assert page.explain_text("all fine here") == []


def test_demo_mode_shows_the_recorded_machine(qtbot, app_paths):
    ctx = build_context(argparse.Namespace(demo=True), app_paths)
    p = SetupPage(ctx.paths, ctx.setup_machine, ctx.demo)
    qtbot.addWidget(p)
    p.show()
    qtbot.waitUntil(lambda: p.report is not None and not p.busy(), timeout=5000)
    # the demo machine's venv holds the CPU-only PyTorch that a plain 'pip install torch' can leave
    assert "torch_cpu_build" in [f.code for f in p.report.findings]
    # the recorded driver works: the plan is the PyTorch steps, the driver steps are listed as not needed
    assert [s.id for s in p.plan.steps] == ["install-pytorch", "verify-pytorch"]
    p.open_step("install-driver")
    assert "Not needed" in p.wizard.step_text.text() and not p.wizard.run_button.isEnabled()
    p.open_step("install-pytorch")
    p.wizard.run_button.click()  # demo: only shows what would run
    assert "demo machine: nothing runs" in p.wizard.step_output.toPlainText()
    p.shutdown()


def test_windows_plan_file_pickers(qtbot, app_paths, tmp_path):
    from services.setup.windows import LiveWindowsProbe
    from tests.services.setup.test_windows import windows_runner

    ctx = build_context(argparse.Namespace(demo=False), app_paths)
    runner = windows_runner()
    ctx.setup_machine = SetupMachine(runner=runner, root=__import__("services.setup.system", fromlist=["SystemRoot"]).SystemRoot(tmp_path),
                      nvml=FakeNvml(driver="560.94", cuda=12060), home=tmp_path, system="windows",
                      windows_probe=LiveWindowsProbe(runner, process_name=lambda pid: "python.exe"))
    p = SetupPage(ctx.paths, ctx.setup_machine, ctx.demo)
    qtbot.addWidget(p)
    p.show()
    qtbot.waitUntil(lambda: p.plan is not None and not p.busy(), timeout=5000)
    p.wizard.full_check.setChecked(True)  # the driver works: only the DDU plan ('reinstall everything') has run-ddu
    qtbot.waitUntil(lambda: not p.busy(), timeout=5000)
    assert p.plan.system == "windows"
    assert "win_gpu_memory_spill" in [f.code for f in p.report.findings]
    p.open_step("run-ddu")
    assert p.wizard.pick_ddu_button.isVisibleTo(p) and not p.wizard.pick_driver_button.isVisibleTo(p)
    assert "<Display Driver Uninstaller.exe>" in p.wizard.step_commands.toPlainText()
    p.set_windows_file("ddu_exe", "C:\\Tools\\DDU\\Display Driver Uninstaller.exe")
    qtbot.waitUntil(lambda: not p.busy(), timeout=5000)
    assert p.plan.step("run-ddu").commands[0][0] == "C:\\Tools\\DDU\\Display Driver Uninstaller.exe"
    assert "needs administrator rights" in p.wizard.step_flags.text()
    p.shutdown()
    # Reopened after the Safe Mode restart (RunOnce): the picked DDU is still in the plan.
    again = SetupPage(ctx.paths, ctx.setup_machine, ctx.demo)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitUntil(lambda: again.plan is not None and not again.busy(), timeout=5000)
    again.wizard.full_check.setChecked(True)
    qtbot.waitUntil(lambda: not again.busy(), timeout=5000)
    assert again.plan.step("run-ddu").commands[0][0] == "C:\\Tools\\DDU\\Display Driver Uninstaller.exe"
    again.shutdown()


def test_reboot_step_asks_first(qtbot, page, machine):
    wait_report(qtbot, page)
    asked = []
    page.confirm = lambda text: asked.append(text) or False
    page.open_step("reboot")
    page.wizard.run_button.click()
    assert asked and "restarts the computer" in asked[0]
    assert ("systemctl", "reboot") not in machine.runner.calls


def test_reopening_resumes_at_the_first_open_step(qtbot, page, app_paths, machine, tmp_path):
    machine.runner.add(["dpkg-query", "-W", "-f=${Status}"], 0, "install ok installed")  # the plan's driver package is in
    wait_report(qtbot, page)
    page.open_step("update-package-lists")
    page.wizard.skip_button.click()
    page.shutdown()
    # "after the reboot": a new page on the same data folder
    again = SetupPage(page.paths, page.machine)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitUntil(lambda: again.report is not None and not again.busy(), timeout=5000)
    again.wizard.full_check.setChecked(True)
    qtbot.waitUntil(lambda: bool(again.check_states) and not again.busy(), timeout=5000)
    current = again.wizard.step_list.currentItem().data(256)
    assert current == "blacklist-nouveau"  # skipped, then install-driver found done by its check
    assert again.wizard.step_list.item(0).text().startswith("↷")
    again.shutdown()


def test_step_commands_keep_one_command_per_line(qtbot, page):
    # A wrapped 'pip install ... --index-url https://' line split the URL in two.
    from PySide6.QtWidgets import QPlainTextEdit

    wait_report(qtbot, page)
    assert page.wizard.step_commands.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
    row = next(i for i in range(page.wizard.step_list.count()) if page.wizard.step_list.item(i).data(256) == "install-pytorch")
    page.wizard.step_list.setCurrentRow(row)
    lines = page.wizard.step_commands.toPlainText().splitlines()
    assert any(line.endswith("--index-url " + line.rsplit(" ", 1)[-1]) and "https://download.pytorch.org/whl/" in line for line in lines)


def test_repair_plan_lists_what_is_not_needed(qtbot, page):
    wait_report(qtbot, page, full=False)
    ids = [page.wizard.step_list.item(i).data(256) for i in range(page.wizard.step_list.count())]
    assert "install-driver" not in ids and "not-needed:install-driver" in ids
    page.open_step("install-driver")
    assert "Not needed: driver 570.133.07 works" in page.wizard.step_text.text()
    assert not page.wizard.run_button.isEnabled() and not page.wizard.undo_button.isEnabled()


@RUNS_LINUX_COMMANDS
def test_every_change_and_its_undo_is_shown_before_it_runs(qtbot, page, machine):
    wait_report(qtbot, page)
    target = machine.root_dir / "etc/modprobe.d/blacklist-nouveau.conf"
    page.open_step("blacklist-nouveau")
    shown = page.wizard.step_commands.toPlainText()
    assert f"{target} does not exist yet: undo removes it" in shown
    assert f"write {target} (3 lines):" in shown
    assert "#   blacklist nouveau\n#   options nouveau modeset=0" in shown
    undo = page.wizard.undo_text.toPlainText()
    assert f"restore {target} from the backup GPU Assistant makes in {machine.root('/var/lib/gpu-assistant/setup-backups/blacklist-nouveau')}" in undo
    assert "update-initramfs -u" in undo
    # after a run, the undo names the backup it restores from, and a dry run shows it without changing anything
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("# mine\n")
    page.wizard.full_check.setChecked(False)
    page.wizard.full_check.setChecked(True)
    qtbot.waitUntil(lambda: not page.busy(), timeout=5000)
    page.open_step("blacklist-nouveau")
    machine.runner.handler = _real_install_inside(machine.root_dir, page, machine.runner)
    with qtbot.waitSignal(page.step_finished, timeout=5000):
        page.wizard.run_button.click()
    undo = page.wizard.undo_text.toPlainText()
    assert f"restore {target} from the backup {machine.root('/var/lib/gpu-assistant/setup-backups/blacklist-nouveau')}" in undo and "(mode 0644)" in undo
    page.wizard.dry_run_check.setChecked(True)
    page.wizard.undo_button.click()
    assert "install -m 0644" in page.wizard.step_output.toPlainText() and "blacklist nouveau" in target.read_text()
    page.wizard.dry_run_check.setChecked(False)
    with qtbot.waitSignal(page.step_finished, timeout=5000):
        page.wizard.undo_button.click()
    assert target.read_text() == "# mine\n"
    assert "$ install -m 0644" in page.wizard.step_output.toPlainText()  # the undo reports its commands


@pytest.mark.parametrize("system", ["windows", "ubuntu-24.04", "debian-12", "fedora-41", "arch", "pop-22.04"])
def test_plan_for_another_machine(qtbot, page, machine, system):
    wait_report(qtbot, page)
    calls = len(machine.runner.calls)
    plan = page.plan_other_machine(system, "GeForce RTX 5090")
    assert plan is not None and page.session.preview
    assert plan.system == ("windows" if system == "windows" else "linux")
    assert "RTX 5090" in page.wizard.plan_summary.text() or "RTX 5090" in str(plan.summary)
    assert "nothing runs on this computer" in page.wizard.plan_notes.text()
    page.open_step("install-driver")
    assert not page.wizard.skip_button.isEnabled() and not page.wizard.undo_button.isEnabled() and not page.wizard.run_button.isEnabled()
    assert page.wizard.copy_button.isEnabled() and page.wizard.step_commands.toPlainText()
    page.wizard.run_button.setEnabled(True)
    page.wizard.run_button.click()  # even if forced: only shows what would run
    assert len(machine.runner.calls) == calls  # nothing ran, nothing of this machine was probed
    assert page.progress.state("install-driver") == "pending"
    if system != "windows":
        page.open_step("blacklist-nouveau")
        shown = page.wizard.step_commands.toPlainText()
        assert "if /etc/modprobe.d/blacklist-nouveau.conf exists there" in shown
        # the other machine's paths, also when this computer is Windows: never C:\... or \etc\...
        # the content goes to root's install on standard input (never a staged file read by path as root)
        assert "install -D -m 0644 /dev/stdin /etc/modprobe.d/blacklist-nouveau.conf" in shown
        # (the one backslash allowed is printf's '%s\n', which gives that content to install when pasted)
        assert "\\" not in shown.replace("printf '%s\\n'", "") and str(page._work) not in shown
    # a PCI id works too; nonsense is a clear message
    assert page.plan_other_machine(system, "10de:2684") is not None
    assert page.plan_other_machine(system, "my favourite card") is None
    assert "neither a card GPU Assistant knows" in page.wizard.target_error.text()
    # back to this computer: its own plan again
    page.wizard.target_combo.setCurrentIndex(0)
    assert not page.session.preview and page.plan is not None and page.plan.key.startswith("ubuntu")


def test_every_known_system_is_offered():
    from services.setup.target_systems import known_systems

    keys = [t.key for t in known_systems()]
    assert keys[0] == "windows"
    assert {"ubuntu-24.04", "debian-12", "fedora-41", "arch", "linuxmint-22", "pop-22.04"} <= set(keys)


def test_no_gpu_offers_another_machine(qtbot, app_paths, tmp_path):
    m = Machine(tmp_path / "root")
    m.distro("ubuntu-24.04").loaded(None, "")
    m.runner.add(["lspci", "-nnk"], 0, "00:02.0 VGA compatible controller [0300]: Intel Corporation Device [8086:a780]\n")
    m.modinfo(None).secure_boot("mokutil-disabled.txt")
    ctx = build_context(argparse.Namespace(demo=False), app_paths)
    ctx.setup_machine = SetupMachine(runner=m.runner, root=m.root, nvml=FakeNvml(init_error=(12, "NVML Shared Library Not Found")),
                      home=tmp_path, system="linux")
    p = SetupPage(ctx.paths, ctx.setup_machine, ctx.demo)
    qtbot.addWidget(p)
    p.show()
    qtbot.waitUntil(lambda: p.report is not None and not p.busy(), timeout=5000)
    assert p.report.gpu is None
    assert p.wizard.target_combo.currentData() == "other" and not p.wizard.other_box.isHidden()
    assert "No NVIDIA GPU was found" in p.wizard.plan_summary.text()
    assert p.wizard.plan_other_button.isEnabled() and p.wizard.os_combo.isEnabled() and p.wizard.card_combo.isEnabled()
    assert p.plan_other_machine("windows", "10de:2b85").system == "windows"
    p.shutdown()


def test_fits_a_1024_by_640_window(qtbot, page):
    wait_report(qtbot, page)
    page.tabs.setCurrentIndex(1)
    page.open_step("install-pytorch")
    hint = page.minimumSizeHint()
    assert hint.width() <= 1000 - 180, hint  # the main window's page list takes the rest
    page.resize(820, 560)
    qtbot.wait(10)
    for w in (page.wizard.run_button, page.wizard.undo_button, page.wizard.copy_button, page.wizard.step_commands):
        assert w.isVisible()


def test_another_plan_starts_with_empty_output(qtbot, page):
    wait_report(qtbot, page, full=False)
    page.wizard.step_output.appendPlainText("output of the plan shown before")
    page.wizard.full_check.setChecked(True)  # another set of steps
    qtbot.waitUntil(lambda: not page.busy(), timeout=5000)
    assert "shown before" not in page.wizard.step_output.toPlainText()
    page.wizard.step_output.appendPlainText("pip lines of this machine's plan")
    assert page.plan_other_machine("ubuntu-24.04", "3060") is not None
    assert "pip lines" not in page.wizard.step_output.toPlainText()


def test_after_verify_driver_the_wizard_says_the_driver_works(qtbot, page):
    wait_report(qtbot, page)
    page.open_step("verify-driver")
    with qtbot.waitSignal(page.report_ready, timeout=5000):
        page.wizard.run_button.click()
    qtbot.waitUntil(lambda: "The driver works now" in page.wizard.step_output.toPlainText(), timeout=5000)
    assert "Next step: " in page.wizard.step_output.toPlainText()


def test_the_interpreter_the_user_is_in_is_listed_first_and_checked(qtbot, app_paths, machine, tmp_path):
    from services.setup.machine import ActivePython
    from gui.setup.doctor_tab import DoctorTab

    tab = DoctorTab(None, tmp_path, False, lambda _step: None, active=ActivePython(PY, "venv"))
    qtbot.addWidget(tab)
    assert tab.env_combo.currentData() == PY and "active virtual environment" in tab.env_combo.currentText()
    assert tab.python_how(PY) == "venv" and tab.python_how("/usr/bin/python3") == "given" and tab.python_how(None) == ""
