"""Runs, dry-runs, checks and undoes plan steps.

Before a step changes a file or a registry value, the old state is saved in
the app's data folder and noted in the progress store (services.setup.progress);
undo puts it back. Privileged commands are wrapped per step (services.setup.elevation:
pkexec or sudo on Linux, a UAC prompt on Windows); nothing runs through a shell.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from services.i18n import Msg, Translator, translate
from services.setup.elevation import elevate, runs_as_user
from services.setup.fmt import command_line, stdin_pipeline
from services.setup.plan import Argv, Plan, Step
from services.setup.progress import ProgressStore
from services.setup.registry_values import registry_set
from services.setup.step_backups import (
    SYSTEM_BACKUP_DIR,
    StepBackups,
    content_fingerprint,
    file_change_notes,
    file_fingerprint,
)
from services.setup.step_checks import CheckResult, first_line, run_check
from services.setup.system import CommandResult, Runner, SystemRoot

# Written into a folder a step created (Step.owned_dir); undo removes only marked folders.
OWNED_MARK = ".gpu-assistant-created"
# The content a step writes goes to the privileged command on standard input, never as a path
# into the user's (writable) staging folder that could be swapped for a link while the password
# prompt is open: root writes exactly what the preview showed.
STDIN_PATH = "/dev/stdin"


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


class StepExecutor:
    def __init__(self, runner: Runner, root: SystemRoot, progress: ProgressStore, backup_dir: Path,
                 elevation: str = "none", system: str = "linux", command_timeout: float = 3600.0,
                 probe_files: bool = True, registry=None,  # registry: services.setup.windows_registry.RegistryReader
                 system_backup_dir: Path | None = None) -> None:
        # probe_files=False: a plan for another machine; describe() must not read this one's files.
        self.probe_files = probe_files
        self.runner = runner
        self._registry = registry
        self.root = root
        self.progress = progress
        self.backup_dir = backup_dir
        self.system_backup_dir = system_backup_dir if system_backup_dir is not None else root(SYSTEM_BACKUP_DIR)
        self.elevation = elevation
        self.system = system
        self.command_timeout = command_timeout
        self.backups = StepBackups(root, self.system_backup_dir, elevation)

    # -- what would run ------------------------------------------------------------------
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
                return [note(translate("Setup", "restore what '{step}' saved (it has not run yet)").format(step=target.title.render(tr)))]
            return self.describe(target, undo=True, tr=tr)
        if undo:
            rec = self.progress.records.get(step.id)
            commands, notes, problem = self.backups.undo_actions(step, rec)
            if problem is not None:
                return [note(problem)]
            for n, argv in zip(notes, commands, strict=True):
                if n is not None:
                    lines.append(note(n))
                lines.append(command_line(self._root_wrap(argv, step), win))
            if step.owned_dir:
                lines.append(note(translate("Setup", "only if {mark} exists (GPU Assistant made this folder):").format(mark=str(Path(step.owned_dir) / OWNED_MARK))))
                lines.append(command_line(_remove_dir(step.owned_dir), win))
            return lines
        rec = self.progress.records.get(step.id)
        kept = {b.get("path"): b for b in (rec.backups if rec else []) if isinstance(b, dict)}
        for f in step.files:
            for msg in file_change_notes(f, self.root, self.system_backup_dir / step.id, kept.get(f.path), self.probe_files):
                lines.append(note(msg))
            lines.extend("#   " + ln for ln in f.content.splitlines())
        for r in step.registry:
            lines.append(note(translate("Setup", "save the current value of {value}").format(value=f"{r.key}\\{r.name}")))
            lines.append(command_line(self._shown(registry_set(r), step), win))
        for c in step.commands:
            argv, content = self._with_stdin(c, step)
            if content is not None:
                # Pasted into a shell, the line gives the command that content itself (printf), so it
                # runs as it is; a bare 'install ... /dev/stdin' would wait for the terminal.
                lines.append(note(translate("Setup", "the content shown above goes to this command on standard input ({stdin})").format(stdin=STDIN_PATH)))
                lines.append(stdin_pipeline(content, self._shown(argv, step)))
                continue
            lines.append(command_line(self._shown(argv, step), win))
        if step.needs_root and self.elevation == "uac":
            lines.append(note(translate("Setup", "each command asks for administrator rights (UAC prompt)")))
        return lines

    def undo_preview(self, step: Step, plan: Plan | None = None, tr: Translator | None = None) -> list[str]:
        """What undo would do, shown before the step runs: the saved backups once it has run,
        else what it will restore (from which folder) and its commands."""
        def note(msg: Msg) -> str:
            return "# " + msg.render(tr)

        if step.restores:
            restored = plan.step(step.restores) if plan else None
            return [note(translate("Setup", "this step puts back what '{step}' saved; it has no undo of its own").format(
                step=restored.title.render(tr) if restored else step.restores))]
        if not step.undoable:
            return [note(step.undo_note or translate("Setup", "This step has no undo"))]
        rec = self.progress.records.get(step.id)
        if rec is not None and rec.state in ("done", "failed"):
            return self.describe(step, undo=True, plan=plan, tr=tr)
        win = self.system == "windows"
        lines: list[str] = []
        for f in step.files:
            path = f.path if not self.probe_files else str(self.root(f.path))
            lines.append(note(translate("Setup", "restore {path} from the backup GPU Assistant makes in {folder} (content, mode and owner; a link stays a link), or remove it if it did not exist").format(
                path=path, folder=str(self.system_backup_dir / step.id))))
        for r in step.registry:
            lines.append(note(translate("Setup", "put back the value of {value} saved before the run (or delete it if it was not set)").format(value=f"{r.key}\\{r.name}")))
        for c in step.undo:
            lines.append(command_line(self._root_wrap(tuple(c), step), win))
        if step.owned_dir:
            lines.append(note(translate("Setup", "only if {mark} exists (GPU Assistant made this folder):").format(mark=str(Path(step.owned_dir) / OWNED_MARK))))
            lines.append(command_line(_remove_dir(step.owned_dir), win))
        return lines

    def _shown(self, argv: Argv, step: Step) -> Argv:
        # A UAC wrapper is noise to read; sudo/pkexec lines are kept whole so they paste.
        if self.elevation == "uac":
            return tuple(argv)
        return self._root_wrap(argv, step)

    def _root_wrap(self, argv: Argv, step: Step) -> Argv:
        return elevate(argv, self.elevation) if step.needs_root and not runs_as_user(argv) else tuple(argv)

    @staticmethod
    def _with_stdin(argv: Argv, step: Step) -> tuple[Argv, str | None]:
        """A privileged command that copies a staged file reads the step's content from standard
        input instead: the staged file sits in a folder the user can write, so reading it by path
        as root could follow a link swapped in while the password prompt is open."""
        if not step.needs_root:
            return tuple(argv), None
        for f in step.files:
            if f.staged in argv:
                return tuple(STDIN_PATH if a == f.staged else a for a in argv), f.content
        return tuple(argv), None

    # -- checks ---------------------------------------------------------------------------------
    def check(self, step: Step) -> CheckResult:
        c = step.check
        if c is None:
            return CheckResult("unknown", "this step has no check; run it to be sure")
        try:
            return run_check(c, self.root, self.runner, lambda: self.registry)
        except OSError as exc:
            return CheckResult("unknown", str(exc))

    # -- running -------------------------------------------------------------------------------
    def dry_run(self, step: Step) -> StepOutcome:
        return StepOutcome(True, translate("Setup", "Dry run: nothing was changed"), lines=tuple(self.describe(step)))

    def run(self, step: Step, on_line: Callable[[str], None] | None = None, plan: Plan | None = None) -> StepOutcome:
        if step.restores:
            target = plan.step(step.restores) if plan else None
            rec = self.progress.records.get(step.restores)
            if target is None or rec is None or not (rec.backups or rec.registry_before):
                return StepOutcome(False, translate("Setup", "Nothing to restore: the step '{step}' has not changed anything").format(
                    step=target.title if target is not None else step.restores))
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
        # 0. a file edited since the plan (the preview) was made is not written over
        for f in step.files:
            if f.base_sha256 is None:
                continue
            try:
                now = file_fingerprint(self.root(f.path))
            except OSError as exc:
                return StepOutcome(False, translate("Setup", "Stopped before changing anything: could not read {path} ({error})").format(path=f.path, error=exc.strerror or str(exc)))
            if now not in (f.base_sha256, content_fingerprint(f.content)):
                return StepOutcome(False, translate("Setup", "Stopped before changing anything: {path} changed after the plan was shown. Check again to see the plan for the file as it is now.").format(path=f.path))
        rec = self.progress.record(step.id)
        if rec.invalid:
            return StepOutcome(False, translate("Setup", "Stopped before changing anything: the saved progress of this step is damaged ({problem})").format(problem=rec.invalid))
        # 1. back up what will change; refuse to go on if a backup fails. The first
        # backup stays until an undo consumes it: a second run must not back up
        # the first run's output over the original. The copy is made by the privileged
        # side into a folder only it can write; its hash is noted to be checked before undo.
        try:
            new_backups, backup_commands = self.backups.backup_files(step, {b["path"] for b in rec.backups})
        except OSError as exc:
            self.progress.set_state(step.id, "failed", f"backup failed: {exc}")
            return StepOutcome(False, translate("Setup", "Stopped before changing anything: could not back up {path} ({error})").format(
                path=getattr(exc, "filename", "") or "?", error=exc.strerror or str(exc)))
        for argv in backup_commands:
            full = self._root_wrap(argv, step)
            if on_line:
                on_line("$ " + command_line(full, self.system == "windows"))
            result = self.runner.run(full, timeout=self.command_timeout)
            log.append(CommandLog(full, result.returncode, result.output[-4000:]))
            if not result.ok:
                self.progress.set_state(step.id, "failed", f"backup failed: {first_line(result)}")
                return StepOutcome(False, translate("Setup", "Stopped before changing anything: could not back up {path} ({error})").format(
                    path=argv[-1], error=_failure_message(full, result, self.elevation)), tuple(log))
        rec.backups = rec.backups + new_backups
        if step.registry:
            before = self._save_registry(step)
            if before is None:
                self.progress.set_state(step.id, "failed", "could not read the registry")
                return StepOutcome(False, translate("Setup", "Stopped before changing anything: could not read the current registry values"))
            saved = {(r["key"], r["name"]) for r in rec.registry_before}
            rec.registry_before = rec.registry_before + [r for r in before if (r["key"], r["name"]) not in saved]
        self.progress.save()
        # What this run writes: undo later refuses to throw away changes made after it.
        for b in rec.backups:
            written = next((f for f in step.files if f.path == b.get("path")), None)
            if written is not None:
                b["written"] = content_fingerprint(written.content)
        self.progress.save()
        # 2. stage file contents (user-owned) for the privileged copy
        for f in step.files:
            staged = Path(f.staged)
            staged.parent.mkdir(parents=True, exist_ok=True)
            staged.write_text(f.content, encoding="utf-8")
        # A folder that is already there is the person's own: never mark it as ours.
        new_dir = bool(step.owned_dir) and not Path(step.owned_dir).exists()
        # 3. the commands, stopping at the first failure
        commands = [registry_set(r) for r in step.registry] + list(step.commands)
        for argv in commands:
            argv, content = self._with_stdin(argv, step)
            full = self._root_wrap(argv, step)
            if on_line:
                on_line("$ " + command_line(full, self.system == "windows"))
            streaming = getattr(self.runner, "run_streaming", None)
            if content is not None:
                result = self.runner.run(full, timeout=self.command_timeout, input_text=content)
                if on_line and result.output:
                    on_line(result.output[-2000:])
            elif on_line and streaming is not None:
                result = streaming(full, on_line, timeout=self.command_timeout)
            else:
                result = self.runner.run(full, timeout=self.command_timeout)
                if on_line and result.output:
                    on_line(result.output[-2000:])
            log.append(CommandLog(full, result.returncode, result.output[-4000:]))
            if not result.ok:
                self.progress.set_state(step.id, "failed", first_line(result))
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
        if rec.invalid:
            return StepOutcome(False, translate("Setup", "Nothing was undone: the saved progress of this step is damaged ({problem})").format(problem=rec.invalid))
        commands, _notes, problem = self.backups.undo_actions(step, rec)
        if problem is not None:
            return StepOutcome(False, translate("Setup", "Nothing was undone: {problem}").format(problem=problem))
        if step.owned_dir:
            folder = Path(step.owned_dir)
            if not (folder / OWNED_MARK).is_file():
                return StepOutcome(False, translate("Setup", "{path} was not created by GPU Assistant (or is already gone), so it is left alone").format(path=str(folder)))
            commands = commands + [_remove_dir(step.owned_dir)]
        full_commands = [self._root_wrap(argv, step) for argv in commands]
        lines = tuple(command_line(c, self.system == "windows") for c in full_commands)
        if dry_run:
            return StepOutcome(True, translate("Setup", "Dry run: nothing was changed"), lines=tuple(self.describe(step, undo=True)))
        log: list[CommandLog] = []
        for full in full_commands:
            result = self.runner.run(full, timeout=self.command_timeout)
            log.append(CommandLog(full, result.returncode, result.output[-4000:]))
            if not result.ok:
                return StepOutcome(False, _failure_message(full, result, self.elevation), tuple(log))
        # The backups are consumed: the next run backs up afresh.
        rec.backups, rec.registry_before = [], []
        self.progress.set_state(step.id, "undone")
        return StepOutcome(True, translate("Setup", "Undone"), tuple(log), lines)

    @property
    def registry(self):  # services.setup.windows_registry.RegistryReader
        """Registry reads (checks, backups): ``winreg`` on Windows; built on first use."""
        if self._registry is None:
            from services.setup.windows_registry import default_registry

            self._registry = default_registry(self.runner)
        return self._registry

    def _save_registry(self, step: Step) -> list[dict] | None:
        from services.setup.windows_registry import RegistryError

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


def _failure_message(argv: Sequence[str], r: CommandResult, elevation: str) -> Msg:
    if r.missing:
        return translate("Setup", "{command} is not installed on this system").format(command=argv[0])
    if elevation == "pkexec" and argv and argv[0] == "pkexec" and r.returncode in (126, 127):
        return translate("Setup", "Permission was refused (the password dialog was closed or the password was wrong)")
    if elevation == "uac" and r.returncode == 1 and "canceled by the user" in r.output.lower():
        return translate("Setup", "Permission was refused at the Windows prompt")
    return translate("Setup", "'{command}' failed with exit code {code}: {output}").format(
        command=" ".join(argv[:4]), code=r.returncode, output=first_line(r) or "-")
