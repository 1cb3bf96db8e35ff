"""Alert rules evaluated on every snapshot.

Each rule fires once per episode: it fires when its condition starts (or has
lasted long enough), then stays quiet until the condition has cleared with
some margin (hysteresis) and re-arms. Thresholds come from
``services.settings.AlertSettings`` and can change while running
(``update_settings``).

Times are the snapshots' own wall times, so a replayed or simulated run gives
the same alerts as it did live.
"""
from __future__ import annotations

import enum
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from collections.abc import Callable

from services.i18n import Msg, translate
from services.settings import AlertSettings
from services.telemetry.model import DeviceState, GpuSample, Snapshot
from services.telemetry.processes import GpuProcess, ProcessTable, model_in_command_line
from services.telemetry.throttle import BY_CODE

# Re-arm margins. A reading that wobbles around a limit must not fire again
# and again: temperature must fall 3 °C under the limit, memory 2 points under.
TEMP_REARM_C = 3.0
MEMORY_REARM_PCT = 2.0
FAN_REARM_C = 5.0
# A throttle reason must be absent this long before its alert re-arms: the
# driver toggles thermal/power limits second by second near the edge.
THROTTLE_CLEAR_S = 30.0
# Spill: a process's dedicated memory counts as full from 90 % of the card's total (Windows and
# the desktop keep some of it, so one program rarely gets 100 %); the episode re-arms under 85 %.
SPILL_FULL_PCT = 90.0
SPILL_REARM_PCT = 85.0
LOG_SIZE = 500


class Severity(str, enum.Enum):
    INFO = "info"
    WARNING = "warning"
    CRITICAL = "critical"


class Rule(str, enum.Enum):
    TEMPERATURE = "temperature"
    THROTTLE_THERMAL = "throttle_thermal"
    THROTTLE_POWER = "throttle_power"
    THROTTLE_HW_SLOWDOWN = "throttle_hw_slowdown"
    MEMORY_FULL = "memory_full"
    FAN_STOPPED_HOT = "fan_stopped_hot"
    GPU_LOST = "gpu_lost"
    SPILL = "spill"
    WRONG_GPU = "wrong_gpu"


RULE_TITLES: dict[Rule, Msg] = {
    Rule.TEMPERATURE: translate("Alerts", "Temperature above the limit"),
    Rule.THROTTLE_THERMAL: translate("Alerts", "Slowed down by heat"),
    Rule.THROTTLE_POWER: translate("Alerts", "Held at the power limit"),
    Rule.THROTTLE_HW_SLOWDOWN: translate("Alerts", "Hardware slowdown"),
    Rule.MEMORY_FULL: translate("Alerts", "GPU memory almost full"),
    Rule.FAN_STOPPED_HOT: translate("Alerts", "Fan stopped while hot"),
    Rule.GPU_LOST: translate("Alerts", "GPU lost"),
    Rule.SPILL: translate("Alerts", "GPU memory spilling into system memory"),
    Rule.WRONG_GPU: translate("Alerts", "Heavy work on the integrated GPU"),
}


@dataclass(frozen=True, slots=True)
class Alert:
    t: float  # wall time of the snapshot that fired it
    gpu_index: int | None
    rule: Rule
    severity: Severity
    message: Msg
    gpu_uuid: str | None = None  # the GPU's identity (its index can change after a resume or a driver reload)
    # Process alerts: the process, and the model its command line names (for the Model fit link).
    pid: int | None = None
    process_name: str | None = None
    model: str | None = None
    summary: Msg | None = None  # one short line (the process view's banner); ``message`` has the fixes

    @property
    def title(self) -> Msg:
        return RULE_TITLES[self.rule]

    def to_json(self) -> dict:
        doc = {"t": self.t, "gpu_index": self.gpu_index, "gpu_uuid": self.gpu_uuid, "rule": self.rule.value,
               "severity": self.severity.value, "message": str(self.message)}
        if self.pid is not None:
            doc.update(pid=self.pid, process_name=self.process_name, model=self.model)
        return doc


@dataclass
class _Episode:
    active: bool = False  # fired and not yet re-armed
    since: float | None = None  # when the condition started (for "for N seconds")
    clear_since: float | None = None


@dataclass
class _SpillState:
    baseline_mib: float | None = None  # shared memory when dedicated became full
    active: bool = False


