"""Linux: a launcher script that sets the PRIME render offload variables and a desktop entry with
PrefersNonDefaultGPU=true, planned as a ``PreferencePlan``."""
from __future__ import annotations

import os
import re
from pathlib import Path
from collections.abc import Iterable

from services.hybrid.model import GpuKind, Inventory, Vendor
from services.hybrid.preference import Change, PlanError, PreferencePlan, is_interpreter, read_file_text
from services.i18n import translate

NVIDIA_OFFLOAD_ENV: tuple[tuple[str, str], ...] = (
    ("__NV_PRIME_RENDER_OFFLOAD", "1"),
    ("__GLX_VENDOR_LIBRARY_NAME", "nvidia"),
    ("__VK_LAYER_NV_optimus", "NVIDIA_only"),
)
MARKER = "Made by GPU Assistant"


def offload_environment(inventory: Inventory) -> tuple[tuple[str, str], ...]:
    """Variables that put OpenGL/Vulkan on the discrete GPU (empty: there is none to prefer)."""
    nvidia = [a for a in inventory.adapters if a.vendor is Vendor.NVIDIA]
    proprietary = [a for a in nvidia if a.driver in ("nvidia", None)]
    if proprietary:
        return NVIDIA_OFFLOAD_ENV
    # Mesa drives it (nouveau, amdgpu, an Arc card): DRI_PRIME picks the device by PCI path.
    candidates = nvidia or [a for a in inventory.adapters if a.kind is GpuKind.DISCRETE and not a.drives_display]
    for adapter in candidates:
        if adapter.pci_address:
            tag = "pci-" + re.sub(r"[:.]", "_", adapter.pci_address)
            return (("DRI_PRIME", tag),)
    return ()


_RESERVED = set(' \t\n"\'\\><~|&;$*?#()`')


def has_control_chars(text: str) -> bool:
    """C0 controls (CR, LF, ...) and DEL: never valid in a desktop entry value or an Exec argument."""
    return any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text)


def desktop_exec_quote(arg: str) -> str:
    """Quote one argument for a desktop entry's Exec key (Desktop Entry Spec, "The Exec key"),
    including the string-value escaping of backslashes that applies on top. Control characters
    cannot be written in an Exec key at all: refused (a CR would start a new line for some parsers)."""
    if has_control_chars(arg):
        raise ValueError(f"control character in a desktop Exec argument: {arg!r}")
    arg = arg.replace("%", "%%")
    if arg and not (set(arg) & _RESERVED):
        return arg
    quoted = '"' + re.sub(r'(["`$\\])', r"\\\1", arg) + '"'
    return quoted.replace("\\", "\\\\")


def desktop_exec_split(value: str) -> list[str]:
    """Inverse of joining ``desktop_exec_quote`` results (used to read existing entries)."""
    value = value.replace("\\\\", "\\")  # string-value unescape first
    args: list[str] = []
    current: list[str] = []
    in_quotes = has_arg = False
    i = 0
    while i < len(value):
        ch = value[i]
        if in_quotes:
            if ch == "\\" and i + 1 < len(value):
                current.append(value[i + 1])
                i += 2
                continue
            if ch == '"':
                in_quotes = False
            else:
                current.append(ch)
        elif ch == '"':
            in_quotes = has_arg = True
        elif ch in " \t":
            if has_arg or current:
                args.append("".join(current))
            current, has_arg = [], False
        else:
            current.append(ch)
            has_arg = True
        i += 1
    if has_arg or current:
        args.append("".join(current))
    return [a.replace("%%", "%") for a in args]


def _sh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def slug(program: str) -> str:
    base = os.path.basename(program.rstrip("/")) or "program"
    base = re.sub(r"\.(exe|sh|py|AppImage|appimage)$", "", base)
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", base).strip("-._")
    return cleaned.lower() or "program"


def launcher_script(program: str, env: Iterable[tuple[str, str]], args: Iterable[str] = (),
                    cwd: str | None = None) -> str:
    """A shell launcher for ``program args...`` (the whole command line: ``python train.py``
    must start the script, not a bare interpreter), run from ``cwd`` when the command was."""
    args = list(args)
    shown = " ".join([program, *args])
    lines = ["#!/bin/sh", f"# {MARKER}: runs {shown!r} on the discrete GPU (PRIME render offload)."]
    lines += [f"export {key}={_sh_quote(value)}" for key, value in env]
    if cwd:
        lines.append(f"cd {_sh_quote(cwd)} || exit 1")
    command = " ".join(_sh_quote(part) for part in (program, *args))
    lines.append(f'exec {command} "$@"')
    return "\n".join(lines) + "\n"


def _desktop_entry_value(text: str) -> str:
    return (text.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
            .translate({c: None for c in (*range(0x20), 0x7F) if c not in (0x09, 0x0A, 0x0D)}))


def new_desktop_entry(program: str, launcher: str) -> str:
    name = os.path.basename(program.rstrip("/")) or program
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        f"Name={_desktop_entry_value(name)} (NVIDIA GPU)",
        f"Comment={MARKER}: starts {_desktop_entry_value(name)} on the discrete GPU",
        f"Exec={desktop_exec_quote(launcher)} %U",
        "Terminal=false",
        "PrefersNonDefaultGPU=true",
        "X-KDE-RunOnDiscreteGpu=true",
    ]
    return "\n".join(lines) + "\n"


