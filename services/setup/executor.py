"""Runs, dry-runs, checks and undoes plan steps.

Before a step changes a file or a registry value, the old state is saved in
the app's data folder and noted in the progress store (services.setup.progress);
undo puts it back. Privileged commands are wrapped per step (services.setup.elevation:
pkexec or sudo on Linux, a UAC prompt on Windows); nothing runs through a shell.
"""
from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from services.i18n import Msg, Translator, translate
from services.setup.elevation import elevate, runs_as_user
from services.setup.fmt import command_line, stdin_pipeline
from services.setup.plan import Argv, Check, FileChange, Plan, Step
from services.setup.probes import parse_proc_driver_version, probe_torch
from services.setup.progress import ProgressStore, StepRecord
from services.setup.system import CommandResult, Runner, SystemRoot

# Written into a folder a step created (Step.owned_dir); undo removes only marked folders.
OWNED_MARK = ".gpu-assistant-created"
# Where the privileged side keeps the originals of system files a step changes. Undo, which runs
# as root, restores only from here: a folder only root can write, never the user's data folder
# or what progress.json (a file any program running as the user can edit) says.
SYSTEM_BACKUP_DIR = "/var/lib/gpu-assistant/setup-backups"
# The content a step writes goes to the privileged command on standard input, never as a path
# into the user's (writable) staging folder that could be swapped for a link while the password
# prompt is open: root writes exactly what the preview showed.
STDIN_PATH = "/dev/stdin"


