"""Naming the card to plan for: a card name or model number ('RTX 4090', '4090') or a PCI id
('10de:2684'), looked up in the rules' id table."""
from __future__ import annotations

import re

from services.i18n import TranslatableError, translate
from services.setup.rules import Rules

PCI_ID = re.compile(r"^(?:10de:)?([0-9a-fA-F]{4})$")


class PciIdError(TranslatableError, ValueError):
    """Not a PCI id (or a card name the rules know). ``str(exc)`` is English; ``message`` the same
    sentence, translatable."""



def parse_pci_id(text: str) -> str:
    """'10de:2684' or '2684' -> '2684'; ``PciIdError`` (a ValueError) otherwise."""
    m = PCI_ID.match(text.strip())
    if not m:
        raise PciIdError(translate("Setup", "not an NVIDIA PCI id: {text} (expected something like 10de:2684)").format(
            text=repr(text)))
    return m.group(1).lower()


def resolve_card(rules: Rules, text: str) -> tuple[str, str]:
    """A card name or model number ('RTX 4090', '4090', 'h200') or an explicit PCI id
    ('10de:2684') -> (device id, name). A bare 4-digit text is a model number first: '4090'
    is the RTX 4090, not PCI id 10de:4090; it is read as a PCI id only when no card has that
    number in its name. ValueError with a sentence when it is neither."""
    text = (text or "").strip()
    if text.lower().startswith("10de:"):
        device_id = parse_pci_id(text)
        hit = next((g for g in rules.gpu_ids if g.device_id == device_id), None)
        return device_id, hit.name if hit else ""
    wanted = _normal_name(text)
    for g in rules.gpu_ids:
        if wanted and wanted in (_normal_name(g.name), _normal_name(f"{g.name} (10de:{g.device_id})")):
            return g.device_id, g.name
    found = search_cards(rules, text)
    if found:
        return found[0]
    try:
        typed_id: str | None = parse_pci_id(text)
    except ValueError:
        typed_id = None
    if typed_id:
        hit = next((g for g in rules.gpu_ids if g.device_id == typed_id), None)
        return typed_id, hit.name if hit else ""
    raise PciIdError(translate("Setup", "not a card GPU Assistant knows or a PCI id (like 10de:2684): {text}").format(
        text=repr(text)))


def card_names(rules: Rules) -> list[tuple[str, str]]:
    """(name, device id) once per card name, for a picker searched by name: the rules' id table has
    several ids for many cards (and test entries such as 'GTX 960 FAKE'), which are not for people."""
    out: dict[str, str] = {}
    for g in rules.gpu_ids:
        if "fake" in g.name.lower():
            continue
        out.setdefault(g.name, g.device_id)
    return list(out.items())


def search_cards(rules: Rules, text: str) -> list[tuple[str, str]]:
    """(device id, name) of the cards whose name holds every word of ``text`` ('4090', 'rtx 3060'),
    the plainest name first (the desktop card before 'Laptop GPU', 'Ti' or 'D' variants)."""
    words = _normal_name(text).split()
    if not words:
        return []
    pats = [re.compile(r"(?<![0-9a-z])" + re.escape(w) + r"(?![0-9a-z])") for w in words]
    hits = [(g.device_id, g.name) for g in rules.gpu_ids
            if "fake" not in g.name.lower() and all(p.search(_normal_name(g.name)) for p in pats)]
    unique = list({name: (device_id, name) for device_id, name in reversed(hits)}.values())[::-1]  # first of each name
    return sorted(unique, key=lambda h: ("laptop" in h[1].lower(), len(h[1])))


def _normal_name(name: str) -> str:
    return re.sub(r"\s+", " ", name.lower().replace("nvidia", "").replace("geforce", "")).strip()