@dataclass
class _GpuState:
    episodes: dict[Rule, _Episode] = field(default_factory=lambda: {r: _Episode() for r in Rule})


class AlertEngine:
    """Evaluates the rules; keeps an in-memory log of this session's alerts."""

    def __init__(self, settings: AlertSettings, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self._clock = clock
        self._gpus: dict[str, _GpuState] = {}  # by UUID, so a re-indexed GPU keeps its episodes
        self._log: deque[Alert] = deque(maxlen=LOG_SIZE)
        self._listeners: list[Callable[[Alert], None]] = []
        self._lock = threading.Lock()
        self._spills: dict[tuple[int, str], _SpillState] = {}
        self._wrong: dict[tuple[int, str], _Episode] = {}

    def update_settings(self, settings: AlertSettings) -> None:
        self.settings = settings

    def add_listener(self, fn: Callable[[Alert], None]) -> None:
        """``fn(alert)`` for each new alert, on the thread that calls ``evaluate``."""
        with self._lock:
            self._listeners.append(fn)

    def remove_listener(self, fn: Callable[[Alert], None]) -> None:
        with self._lock:
            if fn in self._listeners:
                self._listeners.remove(fn)

    def recent(self, limit: int = 50, within_s: float | None = None) -> list[Alert]:
        """The newest ``limit`` alerts (0: all), newest last; with ``within_s``
        only those raised in the last ``within_s`` seconds of the engine's clock."""
        with self._lock:
            items = list(self._log)
        if within_s is not None:
            cutoff = self._clock() - within_s
            items = [a for a in items if a.t >= cutoff]
        return items[-limit:] if limit else items

    def clear(self) -> None:
        with self._lock:
            self._log.clear()

    # ---- evaluation

    def evaluate(self, snapshot: Snapshot) -> list[Alert]:
        s = self.settings
        if not s.enabled:
            return []
        fired: list[Alert] = []
        names = {g.uuid: g.name for g in snapshot.gpus}  # by UUID, like the samples and the episodes
        for sample in snapshot.samples:
            state = self._gpus.setdefault(sample.uuid, _GpuState())
            name = names.get(sample.uuid, f"GPU {sample.index}")
            fired += self._evaluate_gpu(sample, name, state, snapshot.t)
        self._publish(fired)
        return fired

    def _publish(self, fired: list[Alert]) -> None:
        if fired:
            with self._lock:
                self._log.extend(fired)
                listeners = list(self._listeners)
            for alert in fired:
                for fn in listeners:
                    fn(alert)

    # ---- process rules (fed by services.telemetry.processes.ProcessService)

    def evaluate_processes(self, table: ProcessTable) -> list[Alert]:
        """Spill and wrong-GPU alerts for one process table; each fires once per episode."""
        s = self.settings
        if not s.enabled:
            return []
        fired: list[Alert] = []
        seen = set()
        for row in table.live():
            seen.add(row.key)
            if s.spill:
                alert = self._spill(row, table.t)
                if alert is not None:
                    fired.append(alert)
            if s.wrong_gpu and table.nvidia_gpus:  # no NVIDIA GPU in view: no better GPU to send it to
                alert = self._wrong_gpu(row, table.t)
                if alert is not None:
                    fired.append(alert)
        # A process that ended takes its episodes with it.
        self._spills = {k: v for k, v in self._spills.items() if k in seen}
        self._wrong = {k: v for k, v in self._wrong.items() if k in seen}
        self._publish(fired)
        return fired

    def _spill(self, row: GpuProcess, t: float) -> Alert | None:
        total, dedicated, shared = row.gpu_memory_total_mib, row.used_mib, row.shared_mib
        if row.integrated or total is None or dedicated is None or shared is None or total <= 0:
            return None
        st = self._spills.setdefault(row.key, _SpillState())
        if dedicated < total * SPILL_FULL_PCT / 100.0:
            if dedicated < total * SPILL_REARM_PCT / 100.0:
                st.baseline_mib, st.active = None, False
            return None
        # Dedicated memory is full: what shared memory holds from here on is the spill.
        if st.baseline_mib is None or shared < st.baseline_mib:
            st.baseline_mib = shared
        spilled = shared - st.baseline_mib
        if st.active or spilled < self.settings.spill_min_mib:
            return None
        st.active = True
        model = model_in_command_line(row.command_line)
        fixes = translate(
            "Alerts", "Fixes: a smaller context, batch or quantisation (Model fit shows what fits{model}); or, "
                      "in the NVIDIA Control Panel (Manage 3D settings › Program settings), set “CUDA - Sysmem "
                      "Fallback Policy” to “Prefer No Sysmem Fallback” for this program: it then stops with an "
                      "out-of-memory error instead of running slowly."
        ).format(model=translate("Alerts", " for {model}").format(model=model) if model else "")
        message = translate(
            "Alerts", "{name} ({pid}) on {gpu} is spilling into system memory: its GPU memory is full "
                      "({dedicated} of {total} MiB) and {spilled} MiB more now sit in shared system memory, "
                      "which is many times slower. {fixes}"
        ).format(name=row.name, pid=row.pid, gpu=row.gpu_label, dedicated=_num(dedicated), total=_num(total),
                 spilled=_num(spilled), fixes=fixes)
        summary = translate(
            "Alerts", "{name} ({pid}) on {gpu}: GPU memory full, {spilled} MiB spilled into system memory; it "
                      "now runs many times slower."
        ).format(name=row.name, pid=row.pid, gpu=row.gpu_label, spilled=_num(spilled))
        return Alert(t, row.gpu_index, Rule.SPILL, Severity.WARNING, message, pid=row.pid,
                     process_name=row.name, model=model, summary=summary)

    def _wrong_gpu(self, row: GpuProcess, t: float) -> Alert | None:
        if not row.integrated:
            return None
        busy = row.sm_pct is not None and row.sm_pct >= self.settings.wrong_gpu_busy_pct
        ep = self._wrong.setdefault(row.key, _Episode())
        idle = row.sm_pct is None or row.sm_pct < self.settings.wrong_gpu_busy_pct / 2
        if not self._edge(ep, busy, idle, t, self.settings.wrong_gpu_for_s):
            return None
        return Alert(t, None, Rule.WRONG_GPU, Severity.WARNING, translate(
            "Alerts", "{name} ({pid}) is doing heavy {engine} work on the integrated GPU ({gpu}, {busy}% busy) "
                      "while the NVIDIA GPU is there for it. Open it on the Hybrid page and choose “Run on the "
                      "NVIDIA GPU”, then restart it."
        ).format(name=row.name, pid=row.pid, engine=row.engine_type or "3D", gpu=row.gpu_label,
                 busy=_num(row.sm_pct)), pid=row.pid, process_name=row.name, summary=translate(
            "Alerts", "{name} ({pid}) works on the integrated GPU ({gpu}, {busy}% busy), not the NVIDIA GPU."
        ).format(name=row.name, pid=row.pid, gpu=row.gpu_label, busy=_num(row.sm_pct)))

    def _evaluate_gpu(self, g: GpuSample, name: str, st: _GpuState, t: float) -> list[Alert]:
        s = self.settings
        out: list[Alert] = []
        ep = st.episodes

        def fire(rule: Rule, severity: Severity, message: Msg) -> None:
            out.append(Alert(t, g.index, rule, severity, message, g.uuid))

        # GPU lost
        lost = g.state == DeviceState.LOST
        if s.gpu_lost and self._edge(ep[Rule.GPU_LOST], lost, not lost, t, 0.0):
            fire(Rule.GPU_LOST, Severity.CRITICAL, translate(
                "Alerts", "GPU {gpu} ({name}) stopped responding. Its history is kept; the app keeps retrying."
            ).format(gpu=g.index, name=name))
        if g.state != DeviceState.OK:
            return out

        # Temperature above the limit for N seconds
        temp = g.temperature_c
        hot = temp is not None and temp > s.temperature_c
        cool = temp is None or temp < s.temperature_c - TEMP_REARM_C
        if self._edge(ep[Rule.TEMPERATURE], hot, cool, t, s.temperature_for_s):
            fire(Rule.TEMPERATURE, Severity.WARNING, translate(
                "Alerts", "GPU {gpu} ({name}) has been above {limit} °C for {seconds} s (now {temp} °C)."
            ).format(gpu=g.index, name=name, limit=_num(s.temperature_c), seconds=_num(s.temperature_for_s),
                     temp=_num(temp)))

        reasons = g.throttle_reasons or frozenset()
        known = g.throttle_reasons is not None
        thermal = bool(reasons & {"sw_thermal", "hw_thermal"})
        if s.throttle_thermal and self._throttle_edge(ep[Rule.THROTTLE_THERMAL], thermal, known, t):
            fire(Rule.THROTTLE_THERMAL, Severity.WARNING, translate(
                "Alerts", "GPU {gpu} ({name}) is lowering its clocks because it is too hot ({temp} °C)."
            ).format(gpu=g.index, name=name, temp=_num(temp)))
        power = "power_cap" in reasons
        if s.throttle_power and self._throttle_edge(ep[Rule.THROTTLE_POWER], power, known, t):
            fire(Rule.THROTTLE_POWER, Severity.INFO, translate(
                "Alerts", "GPU {gpu} ({name}) is held at its power limit ({power} W of {limit} W)."
            ).format(gpu=g.index, name=name, power=_num(g.power_w), limit=_num(g.power_limit_w)))
        slowdown = bool(reasons & {"hw_slowdown", "hw_power_brake"})
        if s.throttle_hw_slowdown and self._throttle_edge(ep[Rule.THROTTLE_HW_SLOWDOWN], slowdown, known, t):
            which = [BY_CODE[c].label for c in ("hw_slowdown", "hw_power_brake") if c in reasons]
            fire(Rule.THROTTLE_HW_SLOWDOWN, Severity.CRITICAL, translate(
                "Alerts", "GPU {gpu} ({name}): the hardware cut its clocks hard ({reasons}). Check cooling and the power cables."
            ).format(gpu=g.index, name=name, reasons=which))

        # Memory almost full
        used, total = g.memory_used_mib, g.memory_total_mib
        pct = used / total * 100.0 if used is not None and total else None
        full = pct is not None and pct >= s.memory_pct
        roomy = pct is None or pct < s.memory_pct - MEMORY_REARM_PCT
        if self._edge(ep[Rule.MEMORY_FULL], full, roomy, t, 0.0):
            fire(Rule.MEMORY_FULL, Severity.WARNING, translate(
                "Alerts", "GPU {gpu} ({name}) memory is {pct}% full ({used} of {total} MiB). The next allocation may fail with out-of-memory."
            ).format(gpu=g.index, name=name, pct=_num(pct), used=_num(used), total=_num(total)))

        # Fan at 0 % while hot
        fan = g.fan_pct
        stopped = fan is not None and fan <= 0 and temp is not None and temp >= s.fan_zero_hot_c
        spinning = fan is None or fan > 0 or temp is None or temp < s.fan_zero_hot_c - FAN_REARM_C
        if self._edge(ep[Rule.FAN_STOPPED_HOT], stopped, spinning, t, 0.0):
            fire(Rule.FAN_STOPPED_HOT, Severity.CRITICAL, translate(
                "Alerts", "GPU {gpu} ({name}) reports its fan at 0% at {temp} °C. Check that the fan turns and is connected."
            ).format(gpu=g.index, name=name, temp=_num(temp)))
        return out

    @staticmethod
    def _edge(ep: _Episode, condition: bool, cleared: bool, t: float, hold_s: float) -> bool:
        """True once when ``condition`` has held for ``hold_s``; re-arms on ``cleared``."""
        if ep.active:
            if cleared:
                ep.active = False
                ep.since = None
            return False
        if not condition:
            ep.since = None
            return False
        if ep.since is None:
            ep.since = t
        if t - ep.since >= hold_s:
            ep.active = True
            return True
        return False

    @staticmethod
    def _throttle_edge(ep: _Episode, active: bool, known: bool, t: float) -> bool:
        if not known:
            return False  # reasons not reported this tick: neither start nor end an episode
        if active:
            ep.clear_since = None
            if not ep.active:
                ep.active = True
                return True
            return False
        if ep.active:
            if ep.clear_since is None:
                ep.clear_since = t
            elif t - ep.clear_since >= THROTTLE_CLEAR_S:
                ep.active = False
                ep.clear_since = None
        return False


def _num(value: float | None) -> str:
    if value is None:
        return "?"
    return str(int(round(value))) if abs(value - round(value)) < 0.05 else f"{value:.1f}"
