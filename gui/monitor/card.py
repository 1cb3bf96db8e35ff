"""One GPU's card on the dashboard: header badges, value tiles, graphs and the throttle legend."""
from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from gui.i18n import render
from gui.monitor.widgets import DASH, Badge, ElidedLabel, MetricTile, format_duration, format_mib
from gui.widgets.gpu_card import GpuCardFrame
from services.settings import AlertSettings
from services.telemetry import health, throttle
from services.telemetry.model import DeviceState, GpuInfo, GpuSample


class GpuCard(GpuCardFrame):
    """Everything about one GPU: header badges, value tiles, graphs, throttle legend.

    ``alert_settings``: the user's alert settings, read at each update, so a tile
    turns red where the matching alert would fire (memory almost full, fan stopped while hot).
    """

    def __init__(self, info: GpuInfo, parent: QWidget | None = None,
                 alert_settings: Callable[[], AlertSettings] = AlertSettings) -> None:
        super().__init__(parent)
        self.setObjectName("GpuCard")
        self.info = info
        self._alert_settings = alert_settings
        self.sample: GpuSample | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 6)
        layout.setSpacing(5)

        header = QHBoxLayout()
        header.setSpacing(8)
        self.title = QLabel(self)
        self.title.setObjectName("GpuTitle")
        self.subtitle = ElidedLabel("", self)
        self.subtitle.setObjectName("GpuSubtitle")
        self.state_badge = Badge(parent=self)
        self.pstate_badge = Badge(parent=self)
        self.pcie_badge = Badge(parent=self)
        self.throttle_box = QHBoxLayout()
        self.throttle_box.setSpacing(4)
        header.addWidget(self.title)
        header.addWidget(self.subtitle, 1)
        header.addLayout(self.throttle_box)
        header.addWidget(self.pcie_badge)
        header.addWidget(self.pstate_badge)
        header.addWidget(self.state_badge)
        from gui.power.menu import power_menu_button  # the power panel's entry: sweep, set limit

        header.addWidget(power_menu_button(self))
        layout.addLayout(header)

        self.state_note = QLabel(self)
        self.state_note.setObjectName("StateNote")
        self.state_note.setWordWrap(True)
        self.state_note.hide()
        layout.addWidget(self.state_note)

        self.tiles_grid = QGridLayout()
        self.tiles_grid.setSpacing(8)
        self.tile_util = MetricTile(self.tr("Utilisation"), self)
        self.tile_memory = MetricTile(self.tr("Memory"), self)
        self.tile_temp = MetricTile(self.tr("Temperature"), self)
        self.tile_power = MetricTile(self.tr("Power"), self)
        self.tile_clock = MetricTile(self.tr("Clocks"), self)
        self.tile_fan = MetricTile(self.tr("Fan"), self)
        self._tiles = (self.tile_util, self.tile_memory, self.tile_temp, self.tile_power, self.tile_clock, self.tile_fan)
        layout.addLayout(self.tiles_grid)

        # pyqtgraph is imported with the first card, not with the page: the window paints sooner
        from gui.monitor.graphs import GpuGraphs

        self.graphs = self.add_graphs(GpuGraphs)
        self.graphs.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        layout.addWidget(self.graphs, 1)
        self.band_legend = QLabel(self)
        self.band_legend.setObjectName("BandLegend")
        self.band_legend.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.band_legend)
        self._throttle_chips: dict[str, Badge] = {}
        self._lost_since: float | None = None
        self._narrow: bool | None = None
        self._min_heights = (285, 420)  # (wide, narrow): set by the page for the number of cards
        self.set_narrow(False)
        self._set_title()
        self.update_live(None, {})

    # ---- Public API
    def set_min_heights(self, wide: int, narrow: int) -> None:
        self._min_heights = (wide, narrow)
        self.setMinimumHeight(narrow if self._narrow else wide)

    def set_narrow(self, narrow: bool) -> None:
        """Six tiles and five graphs in a row, or (narrow window) tiles 3 + 3 and graphs 3 + 2."""
        if narrow == self._narrow:
            return
        self._narrow = narrow
        columns = 3 if narrow else len(self._tiles)
        for tile in self._tiles:
            self.tiles_grid.removeWidget(tile)
        for i, tile in enumerate(self._tiles):
            self.tiles_grid.addWidget(tile, i // columns, i % columns)
        for column in range(len(self._tiles)):
            self.tiles_grid.setColumnStretch(column, 1 if column < columns else 0)
        self.graphs.set_columns(3 if narrow else 5)
        self.setMinimumHeight(self._min_heights[1] if narrow else self._min_heights[0])

    def is_narrow(self) -> bool:
        return bool(self._narrow)

    def is_on_screen(self) -> bool:
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def update_live(self, sample: GpuSample | None, seconds_in_reason: dict[str, float]) -> None:
        """Header, tiles and the throttle legend from the newest sample."""
        self.sample = sample
        alerts = self._alert_settings()
        state = sample.state if sample else DeviceState.OK
        self._update_state(sample, state)
        s = sample if state == DeviceState.OK else None  # a lost or sleeping GPU shows dashes
        self._show_utilisation(s)
        self._show_memory(s, alerts)
        self._show_temperature(s)
        self._show_power(s)
        self._show_clocks(s)
        self._show_fan(s, alerts)
        self._show_badges(s)
        self._update_throttle_chips(s)
        self._update_band_legend(seconds_in_reason)

    def _show_utilisation(self, s: GpuSample | None) -> None:
        """Busy %, with the memory bus and the video engines when they are used."""
        if s and s.utilization_pct is not None:
            parts = []
            if s.memory_utilization_pct is not None:
                parts.append(self.tr("memory bus {pct:.0f}%").format(pct=s.memory_utilization_pct))
            # the video engines only when busy, each a fact of its own (left out whole when they do not fit)
            if s.encoder_pct:
                parts.append(self.tr("enc {pct:.0f}%").format(pct=s.encoder_pct))
            if s.decoder_pct:
                parts.append(self.tr("dec {pct:.0f}%").format(pct=s.decoder_pct))
            self.tile_util.set_values(f"{s.utilization_pct:.0f} %", parts)
        else:
            self.tile_util.set_values(DASH, "", "ok", self._missing_tip(s))

    def _show_memory(self, s: GpuSample | None, alerts: AlertSettings) -> None:
        """Used memory of the total, coloured by the user's alert threshold."""
        info = self.info
        fraction = health.memory_fraction(info, s)
        if s and s.memory_used_mib is not None:
            total = s.memory_total_mib or info.memory_total_mib
            detail = self.tr("of {total} ({pct:.0f}%)").format(total=format_mib(total), pct=fraction * 100) if fraction is not None else ""
            self.tile_memory.set_values(format_mib(s.memory_used_mib), detail, health.memory_level(info, s, alerts))
        else:
            self.tile_memory.set_values(DASH, "", "ok", self._missing_tip(s))

    def _show_temperature(self, s: GpuSample | None) -> None:
        """Core temperature, where the card slows down, and memory temperature where reported."""
        info = self.info
        if s and s.temperature_c is not None:
            parts = []
            # the live memory reading before the card's fixed threshold: it stays when space runs out
            if s.memory_temperature_c is not None:
                parts.append(self.tr("mem {t:.0f} °C").format(t=s.memory_temperature_c))
            if info.temp_slowdown_c is not None:
                parts.append(self.tr("slows at {t:.0f} °C").format(t=info.temp_slowdown_c))
            tip = ""
            if info.temp_shutdown_c is not None:
                tip = self.tr("Shuts down at {t:.0f} °C").format(t=info.temp_shutdown_c)
            self.tile_temp.set_values(f"{s.temperature_c:.0f} °C", parts, health.temperature_level(info, s), tip)
        else:
            self.tile_temp.set_values(DASH, "", "ok", self._missing_tip(s))

    def _show_power(self, s: GpuSample | None) -> None:
        """Power draw against its limit."""
        info = self.info
        if s and s.power_w is not None:
            limit = s.power_limit_w or info.power_limit_default_w
            detail = self.tr("limit {w:.0f} W").format(w=limit) if limit else ""
            self.tile_power.set_values(f"{s.power_w:.0f} W", detail, health.power_level(info, s))
        else:
            self.tile_power.set_values(DASH, "", "ok", self._missing_tip(s))

    def _show_clocks(self, s: GpuSample | None) -> None:
        """SM clock, its maximum and the memory clock."""
        info = self.info
        if s and s.sm_clock_mhz is not None:
            parts = []
            if info.sm_clock_max_mhz:
                parts.append(self.tr("max {mhz:.0f}").format(mhz=info.sm_clock_max_mhz))
            if s.mem_clock_mhz is not None:
                parts.append(self.tr("mem {mhz:.0f}").format(mhz=s.mem_clock_mhz))
            self.tile_clock.set_values(f"{s.sm_clock_mhz:.0f} MHz", parts)
        else:
            self.tile_clock.set_values(DASH, "", "ok", self._missing_tip(s))

    def _show_fan(self, s: GpuSample | None, alerts: AlertSettings) -> None:
        """Fan target speed; cards without a fan reading say so."""
        if s and s.fan_pct is not None:
            self.tile_fan.set_values(f"{s.fan_pct:.0f} %", self.tr("target speed"), health.fan_level(s, alerts))
        else:
            self.tile_fan.set_values(DASH, self.tr("no fan reading") if s else "", "ok",
                                     self.tr("Laptops and some cards do not report a fan speed."))

    def _show_badges(self, s: GpuSample | None) -> None:
        """The P-state and PCIe link badges in the header."""
        info = self.info
        if s and s.pstate is not None:
            _set_text(self.pstate_badge, f"P{s.pstate}")
            self.pstate_badge.setToolTip(self.tr("Performance state: P0 is full speed, higher numbers save power."))
            self.pstate_badge.show()
        else:
            self.pstate_badge.hide()
        link = health.pcie_link(info, s)
        if s and link.known:
            gen = f"Gen{link.gen}" if link.gen is not None else "Gen?"
            width = f"x{link.width}" if link.width is not None else ""
            _set_text(self.pcie_badge, f"PCIe {gen} {width}".strip() + (" ⚠" if link.warn else ""))
            self.pcie_badge.set_level("warn" if link.warn else "muted")
            tip = render(link.message) if link.message else self.tr("The link runs at its maximum.")
            self.pcie_badge.setToolTip(tip)
            self.pcie_badge.show()
        else:
            self.pcie_badge.hide()

    # ---- Internals
    def _set_title(self) -> None:
        self.title.setText(self.tr("GPU {index} · {name}").format(index=self.info.index, name=self.info.name))
        bits = []
        # the driver first: in a narrow window the long bus id is what gets elided (it is in the tooltip)
        if self.info.driver_version:
            bits.append(self.tr("driver {version}").format(version=self.info.driver_version))
        if self.info.pci_bus_id:
            bits.append(self.info.pci_bus_id)
        self.subtitle.setText("  ".join(bits))

    def _missing_tip(self, sample: GpuSample | None) -> str:
        return self.tr("This GPU does not report this value.") if sample else ""

    def _update_state(self, sample: GpuSample | None, state: DeviceState) -> None:
        text = health.state_text(state)
        if sample is None:
            _set_text(self.state_badge, self.tr("Waiting"))
            self.state_badge.set_level("muted")
        else:
            _set_text(self.state_badge, render(text.title))
            self.state_badge.set_level({DeviceState.OK: "ok", DeviceState.SLEEPING: "info"}.get(state, "bad"))
        self.state_badge.setToolTip(render(text.detail))
        if sample is not None and state == DeviceState.LOST:
            if self._lost_since is None:
                self._lost_since = sample.t
            note = self._lost_note()
            if sample.state_detail:  # the driver's own words, once, for whoever needs them
                self.state_badge.setToolTip(render(sample.describe_state()))
            _set_text(self.state_note, note)
            self.state_note.show()
        elif sample is not None and state != DeviceState.OK:
            self._lost_since = None
            note = render(text.detail)
            detail = render(sample.describe_state()) if sample.state_detail else ""
            if detail and detail not in note:
                note += "\n" + detail
            _set_text(self.state_note, note)
            self.state_note.show()
        else:
            if sample is not None:
                self._lost_since = None
            self.state_note.hide()

    def _lost_note(self) -> str:
        since = time.strftime("%H:%M", time.localtime(self._lost_since or time.time()))
        head = self.tr("Lost since {time}: the GPU stopped answering. Its history is kept and it is retried.").format(
            time=since)
        if is_laptop_gpu(self.info.name):
            advice = self.tr("On a laptop this usually follows sleep or a change of graphics mode; "
                             "if it does not come back, restart the computer.")
        else:
            advice = self.tr("If it does not come back, check its power cables and seating, then restart.")
        return f"{head} {advice}"

    def _update_throttle_chips(self, sample: GpuSample | None) -> None:
        active = set(throttle.warning_codes(sample.throttle_reasons if sample else None))
        for code in list(self._throttle_chips):
            if code not in active:
                chip = self._throttle_chips.pop(code)
                self.throttle_box.removeWidget(chip)
                chip.deleteLater()
        for code in active:
            if code in self._throttle_chips:
                continue
            reason = throttle.BY_CODE[code]
            chip = Badge(render(reason.label), parent=self)
            chip.set_color(reason.color)
            chip.setToolTip(render(reason.explanation))
            self._throttle_chips[code] = chip
            self.throttle_box.addWidget(chip)

    def _update_band_legend(self, seconds_in_reason: dict[str, float]) -> None:
        parts = []
        for reason in throttle.REASONS:
            seconds = seconds_in_reason.get(reason.code, 0.0)
            if not reason.warn or seconds < 1:
                continue
            parts.append(f"<span style='color:{reason.color}'>■</span> {render(reason.label)} {format_duration(seconds)}")
        if parts:
            text = self.tr("Clocks held back this session:") + " " + " &nbsp; ".join(parts)
        else:
            text = self.tr("No clock slowdowns this session.")
        if self.band_legend.text() != text:
            self.band_legend.setText(text)


def is_laptop_gpu(name: str) -> bool:
    """NVIDIA names its mobile parts "... Laptop GPU" (RTX 30 onwards), "Max-Q" or "Mobile"."""
    lowered = name.lower()
    return any(word in lowered for word in ("laptop", "max-q", "mobile"))


def _set_text(label: QLabel, text: str) -> None:
    if label.text() != text:  # an unchanged label must not cost a relayout every second
        label.setText(text)
