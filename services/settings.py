"""The user's settings: one typed dataclass tree saved as JSON.

Each tool owns one section. Loading never fails: unknown keys are ignored, a
value of the wrong type falls back to its default, and a file that cannot be
parsed is kept aside (``settings.json.broken-<time>``) rather than overwritten.
Saving writes a temporary file and renames it, so a crash never leaves half a
file behind.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import time
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from services.i18n import Msg


@dataclass
class GeneralSettings:
    language: str = "auto"  # auto | en | zh_CN
    keep_running_in_tray: bool = True
    start_minimized: bool = False


@dataclass
class MonitorSettings:
    fast_interval_s: float = 1.0  # utilisation, memory, power, clocks, temperature
    slow_interval_s: float = 5.0  # fan, PCIe, processes
    record_sessions: bool = True
    window_s: int = 600  # dashboard time window


@dataclass
class AlertSettings:
    enabled: bool = True
    temperature_c: float = 83.0
    temperature_for_s: float = 30.0
    throttle_thermal: bool = True
    throttle_power: bool = False
    throttle_hw_slowdown: bool = True
    memory_pct: float = 95.0
    fan_zero_hot_c: float = 70.0
    gpu_lost: bool = True
    notify_desktop: bool = True


@dataclass
class ExporterSettings:
    run_in_background: bool = False
    host: str = "127.0.0.1"
    port: int = 9400


@dataclass
class HostsSettings:
    # other machines' exporter or Prometheus URLs, shown on the "Other hosts" page
    urls: list = field(default_factory=list)


@dataclass
class PowerCostSettings:
    # 0 = not set: the dated, sourced default for the currency (see services.hardware.money)
    price_per_kwh: float = 0.0
    currency: str = "auto"  # auto (CNY for Chinese, USD otherwise) | USD | CNY
    price_currency: str = ""  # the currency price_per_kwh was entered in


@dataclass
class FitSettings:
    """The Model fit page's last choices (catalogue id, GPU name, workload)."""

    model: str = "meta-llama/Llama-3.1-8B"
    gpu: str = ""  # "" = the detected GPU if the catalogue knows it, else an RTX 4090
    task: str = "inference"
    engine: str = "transformers"
    method: str = "lora"
    seq: int = 4096


@dataclass
class PsuSettings:
    # the last build on the Build & PSU page: catalogue keys and counts (empty: start from detection)
    gpus: list = field(default_factory=list)
    cpu: str = ""
    ram_sticks: int = 2
    nvme: int = 1
    sata_ssd: int = 0
    hdd: int = 0
    fans: int = 3
    aio_pumps: int = 0
    argb_channels: int = 0
    usb_devices: int = 2
    usage: str = "gaming"  # gaming | training-24x7
    psu_standard: str = "atx3"  # atx3 | atx2
    efficiency: str = "gold"  # 80 PLUS level
    psu_w: int = 0  # the user's PSU; 0 = none, recommend one


@dataclass
class Settings:
    general: GeneralSettings = field(default_factory=GeneralSettings)
    monitor: MonitorSettings = field(default_factory=MonitorSettings)
    alerts: AlertSettings = field(default_factory=AlertSettings)
    exporter: ExporterSettings = field(default_factory=ExporterSettings)
    power_cost: PowerCostSettings = field(default_factory=PowerCostSettings)
    fit: FitSettings = field(default_factory=FitSettings)
    hosts: HostsSettings = field(default_factory=HostsSettings)
    psu: PsuSettings = field(default_factory=PsuSettings)


def to_dict(settings: Any) -> dict[str, Any]:
    return dataclasses.asdict(settings)


def from_dict(cls: type, data: Any) -> Any:
    """Build dataclass ``cls`` from ``data``, keeping defaults for anything bad."""
    obj = cls()
    if not isinstance(data, dict):
        return obj
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        hint = hints[f.name]
        value = data[f.name]
        current = getattr(obj, f.name)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            setattr(obj, f.name, from_dict(hint, value))
        elif _type_ok(current, value):
            setattr(obj, f.name, type(current)(value) if isinstance(current, float) else value)
    return obj


def _type_ok(current: Any, value: Any) -> bool:
    if isinstance(current, bool):
        return isinstance(value, bool)
    if isinstance(current, (int, float)):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(current, list):
        return isinstance(value, list)
    return isinstance(value, type(current))


# Allowed range per numeric field: (section, field) -> (lowest, highest). A value outside is
# clamped to the nearest end; NaN/Infinity fall back to the default. Why these ends:
# intervals below 0.25 s disturb the GPU and above an hour monitor nothing; TCP ports are
# 1..65535; temperatures beyond 0..120 °C are no GPU's; percentages are 0..100.
LIMITS: dict[tuple[str, str], tuple[float, float]] = {
    ("monitor", "fast_interval_s"): (0.25, 3600.0),
    ("monitor", "slow_interval_s"): (0.25, 3600.0),
    ("monitor", "window_s"): (10, 7 * 24 * 3600),
    ("alerts", "temperature_c"): (30.0, 120.0),
    ("alerts", "temperature_for_s"): (0.0, 3600.0),
    ("alerts", "memory_pct"): (1.0, 100.0),
    ("alerts", "fan_zero_hot_c"): (20.0, 120.0),
    ("exporter", "port"): (1, 65535),
    ("power_cost", "price_per_kwh"): (0.0, 1000.0),
    ("fit", "seq"): (1, 10_000_000),
    ("psu", "ram_sticks"): (0, 64),
    ("psu", "nvme"): (0, 64),
    ("psu", "sata_ssd"): (0, 64),
    ("psu", "hdd"): (0, 64),
    ("psu", "fans"): (0, 64),
    ("psu", "aio_pumps"): (0, 16),
    ("psu", "argb_channels"): (0, 64),
    ("psu", "usb_devices"): (0, 64),
    ("psu", "psu_w"): (0, 10_000),
}
CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("general", "language"): ("auto", "en", "zh_CN"),
}


