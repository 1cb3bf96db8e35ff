"""``/proc`` readings against psutil, which parses the same files: the same memory figures, and the
same name and user for every process on the machine running the tests."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from services.telemetry import procfs
from services.telemetry.system import SystemProbe, process_identity

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")

MEMINFO = """MemTotal:       24683664 kB
MemFree:        21000000 kB
MemAvailable:   22000000 kB
Buffers:          100000 kB
SwapTotal:       2097148 kB
SwapFree:        1048576 kB
HugePages_Total:       0
"""


def _proc(tmp_path, pid: int, stat: bytes, cmdline: bytes, uid: int) -> None:
    folder = tmp_path / str(pid)
    folder.mkdir()
    (folder / "stat").write_bytes(stat)
    (folder / "cmdline").write_bytes(cmdline)
    (folder / "status").write_bytes(b"Name:\tx\nUmask:\t0022\nUid:\t%d\t%d\t%d\t%d\nGid:\t0\t0\t0\t0\n" % ((uid,) * 4))


def test_memory_is_psutils():
    memory = procfs.read_memory()
    vm, swap = psutil.virtual_memory(), psutil.swap_memory()
    assert memory.total == vm.total and memory.swap_total == swap.total
    # Read a moment apart: the free figures move, by far less than 1 GiB.
    assert abs(memory.available - vm.available) < 2**30
    assert abs(memory.swap_used - swap.used) < 2**30


def test_memory_from_a_file(tmp_path):
    (tmp_path / "meminfo").write_text(MEMINFO)
    assert procfs.read_memory(str(tmp_path)) == procfs.HostMemory(
        total=24683664 * 1024, available=22000000 * 1024, swap_total=2097148 * 1024, swap_used=1048572 * 1024)


def test_memory_without_mem_available_or_file_is_none(tmp_path):
    (tmp_path / "meminfo").write_text(MEMINFO.replace("MemAvailable:   22000000 kB\n", ""))
    assert procfs.read_memory(str(tmp_path)) is None
    assert procfs.read_memory(str(tmp_path / "missing")) is None


def test_every_process_is_named_as_psutil_names_it():
    compared = 0
    for pid in psutil.pids():
        try:
            proc = psutil.Process(pid)
            expected = (proc.name(), proc.username())
        except psutil.Error:
            continue  # gone, or not ours to read
        ours = procfs.process_identity(pid)
        if ours == (None, None):
            assert not psutil.pid_exists(pid)  # it ended between the two readings
            continue
        assert ours == expected, pid
        compared += 1
    assert compared >= 3


def test_a_long_name_is_taken_from_the_command_line(tmp_path):
    """The kernel keeps 15 bytes of a name; psutil then uses the command line's first word."""
    program = tmp_path / "gpu-assistant-long-sleeper"
    program.symlink_to(shutil.which("sleep"))
    child = subprocess.Popen([str(program), "30"])
    try:
        # Until the child has exec'd: before, it is a copy of us; and exec sets the new name before
        # the new command line exists (the kernel fills mm->arg_start after setting comm), so wait
        # for a non-empty command line, with a deadline instead of a count that load can outrun.
        cmdline = Path(f"/proc/{child.pid}/cmdline")
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:
            if cmdline.read_bytes().startswith(str(program).encode() + b"\x00"):
                break
        name, user = procfs.process_identity(child.pid)
        assert name == "gpu-assistant-long-sleeper"  # comm is "gpu-assistant-l"
        assert (name, user) == (psutil.Process(child.pid).name(), psutil.Process(child.pid).username())
    finally:
        child.kill()
        child.wait()
    # A name cut at 15 bytes whose command line starts with it gets the whole word.
    _proc(tmp_path, 7, b"7 (gnome-keyring-d) S 1 7", b"/usr/bin/gnome-keyring-daemon\x00--start\x00", 0)
    assert procfs.process_identity(7, str(tmp_path))[0] == "gnome-keyring-daemon"
    # A program that rewrote its title with spaces (Chrome does), and a name with ")" inside.
    _proc(tmp_path, 8, b"8 (chrome --type=re) S 1 8", b"chrome --type=renderer --lang=en\x00", 0)
    assert procfs.process_identity(8, str(tmp_path))[0] == "chrome --type=re"  # "chrome" does not start with it
    _proc(tmp_path, 9, b"9 (a) b) c) S 1 9", b"", 0)
    assert procfs.process_identity(9, str(tmp_path))[0] == "a) b) c"


def test_user_of_an_unknown_uid_is_the_number(tmp_path):
    _proc(tmp_path, 10, b"10 (python) S 1 10", b"python\x00train.py\x00", 987654)
    assert procfs.process_identity(10, str(tmp_path)) == ("python", "987654")


def test_a_missing_process_is_none(tmp_path):
    assert procfs.process_identity(2**22 + 999) == (None, None)
    assert procfs.process_identity(11, str(tmp_path)) == (None, None)


def test_linux_probe_reads_memory_and_names_without_psutil():
    probe = SystemProbe(rates=False)
    sample = probe.sample(now=0)
    sample = probe.sample(now=1)  # a second reading still has no rates: none were counted
    assert sample.cpu_pct is None and sample.disk_read_mib_s is None and sample.iowait_pct is None
    assert sample.cpu_count == os.cpu_count()
    assert 0 < sample.ram_used_mib <= sample.ram_total_mib == psutil.virtual_memory().total / 2**20
    assert probe.process_cpu_pct(os.getpid()) is None
    assert probe._ps_module is None  # psutil was never needed
    assert process_identity(os.getpid()) == (psutil.Process().name(), psutil.Process().username())
