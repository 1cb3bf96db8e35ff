"""Qt's translators for the GUI, plus rendering of services' ``Msg`` objects."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from services.i18n import TRANSLATIONS_DIR, Msg, text_of


def _qt_tr(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


def app_display_name() -> str:
    """The app's name in the UI language ("GPU 助手" in Chinese); the English name stays in English."""
    return QCoreApplication.translate("App", "GPU Assistant")


def render(value: Msg | str | None) -> str:
    """Text of a service message in the current UI language."""
    if value is None:
        return ""
    return text_of(value, _qt_tr)


class TranslatorSet:
    """Installs the app's and Qt's own translators for one language."""

    def __init__(self) -> None:
        self._installed: list[QTranslator] = []
        self.language = "en"

    def install(self, app: QCoreApplication, language: str) -> None:
        self.remove(app)
        self.language = language
        if language == "en":
            QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
            return
        QLocale.setDefault(QLocale(language))
        files = sorted(TRANSLATIONS_DIR.glob(f"*_{language}.qm"))
        for qm in files:
            translator = QTranslator(app)
            if translator.load(str(qm)):
                app.installTranslator(translator)
                self._installed.append(translator)
        qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        qt_translator = QTranslator(app)
        if qt_translator.load(f"qtbase_{language}", qt_dir):
            app.installTranslator(qt_translator)
            self._installed.append(qt_translator)

    def remove(self, app: QCoreApplication) -> None:
        for translator in self._installed:
            app.removeTranslator(translator)
        self._installed.clear()
