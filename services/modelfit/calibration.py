"""Estimate against measurement: the error, where it most likely sits, and a per-engine correction
learnt from the user's own runs.

The estimate's parts split in two: the fixed ones (weights, adapters, gradients, optimizer states,
engine buffers, CUDA graphs, CUDA context), which follow from the parameter count and do not change
with the run's length, and the ones that grow with context and batch (KV cache, activations, logits,
the allocator's slack on them). A correction learnt from measurements applies to the second group
only: the weights of a model are counted exactly, the activations of a given framework version are
what differs from machine to machine.
"""
from __future__ import annotations

import hashlib
import json
import statistics
from dataclasses import dataclass
from collections.abc import Iterable

from services.i18n import Msg, translate
from services.modelfit.estimate import estimate
from services.modelfit.request import GIB, Estimate, FitRequest
from services.modelfit.errors import ModelInputError

SCALING_PARTS = ("kv_cache", "activations", "logits", "allocator")
# A difference this small is what the CUDA context alone varies by (0.3-1.3 GiB across drivers and
# PyTorch versions, research model-memory.md 0.6) or below 5%: not worth pointing at a part.
NOISE_GIB = 0.5
NOISE_SHARE = 0.05
# A correction outside this range says the settings did not match the run, not that the estimate is off.
FACTOR_RANGE = (0.25, 4.0)
# Scaling parts smaller than this cannot carry a factor (a short inference run is nearly all weights).
MIN_SCALING_GIB = 0.05


def estimate_smi_gib(est: Estimate) -> float:
    """The figure nvidia-smi would show for this estimate (vLLM: its whole share when the card is known)."""
    return (est.per_gpu_bytes + est.engine_reserved_bytes) / GIB


def split_gib(est: Estimate) -> tuple[float, float]:
    """(fixed, scaling) GiB on the busiest GPU."""
    scaling = sum(est.parts.get(k, 0.0) for k in SCALING_PARTS) / GIB
    return estimate_smi_gib(est) - scaling, scaling


def model_key(est: Estimate) -> str:
    """A hash of the model's shape: the same model from the catalogue, a config.json or a safetensors
    header is the same key (the id is stored beside it for people)."""
    arch = est.arch
    shape = {k: getattr(arch, k) for k in ("layers", "hidden", "heads", "kv_heads", "head_dim", "intermediate",
                                           "vocab", "tied_embeddings", "mlp", "family", "experts",
                                           "experts_per_token", "params")}
    digest = hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()[:12]
    return f"config:{digest}"


def request_settings(req: FitRequest) -> dict:
    """Every setting of the estimate, as plain JSON."""
    from dataclasses import asdict

    return asdict(req)


def settings_hash(req: FitRequest) -> str:
    data = request_settings(req)
    # The same run on another card is the same run; kv_dtype_auto says only whether a KV dtype was typed.
    for key in ("gpu_total_gib", "gpu_name", "kv_dtype_auto"):
        data.pop(key, None)
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:12]


# ---------------------------------------------------------------- one comparison
@dataclass(frozen=True, slots=True)
class Comparison:
    estimate_gib: float
    measured_gib: float
    fixed_gib: float
    scaling_gib: float

    @property
    def error_gib(self) -> float:
        """Estimate minus measured: positive when the estimate was too high."""
        return self.estimate_gib - self.measured_gib

    @property
    def error_share(self) -> float | None:
        return self.error_gib / self.measured_gib if self.measured_gib > 0 else None

    @property
    def where(self) -> str:
        """noise | context (the CUDA context and runtime) | scaling | fixed."""
        diff = abs(self.error_gib)
        if diff <= NOISE_GIB or diff <= NOISE_SHARE * max(self.measured_gib, 1e-9):
            return "noise"
        if self.error_gib < 0 and diff <= 1.0:
            return "context"  # measured a little more: the CUDA context and libraries vary this much
        if self.scaling_gib >= MIN_SCALING_GIB and (diff <= self.scaling_gib or self.error_gib > 0 and self.scaling_gib > 0.5 * diff):
            return "scaling"
        return "fixed"

    def where_text(self) -> Msg:
        return {
            "noise": translate("Measure", "within what the CUDA context alone varies by: nothing to correct"),
            "context": translate("Measure", "most likely the CUDA context and libraries (0.3-1.3 GiB depending on driver and PyTorch)"),
            "scaling": translate("Measure", "most likely the parts that grow with context and batch (KV cache, activations, logits: {gib:.2f} GiB estimated)").format(gib=self.scaling_gib),
            "fixed": translate("Measure", "most likely the fixed parts (weights, optimizer states, engine buffers: {gib:.2f} GiB estimated): check that the weight format, method and engine match the run").format(gib=self.fixed_gib),
        }[self.where]


def compare(est: Estimate, measured_gib: float) -> Comparison:
    fixed, scaling = split_gib(est)
    return Comparison(estimate_smi_gib(est), measured_gib, fixed, scaling)


# ---------------------------------------------------------------- learning from the user's runs
@dataclass(frozen=True, slots=True)
class Calibration:
    engine: str
    task: str
    factor: float  # multiplies the parts that grow with context and batch
    runs: int

    def gib(self, est: Estimate) -> float:
        fixed, scaling = split_gib(est)
        return fixed + self.factor * scaling


