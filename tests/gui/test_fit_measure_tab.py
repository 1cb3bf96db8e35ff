"""The fit page's "Measure a run": a real child process measured through the fake NVML, live view,
result, stored row with delete, and the 'measured on this machine' line on later estimates."""
from __future__ import annotations

import argparse
import sys

import pytest

from gui.app import build_context
from gui.fit.page import FitPage
from services.modelfit.probes import NvmlProcessProbe
from tests.fakes.fake_nvml import make_gpu
from tests.services.test_fit_measure import CHILD, GRANDCHILD_GIB, PYTHON, TreeNvml


@pytest.fixture
def page(qtbot, app_paths):
    context = build_context(argparse.Namespace(demo=False), app_paths)
    widget = FitPage(context.settings_store, context.hubs, context.paths.recordings_dir)
    qtbot.addWidget(widget)
    widget.resize(1280, 820)
    widget.show()
    yield widget
    widget.shutdown()


def _measure_tab(page):
    tabs = page.results.tabs
    index = next(i for i in range(tabs.count()) if tabs.tabText(i) == "Measure a run")
    tabs.setCurrentIndex(index)
    return page.measure.panel


def test_measure_a_launched_command_live_then_stored_and_deleted(qtbot, page):
    panel = _measure_tab(page)
    fake = TreeNvml([make_gpu(0)])
    panel.probe_factory = lambda: NvmlProcessProbe(fake)
    panel.command_edit.setText(f'"{PYTHON}" -c "{CHILD}"')
    assert panel.start()
    assert panel.measuring() and not panel.start_button.isEnabled()
    qtbot.waitUntil(lambda: panel.view.peak_gib is not None and panel.view.peak_gib > 1.0, timeout=5000)
    with qtbot.waitSignal(panel.finished, timeout=10000) as done:
        pass
    row = done.args[0]
    assert row is not None and row.peak_gib == pytest.approx(5 + GRANDCHILD_GIB, abs=0.01) and row.exit_code == 3
    assert "Measured peak 7.00 GiB" in panel.result_label.text() and "exit code 3" in panel.status_label.text()
    table = page.measure.table
    assert table.table.rowCount() == 1 and table.table.item(0, 2).text() == "7.00"
    # Later estimates of the same model and engine say what was measured, apart from the estimate.
    assert "Measured on this machine: 7.00 GiB" in page.measure.known_label.text()
    assert page.last_answer.estimate.per_gpu_gib != pytest.approx(7.0)
    table.table.selectRow(0)
    assert table.delete_selected() == 1 and table.table.rowCount() == 0
    assert page.measure.known_label.text() == ""


def test_bad_inputs_are_one_line_in_the_panel(qtbot, page):
    panel = _measure_tab(page)
    fake = TreeNvml([make_gpu(0)])
    panel.probe_factory = lambda: NvmlProcessProbe(fake)
    panel.command_edit.setText("no-such-command-xyz --x")
    assert not panel.start() and "command not found: no-such-command-xyz" in panel.status_label.text()
    if sys.platform != "win32":  # Windows' own rules take an unclosed quote to the end of the line
        panel.command_edit.setText('python -c "unclosed')
        assert not panel.start() and "Command:" in panel.status_label.text()
    panel.mode_combo.setCurrentIndex(1)
    panel.process_combo.setEditText("")
    assert not panel.start() and "PID" in panel.status_label.text()
    panel.process_combo.setEditText("999999999")
    assert not panel.start() and "not running" in panel.status_label.text()
    assert not panel.measuring()


def test_stop_keeps_the_measurement_and_shutdown_leaves_no_timer(qtbot, page):
    panel = _measure_tab(page)
    fake = TreeNvml([make_gpu(0)])
    panel.probe_factory = lambda: NvmlProcessProbe(fake)
    panel.command_edit.setText(f'"{PYTHON}" -c "{CHILD}"')
    assert panel.start()
    qtbot.waitUntil(lambda: panel.view.peak_gib is not None, timeout=5000)
    process = panel.run.popen
    panel.stop()
    assert not panel.measuring() and not panel._timer.isActive()
    assert page.measure.table.rows[-1].status == "stopped"
    process.wait()


def test_a_calibrated_figure_drives_the_largest_that_fits_and_says_so(qtbot, page):
    from services.modelfit.calibration import split_gib
    from services.modelfit.measure import MeasureResult, MemorySample
    from services.modelfit.probes import GpuRef
    from services.modelfit.measurements import record

    ans = page.last_answer
    fixed, scaling = split_gib(ans.estimate)
    result = MeasureResult((GpuRef("GPU-1", 0, "NVIDIA GeForce RTX 4090", 24.0),))
    result.peak_gib["GPU-1"] = fixed + 3 * scaling  # the parts that grow with context were 3x
    result.samples.append(MemorySample(1.0, {"GPU-1": result.peak_gib["GPU-1"]}))
    result.status, result.exit_code = "measured", 0
    page.measure.table.store.add(record(ans.estimate, result, command=["python", "infer.py"], cwd=None, pid=1))
    page.measure.table.reload()
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._schedule()
    seq_text = page.results.max_seq_label.text()
    assert "by your runs (estimate: " + f"{page.last_answer.max_seq:,}" in seq_text
    assert "Calibrated on your transformers runs (1)" in page.measure.known_label.text()
    # The estimate itself is unchanged.
    assert page.last_answer.estimate.per_gpu_gib == pytest.approx(ans.estimate.per_gpu_gib)
    table = page.measure.table
    table.table.selectRow(0)
    table.delete_selected()
    with qtbot.waitSignal(page.updated, timeout=2000):
        pass
    assert "by your runs" not in page.results.max_seq_label.text() and not page.measure.known_label.text()
