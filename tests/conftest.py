"""Test set-up shared by every test.

- Qt runs offscreen unless a test says otherwise.
- ``GPU_ASSISTANT_HOME`` and QSettings point into a temporary folder, so no test
  reads or writes the user's real settings or recordings.
- After each GUI test, no QTimer or QThread started during the test may still
  be running (the napari rule): a leaked timer is a test failure.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LANG", "en_US.UTF-8")
# The tests' machine speaks English unless a test asks for Chinese (with --lang zh_CN or its own
# LANG): a Chinese locale in the environment must not change what every other test reads. It is
# there on a Chinese developer's Linux, and under Wine, which hands the Unix LANG/LC_ALL to Windows
# programs (a real Windows has no such variables: the setdefault above already pins it there).
for _var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
    if os.environ.get(_var, "").lower().startswith("zh"):
        os.environ[_var] = "en_US.UTF-8"
if sys.platform == "win32" and os.environ["QT_QPA_PLATFORM"] == "offscreen":
    # Qt's offscreen platform on Windows reads fonts with FreeType from <Qt>/lib/fonts, which PySide6
    # does not ship (a Qt warning, and no glyphs); point it at the Windows fonts instead.
    os.environ.setdefault("QT_QPA_FONTDIR", os.path.join(os.environ.get("WINDIR", r"C:\Windows"), "Fonts"))


def _under_wine() -> bool:
    """Wine's ntdll exports wine_get_version; a real Windows' does not."""
    if sys.platform != "win32":
        return False
    import ctypes

    try:
        return hasattr(ctypes.WinDLL("ntdll"), "wine_get_version")
    except OSError:
        return False


def pytest_collection_modifyitems(config, items):
    """``windows`` tests need the real Windows APIs, ``linux_only`` ones Linux itself; ``wine_limit``
    ones need what Wine lacks of Windows, so they skip under Wine alone, never on a real Windows."""
    on_windows = sys.platform == "win32"
    wine = _under_wine()
    for item in items:
        wine_limit = item.get_closest_marker("wine_limit")
        if wine_limit is not None and wine:
            item.add_marker(pytest.mark.skip(reason="Wine limit: " + (wine_limit.args[0] if wine_limit.args else "")))
        if "windows" in item.keywords and not on_windows:
            item.add_marker(pytest.mark.skip(reason="Windows only: runs in the Windows lane (.ci/windows-lane.sh)"))
        linux_only = item.get_closest_marker("linux_only")
        if linux_only is not None and on_windows:
            why = linux_only.args[0] if linux_only.args else linux_only.kwargs.get("reason", "")
            item.add_marker(pytest.mark.skip(reason=f"Linux only: {why}" if why else "Linux only"))


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("gpu-assistant-home")
    monkeypatch.setenv("GPU_ASSISTANT_HOME", str(home))
    monkeypatch.delenv("GPU_ASSISTANT_LANG", raising=False)  # main.py --lang sets it for one command
    yield home


@pytest.fixture(autouse=True)
def _no_dangling_python_threads():
    """Fail a test that leaves a Python thread it started still running."""
    import threading

    before = set(threading.enumerate())
    yield
    leaked = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    for thread in leaked:
        thread.join(timeout=2.0)  # a stopping thread gets a moment to finish
    still = [t.name for t in leaked if t.is_alive()]
    if still:
        pytest.fail("threads left running after the test: " + ", ".join(still))


@pytest.fixture
def app_paths(_isolated_home):
    from services.paths import AppPaths

    return AppPaths.default()


def _qt_loaded() -> bool:
    return "PySide6.QtCore" in sys.modules


@pytest.fixture(autouse=True)
def _no_dangling_qt_timers_or_threads(request, monkeypatch):
    """Fail a test that leaves a QTimer or QThread running."""
    if not _qt_loaded():
        yield
        return
    from PySide6.QtCore import QSettings, QThread, QTimer

    home = os.environ["GPU_ASSISTANT_HOME"]
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, home)
    started_timers: list = []
    started_threads: list = []
    timer_start = QTimer.start
    thread_start = QThread.start

    def recording_timer_start(self, *args):
        started_timers.append(self)
        return timer_start(self, *args)

    def recording_thread_start(self, *args):
        started_threads.append(self)
        return thread_start(self, *args)

    monkeypatch.setattr(QTimer, "start", recording_timer_start)
    monkeypatch.setattr(QThread, "start", recording_thread_start)
    yield
    leaks = []
    for timer in started_timers:
        try:
            if timer.isActive():
                leaks.append(f"QTimer {timer.objectName() or timer!r}")
                timer.stop()
        except RuntimeError:  # already deleted by Qt: fine
            pass
    for thread in started_threads:
        try:
            if thread.isRunning():
                leaks.append(f"QThread {thread.objectName() or thread!r}")
                thread.quit()
                thread.wait(2000)
        except RuntimeError:
            pass
    if leaks:
        pytest.fail("left running after the test: " + ", ".join(leaks))
