"""Putting a program on the NVIDIA GPU, as a plan of exact changes that is shown first,
applied with a backup, and undone from that backup.

Windows: HKCU\\Software\\Microsoft\\DirectX\\UserGpuPreferences, value name = the full exe
path, data = a ';'-terminated token list such as ``GpuPreference=2;SwapEffectUpgradeEnable=1;``.
GpuPreference 0 = let Windows decide, 1 = power saving, 2 = high performance. The other
tokens are kept; no admin rights are needed; it applies when the program next starts.

Linux: a launcher script in ~/.local/bin that sets the PRIME render offload variables
(DRI_PRIME for a Mesa-driven discrete GPU) and a desktop entry in
~/.local/share/applications with PrefersNonDefaultGPU=true (Desktop Entry Spec 1.4).
"""
from __future__ import annotations

import json
import stat
import os
import re
import time
from dataclasses import asdict, dataclass
from pathlib import Path, PureWindowsPath
from collections.abc import Callable, Iterable

from services.hybrid.model import GpuKind, Inventory, Vendor
from services.hybrid.windows import HKCU, Registry, RegistryError
from services.i18n import Msg, TranslatableError, Translator, translate

USER_GPU_PREFERENCES = r"Software\Microsoft\DirectX\UserGpuPreferences"
HIGH_PERFORMANCE = "2"
USER_SPECIFIC = "1073741824"  # 0x40000000: a specific GPU chosen in Windows 11 (with SpecificAdapter)

NVIDIA_OFFLOAD_ENV: tuple[tuple[str, str], ...] = (
    ("__NV_PRIME_RENDER_OFFLOAD", "1"),
    ("__GLX_VENDOR_LIBRARY_NAME", "nvidia"),
    ("__VK_LAYER_NV_optimus", "NVIDIA_only"),
)
MARKER = "Made by GPU Assistant"


class PlanError(TranslatableError):
    """The change cannot be planned or applied; ``message`` says why in one line."""



@dataclass(frozen=True, slots=True)
class Change:
    """One exact change. kind "registry": target = 'HKCU\\key', name = value name.
    kind "file": target = the file path. before/after None = absent."""

    kind: str
    target: str
    name: str | None
    before: str | None
    after: str | None
    executable: bool = False

    def describe(self) -> Msg:
        """The change in the reader's language (the file's content and the values stay as they are)."""
        if self.kind == "registry":
            return translate("Hybrid", "registry {key}\n  value: {name}\n  before: {before}\n  after:  {after}").format(
                key=self.target, name=self.name or "", before=_show(self.before), after=_show(self.after))
        if self.before is None:
            action = (translate("Hybrid", "create (executable)") if self.executable
                      else translate("Hybrid", "create"))
        elif self.after is None:
            action = translate("Hybrid", "delete")
        else:
            action = (translate("Hybrid", "replace, executable (the old content is kept in the backup)")
                      if self.executable else translate("Hybrid", "replace (the old content is kept in the backup)"))
        body = "" if self.after is None else "\n" + "\n".join("  | " + line for line in self.after.splitlines())
        return translate("Hybrid", "file {path}: {action}{content}").format(path=self.target, action=action, content=body)


def _show(value: str | None) -> Msg | str:
    return translate("Hybrid", "(no value)") if value is None else json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class PreferencePlan:
    program: str
    platform: str
    changes: tuple[Change, ...]
    notes: tuple[Msg, ...]
    launch_env: tuple[tuple[str, str], ...] = ()  # what "Launch and check" sets (Linux)

    def describe(self, tr: Translator | None = None) -> str:
        """Every change, one after the other, rendered with ``tr`` (English without one)."""
        return "\n".join(change.describe().render(tr) for change in self.changes)

    @property
    def is_noop(self) -> bool:
        return all(c.before == c.after for c in self.changes)


# ---- Windows ---------------------------------------------------------------------------

_INTERPRETER = re.compile(r"^(python[0-9.]*|pythonw|py|node|java|javaw|bash|sh|dash|zsh|perl|ruby|wine|wine64)(\.exe)?$",
                          re.IGNORECASE)


def is_interpreter(program: str) -> bool:
    """Python, Node, Java, shells ...: the preference then covers every script they run."""
    name = program.replace("\\", "/").rsplit("/", 1)[-1]
    return bool(_INTERPRETER.match(name))


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


