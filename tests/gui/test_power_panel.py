"""The power panel on the scripted machine: a sweep run and shown, a saved one opened and compared,
a limit set with its command previewed and undone, and the dashboard card's menu entry."""
from __future__ import annotations

import threading

import pytest

from gui.monitor.card import GpuCard
from gui.power.backend import PowerBackend
from gui.power.limit_dialog import SetLimitDialog
from gui.power.panel import SweepPanel
from services.power import store
from services.power.limits import LimitJournal
from services.telemetry.nvml_source import NvmlSource
from tests.fakes.fake_nvml import FakeProcess
from tests.fakes.power_fakes import FakeClock, ScriptedWorkloadRunner, scripted_fake, smi_runner
from tests.gui.fake_hub import gpu_info


@pytest.fixture(autouse=True)
def _earlier_widgets_deleted(qapp):
    """Widgets of earlier tests are deleted (deleteLater) before this test's worker threads start: a
    widget deleted by the GUI thread while a job thread emits its outcome crashed PySide here
    ("shared QObject was deleted directly")."""
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    yield


@pytest.fixture
def backend(tmp_path):
    fake = scripted_fake()
    clock = FakeClock()
    workload = ScriptedWorkloadRunner(fake, clock)
    be = PowerBackend(make_source=lambda: NvmlSource(fake, runtime_pm=False),
                      make_runner=lambda: smi_runner(fake), make_workload=lambda python: workload,
                      elevation=lambda: "pkexec", journal=lambda: LimitJournal(tmp_path / "journal.json"),
                      clock=clock, sweeps_folder=tmp_path / "sweeps", system="linux", smi_present=lambda system: True)
    return fake, workload, be


def _no_power_threads() -> bool:
    return not [t for t in threading.enumerate() if t.name.startswith("power-")]


def _threads_gone(qtbot) -> None:
    """A job's thread lives a moment after its outcome is handled; Qt deletes the finished job at the
    next event loop pass, so a test ends only once those threads are gone."""
    qtbot.waitUntil(_no_power_threads, timeout=10000)


def test_sweep_runs_shows_recommends_and_restores(qtbot, backend):
    fake, workload, be = backend
    panel = SweepPanel(0, "RTX 4090", backend=be)
    qtbot.addWidget(panel)
    panel.seconds.setValue(10)
    panel.start_sweep()
    qtbot.waitUntil(lambda: panel.sweep is not None, timeout=10000)
    assert panel.table.rowCount() == 5 and panel.table.item(0, 0).text() == "450"
    assert "405 W keeps" in panel.recommendation.text() and panel.set_recommended.isEnabled()
    assert fake.gpus[0].power_limit_mw == 450_000 and panel.saved_path and panel.saved_path.is_file()
    assert "Saved as" in panel.status.text() and not panel.notes.isVisible()
    panel.keep.setValue(85)  # a lower bar: a lower recommended limit
    assert "405 W keeps" not in panel.recommendation.text()
    panel.shutdown()
    _threads_gone(qtbot)


def test_busy_gpu_asks_first(qtbot, backend):
    fake, workload, be = backend
    fake.gpus[0].compute = [FakeProcess(777, 9000 * 2**20)]
    asked = []
    panel = SweepPanel(0, backend=be)
    qtbot.addWidget(panel)
    panel.ask = lambda question: asked.append(question) or False
    panel.start_sweep()
    qtbot.waitUntil(lambda: bool(asked), timeout=10000)
    assert "PID 777" in asked[0] and workload.jobs == [] and panel.sweep is None
    panel.shutdown()
    _threads_gone(qtbot)


