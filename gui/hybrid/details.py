"""The hybrid page's details panel: the selected program's GPU, the evidence, and the actions."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QBoxLayout, QFrame, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from gui.hybrid.programs import PLACEMENT_COLOURS
from gui.i18n import render
from services.hybrid.model import ProcessReport

MUTED = "#52606d"


def esc(text: str) -> str:
    """``text`` safe inside rich text."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class ProgramDetails(QFrame):
    """Which GPU the selected program uses and why, "Run on the NVIDIA GPU", "Launch and check…",
    "Undo", and a line that says how the last action went. The page wires the buttons."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("details")
        self.setStyleSheet("#details { background: #ffffff; border: 1px solid #d9e2ec; border-radius: 8px; }")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 12, 14, 12)
        self.program_label = QLabel(self.tr("Select a program to see which GPU it uses and why."))
        self.program_label.setWordWrap(True)
        self.program_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.program_label)
        self.verdict_label = QLabel()
        self.verdict_label.setWordWrap(True)
        layout.addWidget(self.verdict_label)
        evidence_text = self.tr("Evidence")
        layout.addWidget(QLabel(f"<b>{evidence_text}</b>"))
        self.evidence_label = QLabel()
        self.evidence_label.setWordWrap(True)
        self.evidence_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.evidence_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.evidence_label)
        layout.addWidget(scroll, 1)
        layout.addLayout(self._build_buttons())
        self.action_label = QLabel()
        self.action_label.setWordWrap(True)
        self.action_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.action_label)

    def _build_buttons(self) -> QBoxLayout:
        buttons = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self._action_buttons = buttons
        self.prefer_button = QPushButton(self.tr("Run on the NVIDIA GPU"))
        self.prefer_button.setProperty("primary", True)
        # the theme's primary style has no disabled look; a disabled action must not look clickable
        self.prefer_button.setStyleSheet(
            "QPushButton:disabled { background: #e4e7eb; border-color: #e4e7eb; color: #9aa5b1; }")
        self.launch_button = QPushButton(self.tr("Launch and check…"))
        self.undo_button = QPushButton(self.tr("Undo"))
        self.undo_button.hide()
        buttons.addWidget(self.prefer_button)
        buttons.addWidget(self.launch_button)
        buttons.addWidget(self.undo_button)
        buttons.addStretch(1)
        return buttons

    # ---- Public API
    def set_stacked(self, stacked: bool) -> None:
        """Buttons one under the other (a narrow page) or side by side."""
        direction = QBoxLayout.Direction.TopToBottom if stacked else QBoxLayout.Direction.LeftToRight
        if self._action_buttons.direction() != direction:
            self._action_buttons.setDirection(direction)

    def show_nothing(self, ended: bool) -> None:
        """No program selected, or (``ended``) the selected one has gone."""
        self.program_label.setText(self.tr("That program has ended.") if ended
                                   else self.tr("Select a program to see which GPU it uses and why."))
        self.verdict_label.clear()
        self.evidence_label.clear()

    def show_report(self, report: ProcessReport, placement: str, basis: str, preference: str | None) -> None:
        """``placement`` and ``basis`` in words; ``preference``: the GPU setting it has now, if any."""
        where = esc(report.exe) if report.exe else ""
        self.program_label.setText(f"<b style='font-size:14pt'>{esc(report.name)}</b>"
                                   f"<br><span style='color:{MUTED}'>PID {report.pid} {where}</span>")
        colour = PLACEMENT_COLOURS[report.placement]
        self.verdict_label.setText(
            f"<span style='font-size:13pt; color:{colour}'><b>{placement}</b></span>"
            f" &nbsp; <span style='color:{MUTED}'>{basis}</span>")
        lines = ["• " + esc(render(m)) for m in report.evidence]
        if preference is not None:
            lines.append(f"<br><span style='color:{MUTED}'>{esc(preference)}</span>")
        self.evidence_label.setText("<br>".join(lines))

    def say(self, html: str, error: bool = False, muted: bool = False) -> None:
        colour = "#b00020" if error else MUTED if muted else "palette(text)"
        self.action_label.setText(f"<span style='color:{colour}'>{html}</span>")

    def says_why_not(self) -> bool:
        """The action line holds a muted "why the button is off" note."""
        return self.action_label.text().startswith(f"<span style='color:{MUTED}'>")
