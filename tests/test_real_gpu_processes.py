"""The process view on a real NVIDIA GPU: a PyTorch process that loads the card is listed with its
memory and SM %, as nvidia-smi sees it. Skipped where NVML finds no GPU or PyTorch has no CUDA.

    python -m pytest -m real_gpu tests/test_real_gpu_processes.py -v -s
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.real_gpu import nvml_gpu_count

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.real_gpu,
    pytest.mark.skipif(nvml_gpu_count() == 0, reason="NVML finds no NVIDIA GPU on this machine"),
]


@pytest.fixture(scope="module")
def load():
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "gpu_load.py"), "--seconds", "60", "--gib", "4"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if not line.startswith("loaded"):
        proc.wait(30)
        pytest.skip(f"no PyTorch CUDA load here: {proc.stderr.read().strip()[:200]}")
    yield proc
    proc.kill()
    proc.wait(30)


def _smi(*args: str) -> str:
    if shutil.which("nvidia-smi") is None:
        return ""
    done = subprocess.run(["nvidia-smi", *args], capture_output=True, text=True, timeout=60)
    print(f"\n$ nvidia-smi {' '.join(args)}\n{done.stdout}{done.stderr}")
    return done.stdout if done.returncode == 0 else ""


def test_monitor_lists_the_pytorch_process_with_memory_and_sm(load):
    import time

    time.sleep(3)  # a few utilisation samples in the driver's buffer
    done = subprocess.run([sys.executable, "main.py", "monitor", "--once", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = [(g["index"], p) for g in json.loads(done.stdout)["gpus"] for p in (g["processes"] or ())]
    mine = [(i, p) for i, p in rows if p["pid"] == load.pid]
    print(f"\nmonitor --once --json, the load's rows: {mine}")
    assert mine, f"pid {load.pid} not listed; listed: {[p['pid'] for _, p in rows]}"
    _, row = mine[0]
    assert row["used_mib"] is not None and row["used_mib"] >= 4 * 1024  # holds 4 GiB and more
    smi = _smi("--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits")
    for line in smi.splitlines():
        pid, used = (x.strip() for x in line.split(","))
        if pid == str(load.pid) and used.isdigit():
            assert abs(float(used) - row["used_mib"]) <= max(64.0, 0.02 * float(used))
    _smi("pmon", "-c", "1", "-s", "u")
    # SM %: NVML's per-process samples; None only where the driver keeps none.
    print(f"sm_pct={row['sm_pct']} encoder_pct={row['encoder_pct']} decoder_pct={row['decoder_pct']}")
    assert row["sm_pct"] is None or 0.0 <= row["sm_pct"] <= 100.0
    table = subprocess.run([sys.executable, "main.py", "monitor", "--once"], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
    print(table.stdout)
    assert any(line.split()[:1] == [str(load.pid)] for line in table.stdout.splitlines())


def test_the_process_service_sees_its_command_line(load):
    from services.telemetry.model import Tier
    from services.telemetry.nvml_source import NvmlSource
    from services.telemetry.processes import ProcessService

    source = NvmlSource()
    source.open()
    try:
        service = ProcessService()
        table = None
        for step in range(3):
            table = service.update(source.read(Tier.FAST | Tier.SLOW | Tier.STATIC, float(step)))
        row = next(r for r in table.rows if r.pid == load.pid)
        print(f"\nprocess view row: {row}")
        assert "gpu_load.py" in (row.command_line or "") and row.used_mib and row.host_mib
    finally:
        source.close()
