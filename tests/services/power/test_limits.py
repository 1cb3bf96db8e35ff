"""Power-limit changes the way the setup steps are tested: the exact elevated argument lists
(pkexec, sudo, UAC, none as root), a refused privilege and a refusing driver leave the limit and
the journal as they were, and keeping a limit after restarts is an exact, undoable list of steps."""
from __future__ import annotations

import pytest

from services.power import limits as limits_module
from services.power.limits import (
    NO_NVIDIA_SMI, REASON_USER, REFUSED_PRIVILEGE, LimitJournal, PowerLimitSetter, power_elevation,
)
from services.power.model import PowerError
from services.power.persist import keep_plan, kept_limit, run_steps, unit_name
from services.setup.system import CommandResult, FakeRunner, SystemRoot

UUID = "GPU-4f1c2a9e-0000-4000-8000-000000000001"


class Card:
    """The enforced limit the setter reads back; a runner handler that changes it."""

    def __init__(self, watts: float = 450.0) -> None:
        self.watts = watts

    def read(self, uuid: str) -> float | None:
        return self.watts

    def handler(self, result: CommandResult | None = None):
        def handle(argv):
            if result is not None:
                return result
            self.watts = float(argv[argv.index("-pl") + 1])
            return CommandResult(0, "All done.")
        return handle


def setter(tmp_path, card: Card, elevation: str, result: CommandResult | None = None):
    runner = FakeRunner(handler=card.handler(result))
    return PowerLimitSetter(runner, LimitJournal(tmp_path / "j.json"), elevation, card.read), runner


@pytest.mark.parametrize("mode, first", [("pkexec", ("pkexec", "nvidia-smi")), ("sudo", ("sudo", "nvidia-smi")),
                                         ("none", ("nvidia-smi", "-i"))])
def test_linux_commands_are_argument_lists(tmp_path, mode, first):
    card = Card()
    s, runner = setter(tmp_path, card, mode)
    outcome = s.apply(0, UUID, "RTX 4090", 450.0, 350.0, REASON_USER)
    assert outcome.ok and card.watts == 350.0
    assert runner.calls[0][:2] == first and runner.calls[0][-5:] == ("nvidia-smi", "-i", "0", "-pl", "350")
    assert s.journal.load()[0].previous_w == 450.0


def test_uac_wraps_nvidia_smi_for_windows(tmp_path):
    card = Card()
    s, runner = setter(tmp_path, card, "uac")
    argv = s.command(0, 300)
    assert argv[0] == "powershell.exe" and "-Verb RunAs" in argv[-1]
    assert "-FilePath 'nvidia-smi' -ArgumentList '-i 0 -pl 300'" in argv[-1]


@pytest.mark.parametrize("mode, result", [
    ("pkexec", CommandResult(126, "", "Error executing command as another user: Request dismissed")),
    ("pkexec", CommandResult(127, "", "Error executing command as another user: Not authorized")),
    ("sudo", CommandResult(1, "", "sudo: a password is required")),
    ("uac", CommandResult(1223, "", "The operation was canceled by the user.")),
])
def test_refused_privilege_changes_nothing(tmp_path, mode, result):
    card = Card()
    s, _ = setter(tmp_path, card, mode, result)
    outcome = s.apply(0, UUID, "RTX 4090", 450.0, 350.0, REASON_USER)
    assert not outcome.ok and outcome.message == REFUSED_PRIVILEGE
    assert card.watts == 450.0 and s.journal.load() == []


def test_driver_refusal_and_missing_nvidia_smi(tmp_path):
    card = Card(700.0)
    s, _ = setter(tmp_path, card, "none", CommandResult(
        4, "Changing power management limit is not supported in current scope for GPU: 00000000:06:00.0.\nTreating as warning and moving on.\nAll done."))
    outcome = s.apply(0, UUID, "H200", 700.0, 560.0, REASON_USER)
    assert "not supported in current scope" in str(outcome.message) and s.journal.load() == []
    s, _ = setter(tmp_path, card, "none", CommandResult(127, "", "nvidia-smi: command not found"))
    assert s.apply(0, UUID, "H200", 700.0, 560.0, REASON_USER).message == NO_NVIDIA_SMI


