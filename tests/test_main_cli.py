from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args):
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True, cwd=ROOT)


def test_help_and_version():
    assert _run("--help").returncode == 0
    result = _run("--version")
    assert result.returncode == 0 and "GPU Assistant" in result.stdout


def test_bad_usage_exits_2():
    result = _run("no-such-command")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
