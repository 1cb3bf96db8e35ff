"""The build tab's results: the four figure cards, the verdict, where the watts go, why and the plan, warnings."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from gui.psu.widgets import FigureCard, WattBar


class ResultPanel(QWidget):
    """Shows a result; the page fills the labels and the bar."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.figures = QGridLayout()
        self.sustained_card = FigureCard(QCoreApplication.translate("PsuPage", "Sustained load"), self)
        self.recommended_card = FigureCard(QCoreApplication.translate("PsuPage", "Recommended PSU"), self)
        self.peak_card = FigureCard(QCoreApplication.translate("PsuPage", "GPU spikes (10 ms)"), self)
        self.wall_card = FigureCard(QCoreApplication.translate("PsuPage", "From the wall"), self)
        self._figure_cards = (self.sustained_card, self.recommended_card, self.peak_card, self.wall_card)
        for card in self._figure_cards:
            card.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._figure_columns = 0
        self.reflow_figures(4)
        layout.addLayout(self.figures)
        self.verdict_label = QLabel("", self)
        self.verdict_label.setWordWrap(True)
        layout.addWidget(self.verdict_label)
        watts_heading = QCoreApplication.translate("PsuPage", "Where the watts go")
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
