"""Where ``resources/`` is (translations, data files, icons), in a checkout or a bundle.

Apart from ``services.paths`` so that ``services.i18n`` can find the translation files without
importing ``services.paths``, whose errors are themselves translatable (no import cycle).
``services.paths`` re-exports all of it.
"""
from __future__ import annotations

import sys
from pathlib import Path


def find_resources_dir(frozen: bool, bundle_dir: str | None, module_file: str) -> Path:
    """Where ``resources/`` is, in a checkout or in a PyInstaller bundle.

    In a checkout it sits beside ``services/``. A PyInstaller build unpacks the
    data files under ``sys._MEIPASS`` (the ``_internal`` folder of a one-folder
    build), which is not where the frozen modules claim to live on every
    version, so the bundle's own directory is asked first.
    """
    if frozen and bundle_dir:
        return Path(bundle_dir) / "resources"
    return Path(module_file).resolve().parent.parent / "resources"


RESOURCES_DIR = find_resources_dir(bool(getattr(sys, "frozen", False)), getattr(sys, "_MEIPASS", None), __file__)


def resource_path(*parts: str) -> Path:
    """Path of a file under resources/ (works from a checkout and a bundle)."""
    return RESOURCES_DIR.joinpath(*parts)