def test_open_and_compare_saved_sweeps(qtbot, backend, tmp_path):
    fake, workload, be = backend
    panel = SweepPanel(0, backend=be)
    qtbot.addWidget(panel)
    panel.seconds.setValue(10)
    panel.start_sweep()
    qtbot.waitUntil(lambda: panel.sweep is not None, timeout=10000)
    path = panel.saved_path
    other = SweepPanel(0, backend=be)
    qtbot.addWidget(other)
    assert other.load(path) and other.table.rowCount() == 5
    assert other.compare_with(path) and other.compared is not None
    bad = tmp_path / "bad.sweep.json"
    bad.write_text("[]", encoding="utf-8")
    assert not other.load(bad) and "cannot read the sweep" in other.status.text()
    assert store.load(path).gpu_name == fake.gpus[0].name
    panel.shutdown()
    other.shutdown()
    _threads_gone(qtbot)


def test_set_limit_previews_applies_and_undoes(qtbot, backend):
    fake, workload, be = backend
    dialog = SetLimitDialog(0, 360.0, backend=be)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(dialog.apply_button.isEnabled, timeout=10000)
    assert "allowed 150-600 W" in dialog.info.text()
    assert dialog.command.toPlainText() == "pkexec nvidia-smi -i 0 -pl 360"
    dialog.keep.setChecked(True)
    assert "tee /etc/systemd/system/gpu-assistant-power-limit-" in dialog.command.toPlainText()
    dialog.keep.setChecked(False)
    dialog.apply()
    qtbot.waitUntil(lambda: "now 360 W" in dialog.result.text(), timeout=10000)
    assert fake.gpus[0].power_limit_mw == 360_000 and "resets when the computer restarts" in dialog.result.text()
    dialog.undo()
    qtbot.waitUntil(lambda: fake.gpus[0].power_limit_mw == 450_000, timeout=10000)
    qtbot.waitUntil(lambda: "Now 450 W" in dialog.info.text(), timeout=10000)
    dialog.undo()
    qtbot.waitUntil(lambda: "Nothing to undo" in dialog.result.text(), timeout=10000)
    dialog.work.shutdown()
    _threads_gone(qtbot)


def test_keeping_is_offered_only_where_nvidia_smi_is(qtbot, backend):
    from dataclasses import replace

    fake, workload, be = backend
    dialog = SetLimitDialog(0, 360.0, backend=replace(be, smi_present=lambda system: False))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(dialog.apply_button.isEnabled, timeout=10000)
    assert not dialog.keep.isEnabled() and not dialog.keep_problem.isHidden()
    assert "/usr/bin/nvidia-smi is not there" in dialog.keep_problem.text()
    dialog.work.shutdown()
    _threads_gone(qtbot)


def test_card_menu_offers_the_power_panel(qtbot):
    from PySide6.QtWidgets import QToolButton

    card = GpuCard(gpu_info(0))
    qtbot.addWidget(card)
    button = card.findChild(QToolButton, "CardMenuButton")
    texts = [a.text() for a in button.menu().actions()]
    assert texts == ["Power efficiency sweep…", "Set power limit…"]
    button.menu().actions()[0].trigger()  # the panel opens (offscreen) for this card; it starts nothing
    [panel] = card.findChildren(SweepPanel)
    assert panel.gpu_index == 0 and panel.work.busy() is False
    panel.close()


def test_a_killed_sweep_is_restored_at_the_next_start(qtbot, backend):
    from PySide6.QtWidgets import QWidget

    from gui.power.recovery import restore_interrupted_sweeps_soon
    from services.power.limits import REASON_SWEEP, LimitChange

    fake, workload, be = backend
    window = QWidget()
    qtbot.addWidget(window)
    assert restore_interrupted_sweeps_soon(window, be) is None  # nothing recorded: nothing read
    fake.gpus[0].power_limit_mw = 315_000
    be.journal().add(LimitChange(fake.gpus[0].uuid, 0, "x", 450.0, 315.0, REASON_SWEEP, 1.0))
    said = []
    work = restore_interrupted_sweeps_soon(window, be, tell=lambda parent, text: said.append(text))
    qtbot.waitUntil(lambda: bool(said), timeout=10000)
    assert "now 450 W" in said[0] and fake.gpus[0].power_limit_mw == 450_000 and be.journal().load() == []
    work.shutdown()
    _threads_gone(qtbot)
