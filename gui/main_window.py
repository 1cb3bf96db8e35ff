"""The main window: a sidebar of tools and the page of the selected one."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSettings, QSize, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QFrame, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QMainWindow, QScrollArea, QStackedWidget, QToolButton,
    QVBoxLayout, QWidget,
)

from gui.context import AppContext
from gui.icons import app_icon, line_icon, sidebar_colours
from gui.pages import PAGES, page_arguments
from gui.i18n import app_display_name


class _PageHolder(QScrollArea):
    """One page of the stack, in a scroll area of its own.

    A QStackedWidget is as wide as the widest minimum of its pages: without this,
    a page that was once visited (a wide form, a long table header) would keep the
    whole window from getting narrower for the rest of the run. Pages reflow or
    elide to fit 1024x640; the scroll bars are the last resort for what cannot.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("pageHolder")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        inner = QWidget()
        inner.setObjectName("pageHolderInner")
        QVBoxLayout(inner).setContentsMargins(16, 12, 16, 12)
        self.setWidget(inner)

    def minimumSizeHint(self) -> QSize:
        return QSize(200, 200)

    def sizeHint(self) -> QSize:
        return QSize(800, 600)


class MainWindow(QMainWindow):
    """Sidebar + stacked pages. Pages are built the first time they are shown.

    Signals:
        page_changed(str): the key of the page now shown.
    """

    page_changed = Signal(str)

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        # Qt appends the application display name to titles that do not end with it
        # ("GPU Assistant 0.1.0 — GPU Assistant"): the version is in the About box instead.
        self.setWindowTitle(app_display_name())
        icon = app_icon()
        if not icon.isNull():
            self.setWindowIcon(icon)
        self._pages: dict[str, QWidget] = {}
        self._quitting = False
        # Set by the tray owner: returns True when closing should only hide the window.
        self.close_to_tray: Callable[[], bool] | None = None

        central = QWidget(self)
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        side = QWidget(central)
        side.setObjectName("sidebarPanel")
        side.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        side.setFixedWidth(190)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.setSpacing(0)
        brand = QLabel(app_display_name(), side)
        brand.setObjectName("sidebarBrand")
        self.sidebar = QListWidget(side)
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setIconSize(QSize(20, 20))
        self.sidebar.setFrameShape(QListWidget.Shape.NoFrame)
        side_layout.addWidget(brand)
        side_layout.addWidget(self.sidebar, 1)
        self.about_button = QToolButton(side)
        self.about_button.setObjectName("aboutButton")
        self.about_button.setText(self.tr("About {name}").format(name=app_display_name()))
        self.about_button.setIcon(self.windowIcon())
        self.about_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.about_button.setAutoRaise(True)
        self.about_button.clicked.connect(self._on_about_button_clicked)
        side_layout.addWidget(self.about_button, 0, Qt.AlignmentFlag.AlignLeft)
        side_layout.addSpacing(6)
        self.stack = QStackedWidget(central)
        self.stack.setObjectName("pageArea")
        layout.addWidget(side)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        icon_colour, selected_icon_colour = sidebar_colours(self.sidebar)
        for spec in PAGES:
            item = QListWidgetItem(spec.translated_title())
            item.setData(Qt.ItemDataRole.UserRole, spec.key)
            icon = line_icon(spec.icon, icon_colour, selected_icon_colour)
            if not icon.isNull():
                item.setIcon(icon)
            self.sidebar.addItem(item)
            self.stack.addWidget(_PageHolder())
        self.sidebar.currentRowChanged.connect(self._on_sidebar_row_changed)
        self.resize(1280, 820)

    # ---- Public API
    def show_page(self, key: str) -> QWidget:
        for row, spec in enumerate(PAGES):
            if spec.key == key:
                self.sidebar.setCurrentRow(row)
                return self.page(key)
        raise KeyError(key)

    def page(self, key: str) -> QWidget:
        """The page widget for ``key``, building it on first use."""
        if key not in self._pages:
            row = next(i for i, s in enumerate(PAGES) if s.key == key)
            spec = PAGES[row]
            widget = spec.load_class()(**page_arguments(key, self.context))
            holder = self.stack.widget(row)
            holder.widget().layout().addWidget(widget)
            self._pages[key] = widget
        return self._pages[key]

    def current_key(self) -> str:
        return PAGES[max(0, self.sidebar.currentRow())].key

    def shutdown(self) -> None:
        """Stop every page's timers and threads."""
        for widget in self._pages.values():
            stop = getattr(widget, "shutdown", None)
            if callable(stop):
                stop()

    def restore_state(self, settings: QSettings) -> None:
        geometry = settings.value("main_window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)

    def save_state(self, settings: QSettings) -> None:
        settings.setValue("main_window/geometry", self.saveGeometry())
        settings.setValue("main_window/page", self.current_key())

    # ---- Qt methods
    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._quitting and self.close_to_tray is not None and self.close_to_tray():
            event.ignore()
            return
        self.shutdown()
        super().closeEvent(event)

    def quit(self) -> None:
        self._quitting = True
        self.close()

    # ---- Slots
    def _on_about_button_clicked(self) -> None:
        from gui.about import AboutDialog

        AboutDialog(self.context.paths, self).exec()

    def _on_sidebar_row_changed(self, row: int) -> None:
        if row < 0:
            return
        key = PAGES[row].key
        self.page(key)
        self.stack.setCurrentIndex(row)
        self.page_changed.emit(key)
