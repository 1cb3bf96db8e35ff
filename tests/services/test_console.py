"""Output on a Windows code page (1252, 936) degrades readably instead of raising."""
from __future__ import annotations

import io
import subprocess
import sys

import pytest

from services.console import make_readable

ROOT_LINE = "GPU ≥ 80 °C → throttling × 2 … 显存 12 GiB – ✓"


def _stream(encoding: str) -> tuple[io.BytesIO, io.TextIOWrapper]:
    raw = io.BytesIO()
    return raw, io.TextIOWrapper(raw, encoding=encoding, errors="strict", newline="\n")


def test_english_code_page_gets_readable_stand_ins():
    raw, out = _stream("cp1252")
    make_readable(out)
    out.write(ROOT_LINE + "\n")
    out.flush()
    # ° and × are in 1252 and stay; ≥ → … ✓ are not and become ASCII; Chinese becomes '?'
    assert raw.getvalue().decode("cp1252") == "GPU >= 80 °C -> throttling × 2 … ?? 12 GiB – OK\n"


def test_chinese_code_page_keeps_chinese():
    raw, out = _stream("cp936")
    make_readable(out)
    out.write(ROOT_LINE + "\n")
    out.flush()
    text = raw.getvalue().decode("cp936")
    assert "显存 12 GiB" in text
    assert "≥" in text and "→" in text  # GBK holds these
    assert text.endswith("OK\n")  # ✓ is not in GBK


def test_utf8_streams_are_left_alone():
    raw, out = _stream("utf-8")
    make_readable(out)
    assert out.errors == "strict"
    out.write(ROOT_LINE)
    out.flush()
    assert raw.getvalue().decode("utf-8") == ROOT_LINE


@pytest.mark.end2end  # the console code page is the real process's stdout encoding
def test_a_piped_command_on_a_narrow_code_page_does_not_fail():
    # The whole program, as a Windows user redirecting output gets it: stdout encoded as cp1252.
    # Chinese text (the troubleshooter in the system language) onto an English code page.
    done = subprocess.run([sys.executable, "main.py", "doctor", "--explain", "CUDA out of memory"],
                          capture_output=True, env={**_env(), "PYTHONIOENCODING": "cp1252"}, timeout=120)
    assert done.returncode == 0, done.stderr.decode("cp1252", "replace")
    assert b"Traceback" not in done.stderr
    assert b"??" in done.stdout and b"nvidia-smi" in done.stdout  # Chinese became '?', commands intact


def _env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    for name in ("PYTHONUTF8", "LANGUAGE", "LC_MESSAGES"):
        env.pop(name, None)
    env["LANG"] = env["LC_ALL"] = "zh_CN.UTF-8"
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def test_lang_option_applies_to_commands(capsys):
    import main

    assert main.main(["--lang", "zh_CN", "psu", "--gpu", "4090"]) == 0
    assert "显卡" in capsys.readouterr().out
