"""The About box: version, where the files are, and the licence notes."""
from __future__ import annotations

import platform
import sys

import PySide6
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from gui.icons import app_icon
from gui.i18n import app_display_name
from services.paths import AppPaths
from services.version import APP_NAME, __version__


def version_report() -> str:
    """One line for bug reports: app, Python, Qt and OS versions (English on purpose)."""
    frozen = " (bundle)" if getattr(sys, "frozen", False) else ""
    return (f"{APP_NAME} {__version__}{frozen}; Python {platform.python_version()}; "
            f"Qt {qVersion()}; PySide6 {PySide6.__version__}; {platform.system()} {platform.release()}")


def _link(path) -> str:
    url = QUrl.fromLocalFile(str(path)).toString()
    return f'<a href="{url}">{path}</a>'


class AboutDialog(QDialog):
    """Shows ``version_report()``, the settings and data folders (as links) and the licence notes."""

    def __init__(self, paths: AppPaths, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About {name}").format(name=app_display_name()))
        icon = app_icon()
        self.setWindowIcon(icon)
        layout = QVBoxLayout(self)
        head = QHBoxLayout()
        logo = QLabel(self)
        logo.setPixmap(icon.pixmap(64, 64))
        head.addWidget(logo)
        title = QLabel(f"<h2>{app_display_name()}</h2>" + self.tr("Version {version}").format(version=__version__), self)
        title.setObjectName("about_version")
        head.addWidget(title, 1)
        layout.addLayout(head)

        self.report_label = QLabel(version_report(), self)
        self.report_label.setWordWrap(True)
        self.report_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.report_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        layout.addWidget(self.report_label)
        layout.addSpacing(6)

        folders = QLabel(
            self.tr("Settings folder: {path}").format(path=_link(paths.config_dir)) + "<br>"
            + self.tr("Data folder: {path}").format(path=_link(paths.data_dir)),
            self,
        )
        folders.setOpenExternalLinks(True)
        folders.setWordWrap(True)
        layout.addWidget(folders)
        layout.addSpacing(6)

        notes = QLabel(
            self.tr("Built with Qt for Python (PySide6, LGPL-3.0) and pyqtgraph (MIT). "
                    "It reads your GPU through the NVIDIA driver's own NVML library, which is not shipped with this app. "
                    "NVIDIA, GeForce and RTX are trademarks of NVIDIA Corporation; this app is not made by NVIDIA."),
            self,
        )
        notes.setWordWrap(True)
        layout.addWidget(notes)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = QPushButton(self.tr("Copy version info"), self)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self._on_copy_button_clicked)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(460)

    def _on_copy_button_clicked(self) -> None:
        QGuiApplication.clipboard().setText(version_report())
