"""Runs, dry-runs, checks and undoes plan steps, and remembers progress.

Before a step changes a file or a registry value, the old state is saved in
the app's data folder; undo puts it back. Privileged commands are wrapped per
step (pkexec or sudo on Linux, a UAC prompt on Windows); nothing runs through
a shell.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from services.i18n import Msg, Translator, translate
from services.setup.fmt import command_line
from services.setup.plan import Argv, Check, Plan, Step
from services.setup.probes import parse_proc_driver_version, probe_torch
from services.setup.system import CommandResult, Runner, SystemRoot

STATES = ("pending", "done", "skipped", "failed", "undone")
# Written into a folder a step created (Step.owned_dir); undo removes only marked folders.
OWNED_MARK = ".gpu-assistant-created"


# ---- progress -------------------------------------------------------------------------
@dataclass
class StepRecord:
    state: str = "pending"
    at: float = 0.0
    message: str = ""
    backups: list[dict] = field(default_factory=list)  # {"path", "backup" | None (did not exist)}
    registry_before: list[dict] = field(default_factory=list)  # {"key","name","kind","data"|None}


class ProgressStore:
    """Progress of one plan, saved as JSON so the wizard resumes after a reboot."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.plan_key = ""
        self.records: dict[str, StepRecord] = {}
        self.load_problem: str | None = None

    def load(self) -> "ProgressStore":
        self.load_problem = None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return self
        except (OSError, ValueError) as exc:
            # Keep the broken file for the user; never lose the backup list silently.
            self.load_problem = f"{self.path.name} could not be read ({exc.__class__.__name__}); starting fresh"
            try:
                os.replace(self.path, self.path.with_name(self.path.name + f".broken-{int(time.time())}"))
            except OSError:
                pass
            return self
        if not isinstance(data, dict):
            return self
        self.plan_key = str(data.get("plan_key", ""))
        for sid, rec in (data.get("steps") or {}).items():
            if isinstance(rec, dict):
                self.records[sid] = StepRecord(
                    state=rec.get("state", "pending") if rec.get("state") in STATES else "pending",
                    at=float(rec.get("at", 0) or 0), message=str(rec.get("message", "")),
                    backups=list(rec.get("backups") or []), registry_before=list(rec.get("registry_before") or []),
                )
        return self

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        data = {
            "version": 1,
            "plan_key": self.plan_key,
            "steps": {sid: vars(rec) for sid, rec in self.records.items()},
        }
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)

    def record(self, step_id: str) -> StepRecord:
        return self.records.setdefault(step_id, StepRecord())

    def state(self, step_id: str) -> str:
        rec = self.records.get(step_id)
        return rec.state if rec else "pending"

    def set_state(self, step_id: str, state: str, message: str = "") -> None:
        rec = self.record(step_id)
        rec.state, rec.at, rec.message = state, time.time(), message
        self.save()

    def adopt(self, plan: Plan) -> None:
        """Start a new record when the plan is for another machine or GPU."""
        if self.plan_key and self.plan_key != plan.key:
            self.records.clear()
        self.plan_key = plan.key


# ---- outcomes -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CommandLog:
    argv: Argv
    returncode: int
    output: str


@dataclass(frozen=True, slots=True)
class StepOutcome:
    ok: bool
    message: Msg
    log: tuple[CommandLog, ...] = ()
    lines: tuple[str, ...] = ()  # dry run: what would happen, in order


@dataclass(frozen=True, slots=True)
class CheckResult:
    state: str  # done | not_done | unknown
    detail: str = ""


def elevate(argv: Argv, mode: str) -> Argv:
    if mode == "pkexec":
        return ("pkexec", *argv)
    if mode == "sudo":
        return ("sudo", *argv)
    if mode == "uac":
        return uac_wrap(argv)
    return tuple(argv)


# PowerShell ends a single-quoted string at any of these, not only at the ASCII apostrophe
# (about_Quoting_Rules; the tokenizer's IsSingleQuote: U+0027, U+2018, U+2019, U+201A, U+201B).
# Inside the string, a quote character written twice stands for itself.
PS_SINGLE_QUOTES = "\u0027\u2018\u2019\u201a\u201b"


def _ps_quote(text: str) -> str:
    """``text`` as a PowerShell single-quoted string literal: nothing in it is expanded or run."""
    return "'" + "".join(c + c if c in PS_SINGLE_QUOTES else c for c in text) + "'"


