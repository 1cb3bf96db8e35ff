"""SystemProbe: deltas, not psutil globals; missing values are None."""
from __future__ import annotations

import os
from collections import namedtuple
from types import SimpleNamespace

import psutil
import pytest

from services.telemetry.system import SystemProbe, process_identity

CpuTimes = namedtuple("CpuTimes", "user nice system idle iowait irq softirq steal guest guest_nice")
Disk = namedtuple("Disk", "read_bytes write_bytes")


class FakePsutil:
    NoSuchProcess = psutil.NoSuchProcess
    AccessDenied = psutil.AccessDenied
    ZombieProcess = psutil.ZombieProcess
    Process = psutil.Process

    def __init__(self) -> None:
        self.cpu = CpuTimes(100, 0, 50, 800, 50, 0, 0, 0, 0, 0)
        self.disk = Disk(0, 0)

    def cpu_count(self, logical=True):
        return 8

    def cpu_times(self):
        return self.cpu

    def disk_io_counters(self):
        if self.disk is None:
            raise RuntimeError("couldn't find any physical disk")
        return self.disk

    def virtual_memory(self):
        return SimpleNamespace(total=32 * 2**30, available=20 * 2**30)

    def swap_memory(self):
        return SimpleNamespace(total=8 * 2**30, used=2**30)


def test_first_sample_has_no_rates_then_deltas_give_them():
    ps = FakePsutil()
    t = [0.0]
    probe = SystemProbe(clock=lambda: t[0], psutil_module=ps)
    first = probe.sample(now=1.0)
    assert first.cpu_pct is None and first.disk_read_mib_s is None
    assert first.cpu_count == 8
    assert first.ram_used_mib == 12 * 1024 and first.ram_total_mib == 32 * 1024
    assert first.swap_used_mib == 1024 and first.swap_total_mib == 8 * 1024

    # 2 s later: 100 ticks passed: 30 user, 10 system, 40 idle, 20 iowait, + guest (inside user).
    ps.cpu = CpuTimes(130, 0, 60, 840, 70, 0, 0, 0, 5, 0)
    ps.disk = Disk(200 * 2**20, 50 * 2**20)
    t[0] = 2.0
    second = probe.sample(now=3.0)
    assert second.cpu_pct == pytest.approx(40.0)  # guest counted once, iowait not busy
    assert second.iowait_pct == pytest.approx(20.0)
    assert second.disk_read_mib_s == pytest.approx(100.0)
    assert second.disk_write_mib_s == pytest.approx(25.0)
    assert second.t == 3.0


def test_too_short_interval_gives_none_not_noise():
    ps = FakePsutil()
    t = [0.0]
    probe = SystemProbe(clock=lambda: t[0], psutil_module=ps)
    probe.sample(now=0)
    t[0] = 0.01
    assert probe.sample(now=0).cpu_pct is None


def test_no_disks_visible_is_none():
    ps = FakePsutil()
    ps.disk = None
    t = [0.0]
    probe = SystemProbe(clock=lambda: t[0], psutil_module=ps)
    probe.sample(now=0)
    t[0] = 1.0
    ps.cpu = CpuTimes(150, 0, 50, 850, 50, 0, 0, 0, 0, 0)
    sample = probe.sample(now=1)
    assert sample.disk_read_mib_s is None and sample.cpu_pct is not None


def test_real_psutil_sample_is_sane():
    probe = SystemProbe()
    probe.sample(now=0)
    sum(i for i in range(300_000))
    import time

    time.sleep(0.06)
    sample = probe.sample(now=1)
    assert sample.cpu_count == psutil.cpu_count()
    assert sample.cpu_pct is None or 0 <= sample.cpu_pct <= 100
    assert 0 < sample.ram_used_mib <= sample.ram_total_mib


@pytest.mark.wine_limit("psutil reads no process name or exe there: its NtQuerySystemInformation call fails with WinError 87 under Wine 8")
def test_process_cpu_and_identity():
    probe = SystemProbe()
    pid = os.getpid()
    assert probe.process_cpu_pct(pid) is None
    sum(i for i in range(300_000))
    assert probe.process_cpu_pct(pid) >= 0
    name, user = process_identity(pid)
    assert name and user
    assert process_identity(2**22 + 999) == (None, None)
    assert probe.process_cpu_pct(2**22 + 999) is None
    probe.forget_processes(set())
    assert probe.process_cpu_pct(pid) is None  # baseline dropped with the cache


def test_swap_without_performance_counters_keeps_the_ram():
    """Windows reads swap through performance counters; switched off, psutil raises RuntimeError
    ("PdhAddEnglishCounterW failed", as under Wine). The RAM figures do not go with it."""
    ps = FakePsutil()

    def no_counters():
        raise RuntimeError("PdhAddEnglishCounterW failed. Performance counters may be disabled.")

    ps.swap_memory = no_counters
    sample = SystemProbe(psutil_module=ps).sample(now=0)
    assert sample.ram_used_mib == 12 * 1024 and sample.ram_total_mib == 32 * 1024
    assert sample.swap_used_mib is None and sample.swap_total_mib is None
