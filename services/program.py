"""Facts about this program that both front ends (the GUI and the command line) need."""
from __future__ import annotations

import sys


def program_name() -> str:
    """How the user starts this program, for commands we print: the bundle's
    launcher when frozen (PyInstaller), else the checkout's main.py."""
    return "gpu-assistant" if getattr(sys, "frozen", False) else "python main.py"
