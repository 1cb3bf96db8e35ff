"""Running the sweep's workload script in the user's PyTorch environment.

The app never imports torch: it runs ``[python, resources/power/gpu_workload.py, ...]`` as an
argument list and reads the script's JSON lines. ``on_tick(measuring)`` is called about every
``tick_s`` while the script runs, so the sweep can read NVML beside it.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Protocol

from services.i18n import translate
from services.power.model import UNITS, PowerError, WorkloadJob, WorkloadResult
from services.resources import resource_path

Tick = Callable[[bool], None]

WORKLOAD_SCRIPT = ("power", "gpu_workload.py")
# torch's import and CUDA's start-up take 2-20 s; a script silent for this long is stuck.
START_TIMEOUT_S = 120.0

NO_TORCH = translate("Power", "PyTorch is not installed in {python}: install it with the Setup page's PyTorch step (python main.py setup), or pass --python of an environment that has it")
NO_CUDA = translate("Power", "PyTorch in {python} sees no CUDA GPU {gpu}: {detail}")
WORKLOAD_FAILED = translate("Power", "the {kind} workload failed: {detail}")
NO_PYTHON = translate("Power", "cannot run {python}: {detail}")


class WorkloadRunner(Protocol):
    def run(self, job: WorkloadJob, on_tick: Tick) -> WorkloadResult: ...


def default_python() -> str:
    """The interpreter the doctor checks when none is named."""
    return "python" if sys.platform == "win32" else "python3"


def workload_argv(python: str, job: WorkloadJob) -> list[str]:
    return [python, str(resource_path(*WORKLOAD_SCRIPT)), "--kind", job.kind, "--device", str(job.gpu_index),
            "--seconds", f"{job.seconds:g}", "--warmup", f"{job.warmup_s:g}"]


def parse_event(line: str) -> dict | None:
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        event = json.loads(line)
    except ValueError:
        return None
    return event if isinstance(event, dict) and isinstance(event.get("event"), str) else None


def result_from(events: list[dict], job: WorkloadJob, python: str, returncode: int, stderr: str) -> WorkloadResult:
    """The script's result, or a PowerError saying why there is none."""
    ready = next((e for e in events if e["event"] == "ready"), {})
    for e in events:
        if e["event"] == "result":
            try:
                value = float(e["value"])
                seconds = float(e.get("seconds", 0.0))
            except (KeyError, TypeError, ValueError):
                break
            return WorkloadResult(job.kind, value, str(e.get("unit") or UNITS[job.kind]), seconds,
                                  str(ready.get("device", "")), str(ready.get("dtype", "")))
        if e["event"] == "error":
            detail = str(e.get("message", ""))
            if e.get("code") == "no_torch":
                raise PowerError(NO_TORCH.format(python=python))
            if e.get("code") == "no_cuda":
                raise PowerError(NO_CUDA.format(python=python, gpu=job.gpu_index, detail=detail))
            raise PowerError(WORKLOAD_FAILED.format(kind=job.kind, detail=detail))
    tail = (stderr.strip().splitlines() or [f"exit status {returncode}"])[-1]
    raise PowerError(WORKLOAD_FAILED.format(kind=job.kind, detail=tail))


class TorchWorkloadRunner:
    """Runs the workload script with ``python`` (a venv's or conda env's interpreter)."""

    def __init__(self, python: str | None = None, tick_s: float = 0.5) -> None:
        self.python = python or default_python()
        self.tick_s = tick_s

    def run(self, job: WorkloadJob, on_tick: Tick) -> WorkloadResult:
        env = dict(os.environ, CUDA_DEVICE_ORDER="PCI_BUS_ID", PYTHONUNBUFFERED="1")
        try:
            proc = subprocess.Popen(workload_argv(self.python, job), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, errors="replace", env=env)
        except OSError as exc:
            raise PowerError(NO_PYTHON.format(python=self.python, detail=exc.strerror or str(exc))) from None
        lines: queue.Queue[str | None] = queue.Queue()
        stderr_parts: list[str] = []

        def pump_out() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)

        def pump_err() -> None:
            assert proc.stderr is not None
            stderr_parts.append(proc.stderr.read()[-4000:])

        readers = [threading.Thread(target=pump_out, daemon=True), threading.Thread(target=pump_err, daemon=True)]
        for reader in readers:
            reader.start()
        events: list[dict] = []
        measuring = False
        started = time.monotonic()
        deadline = started + START_TIMEOUT_S + job.seconds * 2
        try:
            done = False
            while not done:
                try:
                    line = lines.get(timeout=self.tick_s)
                except queue.Empty:
                    line = ""
                if line is None:
                    done = True
                elif line:
                    event = parse_event(line)
                    if event is not None:
                        events.append(event)
                        measuring = measuring or event["event"] == "measuring"
                on_tick(measuring)
                if time.monotonic() > deadline:
                    raise PowerError(WORKLOAD_FAILED.format(kind=job.kind, detail="no result in time"))
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:  # stopped, failed or interrupted: the workload does not outlive the call
                proc.kill()
                proc.wait()
            for reader in readers:
                reader.join(timeout=5)
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
        return result_from(events, job, self.python, proc.returncode, "".join(stderr_parts))
