"""The Setup page's 'Copy commands' for another machine's plan: the clipboard's text, pasted into bash
on the target (a temporary root here), writes the file byte for byte. The same lines the CLI prints
(tests/services/setup/test_plan_copy_runs.py)."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication

from services.setup.linux_plans import NOUVEAU_BLACKLIST, NOUVEAU_FILE
from tests.gui.test_setup_page import machine, page, wait_report  # noqa: F401 (the page's fixtures)
from tests.services.setup.machine import RUNS_LINUX_COMMANDS
from tests.services.setup.pasted import run_pasted


@RUNS_LINUX_COMMANDS
@pytest.mark.parametrize("system", ["ubuntu-24.04", "fedora-41", "arch"])
def test_copied_plan_for_another_machine_runs_when_pasted(qtbot, page, machine, tmp_path, system):  # noqa: F811
    wait_report(qtbot, page)
    calls = len(machine.runner.calls)
    assert page.plan_other_machine(system, "GeForce RTX 4090") is not None
    page.open_step("blacklist-nouveau")
    QGuiApplication.clipboard().clear()
    page.wizard.copy_button.click()
    copied = QGuiApplication.clipboard().text()
    assert "/dev/stdin" in copied and copied == page.wizard.step_commands.toPlainText()
    target = tmp_path / "target"
    target.mkdir()
    result, logged = run_pasted(copied, target)
    assert result.returncode == 0, result.stderr
    assert (target / NOUVEAU_FILE.lstrip("/")).read_bytes() == NOUVEAU_BLACKLIST.encode("utf-8")
    assert logged and len(machine.runner.calls) == calls  # nothing ran on this computer
