"""The setup wizard's decisions, without any widgets.

Which state each step of a plan is in, what a person can do with a step right now,
where to pick up after a restart, and what "run" or "undo" means for a step. The
Setup page shows what this says; ``setup`` on the command line asks the same.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from services.i18n import Msg, translate
from services.setup.plan import Plan, Step
from services.setup.progress import ProgressStore, step_states

# What "run" or "undo" does with a step (WizardSession.run_mode / undo_mode).
DRY_RUN = "dry-run"  # show every action, change nothing
BY_HAND = "by-hand"  # a step the person does: show its explanation (and link)
RUN = "run"  # run (or undo) it on this machine
NOTHING = "nothing"  # undo of another machine's plan: there is nothing here to undo
NEEDS_FILE = "needs-file"  # a file the step runs (DDU, the driver package) is not chosen yet
# After one of these succeeds the driver or PyTorch changed: check the machine again.
RECHECK_AFTER = ("verify-driver", "install-pytorch", "reboot")
# The Windows steps that need a file the person downloaded, by plan option.
FILE_STEPS = {"driver_package": ("download-driver", "install-driver"), "ddu_exe": ("download-ddu", "run-ddu")}
FINISHED = ("done", "skipped")  # nothing left to do for a step in these states


@dataclass(frozen=True, slots=True)
class StepActions:
    """What can be done with one step now (a front end enables its controls from this)."""

    run: bool = False  # run it, or show what would run
    copy: bool = False  # copy its commands; switch the dry run on or off
    skip: bool = False
    check: bool = False  # run its check
    undo: bool = False
    mark_done: bool = False  # a step the person does by hand
    pick_driver: bool = False  # it needs the offline driver package
    pick_ddu: bool = False  # it needs Display Driver Uninstaller


def step_flags(step: Step, system: str) -> list[str]:
    """What a person should know before running a step: 'admin' or 'root', 'reboot', 'by hand'."""
    flags = []
    if step.needs_root:
        flags.append("admin" if system == "windows" else "root")
    if step.needs_reboot:
        flags.append("reboot")
    if step.manual:
        flags.append("by hand")
    return flags


@dataclass
class WizardSession:
    """One plan and its progress, as the wizard walks through it.

    ``preview``: the plan is for another machine; nothing runs or is recorded here, and
    every step counts as not run. ``checks``: each step's check result (done | not_done |
    unknown), as far as the checks have run.
    """

    progress: ProgressStore
    plan: Plan | None = None
    preview: bool = False
    checks: dict[str, str] = field(default_factory=dict)

    # ---- states ----------------------------------------------------------------------------
    def states(self) -> dict[str, str]:
        """Each step's true state: recorded, or found done by its check; a reboot is not
        done while a step that needs it is still to do."""
        if self.plan is None:
            return {}
        if self.preview:
            return {s.id: "pending" for s in self.plan.steps}
        return step_states(self.plan, self.progress, self.checks)

    def state(self, step: Step) -> str:
        return self.states().get(step.id, "pending")

    def recorded(self, step: Step) -> str:
        """The state progress.json holds for the step (another machine's plan has none)."""
        return "pending" if self.preview else self.progress.state(step.id)

    def status(self, step: Step) -> str:
        """The state to tell the person: a state, or 'already-done' (never run here, but its
        check passes) or 'waits' (run, but a step before it still needs doing, or ran after it)."""
        state, recorded = self.state(step), self.recorded(step)
        if recorded == "pending" and state == "done":
            return "already-done"
        if recorded == "done" and state == "pending":
            return "waits"
        return state

    # ---- the files the person picked ---------------------------------------------------------
    def picked_files(self) -> dict[str, str]:
        """The files picked for this machine's plan (the offline driver package, DDU), by plan
        option, as progress.json keeps them: the wizard reopened in Safe Mode still has them."""
        from dataclasses import fields

        from services.setup.windows_plan import WindowsPlanOptions

        known = {f.name for f in fields(WindowsPlanOptions)} - {"reopen_command"}
        return {k: v for k, v in self.progress.picked_files.items() if k in known}

    def pick_file(self, option: str, path: str) -> None:
        """Remember a picked file ('' forgets it); another machine's plan remembers nothing here."""
        if not self.preview:
            self.progress.pick_file(option, path)

    # ---- where to be --------------------------------------------------------------------------
    def first_open(self) -> int | None:
        """The index of the first step still to do (where to pick up after a restart)."""
        if self.plan is None:
            return None
        states = self.states()
        return next((i for i, s in enumerate(self.plan.steps) if states[s.id] not in FINISHED), None)

    def next_open(self, after: int) -> int:
        """Where to go once the step at ``after`` is skipped or marked done: the next step still to do
        (done or skipped rows, a passing check included, are passed over); when none is left after
        it, the first still to do before it; when nothing is left at all, the next row (or this one,
        the last)."""
        if self.plan is None:
            return after
        states = self.states()
        steps = self.plan.steps
        for i in (*range(after + 1, len(steps)), *range(after)):
            if states[steps[i].id] not in FINISHED:
                return i
        return min(after + 1, len(steps) - 1)

    def resume_index(self, keep: str | None = None) -> int:
        """The step to show: ``keep`` (the one that was open) if the plan has it, else the
        first still to do, else the first."""
        if self.plan is None:
            return 0
        ids = [s.id for s in self.plan.steps]
        if keep in ids:
            return ids.index(keep)
        first = self.first_open()
        return 0 if first is None else first

    # ---- what can be done ------------------------------------------------------------------------
    def actions(self, step: Step | None, busy: bool = False, dry: bool = False) -> StepActions:
        """What makes sense for ``step`` now. ``busy``: a check or step is running; ``dry``:
        run and undo only show what they would do. Another machine's plan can be read,
        copied and dry-run, nothing more."""
        if step is None:
            return StepActions()
        here = not self.preview and not busy
        windows = self.plan is not None and self.plan.system == "windows"
        return StepActions(
            run=not busy and (not self.preview or dry),
            copy=not busy,
            skip=here,
            check=here,
            undo=here and step.undoable and self.recorded(step) in ("done", "failed"),
            mark_done=here and step.manual,
            # Files are picked for this machine's plan only: another machine's paths mean nothing here.
            pick_driver=windows and not self.preview and step.id in FILE_STEPS["driver_package"],
            pick_ddu=windows and not self.preview and step.id in FILE_STEPS["ddu_exe"],
        )

    def run_mode(self, step: Step, dry: bool = False, demo: bool = False) -> str:
        """What "run" does: DRY_RUN (asked for, a recorded demo machine, or another machine's
        plan), BY_HAND (a step with no commands) or RUN."""
        if dry or demo or self.preview:
            return DRY_RUN
        if step.manual and not step.commands:
            return BY_HAND
        if self.missing_file(step):
            return NEEDS_FILE  # said before anything else, such as "this step restarts the computer"
        return RUN

    @staticmethod
    def missing_file(step: Step) -> str:
        """The file the step still needs chosen ('Display Driver Uninstaller.exe'), or ''."""
        return next((a.strip("<>") for c in step.commands for a in c if a.startswith("<") and a.endswith(">")), "")

    def undo_mode(self, dry: bool = False, demo: bool = False) -> str:
        """What "undo" does: DRY_RUN, NOTHING (another machine's plan) or RUN."""
        if dry or demo:
            return DRY_RUN
        return NOTHING if self.preview else RUN

    @staticmethod
    def asks_first(step: Step) -> bool:
        """Ask before running: the step restarts the computer."""
        return step.needs_reboot

    def after_success(self, step: Step, codes: set[str] | frozenset[str] = frozenset()) -> list[Msg]:
        """What to tell the person once ``step`` succeeded (and, where it changes the driver or
        PyTorch, the doctor looked again and found ``codes``): what works now, and the next step."""
        lines: list[Msg] = []
        if step.id in ("install-driver", "reboot", "verify-driver") and "driver_ok" in codes:
            lines.append(translate("Setup", "✔ The driver works now."))
        if step.id in ("install-pytorch", "verify-pytorch") and "torch_ok" in codes:
            lines.append(translate("Setup", "✔ PyTorch works on the GPU now."))
        nxt = self.first_open()
        if self.plan is not None and nxt is not None:
            lines.append(translate("Setup", "Next step: {title}").format(title=self.plan.steps[nxt].title))
        elif self.plan is not None:
            lines.append(translate("Setup", "Every step of this plan is done."))
        return lines

    @staticmethod
    def recheck_after(step: Step | None, ok: bool) -> bool:
        """Whether the machine should be checked again after ``step`` ran (the plan follows)."""
        return ok and step is not None and step.id in RECHECK_AFTER
