"""Shared pieces of the tests that run ``main.main(argv)`` in one language or the other (not a test module)."""
from __future__ import annotations

import re

import pytest

import main

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def english_system(monkeypatch):
    """The system locale is English: the language comes from ``--lang`` or the settings only."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """``main.main(argv)`` in-process: (exit code, stdout, stderr); argparse's refusal is exit code 2."""
    try:
        code = main.main(argv)
    except SystemExit as exc:
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err
