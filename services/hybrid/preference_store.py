"""Applying a ``PreferencePlan`` with a JSON backup of every change first, and undoing it from that backup."""
from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path, PureWindowsPath

from services.hybrid.windows import HKCU, Registry, RegistryError
from services.hybrid.preference import Change, PlanError, PreferencePlan, read_file_bytes, read_file_text
from services.hybrid.preference_linux import slug
from services.hybrid.preference_windows import USER_GPU_PREFERENCES
from services.i18n import translate


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
        return read_file_text(Path(change.target))

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
                plan = _plan_from_json(json.loads(read_file_bytes(path).decode("utf-8")))
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