def windows_command_line(args: Sequence[str]) -> str:
    """Arguments as one Windows command line (the C runtime's quoting, which reg.exe, bcdedit and
    installers parse back with CommandLineToArgvW). Start-Process joins an -ArgumentList array with
    bare spaces, so a value with a space ('Windows NT') would split: it gets one quoted string."""
    import subprocess

    return subprocess.list2cmdline(list(args))


def uac_wrap(argv: Argv) -> Argv:
    """Run one command elevated through a UAC prompt and pass its exit code back."""
    args = f" -ArgumentList {_ps_quote(windows_command_line(argv[1:]))}" if len(argv) > 1 else ""
    script = (
        f"$p = Start-Process -FilePath {_ps_quote(argv[0])}{args} "
        "-Verb RunAs -Wait -PassThru -WindowStyle Hidden; exit $p.ExitCode"
    )
    return ("powershell.exe", "-NoProfile", "-NonInteractive", "-Command", script)


def default_elevation(system: str, gui: bool, root: SystemRoot) -> str:
    if not root.is_real:
        return "none"  # a temporary root (tests) needs no privilege
    if system == "windows":
        return "uac"
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return "none"
    return "pkexec" if gui else "sudo"


class StepExecutor:
    def __init__(self, runner: Runner, root: SystemRoot, progress: ProgressStore, backup_dir: Path,
                 elevation: str = "none", system: str = "linux", command_timeout: float = 3600.0,
                 registry=None) -> None:  # noqa: ANN001 - services.setup.windows.RegistryReader
        self.runner = runner
        self._registry = registry
        self.root = root
        self.progress = progress
        self.backup_dir = backup_dir
        self.elevation = elevation
        self.system = system
        self.command_timeout = command_timeout

    # -- what would run ------------------------------------------------------------------
    def full_commands(self, step: Step) -> list[Argv]:
        return [elevate(c, self.elevation) if step.needs_root else tuple(c) for c in step.commands]

    def describe(self, step: Step, undo: bool = False, plan: Plan | None = None, tr: Translator | None = None) -> list[str]:
        """Every action, in order, as lines a person can read and paste. ``tr``
        translates the '#' comment lines (the commands themselves stay as they are)."""
        win = self.system == "windows"

        def note(msg: Msg) -> str:
            return "# " + msg.render(tr)

        lines: list[str] = []
        if step.restores and not undo:
            target = plan.step(step.restores) if plan else None
            if target is None:
                return [note(translate("Setup", "restore what '{step}' saved").format(step=step.restores))]
            rec = self.progress.records.get(step.restores)
            if rec is None or not (rec.backups or rec.registry_before):
                return [note(translate("Setup", "restore what '{step}' saved (it has not run yet)").format(step=step.restores))]
            return self.describe(target, undo=True, tr=tr)
        if undo:
            rec = self.progress.records.get(step.id)
            for b in (rec.backups if rec else []):
                if b.get("backup"):
                    lines.append(command_line(self._root_wrap(("install", "-m", "0644", b["backup"], str(self.root(b["path"]))), step), win))
                else:
                    lines.append(command_line(self._root_wrap(("rm", "-f", str(self.root(b["path"]))), step), win))
            for r in (rec.registry_before if rec else []):
                lines.append(command_line(self._root_wrap(_registry_restore(r), step), win))
            for c in step.undo:
                lines.append(command_line(self._root_wrap(c, step), win))
            if step.owned_dir:
                lines.append(note(translate("Setup", "only if {mark} exists (GPU Assistant made this folder):").format(mark=str(Path(step.owned_dir) / OWNED_MARK))))
                lines.append(command_line(_remove_dir(step.owned_dir), win))
            return lines
        for f in step.files:
            lines.append(note(translate("Setup", "back up {path} to {folder}").format(path=f.path, folder=str(self.backup_dir / step.id))))
            lines.append(note(translate("Setup", "write {path} ({count} lines)").format(path=f.staged, count=len(f.content.splitlines()))))
        for r in step.registry:
            lines.append(note(translate("Setup", "save the current value of {value}").format(value=f"{r.key}\\{r.name}")))
            lines.append(command_line(self._shown(_registry_set(r), step), win))
        for c in step.commands:
            lines.append(command_line(self._shown(c, step), win))
        if step.needs_root and self.elevation == "uac":
            lines.append(note(translate("Setup", "each command asks for administrator rights (UAC prompt)")))
        return lines

    def _shown(self, argv: Argv, step: Step) -> Argv:
        # A UAC wrapper is noise to read; sudo/pkexec lines are kept whole so they paste.
        if self.elevation == "uac":
            return tuple(argv)
        return self._root_wrap(argv, step)

    def _root_wrap(self, argv: Argv, step: Step) -> Argv:
        return elevate(argv, self.elevation) if step.needs_root and not _user_registry(argv) else tuple(argv)

    # -- checks ---------------------------------------------------------------------------------
    def check(self, step: Step) -> CheckResult:
        c = step.check
        if c is None:
            return CheckResult("unknown", "this step has no check; run it to be sure")
        try:
            return self._check(c)
        except OSError as exc:
            return CheckResult("unknown", str(exc))

    def _check(self, c: Check) -> CheckResult:
        if c.kind in ("any_file_contains", "file_contains"):
            for p in c.paths:
                target = self.root(p)
                files = sorted(target.glob("*.conf")) if target.is_dir() else [target]
                for f in files:
                    try:
                        text = f.read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        continue
                    if any(line.strip().startswith(c.text) for line in text.splitlines()) or (c.kind == "file_contains" and c.text in text):
                        return CheckResult("done", str(f))
            return CheckResult("not_done")
        if c.kind == "debian_components":
            from services.setup.linux_plans import debian_components_present

            text = self.root.read_text(c.paths[0]) if c.paths else None
            if text is None:
                return CheckResult("unknown", f"cannot read {c.paths[0] if c.paths else '?'}")
            return CheckResult("done" if debian_components_present(text, c.text.split()) else "not_done")
        if c.kind == "file_exists":
            return CheckResult("done" if all(Path(p).is_file() for p in c.paths) else "not_done")
        if c.kind == "command_ok":
            r = self.runner.run(c.argv, timeout=60)
            if r.missing:
                return CheckResult("not_done", f"{c.argv[0]} is not installed")
            return CheckResult("done" if r.ok else "not_done", _first_line(r))
        if c.kind == "command_output":
            r = self.runner.run(c.argv, timeout=60)
            return CheckResult("done" if r.ok and c.expect in r.output else "not_done", _first_line(r))
        if c.kind == "registry_value":
            from services.setup.windows import RegistryError

            try:  # argv is the reg.exe form shown to the user: reg query KEY /v NAME
                value = self.registry.value(c.argv[2], c.text)
            except (RegistryError, ValueError, IndexError) as exc:
                return CheckResult("unknown", str(exc))
            return CheckResult("done" if value is not None and value[1] == c.expect else "not_done", "" if value is None else value[1])
        if c.kind == "secure_boot_key":
            sb = self.runner.run(["mokutil", "--sb-state"], timeout=10)
            if "disabled" in sb.output.lower():
                return CheckResult("done", "Secure Boot is off")
            if not c.argv:
                return CheckResult("unknown")
            r = self.runner.run(c.argv, timeout=10)
            return CheckResult("done" if c.expect in r.output else "not_done", _first_line(r))
        if c.kind == "driver_loaded":
            loaded, _ = parse_proc_driver_version(self.root.read_text("/proc/driver/nvidia/version") or "")
            if not loaded:
                return CheckResult("not_done", "no NVIDIA module is loaded")
            disk = self.runner.run(["modinfo", "-F", "version", "nvidia"], timeout=10)
            if disk.ok and disk.stdout.strip() and disk.stdout.strip() != loaded:
                return CheckResult("not_done", f"loaded {loaded}, installed {disk.stdout.strip()}: reboot")
            return CheckResult("done", loaded)
        if c.kind == "torch_ok":
            probe = probe_torch(c.argv[0], self.runner)
            if not probe.ran:
                return CheckResult("not_done", probe.error)
            ok = probe.cuda_available and probe.matmul_ok is True
            return CheckResult("done" if ok else "not_done", probe.torch_version or probe.torch_error)
        return CheckResult("unknown", f"unknown check {c.kind}")

    # -- running -------------------------------------------------------------------------------
    def dry_run(self, step: Step) -> StepOutcome:
        return StepOutcome(True, translate("Setup", "Dry run: nothing was changed"), lines=tuple(self.describe(step)))

    def run(self, step: Step, on_line: Callable[[str], None] | None = None, plan: Plan | None = None) -> StepOutcome:
        if step.restores:
            target = plan.step(step.restores) if plan else None
            rec = self.progress.records.get(step.restores)
            if target is None or rec is None or not (rec.backups or rec.registry_before):
                return StepOutcome(False, translate("Setup", "Nothing to restore: the step '{step}' has not changed anything").format(step=step.restores))
            outcome = self.undo(target)
            if outcome.ok:
                self.progress.set_state(step.id, "done")
            return outcome
        if step.manual and not step.commands:
            return StepOutcome(False, translate("Setup", "This step is done by hand: follow its explanation, then mark it done"))
        missing = [a for c in step.commands for a in c if a.startswith("<") and a.endswith(">")]
        if missing:
            return StepOutcome(False, translate("Setup", "Choose the file first: {what}").format(what=missing[0].strip("<>")))
        log: list[CommandLog] = []
        rec = self.progress.record(step.id)
        # 1. back up what will change; refuse to go on if a backup fails
        try:
            rec.backups = self._backup_files(step) or rec.backups
        except OSError as exc:
            self.progress.set_state(step.id, "failed", f"backup failed: {exc}")
            return StepOutcome(False, translate("Setup", "Stopped before changing anything: could not back up {path} ({error})").format(
                path=getattr(exc, "filename", "") or "?", error=exc.strerror or str(exc)))
        if step.registry:
            before = self._save_registry(step)
            if before is None:
                self.progress.set_state(step.id, "failed", "could not read the registry")
                return StepOutcome(False, translate("Setup", "Stopped before changing anything: could not read the current registry values"))
            rec.registry_before = before
        self.progress.save()
        # 2. stage file contents (user-owned) for the privileged copy
        for f in step.files:
            staged = Path(f.staged)
            staged.parent.mkdir(parents=True, exist_ok=True)
            staged.write_text(f.content, encoding="utf-8")
        # A folder that is already there is the person's own: never mark it as ours.
        new_dir = bool(step.owned_dir) and not Path(step.owned_dir).exists()
        # 3. the commands, stopping at the first failure
        commands = [_registry_set(r) for r in step.registry] + list(step.commands)
        for argv in commands:
            full = self._root_wrap(argv, step)
            if on_line:
                on_line("$ " + command_line(full, self.system == "windows"))
            streaming = getattr(self.runner, "run_streaming", None)
            if on_line and streaming is not None:
                result = streaming(full, on_line, timeout=self.command_timeout)
            else:
                result = self.runner.run(full, timeout=self.command_timeout)
                if on_line and result.output:
                    on_line(result.output[-2000:])
            log.append(CommandLog(full, result.returncode, result.output[-4000:]))
            if not result.ok:
                self.progress.set_state(step.id, "failed", _first_line(result))
                return StepOutcome(False, _failure_message(full, result, self.elevation), tuple(log))
        if new_dir and Path(step.owned_dir).is_dir():
            try:
                (Path(step.owned_dir) / OWNED_MARK).write_text(f"created by GPU Assistant setup step {step.id}\n", encoding="utf-8")
            except OSError:
                pass  # without the mark, undo leaves the folder alone: the safe side
        self.progress.set_state(step.id, "done")
        return StepOutcome(True, translate("Setup", "Done"), tuple(log))

    def skip(self, step: Step) -> None:
        self.progress.set_state(step.id, "skipped")

    def mark_done(self, step: Step) -> None:
        self.progress.set_state(step.id, "done", "marked done by hand")

    def undo(self, step: Step, dry_run: bool = False) -> StepOutcome:
        rec = self.progress.records.get(step.id)
        if not step.undoable:
            return StepOutcome(False, step.undo_note or translate("Setup", "This step has no undo"))
        if rec is None or rec.state not in ("done", "failed"):
            # Never undo what we did not do: an undo may remove packages.
            return StepOutcome(False, translate("Setup", "GPU Assistant has not run this step, so there is nothing to undo"))
        lines = tuple(self.describe(step, undo=True))
        if dry_run:
            return StepOutcome(True, translate("Setup", "Dry run: nothing was changed"), lines=lines)
        log: list[CommandLog] = []
        commands: list[Argv] = []
        for b in (rec.backups if rec else []):
            target = str(self.root(b["path"]))
            commands.append(("install", "-m", "0644", b["backup"], target) if b.get("backup") else ("rm", "-f", target))
        for r in (rec.registry_before if rec else []):
            commands.append(_registry_restore(r))
        commands += list(step.undo)
        if step.owned_dir:
            folder = Path(step.owned_dir)
            if not (folder / OWNED_MARK).is_file():
                return StepOutcome(False, translate("Setup", "{path} was not created by GPU Assistant (or is already gone), so it is left alone").format(path=str(folder)))
            commands.append(_remove_dir(step.owned_dir))
        for argv in commands:
            full = self._root_wrap(argv, step)
            result = self.runner.run(full, timeout=self.command_timeout)
            log.append(CommandLog(full, result.returncode, result.output[-4000:]))
            if not result.ok:
                return StepOutcome(False, _failure_message(full, result, self.elevation), tuple(log))
        self.progress.set_state(step.id, "undone")
        return StepOutcome(True, translate("Setup", "Undone"), tuple(log), lines)

    def _backup_files(self, step: Step) -> list[dict]:
        saved: list[dict] = []
        if not step.files:
            return saved
        folder = self.backup_dir / step.id / time.strftime("%Y%m%d-%H%M%S")
        for f in step.files:
            src = self.root(f.path)
            if src.exists():
                folder.mkdir(parents=True, exist_ok=True)
                dest = folder / Path(f.path).name
                shutil.copy2(src, dest)  # raises if unreadable: then nothing changes
                saved.append({"path": f.path, "backup": str(dest)})
            else:
                saved.append({"path": f.path, "backup": None})
        return saved

    @property
    def registry(self):  # noqa: ANN201 - services.setup.windows.RegistryReader
        """Registry reads (checks, backups): ``winreg`` on Windows; built on first use."""
        if self._registry is None:
            from services.setup.windows import default_registry

            self._registry = default_registry(self.runner)
        return self._registry

    def _save_registry(self, step: Step) -> list[dict] | None:
        from services.setup.windows import RegistryError

        before: list[dict] = []
        for r in step.registry:
            try:
                value = self.registry.value(r.key, r.name)
            except (RegistryError, ValueError):
                return None
            before.append({"key": r.key, "name": r.name, "kind": value[0] if value else r.kind, "data": value[1] if value else None})
        return before


