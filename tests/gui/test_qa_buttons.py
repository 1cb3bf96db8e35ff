"""No dead buttons: every enabled push button reachable on the setup, hybrid, fit, hosts and
settings pages is clicked, and each click must change something a user can see (a text, a
visible widget, a list, the clipboard, a dialog) without raising.

Dialogs answer at once (file pickers cancel, questions say No, modal dialogs reject) and every
system-changing path runs on fakes: the setup page on a fake machine (temporary root, recorded
command output), the hybrid page on a fake sysfs/proc and a temporary home. pytest-qt fails the
test on any exception raised inside a Qt slot.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import pytest
from pytestqt.exceptions import TimeoutError as QtBotTimeout
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractButton, QAbstractItemView, QAbstractSpinBox, QApplication, QComboBox, QDialog, QFileDialog,
    QLabel, QLineEdit, QListWidget, QMessageBox, QPlainTextEdit, QPushButton, QTabWidget, QTextEdit, QWidget,
)

from gui.app import build_context
from gui.context import SetupMachine
from services.settings import SettingsStore


@dataclass
class Opened:
    """What the page asked the desktop to show."""

    events: list[str] = field(default_factory=list)


@pytest.fixture
def opened(monkeypatch) -> Opened:
    seen = Opened()

    def file_dialog(name):
        def fake(*args, **kwargs):
            seen.events.append(f"QFileDialog.{name}")
            return "", ""
        return staticmethod(fake)

    for name in ("getOpenFileName", "getSaveFileName", "getOpenFileNames"):
        monkeypatch.setattr(QFileDialog, name, file_dialog(name))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a, **k: seen.events.append("QFileDialog.getExistingDirectory") or ""))
    for name in ("question", "information", "warning", "critical"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(
            lambda *a, _n=name, **k: seen.events.append(f"QMessageBox.{_n}") or QMessageBox.StandardButton.No))
    monkeypatch.setattr(QMessageBox, "exec", lambda self: seen.events.append("QMessageBox.exec") or 0)
    monkeypatch.setattr(QDialog, "exec", lambda self: seen.events.append(f"{type(self).__name__}.exec") or 0)
    monkeypatch.setattr(QDesktopServices, "openUrl",
                        staticmethod(lambda url: seen.events.append(f"openUrl {QUrl(url).toString()}") or True))
    QGuiApplication.clipboard().setText("")
    return seen


def visible_state(root: QWidget, opened: Opened) -> tuple:
    """Everything on ``root`` a user could notice, as one comparable value."""
    parts: list = [tuple(opened.events), QGuiApplication.clipboard().text()]
    parts.append(tuple(sorted(type(w).__name__ + ":" + w.windowTitle()
                              for w in QApplication.topLevelWidgets() if w.isVisible() and w is not root)))
    for w in root.findChildren(QWidget):
        if not w.isVisibleTo(root):
            continue
        entry: tuple = (type(w).__name__, w.isEnabled())
        if isinstance(w, QLabel):
            entry += (w.text(),)
        elif isinstance(w, QAbstractButton):
            entry += (w.text(), w.isChecked())
        elif isinstance(w, QLineEdit):
            entry += (w.text(),)
        elif isinstance(w, (QPlainTextEdit, QTextEdit)):
            entry += (w.toPlainText(),)
        elif isinstance(w, QComboBox):
            entry += (w.currentText(), w.count())
        elif isinstance(w, QAbstractSpinBox):
            entry += (w.text(),)
        elif isinstance(w, QTabWidget):
            entry += (w.currentIndex(),)
        if isinstance(w, QListWidget):
            entry += (tuple(w.item(i).text() for i in range(w.count())), w.currentRow())
        elif isinstance(w, QAbstractItemView) and w.model() is not None:
            entry += (w.model().rowCount(),)
        parts.append(entry)
    return tuple(parts)


def _label(button: QAbstractButton) -> str:
    return button.text() or button.toolTip() or button.objectName() or type(button).__name__


def click_every_button(qtbot, page: QWidget, opened: Opened, *, settle=lambda: True, tabs: bool = True,
                       timeout_ms: int = 4000, max_clicks: int = 80,
                       last: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """Click each enabled, visible push button once (tab by tab unless ``tabs`` is False); the
    buttons named in ``last`` only after the others (a Skip would hide the Undo a Run enabled).
    Returns (clicked, dead)."""
    clicked: list[str] = []
    dead: list[str] = []
    done: set[int] = set()
    tab_widgets = [t for t in page.findChildren(QTabWidget) if tabs and t.isVisibleTo(page)] or [None]
    for tabs in tab_widgets:
        for index in range(tabs.count() if tabs is not None else 1):
            if tabs is not None:
                tabs.setCurrentIndex(index)
                qtbot.waitUntil(settle, timeout=timeout_ms)
            while len(clicked) < max_clicks:
                if tabs is not None and tabs.currentIndex() != index:
                    tabs.setCurrentIndex(index)  # the last click moved to another tab
                    qtbot.waitUntil(settle, timeout=timeout_ms)
                # scanned again after every click: a click may add buttons (answer cards, fixes)
                waiting = [b for b in page.findChildren(QPushButton)
                           if id(b) not in done and b.isVisibleTo(page) and b.isEnabled()]
                if not waiting:
                    break
                waiting.sort(key=lambda b: _label(b) in last)  # stable: page order otherwise
                button = waiting[0]
                done.add(id(button))
                name = _label(button)
                QGuiApplication.clipboard().setText("")  # so that a Copy button's effect shows
                before = visible_state(page, opened)
                button.click()
                try:
                    qtbot.waitUntil(lambda before=before: visible_state(page, opened) != before, timeout=timeout_ms)
                except (AssertionError, QtBotTimeout):
                    dead.append(name)
                qtbot.waitUntil(settle, timeout=10000)
                clicked.append(name)
    return clicked, dead


# ---------------------------------------------------------------- setup


@pytest.fixture
def setup_page(qtbot, app_paths, tmp_path):
    from gui.setup.page import SetupPage
    from services.setup.system import CommandResult
    from tests.services.setup.machine import FakeNvml, Machine

    python = "/home/li/.venv/bin/python"
    machine = Machine(tmp_path / "root")
    machine.distro("ubuntu-24.04").lspci("lspci-4090-nvidia.txt").loaded(
        "proc-driver-version-open-570.txt", "nvidia 1 0\n")
    machine.modinfo("570.133.07").secure_boot("mokutil-disabled.txt").smi(
        0, "570.133.07, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    machine.python(python, "torch-cpu-windows.json")
    machine.runner.responses[("update-initramfs",)] = CommandResult(0, "")
    ctx = build_context(argparse.Namespace(demo=False), app_paths)
    (tmp_path / "home").mkdir()
    ctx.setup_machine = SetupMachine(runner=machine.runner, root=machine.root, nvml=FakeNvml(),
                      home=tmp_path / "home", system="linux")
    page = SetupPage(ctx.paths, ctx.setup_machine, ctx.demo)
    qtbot.addWidget(page)
    page.resize(1200, 800)
    page.show()
    qtbot.waitUntil(lambda: page.report is not None and not page.busy(), timeout=5000)
    yield page, machine
    page.shutdown()


def test_setup_page_has_no_dead_buttons(qtbot, setup_page, opened):
    page, machine = setup_page
    page.select_python("/home/li/.venv/bin/python")  # a CPU-only torch: the doctor offers fixes with buttons
    with qtbot.waitSignal(page.report_ready, timeout=5000):
        page.run_doctor()
    qtbot.waitUntil(lambda: not page.busy(), timeout=5000)
    page.troubleshoot_tab.error_edit.setPlainText("RuntimeError: CUDA error: no kernel image is available for execution on the device")
    clicked, dead = click_every_button(qtbot, page, opened, settle=lambda: not page.busy())
    assert dead == [], clicked
    # the doctor (with its fix cards), the wizard and the troubleshooter each had their buttons pressed
    for name in ("Run checks", "Browse…", "Copy", "Open in wizard", "Run", "Copy commands", "Check", "Explain"):
        assert name in clicked, clicked
    # nothing reached this machine: every command went to the fake runner
    assert machine.runner.calls


def test_setup_wizard_buttons_work_on_every_step(qtbot, setup_page, opened):
    """Each step has its own buttons (Undo after a run, Mark done on manual steps, Skip, Check):
    walk the whole plan, pressing every enabled one (questions answer No; the runner is fake)."""
    page, machine = setup_page
    page.tabs.setCurrentIndex(1)
    page.wizard.full_check.setChecked(True)  # every step, not only what this (healthy) machine needs
    qtbot.waitUntil(lambda: not page.busy() and page.wizard.step_list.count() > 0, timeout=5000)
    seen: set[str] = set()
    for row in range(page.wizard.step_list.count()):
        page.tabs.setCurrentIndex(1)
        page.wizard.step_list.setCurrentRow(row)
        qtbot.waitUntil(lambda: not page.busy(), timeout=5000)
        clicked, dead = click_every_button(qtbot, page, opened, settle=lambda: not page.busy(), tabs=False,
                                           last=("Skip",))
        assert dead == [], (page.wizard.step_list.item(row).text(), clicked)
        seen.update(clicked)
    assert {"Run", "Skip", "Copy commands", "Check", "Undo"} <= seen, seen
    assert "QMessageBox.question" in opened.events  # the reboot step asked first (and was told No)


# ---------------------------------------------------------------- hybrid


@pytest.fixture
def hybrid_page(qtbot, app_paths, tmp_path, monkeypatch):
    import gui.hybrid.page as page_module
    from services.hybrid.nvidia import NvidiaProcess, NvidiaUtilization
    from services.hybrid.service import HybridService
    from tests.fakes.hybrid_fakes import (
        INTEL_IGPU, NVIDIA_DGPU, FakeNvidiaProbe, FakeRunner, add_process, build_sysfs, data,
    )

    monkeypatch.setattr(page_module, "FIRST_INTERVAL_S", 0.01)
    monkeypatch.setattr(page_module, "INTERVAL_S", 0.01)
    monkeypatch.setattr(page_module, "REFRESH_MS", 50)
    root = build_sysfs(tmp_path / "root", [INTEL_IGPU, NVIDIA_DGPU])
    proc = tmp_path / "proc"
    proc.mkdir()
    program = tmp_path / "webui"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    # On the integrated GPU, so "Run on the NVIDIA GPU" has something to change (issue 15).
    add_process(proc, 4100, "webui", str(program), maps=data("maps_mesa_intel.txt"), cmdline=[str(program)],
                fds={7: ("/dev/dri/renderD128", data("fdinfo_i915_t0.txt"))})
    probe = FakeNvidiaProbe(processes=[NvidiaProcess(4200, 0, "graphics", 38.0)],
                            utilization=[NvidiaUtilization(4200, 0, 41.0, 0.0, 0.0)])
    service = HybridService(platform="linux", sysfs_root=root, proc_root=proc,
                            nvidia_factory=lambda: (probe, None),
                            runner=FakeRunner({("prime-select", "query"): (0, "on-demand\n")}),
                            home=tmp_path / "home", backup_dir=tmp_path / "backups")
    page = page_module.HybridPage(service)
    qtbot.addWidget(page)
    page.resize(1100, 800)
    with qtbot.waitSignal(page.scan_done, timeout=10000):
        page.show()
    assert page.select_pid(4100)
    yield page, tmp_path
    dialog = getattr(page, "_plan_dialog", None)
    if dialog is not None:
        dialog.close()
    page.shutdown()


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_hybrid_page_has_no_dead_buttons(qtbot, hybrid_page, opened):
    page, home = hybrid_page
    clicked, dead = click_every_button(qtbot, page, opened)
    assert dead == []
    # the plan dialog is the page's child: its Apply writes the launcher into the temporary home,
    # and the Undo button that then appears takes it away again
    assert {"Refresh", "Run on the NVIDIA GPU", "Launch and check…", "Apply", "Undo"} <= set(clicked), clicked
    assert not (home / "home/.local/bin/webui-on-nvidia").exists()


# ---------------------------------------------------------------- fit


def test_fit_page_has_no_dead_buttons(qtbot, app_paths, opened):
    from gui.fit.page import FitPage

    context = build_context(argparse.Namespace(demo=False), app_paths)
    page = FitPage(context.settings_store, context.hubs, context.paths.recordings_dir)
    qtbot.addWidget(page)
    page.resize(1100, 800)
    page.show()
    try:
        clicked, dead = click_every_button(qtbot, page, opened)
        assert dead == []
        assert "Open file…" in clicked and "QFileDialog.getOpenFileName" in opened.events
    finally:
        page.shutdown()


# ---------------------------------------------------------------- hosts and settings


def test_hosts_page_has_no_dead_buttons(qtbot, app_paths, opened):
    from gui.hosts.page import HostsPage

    store = SettingsStore(app_paths.settings_file)
    store.load()
    page = HostsPage(store)
    qtbot.addWidget(page)
    page.show()
    try:
        page.url_edit.setText("127.0.0.1:1")  # nothing listens on port 1: the host shows as unreachable
        clicked, dead = click_every_button(qtbot, page, opened)
        assert dead == [] and "Add host" in clicked
        page.host_list.setCurrentRow(0)  # "Remove host" is enabled once a host is picked
        clicked, dead = click_every_button(qtbot, page, opened)
        assert dead == [] and "Remove host" in clicked
        assert page.host_urls() == [] and store.settings.hosts.urls == []
    finally:
        page.shutdown()


def test_settings_and_hosts_pages_stay_in_step_on_the_exporter_switch(qtbot, app_paths):
    """Both pages edit the exporter switch and port. A stale Settings page used to write its old
    'off' back when its port changed, so turning the exporter on in Hosts was silently undone."""
    from gui.hosts.page import HostsPage
    from gui.settings_page import SettingsPage

    store = SettingsStore(app_paths.settings_file)
    store.load()
    settings_page, hosts_page = SettingsPage(store), HostsPage(store)
    qtbot.addWidget(settings_page)
    qtbot.addWidget(hosts_page)
    try:
        hosts_page.serve_check.setChecked(True)
        assert store.settings.exporter.run_in_background
        assert settings_page.exporter_check.isChecked()
        settings_page.exporter_port.setValue(9555)
        settings_page.exporter_port.editingFinished.emit()
        assert store.settings.exporter.run_in_background and store.settings.exporter.port == 9555
        assert hosts_page.port_spin.value() == 9555
        settings_page.exporter_check.setChecked(False)
        assert not hosts_page.serve_check.isChecked()
    finally:
        hosts_page.shutdown()


def test_settings_page_unsubscribes_when_deleted(qtbot, app_paths):
    from gui.settings_page import SettingsPage

    store = SettingsStore(app_paths.settings_file)
    store.load()
    page = SettingsPage(store)
    page.deleteLater()
    qtbot.waitUntil(lambda: not store._listeners, timeout=2000)
    store.save()  # no listener left to touch a deleted widget


def test_the_harness_reports_a_button_that_does_nothing(qtbot, opened):
    page = QWidget()
    qtbot.addWidget(page)
    QPushButton("Does nothing", page)
    QPushButton("Says so", page).clicked.connect(lambda: label.setText("clicked"))
    label = QLabel("", page)
    page.show()
    clicked, dead = click_every_button(qtbot, page, opened, timeout_ms=300)
    assert clicked == ["Does nothing", "Says so"] and dead == ["Does nothing"]


def test_settings_page_scrolls_instead_of_forcing_a_tall_window(qtbot, app_paths):
    """The tallest page sets the window's minimum height; with the monitoring and alert groups the
    settings page made it 797 px in Chinese, taller than a 1366x768 laptop screen."""
    from gui.settings_page import SettingsPage

    page = SettingsPage(build_context(argparse.Namespace(demo=False), app_paths).settings_store)
    qtbot.addWidget(page)
    assert page.minimumSizeHint().height() < 400
    page.resize(900, 300)
    page.show()
    assert page.language_combo.isVisibleTo(page)  # still there, in the scroll area
