"""NvmlSource and ``monitor`` on a real NVIDIA GPU. Skipped where NVML finds none.

    python -m pytest -m real_gpu tests/test_real_gpu.py -v -s

To record a short real trace for the Replay source (nvidia-smi-style CSV):

    REAL_GPU_TRACE=tests/data/real_trace.csv REAL_GPU_TRACE_S=30 \\
        python -m pytest -m real_gpu tests/test_real_gpu.py -k trace -s
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from services.telemetry.model import DeviceState, Tier
from tests.real_gpu import nvml_gpu_count
from services.telemetry.nvml_source import NvmlSource
from services.telemetry.report import csv_header

ROOT = Path(__file__).resolve().parent.parent
ALL = Tier.FAST | Tier.SLOW | Tier.STATIC




pytestmark = [
    pytest.mark.real_gpu,
    pytest.mark.skipif(nvml_gpu_count() == 0, reason="NVML finds no NVIDIA GPU on this machine"),
]


def test_every_gpu_reads_sane_values():
    source = NvmlSource()
    try:
        status = source.open()
        assert status.state is DeviceState.OK, status.message
        infos = source.devices()
        assert infos
        snap = None
        for _ in range(3):
            snap = source.read(ALL, time.time())
            time.sleep(0.5)
        for info, s in zip(infos, snap.samples, strict=True):
            print(f"\n{info}\n{s}\nunsupported: {source.unsupported_metrics(info.uuid)}")
            if s.state is DeviceState.SLEEPING:
                continue
            assert s.state is DeviceState.OK, s.state_detail
            assert info.uuid.startswith(("GPU-", "MIG-"))
            assert info.name and info.driver_version
            assert info.pci_bus_id and ":" in info.pci_bus_id
            assert s.temperature_c is None or 0 < s.temperature_c < 120
            assert s.utilization_pct is None or 0 <= s.utilization_pct <= 100
            if s.memory_used_mib is not None:
                assert 0 <= s.memory_used_mib <= s.memory_total_mib
            if s.power_w is not None and s.power_limit_w is not None:
                assert 0 < s.power_w < 1.5 * s.power_limit_w
            if info.sm_clock_max_mhz and s.sm_clock_mhz is not None:
                assert 0 <= s.sm_clock_mhz <= info.sm_clock_max_mhz * 1.05
            if s.pcie_gen is not None and info.pcie_gen_max:
                assert 1 <= s.pcie_gen <= info.pcie_gen_max
            assert s.throttle_reasons is not None  # every NVIDIA GPU since Kepler reports them
            assert s.processes is not None
            for proc in s.processes:
                assert proc.pid > 0 and proc.kind in ("compute", "graphics", "compute+graphics")
    finally:
        source.close()


def test_monitor_once_json_on_real_hardware():
    proc = subprocess.run([sys.executable, "main.py", "monitor", "--once", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["gpus"] and all(g["state"] in ("ok", "sleeping") for g in doc["gpus"])


def test_record_a_trace_with_monitor_csv(tmp_path):
    target = Path(os.environ.get("REAL_GPU_TRACE") or tmp_path / "trace.csv")
    seconds = float(os.environ.get("REAL_GPU_TRACE_S", "5"))
    target.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([sys.executable, "main.py", "monitor", "--interval", "1", "--csv", str(target),
                           "--duration", str(seconds)], cwd=ROOT, capture_output=True, text=True,
                          timeout=seconds + 120)
    assert proc.returncode == 0, proc.stderr
    lines = target.read_text().splitlines()
    assert lines[0] == csv_header()
    assert len(lines) >= 1 + int(seconds) - 1
    print(f"\nrecorded {len(lines) - 1} rows into {target}")