def test_success_that_did_not_apply_is_said(tmp_path):
    card = Card()
    s, _ = setter(tmp_path, card, "none", CommandResult(0, "All done."))  # says ok, changes nothing
    outcome = s.apply(0, UUID, "x", 450.0, 350.0, REASON_USER)
    assert not outcome.ok and "reads 450 W after the change, not 350 W" in str(outcome.message)
    assert s.journal.load() == []


def test_dry_run_and_undo(tmp_path):
    card = Card()
    s, runner = setter(tmp_path, card, "sudo")
    dry = s.apply(0, UUID, "x", 450.0, 350.0, REASON_USER, dry_run=True)
    assert dry.dry_run and runner.calls == [] and s.journal.load() == []
    s.apply(0, UUID, "x", 450.0, 350.0, REASON_USER)
    assert s.undo_last(UUID, dry_run=True).command == ("sudo", "nvidia-smi", "-i", "0", "-pl", "450")
    assert card.watts == 350.0
    assert s.undo_last(UUID).ok and card.watts == 450.0 and s.journal.load() == []
    assert s.undo_last(UUID) is None


def test_damaged_journal_is_one_line(tmp_path):
    journal = LimitJournal(tmp_path / "j.json")
    journal.path.write_text("{broken", encoding="utf-8")
    with pytest.raises(PowerError, match="cannot read the power-limit journal"):
        journal.load()


def test_elevation_follows_the_wizard(monkeypatch):
    monkeypatch.setattr(limits_module.sys, "platform", "linux")
    monkeypatch.setattr("os.geteuid", lambda: 1000, raising=False)  # Windows has none
    assert power_elevation(gui=True) == "pkexec" and power_elevation(gui=False) == "sudo"
    monkeypatch.setattr("os.geteuid", lambda: 0, raising=False)
    assert power_elevation(gui=True) == "none"
    monkeypatch.setattr(limits_module.sys, "platform", "win32")
    assert power_elevation(gui=True) == "uac"


def test_keep_after_restart_linux_unit_and_undo(tmp_path):
    plan = keep_plan("linux", UUID, 350.0)
    tee, reload, enable = plan.keep
    assert tee.argv == ("tee", f"/etc/systemd/system/{unit_name(UUID)}")
    assert f"ExecStart=/usr/bin/nvidia-smi -i {UUID} -pl 350\n" in tee.input_text
    assert reload.argv == ("systemctl", "daemon-reload") and enable.argv[:2] == ("systemctl", "enable")
    assert [s.argv[:2] for s in plan.undo] == [("systemctl", "disable"), ("rm", "-f"), ("systemctl", "daemon-reload")]
    runner = FakeRunner()
    runner.add(("pkexec", "tee"), 0).add(("pkexec", "systemctl"), 0)
    ok, _ = run_steps(plan.keep, runner, "pkexec")
    assert ok and runner.calls[0][:2] == ("pkexec", "tee")
    refused = FakeRunner().add(("pkexec", "tee"), 126, "", "Request dismissed")
    ok, message = run_steps(plan.keep, refused, "pkexec")
    assert not ok and "tee /etc/systemd/system/" in str(message) and len(refused.calls) == 1
    root = SystemRoot(tmp_path)
    unit = root(f"/etc/systemd/system/{unit_name(UUID)}")
    unit.parent.mkdir(parents=True)
    unit.write_text(tee.input_text, encoding="utf-8")
    assert kept_limit("linux", UUID, root) == 350.0


def test_keep_after_restart_windows_task(tmp_path):
    plan = keep_plan("windows", UUID, 350.0)
    [create] = plan.keep
    assert create.argv[:6] == ("schtasks", "/Create", "/F", "/TN", f"GPU Assistant\\Power limit {UUID}", "/SC")
    assert create.argv[-1] == f'"C:\\Windows\\System32\\nvidia-smi.exe" -i {UUID} -pl 350'
    assert "/RU" in create.argv and "SYSTEM" in create.argv
    assert plan.undo[0].argv == ("schtasks", "/Delete", "/F", "/TN", f"GPU Assistant\\Power limit {UUID}")


def test_a_strange_uuid_never_reaches_a_command():
    with pytest.raises(PowerError):
        keep_plan("linux", "GPU-1; rm -rf /", 300)
