"""The progress of a plan's steps, saved as progress.json so the wizard resumes after a reboot.

Each step's record keeps its state and the first backup of every file and registry value it
changed; a record with a wrong-typed field is kept but marked invalid, so undo refuses it.
"""
from __future__ import annotations

import json
import math
import os
import re
import shutil
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from services.i18n import Msg, translate
from services.setup.plan import Plan

STATES = ("pending", "done", "skipped", "failed", "undone")
# Steps that do not change the driver stack, so a restart does not wait for them.
PYTHON_STEPS = ("install-venv-support", "create-venv", "install-pytorch", "verify-pytorch")


@dataclass
class StepRecord:
    state: str = "pending"
    at: float = 0.0
    message: str = ""
    # The FIRST backup of each declared file, kept until an undo consumes it:
    # {"path", "kind": file|symlink|absent, "backup" (file), "mode", "uid", "gid", "link" (symlink)}
    backups: list[dict] = field(default_factory=list)
    registry_before: list[dict] = field(default_factory=list)  # {"key","name","kind","data"|None}
    invalid: str = ""  # why this record could not be trusted (undo refuses with it)


class ProgressStore:
    """Progress of one plan, saved as JSON so the wizard resumes after a reboot."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.plan_key = ""
        self.records: dict[str, StepRecord] = {}
        # Files the user picked for the plan (the offline driver package, DDU), by option name:
        # kept so the wizard reopened in Safe Mode or after a restart still has them.
        self.picked_files: dict[str, str] = {}
        self.load_problem: str | None = None  # English, one line (logs, tests)
        self.load_problem_text: Msg | None = None  # the same line, translatable

    def _problem(self, message: Msg) -> None:
        self.load_problem, self.load_problem_text = str(message), message

    def load(self) -> "ProgressStore":
        self.load_problem = self.load_problem_text = None
        try:
            data = json.loads(_read_regular(self.path, MAX_PROGRESS_BYTES))
        except FileNotFoundError:
            return self
        except (OSError, ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
            # Keep the broken file for the user; never lose the backup list silently.
            self._problem(translate("Setup", "{file} could not be read ({error}); starting fresh").format(
                file=self.path.name, error=exc.__class__.__name__))
            try:
                os.replace(self.path, self.path.with_name(self.path.name + f".broken-{int(time.time())}"))
            except OSError:
                pass
            return self
        if not isinstance(data, dict):
            self._keep_broken(translate("Setup", "{file}: the top level is not an object").format(file=self.path.name))
            return self
        plan_key = data.get("plan_key")
        self.plan_key = plan_key if isinstance(plan_key, str) else ""
        picked = data.get("picked_files") or {}
        # A wrong-typed entry is dropped (the user picks the file again), never trusted as a path.
        self.picked_files = {k: v for k, v in picked.items() if isinstance(k, str) and isinstance(v, str) and v} \
            if isinstance(picked, dict) else {}
        steps = data.get("steps") or {}
        if not isinstance(steps, dict):
            self._keep_broken(translate("Setup", "{file}: 'steps' is not an object").format(file=self.path.name))
            return self
        problems = []
        for sid, raw in steps.items():
            rec, problem = parse_record(str(sid), raw)
            self.records[str(sid)] = rec
            if problem:
                problems.append(problem)
        if problems:
            if len(problems) > 1:
                first = translate("Setup", "{file}: {problem} (and {count} more)").format(count=len(problems) - 1)
            else:
                first = translate("Setup", "{file}: {problem}")
            self._keep_broken(first.format(file=self.path.name, problem=problems[0]))
        return self

    def _keep_broken(self, problem: Msg) -> None:
        """Copy the file aside (never lose the backup list) and say what was wrong."""
        kept = self.path.with_name(self.path.name + f".broken-{int(time.time())}")
        try:
            shutil.copy2(self.path, kept)
            self._problem(translate("Setup", "{problem}; the file was kept as {kept}").format(
                problem=problem, kept=kept.name))
        except OSError:
            self._problem(problem)

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        data = {
            "version": 1,
            "plan_key": self.plan_key,
            "picked_files": self.picked_files,
            "steps": {sid: vars(rec) for sid, rec in self.records.items()},
        }
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)

    def pick_file(self, option: str, path: str) -> None:
        """Remember a file the user chose for the plan ('' forgets it) and save at once."""
        if path:
            self.picked_files[option] = path
        else:
            self.picked_files.pop(option, None)
        self.save()

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
        """Start a new record when the plan is for another machine or GPU, but keep every
        record that still holds a backup no undo has consumed: those files are this system's."""
        if self.plan_key and self.plan_key != plan.key:
            self.records = {sid: rec for sid, rec in self.records.items()
                            if rec.backups or rec.registry_before or rec.invalid}
        self.plan_key = plan.key


