"""The model-fit service sized for the build & PSU calculator: a ``Workload`` for a named model.

It lives on the model-fit side so the hardware package never imports model-fit
(model-fit already uses the hardware catalogue).
"""
from __future__ import annotations

from services.hardware.compare import Task, Workload
from services.i18n import Msg, translate
from services.modelfit.catalogue import default_catalogue
from services.modelfit.errors import ModelInputError
from services.modelfit.estimate import estimate
from services.modelfit.request import FitRequest
from services.modelfit.sources import load_model

# our dtype names -> the model-fit service's weight formats (4-bit: bitsandbytes NF4)
_MODELFIT_WEIGHTS = {"fp32": "fp32", "bf16": "bf16", "fp16": "fp16", "fp8": "fp8", "int8": "int8", "int4": "nf4"}


def modelfit_model_names() -> list[str]:
    """Models the model-fit tool knows by name."""
    try:
        return [entry.name for entry in default_catalogue().entries]
    except Exception:  # a broken catalogue only costs us the shortcut list
        return []


def estimate_with_modelfit(model: str | None, params_b: float | None, dtype: str = "bf16",
                           task: Task = Task.INFERENCE, seq: int = 4096) -> Workload:
    """Memory need from the model-fit service (weights, KV cache, activations, optimizer...).

    A model the service cannot resolve raises ``ValueError`` with its message,
    because the user named it and should hear why.
    """
    weights = _MODELFIT_WEIGHTS.get(dtype, dtype)
    if task is Task.INFERENCE:
        request = FitRequest(task="inference", weights=weights, seq=seq)
    elif task is Task.LORA:
        request = FitRequest(task="train", method="qlora" if weights == "nf4" else "lora", weights=weights, seq=seq)
    else:
        request = FitRequest(task="train", method="full", weights=weights, seq=seq)
    try:
        arch = load_model(model, params_b=params_b)
        result = estimate(arch, request)
    except ValueError as exc:  # ModelInputError: unknown model, a combination that makes no sense
        choices = tuple(getattr(exc, "choices", ()) or ())
        message = getattr(exc, "message", None)
        if not isinstance(message, Msg):
            hint = f"; closest: {', '.join(choices[:3])}" if choices else ""
            raise ValueError(f"{exc}{hint}") from None
        if choices:  # same English as before: "<sentence>; closest: a, b, c"
            message = translate("FitErrors", "{message}; closest: {names}").format(
                message=message, names=", ".join(choices[:3]))
        raise ModelInputError(message, choices) from None
    label = f"{model or f'{params_b:g}B'} {dtype} {task.value}"
    return Workload(float(result.per_gpu_gib), task, label, translate(
        "Compare", "model-fit estimate for {seq} tokens, batch 1").format(seq=seq))