def validate(settings: Settings) -> list[Msg]:
    """Clamp out-of-range numbers and replace non-finite ones or unknown choices with the
    default, in place. Returns one line per field changed (what it was, what it is): a ``Msg``,
    English through ``str()``."""
    from services.i18n import translate

    defaults = Settings()
    notes: list[Msg] = []
    for (section, name), (low, high) in LIMITS.items():
        part = getattr(settings, section, None)
        if part is None or not hasattr(part, name):
            continue
        value = getattr(part, name)
        default = getattr(getattr(defaults, section), name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if isinstance(value, float) and not math.isfinite(value):
            fixed = default
        elif value < low:
            fixed = low
        elif value > high:
            fixed = high
        else:
            continue
        fixed = type(default)(fixed)
        setattr(part, name, fixed)
        notes.append(translate("Settings", "{field} = {value} is out of range ({low} to {high}); using {fixed}").format(
            field=f"{section}.{name}", value=repr(value), low=f"{low:g}", high=f"{high:g}", fixed=repr(fixed)))
    for (section, name), allowed in CHOICES.items():
        part = getattr(settings, section, None)
        value = getattr(part, name, None)
        if value is not None and value not in allowed:
            fixed = getattr(getattr(defaults, section), name)
            setattr(part, name, fixed)
            notes.append(translate("Settings", "{field} = {value} is not one of {allowed}; using {fixed}").format(
                field=f"{section}.{name}", value=repr(value), allowed=", ".join(allowed), fixed=repr(fixed)))
    if settings.monitor.slow_interval_s < settings.monitor.fast_interval_s:
        settings.monitor.slow_interval_s = settings.monitor.fast_interval_s
    return notes


def _joined(notes: list[Msg]) -> Msg:
    """The notes as one line ("a; b; c"), each said in the reader's language."""
    from services.i18n import translate

    line = notes[0]
    for later in notes[1:]:
        line = translate("Settings", "{earlier}; {later}").format(earlier=line, later=later)
    return line


class SettingsStore:
    """Loads and saves ``Settings`` at one path; tells listeners about changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.settings = Settings()
        self.load_problem: str | None = None  # English, one line
        self.load_problem_text: Msg | None = None  # the same line, translatable (None: show load_problem)
        self.load_notes: list[str] = []  # one line per field that was clamped or reset on load (English)
        self.load_notes_text: list[Msg] = []  # the same lines, translatable
        # The file was read, and the only problem is values corrected on load (load_problem lists them).
        self.load_corrected_only = False
        self._listeners: list[typing.Callable[[Settings], None]] = []

    def _problem(self, message: Msg) -> None:
        self.load_problem, self.load_problem_text = str(message), message

    def load(self) -> Settings:
        from services.i18n import translate

        self.load_problem = self.load_problem_text = None
        self.load_notes = []
        self.load_notes_text = []
        self.load_corrected_only = False
        from services.paths import UnsafePathError, check_regular_file

        try:  # a FIFO here would block the read forever; a device is no settings file either
            check_regular_file(self.path, may_be_missing=True, may_be_folder=False)
        except UnsafePathError as exc:
            self._problem(translate("Settings", "{problem}; using the default settings").format(problem=exc.message))
            self.settings = Settings()
            return self.settings
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            self.settings = Settings()
            return self.settings
        except OSError as exc:
            self._problem(translate("Settings", "cannot read {file}: {reason}").format(
                file=self.path.name, reason=str(exc.strerror)))
            self.settings = Settings()
            return self.settings
        try:
            # decoding is inside this try: a binary or non-UTF-8 file is as broken as bad JSON
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):  # RecursionError: nesting deeper than the decoder allows
            kept = self.path.with_name(f"{self.path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
            try:
                os.replace(self.path, kept)
                self._problem(translate("Settings", "{file} was unreadable; kept it as {kept}").format(
                    file=self.path.name, kept=kept.name))
            except OSError:
                self._problem(translate("Settings", "{file} was unreadable").format(file=self.path.name))
            data = {}
        self.settings = from_dict(Settings, data)
        self.load_notes_text = validate(self.settings)
        self.load_notes = [str(note) for note in self.load_notes_text]
        if self.load_notes_text and self.load_problem is None:
            self._problem(_joined(self.load_notes_text))
            self.load_corrected_only = True
        return self.settings

    def save(self, settings: Settings | None = None) -> None:
        if settings is not None:
            self.settings = settings
        validate(self.settings)  # a bad value from any page never reaches the file or the listeners
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(to_dict(self.settings), indent=2, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, self.path)
        for listener in list(self._listeners):
            listener(self.settings)

    def subscribe(self, listener: typing.Callable[[Settings], None]) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: typing.Callable[[Settings], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)
