"""Measure a run on Windows: the "GPU Process Memory" Dedicated Usage counter, read through the real
PdhCounterSource code (ctypes structures in Windows' layout) from counter arrays in the real instance
format, for a real child process; and the real pdh.dll (no GPU counters under Wine) said in one line.
Marked ``windows``: they run on Windows and in the Windows lane (Wine)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from services.hybrid.windows import DEDICATED_COUNTER, ENGINE_COUNTER, SHARED_COUNTER, PdhCounterSource
from services.modelfit.measure import GIB, Measurement, default_probe, run_to_end
from tests.services.hybrid.test_windows_backends import FakePdh
from tests.services.test_fit_measure import PYTHON  # the base interpreter: a venv's python.exe is a launcher

pytestmark = pytest.mark.windows

ROOT = Path(__file__).resolve().parents[2]
LUID = "0x00000000_0x0000E2F1"
CHILD = ("import subprocess, sys, time; "
         "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(2.5)']); "
         "time.sleep(2.5); p.wait(); sys.exit(4)")
RISE_FALL_GIB = (0.5, 2, 4, 6, 3, 1)


class TreePdh(FakePdh):
    """Each collection reports this test's children: each grandchild holds 1 GiB, an unrelated process
    8 GiB, and the child's dedicated memory follows RISE_FALL_GIB, one step per collection once its
    grandchild runs (Python starts slowly under Wine: the steps wait for the whole tree)."""

    def __init__(self) -> None:
        super().__init__({ENGINE_COUNTER: {}, DEDICATED_COUNTER: {}, SHARED_COUNTER: {}})
        self.reads = 0

    def PdhCollectQueryData(self, query):
        if self.collected % 2 == 0:  # the first of the two collections of one sample
            dedicated = {f"pid_4242_luid_{LUID}_phys_0": 8.0 * GIB}
            for child in psutil.Process().children():
                try:
                    grandchildren = child.children(recursive=True)
                except psutil.Error:  # the child has just ended
                    grandchildren = []
                if grandchildren:
                    self.reads += 1
                step = min(self.reads, len(RISE_FALL_GIB) - 1)
                dedicated[f"pid_{child.pid}_luid_{LUID}_phys_0"] = RISE_FALL_GIB[step] * GIB
                for grandchild in grandchildren:
                    dedicated[f"pid_{grandchild.pid}_luid_{LUID}_phys_0"] = 1.0 * GIB
            self.arrays[DEDICATED_COUNTER] = dedicated
        return super().PdhCollectQueryData(query)


def test_dedicated_counter_of_a_real_child_tree_gives_the_peak():
    source = PdhCounterSource(pdh=TreePdh(), sleep=lambda s: None)
    probe = default_probe(module=_no_nvml(), counters=source)
    run = Measurement.launch(probe, [PYTHON, "-c", CHILD])
    result = run_to_end(run, interval_s=0.1)
    assert result.exit_code == 4 and result.status == "measured"
    assert result.peak_gib[LUID] == pytest.approx(6 + 1, abs=0.01)  # child + grandchild, not the 8 GiB stranger


def test_without_nvml_or_gpu_counters_fit_measure_is_one_line_and_runs_nothing(tmp_path):
    marker = tmp_path / "ran.txt"
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "fit", "--params-b", "1", "--measure", "--",
                           sys.executable, "-c", f"open(r'{marker}', 'w')"],
                          capture_output=True, text=True, errors="replace", timeout=300)
    assert "Traceback" not in done.stderr + done.stdout
    if done.returncode == 3:  # Wine: no nvml.dll, and pdh.dll has no GPU counters
        assert "performance counters could not be read" in done.stderr and not marker.exists()
    else:  # a real Windows machine with an NVIDIA GPU measures it
        assert done.returncode == 0 and marker.exists()


def _no_nvml():
    from tests.fakes.fake_nvml import NVML_ERROR_LIBRARY_NOT_FOUND, FakeNvml

    return FakeNvml(0, init_error=NVML_ERROR_LIBRARY_NOT_FOUND)


@pytest.mark.parametrize("line", [
    r'"C:\Program Files\Python312\python.exe" train.py --bs 4',
    r'python -c "print(\"hi\")"',
    r'C:\tools\x.exe "C:\data dir\\" next',
    r'prog a\\b a\\\"b "a b"c',
    'prog "say ""hi"""',
    r'"D:\李 雷\AI 工具\python.exe" -m peft_train --out "E:\out dir"',
])
def test_the_measure_tab_splits_a_command_as_windows_does(line):
    """The command a user pastes into "Measure a run" becomes the argument list Windows itself would give."""
    import ctypes

    from services.modelfit.measure import split_command

    shell32 = ctypes.WinDLL("shell32")
    shell32.CommandLineToArgvW.restype = ctypes.POINTER(ctypes.c_wchar_p)
    shell32.CommandLineToArgvW.argtypes = [ctypes.c_wchar_p, ctypes.POINTER(ctypes.c_int)]
    count = ctypes.c_int()
    argv = shell32.CommandLineToArgvW(line, ctypes.byref(count))
    try:
        parsed = [argv[i] for i in range(count.value)]
    finally:
        ctypes.windll.kernel32.LocalFree(argv)
    assert split_command(line, windows=True) == parsed