def file_fingerprint(path: Path) -> str:
    """What a path holds, to tell whether it changed: '' (nothing there), 'link:TARGET',
    'sha256:HEX' (a regular file) or 'special:MODE' (never read: a FIFO would hang)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ""
    if stat.S_ISLNK(st.st_mode):
        return "link:" + os.readlink(path)
    if not stat.S_ISREG(st.st_mode):
        return f"special:{stat.S_IFMT(st.st_mode):o}"
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            h.update(chunk)
    return "sha256:" + h.hexdigest()


def content_fingerprint(content: str) -> str:
    return "sha256:" + hashlib.sha256(content.encode("utf-8")).hexdigest()


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


class StepExecutor:
    def __init__(self, runner: Runner, root: SystemRoot, progress: ProgressStore, backup_dir: Path,
                 elevation: str = "none", system: str = "linux", command_timeout: float = 3600.0,
                 probe_files: bool = True, registry=None,  # registry: services.setup.windows.RegistryReader
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
            commands, notes, problem = self._undo_actions(step, rec)
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
            lines.append(command_line(self._shown(_registry_set(r), step), win))
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

    def _privileged_uid(self) -> int:
        """Who owns what the privileged side writes: root when commands are elevated, else
        this process (a temporary root in tests, or the app run as root)."""
        if self.elevation in ("pkexec", "sudo"):
            return 0
        return os.geteuid() if hasattr(os, "geteuid") else 0

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

            sources = self.root.read_text(c.paths[0]) if c.paths else None
            if sources is None:
                return CheckResult("unknown", f"cannot read {c.paths[0] if c.paths else '?'}")
            return CheckResult("done" if debian_components_present(sources, c.text.split()) else "not_done")
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
            new_backups, backup_commands = self._backup_files(step, {b["path"] for b in rec.backups})
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
                self.progress.set_state(step.id, "failed", f"backup failed: {_first_line(result)}")
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
        commands = [_registry_set(r) for r in step.registry] + list(step.commands)
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
        if rec.invalid:
            return StepOutcome(False, translate("Setup", "Nothing was undone: the saved progress of this step is damaged ({problem})").format(problem=rec.invalid))
        commands, _notes, problem = self._undo_actions(step, rec)
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

    def _undo_actions(self, step: Step, rec: StepRecord | None) -> tuple[list[Argv], list[Msg | None], Msg | None]:
        """The undo's commands (and a note for each), or why it is refused. Only the files and
        registry values the step declares are touched, and only from backups under its own folder."""
        commands: list[Argv] = []
        notes: list[Msg | None] = []
        if rec is None:
            return [], [], None
        if rec.invalid:
            return [], [], translate("Setup", "the saved progress of this step is damaged ({problem})").format(problem=rec.invalid)
        declared = {f.path for f in step.files}
        root_dir = self.root("/").resolve()
        for b in rec.backups:
            path = b.get("path")
            if path not in declared or ".." in Path(path).parts:
                return [], [], translate("Setup", "progress.json names {path}, which this step does not change; refused").format(path=str(path))
            target = self.root(path)
            try:
                parent = target.parent.resolve()
            except OSError:
                parent = target.parent
            if parent != root_dir and root_dir not in parent.parents:
                return [], [], translate("Setup", "{path} resolves outside the system root; refused").format(path=str(target))
            kind = b.get("kind", "file")
            written = b.get("written")
            if written:
                try:
                    now = file_fingerprint(target)
                except OSError:
                    now = None
                if now not in (written, b.get("sha256")):
                    return [], [], translate("Setup", "{path} was changed after GPU Assistant wrote it; undo would throw that change away, so it is refused (the original is kept in {backup})").format(
                        path=str(target), backup=str(b.get("backup") or b.get("link") or "-"))
            if kind in ("file", "symlink"):
                # Content, mode, owner and link target come from the privileged side's own copy;
                # progress.json only says which kind it was and the hash to check it against.
                st, problem = self._trusted_backup(step, path, b.get("backup"))
                if problem is not None:
                    return [], [], problem
                backup = self.system_backup_dir / step.id / Path(path).name
            if kind == "file":
                assert st is not None  # read from the privileged side's own copy above
                if not stat.S_ISREG(st.st_mode):
                    return [], [], translate("Setup", "the backup {backup} of {path} is missing or not in this step's backup folder; refused").format(backup=str(backup), path=path)
                try:
                    held = file_fingerprint(backup)
                except OSError:
                    held = None
                if held != b.get("sha256"):
                    return [], [], translate("Setup", "the backup {backup} does not match the hash noted when it was made; undo is refused").format(backup=str(backup))
                mode = f"{stat.S_IMODE(st.st_mode):04o}"
                argv: tuple[str, ...] = ("install", "-m", mode)
                if self._keeps_owner():
                    argv += ("-o", str(st.st_uid), "-g", str(st.st_gid))
                commands.append((*argv, str(backup), str(target)))
                notes.append(translate("Setup", "restore {path} from the backup {backup} (mode {mode})").format(path=str(target), backup=str(backup), mode=mode))
            elif kind == "symlink":
                assert st is not None
                link = os.readlink(backup) if stat.S_ISLNK(st.st_mode) else None
                if link is None or link != b.get("link"):
                    return [], [], translate("Setup", "the backup {backup} does not match the hash noted when it was made; undo is refused").format(backup=str(backup))
                commands.append(("ln", "-sfn", "--", link, str(target)))
                notes.append(translate("Setup", "put back the symbolic link {path} -> {link}").format(path=str(target), link=link))
            else:
                commands.append(("rm", "-f", "--", str(target)))
                notes.append(translate("Setup", "remove {path}: it did not exist before").format(path=str(target)))
        owned = {(r.key, r.name): r for r in step.registry}
        for r in rec.registry_before:
            change = owned.get((str(r.get("key")), str(r.get("name"))))
            if change is None:
                return [], [], translate("Setup", "progress.json names the registry value {value}, which this step does not change; refused").format(value=f"{r.get('key')}\\{r.get('name')}")
            if not _registry_value_ok(r, change):
                return [], [], translate("Setup", "progress.json holds a value for {value} that this step could not have saved (type {kind}); refused").format(
                    value=f"{r.get('key')}\\{r.get('name')}", kind=str(r.get("kind"))[:20])
            commands.append(_registry_restore(r))
            notes.append(None)
        for c in step.undo:
            commands.append(tuple(c))
            notes.append(None)
        return commands, notes, None
    def _keeps_owner(self) -> bool:
        # install -o/-g needs root; a test root run by a normal user keeps its own owner.
        return self.elevation != "none" or (hasattr(os, "geteuid") and os.geteuid() == 0)

    def _backup_files(self, step: Step, already: frozenset[str] | set[str] = frozenset()) -> tuple[list[dict], list[Argv]]:
        """For each declared file not saved yet: what is there now (its hash, mode and owner, or its
        link, or that it did not exist), and the privileged commands that copy it into the step's
        folder under the system backup folder. Raises OSError when a file cannot be read."""
        saved: list[dict] = []
        commands: list[Argv] = []
        todo = [f for f in step.files if f.path not in already]
        folder = self.system_backup_dir / step.id
        for f in todo:
            src = self.root(f.path)
            try:
                st = os.lstat(src)
            except FileNotFoundError:
                saved.append({"path": f.path, "kind": "absent", "backup": None, "sha256": ""})
                continue
            dest = folder / Path(f.path).name
            if not commands:
                commands.append(("install", "-d", "-m", "0755", str(folder)))
            if stat.S_ISLNK(st.st_mode):
                link = os.readlink(src)
                saved.append({"path": f.path, "kind": "symlink", "backup": str(dest), "link": link, "sha256": "link:" + link})
                commands.append(("ln", "-sfn", "--", link, str(dest)))
                continue
            if not stat.S_ISREG(st.st_mode):
                raise OSError(21, "not a regular file", str(src))
            mode = f"{stat.S_IMODE(st.st_mode):04o}"
            argv: tuple[str, ...] = ("install", "-m", mode)
            if self._keeps_owner():
                argv += ("-o", str(st.st_uid), "-g", str(st.st_gid))
            commands.append((*argv, str(src), str(dest)))
            saved.append({"path": f.path, "kind": "file", "backup": str(dest), "mode": mode,
                          "uid": st.st_uid, "gid": st.st_gid, "sha256": file_fingerprint(src)})
        return saved, commands

    def _trusted_backup(self, step: Step, path: str, recorded: object) -> tuple[os.stat_result | None, Msg | None]:
        """The privileged side's backup of ``path`` for this step, checked before undo trusts it:
        at the one place the step's backups go, owned by the privileged user and writable by no one
        else, in folders likewise (no link anywhere on the way)."""
        folder = self.system_backup_dir / step.id
        backup = folder / Path(path).name
        if recorded != str(backup):
            return None, translate("Setup", "the backup {backup} of {path} is missing or not in this step's backup folder; refused").format(backup=str(recorded), path=path)
        owner = self._privileged_uid()
        for d in (self.system_backup_dir, folder):
            try:
                dst = os.lstat(d)
            except OSError:
                return None, translate("Setup", "the backup {backup} of {path} is missing or not in this step's backup folder; refused").format(backup=str(backup), path=path)
            if not stat.S_ISDIR(dst.st_mode) or dst.st_uid != owner or dst.st_mode & 0o022:
                return None, translate("Setup", "{folder} is not a folder only the administrator can change; the backups in it are not trusted, so undo is refused").format(folder=str(d))
        try:
            st = os.lstat(backup)
        except OSError:
            return None, translate("Setup", "the backup {backup} of {path} is missing or not in this step's backup folder; refused").format(backup=str(backup), path=path)
        if st.st_uid != owner or (not stat.S_ISLNK(st.st_mode) and st.st_mode & 0o022):
            return None, translate("Setup", "the backup {backup} can be changed by someone other than the administrator; undo is refused").format(backup=str(backup))
        return st, None

    @property
    def registry(self):  # services.setup.windows.RegistryReader
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


def _mode4(mode: str) -> str:
    return mode if len(mode) == 4 else "0" + mode


def file_change_notes(f: FileChange, root: SystemRoot, backup_folder: Path, kept: dict | None = None,
                      probe: bool = True) -> list[Msg]:
    """Before a run: where the file goes, what happens to what is there now, and what undo restores."""
    target = root(f.path) if probe else f.path  # another machine's path stays as written (/etc/..., also on Windows)
    out: list[Msg] = []
    if not probe:
        out.append(translate("Setup", "if {path} exists there, it is backed up first and undo restores it byte for byte; if not, undo removes it").format(path=f.path))
    elif kept is not None:
        out.append(translate("Setup", "{path}: the first backup is kept (from the earlier run); undo restores the original from it").format(path=str(target)))
    else:
        try:
            st = os.lstat(target)
        except OSError:
            st = None
        if st is None:
            out.append(translate("Setup", "{path} does not exist yet: undo removes it").format(path=str(target)))
        elif stat.S_ISLNK(st.st_mode):
            out.append(translate("Setup", "{path} is a symbolic link to {link}: undo puts the link back").format(path=str(target), link=os.readlink(target)))
        else:
            out.append(translate("Setup", "back up {path} (mode {mode}) to {folder}; undo restores it byte for byte").format(
                path=str(target), mode=f"{stat.S_IMODE(st.st_mode):04o}", folder=str(backup_folder)))
    out.append(translate("Setup", "write {path} ({count} lines):").format(path=str(target), count=len(f.content.splitlines())))
    return out


def _remove_dir(path: str) -> Argv:
    return ("rm", "-rf", "--", path)


def _registry_set(r) -> Argv:
    return ("reg", "add", r.key, "/v", r.name, "/t", r.kind, "/d", r.data, "/f")


# The registry types a step sets (RegistryChange.kind) and what their data may be: a saved value
# is put back only as the type the step itself writes, and only as data the step allows
# (RegistryChange.restorable): progress.json can be edited by any program running as the user, and
# undo writes what it says with administrator rights.
_DWORD_MAX = 0xFFFFFFFF


def _registry_value_ok(r: dict, change) -> bool:  # change: services.setup.plan.RegistryChange
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
    if runs_as_user(_registry_restore(r)):
        return True  # the user's own hive, written as the user: nothing the user could not write anyway
    return data in (change.restorable or (change.data,))


def _dword(text: str) -> int:
    """A saved DWORD's number: reg.exe shows it in hex (0x...), the plan writes decimal."""
    text = text.strip().lower()
    return int(text, 16) if text.startswith("0x") else int(text, 10)


def _registry_restore(r: dict) -> Argv:
    if r.get("data") is None:
        return ("reg", "delete", r["key"], "/v", r["name"], "/f")
    kind, data = r.get("kind") or "REG_DWORD", str(r["data"])
    if kind == "REG_DWORD":  # checked by _registry_value_ok: written back in decimal, as reg.exe reads it
        data = str(_dword(data))
    return ("reg", "add", r["key"], "/v", r["name"], "/t", kind, "/d", data, "/f")


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