def _remove_dir(path: str) -> Argv:
    return ("rm", "-rf", "--", path)


def _user_registry(argv: Argv) -> bool:
    """``reg add/delete HKCU\\...``: the user's own hive. Run as the user, never elevated: an
    administrator's UAC prompt for another account would write that account's HKCU instead."""
    return (len(argv) > 2 and argv[0] == "reg" and argv[1] in ("add", "delete")
            and argv[2].upper().startswith(("HKCU\\", "HKEY_CURRENT_USER\\")))


def _registry_set(r) -> Argv:
    return ("reg", "add", r.key, "/v", r.name, "/t", r.kind, "/d", r.data, "/f")


def _registry_restore(r: dict) -> Argv:
    if r.get("data") is None:
        return ("reg", "delete", r["key"], "/v", r["name"], "/f")
    return ("reg", "add", r["key"], "/v", r["name"], "/t", r.get("kind") or "REG_DWORD", "/d", str(r["data"]), "/f")


def _first_line(r: CommandResult) -> str:
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    return lines[0] if lines else ""


def _failure_message(argv: Sequence[str], r: CommandResult, elevation: str) -> Msg:
    if r.missing:
        return translate("Setup", "{command} is not installed on this system").format(command=argv[0])
    if elevation == "pkexec" and argv and argv[0] == "pkexec" and r.returncode in (126, 127):
        return translate("Setup", "Permission was refused (the password dialog was closed or the password was wrong)")
    if elevation == "uac" and r.returncode == 1 and "canceled by the user" in r.output.lower():
        return translate("Setup", "Permission was refused at the Windows prompt")
    return translate("Setup", "'{command}' failed with exit code {code}: {output}").format(
        command=" ".join(argv[:4]), code=r.returncode, output=_first_line(r) or "-")
