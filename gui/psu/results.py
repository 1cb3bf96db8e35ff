"""The build tab's results: the four figure cards, the verdict, where the watts go, why and the plan, warnings."""
from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from gui.i18n import render
from gui.psu.widgets import SEGMENT_COLOURS, FigureCard, Segment, WattBar
from services.hardware.psu_result import Result, Severity, Verdict
from services.hardware.report import connector_lines, listed_warnings

SEVERITY_COLOURS = {Severity.INFO: "#4e79a7", Severity.WARNING: "#d18b00", Severity.PROBLEM: "#c0392b"}
VERDICT_COLOURS = {Verdict.OK: "#2e8b57", Verdict.TIGHT: "#d18b00", Verdict.INSUFFICIENT: "#c0392b"}


class ResultPanel(QWidget):
    """Shows a calculation's result: the figures, the verdict, the watt bar and its legend, why, the plan, warnings."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.figures = QGridLayout()
        self.sustained_card = FigureCard(self.tr("Sustained load"), self)
        self.recommended_card = FigureCard(self.tr("Recommended PSU"), self)
        self.peak_card = FigureCard(self.tr("GPU spikes (10 ms)"), self)
        self.wall_card = FigureCard(self.tr("From the wall"), self)
        self._figure_cards = (self.sustained_card, self.recommended_card, self.peak_card, self.wall_card)
        for card in self._figure_cards:
            card.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._figure_columns = 0
        self.reflow_figures(4)
        layout.addLayout(self.figures)
        self.verdict_label = QLabel("", self)
        self.verdict_label.setWordWrap(True)
        layout.addWidget(self.verdict_label)
        watts_heading = self.tr("Where the watts go")
        layout.addWidget(QLabel(f"<b>{watts_heading}</b>"))
        self.watt_bar = WattBar(self)
        layout.addWidget(self.watt_bar)
        self.legend_label = QLabel("", self)
        self.legend_label.setWordWrap(True)
        self.legend_label.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.legend_label)
        details = QHBoxLayout()
        self.why_label = QLabel("", self)
        self.plan_label = QLabel("", self)
        for label in (self.why_label, self.plan_label):
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            frame = QFrame(self)
            frame.setProperty("card", True)
            frame_layout = QVBoxLayout(frame)
            frame_layout.setContentsMargins(10, 6, 10, 6)
            frame_layout.addWidget(label)
            frame.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            details.addWidget(frame, 1)
        layout.addLayout(details)
        self.warnings_box = QVBoxLayout()
        self.warnings_box.setSpacing(4)
        layout.addLayout(self.warnings_box)
        self.warning_labels: list[QLabel] = []

    def reflow_figures(self, columns: int) -> None:
        """Four figure cards in one row, or two rows of two where the page is narrow."""
        if columns == self._figure_columns:
            return
        self._figure_columns = columns
        for card in self._figure_cards:
            self.figures.removeWidget(card)
        for i, card in enumerate(self._figure_cards):
            self.figures.addWidget(card, i // columns, i % columns)
        for column in range(4):
            self.figures.setColumnStretch(column, 1 if column < columns else 0)

    def show_result(self, r: Result, currency_symbol: str, level_name: Callable[[str], str]) -> None:
        """Fill every part from ``r``; ``level_name`` gives an 80 PLUS level's shown name."""
        self.sustained_card.set(f"{r.sustained_w:.0f} W", self.tr("CPU at PL2/PPT, GPUs at full power"))
        self.recommended_card.set(f"{r.recommended_psu_w} W", self.tr("never below {w} W").format(w=round(r.minimum_psu_w)))
        self.peak_card.set(f"{r.peak_10ms_w:.0f} W", self.tr("{w} W for 100 µs").format(w=round(r.peak_100us_w)))
        self.wall_card.set(f"{r.cost.wall_w:.0f} W", self.tr("{cur} {day:.2f} per day ({hours} h)").format(
            cur=currency_symbol, day=r.cost.cost_per_day, hours=f"{r.cost.hours_per_day:g}"))
        levels = [self.tr("From the wall at {load}% load, by 80 PLUS level:").format(load=round(r.cost.load_pct))]
        levels += [f"{level_name(level)}: {wall:.0f} W ({eff:.1f}%)" for level, eff, wall in r.wall_by_level]
        self.wall_card.setToolTip("\n".join(levels))
        self._show_verdict(r)
        self._show_watts(r)
        self._show_why(r)
        plan_heading = self.tr("Cables and PCIe lanes")
        plan = [f"<b>{plan_heading}</b>"]
        plan += [f"{n} × {text}" if n > 1 else text for text, n in connector_lines(r, render)]
        plan.append(render(r.lanes.message))
        self.plan_label.setText("<br>".join(plan))
        self._show_warnings(r)

    def _show_verdict(self, r: Result) -> None:
        if r.verdict is None:
            self.verdict_label.setVisible(False)
            return
        texts = {Verdict.OK: self.tr("Your {w} W PSU is enough."),
                 Verdict.TIGHT: self.tr("Your {w} W PSU is enough, but below our recommendation."),
                 Verdict.INSUFFICIENT: self.tr("Your {w} W PSU is not enough for this build.")}
        colour = VERDICT_COLOURS[r.verdict]
        self.verdict_label.setText(f"<b style='color:{colour}'>{texts[r.verdict].format(w=round(r.build.psu_w or 0))}</b>")
        self.verdict_label.setVisible(True)

    def _show_watts(self, r: Result) -> None:
        capacity = r.build.psu_w or r.recommended_psu_w
        segments = [Segment(line.key, render(line.label), line.watts) for line in r.lines]
        psu_text = (self.tr("your PSU {w} W") if r.build.psu_w else self.tr("recommended PSU {w} W")).format(w=round(capacity))
        spike_text = self.tr("GPU spikes (10 ms) {w} W").format(w=round(r.peak_10ms_w))
        allowance = r.spike_allowance_10ms_w(capacity)
        allowance_text = (self.tr("ATX 3.x allows {w} W for 10 ms") if r.excursion_10ms_factor >= 1.6
                          else self.tr("ATX 2.x allows {w} W for 10 ms")).format(w=round(allowance))
        self.watt_bar.set_segments(segments, capacity, r.peak_10ms_w, psu_text, spike_text, allowance, allowance_text)
        legend = []
        for key in ("cpu", "gpu", "board", "ram", "storage", "cooling", "usb"):
            parts = [s for s in segments if s.key == key and s.watts > 0]
            if not parts:
                continue
            watts = sum(s.watts for s in parts)
            name = parts[0].label if len(parts) == 1 else self.tr("{n} GPUs").format(n=len(parts))
            legend.append(f"<span style='color:{SEGMENT_COLOURS[key]}'>&#9632;</span>&nbsp;{_unbroken(name)}&nbsp;{watts:.0f}&nbsp;W")
        legend.append("<b>&#9475;</b>&nbsp;" + _unbroken(psu_text))
        legend.append("<span style='color:#c0392b'><b>&#9478;</b></span>&nbsp;" + _unbroken(spike_text))
        legend.append("<span style='color:#2f9e44'><b>&#9482;</b></span>&nbsp;" + _unbroken(allowance_text))
        self.legend_label.setText(" &nbsp; ".join(legend))

    def _show_why(self, r: Result) -> None:
        why_heading = self.tr("Why {w} W").format(w=r.recommended_psu_w)
        why = [f"<b>{why_heading}</b>", render(r.reason_text())]
        others = [c for c in r.candidates if c.watts > 0 and c.key != r.deciding]  # the deciding rule is said above
        if others:
            why.append(self.tr("The other rules ask for less:"))
        for c in others:
            why.append(f"{render(c.label)}: {c.watts:.0f} W")
        missing = r.vendor_missing_text()
        if missing is not None:
            why.append(render(missing))
        if r.boundary is not None:
            why.append(f"<i>{render(r.boundary.message)}</i>")
        self.why_label.setText("<br>".join(why))

    def _show_warnings(self, r: Result) -> None:
        for label in self.warning_labels:
            self.warnings_box.removeWidget(label)
            label.deleteLater()
        self.warning_labels = []
        for w in listed_warnings(r):  # the lane split and the size boundary are in the cards above
            label = QLabel(render(w.message))
            label.setWordWrap(True)
            label.setObjectName(f"warning_{w.code}")
            colour = QColor(SEVERITY_COLOURS[w.severity])
            label.setStyleSheet(
                f"QLabel {{ border-left: 4px solid {colour.name()}; padding: 4px 8px; border-radius: 3px;"
                f" background-color: rgba({colour.red()}, {colour.green()}, {colour.blue()}, 28); }}")
            self.warnings_box.addWidget(label)
            self.warning_labels.append(label)


def _unbroken(text: str) -> str:
    """One legend entry that never wraps inside itself: no-break spaces, and a word joiner
    beside each non-ASCII character, since Chinese may otherwise break between any two."""
    out: list[str] = []
    for i, c in enumerate(text):
        if i and (ord(c) > 127 or ord(text[i - 1]) > 127):
            out.append("\u2060")
        out.append("&nbsp;" if c == " " else html.escape(c))
    return "".join(out)
