"""Where the app keeps its files.

``GPU_ASSISTANT_HOME`` moves config and data under one folder: the tests set it
so they never touch the user's real settings or recordings.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from services.version import APP_ID

HOME_ENV = "GPU_ASSISTANT_HOME"


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


@dataclass(frozen=True, slots=True)
class AppPaths:
    config_dir: Path
    data_dir: Path

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def recordings_dir(self) -> Path:
        return self.data_dir / "recordings"

    @classmethod
    def default(cls) -> "AppPaths":
        home = os.environ.get(HOME_ENV)
        if home:
            root = Path(home)
            return cls(config_dir=root / "config", data_dir=root / "data")
        return cls(
            config_dir=Path(_platformdirs().user_config_dir(APP_ID, appauthor=False)),
            data_dir=Path(_platformdirs().user_data_dir(APP_ID, appauthor=False)),
        )


def resource_path(*parts: str) -> Path:
    """Path of a file under resources/ (works from a checkout and a bundle)."""
    return RESOURCES_DIR.joinpath(*parts)


def _platformdirs():  # noqa: ANN202
    """Imported when a path is first needed: commands that read no settings skip its cost."""
    import platformdirs

    return platformdirs
