"""The model-fit adapter of the build & PSU calculator (services/modelfit/workload.py)."""
from __future__ import annotations

import pytest

from services.hardware.compare import Task
from services.modelfit import workload


def test_modelfit_adapter_maps_tasks_to_requests(monkeypatch):
    """The adapter's side of the contract: the real model-fit service, its requests recorded."""
    seen = []
    real_estimate = workload.estimate

    def recording_estimate(arch, request):
        seen.append(request)
        return real_estimate(arch, request)

    monkeypatch.setattr(workload, "estimate", recording_estimate)
    work = workload.estimate_with_modelfit(None, 8, "int4", Task.LORA, seq=2048)
    assert work.vram_needed_gib > 0
    assert (seen[-1].task, seen[-1].method, seen[-1].weights, seen[-1].seq) == ("train", "qlora", "nf4", 2048)
    workload.estimate_with_modelfit(None, 8, "bf16", Task.INFERENCE)
    assert seen[-1].task == "inference"
    workload.estimate_with_modelfit(None, 8, "bf16", Task.FULL_TRAINING)
    assert seen[-1].method == "full"
    with pytest.raises(ValueError, match="nope"):
        workload.estimate_with_modelfit("nope-not-a-model", None)


def test_modelfit_service_estimate():
    work = workload.estimate_with_modelfit(None, 8, "bf16", Task.INFERENCE)
    assert work is not None
    # the full estimate includes KV cache and context, so it is at least the weights
    assert work.vram_needed_gib >= 8e9 * 2 / 2**30


def test_model_names_come_from_the_catalogue():
    names = workload.modelfit_model_names()
    assert names and len(names) == len(set(names))