# ---- Linux -----------------------------------------------------------------------------

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
    changes = [Change("file", str(launcher), None, _read(launcher), launcher_script(program, env, args, cwd),
                      executable=True)]
    # A menu entry of the program alone starts it without these arguments: with arguments the
    # launcher gets its own entry instead of changing the program's.
    existing = None if args else find_desktop_entry(program, [user_apps, *system_app_dirs])
    if existing is not None:
        target = user_apps / existing.name  # a user entry with the same id overrides the system one
        base_text = _read(target) if target.exists() else _read(existing)
        changes.append(Change("file", str(target), None, _read(target), add_discrete_gpu_keys(base_text or "", env)))
    else:
        target = user_apps / f"gpu-assistant-{name}.desktop"
        title = next((a for a in args if not a.startswith("-")), program)
        changes.append(Change("file", str(target), None, _read(target), new_desktop_entry(title, str(launcher))))
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


# A launcher, a menu entry or a backup of them is a few kB; a bigger file is not one we wrote.
MAX_FILE_BYTES = 4 * 1024 * 1024


def _read_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file's bytes. Opened without blocking and type-checked, so a FIFO in its place
    is an error rather than a hang; a file over ``limit`` is an error too."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise PlanError(translate("Hybrid", "{path} is not a regular file, so GPU Assistant will not change it").format(path=str(path)))
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise PlanError(translate("Hybrid", "{path} is too large to be a launcher or menu entry; GPU Assistant will not change it").format(path=str(path)))
    return data


def _read(path: Path) -> str | None:
    try:
        return _read_bytes(path).decode("utf-8")
    except OSError:
        return None
    except UnicodeDecodeError:
        # Reading it lossily would make a backup that cannot restore it: leave such a file alone.
        raise PlanError(translate("Hybrid", "{path} is not UTF-8 text, so GPU Assistant will not change it").format(
            path=str(path))) from None


# ---- applying, backing up, undoing ------------------------------------------------------

@dataclass(frozen=True, slots=True)
class AppliedRecord:
    backup_file: Path
    plan: PreferencePlan