# progress.json holds a few records; anything far bigger is not ours.
MAX_PROGRESS_BYTES = 8 * 1024 * 1024


def _read_regular(path: Path, limit: int) -> str:
    """The text of a regular file, at most ``limit`` bytes: a FIFO or device put in its place
    is refused without blocking (O_NONBLOCK on open, then the type is checked), a huge file too."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise OSError(21, "not a regular file", str(path))
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit} bytes")
    return data.decode("utf-8")


def _finite_time(value) -> bool:
    """A time a clock can show: a 400-digit number would overflow float()."""
    try:
        return math.isfinite(float(value)) and abs(float(value)) < 1e11
    except (OverflowError, ValueError, TypeError):
        return False


BACKUP_KINDS = ("file", "symlink", "absent")
_MODE = re.compile(r"^0?[0-7]{3,4}$")


# What a field should hold, in the problem lines ("steps.x.at should be a whole number or a number, ...").
_KIND_NAMES = {"str": translate("Setup", "text"), "int": translate("Setup", "a whole number"),
               "float": translate("Setup", "a number"), "list": translate("Setup", "a list"),
               "dict": translate("Setup", "an object")}
_NOT_AN_OBJECT = translate("Setup", "{field} is not an object")
_NOT_ONE_OF = translate("Setup", "{field} is {value}, not one of {choices}")


def _typed(value, kinds, name: str) -> Msg | None:
    if isinstance(value, bool) or not isinstance(value, kinds):
        names = ["null" if k is type(None) else _KIND_NAMES.get(k.__name__, k.__name__) for k in kinds]
        want = names[0]
        for other in names[1:]:
            want = translate("Setup", "{either} or {other}").format(either=want, other=other)
        return translate("Setup", "{field} should be {want}, not {type} {value}").format(
            field=name, want=want, type=type(value).__name__, value=json.dumps(value)[:40])
    return None


def parse_record(sid: str, raw) -> tuple[StepRecord, Msg | None]:
    """One step's record from progress.json; wrong-typed fields make it 'invalid' with a clear reason
    (``invalid`` is the English line, saved with the record; the ``Msg`` is returned beside it)."""
    where = f"steps.{sid}"
    if not isinstance(raw, dict):
        not_an_object = _NOT_AN_OBJECT.format(field=where)
        return StepRecord(invalid=str(not_an_object)), not_an_object
    problem = (_typed(raw.get("state", "pending"), (str,), f"{where}.state")
               or _typed(raw.get("at", 0), (int, float), f"{where}.at")
               or _typed(raw.get("message", ""), (str,), f"{where}.message")
               or _typed(raw.get("backups", []), (list,), f"{where}.backups")
               or _typed(raw.get("registry_before", []), (list,), f"{where}.registry_before")
               or _typed(raw.get("invalid", ""), (str,), f"{where}.invalid"))
    if problem is None and not _finite_time(raw.get("at", 0)):
        problem = translate("Setup", "{field} is {value}, not a time").format(field=f"{where}.at", value=json.dumps(raw.get("at"))[:40])
    if problem is None and raw.get("state", "pending") not in STATES:
        problem = _NOT_ONE_OF.format(field=f"{where}.state", value=json.dumps(raw.get("state"))[:40],
                                     choices=", ".join(STATES))
    if problem is None:
        for i, b in enumerate(raw.get("backups", [])):
            problem = _backup_problem(b, f"{where}.backups[{i}]")
            if problem:
                break
    if problem is None:
        for i, r in enumerate(raw.get("registry_before", [])):
            w = f"{where}.registry_before[{i}]"
            problem = (_typed(r, (dict,), w) or _typed(r.get("key"), (str,), w + ".key") or _typed(r.get("name"), (str,), w + ".name")
                       or _typed(r.get("kind", "REG_DWORD"), (str,), w + ".kind") or _typed(r.get("data"), (str, type(None)), w + ".data"))
            if problem:
                break
    if problem:
        state = str(raw.get("state")) if raw.get("state") in STATES else "failed"
        return StepRecord(state=state, invalid=str(problem)), problem
    return StepRecord(state=raw.get("state", "pending"), at=float(raw.get("at", 0)), message=raw.get("message", ""),
                      backups=[_normal_backup(b) for b in raw.get("backups", [])],
                      registry_before=list(raw.get("registry_before", [])), invalid=raw.get("invalid", "")), None


def _backup_problem(b, where: str) -> Msg | None:
    problem = _typed(b, (dict,), where) or _typed(b.get("path"), (str,), where + ".path") or _typed(b.get("backup"), (str, type(None)), where + ".backup")
    if problem:
        return problem
    kind = b.get("kind", "file" if b.get("backup") else "absent")
    if kind not in BACKUP_KINDS:
        return _NOT_ONE_OF.format(field=f"{where}.kind", value=json.dumps(kind)[:40], choices=", ".join(BACKUP_KINDS))
    problem = (_typed(b.get("mode", "0644"), (str,), where + ".mode") or _typed(b.get("uid"), (int, type(None)), where + ".uid")
               or _typed(b.get("gid"), (int, type(None)), where + ".gid") or _typed(b.get("link", ""), (str,), where + ".link")
               or _typed(b.get("sha256", ""), (str,), where + ".sha256") or _typed(b.get("written", ""), (str,), where + ".written"))
    if problem:
        return problem
    if not _MODE.match(b.get("mode", "0644")):
        return translate("Setup", "{field} is {value}, not an octal file mode").format(
            field=f"{where}.mode", value=json.dumps(b.get("mode"))[:20])
    if kind == "file" and not b.get("backup"):
        return translate("Setup", "{field} is missing for a file").format(field=f"{where}.backup")
    if kind == "symlink" and not b.get("link"):
        return translate("Setup", "{field} is missing for a symbolic link").format(field=f"{where}.link")
    return None


def _normal_backup(b: dict) -> dict:
    """Records from before kinds were kept: a backup file is a 0644 file, none means absent."""
    out = dict(b)
    out.setdefault("kind", "file" if b.get("backup") else "absent")
    out.setdefault("mode", "0644")
    return out


def step_states(plan: Plan, progress: ProgressStore, checks: dict[str, str] | None = None) -> dict[str, str]:
    """The state each step really is in. A step whose check passes counts as done; a
    reboot step is not done while a step before it that needs the reboot is still to
    do, or ran after the reboot did."""
    checks = checks or {}
    out: dict[str, str] = {}
    for i, step in enumerate(plan.steps):
        state = progress.state(step.id)
        if state == "pending" and checks.get(step.id) == "done":
            state = "done"
        if step.id == "reboot" and state == "done":
            own = progress.records.get(step.id)
            at = own.at if own is not None and own.state == "done" else None  # None: found done by its check
            for earlier in plan.steps[:i]:
                if not (earlier.needs_root or earlier.needs_reboot) or earlier.id in PYTHON_STEPS:
                    continue  # a download, a check or Python's venv support does not wait for the restart
                if out.get(earlier.id) not in ("done", "skipped"):
                    state = "pending"
                    break
                rec = progress.records.get(earlier.id)
                if at is not None and rec is not None and rec.state == "done" and rec.at > at:
                    state = "pending"  # changed after the restart: it needs another one
                    break
        out[step.id] = state
    return out

