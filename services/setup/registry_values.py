"""The registry values a step sets, as reg.exe commands, and the saved values undo may put back."""
from __future__ import annotations

from services.setup.elevation import runs_as_user
from services.setup.plan import Argv


def registry_set(r) -> Argv:
    return ("reg", "add", r.key, "/v", r.name, "/t", r.kind, "/d", r.data, "/f")


# The registry types a step sets (RegistryChange.kind) and what their data may be: a saved value
# is put back only as the type the step itself writes, and only as data the step allows
# (RegistryChange.restorable): progress.json can be edited by any program running as the user, and
# undo writes what it says with administrator rights.
_DWORD_MAX = 0xFFFFFFFF


def registry_value_ok(r: dict, change) -> bool:  # change: services.setup.plan.RegistryChange
    data = r.get("data")
    if data is None:
        return True  # it was not set: undo deletes it
    kind = r.get("kind") or "REG_DWORD"
    if kind != change.kind or not isinstance(data, str) or len(data) > 1024:
        return False
    if kind == "REG_DWORD":
        try:
            number = _dword(data)
        except ValueError:
            return False
        if change.restorable:
            return str(number) in change.restorable
        return 0 <= number <= _DWORD_MAX
    if kind != "REG_SZ" or not data.isprintable():
        return False
    if runs_as_user(registry_restore(r)):
        return True  # the user's own hive, written as the user: nothing the user could not write anyway
    return data in (change.restorable or (change.data,))


def _dword(text: str) -> int:
    """A saved DWORD's number: reg.exe shows it in hex (0x...), the plan writes decimal."""
    text = text.strip().lower()
    return int(text, 16) if text.startswith("0x") else int(text, 10)


def registry_restore(r: dict) -> Argv:
    if r.get("data") is None:
        return ("reg", "delete", r["key"], "/v", r["name"], "/f")
    kind, data = r.get("kind") or "REG_DWORD", str(r["data"])
    if kind == "REG_DWORD":  # checked by registry_value_ok: written back in decimal, as reg.exe reads it
        data = str(_dword(data))
    return ("reg", "add", r["key"], "/v", r["name"], "/t", kind, "/d", data, "/f")
