"""The demo's process view: who the simulated run's processes are, and a scripted spill.

The simulated source (``services.telemetry.simulated``) lists its processes by PID and
name only; ``DemoHost`` gives them the command lines, users, start times and host
figures a real system would, so the demo's process view is complete. ``DemoCounters``
plays the part of Windows' GPU counters for one extra program on the second card: an
inference server whose model does not fit, so its dedicated memory fills and then its
shared memory climbs (the driver's sysmem fallback). It feeds the real
``ProcessService`` and alert rules, so the demo shows a spill alert as a user would
see one.
"""
from __future__ import annotations

from collections.abc import Iterable

from services.telemetry.processes import Adapter, HostProcess, AdapterProcess

SERVE_PID = 52344
DEMO_LUID = "0x00000000_0x0000D1C6"
_CARD_MIB = 24576.0  # the demo's second card (an RTX 3090, services.telemetry.simulated)


class DemoHost:
    """``HostProbe`` for the simulated run's PIDs."""

    def __init__(self, start_wall: float) -> None:
        self._start = start_wall

    def read(self, pids: Iterable[int]) -> dict[int, HostProcess]:
        result = {}
        for pid in pids:
            known = self._describe(pid)
            if known is not None:
                result[pid] = known
        return result

    def _describe(self, pid: int) -> HostProcess | None:
        if pid == 1180:
            return HostProcess(pid, "Xorg", "/usr/lib/xorg/Xorg vt2 -displayfd 3 -keeptty", "root",
                               self._start - 86_400, 1.5, 182.0)
        if pid == 1424:
            return HostProcess(pid, "gnome-shell", "/usr/bin/gnome-shell", "alex", self._start - 86_000, 3.0, 412.0)
        if pid == SERVE_PID:
            return HostProcess(pid, "python serve.py",
                               "python serve.py --model Qwen/Qwen2.5-32B-Instruct --max-model-len 32768",
                               "alex", self._start + 7_000, 41.0, 6_820.0)
        if 48211 <= pid < 48211 + 86 * 8 and (pid - 48211) % 86 == 0:
            rank = (pid - 48211) // 86
            return HostProcess(pid, "python train.py",
                               f"python train.py --model meta-llama/Llama-3.1-8B --batch-size 8 --bf16 "
                               f"--local-rank {rank}", "alex", self._start + 300, 96.0 + rank, 9_850.0)
        if pid >= 50000:
            return HostProcess(pid, "python eval.py", "python eval.py --checkpoint runs/llama-8b/latest",
                               "alex", None, 88.0, 3_400.0)
        return None


class DemoCounters:
    """A ``CounterReader`` scripting the inference server's memory on the second card, one step a read."""

    def __init__(self) -> None:
        self.step = 0

    def collect(self) -> dict[tuple[int, str], AdapterProcess]:
        n = self.step
        self.step += 1
        dedicated = min(_CARD_MIB * 0.962, 9_000.0 + 7_000.0 * n)  # full after the third reading
        shared = min(160.0 + max(0, n - 3) * 380.0, 6_144.0)  # then the spill: +380 MiB a second, to 6 GiB
        return {(SERVE_PID, DEMO_LUID): AdapterProcess(
            pid=SERVE_PID, adapter=DEMO_LUID, dedicated_mib=dedicated, shared_mib=shared,
            busy_pct=23.0 if n > 3 else 61.0, engine_type="Compute_0")}

    def close(self) -> None:
        pass


def demo_adapters(gpu_uuids: list[str]) -> list[Adapter]:
    """The scripted counters' adapter is the demo's second card."""
    if len(gpu_uuids) < 2:
        return []
    return [Adapter(DEMO_LUID, "NVIDIA GeForce RTX 3090", integrated=False, nvml_uuid=gpu_uuids[1],
                    memory_total_mib=_CARD_MIB)]
