"""Pieces the setup tabs share: the page's style, the monospace font and the finding/diagnosis card."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from gui.i18n import render
from services.setup.findings import Fix
from services.setup.fmt import command_line

SEVERITY_COLORS = {"error": "#d64545", "warning": "#d99a1e", "info": "#3b82c4", "ok": "#2f9e5b"}
STYLE = """
QFrame#card { border: 1px solid palette(mid); border-left: 5px solid %s; border-radius: 6px; background: palette(base); }
QLabel#cardTitle { font-weight: 600; }
QLabel#muted { color: palette(dark); }
QLabel#badge { border-radius: 8px; padding: 1px 8px; color: white; background: #6b7280; }
QPlainTextEdit#commands { background: palette(alternate-base); }
"""

PAGE_STYLE = """
QLabel#cardTitle { font-weight: 600; font-size: 11pt; }
QLabel#badge { border-radius: 9px; padding: 2px 10px; color: white; background: #6b7280; }
QListWidget#steps::item { padding: 7px 4px; }
QFrame#facts { border: 1px solid palette(mid); border-radius: 6px; background: palette(base); }
"""


def mono_font() -> QFont:
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setPointSizeF(max(9.0, font.pointSizeF() - 0.5))
    return font


class CommandLines(QScrollArea):
    """Commands one per line, never wrapped (a wrap broke URLs after "https://"): a line wider than
    the card scrolls sideways. As tall as its lines, plus the scroll bar when one is needed."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(text)
        self.label.setObjectName("commandLines")
        self.label.setFont(mono_font())
        self.label.setWordWrap(False)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setStyleSheet("padding: 4px 6px; background: palette(alternate-base); border-radius: 4px;")
        self.setWidget(self.label)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._fit_height()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def _fit_height(self) -> None:
        hint = self.label.sizeHint()
        height = hint.height()
        if hint.width() > self.width():
            height += self.horizontalScrollBar().sizeHint().height()
        if self.height() != height or self.minimumHeight() != height:
            self.setFixedHeight(height)


def finding_card(severity: str, title: str, detail: str, fixes: Sequence[Fix], extra_lines: Sequence[str],
                 windows: bool, open_step: Callable[[str], None]) -> QFrame:
    """A coloured card: title, detail, extra lines and a row per fix (copy its commands, open its step)."""
    card = QFrame()
    card.setObjectName("card")
    card.setStyleSheet(STYLE % SEVERITY_COLORS.get(severity, "#888"))
    lay = QVBoxLayout(card)
    lay.setContentsMargins(12, 8, 12, 10)
    t = QLabel(title)
    t.setObjectName("cardTitle")
    t.setWordWrap(True)
    lay.addWidget(t)
    body = QLabel(detail)
    body.setWordWrap(True)
    body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    lay.addWidget(body)
    for line in extra_lines:
        extra = QLabel("• " + line)
        extra.setWordWrap(True)
        lay.addWidget(extra)
    for fix in fixes:
        lay.addWidget(fix_row(fix, windows, open_step))
    card.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
    return card


def fix_row(fix: Fix, windows: bool, open_step: Callable[[str], None]) -> QWidget:
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 4, 0, 0)
    head = QHBoxLayout()
    label = QLabel("→ " + render(fix.label))
    label.setWordWrap(True)
    head.addWidget(label, 1)
    text = "\n".join(command_line(c, windows) for c in fix.commands)
    if fix.commands:
        copy = QPushButton(QCoreApplication.translate("SetupPage", "Copy"))
        copy.clicked.connect(lambda _=False, t=text: QGuiApplication.clipboard().setText(t))
        head.addWidget(copy)
    if fix.step:
        go = QPushButton(QCoreApplication.translate("SetupPage", "Open in wizard"))
        go.clicked.connect(lambda _=False, s=fix.step: open_step(s))
        head.addWidget(go)
    lay.addLayout(head)
    if fix.commands:
        lay.addWidget(CommandLines(text))
    return box


def clear_cards(layout: QVBoxLayout) -> None:
    """Remove every card, keeping the trailing stretch."""
    while layout.count() > 1:
        item = layout.takeAt(0)
        if item.widget():
            item.widget().deleteLater()
