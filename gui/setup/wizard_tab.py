"""The setup page's wizard tab: the plan's target bar, the step list and one step's detail.

The tab owns its controls and says what the person asked for through signals; the page
(which holds the session and runs the steps) answers by filling the controls.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFrame, QHBoxLayout, QLabel, QListWidget, QPlainTextEdit, QPushButton, QScrollArea, QSplitter,
    QVBoxLayout, QWidget,
)

from gui.i18n import render
from gui.setup.cards import SEVERITY_COLORS, mono_font
from services.setup.fmt import command_line
from services.setup.plan import SkippedStep, Step
from services.setup.session import StepActions


class WizardTab(QWidget):
    run_requested = Signal()
    skip_requested = Signal()
    mark_done_requested = Signal()
    copy_requested = Signal()
    check_requested = Signal()
    undo_requested = Signal()
    pick_file_requested = Signal(str)  # the plan option: driver_package | ddu_exe
    step_selected = Signal(int)  # the row picked in the step list
    dry_run_toggled = Signal(bool)
    full_toggled = Signal(bool)  # "Reinstall everything"
    target_changed = Signal(str)  # "here" | "other"
    plan_other_requested = Signal()  # "Show the plan" for another machine

    def __init__(self, targets: Iterable[Any], gpu_ids: Iterable[Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.addLayout(self._build_target_bar(targets, gpu_ids))
        self.plan_summary = QLabel(QCoreApplication.translate("SetupPage", "The plan appears after the checks."))
        self.plan_summary.setWordWrap(True)
        self.plan_summary.setObjectName("cardTitle")
        lay.addWidget(self.plan_summary)
        self.plan_notes = QLabel("")
        self.plan_notes.setWordWrap(True)
        lay.addWidget(self.plan_notes)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        self.step_list = QListWidget()
        self.step_list.setObjectName("steps")
        self.step_list.setWordWrap(True)
        self.step_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.step_list.setMinimumWidth(200)
        self.step_list.setMaximumWidth(340)
        split.addWidget(self.step_list)
        detail = QWidget()
        d = QVBoxLayout(detail)
        d.setContentsMargins(8, 0, 4, 0)
        self.step_title = QLabel("")
        self.step_title.setObjectName("cardTitle")
        self.step_title.setWordWrap(True)
        d.addWidget(self.step_title)
        self.step_flags = QLabel("")
        self.step_flags.setProperty("role", "muted")
        self.step_flags.setWordWrap(True)
        d.addWidget(self.step_flags)
        self.step_text = QLabel("")
        self.step_text.setWordWrap(True)
        self.step_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.step_text.setOpenExternalLinks(True)
        d.addWidget(self.step_text)
        files_row = QHBoxLayout()
        self.pick_driver_button = QPushButton(QCoreApplication.translate("SetupPage", "Choose driver package…"))
        self.pick_ddu_button = QPushButton(QCoreApplication.translate("SetupPage", "Choose DDU…"))
        files_row.addWidget(self.pick_driver_button)
        files_row.addWidget(self.pick_ddu_button)
        files_row.addStretch(1)
        d.addLayout(files_row)
        changes = QLabel(QCoreApplication.translate("SetupPage", "What runs, and every file it writes (full path and contents):"))
        changes.setWordWrap(True)
        d.addWidget(changes)
        self.step_commands = QPlainTextEdit()
        self.step_commands.setObjectName("commands")
        self.step_commands.setReadOnly(True)
        # One command per line: wrapping broke URLs mid-way ("https://" / "download...").
        self.step_commands.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.step_commands.setFont(mono_font())
        self.step_commands.setMinimumHeight(80)
        self.step_commands.setMaximumHeight(150)
        d.addWidget(self.step_commands)
        undo_label = QLabel(QCoreApplication.translate("SetupPage", "Undo (what it restores, from which backup):"))
        undo_label.setWordWrap(True)
        d.addWidget(undo_label)
        self.undo_text = QPlainTextEdit()
        self.undo_text.setObjectName("commands")
        self.undo_text.setReadOnly(True)
        self.undo_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.undo_text.setFont(mono_font())
        self.undo_text.setMinimumHeight(50)
        self.undo_text.setMaximumHeight(80)
        d.addWidget(self.undo_text)
        self.run_button = QPushButton(QCoreApplication.translate("SetupPage", "Run"))
        self.run_button.setProperty("primary", True)
        self.dry_run_check = QCheckBox(QCoreApplication.translate("SetupPage", "Dry run"))
        self.dry_run_check.setToolTip(QCoreApplication.translate("SetupPage", "Show every action without changing anything (run and undo)"))
        self.skip_button = QPushButton(QCoreApplication.translate("SetupPage", "Skip"))
        self.done_button = QPushButton(QCoreApplication.translate("SetupPage", "Mark done"))
        self.copy_button = QPushButton(QCoreApplication.translate("SetupPage", "Copy commands"))
        self.check_step_button = QPushButton(QCoreApplication.translate("SetupPage", "Check"))
        self.undo_button = QPushButton(QCoreApplication.translate("SetupPage", "Undo"))
        self.step_output = QPlainTextEdit()
        self.step_output.setReadOnly(True)
        self.step_output.setFont(mono_font())
        # Commands and their output line by line: a wrap broke URLs after "https://"; long lines scroll.
        self.step_output.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.step_output.setMinimumHeight(70)
        self.step_output.setPlaceholderText(QCoreApplication.translate("SetupPage", "What ran and what it printed appears here."))
        d.addWidget(self.step_output, 1)
        # The detail scrolls as a whole in a small window instead of squeezing its parts; the buttons
        # stay below it, always in view (at 1024x640 Run sat below the fold inside the scroll).
        self.detail_area = QScrollArea()
        self.detail_area.setWidgetResizable(True)
        self.detail_area.setFrameShape(QFrame.Shape.NoFrame)
        self.detail_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        detail.setMinimumHeight(420)
        self.detail_area.setWidget(detail)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.detail_area, 1)
        # Two rows: one row of seven buttons does not fit a 1024 px window in Chinese.
        for group in ((self.run_button, self.dry_run_check, self.undo_button, self.check_step_button),
                      (self.skip_button, self.done_button, self.copy_button)):
            row = QHBoxLayout()
            row.setContentsMargins(8, 0, 4, 0)
            for w in group:
                row.addWidget(w)
            row.addStretch(1)
            side_layout.addLayout(row)
        split.addWidget(side)
        split.setStretchFactor(1, 1)
        lay.addWidget(split, 1)
        self._wire()

    def _wire(self) -> None:
        self.run_button.clicked.connect(lambda: self.run_requested.emit())
        self.skip_button.clicked.connect(lambda: self.skip_requested.emit())
        self.done_button.clicked.connect(lambda: self.mark_done_requested.emit())
        self.copy_button.clicked.connect(lambda: self.copy_requested.emit())
        self.check_step_button.clicked.connect(lambda: self.check_requested.emit())
        self.undo_button.clicked.connect(lambda: self.undo_requested.emit())
        self.pick_driver_button.clicked.connect(lambda: self.pick_file_requested.emit("driver_package"))
        self.pick_ddu_button.clicked.connect(lambda: self.pick_file_requested.emit("ddu_exe"))
        self.step_list.currentRowChanged.connect(self.step_selected)
        self.dry_run_check.toggled.connect(self.dry_run_toggled)
        self.full_check.toggled.connect(self.full_toggled)
        self.target_combo.currentIndexChanged.connect(lambda _i: self.target_changed.emit(self.target_combo.currentData() or ""))
        self.plan_other_button.clicked.connect(lambda: self.plan_other_requested.emit())

    def show_actions(self, can: StepActions) -> None:
        """Enable the buttons the open step allows (``WizardSession.actions``)."""
        self.run_button.setEnabled(can.run)
        self.skip_button.setEnabled(can.skip)
        self.check_step_button.setEnabled(can.check)
        self.copy_button.setEnabled(can.copy)
        self.dry_run_check.setEnabled(can.copy)
        self.undo_button.setEnabled(can.undo)
        self.done_button.setEnabled(can.mark_done)
        self.pick_driver_button.setVisible(can.pick_driver)
        self.pick_ddu_button.setVisible(can.pick_ddu)

    def show_skipped(self, skipped: SkippedStep | None, commands: list[str]) -> None:
        """A step the doctor found not needed (None: no step is open), with the commands it would run."""
        self.step_title.setText(render(skipped.step.title) if skipped else "")
        self.step_flags.setText(QCoreApplication.translate("SetupPage", "not in this plan") if skipped else "")
        self.step_text.setText(render(skipped.reason) + "<br>" + QCoreApplication.translate("SetupPage", "Tick 'Reinstall everything' to do it anyway.") if skipped else "")
        self.step_commands.setPlainText("\n".join(commands) if skipped else "")
        self.undo_text.setPlainText("")

    def show_step(self, step: Step, flags: Iterable[str], status: str | None, commands: list[str], undo: list[str],
                  dry: bool) -> None:
        """One step of the plan: ``flags`` from ``step_flags``; ``status`` its state here (None: the
        plan is another machine's); ``commands`` and ``undo`` as the executor describes them."""
        self.step_title.setText(render(step.title))
        flag_words = {"admin": QCoreApplication.translate("SetupPage", "needs administrator rights"),
                      "root": QCoreApplication.translate("SetupPage", "needs root (asks for your password)"),
                      "reboot": QCoreApplication.translate("SetupPage", "restarts the computer"),
                      "by hand": QCoreApplication.translate("SetupPage", "you do this step")}
        shown = [flag_words[f] for f in flags]
        if status is None:
            shown.append(QCoreApplication.translate("SetupPage", "for another machine"))
        else:
            words = {"done": QCoreApplication.translate("SetupPage", "done"), "skipped": QCoreApplication.translate("SetupPage", "skipped"),
                     "failed": QCoreApplication.translate("SetupPage", "failed"), "undone": QCoreApplication.translate("SetupPage", "undone"),
                     "pending": QCoreApplication.translate("SetupPage", "not run yet"),
                     "already-done": QCoreApplication.translate("SetupPage", "already done (its check passes)"),
                     "waits": QCoreApplication.translate("SetupPage", "waits: a step before it still needs doing, or ran after it")}
            shown.append(QCoreApplication.translate("SetupPage", "status: {state}").format(state=words.get(status, status)))
        self.step_flags.setText("  ·  ".join(shown))
        text = render(step.explanation)
        if step.link:
            text += f'<br><a href="{step.link}">{step.link}</a>'
        if step.source:
            text += "<br><small>" + QCoreApplication.translate("SetupPage", "Source: {source}").format(source=step.source) + "</small>"
        self.step_text.setText(text)
        self.step_commands.setPlainText("\n".join(commands) or QCoreApplication.translate("SetupPage", "(no commands: follow the explanation)"))
        self.undo_text.setPlainText("\n".join(undo))
        self.run_button.setText(QCoreApplication.translate("SetupPage", "Show what would run") if dry else QCoreApplication.translate("SetupPage", "Run"))
        self.undo_button.setText(QCoreApplication.translate("SetupPage", "Show the undo") if dry else QCoreApplication.translate("SetupPage", "Undo"))

    def show_target(self, other: bool) -> None:
        """The bar for another machine (system and card) or for this computer ('Reinstall everything')."""
        self.other_box.setVisible(other)
        self.full_check.setVisible(not other)
        self.target_error.setVisible(False)

    def choose_other(self, os_key: str | None, card: str | None) -> tuple[Any, str, Any]:
        """Switch to 'Another machine' with system ``os_key`` and ``card`` (None: keep the one chosen);
        returns (the system's key, the card as typed, the known card's id, else the typed text)."""
        if os_key is not None:
            self.os_combo.setCurrentIndex(max(0, self.os_combo.findData(os_key)))
        if card is not None:
            self.card_combo.setEditText(card)
        if self.target_combo.currentData() != "other":
            self.target_combo.setCurrentIndex(self.target_combo.findData("other"))
        text = self.card_combo.currentText()
        index = self.card_combo.findText(text)
        return self.os_combo.currentData(), text, self.card_combo.itemData(index) if index >= 0 else text

    def show_target_error(self, text: str | None) -> None:
        """Why the other machine's card is not known (None: hide it)."""
        if text is not None:
            self.target_error.setText(text)
        self.target_error.setVisible(text is not None)

    def append_log(self, log: Iterable[Any], windows: bool) -> None:
        """The commands a step ran (``StepOutcome.log``) and what they printed."""
        for entry in log:
            self.append_output("$ " + command_line(entry.argv, windows))
            if entry.output.strip():
                self.append_output(entry.output.rstrip())

    def append_output(self, text: str) -> None:
        self.step_output.appendPlainText(text)
        # the buttons stay in view below the scroll; bring what the click printed into view too
        self.detail_area.ensureWidgetVisible(self.step_output, 0, 0)

    def _build_target_bar(self, targets: Iterable[Any], gpu_ids: Iterable[Any]) -> QVBoxLayout:
        """This computer (with 'reinstall everything') or another machine (system + card)."""
        box = QVBoxLayout()
        row = QHBoxLayout()
        row.addWidget(QLabel(QCoreApplication.translate("SetupPage", "Plan for:")))
        self.target_combo = QComboBox()
        self.target_combo.addItem(QCoreApplication.translate("SetupPage", "This computer"), "here")
        self.target_combo.addItem(QCoreApplication.translate("SetupPage", "Another machine"), "other")
        row.addWidget(self.target_combo)
        self.full_check = QCheckBox(QCoreApplication.translate("SetupPage", "Reinstall everything"))
        self.full_check.setToolTip(QCoreApplication.translate("SetupPage", "Show every step, also those the doctor found not needed (on Windows: the clean reinstall with DDU)"))
        row.addWidget(self.full_check)
        row.addStretch(1)
        box.addLayout(row)
        self.other_box = QWidget()
        other = QHBoxLayout(self.other_box)
        other.setContentsMargins(0, 0, 0, 0)
        other.addWidget(QLabel(QCoreApplication.translate("SetupPage", "System:")))
        self.os_combo = QComboBox()
        self.os_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.os_combo.setMinimumContentsLength(14)
        for t in targets:
            self.os_combo.addItem(t.label, t.key)
        other.addWidget(self.os_combo, 1)
        other.addWidget(QLabel(QCoreApplication.translate("SetupPage", "Card:")))
        self.card_combo = QComboBox()
        self.card_combo.setEditable(True)
        self.card_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.card_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.card_combo.setMinimumContentsLength(16)
        self.card_combo.lineEdit().setPlaceholderText(QCoreApplication.translate("SetupPage", "Card name or model number (4090), or a PCI id"))
        # One row per card name (gpu_ids: (name, device id) from planner.card_names), searched by any part
        # of the name: typing '4090' offers the RTX 4090 family, not PCI id 10de:4090.
        for name, _device_id in gpu_ids:
            self.card_combo.addItem(name, name)
        completer = self.card_combo.completer()
        if completer is not None:
            completer.setFilterMode(Qt.MatchFlag.MatchContains)
            completer.setCompletionMode(completer.CompletionMode.PopupCompletion)
        self.card_combo.setCurrentIndex(-1)
        other.addWidget(self.card_combo, 1)
        self.plan_other_button = QPushButton(QCoreApplication.translate("SetupPage", "Show the plan"))
        other.addWidget(self.plan_other_button)
        self.other_box.setVisible(False)
        box.addWidget(self.other_box)
        self.target_error = QLabel("")
        self.target_error.setWordWrap(True)
        self.target_error.setStyleSheet(f"color: {SEVERITY_COLORS['error']};")
        self.target_error.setVisible(False)
        box.addWidget(self.target_error)
        return box
