"""The Windows registry, read only: ``winreg`` on Windows, recorded ``reg query`` text elsewhere.

The doctor, the checks and the backups before a change read it through ``RegistryReader``, so
tests and plans for another machine use reg.exe's output format instead of the real registry.
"""
from __future__ import annotations

import re
import sys
from typing import Any, Protocol

from services.setup.system import Runner

# (type name, data as text): DWORD/QWORD as decimal, MULTI_SZ joined with "\\0" (as reg.exe shows it).
RegValue = tuple[str, str]


class RegistryError(Exception):
    """The registry could not be read (access denied, ...); one line."""


class RegistryReader(Protocol):
    """Read-only registry access for the doctor, the checks and the backups before a change."""

    def values(self, key: str) -> dict[str, RegValue]: ...  # {} when the key is absent
    def value(self, key: str, name: str) -> RegValue | None: ...  # None when absent
    def tree(self, key: str) -> dict[str, dict[str, RegValue]]: ...  # {full subkey path: values}, recursive


_HIVE_NAMES = {
    "HKLM": "HKEY_LOCAL_MACHINE", "HKEY_LOCAL_MACHINE": "HKEY_LOCAL_MACHINE",
    "HKCU": "HKEY_CURRENT_USER", "HKEY_CURRENT_USER": "HKEY_CURRENT_USER",
    "HKCR": "HKEY_CLASSES_ROOT", "HKEY_CLASSES_ROOT": "HKEY_CLASSES_ROOT",
    "HKU": "HKEY_USERS", "HKEY_USERS": "HKEY_USERS",
}


def split_key(key: str) -> tuple[str, str]:
    """``HKLM\\SOFTWARE\\X`` -> (``HKEY_LOCAL_MACHINE``, ``SOFTWARE\\X``); ValueError for an unknown hive."""
    hive, _, path = key.partition("\\")  # "/" is a legal character in a key name
    full = _HIVE_NAMES.get(hive.upper())
    if full is None:
        raise ValueError(f"unknown registry hive in {key!r}")
    return full, path.strip("\\")


class WinregReader:
    """``RegistryReader`` on the real registry, through ``winreg`` (no reg.exe output to parse)."""

    def __init__(self) -> None:
        import winreg as winreg_module  # Windows only; imported here so the module loads on Linux

        winreg: Any = winreg_module  # typeshed has winreg on win32 only; mypy checks as on Linux

        self._winreg = winreg
        self._kinds = {winreg.REG_SZ: "REG_SZ", winreg.REG_EXPAND_SZ: "REG_EXPAND_SZ", winreg.REG_DWORD: "REG_DWORD",
                       winreg.REG_QWORD: "REG_QWORD", winreg.REG_MULTI_SZ: "REG_MULTI_SZ", winreg.REG_BINARY: "REG_BINARY",
                       winreg.REG_NONE: "REG_NONE"}

    def _open(self, key: str):
        hive, path = split_key(key)
        return self._winreg.OpenKey(getattr(self._winreg, hive), path)

    def _text(self, kind: int, data: Any) -> RegValue:
        name = self._kinds.get(kind, f"REG_{kind}")
        if isinstance(data, (list, tuple)):
            return name, "\\0".join(str(x) for x in data)
        if isinstance(data, (bytes, bytearray)):
            return name, bytes(data).hex()
        if data is None:
            return name, ""
        return name, str(data)

    def values(self, key: str) -> dict[str, RegValue]:
        try:
            with self._open(key) as handle:
                return self._read_values(handle)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise RegistryError(f"{key}: {exc.strerror or exc}") from exc

    def _read_values(self, handle) -> dict[str, RegValue]:
        out: dict[str, RegValue] = {}
        for i in range(self._winreg.QueryInfoKey(handle)[1]):
            name, data, kind = self._winreg.EnumValue(handle, i)
            out[name] = self._text(kind, data)
        return out

    def value(self, key: str, name: str) -> RegValue | None:
        try:
            with self._open(key) as handle:
                data, kind = self._winreg.QueryValueEx(handle, name)
                return self._text(kind, data)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise RegistryError(f"{key}\\{name}: {exc.strerror or exc}") from exc

    def tree(self, key: str) -> dict[str, dict[str, RegValue]]:
        out: dict[str, dict[str, RegValue]] = {}
        winreg = self._winreg

        def walk(path: str, depth: int) -> None:
            try:
                with self._open(path) as handle:
                    out[path] = self._read_values(handle)
                    subkeys = [winreg.EnumKey(handle, i) for i in range(winreg.QueryInfoKey(handle)[0])]
            except OSError:  # absent, or a subkey we may not read (e.g. Properties under a driver key)
                return
            if depth < 4:
                for sub in subkeys:
                    walk(f"{path}\\{sub}", depth + 1)

        walk(key, 0)
        return out


class RegQueryTextReader:
    """``RegistryReader`` answering from ``reg query`` text through a ``Runner``: how tests on Linux
    replay output recorded on real Windows machines. On Windows the app uses ``WinregReader``."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    def _query(self, argv: list[str]) -> str | None:
        r = self.runner.run(argv, timeout=30)
        if r.ok:
            return r.stdout
        if r.returncode == 1:  # reg.exe: 1 = key or value not found
            return None
        raise RegistryError(r.output or f"reg query failed ({r.returncode})")

    def values(self, key: str) -> dict[str, RegValue]:
        return parse_reg_query(self._query(["reg", "query", key]) or "")

    def value(self, key: str, name: str) -> RegValue | None:
        return parse_reg_query(self._query(["reg", "query", key, "/v", name]) or "").get(name)

    def tree(self, key: str) -> dict[str, dict[str, RegValue]]:
        return parse_reg_query_tree(self._query(["reg", "query", key, "/s"]) or "")


def default_registry(runner: Runner) -> RegistryReader:
    """The real registry on Windows; elsewhere (tests, planning for another machine) recorded text."""
    return WinregReader() if sys.platform == "win32" else RegQueryTextReader(runner)


def parse_reg_query(text: str) -> dict[str, RegValue]:
    """``reg query`` output (recorded on real Windows) -> {value name: (type, data)}; DWORDs as decimal strings."""
    values: dict[str, RegValue] = {}
    for line in text.splitlines():
        m = re.match(r"^\s{4}(?P<name>.+?)\s{4}(?P<type>REG_[A-Z_]+)(?:\s{4}(?P<data>.*))?$", line)
        if not m:
            continue
        kind, data = m.group("type"), (m.group("data") or "").strip()
        if kind in ("REG_DWORD", "REG_QWORD") and data.lower().startswith("0x"):
            data = str(int(data, 16))
        values[m.group("name")] = (kind, data)
    return values


def parse_reg_query_tree(text: str) -> dict[str, dict[str, RegValue]]:
    """``reg query KEY /s`` output -> {subkey path: values}."""
    tree: dict[str, dict[str, RegValue]] = {}
    current = None
    block: list[str] = []
    for line in text.splitlines() + ["HKEY_END"]:
        if line.startswith("HKEY_"):
            if current is not None:
                tree[current] = parse_reg_query("\n".join(block))
            current, block = line.strip(), []
        else:
            block.append(line)
    tree.pop("HKEY_END", None)
    return tree
