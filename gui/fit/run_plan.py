"""The "How to run it" tab: services.modelfit.plan's options for the chosen card, best first, each with
the memory it leaves and the speed to expect; each command can be copied (its "Copy" link, or the
button for the best one)."""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from gui.i18n import render
from services.modelfit.plan import RunPlan

FIT_COLOR, RAM_COLOR, NO_COLOR = "#3f7d00", "#c62828", "#52606d"


class RunPlanView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plan: RunPlan | None = None
        self.copied: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        # A text browser wraps long command lines reliably at any width (list items elided them).
        self.browser = QTextBrowser()
        self.browser.setObjectName("fitPlanText")
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._on_link)
        layout.addWidget(self.browser, 1)
        row = QHBoxLayout()
        self.fit_label = QLabel()
        self.fit_label.setWordWrap(True)
        self.fit_label.setProperty("role", "muted")
        row.addWidget(self.fit_label, 1)
        self.copy_button = QPushButton(self.tr("Copy the best command"))
        self.copy_button.setToolTip(self.tr("Copy the first option's command line (or Modelfile lines)"))
        self.copy_button.clicked.connect(lambda: self.copy_option(0))
        row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(row)
        self.show_plan(None)

    def show_plan(self, plan: RunPlan | None, reason: str = "") -> None:
        self.plan = plan
        self.fit_label.setText("")
        if plan is None or not plan.options:
            text = reason or self.tr("Pick a GPU and the inference task to see how to run the model.")
            self.browser.setHtml(f"<p>{html.escape(text)}</p>")
            self.copy_button.setEnabled(False)
            return
        parts = []
        copy = html.escape(self.tr("Copy"))
        for i, o in enumerate(plan.options):
            if o.fits and o.ram_ok:
                state = self.tr("~{tps:.0f} tokens/s").format(tps=o.tokens_per_s) if o.tokens_per_s else self.tr("fits")
                color = FIT_COLOR
            elif o.fits:
                state, color = self.tr("needs more system RAM than this PC has"), RAM_COLOR
            else:
                state, color = self.tr("does not fit"), NO_COLOR
            head = self.tr("{title}: {gpu:.1f} GiB on the GPU, {host:.1f} GiB in system RAM · {state}").format(
                title=render(o.title), gpu=o.gpu_gib, host=o.host_gib, state=state)
            weight = "bold" if i == 0 and o.fits and o.ram_ok else "normal"
            command = html.escape(o.command).replace("\n", "<br>")
            parts.append(f'<p style="margin:2px 0 0 0; color:{color}; font-weight:{weight}">{html.escape(head)} '
                         f'<a href="copy:{i}">{copy}</a></p>'
                         f'<p style="margin:0 0 6px 16px; font-family:monospace">{command}</p>')
        self.browser.setHtml("".join(parts))
        self.fit_label.setText(render(plan.llamacpp_fit) if plan.llamacpp_fit is not None else "")
        self.copy_button.setEnabled(True)

    def copy_option(self, index: int) -> None:
        if self.plan is None or not 0 <= index < len(self.plan.options):
            return
        self.copied = self.plan.options[index].command
        QGuiApplication.clipboard().setText(self.copied)

    def _on_link(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("copy:") and text[5:].isdigit():
            self.copy_option(int(text[5:]))
