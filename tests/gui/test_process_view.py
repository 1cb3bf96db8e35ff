"""The Dashboard's process view, driven by the real ProcessService behind a real hub (scripted source)."""
from __future__ import annotations

import sys
import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox

from gui.monitor.process_model import KEY_ROLE, ProcessModel
from gui.monitor.processes import ProcessView
from services.telemetry.model import ProcessSample
from services.telemetry.processes import (
    COLUMNS, FADE_S, EndResult, GpuProcess, HostProcess, ProcessService, ProcessTable,
)
from tests.gui.fake_hub import FakeHub, snapshot

T0 = time.time()


class Host:
    def __init__(self) -> None:
        self.procs = {
            100: HostProcess(100, "python", "python train.py --model meta-llama/Llama-3.1-8B", "alice", T0 - 90,
                             97.0, 4096.0),
            200: HostProcess(200, "ollama", "ollama serve", "bob", T0 - 4000, 12.0, 900.0),
        }

    def read(self, pids):
        return {p: h for p, h in self.procs.items() if p in set(pids)}


def procs(*rows):
    return tuple(ProcessSample(pid=pid, name=name, user=None, kind="compute", used_mib=mib, sm_pct=sm)
                 for pid, name, mib, sm in rows)


@pytest.fixture
def hub_and_view(qtbot):
    hub = FakeHub()
    service = ProcessService(Host())
    hub.processes = service
    hub.add_listener(service.on_snapshot)
    view = ProcessView(service, ender=lambda row: EndResult(True, f"ended {row.pid}"))
    qtbot.addWidget(view)
    view.resize(1100, 300)
    view.show()
    yield hub, view
    view.shutdown()


def push(qtbot, hub, view, t, rows, n_gpus=2):
    with qtbot.waitSignal(view.table_shown, timeout=2000):
        hub.push(snapshot(n_gpus, t, processes=rows), threaded=True)


def test_the_process_model_is_a_well_behaved_qt_model(qtmodeltester):
    model = ProcessModel()
    model.set_table(ProcessTable(t=10.0, rows=(
        GpuProcess(1, "GPU-a", "GPU 0", 0, False, "python", used_mib=1024.0, sm_pct=50.0),
        GpuProcess(2, "GPU-a", "GPU 0", 0, False, "Xorg", ended_at=9.0),
    )))
    qtmodeltester.check(model)


def test_rows_for_every_gpu_with_host_facts_and_not_reported_tooltips(qtbot, hub_and_view):
    hub, view = hub_and_view
    push(qtbot, hub, view, T0, procs((100, "python", 17000.0, 63.0), (200, "ollama", None, None)))
    model = view.model
    assert model.rowCount() == 4  # two processes on each of two GPUs
    first = model.process(0)
    assert (first.name, first.sm_pct, first.used_mib) == ("python", 63.0, 17000.0)
    col = {name: i for i, name in enumerate(COLUMNS)}
    assert model.index(0, col["name"]).data(Qt.ItemDataRole.ToolTipRole).startswith("python train.py --model")
    assert model.index(0, col["running"]).data() == "1:30"
    assert model.index(0, col["user"]).data() == "alice"
    ollama = next(r for r in range(model.rowCount()) if model.process(r).pid == 200)
    assert model.index(ollama, col["gpu_memory"]).data() == "not reported"
    assert "WDDM" in model.index(ollama, col["gpu_memory"]).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(ollama, col["sm_pct"]).data() == "not reported"


def test_selection_stays_on_the_process_through_refreshes_sorting_and_filtering(qtbot, hub_and_view):
    hub, view = hub_and_view
    push(qtbot, hub, view, T0, procs((100, "python", 17000.0, 63.0), (200, "ollama", 900.0, 5.0)), n_gpus=1)
    assert view.select((200, "GPU-00000000"))
    # ollama grows past python: the rows swap places, the selection follows ollama.
    push(qtbot, hub, view, T0 + 1, procs((100, "python", 17000.0, 63.0), (200, "ollama", 20000.0, 5.0)), n_gpus=1)
    rows = view.table.selectionModel().selectedRows()
    assert [r.data(KEY_ROLE) for r in rows] == [(200, "GPU-00000000")] and rows[0].row() == 0
    view.table.sortByColumn(COLUMNS.index("sm_pct"), Qt.SortOrder.DescendingOrder)
    assert [view.model.process(r).pid for r in range(2)] == [100, 200]
    assert view.selected().pid == 200
    view.table.sortByColumn(COLUMNS.index("name"), Qt.SortOrder.AscendingOrder)
    assert [view.model.process(r).pid for r in range(2)] == [200, 100]
    view.filter_edit.setText("train")
    assert [view.model.process(r).pid for r in range(view.model.rowCount())] == [100]
    view.filter_edit.clear()
    assert view.selected().pid == 200


