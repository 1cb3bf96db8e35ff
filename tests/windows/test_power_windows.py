"""The power-limit paths on Windows for real: the UAC-wrapped nvidia-smi and the scheduled task parse
back with CommandLineToArgvW (as Start-Process and schtasks hand them on), the journal and saved
sweeps live in a profile whose path has spaces and Chinese, and ``power`` without a driver is one
line. Marked ``windows``: run on Windows and in the Windows lane (Wine)."""
from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.windows

ROOT = Path(__file__).resolve().parents[2]
UUID = "GPU-4f1c2a9e-0000-4000-8000-000000000001"


def command_line_to_argv(line: str) -> list[str]:
    shell32 = ctypes.WinDLL("shell32")
    shell32.CommandLineToArgvW.restype = ctypes.POINTER(ctypes.c_wchar_p)
    shell32.CommandLineToArgvW.argtypes = [ctypes.c_wchar_p, ctypes.POINTER(ctypes.c_int)]
    count = ctypes.c_int()
    argv = shell32.CommandLineToArgvW(line, ctypes.byref(count))
    try:
        return [argv[i] for i in range(count.value)]
    finally:
        ctypes.windll.kernel32.LocalFree(argv)


def test_power_elevation_is_a_uac_prompt():
    from services.power.limits import power_elevation

    assert power_elevation(gui=True) == "uac" and power_elevation(gui=False) == "uac"


def test_uac_wrapped_nvidia_smi_parses_back():
    from services.power.limits import PowerLimitSetter

    setter = PowerLimitSetter(None, None, "uac", lambda uuid: None)  # type: ignore[arg-type]
    script = setter.command(1, 287.5)[-1]
    program = re.search(r"-FilePath '([^']*)'", script).group(1)
    arguments = re.search(r"-ArgumentList '([^']*)'", script).group(1)
    assert command_line_to_argv(f"{program} {arguments}") == ["nvidia-smi", "-i", "1", "-pl", "287.5"]


def test_scheduled_task_parses_back():
    from services.power.persist import WINDOWS_NVIDIA_SMI, keep_plan

    plan = keep_plan("windows", UUID, 300.0)
    argv = list(plan.keep[0].argv)
    assert command_line_to_argv(subprocess.list2cmdline(argv)) == argv  # what subprocess hands schtasks
    action = argv[argv.index("/TR") + 1]
    assert command_line_to_argv(action) == [WINDOWS_NVIDIA_SMI, "-i", UUID, "-pl", "300"]
    delete = list(plan.undo[0].argv)
    assert command_line_to_argv(subprocess.list2cmdline(delete)) == delete


def test_journal_and_sweeps_in_a_profile_with_spaces_and_chinese(tmp_path):
    from services.power import store
    from services.power.limits import REASON_SWEEP, LimitChange, LimitJournal
    from services.power.model import Sweep, SweepPoint

    folder = tmp_path / "李 雷" / "GPU Assistant"
    journal = LimitJournal(folder / "power-limit-journal.json")
    change = LimitChange(UUID, 0, "NVIDIA GeForce RTX 4090", 450.0, 360.0, REASON_SWEEP, 1.0)
    journal.add(change)
    journal.add(change)  # os.replace over an existing file: Windows allows it only through MoveFileEx
    assert journal.load() == [change, change]
    journal.remove(change)
    assert journal.load() == []
    sweep = Sweep("NVIDIA GeForce RTX 4090", UUID, 0, "560.94", 1_800_000_000.0, 31.0, 450.0, 150.0, 600.0, 450.0,
                  points=[SweepPoint(450.0, "matmul", 160.0, "TFLOP/s", 447.0, 4470.0, 10.0)])
    path = store.save(sweep, folder / "sweeps")
    assert store.load(path).points == sweep.points


def test_power_command_without_a_driver_is_one_line(tmp_path):
    env = dict(os.environ, GPU_ASSISTANT_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "power", "--status"], capture_output=True,
                          text=True, encoding="utf-8", errors="replace", env=env, timeout=120)
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr
