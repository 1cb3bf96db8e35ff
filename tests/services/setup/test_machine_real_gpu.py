"""The machine model on a real NVIDIA GPU: ``doctor`` and ``setup --plan`` from the Python the user
works in. Skipped where NVML finds no GPU.

    python3 -m pytest -m real_gpu tests/services/setup/test_machine_real_gpu.py -v -s

Run it with the interpreter of the environment that has PyTorch (a venv on a PEP 668 system is the
case the first real-GPU run got wrong): with torch importable there, the doctor must say PyTorch
works on the card and the plan must install nothing.
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.real_gpu import nvml_gpu_count

ROOT = Path(__file__).resolve().parents[3]
HAS_TORCH = importlib.util.find_spec("torch") is not None
INSTALL_STEPS = {"install-driver", "install-pytorch", "create-venv", "install-venv-support", "add-nvidia-repository"}

pytestmark = [
    pytest.mark.real_gpu,
    pytest.mark.skipif(nvml_gpu_count() == 0, reason="NVML finds no NVIDIA GPU on this machine"),
]


def run_json(*args: str) -> tuple[int, dict]:
    proc = subprocess.run([sys.executable, "main.py", *args, "--json"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    print(proc.stderr, file=sys.stderr)
    return proc.returncode, json.loads(proc.stdout)


def test_doctor_names_the_gpu_from_nvml_and_checks_an_interpreter():
    _code, doc = run_json("doctor")
    machine = doc["machine"]
    print(json.dumps(machine, indent=2))
    assert machine["gpus"] and machine["gpus"][0]["source"] == "nvml"
    assert machine["driver"]["answers"] and machine["driver"]["source"] == "nvml"
    assert doc["gpu"]["name"] == machine["gpus"][0]["name"] and ":" not in doc["gpu"]["name"]
    assert machine["python"]["interpreter"], "no interpreter checked: the active venv / python3 on PATH was not found"
    assert "no_python_env" not in {f["code"] for f in doc["findings"]}


@pytest.mark.skipif(not HAS_TORCH, reason="torch is not importable in this interpreter")
def test_this_interpreters_pytorch_works_and_the_plan_installs_nothing():
    code, doc = run_json("doctor", "--python", sys.executable)
    codes = [f["code"] for f in doc["findings"]]
    print(codes)
    assert "torch_ok" in codes and "python_externally_managed" not in codes, doc["findings"]
    assert doc["machine"]["python"]["torch_works"] and code == 0
    code, plan = run_json("setup", "--plan", "--python", sys.executable)
    steps = [s["id"] for s in plan["steps"]]
    print(steps)
    assert code == 0 and not INSTALL_STEPS & set(steps), steps