def usable(row) -> bool:
    """A stored run a correction may rest on: it ended by itself with exit code 0 and used the GPU."""
    return (row.status == "measured" and row.exit_code in (0, None) and row.peak_gib is not None
            and row.scaling_gib is not None and row.scaling_gib >= MIN_SCALING_GIB and row.engine != "vllm")


def calibrate(rows: Iterable, engine: str, task: str) -> Calibration | None:
    """The median over the user's runs of the factor on the growing parts that would have made each
    one exact (1 for a run within what the CUDA context varies by)."""
    factors = []
    for row in rows:
        if row.engine != engine or row.task != task or not usable(row):
            continue
        where = Comparison(row.estimate_gib, row.peak_gib, row.fixed_gib, row.scaling_gib).where
        # A difference the CUDA context alone explains says the growing parts were right: factor 1.
        factor = 1.0 if where in ("noise", "context") else (row.peak_gib - row.fixed_gib) / row.scaling_gib
        if FACTOR_RANGE[0] <= factor <= FACTOR_RANGE[1]:
            factors.append(factor)
    if not factors:
        return None
    return Calibration(engine, task, statistics.median(factors), len(factors))


def calibrated_max(est: Estimate, cal: Calibration, budget_gib: float, what: str) -> int | None:
    """Largest seq (or batch) whose calibrated figure fits ``budget_gib``; None when not applicable."""
    from services.modelfit.solver import MAX_SEQ, _largest

    req = est.request
    if req.runtime == "vllm":
        return None
    top = (est.arch.max_context or MAX_SEQ) if what == "seq" else 1024

    def fits(n: int) -> bool:
        try:
            trial = estimate(est.arch, req.with_changes(**{what: n}))
        except ModelInputError:
            return False
        return cal.gib(trial) <= budget_gib

    return _largest(fits, 1, top)


# ---------------------------------------------------------------- what the user's runs say about this estimate
@dataclass(frozen=True, slots=True)
class Known:
    """The stored runs that bear on one estimate: the latest measurement of this model and engine,
    and the calibrated figure (always apart from the model's own estimate)."""

    measured_gib: float | None
    measured_date: str | None
    same_settings: bool
    estimate_gib: float
    calibration: Calibration | None
    calibrated_gib: float | None
    calibrated_max_seq: int | None = None
    calibrated_max_batch: int | None = None

    def lines(self, with_limits: bool = True) -> list[Msg]:
        """``with_limits``: add the largest context / batch by the calibrated figure (the page shows
        them in its own box instead)."""
        out: list[Msg] = []
        if self.measured_gib is not None:
            if self.same_settings:
                out.append(translate("Measure", "Measured on this machine: {gib:.2f} GiB ({date})").format(
                    gib=self.measured_gib, date=self.measured_date))
            else:
                out.append(translate("Measure", "Measured on this machine: {gib:.2f} GiB ({date}, other settings)").format(
                    gib=self.measured_gib, date=self.measured_date))
        if self.calibration is not None and self.calibrated_gib is not None:
            text = translate("Measure", "Calibrated on your {engine} runs ({runs}): {gib:.2f} GiB, beside the estimate's {est:.2f} GiB").format(
                runs=self.calibration.runs, engine=self.calibration.engine, gib=self.calibrated_gib,
                est=self.estimate_gib)
            if self.calibrated_max_seq is not None and with_limits:
                text = translate("Measure", "{calibrated}; with it the largest context that fits is {seq} tokens, the largest batch {batch}").format(
                    calibrated=text, seq=f"{self.calibrated_max_seq:,}", batch=self.calibrated_max_batch or 0)
            out.append(text)
        return out

    def to_json(self) -> dict:
        return {
            "measured_here_gib": None if self.measured_gib is None else round(self.measured_gib, 3),
            "measured_date": self.measured_date, "same_settings": self.same_settings,
            "calibrated_gib": None if self.calibrated_gib is None else round(self.calibrated_gib, 3),
            "calibration_runs": self.calibration.runs if self.calibration else 0,
            "calibration_factor": None if self.calibration is None else round(self.calibration.factor, 4),
            "calibrated_max_seq_that_fits": self.calibrated_max_seq,
            "calibrated_max_batch_that_fits": self.calibrated_max_batch,
        }


def known_for(rows: list, est: Estimate, budget_gib: float | None) -> Known | None:
    key, settings = model_key(est), settings_hash(est.request)
    mine = [r for r in rows if r.model_key == key and r.engine == est.request.engine and r.peak_gib is not None]
    exact = [r for r in mine if r.settings_key == settings]
    latest = (exact or mine)[-1] if mine else None
    cal = calibrate(rows, est.request.engine, est.request.task)
    if latest is None and cal is None:
        return None
    calibrated = cal.gib(est) if cal is not None else None
    max_seq = max_batch = None
    if cal is not None and budget_gib is not None:
        max_seq = calibrated_max(est, cal, budget_gib, "seq")
        max_batch = calibrated_max(est, cal, budget_gib, "batch")
    return Known(latest.peak_gib if latest else None, latest.date if latest else None, bool(exact),
                 estimate_smi_gib(est), cal, calibrated, max_seq, max_batch)
