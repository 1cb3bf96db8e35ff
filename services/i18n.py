"""Translatable text for Qt-free code.

Services never hand a finished sentence to the UI. They return a ``Msg``, made
with ``translate(context, text)`` so that ``pyside6-lupdate`` extracts it into
the same ``.ts`` files the GUI uses; arguments are added with ``.format()``:

    translate("Throttle", "Held back by heat since {since}").format(since=t)

The GUI renders a ``Msg`` through Qt's translators (``gui.i18n.render``); the
CLI renders it through a ``Catalog`` read from the ``.ts`` files. ``str(msg)``
is the English text. Keep ``translate`` calls to exactly two string literals:
lupdate skips calls with more arguments.
"""
from __future__ import annotations

import locale
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable, Mapping

LANGUAGES = ("en", "zh_CN")

Translator = Callable[[str, str], str]


@dataclass(frozen=True, slots=True)
class Msg:
    """A sentence in English plus what is needed to translate it later."""

    context: str
    text: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def format(self, **args: Any) -> "Msg":
        return Msg(self.context, self.text, {**self.args, **args})

    def render(self, tr: Translator | None = None) -> str:
        template = tr(self.context, self.text) if tr else self.text
        if not self.args:
            return template
        values = {k: _render_arg(v, tr) for k, v in self.args.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            # A broken translation must never hide the message: fall back to English.
            return self.text.format(**values)

    def __str__(self) -> str:
        return self.render(None)


def translations_dir() -> Path:
    """The folder of the ``.ts``/``.qm`` files. Found when first needed: code that only makes
    ``Msg`` objects (``monitor --once --json``) does not need ``services.resources``."""
    from services.resources import resource_path

    return resource_path("translations")


def __getattr__(name: str) -> Any:
    """``TRANSLATIONS_DIR`` (module constant, computed on first use)."""
    if name == "TRANSLATIONS_DIR":
        value = globals()[name] = translations_dir()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _render_arg(value: Any, tr: Translator | None) -> Any:
    if isinstance(value, Msg):
        return value.render(tr)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Msg) for v in value):
        return ", ".join(v.render(tr) for v in value)
    return value


def translate(context: str, text: str) -> Msg:
    """Mark ``text`` for translation; returns a lazy ``Msg``."""
    return Msg(context, text)


class TranslatableError(Exception):
    """An error told to a person: ``str(exc)`` is one line in English (logs, JSON output, tests);
    ``message`` is the same sentence as a translatable ``Msg`` (or a plain str), which the CLI
    (``cli.fail``) and the GUI (``gui.i18n.render``) show in the user's language."""

    def __init__(self, message: "Msg | str") -> None:
        super().__init__(str(message).strip())
        self.message = message


def text_of(value: "Msg | str", tr: Translator | None = None) -> str:
    return value.render(tr) if isinstance(value, Msg) else str(value)


def system_language() -> str:
    """'zh_CN' when the system locale is Chinese, else 'en'."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        val = os.environ.get(var)
        if val:
            return "zh_CN" if val.lower().startswith("zh") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "zh_CN" if loc.lower().startswith(("zh", "chinese")) else "en"


# ``main.py --lang zh_CN <command>``: this run's language, over the setting (main.py sets it).
LANGUAGE_OVERRIDE_ENV = "GPU_ASSISTANT_LANG"


def resolve_language(setting: str | None) -> str:
    """Map a settings value ('auto', 'en', 'zh_CN') to a language we ship; ``--lang`` wins."""
    override = os.environ.get(LANGUAGE_OVERRIDE_ENV)
    if override in LANGUAGES:
        return override
    if setting in LANGUAGES:
        return setting
    return system_language()


class Catalog:
    """Translations read straight from the ``.ts`` files (no Qt needed)."""

    def __init__(self, entries: Mapping[tuple[str, str], str] | None = None) -> None:
        self._entries = dict(entries or {})

    @classmethod
    def load(cls, language: str, directory: Path | None = None) -> "Catalog":
        """The catalogue of ``language`` from ``directory`` (default: the app's translations folder)."""
        entries: dict[tuple[str, str], str] = {}
        if directory is None:
            directory = translations_dir()
        if language == "en" or not directory.is_dir():
            return cls(entries)
        for ts in sorted(directory.glob(f"*_{language}.ts")):
            entries.update(read_ts(ts))
        return cls(entries)

    def tr(self, context: str, text: str) -> str:
        return self._entries.get((context, text)) or text

    def render(self, value: "Msg | str") -> str:
        return text_of(value, self.tr)

    def __len__(self) -> int:
        return len(self._entries)


def read_ts(path: Path) -> dict[tuple[str, str], str]:
    """Finished translations of one Qt Linguist ``.ts`` file."""
    entries: dict[tuple[str, str], str] = {}
    import xml.etree.ElementTree as ET  # only when a catalogue is read: the CLI's JSON output never needs it

    root = ET.parse(path).getroot()
    for ctx in root.iter("context"):
        name = ctx.findtext("name", "")
        for message in ctx.iter("message"):
            source = message.findtext("source")
            node = message.find("translation")
            if source is None or node is None:
                continue
            if node.get("type") in ("unfinished", "obsolete", "vanished"):
                continue
            if node.text:
                entries[(name, source)] = node.text
    return entries