def test_an_ended_process_fades_then_goes(qtbot, hub_and_view):
    hub, view = hub_and_view
    push(qtbot, hub, view, T0, procs((100, "python", 17000.0, 63.0), (200, "ollama", 900.0, 5.0)), n_gpus=1)
    push(qtbot, hub, view, T0 + 1, procs((100, "python", 17000.0, 63.0)), n_gpus=1)
    row = next(r for r in range(view.model.rowCount()) if view.model.process(r).pid == 200)
    name = view.model.index(row, COLUMNS.index("name"))
    assert name.data() == "ollama (ended)" and name.data(Qt.ItemDataRole.FontRole).italic()
    early = name.data(Qt.ItemDataRole.ForegroundRole).alphaF()
    push(qtbot, hub, view, T0 + FADE_S - 1, procs((100, "python", 17000.0, 63.0)), n_gpus=1)
    row = next(r for r in range(view.model.rowCount()) if view.model.process(r).pid == 200)
    assert view.model.index(row, COLUMNS.index("name")).data(Qt.ItemDataRole.ForegroundRole).alphaF() < early
    push(qtbot, hub, view, T0 + FADE_S + 1, procs((100, "python", 17000.0, 63.0)), n_gpus=1)
    assert [view.model.process(r).pid for r in range(view.model.rowCount())] == [100]


def test_actions_name_the_process_and_refuse_another_users(qtbot, hub_and_view, monkeypatch):
    hub, view = hub_and_view
    push(qtbot, hub, view, T0, procs((100, "python", 17000.0, 63.0), (200, "ollama", 900.0, 5.0)), n_gpus=1)
    monkeypatch.setattr("services.telemetry.process_end.current_user", lambda: "alice")
    monkeypatch.setattr("services.telemetry.process_end.privileged", lambda: False)
    view.select((200, "GPU-00000000"))
    assert not view.end_button.isEnabled() and "belongs to bob" in view.end_button.toolTip()
    shown = []
    monkeypatch.setattr(QMessageBox, "information", lambda parent, title, text: shown.append(text))
    assert not view.end_selected()
    assert "belongs to bob" in shown[0] and "administrator" in shown[0]

    view.select((100, "GPU-00000000"))
    assert view.end_button.isEnabled()
    asked = []

    def question(parent, title, text, buttons, default):
        asked.append((title, text))
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    with qtbot.waitSignal(view._hop.ended, timeout=2000):
        assert view.end_selected()
    view.wait_for_workers()
    qtbot.waitUntil(lambda: view.note.text() == "ended 100", timeout=2000)
    # Windows ends a process at once (TerminateProcess); elsewhere it is asked first, then killed.
    how = "ended at once" if sys.platform == "win32" else "killed"
    assert "python" in asked[0][0] and "PID 100" in asked[0][1] and how in asked[0][1]

    with qtbot.waitSignal(view.open_in_hybrid, timeout=1000) as signal:
        view.hybrid_button.click()
    assert signal.args == [100]
    view.copy_button.click()
    assert QGuiApplication.clipboard().text() == "python train.py --model meta-llama/Llama-3.1-8B"


def test_the_view_follows_a_replaced_service(qtbot, hub_and_view):
    hub, view = hub_and_view
    push(qtbot, hub, view, T0, procs((100, "python", 17000.0, 63.0)), n_gpus=1)
    other = ProcessService(Host())
    view.follow(other)
    assert view.model.rowCount() == 0  # the new service has no table yet
    hub.push(snapshot(1, T0 + 1, processes=procs((100, "python", 1.0, 1.0))), threaded=True)
    qtbot.wait(50)  # the old service's table arrives late and is ignored
    assert view.model.rowCount() == 0
    with qtbot.waitSignal(view.table_shown, timeout=2000):
        other.on_snapshot(snapshot(1, T0 + 2, processes=procs((100, "python", 2.0, 2.0))))
    assert view.model.process(0).used_mib == 2.0
