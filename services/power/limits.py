"""Changing a GPU's power limit, reversibly.

The change is ``nvidia-smi -i N -pl W`` as an argument list, run with the elevation the setup
wizard uses (``services.setup.elevation``: pkexec/sudo on Linux, a UAC prompt on Windows; none
when already root). Before anything runs, the previous limit is written to a journal file, so
the change can be undone, and a sweep killed half-way is restored on the next start. The limit
itself resets when the machine restarts (the driver forgets it) unless the user keeps it
(``services.power.persist``).
"""
from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from collections.abc import Callable

from services.i18n import Msg, translate
from services.power.model import PowerError
from services.setup.elevation import default_elevation, elevate
from services.setup.plan import Argv
from services.setup.system import Runner, SystemRoot

# nvidia-smi rounds -pl to whole watts in its own output; a limit read back within this of the
# requested value was applied.
LIMIT_TOLERANCE_W = 1.0
SET_TIMEOUT_S = 180.0  # a password or UAC prompt waits for the user

REASON_SWEEP = "sweep"  # restored after the sweep, or on the next start if the app was killed
REASON_USER = "user"  # the user's choice: stays until undone (or the next reboot)

REFUSED_PRIVILEGE = translate("Power", "administrator rights were refused (the password or UAC prompt was cancelled or failed); the power limit is unchanged")
REFUSED_DRIVER = translate("Power", "the driver refused to change the power limit: {detail}")
NO_NVIDIA_SMI = translate("Power", "nvidia-smi was not found; it comes with the NVIDIA driver")
NOT_APPLIED = translate("Power", "the power limit reads {current} W after the change, not {wanted} W")
OUT_OF_RANGE = translate("Power", "{watts} W is outside what GPU {gpu} accepts ({low}-{high} W)")


@dataclass(frozen=True, slots=True)
class LimitChange:
    """One change the app made: written before it runs, removed once it is undone."""

    uuid: str
    index: int
    name: str
    previous_w: float
    new_w: float
    reason: str  # REASON_SWEEP | REASON_USER
    time: float


@dataclass(frozen=True, slots=True)
class LimitOutcome:
    command: Argv  # what ran (elevated)
    ok: bool
    message: Msg | str
    dry_run: bool = False


class LimitJournal:
    """The changes not yet undone, newest last, in a small JSON file written atomically."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> list[LimitChange]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            raise PowerError(translate("Power", "cannot read the power-limit journal {path}: {reason}").format(
                path=str(self.path), reason=str(exc))) from None
        out: list[LimitChange] = []
        for item in data.get("changes", []) if isinstance(data, dict) else []:
            try:
                out.append(LimitChange(**item))
            except TypeError:
                continue  # an entry from another version: skipped, not fatal
        return out

    def save(self, changes: list[LimitChange]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"changes": [asdict(c) for c in changes]}, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)

    def add(self, change: LimitChange) -> None:
        self.save([*self.load(), change])

    def remove(self, change: LimitChange) -> None:
        self.save([c for c in self.load() if c != change])

    def original_for(self, uuid: str) -> float | None:
        """The limit before the app's first change still recorded for this GPU."""
        for c in self.load():
            if c.uuid == uuid:
                return c.previous_w
        return None


def default_journal() -> LimitJournal:
    from services.paths import AppPaths

    return LimitJournal(AppPaths.default().config_dir / "power-limit-journal.json")


def power_elevation(gui: bool) -> str:
    """The wizard's choice: none as root, pkexec (GUI) or sudo (terminal) on Linux, UAC on Windows."""
    system = "windows" if sys.platform == "win32" else "linux"
    return default_elevation(system, gui, SystemRoot())


def set_limit_command(index: int | str, watts: float) -> Argv:
    """``nvidia-smi -i N -pl W`` (``-i`` takes an index or a UUID; -pl whole or decimal watts)."""
    return ("nvidia-smi", "-i", str(index), "-pl", f"{watts:g}")


def _refusal(returncode: int, output: str, elevation: str) -> Msg:
    text = output.strip()
    # nvidia-smi says why first ("... is not supported in current scope ...", "Insufficient Permissions")
    last = text.splitlines()[0] if text else f"exit status {returncode}"
    lowered = text.lower()
    if "nvidia-smi" in lowered and ("not found" in lowered or "no such file" in lowered):
        return NO_NVIDIA_SMI  # also pkexec's "Cannot run program nvidia-smi: No such file or directory"
    # pkexec: 126 dismissed, 127 not authorised; sudo: 1 with a password complaint; UAC declined: 1223.
    if (elevation == "pkexec" and returncode in (126, 127)) or returncode == 1223 or (
            elevation == "sudo" and ("password" in lowered or "not in the sudoers" in lowered)):
        return REFUSED_PRIVILEGE
    return REFUSED_DRIVER.format(detail=last)


