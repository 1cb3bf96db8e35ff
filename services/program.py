"""Facts about this program that both front ends (the GUI and the command line) need."""
from __future__ import annotations

import gc
import os
import sys

# While the program starts, the cyclic garbage collector runs every this many net allocations
# instead of every 700: start-up makes tens of thousands of objects (modules, classes, functions)
# that all live until the program exits, and scanning them over and over finds nothing to free.
# About 40 collections of a one-shot ``monitor --once --json`` (some 5 ms of its ~150 ms) go away.
# Collection still happens, only less often, so nothing piles up even where start_up_done() is
# never called.
START_UP_GC_THRESHOLD = 50_000
_normal_gc_thresholds: tuple[int, ...] | None = None


def program_name() -> str:
    """How the user starts this program, for commands we print: the bundle's
    launcher when frozen (PyInstaller), else the checkout's main.py."""
    return "gpu-assistant" if getattr(sys, "frozen", False) else "python main.py"


def collect_less_while_starting() -> None:
    """Raise the collector's first threshold until start_up_done() (``main.py`` run as a program)."""
    global _normal_gc_thresholds
    if _normal_gc_thresholds is None:
        _normal_gc_thresholds = gc.get_threshold()
        gc.set_threshold(START_UP_GC_THRESHOLD, *_normal_gc_thresholds[1:])


def start_up_done() -> None:
    """Back to the normal collector thresholds: called by what keeps running (the window, a
    log, the exporter) once it has started. A no-op when collect_less_while_starting() was not called."""
    global _normal_gc_thresholds
    if _normal_gc_thresholds is not None:
        gc.set_threshold(*_normal_gc_thresholds)
        _normal_gc_thresholds = None


def nothing_left_to_finish() -> bool:
    """True when the interpreter's own teardown would only free memory: no other thread is
    running and nothing is registered to run at exit (``logging``, temporary folders, thread
    pools, ``weakref.finalize`` and coverage tools all register there)."""
    import atexit
    import threading

    pending = getattr(atexit, "_ncallbacks", None)  # CPython; elsewhere: always the normal exit
    return pending is not None and pending() == 0 and threading.active_count() == 1


def end_now_if_done(code: int) -> None:
    """End a finished command at once, its output flushed, when nothing is left to finish.

    Tearing down the interpreter (every module's globals, the last garbage collection) takes
    about 25 ms, a fifth of ``monitor --once --json``, and changes nothing outside the process.
    Returns (and the caller exits the usual way) when a thread or an exit handler is still there,
    or when flushing the output fails: the interpreter then reports it as it always does.
    """
    if not isinstance(code, int) or not nothing_left_to_finish():
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        return
    os._exit(code)
