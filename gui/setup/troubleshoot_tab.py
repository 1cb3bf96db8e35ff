"""The setup page's Troubleshooter tab: paste an error, get the known causes and fixes for this machine."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QScrollArea, QVBoxLayout, QWidget

from gui.i18n import render
from gui.setup.cards import clear_cards, finding_card, mono_font
from services.setup.doctor_report import DoctorReport
from services.setup.troubleshoot import explain, no_match_message


class TroubleshootTab(QWidget):
    def __init__(self, windows: bool, open_step: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._windows = windows
        self._open_step = open_step
        self.report: DoctorReport | None = None  # the page hands in the doctor's latest report
        lay = QVBoxLayout(self)
        hint = QLabel(QCoreApplication.translate("SetupPage", "Paste an error message (the whole traceback is fine). The answer uses what the doctor found on this machine."))
        hint.setWordWrap(True)
        lay.addWidget(hint)
        self.error_edit = QPlainTextEdit()
        self.error_edit.setFont(mono_font())
        self.error_edit.setPlaceholderText("RuntimeError: CUDA error: no kernel image is available for execution on the device")
        self.error_edit.setMaximumHeight(170)
        lay.addWidget(self.error_edit)
        row = QHBoxLayout()
        self.explain_button = QPushButton(QCoreApplication.translate("SetupPage", "Explain"))
        self.explain_button.setProperty("primary", True)
        self.explain_button.clicked.connect(lambda: self.explain_text(self.error_edit.toPlainText()))
        row.addWidget(self.explain_button)
        row.addStretch(1)
        lay.addLayout(row)
        area = QScrollArea()
        area.setWidgetResizable(True)
        host = QWidget()
        self.answers_layout = QVBoxLayout(host)
        self.answers_layout.addStretch(1)
        area.setWidget(host)
        lay.addWidget(area, 1)


    def explain_text(self, text: str) -> list:
        found = explain(text, self.report)
        clear_cards(self.answers_layout)
        if not found:
            label = QLabel(render(no_match_message()))
            label.setWordWrap(True)
            self.answers_layout.insertWidget(0, label)
            return found
        for i, d in enumerate(found):
            card = finding_card("warning", render(d.title), render(d.cause), d.fixes, [render(m) for m in d.on_this_machine],
                                self._windows, self._open_step)
            self.answers_layout.insertWidget(i, card)
        return found
