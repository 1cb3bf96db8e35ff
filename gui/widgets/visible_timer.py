"""A polling timer that runs only while its page is on screen: a hidden page costs nothing."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


class VisibleTimer(QTimer):
    """Calls ``on_timeout`` every ``interval_ms`` while ``widget`` is shown (and ``should_run()``).

    It stops when the widget is hidden and starts again when it is shown.
    ``fire_on_show``: also call ``on_timeout`` at once when the widget is shown, so
    the page is fresh rather than up to one interval old. ``single_shot``: the page
    re-arms it with ``resume()`` when its work is done (a scan that takes a while).
    """

    def __init__(self, widget: QWidget, interval_ms: int, on_timeout: Callable[[], None], *,
                 should_run: Callable[[], bool] = lambda: True, fire_on_show: bool = False,
                 single_shot: bool = False, name: str = "") -> None:
        super().__init__(widget)
        if name:
            self.setObjectName(name)
        self.setInterval(interval_ms)
        self.setSingleShot(single_shot)
        self._widget = widget
        self._on_timeout = on_timeout
        self._should_run = should_run
        self._fire_on_show = fire_on_show
        self.timeout.connect(self._on_timer_timeout)
        widget.installEventFilter(self)

    # ---- Public API
    def resume(self) -> None:
        """Start (again) if the widget is on screen, it should run, and it is not running already."""
        if self._widget.isVisible() and not self.isActive() and self._should_run():
            self.start()

    # ---- Qt methods
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._widget:
            if event.type() == QEvent.Type.Show:
                self._on_widget_shown()
            elif event.type() == QEvent.Type.Hide:
                self.stop()
        return False

    # ---- Internals
    def _on_widget_shown(self) -> None:
        if self.isActive() or not self._should_run():
            return
        if not self.isSingleShot():
            self.start()
        if self._fire_on_show:
            self._on_timeout()

    def _on_timer_timeout(self) -> None:
        self._on_timeout()
