"""The workload script and its runner, for real: a subprocess with a stand-in ``torch`` module
(the test machine has no GPU), its JSON lines read while NVML is sampled beside it."""
from __future__ import annotations

import sys
import textwrap

import pytest

from services.power.model import PowerError, WorkloadJob
from services.power.workload import TorchWorkloadRunner, parse_event, result_from

FAKE_TORCH = textwrap.dedent('''
    """Just enough of torch's API for the sweep's workload script, on the CPU."""
    import os
    __version__ = "0.0-test"
    bfloat16, float16 = "torch.bfloat16", "torch.float16"

    class _T:
        def normal_(self): return self
        def copy_(self, other): return self

    def randn(*a, **k): return _T()
    def empty(*a, **k): return _T()
    def empty_like(t): return _T()
    def matmul(a, b, out=None): return out
    def device(kind, index): return (kind, index)

    class cuda:
        class OutOfMemoryError(RuntimeError): pass
        @staticmethod
        def is_available(): return os.environ.get("FAKE_TORCH_CUDA", "1") == "1"
        @staticmethod
        def device_count(): return 1
        @staticmethod
        def set_device(d): pass
        @staticmethod
        def get_device_capability(d): return (9, 0)
        @staticmethod
        def get_device_name(d): return "Fake GPU"
        @staticmethod
        def synchronize(): pass
        @staticmethod
        def mem_get_info(d): return (8 * 2**30, 16 * 2**30)
''')


@pytest.fixture
def fake_torch(tmp_path, monkeypatch):
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(FAKE_TORCH, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("kind,unit", [("matmul", "TFLOP/s"), ("copy", "GB/s")])
def test_script_runs_and_reports(fake_torch, kind, unit):
    ticks: list[bool] = []
    runner = TorchWorkloadRunner(sys.executable, tick_s=0.05)
    result = runner.run(WorkloadJob(kind, 0, 1.0, 0.2), ticks.append)
    assert result.kind == kind and result.unit == unit and result.value > 0 and result.device == "Fake GPU"
    assert True in ticks  # NVML was sampled while the script measured


def test_no_cuda_is_a_clear_error(fake_torch, monkeypatch):
    monkeypatch.setenv("FAKE_TORCH_CUDA", "0")
    with pytest.raises(PowerError, match="sees no CUDA GPU 0"):
        TorchWorkloadRunner(sys.executable, tick_s=0.05).run(WorkloadJob("matmul", 0, 1.0, 0.2), lambda m: None)


def test_missing_interpreter_is_a_clear_error(tmp_path):
    with pytest.raises(PowerError, match="cannot run"):
        TorchWorkloadRunner(str(tmp_path / "no-python"), tick_s=0.05).run(WorkloadJob("copy", 0, 1.0, 0.2), lambda m: None)


def test_tick_failure_kills_the_workload(fake_torch):
    """A lost GPU (on_tick raises) stops the script: it does not outlive the call."""
    def tick(measuring: bool) -> None:
        raise RuntimeError("GPU lost")

    with pytest.raises(RuntimeError, match="GPU lost"):
        TorchWorkloadRunner(sys.executable, tick_s=0.05).run(WorkloadJob("matmul", 0, 30.0, 0.2), tick)


def test_result_parsing():
    job = WorkloadJob("matmul", 0, 10, 3)
    assert parse_event("not json") is None and parse_event('{"x": 1}') is None
    events = [parse_event('{"event": "error", "code": "no_torch", "message": "No module named torch"}')]
    with pytest.raises(PowerError, match="PyTorch is not installed in py"):
        result_from(events, job, "py", 3, "")
    with pytest.raises(PowerError, match="Segmentation fault"):
        result_from([], job, "py", -11, "boom\nSegmentation fault")
