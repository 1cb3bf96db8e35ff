"""Ctrl-D at setup's confirmation question changes nothing and gives no traceback."""
from __future__ import annotations

import main

from .machine import LINUX_DOCTOR
from .test_cli_setup import machine  # noqa: F401 - the fake machine fixture


@LINUX_DOCTOR
def test_end_of_input_at_the_question_is_a_no(machine, capsys, monkeypatch):  # noqa: F811
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)

    def closed_input(prompt=""):
        print(prompt, end="")
        raise EOFError

    monkeypatch.setattr("builtins.input", closed_input)
    assert main.main(["setup", "--run", "update-package-lists", "--full"]) == 0
    assert "nothing was changed" in capsys.readouterr().out
    assert ("apt-get", "update") not in machine.runner.calls
