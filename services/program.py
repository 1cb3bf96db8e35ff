"""Facts about this program that both front ends (the GUI and the command line) need."""
from __future__ import annotations

import gc
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