def add_discrete_gpu_keys(entry: str, env: Iterable[tuple[str, str]]) -> str:
    """Set PrefersNonDefaultGPU/X-KDE-RunOnDiscreteGpu in [Desktop Entry] and wrap its Exec in
    ``env VAR=...`` so it works even where switcheroo-control is not running."""
    env = list(env)
    out: list[str] = []
    group = None
    inserted = False
    prefix = "env " + " ".join(f"{k}={desktop_exec_quote(v)}" for k, v in env) + " " if env else ""
    for line in entry.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            if group == "[Desktop Entry]" and not inserted:
                out += ["PrefersNonDefaultGPU=true", "X-KDE-RunOnDiscreteGpu=true"]
                inserted = True
            group = stripped
            out.append(line)
            continue
        if group == "[Desktop Entry]":
            key = stripped.split("=", 1)[0].strip()
            if key in ("PrefersNonDefaultGPU", "X-KDE-RunOnDiscreteGpu"):
                continue
            if key == "Exec" and prefix and not stripped.split("=", 1)[1].lstrip().startswith("env "):
                line = "Exec=" + prefix + stripped.split("=", 1)[1].lstrip()
        out.append(line)
    if group == "[Desktop Entry]" and not inserted:
        out += ["PrefersNonDefaultGPU=true", "X-KDE-RunOnDiscreteGpu=true"]
    return "\n".join(out) + "\n"


def _exec_program(entry: str) -> str | None:
    group = None
    for line in entry.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            group = stripped
        elif group == "[Desktop Entry]" and stripped.startswith("Exec="):
            args = desktop_exec_split(stripped[5:])
            while args and (args[0] == "env" or "=" in args[0] and not args[0].startswith("/")):
                args.pop(0)
            return args[0] if args else None
    return None


def find_desktop_entry(program: str, dirs: Iterable[Path]) -> Path | None:
    """The installed desktop entry that starts ``program`` (by Exec), if any."""
    wanted = os.path.realpath(program)
    base = os.path.basename(program)
    for directory in dirs:
        try:
            files = sorted(directory.glob("*.desktop"))
        except OSError:
            continue
        for path in files:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            exe = _exec_program(text)
            if not exe:
                continue
            if exe == program or os.path.realpath(exe) == wanted or (not os.path.isabs(exe) and exe == base):
                return path
    return None


def plan_linux(program: str, inventory: Inventory, home: Path,
               system_app_dirs: Iterable[Path] = (Path("/usr/local/share/applications"), Path("/usr/share/applications")),
               switcheroo_running: bool = False, args: Iterable[str] = (), cwd: str | None = None) -> PreferencePlan:
    """Plan a launcher (and menu entry) that starts ``program args...`` on the discrete GPU.

    ``args``: the rest of the command line, kept whole (``python train.py`` gets a launcher
    for the script, named after it); ``cwd``: the folder the command ran in, for relative paths.
    """
    args = tuple(args)
    if not os.path.isabs(program):
        raise PlanError(translate("Hybrid", "Give the full path of the program, like /opt/app/app"))
    if has_control_chars(program):
        # A CR or LF would split the .desktop file's Exec line (and the launcher script) in two.
        raise PlanError(translate("Hybrid", "The program path contains a control character (such as a line break); "
                                            "rename the file or folder first"))
    if not os.path.isfile(program):
        raise PlanError(translate("Hybrid", "No program at {path}").format(path=program))
    if not os.access(program, os.X_OK):
        raise PlanError(translate("Hybrid", "{path} is not executable").format(path=program))
    env = offload_environment(inventory)
    if not env:
        raise PlanError(translate("Hybrid", "There is no NVIDIA or other discrete GPU to move the program to"))
    user_apps = home / ".local/share/applications"
    name = slug(program) + "".join(f"-{slug(a)}" for a in args[:1] if not a.startswith("-"))
    launcher = home / ".local/bin" / f"{name}-on-nvidia"
    changes = [Change("file", str(launcher), None, read_file_text(launcher), launcher_script(program, env, args, cwd),
                      executable=True)]
    # A menu entry of the program alone starts it without these arguments: with arguments the
    # launcher gets its own entry instead of changing the program's.
    existing = None if args else find_desktop_entry(program, [user_apps, *system_app_dirs])
    if existing is not None:
        target = user_apps / existing.name  # a user entry with the same id overrides the system one
        base_text = read_file_text(target) if target.exists() else read_file_text(existing)
        changes.append(Change("file", str(target), None, read_file_text(target), add_discrete_gpu_keys(base_text or "", env)))
    else:
        target = user_apps / f"gpu-assistant-{name}.desktop"
        title = next((a for a in args if not a.startswith("-")), program)
        changes.append(Change("file", str(target), None, read_file_text(target), new_desktop_entry(title, str(launcher))))
    notes = [
        translate("Hybrid", "Start it from the new launcher or the menu entry; a running copy keeps its GPU until restarted"),
        translate("Hybrid", "CUDA programs run on the NVIDIA GPU anyway; this steers OpenGL and Vulkan"),
    ]
    if args:
        notes.append(translate("Hybrid", "The launcher runs the whole command: {command}").format(
            command=" ".join([program, *args]) + (f"  (in {cwd})" if cwd else "")))
    elif is_interpreter(program):
        notes.append(translate("Hybrid", "{name} is an interpreter: every script it runs gets this GPU").format(
            name=os.path.basename(program)))
    if not switcheroo_running:
        notes.append(translate(
            "Hybrid", "switcheroo-control is not running, so the menu entry carries the variables itself"))
    return PreferencePlan(program=program, platform="linux", changes=tuple(changes), notes=tuple(notes),
                          launch_env=env)
