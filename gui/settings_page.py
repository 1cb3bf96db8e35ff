"""Settings: language and general behaviour. Tools add their own groups."""
from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFormLayout, QFrame, QGroupBox, QLabel, QScrollArea, QSpinBox, QVBoxLayout, QWidget,
)

from gui.i18n import render
from services.settings import SettingsStore


class SettingsPage(QWidget):
    """Edits ``Settings``; every change is saved at once.

    Signals:
        language_changed(str): the language setting ('auto', 'en', 'zh_CN') changed.
    """

    language_changed = Signal(str)

    def __init__(self, settings_store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._store = settings_store
        settings = self._store.settings
        # Scrolls: the tools' groups together are taller than a 768-pixel laptop screen, and as the
        # tallest page the settings set the whole window's minimum height.
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget(scroll)
        scroll.setWidget(body)
        outer.addWidget(scroll)
        layout = QVBoxLayout(body)
        title = self.tr("Settings")
        layout.addWidget(QLabel(f"<h2>{title}</h2>"))

        general = QGroupBox(self.tr("General"), self)
        form = QFormLayout(general)
        # Boxes as wide as their contents, not as the window (a language name in a 1000 px box).
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
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
        self.start_minimized_check = QCheckBox(self.tr("Start hidden in the tray (the window opens from the tray icon)"), general)
        self.start_minimized_check.setChecked(settings.general.start_minimized)
        self.start_minimized_check.toggled.connect(self._on_start_minimized_check_toggled)
        form.addRow(self.start_minimized_check)
        layout.addWidget(general)
        layout.addWidget(self._build_exporter_group(settings))
        self.sections_layout = QVBoxLayout()
        layout.addLayout(self.sections_layout)
        for section in tool_sections(settings_store, self):
            self.sections_layout.addWidget(section)
        layout.addStretch(1)
        # The Hosts page edits the same exporter settings: follow every save, or a stale box here
        # would write its old value back (changing the port used to switch the exporter off).
        listener = self._on_settings_saved
        store = self._store
        store.subscribe(listener)
        self.destroyed.connect(lambda *_: store.unsubscribe(listener))
        if self._store.load_problem:
            problem = render(self._store.load_problem_text) if self._store.load_problem_text else self._store.load_problem
            if self._store.load_corrected_only:  # the file was read: some values in it were not usable
                intro = self.tr("Some saved settings were out of range and were corrected: {problem}")
            else:
                intro = self.tr("Your settings file could not be read: {problem}")
            note = QLabel(intro.format(problem=problem))
            note.setWordWrap(True)
            note.setObjectName("loadNote")  # amber, as the other pages' warnings
            note.setStyleSheet("#loadNote { border: 1px solid #d9a400; border-left: 5px solid #d9a400;"
                               " border-radius: 6px; background: rgba(217, 164, 0, 28); padding: 8px 12px; }")
            layout.insertWidget(1, note)  # under the title, where it is seen without scrolling

    def _build_exporter_group(self, settings) -> QGroupBox:
        group = QGroupBox(self.tr("Metrics for Prometheus"), self)
        form = QFormLayout(group)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        self.exporter_check = QCheckBox(self.tr("Serve this computer's GPU metrics while the app runs"), group)
        self.exporter_check.setChecked(settings.exporter.run_in_background)
        self.exporter_check.toggled.connect(self._on_exporter_changed)
        form.addRow(self.exporter_check)
        self.exporter_host = QComboBox(group)
        self.exporter_host.addItem(self.tr("This computer only (127.0.0.1)"), "127.0.0.1")
        self.exporter_host.addItem(self.tr("All networks (0.0.0.0): put TLS and a password in front"), "0.0.0.0")
        index = self.exporter_host.findData(settings.exporter.host)
        if index < 0:
            self.exporter_host.addItem(settings.exporter.host, settings.exporter.host)
            index = self.exporter_host.count() - 1
        self.exporter_host.setCurrentIndex(index)
        self.exporter_host.currentIndexChanged.connect(self._on_exporter_changed)
        form.addRow(self.tr("Listen on"), self.exporter_host)
        self.exporter_port = QSpinBox(group)
        self.exporter_port.setRange(1, 65535)
        self.exporter_port.setValue(settings.exporter.port)
        self.exporter_port.editingFinished.connect(self._on_exporter_changed)
        form.addRow(self.tr("Port"), self.exporter_port)
        return group

    def _on_settings_saved(self, settings) -> None:
        exporter = settings.exporter
        for widget, update in (
            (self.exporter_check, lambda: self.exporter_check.setChecked(exporter.run_in_background)),
            (self.exporter_port, lambda: self.exporter_port.hasFocus() or self.exporter_port.setValue(exporter.port)),
            (self.tray_check, lambda: self.tray_check.setChecked(settings.general.keep_running_in_tray)),
            (self.start_minimized_check, lambda: self.start_minimized_check.setChecked(settings.general.start_minimized)),
        ):
            blocker = QSignalBlocker(widget)
            update()
            del blocker
        index = self.exporter_host.findData(exporter.host)
        if index >= 0 and index != self.exporter_host.currentIndex():
            blocker = QSignalBlocker(self.exporter_host)
            self.exporter_host.setCurrentIndex(index)
            del blocker

    def _on_exporter_changed(self, *_args) -> None:
        exporter = self._store.settings.exporter
        exporter.run_in_background = self.exporter_check.isChecked()
        exporter.host = self.exporter_host.currentData()
        exporter.port = self.exporter_port.value()
        self._store.save()

    def _on_language_combo_changed(self, _index: int) -> None:
        value = self.language_combo.currentData()
        self._store.settings.general.language = value
        self._store.save()
        self.language_changed.emit(value)

    def _on_start_minimized_check_toggled(self, checked: bool) -> None:
        self._store.settings.general.start_minimized = checked
        self._store.save()

    def _on_tray_check_toggled(self, checked: bool) -> None:
        self._store.settings.general.keep_running_in_tray = checked
        self._store.save()


def tool_sections(settings_store: SettingsStore, parent: QWidget) -> list[QWidget]:
    """Each tool's settings groups (today only monitoring has some)."""
    from gui.monitor.settings_groups import build_sections

    return list(build_sections(settings_store, parent))
