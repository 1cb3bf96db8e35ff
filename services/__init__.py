"""Qt-free services: everything a panel shows comes from here.

Nothing in this package may import PySide6, pyqtgraph or ``gui`` (a test
enforces it), so the CLI and the tests can use every service headless.
"""