class PowerLimitSetter:
    """Sets, undoes and restores limits; ``read_limit(uuid)`` reads the enforced limit back (NVML)."""

    def __init__(self, runner: Runner, journal: LimitJournal, elevation: str,
                 read_limit: Callable[[str], float | None], clock: Callable[[], float] = time.time) -> None:
        self.runner = runner
        self.journal = journal
        self.elevation = elevation
        self.read_limit = read_limit
        self.clock = clock

    def command(self, index: int, watts: float) -> Argv:
        return elevate(set_limit_command(index, watts), self.elevation)

    def _run(self, index: int, uuid: str, watts: float) -> LimitOutcome:
        argv = self.command(index, watts)
        result = self.runner.run(list(argv), timeout=SET_TIMEOUT_S)
        current = self.read_limit(uuid)
        applied = current is not None and abs(current - watts) <= LIMIT_TOLERANCE_W
        if result.ok and applied:
            return LimitOutcome(argv, True, translate("Power", "GPU {gpu} power limit is now {watts} W").format(
                gpu=index, watts=f"{watts:g}"))
        if result.ok:
            return LimitOutcome(argv, False, NOT_APPLIED.format(current="?" if current is None else f"{current:g}",
                                                                wanted=f"{watts:g}"))
        if result.missing and self.elevation != "pkexec":  # pkexec's 127 is "not authorised"
            return LimitOutcome(argv, False, NO_NVIDIA_SMI)
        return LimitOutcome(argv, False, _refusal(result.returncode, result.output, self.elevation))

    def apply(self, index: int, uuid: str, name: str, previous_w: float, watts: float, reason: str,
              dry_run: bool = False) -> LimitOutcome:
        """Record the previous limit, then change it. A refused change leaves no journal entry."""
        if dry_run:
            return LimitOutcome(self.command(index, watts), True, translate(
                "Power", "dry run: GPU {gpu} would go from {old} W to {new} W").format(
                    gpu=index, old=f"{previous_w:g}", new=f"{watts:g}"), dry_run=True)
        change = LimitChange(uuid, index, name, previous_w, watts, reason, self.clock())
        self.journal.add(change)  # first: a crash after the change still knows how to undo it
        outcome = self._run(index, uuid, watts)
        if not outcome.ok:
            current = self.read_limit(uuid)
            if current is None or abs(current - previous_w) <= LIMIT_TOLERANCE_W:
                self.journal.remove(change)  # nothing changed: nothing to undo
        return outcome

    def revert(self, change: LimitChange, dry_run: bool = False) -> LimitOutcome:
        """Put back the limit from before ``change`` and drop its journal entry."""
        if dry_run:
            return LimitOutcome(self.command(change.index, change.previous_w), True, translate(
                "Power", "dry run: GPU {gpu} would go back to {old} W").format(
                    gpu=change.index, old=f"{change.previous_w:g}"), dry_run=True)
        current = self.read_limit(change.uuid)
        if current is not None and abs(current - change.previous_w) <= LIMIT_TOLERANCE_W:
            self.journal.remove(change)
            return LimitOutcome((), True, translate("Power", "GPU {gpu} is already at {old} W").format(
                gpu=change.index, old=f"{change.previous_w:g}"))
        outcome = self._run(change.index, change.uuid, change.previous_w)
        if outcome.ok:
            self.journal.remove(change)
        return outcome

    def undo_last(self, uuid: str | None = None, dry_run: bool = False) -> LimitOutcome | None:
        """Undo the newest change (of ``uuid`` when given); None when there is nothing to undo."""
        changes = [c for c in self.journal.load() if uuid is None or c.uuid == uuid]
        return self.revert(changes[-1], dry_run) if changes else None

    def restore_interrupted_sweeps(self, dry_run: bool = False) -> list[LimitOutcome]:
        """On start: a sweep that did not finish (the app was killed) left its limit set: restore it.
        A limit the user changed since (it no longer reads the sweep's value) is left alone."""
        out: list[LimitOutcome] = []
        for change in reversed(self.journal.load()):
            if change.reason != REASON_SWEEP:
                continue
            current = self.read_limit(change.uuid)
            if current is None or abs(current - change.new_w) > LIMIT_TOLERANCE_W:
                if not dry_run:
                    self.journal.remove(change)  # no longer ours to restore (rebooted, or changed since)
                continue
            out.append(self.revert(change, dry_run))
        return out


def check_range(watts: float, gpu: int, low: float | None, high: float | None) -> None:
    if (low is not None and watts < low - 1e-6) or (high is not None and watts > high + 1e-6):
        raise PowerError(OUT_OF_RANGE.format(watts=f"{watts:g}", gpu=gpu,
                                             low="?" if low is None else f"{low:g}",
                                             high="?" if high is None else f"{high:g}"))
