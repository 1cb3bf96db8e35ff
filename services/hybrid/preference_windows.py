"""Windows: the program's entry in HKCU\\Software\\Microsoft\\DirectX\\UserGpuPreferences, planned
as a ``PreferencePlan`` (the other tokens of its value are kept)."""
from __future__ import annotations

import os
from pathlib import PureWindowsPath
from collections.abc import Callable

from services.hybrid.windows import HKCU, Registry, RegistryError
from services.hybrid.preference import Change, PlanError, PreferencePlan, is_interpreter
from services.i18n import Msg, translate

USER_GPU_PREFERENCES = r"Software\Microsoft\DirectX\UserGpuPreferences"
HIGH_PERFORMANCE = "2"
USER_SPECIFIC = "1073741824"  # 0x40000000: a specific GPU chosen in Windows 11 (with SpecificAdapter)

PREFERENCE_WORDS = {
    "0": translate("Hybrid", "Let Windows decide"),
    "1": translate("Hybrid", "Power saving"),
    "2": translate("Hybrid", "High performance"),
    USER_SPECIFIC: translate("Hybrid", "A specific GPU"),
}


def describe_windows_preference(data: str | None) -> Msg:
    """What the user's UserGpuPreferences value says, in words."""
    value = parse_tokens(data).get("GpuPreference")
    if value is None:
        return translate("Hybrid", "Windows GPU preference: not set (Windows decides)")
    word = PREFERENCE_WORDS.get(value, translate("Hybrid", "unknown value {value}").format(value=value))
    return translate("Hybrid", "Windows GPU preference: {setting}").format(setting=word)


def parse_tokens(data: str | None) -> dict[str, str]:
    """'GpuPreference=2;SwapEffectUpgradeEnable=1;' -> ordered {name: value}."""
    tokens: dict[str, str] = {}
    for part in (data or "").split(";"):
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        tokens[key.strip()] = value.strip() if sep else ""
    return tokens


def format_tokens(tokens: dict[str, str]) -> str:
    return "".join(f"{key}={value};" for key, value in tokens.items())


def validate_windows_exe(path: str) -> str:
    pure = PureWindowsPath(path)
    if not pure.is_absolute() or not pure.drive:
        raise PlanError(translate("Hybrid", "Give the full path of the program, like C:\\Games\\game.exe"))
    if any(ch in path for ch in '"<>|?*'):
        raise PlanError(translate("Hybrid", "A Windows path cannot contain any of these characters: \" < > | ? *"))
    if pure.suffix.lower() != ".exe":
        raise PlanError(translate("Hybrid", "The preference is set on a program file ending in .exe"))
    return str(pure)


def plan_windows(registry: Registry, exe_path: str, exists: Callable[[str], bool] = os.path.exists) -> PreferencePlan:
    path = validate_windows_exe(exe_path)
    if not exists(path):
        raise PlanError(translate("Hybrid", "No program at {path}").format(path=path))
    try:
        current = registry.values(HKCU, USER_GPU_PREFERENCES)
    except RegistryError as exc:
        raise PlanError(translate("Hybrid", "Could not read the GPU preferences: {error}").format(error=str(exc))) from exc
    # Value names are paths, and Windows paths are case-insensitive: reuse the existing spelling.
    name = next((n for n in current if n.lower() == path.lower()), path)
    before = current.get(name)
    before = before if isinstance(before, str) else None
    tokens = parse_tokens(before)
    notes = [translate("Hybrid", "Restart the program: Windows applies the preference when it starts")]
    if tokens.get("GpuPreference") == USER_SPECIFIC:
        tokens.pop("SpecificAdapter", None)
        notes.append(translate("Hybrid", "It was set to one specific GPU; that choice is replaced by High performance"))
    new_tokens = {"GpuPreference": HIGH_PERFORMANCE}
    new_tokens.update({k: v for k, v in tokens.items() if k != "GpuPreference"})
    after = format_tokens(new_tokens)
    notes.append(translate("Hybrid", "CUDA programs run on the NVIDIA GPU anyway; this steers Direct3D, OpenGL and Vulkan"))
    notes.append(translate("Hybrid", "Since Windows 10 2004 this setting wins over the NVIDIA Control Panel's per-program choice"))
    if is_interpreter(path):
        notes.append(translate("Hybrid", "{name} is an interpreter: every script it runs gets this GPU").format(
            name=PureWindowsPath(path).name))
    change = Change("registry", f"HKCU\\{USER_GPU_PREFERENCES}", name, before, after)
    return PreferencePlan(program=path, platform="windows", changes=(change,), notes=tuple(notes))
