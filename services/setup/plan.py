"""What a plan is made of: steps with exact commands, a check and an undo.

A step is data (frozen dataclasses), so the wizard can show the whole plan
before anything runs, the CLI can print it as JSON, and the executor can run,
dry-run, check and undo it the same way everywhere.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePath

from services.i18n import Msg

Argv = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FileChange:
    """A whole file the step writes (backed up first, restored by undo)."""

    path: str  # system path, e.g. /etc/modprobe.d/blacklist-nouveau.conf
    content: str
    staged: str  # user-owned copy the privileged command installs from
    # SHA-256 of the file when the plan was made (what the preview was based on);
    # "" = it did not exist; None = not read (a plan for another machine). The
    # executor refuses to write over a file that changed since then.
    base_sha256: str | None = None


@dataclass(frozen=True, slots=True)
class RegistryChange:
    """One registry value the step sets (its old value is saved for undo)."""

    key: str
    name: str
    kind: str  # REG_DWORD | REG_SZ
    data: str
    # What undo may put back, as the value saved before the run says (progress.json, a file any
    # program running as the user can edit): one of these (DWORDs in decimal). Empty: a REG_DWORD
    # may be any 32-bit number; a REG_SZ only the step's own ``data`` (a command line in a RunOnce
    # key must never come from that file). An absent value is always restored by deleting it.
    restorable: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Check:
    """How to tell whether a step is already done.

    kinds: ``any_file_contains`` (paths are folders or files, ``text`` must
    appear), ``file_contains``, ``command_ok`` (exit 0), ``command_output``
    (``expect`` appears in the output), ``driver_loaded`` (a module is loaded
    and matches the one on disk), ``torch_ok`` (the probe passes in ``argv[0]``),
    ``registry_value`` (``reg query`` shows ``expect``), ``file_exists``,
    ``secure_boot_key`` (MOK enrolled, or Secure Boot off).
    """

    kind: str
    paths: tuple[str, ...] = ()
    text: str = ""
    argv: Argv = ()
    expect: str = ""


@dataclass(frozen=True, slots=True)
class Step:
    id: str
    title: Msg
    explanation: Msg
    commands: tuple[Argv, ...] = ()
    needs_root: bool = False
    needs_reboot: bool = False
    check: Check | None = None
    undo: tuple[Argv, ...] = ()
    files: tuple[FileChange, ...] = ()
    registry: tuple[RegistryChange, ...] = ()
    source: str = ""
    manual: bool = False  # the person does it (a download, a firmware screen)
    link: str = ""
    undo_note: Msg | None = None
    restores: str = ""  # runs the undo of that step (e.g. put update settings back)
    # A folder the step creates (a virtual environment). Run marks it as ours when it
    # did not exist before; undo removes exactly that folder, and only with the mark.
    owned_dir: str = ""

    @property
    def undoable(self) -> bool:
        return bool(self.undo or self.files or self.registry or self.owned_dir) and not self.restores

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "title": str(self.title),
            "explanation": str(self.explanation),
            "commands": [list(c) for c in self.commands],
            "needs_root": self.needs_root,
            "needs_reboot": self.needs_reboot,
            "manual": self.manual,
            "check": None if self.check is None else {
                "kind": self.check.kind, "paths": list(self.check.paths), "text": self.check.text,
                "argv": list(self.check.argv), "expect": self.check.expect,
            },
            "undo": [list(c) for c in self.undo],
            "files": [{"path": f.path, "staged": f.staged, "content": f.content, "base_sha256": f.base_sha256} for f in self.files],
            "registry": [{"key": r.key, "name": r.name, "type": r.kind, "data": r.data} for r in self.registry],
            "source": self.source,
            "link": self.link,
            "restores": self.restores or None,
            "owned_dir": self.owned_dir or None,
        }


@dataclass(frozen=True, slots=True)
class PlanOutcome:
    """What the machine has once the plan is done: the driver it ends with and the
    PyTorch build chosen for that driver (so the two cannot disagree)."""

    driver_branch: str | None  # '580'; None when the plan cannot know (manual step)
    driver_version: str | None  # the lowest version the plan can end with ('580.65.06')
    driver_module: str | None  # open | proprietary | None (the package decides)
    driver_package: str  # what installs it ('nvidia-driver-580-open', 'akmod-nvidia', '' for manual)
    driver_from: str  # ubuntu | debian | nvidia-repo | rpmfusion | arch | aur | opensuse | installed | manual
    driver_supports_card: bool | None
    pytorch_build: str | None  # 'cu130'
    pytorch_cuda: str | None
    pytorch_index_url: str | None
    pytorch_needs_driver: str | None
    pytorch_runs: str | None  # ok | minor_compat | None (unknown driver)
    pytorch_release: str | None = None  # newest torch release with that build ('2.14')

    def to_json(self) -> dict:
        return {
            "driver": {"branch": self.driver_branch, "version": self.driver_version, "module": self.driver_module,
                       "package": self.driver_package, "from": self.driver_from,
                       "supports_card": self.driver_supports_card},
            "pytorch": {"build": self.pytorch_build, "cuda": self.pytorch_cuda, "index_url": self.pytorch_index_url,
                        "needs_driver": self.pytorch_needs_driver, "runs_on_driver": self.pytorch_runs,
                        "torch_release": self.pytorch_release},
        }


@dataclass(frozen=True, slots=True)
class SkippedStep:
    """A step of the full plan the doctor's findings make unnecessary, and why."""

    step: Step
    reason: Msg

    def to_json(self) -> dict:
        return {"id": self.step.id, "title": str(self.step.title), "reason": str(self.reason)}


@dataclass(frozen=True, slots=True)
class Plan:
    key: str  # identifies the machine the plan is for (progress belongs to it)
    system: str  # linux | windows
    os_label: str
    supported: bool
    summary: Msg
    notes: tuple[Msg, ...] = ()
    steps: tuple[Step, ...] = field(default_factory=tuple)
    outcome: PlanOutcome | None = None
    # Steps left out because the doctor found them not needed ("full" plans have none).
    skipped: tuple[SkippedStep, ...] = ()
    # full: every step; repair: only what the doctor found broken
    mode: str = "full"

    def step(self, step_id: str) -> Step | None:
        return next((s for s in self.steps if s.id == step_id), None)

    def to_json(self) -> dict:
        return {
            "key": self.key,
            "system": self.system,
            "os": self.os_label,
            "supported": self.supported,
            "summary": str(self.summary),
            "notes": [str(n) for n in self.notes],
            "steps": [s.to_json() for s in self.steps],
            **(self.outcome.to_json() if self.outcome else {"driver": None, "pytorch": None}),
            "mode": self.mode,
            "skipped": [s.to_json() for s in self.skipped],
        }


def staged_path(staging_dir: PurePath, step_id: str, system_path: str) -> str:
    return str(staging_dir / step_id / Path(system_path).name)
