"""The hybrid checker on a real NVIDIA GPU (Linux). Skipped where NVML finds none.

    python -m pytest -m real_gpu tests/services/hybrid/test_hybrid_real_gpu.py -v -s

A child process opens a CUDA context through libcuda (ctypes, no framework needed); the
checker must then find it on the NVIDIA GPU from NVML and its loaded libraries.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.real_gpu import nvml_gpu_count

ROOT = Path(__file__).resolve().parents[3]

pytestmark = [
    pytest.mark.real_gpu,
    pytest.mark.skipif(sys.platform != "linux" or nvml_gpu_count() == 0, reason="NVML finds no NVIDIA GPU on this machine"),
]

CUDA_CHILD = textwrap.dedent("""
    import ctypes, sys
    cuda = ctypes.CDLL("libcuda.so.1")
    assert cuda.cuInit(0) == 0
    dev = ctypes.c_int()
    assert cuda.cuDeviceGet(ctypes.byref(dev), 0) == 0
    ctx = ctypes.c_void_p()
    assert cuda.cuCtxCreate_v2(ctypes.byref(ctx), 0, dev) == 0
    print("ready", flush=True)
    sys.stdin.read()
""")


def _hybrid(*args: str) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "main.py", "hybrid", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_list_finds_the_nvidia_gpus_in_sysfs_and_nvml():
    code, out, err = _hybrid("--list", "--json")
    assert code == 0, err
    doc = json.loads(out)
    print(json.dumps(doc["gpus"], indent=1))
    nvidia = [g for g in doc["gpus"] if g["vendor"] == "nvidia"]
    assert len(nvidia) >= nvml_gpu_count()  # sysfs may also show GPUs this container cannot use
    assert all(g["kind"] == "discrete" and g["pci_address"] for g in nvidia)


def test_a_cuda_context_is_found_on_the_nvidia_gpu():
    child = subprocess.Popen([sys.executable, "-c", CUDA_CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        code, out, err = _hybrid("--pid", str(child.pid), "--json")
        assert code == 0, err
        doc = json.loads(out)
        print(json.dumps(doc, indent=1))
        assert doc["placement"] == "nvidia" and doc["basis"] in ("measured", "context")
        assert any(u["source"] == "nvml" and u["kind"] in ("compute", "compute+graphics") for u in doc["uses"])
        assert any(lib.startswith("libcuda.so") for lib in doc["libraries"])
    finally:
        child.stdin.close()
        child.wait(timeout=30)
        child.stdout.close()  # left open, it is a ResourceWarning, and warnings are errors here
