"""The originals a step's changes replace: saved before a run, checked before undo trusts them.

Before a step changes a file, the privileged side copies what is there into a folder only it can
write (SYSTEM_BACKUP_DIR); the progress store notes what was saved and its hash. Undo restores only
from that folder, and only after checking the copy is still the one it made.
"""
from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from services.i18n import Msg, translate
from services.setup.plan import Argv, FileChange, Step
from services.setup.progress import StepRecord
from services.setup.registry_values import registry_restore, registry_value_ok
from services.setup.system import SystemRoot

# Where the privileged side keeps the originals of system files a step changes. Undo, which runs
# as root, restores only from here: a folder only root can write, never the user's data folder
# or what progress.json (a file any program running as the user can edit) says.
SYSTEM_BACKUP_DIR = "/var/lib/gpu-assistant/setup-backups"


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


class StepBackups:
    """Backs up a step's files and works out its undo, for the privileged side at ``elevation``."""

    def __init__(self, root: SystemRoot, system_backup_dir: Path, elevation: str) -> None:
        self.root = root
        self.system_backup_dir = system_backup_dir
        self.elevation = elevation

    def undo_actions(self, step: Step, rec: StepRecord | None) -> tuple[list[Argv], list[Msg | None], Msg | None]:
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
                st, problem = self.trusted_backup(step, path, b.get("backup"))
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
                if self.keeps_owner():
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
            if not registry_value_ok(r, change):
                return [], [], translate("Setup", "progress.json holds a value for {value} that this step could not have saved (type {kind}); refused").format(
                    value=f"{r.get('key')}\\{r.get('name')}", kind=str(r.get("kind"))[:20])
            commands.append(registry_restore(r))
            notes.append(None)
        for c in step.undo:
            commands.append(tuple(c))
            notes.append(None)
        return commands, notes, None

    def keeps_owner(self) -> bool:
        # install -o/-g needs root; a test root run by a normal user keeps its own owner.
        return self.elevation != "none" or (hasattr(os, "geteuid") and os.geteuid() == 0)

    def backup_files(self, step: Step, already: frozenset[str] | set[str] = frozenset()) -> tuple[list[dict], list[Argv]]:
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
            if self.keeps_owner():
                argv += ("-o", str(st.st_uid), "-g", str(st.st_gid))
            commands.append((*argv, str(src), str(dest)))
            saved.append({"path": f.path, "kind": "file", "backup": str(dest), "mode": mode,
                          "uid": st.st_uid, "gid": st.st_gid, "sha256": file_fingerprint(src)})
        return saved, commands

    def trusted_backup(self, step: Step, path: str, recorded: object) -> tuple[os.stat_result | None, Msg | None]:
        """The privileged side's backup of ``path`` for this step, checked before undo trusts it:
        at the one place the step's backups go, owned by the privileged user and writable by no one
        else, in folders likewise (no link anywhere on the way)."""
        folder = self.system_backup_dir / step.id
        backup = folder / Path(path).name
        if recorded != str(backup):
            return None, translate("Setup", "the backup {backup} of {path} is missing or not in this step's backup folder; refused").format(backup=str(recorded), path=path)
        owner = self.privileged_uid()
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

    def privileged_uid(self) -> int:
        """Who owns what the privileged side writes: root when commands are elevated, else
        this process (a temporary root in tests, or the app run as root)."""
        if self.elevation in ("pkexec", "sudo"):
            return 0
        return os.geteuid() if hasattr(os, "geteuid") else 0


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
