"""A simulated multi-hour training run on two GPUs (``--demo`` and the tests).

Everything is a pure function of (seed, ``now - start_wall``): the same seed
and time always give the same reading, so tests are exact and the demo can
start with hours of history (``prehistory``) that joins the live readings
seamlessly.

The story (elapsed time since ``start_wall``):

- 0-90 s: idle desktop. Both cards in P8, idle clocks, links trained down to
  PCIe gen 1, fans stopped, the display server on GPU 0.
- 90-600 s: a two-GPU data-parallel job starts (one process per GPU): dataset
  loading, memory allocation, then utilisation and heat climb.
- from 600 s: steady training in a 4-hour cycle, with a short data-loader dip
  at every epoch boundary (20 min) and small step-to-step jitter;
  - an evaluation job joins GPU 0 for 5 minutes every 30 minutes;
  - 40-55 min into each cycle: the CPU is the bottleneck (CPU near 100 %,
    utilisation swinging between 0 and 90 % on both GPUs);
  - 70-80 min: storage is the bottleneck (high iowait);
  - 1 h 50 min - 2 h 30 min: GPU 1 (the RTX 3090) overheats: the temperature
    climbs past its 83 °C target, the driver throttles (``sw_thermal``), then
    the card sits on its power limit (``power_cap``) with clocks down, then
    recovers.
- GPU 1 runs at PCIe gen 3 x8 under load although it supports gen 4 x16 (the
  card sits on a riser in a chipset slot), which the dashboard should flag.

The card facts (names, memory, power limits, thresholds, max clocks, PCIe)
are real: see ``SimGpuProfile.source``; they come from the one description of
the demo machine (``services.demo_machine``).
"""
from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass

from services.demo_machine import DemoGpu, demo_machine_spec
from services.telemetry.model import (
    DeviceState,
    GpuInfo,
    GpuSample,
    SourceKind,
    ProcessSample,
    Snapshot,
    SourceStatus,
    SystemSample,
    Tier,
)

IDLE_S = 90.0  # idle desktop before the job starts
STEADY_S = 600.0  # warm-up done
CYCLE_S = 4 * 3600.0  # the steady part repeats every 4 hours
EPOCH_S = 1200.0  # a data-loader dip at each epoch boundary
EPOCH_DIP_S = 20.0
EVAL_EVERY_S = 1800.0
EVAL_OFFSET_S = 1200.0
EVAL_LENGTH_S = 300.0
CPU_BOUND = (2400.0, 3300.0)  # cycle offsets (seconds after STEADY_S, modulo CYCLE_S)
DISK_BOUND = (4200.0, 4800.0)
THERMAL = (6600.0, 9000.0)  # GPU 1's heat episode


@dataclass(frozen=True, slots=True)
class SimGpuProfile:
    name: str
    memory_total_mib: float
    power_limit_w: float
    temp_target_c: float  # GPU Boost's temperature target: sw_thermal starts here
    temp_slowdown_c: float
    temp_shutdown_c: float
    sm_clock_max_mhz: float
    mem_clock_max_mhz: float
    pci_device_id: int
    pcie_gen_max: int
    pcie_width_max: int
    # behaviour under the simulated workload (not specs: what a training job typically shows)
    load_clock_mhz: float
    load_mem_clock_mhz: float
    idle_power_w: float
    load_power_w: float
    idle_temp_c: float
    load_temp_c: float
    source: str


def _profile(gpu: DemoGpu) -> SimGpuProfile:
    return SimGpuProfile(
        name=gpu.name, memory_total_mib=gpu.memory_total_mib, power_limit_w=gpu.power_limit_w,
        temp_target_c=gpu.temp_target_c, temp_slowdown_c=gpu.temp_slowdown_c, temp_shutdown_c=gpu.temp_shutdown_c,
        sm_clock_max_mhz=gpu.sm_clock_max_mhz, mem_clock_max_mhz=gpu.mem_clock_max_mhz,
        pci_device_id=gpu.pci_device_id, pcie_gen_max=gpu.pcie_gen_max, pcie_width_max=gpu.pcie_width_max,
        load_clock_mhz=gpu.load_clock_mhz, load_mem_clock_mhz=gpu.load_mem_clock_mhz,
        idle_power_w=gpu.idle_power_w, load_power_w=gpu.load_power_w, idle_temp_c=gpu.idle_temp_c,
        load_temp_c=gpu.load_temp_c, source=gpu.source)


