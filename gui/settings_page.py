"""Settings: language and general behaviour. Tools add their own groups."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFormLayout, QGroupBox, QLabel, QVBoxLayout, QWidget,
)

from gui.context import AppContext


class SettingsPage(QWidget):
    """Edits ``Settings``; every change is saved at once.

    Signals:
        language_changed(str): the language setting ('auto', 'en', 'zh_CN') changed.
    """

    language_changed = Signal(str)

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._store = context.settings_store
        settings = self._store.settings
        layout = QVBoxLayout(self)
        title = self.tr("Settings")
        layout.addWidget(QLabel(f"<h2>{title}</h2>"))

        general = QGroupBox(self.tr("General"), self)
        form = QFormLayout(general)
        self.language_combo = QComboBox(general)
        self.language_combo.addItem(self.tr("Follow the system"), "auto")
        self.language_combo.addItem("English", "en")
        self.language_combo.addItem("简体中文", "zh_CN")
        self.language_combo.setCurrentIndex(max(0, self.language_combo.findData(settings.general.language)))
        self.language_combo.currentIndexChanged.connect(self._on_language_combo_changed)
        form.addRow(self.tr("Language"), self.language_combo)
        self.tray_check = QCheckBox(self.tr("Keep monitoring in the tray when the window is closed"), general)
        self.tray_check.setChecked(settings.general.keep_running_in_tray)
        self.tray_check.toggled.connect(self._on_tray_check_toggled)
        form.addRow(self.tray_check)
        layout.addWidget(general)
        self.sections_layout = QVBoxLayout()
        layout.addLayout(self.sections_layout)
        for section in tool_sections(context, self):
            self.sections_layout.addWidget(section)
        layout.addStretch(1)
        if self._store.load_problem:
            note = QLabel(self.tr("Your settings file could not be read: {problem}").format(problem=self._store.load_problem))
            note.setWordWrap(True)
            layout.addWidget(note)

    def _on_language_combo_changed(self, _index: int) -> None:
        value = self.language_combo.currentData()
        self._store.settings.general.language = value
        self._store.save()
        self.language_changed.emit(value)

    def _on_tray_check_toggled(self, checked: bool) -> None:
        self._store.settings.general.keep_running_in_tray = checked
        self._store.save()


def tool_sections(context: AppContext, parent: QWidget) -> list[QWidget]:
    """Each tool's settings groups, from the tools that are part of this build."""
    import importlib

    sections: list[QWidget] = []
    for module_name in ("gui.monitor.settings_groups",):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        sections.extend(module.build_sections(context, parent))
    return sections
