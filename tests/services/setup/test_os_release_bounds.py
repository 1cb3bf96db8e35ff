"""``setup --plan --os-release FILE`` on a file no os-release is like: a line longer than any value, or
a file far larger than any os-release, is refused with a message and exit code 2, at once (a 5 MB line
took 45 s in shlex, and was later skipped without a word, planning for whatever the rest said)."""
from __future__ import annotations

import time

import pytest

from cli import EXIT_USAGE
from services.setup.os_release import OS_RELEASE_MAX_LINE, os_release_long_line, parse_os_release

from ...cli_helpers import run

GOOD = 'ID=ubuntu\nVERSION_ID="24.04"\nPRETTY_NAME="Ubuntu 24.04"\nVERSION_CODENAME=noble\n'


def plan(path, capsys):
    started = time.monotonic()
    code, out, err = run(["setup", "--plan", "--os-release", str(path), "--gpu", "10de:2684"], capsys)
    return code, out, err, time.monotonic() - started


def test_a_long_line_is_refused_with_its_number(tmp_path, capsys):
    path = tmp_path / "os-release"
    path.write_text(GOOD.replace("PRETTY_NAME=", 'PRETTY_NAME="' + "x" * (OS_RELEASE_MAX_LINE + 1) + '"\nX='), encoding="utf-8")
    code, out, err, _ = plan(path, capsys)
    assert code == EXIT_USAGE and out == ""
    assert f"{path}: line 3 is longer than {OS_RELEASE_MAX_LINE} characters: not an os-release file" in err
    assert "Traceback" not in err


def test_a_5_mb_line_is_refused_at_once(tmp_path, capsys):
    path = tmp_path / "os-release"
    path.write_text('ID=ubuntu\nPRETTY_NAME="' + "a b " * 1_300_000 + '"\n', encoding="utf-8")
    code, out, err, seconds = plan(path, capsys)
    assert code == EXIT_USAGE and out == ""
    assert "is larger than 64 KiB: not an os-release file" in err
    assert seconds < 5.0  # the whole command, not only the parse


def test_a_long_line_within_the_size_limit_is_found_fast():
    text = GOOD + "X=" + "a b " * 15_000 + "\n"  # 60 KB: inside the size limit
    started = time.monotonic()
    assert os_release_long_line(text) == 5
    assert parse_os_release(text).id == "ubuntu"
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize("line", [OS_RELEASE_MAX_LINE, 10])
def test_lines_up_to_the_limit_are_planned_for(tmp_path, capsys, line):
    path = tmp_path / "os-release"
    path.write_text(GOOD + "HOME_URL=" + "h" * (line - len("HOME_URL=")) + "\n", encoding="utf-8")
    code, out, err, _ = plan(path, capsys)
    assert code == 0, err
    assert "Ubuntu 24.04" in out