# The demo machine is described once (resources/data/demo_machine.json, with the source of every
# figure); Setup's and Hybrid's demos read the same description.
_SPEC = demo_machine_spec()
PROFILES = tuple(_profile(g) for g in _SPEC.gpus)
RTX_4090, RTX_3090 = PROFILES
BUS_IDS = tuple(g.pci_bus_id for g in _SPEC.gpus)
DRIVER_VERSION = _SPEC.driver_version
CUDA_DRIVER_VERSION = _SPEC.cuda_driver_version
CPU_COUNT = _SPEC.cpu_count
RAM_TOTAL_MIB = _SPEC.ram_total_mib
SWAP_TOTAL_MIB = _SPEC.swap_total_mib


def _mix(x: int) -> int:
    """splitmix64 finaliser: a cheap, well-spread integer hash."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


def _smoothstep(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def _bump(p: float, start: float, rise: float, hold: float, fall: float) -> float:
    """0 before ``start``, up over ``rise`` s, 1 for ``hold`` s, down over ``fall`` s."""
    if p < start:
        return 0.0
    p -= start
    if p < rise:
        return _smoothstep(p / rise)
    p -= rise
    if p < hold:
        return 1.0
    return 1.0 - _smoothstep((p - hold) / fall)


class SimulatedSource:
    """TelemetrySource for the demo and the tests; see the module docstring."""

    name = "simulated"
    kind = SourceKind.SIMULATED
    path = None

    def __init__(self, seed: int = 0, gpus: int = 2, start_wall: float | None = None,
                 gpu_lost_window: tuple[float, float] | None = None) -> None:
        if gpus < 0:
            raise ValueError("gpus must be >= 0")
        self.seed = int(seed)
        self.gpu_count = int(gpus)
        self.start_wall = start_wall
        # (from, to) elapsed seconds during which the last GPU reports "lost" (tests, demos)
        self.gpu_lost_window = gpu_lost_window
        self._opened = False
        self._energy: list[list[float]] = [[0.0] for _ in range(self.gpu_count)]
        self._infos = tuple(self._info(i) for i in range(self.gpu_count))

    # ---- TelemetrySource

    def open(self) -> SourceStatus:
        if self.start_wall is None:
            self.start_wall = time.time()
        self._opened = True
        return SourceStatus(DeviceState.OK)

    def close(self) -> None:
        self._opened = False

    def devices(self) -> tuple[GpuInfo, ...]:
        return self._infos

    def read(self, tiers: Tier, now: float) -> Snapshot:
        if self.start_wall is None:
            self.start_wall = now
        e = now - self.start_wall
        slow = Tier.SLOW in Tier(tiers)
        samples = tuple(self._sample(i, e, now, slow) for i in range(self.gpu_count))
        return Snapshot(
            t=now,
            status=SourceStatus(DeviceState.OK),
            gpus=self._infos,
            samples=samples,
            system=self._system(e, now),
        )

    def prehistory(self, seconds: float, step: float = 1.0) -> list[Snapshot]:
        """Snapshots (all tiers) from ``start_wall`` for ``seconds``, every ``step`` s.

        Without a ``start_wall`` the run is placed so that it ends now.
        """
        if self.start_wall is None:
            self.start_wall = time.time() - seconds
        count = int(seconds / step)
        tiers = Tier.FAST | Tier.SLOW | Tier.STATIC
        return [self.read(tiers, self.start_wall + k * step) for k in range(count)]

    # ---- the model

    def _info(self, i: int) -> GpuInfo:
        p = PROFILES[i % len(PROFILES)]
        return GpuInfo(
            index=i,
            name=p.name,
            uuid=self._uuid(i),
            pci_bus_id=BUS_IDS[i] if i < len(BUS_IDS) else f"00000000:{1 + i * 0x20:02X}:00.0",
            pci_device_id=p.pci_device_id,
            driver_version=DRIVER_VERSION,
            cuda_driver_version=CUDA_DRIVER_VERSION,
            memory_total_mib=p.memory_total_mib,
            power_limit_default_w=p.power_limit_w,
            temp_slowdown_c=p.temp_slowdown_c,
            temp_shutdown_c=p.temp_shutdown_c,
            sm_clock_max_mhz=p.sm_clock_max_mhz,
            mem_clock_max_mhz=p.mem_clock_max_mhz,
            pcie_gen_max=p.pcie_gen_max,
            pcie_width_max=p.pcie_width_max,
            ecc_supported=False,  # GeForce
        )

    def _uuid(self, i: int) -> str:
        h = f"{_mix(self.seed * 7919 + i + 1):016x}{_mix(self.seed * 104729 + i + 17):016x}"
        return f"GPU-{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"

    def _noise(self, channel: int, e: float) -> float:
        """Smooth deterministic noise in [-1, 1], interpolated between whole seconds."""
        k = math.floor(e)
        f = e - k
        a = _mix((self.seed << 40) ^ (channel << 32) ^ (k & 0xFFFFFFFF))
        b = _mix((self.seed << 40) ^ (channel << 32) ^ ((k + 1) & 0xFFFFFFFF))
        va = (a >> 11) / float(1 << 53) * 2 - 1
        vb = (b >> 11) / float(1 << 53) * 2 - 1
        return va + (vb - va) * f

    def _phase(self, e: float) -> float:
        return (e - STEADY_S) % CYCLE_S if e >= STEADY_S else -1.0

    def _load(self, i: int, e: float) -> tuple[float, bool]:
        """(utilisation % before throttling, is an eval job on this GPU)."""
        if e < IDLE_S:
            return max(0.0, 1.0 + self._noise(10 + i, e)), False
        if e < STEADY_S:
            # dataset loading first (GPU waits), then the first steps
            ramp = _smoothstep((e - 150.0) / 150.0)
            return ramp * (93.0 + 4 * self._noise(10 + i, e)), False
        p = self._phase(e)
        util = 96.5 + 2.5 * self._noise(10 + i, e * 3)
        if (p % EPOCH_S) < EPOCH_DIP_S:  # epoch boundary: loader restarts its workers
            util = 2.0 + 3.0 * abs(self._noise(20 + i, e))
        if CPU_BOUND[0] <= p < CPU_BOUND[1]:
            # the GPU finishes each batch long before the CPU has the next one ready
            wave = 0.5 + 0.5 * math.sin(2 * math.pi * (p / 9.0) + i)
            util = 92.0 * wave * wave + 3 * abs(self._noise(30 + i, e))
        if DISK_BOUND[0] <= p < DISK_BOUND[1]:
            wave = 0.5 + 0.5 * math.sin(2 * math.pi * (p / 14.0) + 2 * i)
            util = 85.0 * wave ** 3 + 2 * abs(self._noise(30 + i, e))
        eval_on = i == 0 and (p % EVAL_EVERY_S) >= EVAL_OFFSET_S and (p % EVAL_EVERY_S) < EVAL_OFFSET_S + EVAL_LENGTH_S
        return min(max(util, 0.0), 100.0), eval_on

    def _heat_episode(self, i: int, e: float) -> tuple[float, float]:
        """(extra °C, 0..1 'power phase' weight) for GPU 1's thermal episode."""
        if i != 1 or e < STEADY_S:
            return 0.0, 0.0
        p = self._phase(e)
        a, b = THERMAL
        if not a <= p < b:
            return 0.0, 0.0
        power_phase = _bump(p, a + 900.0, 120.0, 780.0, 120.0)
        # The fans reach 100 % and pull the core back under its target, but the
        # hot silicon now leaks enough power to sit on the power limit instead.
        heat = _bump(p, a, 600.0, 1200.0, 600.0) * 10.5 - power_phase * 4.0
        return heat, power_phase

    def _gpu_values(self, i: int, e: float) -> dict:
        prof = PROFILES[i % len(PROFILES)]
        util, eval_on = self._load(i, e)
        if eval_on:
            util = min(100.0, util + 1.5)
        busy = util / 100.0
        working = e >= IDLE_S
        # Temperature follows the load with a long time constant during warm-up.
        if not working:
            temp = prof.idle_temp_c
        else:
            warm = 1 - math.exp(-max(e - 150.0, 0.0) / 420.0)
            temp = prof.idle_temp_c + (prof.load_temp_c - prof.idle_temp_c) * warm
            temp -= (1 - busy) * 3.0 * warm  # dips cool the card a little
        extra_heat, power_phase = self._heat_episode(i, e)
        temp += extra_heat + 0.6 * self._noise(40 + i, e / 4)
        reasons: set[str] = set()
        clock = 210.0 if not working or busy < 0.03 else prof.load_clock_mhz
        if busy < 0.03:
            reasons.add("gpu_idle")
        if clock > 300 and temp >= prof.temp_target_c:
            reasons.add("sw_thermal")
            clock -= 55.0 * (temp - prof.temp_target_c + 1.0)
        demand = prof.idle_power_w + (prof.load_power_w - prof.idle_power_w) * busy * (clock / prof.load_clock_mhz)
        demand += 6.0 * self._noise(50 + i, e) + power_phase * 70.0  # hot silicon leaks more
        if eval_on:
            demand += 18.0
        power = demand
        if demand >= prof.power_limit_w * 0.995:
            reasons.add("power_cap")
            over = demand - prof.power_limit_w
            clock -= max(over, 0.0) * 2.4
            power = prof.power_limit_w - abs(self._noise(55 + i, e)) * 3.0
        mem_clock = 405.0 if clock <= 300 else prof.load_mem_clock_mhz
        return {
            "util": util,
            "eval": eval_on,
            "temp": temp,
            "clock": max(clock, 210.0),
            "mem_clock": mem_clock,
            "power": max(power, prof.idle_power_w * 0.8),
            "reasons": frozenset(reasons),
        }

    def _power_at(self, i: int, e: float) -> float:
        return self._gpu_values(i, e)["power"]

    def _energy_j(self, i: int, e: float) -> float:
        """Energy since 'driver load' (an hour of idle before the run).

        Integrated per second over the warm-up and the first cycle (kept in
        memory: 15 000 values per GPU); later cycles repeat the first one's
        energy, so a demo left running for days costs neither memory nor a
        long catch-up loop.
        """
        base = 3600.0 * PROFILES[i % len(PROFILES)].idle_power_w
        if e <= 0:
            return base
        horizon = int(STEADY_S + CYCLE_S)
        extra = 0.0
        if e >= horizon:
            self._integrate(i, horizon)
            cum = self._energy[i]
            cycles, rest = divmod(e - STEADY_S, CYCLE_S)
            extra = cycles * (cum[horizon] - cum[int(STEADY_S)])
            e = STEADY_S + rest
        k = int(e)
        self._integrate(i, k + 1)
        cum = self._energy[i]
        return base + extra + cum[k] + (cum[k + 1] - cum[k]) * (e - k)

    def _integrate(self, i: int, upto: int) -> None:
        cum = self._energy[i]
        while len(cum) <= upto:
            s = len(cum) - 1
            cum.append(cum[-1] + self._power_at(i, s + 0.5))

    def _processes(self, i: int, e: float, eval_on: bool) -> tuple[ProcessSample, ...]:
        procs: list[ProcessSample] = []
        if i == 0:
            procs.append(ProcessSample(1180, "Xorg", "root", "graphics", 290.0))
            procs.append(ProcessSample(1424, "gnome-shell", "alex", "graphics", 110.0))
        if e >= IDLE_S:
            rank_pid = 48211 + i * 86
            alloc = _smoothstep((e - 120.0) / 240.0) * (19450.0 - 610.0 * i)
            p = self._phase(e)
            cpu = 135.0 + 20.0 * self._noise(60 + i, e)
            if CPU_BOUND[0] <= p < CPU_BOUND[1]:
                cpu = 99.0 + 1.0 * self._noise(60 + i, e)  # its main thread pegs one core
            procs.append(ProcessSample(rank_pid, "python train.py", "alex", "compute",
                                       round(max(alloc, 0.0) + 300.0), cpu,
                                       sm_pct=round(min(99.0, 88.0 + 6.0 * self._noise(80 + i, e)))))
        if eval_on:
            n = int(self._phase(e) // EVAL_EVERY_S)
            cycle = int((e - STEADY_S) // CYCLE_S)
            pid = 50000 + (cycle * 8 + n) * 37 + self.seed % 11
            procs.append(ProcessSample(pid, "python eval.py", "alex", "compute", 3100.0,
                                       96.0 + 3.0 * self._noise(70, e), sm_pct=31.0))
        return tuple(procs)

    def _sample(self, i: int, e: float, now: float, slow: bool) -> GpuSample:
        prof = PROFILES[i % len(PROFILES)]
        uuid = self._infos[i].uuid
        if self.gpu_lost_window and i == self.gpu_count - 1:
            lo, hi = self.gpu_lost_window
            if lo <= e < hi:
                return GpuSample(t=now, index=i, uuid=uuid, state=DeviceState.LOST,
                                 state_detail="GPU has fallen off the bus")
        v = self._gpu_values(i, e)
        procs = self._processes(i, e, v["eval"])
        used = sum(p.used_mib or 0.0 for p in procs) + (420.0 if e >= IDLE_S else 180.0)
        working = v["clock"] > 300
        heat, _ = self._heat_episode(i, e)
        fan = 0.0 if v["temp"] < 50 else min(100.0, 30.0 + (v["temp"] - 50.0) * 1.6 + heat * 2.5)
        sample = GpuSample(
            t=now,
            index=i,
            uuid=uuid,
            utilization_pct=round(v["util"]),
            memory_utilization_pct=round(v["util"] * (0.42 if i == 0 else 0.55)),
            memory_used_mib=round(used),
            memory_total_mib=prof.memory_total_mib,
            temperature_c=round(v["temp"]),
            memory_temperature_c=None,  # GeForce cards do not report it through NVML
            power_w=round(v["power"], 2),
            power_limit_w=prof.power_limit_w,
            energy_j=round(self._energy_j(i, e), 1),
            sm_clock_mhz=round(v["clock"] / 15.0) * 15.0,  # GPU Boost steps by 15 MHz
            mem_clock_mhz=v["mem_clock"],
            pstate=2 if working else 8,
            throttle_reasons=v["reasons"],
        )
        if not slow:
            return sample
        if working:
            gen, width = (4, 16) if i % 2 == 0 else (3, 8)  # GPU 1 sits on a gen 3 x8 riser
        else:
            gen, width = 1, (16 if i % 2 == 0 else 8)  # links train down at idle
        return dataclasses.replace(
            sample,
            fan_pct=round(fan),
            pcie_gen=gen,
            pcie_width=width,
            encoder_pct=0.0,
            decoder_pct=0.0,
            processes=procs,
        )

    def _system(self, e: float, now: float) -> SystemSample:
        p = self._phase(e)
        cpu = 4.0 + 2.0 * abs(self._noise(80, e))
        read = 0.3
        iowait = 0.2
        if e >= IDLE_S:
            cpu = 37.0 + 5.0 * self._noise(80, e)
            read = 85.0 + 20.0 * self._noise(81, e)
            iowait = 0.8 + 0.4 * abs(self._noise(82, e))
            if e < 300:
                read = 420.0 + 40 * self._noise(81, e)  # dataset index and first shards
                iowait = 6.0 + 2 * abs(self._noise(82, e))
        if CPU_BOUND[0] <= p < CPU_BOUND[1]:
            cpu = 97.5 + 2.0 * self._noise(80, e)
        if DISK_BOUND[0] <= p < DISK_BOUND[1]:
            cpu = 22.0 + 4.0 * self._noise(80, e)
            read = 158.0 + 12.0 * self._noise(81, e)
            iowait = 31.0 + 5.0 * self._noise(82, e)
        ram = 9800.0 if e < IDLE_S else 9800.0 + _smoothstep((e - IDLE_S) / 200.0) * 21500.0
        return SystemSample(
            t=now,
            cpu_pct=round(min(max(cpu, 0.0), 100.0), 1),
            cpu_count=CPU_COUNT,
            ram_used_mib=round(ram + 150 * self._noise(83, e / 10)),
            ram_total_mib=RAM_TOTAL_MIB,
            swap_used_mib=118.0,
            swap_total_mib=SWAP_TOTAL_MIB,
            disk_read_mib_s=round(max(read, 0.0), 1),
            disk_write_mib_s=round(2.0 + abs(self._noise(84, e)), 1),
            iowait_pct=round(max(iowait, 0.0), 1),
        )
