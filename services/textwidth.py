"""Column widths of text in a terminal: CJK characters take two columns, combining marks none.

``str.ljust`` counts characters, so a table with Chinese labels drifts right by one column per
character. Widths follow Unicode's East Asian Width property (UAX #11): 'W' (wide) and 'F'
(fullwidth) are two columns, as terminals and the Windows console draw them.
"""
from __future__ import annotations

import unicodedata


def display_width(text: str) -> int:
    """The number of terminal columns ``text`` takes."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def pad(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` columns (never cut)."""
    return text + " " * max(0, width - display_width(text))


def align_columns(rows: list[list[str]], gap: str = "  ") -> list[str]:
    """Rows of cells as lines whose columns line up on a terminal (trailing spaces dropped)."""
    widths = [max(display_width(row[c]) for row in rows) for c in range(len(rows[0]))]
    return [gap.join(pad(cell, widths[c]) for c, cell in enumerate(row)).rstrip() for row in rows]
