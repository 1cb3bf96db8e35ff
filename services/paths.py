"""Where the app keeps its files.

``GPU_ASSISTANT_HOME`` moves config and data under one folder: the tests set it
so they never touch the user's real settings or recordings.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from services.version import APP_ID

HOME_ENV = "GPU_ASSISTANT_HOME"
RESOURCES_DIR = Path(__file__).resolve().parent.parent / "resources"


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
            config_dir=Path(platformdirs.user_config_dir(APP_ID, appauthor=False)),
            data_dir=Path(platformdirs.user_data_dir(APP_ID, appauthor=False)),
        )


def resource_path(*parts: str) -> Path:
    """Path of a file under resources/ (works from a checkout and a bundle)."""
    return RESOURCES_DIR.joinpath(*parts)
