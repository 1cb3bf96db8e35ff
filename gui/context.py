"""What every page is given: the services it may use. Built by ``gui.app``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.paths import AppPaths
from services.settings import SettingsStore


@dataclass
class AppContext:
    paths: AppPaths
    settings_store: SettingsStore
    language: str = "en"
    demo: bool = False
    # The telemetry hub (services.telemetry), or None when it is not running.
    telemetry: Any = None
    # Services a page may share with others, by name (filled by gui.app).
    extras: dict[str, Any] = field(default_factory=dict)
