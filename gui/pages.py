"""The sidebar's pages, in order; each page's module is imported when it is first shown, and the
page is built with what it shows (``page_arguments``)."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from gui.context import AppContext

if TYPE_CHECKING:
    from services.hybrid.service import HybridService


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # Qt's name, read by lupdate
    return text


@dataclass(frozen=True)
class PageSpec:
    key: str
    title: str  # English; translated in context "Pages"
    module: str
    class_name: str
    icon: str  # name of an SVG in resources/icons

    def translated_title(self) -> str:
        return QCoreApplication.translate("Pages", self.title)

    def load_class(self) -> type:
        return getattr(importlib.import_module(self.module), self.class_name)


PAGES: tuple[PageSpec, ...] = (
    PageSpec("dashboard", QT_TRANSLATE_NOOP("Pages", "Dashboard"), "gui.monitor.dashboard", "DashboardPage", "dashboard"),
    PageSpec("setup", QT_TRANSLATE_NOOP("Pages", "Setup"), "gui.setup.page", "SetupPage", "setup"),
    PageSpec("hybrid", QT_TRANSLATE_NOOP("Pages", "Hybrid GPU"), "gui.hybrid.page", "HybridPage", "hybrid"),
    PageSpec("psu", QT_TRANSLATE_NOOP("Pages", "Build & PSU"), "gui.psu.page", "PsuPage", "psu"),
    PageSpec("fit", QT_TRANSLATE_NOOP("Pages", "Model fit"), "gui.fit.page", "FitPage", "fit"),
    PageSpec("hosts", QT_TRANSLATE_NOOP("Pages", "Other hosts"), "gui.hosts.page", "HostsPage", "hosts"),
    PageSpec("settings", QT_TRANSLATE_NOOP("Pages", "Settings"), "gui.settings_page", "SettingsPage", "settings"),
)


def page_arguments(key: str, context: AppContext) -> dict[str, Any]:
    """What the page ``key`` is built with: the services and models it shows, taken out of the
    AppContext here and nowhere else (no page is handed the context itself)."""
    if key == "dashboard":
        assert context.telemetry_control is not None, "gui.app.build_context makes the controller"
        return {"settings_store": context.settings_store, "paths": context.paths,
                "telemetry": context.telemetry_control}
    if key == "setup":
        return {"paths": context.paths, "machine": context.setup_machine, "demo": bool(context.demo)}
    if key == "hybrid":
        return {"service": hybrid_service(context)}
    if key == "psu":
        return {"settings_store": context.settings_store, "hubs": context.hubs,
                "telemetry": context.telemetry_control, "language": context.language}
    if key == "fit":
        return {"settings_store": context.settings_store, "hubs": context.hubs,
                "recordings_dir": context.paths.recordings_dir}
    if key == "hosts":
        return {"settings_store": context.settings_store, "exporter": context.exporter}
    if key == "settings":
        return {"settings_store": context.settings_store}
    raise KeyError(key)


def hybrid_service(context: AppContext) -> HybridService:
    """The context's hybrid-GPU service, made on first use: the demo machine's cards in the demo
    (the ones the dashboard and Setup show), never this computer's; else this computer's."""
    if context.hybrid_service is None and context.demo:
        from services.hybrid.demo import demo_service

        context.hybrid_service = demo_service(context.paths.data_dir / "hybrid-demo")
    if context.hybrid_service is None:
        from services.hybrid.service import default_service

        context.hybrid_service = default_service()
    return context.hybrid_service