class PreferenceStore:
    """Applies plans and keeps a JSON backup of each (every before/after) for undo."""

    def __init__(self, backup_dir: Path, registry: Registry | None = None, home: Path | None = None) -> None:
        self.backup_dir = backup_dir
        self.registry = registry
        # The only folders plan_linux writes in; undo writes nowhere else, whatever a backup says.
        self.home = home if home is not None else Path.home()

    def _check_target(self, record_file: Path, change: Change) -> None:
        """Refuse a backup that names a file this store never writes: undo runs on whatever the
        backup JSON (a file any program of the user's can edit) says, so the target is checked
        against where plan_linux puts launchers and menu entries, after resolving links."""
        if change.kind == "registry":
            return  # _set writes only HKCU\...\UserGpuPreferences, by value name
        path = Path(change.target)
        try:
            home = self.home.resolve()  # home itself may be a link (/home -> /var/home); the folders below it not
        except (OSError, RuntimeError):
            home = self.home
        allowed = {(home / ".local/bin"): "-on-nvidia", (home / ".local/share/applications"): ".desktop"}
        ok = False
        if change.kind == "file" and path.is_absolute() and ".." not in path.parts:
            for folder, ending in allowed.items():
                try:
                    same = path.parent.resolve() == folder
                except (OSError, RuntimeError):
                    same = False
                if same and path.name.endswith(ending) and not path.is_symlink():
                    ok = True
        if not ok:
            raise PlanError(translate("Hybrid", "The backup {backup} names {target}, which GPU Assistant does not write; undo refused").format(
                backup=str(record_file), target=change.target))

    # current state of one change's target
    def current(self, change: Change) -> str | None:
        if change.kind == "registry":
            if self.registry is None:
                raise PlanError(translate("Hybrid", "The Windows registry is not available here"))
            try:
                values = self.registry.values(HKCU, USER_GPU_PREFERENCES)
            except RegistryError as exc:
                raise PlanError(translate("Hybrid", "Could not read the GPU preferences: {error}").format(
                    error=str(exc))) from exc
            data = values.get(change.name or "")
            return data if isinstance(data, str) else None
        return _read(Path(change.target))

    def apply(self, plan: PreferencePlan) -> AppliedRecord:
        for change in plan.changes:
            if self.current(change) != change.before:
                raise PlanError(translate("Hybrid", "{target} changed after the plan was made; plan again").format(
                    target=change.target))
        record = self._write_backup(plan)  # the backup exists before anything is touched
        done: list[Change] = []
        try:
            for change in plan.changes:
                self._set(change, change.after)
                done.append(change)
        except (OSError, RegistryError) as exc:
            for change in reversed(done):  # put back what was already changed
                try:
                    self._set(change, change.before)
                except (OSError, RegistryError):
                    pass
            raise PlanError(translate("Hybrid", "Could not apply the change: {error}").format(error=str(exc))) from exc
        return record

    def records(self, program: str | None = None) -> list[AppliedRecord]:
        found = []
        for path in sorted(self.backup_dir.glob("*.json")):
            try:
                plan = _plan_from_json(json.loads(_read_bytes(path).decode("utf-8")))
            except (OSError, ValueError, KeyError, TypeError, RecursionError, PlanError):
                continue  # not a backup we can use (damaged, absurdly nested, a FIFO): skipped
            if program is None or _same_program(plan, program):
                found.append(AppliedRecord(path, plan))
        return found

    def undo(self, program: str) -> AppliedRecord:
        records = self.records(program)
        if not records:
            raise PlanError(translate("Hybrid", "Nothing to undo for {path}").format(path=program))
        record = records[-1]
        for change in record.plan.changes:
            self._check_target(record.backup_file, change)
        for change in record.plan.changes:
            if self.current(change) != change.after:
                raise PlanError(translate(
                    "Hybrid", "{target} was changed after GPU Assistant wrote it; undo it by hand from {backup}"
                ).format(target=change.target, backup=str(record.backup_file)))
        for change in reversed(record.plan.changes):
            try:
                self._set(change, change.before)
            except (OSError, RegistryError) as exc:
                raise PlanError(translate("Hybrid", "Could not undo the change: {error}").format(error=str(exc))) from exc
        record.backup_file.rename(record.backup_file.with_suffix(".undone"))
        return record

    def _set(self, change: Change, value: str | None) -> None:
        if change.kind == "registry":
            assert self.registry is not None and change.name is not None
            if value is None:
                self.registry.delete_value(HKCU, USER_GPU_PREFERENCES, change.name)
            else:
                self.registry.set_string(HKCU, USER_GPU_PREFERENCES, change.name, value)
            return
        path = Path(change.target)
        if value is None:
            path.unlink(missing_ok=True)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".gpu-assistant-tmp")
        tmp.write_text(value, encoding="utf-8")
        if change.executable:
            tmp.chmod(0o755)
        os.replace(tmp, path)

    def _write_backup(self, plan: PreferencePlan) -> AppliedRecord:
        self.backup_dir.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.backup_dir / f"{stamp}-{time.monotonic_ns() % 10**9:09d}-{slug(plan.program)}.json"
        data = {"program": plan.program, "platform": plan.platform, "written": time.time(),
                "changes": [asdict(c) for c in plan.changes]}
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        return AppliedRecord(path, plan)


def _same_program(plan: PreferencePlan, program: str) -> bool:
    if plan.platform == "windows":
        return plan.program.lower() == str(PureWindowsPath(program)).lower()
    return plan.program == program


def _plan_from_json(data: dict) -> PreferencePlan:
    if not isinstance(data, dict) or not isinstance(data.get("changes"), list):
        raise TypeError("not a backup")
    changes = tuple(Change(**c) for c in data["changes"])
    for c in changes:
        if (c.kind not in ("file", "registry") or not isinstance(c.target, str) or not isinstance(c.executable, bool)
                or any(v is not None and not isinstance(v, str) for v in (c.name, c.before, c.after))):
            raise TypeError("a change of the wrong shape")
    if not isinstance(data["program"], str) or data["platform"] not in ("linux", "windows"):
        raise TypeError("not a backup")
    return PreferencePlan(program=data["program"], platform=data["platform"], changes=changes, notes=())
