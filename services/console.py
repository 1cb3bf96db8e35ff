"""Text output that never fails on the console's code page.

On Windows, output sent to a pipe or a file (``> log.txt``, ``| findstr``) is encoded with the ANSI
code page: 1252 on an English Windows, 936 (GBK) on a Simplified Chinese one. Python's default
there is ``errors="strict"``, so one character the code page lacks (``≥`` on 1252, any Chinese on
1252, ``✓`` on 936) ends the command with a UnicodeEncodeError. Chinese on a 936 console is written
as it is; what a code page cannot hold is written as a readable ASCII stand-in (``≥`` → ``>=``,
``→`` → ``->``) or, failing that, ``?``. The text itself never changes, only how it is encoded.
"""
from __future__ import annotations

import codecs
import sys
from typing import TextIO

from services.i18n import translate

# The lines a program prints on stderr around its own text, for both front ends (the commands and the
# window's ``--screenshot``); {message} is already translated.
ERROR_LINE = translate("Cli", "error: {message}")
NOTE_LINE = translate("Cli", "note: {message}")
WARNING_LINE = translate("Cli", "warning: {message}")

ERROR_HANDLER = "gpu_assistant_readable"

# Symbols our messages use, in a form every code page holds (ASCII). Several of them are in 1252 or
# 936 themselves: the stand-in is only used where the code page lacks the character.
READABLE: dict[str, str] = {
    "\u00b0": " deg",  # °
    "\u00b1": "+/-",  # ±
    "\u00b2": "^2",  # ²
    "\u00b5": "u",  # µ
    "\u00d7": "x",  # ×
    "\u00f7": "/",  # ÷
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "--", "\u2015": "--",
    "\u2018": "'", "\u2019": "'", "\u201a": ",", "\u201b": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"',
    "\u2022": "*",  # •
    "\u2026": "...",  # …
    "\u2032": "'", "\u2033": '"',
    "\u2190": "<-", "\u2192": "->", "\u2191": "^", "\u2193": "v", "\u2194": "<->", "\u21d2": "=>",
    "\u2212": "-",  # minus sign
    "\u2248": "~=", "\u2243": "~=", "\u223c": "~",
    "\u2260": "!=", "\u2264": "<=", "\u2265": ">=",
    "\u221e": "inf",
    "\u2502": "|", "\u2500": "-", "\u2588": "#", "\u2591": ".", "\u2592": ":", "\u2593": "#",
    "\u25b2": "^", "\u25bc": "v", "\u25cf": "*", "\u25cb": "o",
    "\u2713": "OK", "\u2714": "OK", "\u2717": "X", "\u2718": "X",
    "\u00a0": " ", "\u202f": " ", "\u2009": " ", "\u200b": "",
    "\u3000": " ",  # ideographic space
    "\uff08": "(", "\uff09": ")", "\uff0c": ",", "\uff1a": ":", "\uff1b": ";", "\u3001": ",", "\u3002": ".",
}


def readable_replace(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: ASCII stand-ins for known symbols, ``?`` for the rest."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    bad = exc.object[exc.start:exc.end]
    return "".join(READABLE.get(ch, "?") for ch in bad), exc.end


def _register() -> None:
    try:
        codecs.lookup_error(ERROR_HANDLER)
    except LookupError:
        codecs.register_error(ERROR_HANDLER, readable_replace)


def make_readable(stream: TextIO | None) -> None:
    """Keep ``stream``'s encoding but let it degrade instead of raising on what that encoding lacks."""
    _register()
    reconfigure = getattr(stream, "reconfigure", None)
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    if reconfigure is None or encoding in ("utf8", "utf8sig", "utf16", "utf32"):
        return  # UTF-8 (a Linux terminal, the Windows console, PYTHONUTF8) holds every character
    try:
        reconfigure(errors=ERROR_HANDLER)
    except (ValueError, OSError):  # a closed or detached stream: nothing will be written to it
        pass


def configure_output() -> None:
    """Make stdout and stderr safe for any text; called once at start-up."""
    make_readable(sys.stdout)
    make_readable(sys.stderr)
