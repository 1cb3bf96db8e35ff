"""A scripted machine for the power sweep: the fake NVML, an nvidia-smi that changes its limit
and a workload runner whose throughput follows the limit (tests/fakes/fake_nvml.apply_load).

The doubles are the real types: a FakeRunner (services.setup.system) answering ``nvidia-smi -pl``,
and a runner returning the real WorkloadResult through the real on_tick protocol."""
from __future__ import annotations

from dataclasses import dataclass, field

from services.power.model import UNITS, PowerError, WorkloadJob, WorkloadResult
from services.setup.system import CommandResult, FakeRunner
from tests.fakes.fake_nvml import FakeGpu, FakeNvml, apply_load, make_gpu

# Full-speed figures of the scripted card (an RTX 4090-like part).
FULL_SPEED = {"matmul": 160.0, "copy": 900.0}


@dataclass
class FakeClock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


def idle_gpu(**overrides) -> FakeGpu:
    gpu = make_gpu(0, compute=[], **overrides)
    return gpu


def nvidia_smi(fake: FakeNvml, refuse: str | None = None, calls: list | None = None):
    """A FakeRunner handler for ``[sudo|pkexec] nvidia-smi -i N -pl W``.

    ``refuse``: None (works), "privilege" (the sudo password or the pkexec prompt refused),
    "driver" (the driver says no, as inside a VM or a container)."""
    def handle(argv: tuple[str, ...]) -> CommandResult | None:
        if "nvidia-smi" not in argv:
            return None
        if calls is not None:
            calls.append(argv)
        if refuse == "privilege" and argv[0] == "pkexec":
            return CommandResult(126, "", "Error executing command as another user: Request dismissed")
        if refuse == "privilege":
            return CommandResult(1, "", "sudo: a password is required")
        if refuse == "driver":
            return CommandResult(4, "Changing power management limit is not supported in current scope for GPU: 00000000:01:00.0.\nTreating as warning and moving on.", "")
        i = argv.index("-i")
        watts = float(argv[argv.index("-pl") + 1])
        gpu = fake.gpus[int(argv[i + 1])]
        if gpu.lost:
            return CommandResult(15, "Unable to determine the device handle for GPU0000:01:00.0: GPU is lost.", "")
        old = gpu.power_limit_mw / 1000
        gpu.power_limit_mw = int(watts * 1000)
        return CommandResult(0, f"Power limit for GPU {gpu.bus_id} was set to {watts:.2f} W from {old:.2f} W.\nAll done.", "")
    return handle


def smi_runner(fake: FakeNvml, refuse: str | None = None) -> FakeRunner:
    calls: list = []
    runner = FakeRunner(handler=nvidia_smi(fake, refuse, calls))
    runner.smi_calls = calls  # type: ignore[attr-defined]
    return runner


@dataclass
class ScriptedWorkloadRunner:
    """Runs a "workload" on the fake GPU: ticks of ``tick_s`` on a fake clock, the fake card's
    power/clock/energy answering to its limit, and a throughput that follows the clock.

    ``lose_gpu_at``: the job number (1-based) during which the GPU falls off the bus;
    ``fail``: a PowerError message raised on every job (no PyTorch ...);
    ``interrupt_at``: the job number that raises KeyboardInterrupt (Ctrl+C, a killed sweep)."""

    fake: FakeNvml
    clock: FakeClock
    tick_s: float = 1.0
    lose_gpu_at: int | None = None
    fail: PowerError | None = None
    interrupt_at: int | None = None
    jobs: list[WorkloadJob] = field(default_factory=list)
    python: str = "python3"  # shown in a dry run's workload command

    def run(self, job: WorkloadJob, on_tick) -> WorkloadResult:
        self.jobs.append(job)
        if self.fail is not None:
            raise self.fail
        gpu = self.fake.gpus[job.gpu_index]
        ticks = int(job.seconds / self.tick_s)
        warm = int(job.warmup_s / self.tick_s)
        speed = 1.0
        for n in range(ticks):
            if self.lose_gpu_at == len(self.jobs) and n == warm:
                gpu.lost = True
            if self.interrupt_at == len(self.jobs) and n == warm:
                raise KeyboardInterrupt
            speed = apply_load(gpu, job.kind, self.tick_s)
            self.clock.now += self.tick_s
            on_tick(n >= warm)
        return WorkloadResult(job.kind, round(FULL_SPEED[job.kind] * speed, 2), UNITS[job.kind],
                              (ticks - warm) * self.tick_s, gpu.name, "bfloat16")


def scripted_fake(**overrides) -> FakeNvml:
    return FakeNvml([idle_gpu(**overrides)])
