"""Setup's registry undo against the real registry (Wine's in the Windows lane): the steps write their
values with reg.exe and undo puts the saved ones back, and a tampered progress.json (a file any
program running as the user can edit, while undo writes with administrator rights) cannot make undo
write a value the step does not own, of another type, under another key, or a command of the
attacker's into a RunOnce key. Marked ``windows``: skipped elsewhere, where
tests/services/setup/test_undo.py checks the same rules through a fake runner."""
from __future__ import annotations

import dataclasses
import json

import pytest

from tests.windows.test_windows_apis import raw_value, set_raw

pytestmark = pytest.mark.windows

HKLM_RUNONCE = "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\RunOnce"
HKLM_RUN = "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run"
ATTACK = "cmd.exe /c net user mallory P4ss /add"


@pytest.fixture
def registry_values():
    """Each value a test names starts absent and is put back as it was, whatever happens."""
    saved: dict[tuple[str, str], object] = {}

    def own(key: str, name: str) -> None:
        if (key, name) not in saved:
            saved[(key, name)] = raw_value(key, name)
            set_raw(key, name, None)

    yield own
    for (key, name), value in saved.items():
        set_raw(key, name, value)


def plan_and_executor(tmp_path):
    from services.setup.executor import StepExecutor
    from services.setup.planner import inputs_for, plan_for_os
    from services.setup.os_release import OsInfo
    from services.setup.progress import ProgressStore
    from services.setup.rules import load_rules
    from services.setup.system import SubprocessRunner, SystemRoot
    from services.setup.windows_plan import WindowsPlanOptions

    rules = load_rules()
    inputs = inputs_for(rules, SystemRoot(tmp_path), tmp_path / "staged", "2684")
    plan = plan_for_os(OsInfo(system="windows", pretty_name="Windows"), inputs, rules, WindowsPlanOptions())

    def executor():  # progress read back from the file, as the next start of the app reads it
        # Real reg.exe writes, real winreg reads; no UAC prompt (Wine has none; HKLM is writable in the prefix).
        return StepExecutor(SubprocessRunner(), SystemRoot(tmp_path), ProgressStore(tmp_path / "progress.json").load(),
                            tmp_path / "backups", elevation="none", system="windows")

    return plan, executor


def registry_step(plan, step_id: str):
    # Only the step's registry part: bcdedit and the restart are what Wine cannot do.
    return dataclasses.replace(plan.step(step_id), commands=(), undo=(), check=None)


def tamper(tmp_path, step_id: str, entries: list[dict]) -> None:
    path = tmp_path / "progress.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["steps"][step_id]["registry_before"] = entries
    path.write_text(json.dumps(data), encoding="utf-8")


def test_safe_mode_values_set_and_undone_for_real(tmp_path, registry_values):
    """The untampered round trip: absent before, written by the run, deleted by undo."""
    import winreg

    plan, executor = plan_and_executor(tmp_path)
    step = registry_step(plan, "safe-mode")
    for r in step.registry:
        registry_values(r.key, r.name)
    out = executor().run(step, plan=plan)
    assert out.ok, str(out.message)
    assert raw_value(HKLM_RUNONCE, "*UndoSM") == ("bcdedit /deletevalue {current} safeboot", winreg.REG_SZ)
    undone = executor().undo(step)
    assert undone.ok, str(undone.message)
    assert all(raw_value(r.key, r.name) is None for r in step.registry)


def test_a_tampered_progress_cannot_put_a_command_into_the_machine_runonce_key(tmp_path, registry_values):
    """The step owns HKLM RunOnce '*UndoSM' as REG_SZ; progress.json says its old value was the
    attacker's command. Undo runs elevated: it must not write that command (run at the next sign-in
    of any administrator), and must change nothing else either."""
    import winreg

    plan, executor = plan_and_executor(tmp_path)
    step = registry_step(plan, "safe-mode")
    for r in step.registry:
        registry_values(r.key, r.name)
    assert executor().run(step, plan=plan).ok
    ours = raw_value(HKLM_RUNONCE, "*UndoSM")
    user_value = next(r for r in step.registry if r.key.startswith("HKCU"))
    tamper(tmp_path, step.id, [
        {"key": HKLM_RUNONCE, "name": "*UndoSM", "kind": "REG_SZ", "data": ATTACK},
        {"key": user_value.key, "name": user_value.name, "kind": "REG_SZ", "data": None},
    ])
    ex = executor()
    shown = "\n".join(ex.describe(step, undo=True, plan=plan))
    assert ATTACK not in shown and "refused" in shown
    outcome = ex.undo(step)
    assert not outcome.ok and "refused" in str(outcome.message)
    assert raw_value(HKLM_RUNONCE, "*UndoSM") == ours == ("bcdedit /deletevalue {current} safeboot", winreg.REG_SZ)
    assert raw_value(user_value.key, user_value.name) is not None  # nothing at all was undone


@pytest.mark.parametrize("entry", [
    # a name the step does not own, in the machine's RunOnce key
    {"key": HKLM_RUNONCE, "name": "Mallory", "kind": "REG_SZ", "data": ATTACK},
    # the step's own name under another key (Run: every sign-in)
    {"key": HKLM_RUN, "name": "ExcludeWUDriversInQualityUpdate", "kind": "REG_DWORD", "data": "1"},
    # the step's own value as another type
    {"key": "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate", "name": "ExcludeWUDriversInQualityUpdate",
     "kind": "REG_SZ", "data": ATTACK},
    # the step's own DWORD with a number the policy does not have
    {"key": "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DriverSearching", "name": "SearchOrderConfig",
     "kind": "REG_DWORD", "data": "4294967295"},
    # the same key spelled with the long hive name: not the key the step declares
    {"key": "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\RunOnce", "name": "*UndoSM",
     "kind": "REG_SZ", "data": ATTACK},
], ids=["unowned-name", "other-key", "other-type", "dword-out-of-range", "hive-alias"])
def test_a_tampered_progress_cannot_make_undo_write_what_the_step_does_not_own(tmp_path, registry_values, entry):
    import winreg

    plan, executor = plan_and_executor(tmp_path)
    step = registry_step(plan, "block-driver-updates")
    for r in step.registry:
        registry_values(r.key, r.name)
    registry_values(entry["key"], entry["name"])
    wu, search = step.registry
    set_raw(search.key, search.name, (1, winreg.REG_DWORD))  # Windows' default
    assert executor().run(step, plan=plan).ok
    after_run = {(r.key, r.name): raw_value(r.key, r.name) for r in step.registry}
    assert after_run == {(wu.key, wu.name): (1, winreg.REG_DWORD), (search.key, search.name): (0, winreg.REG_DWORD)}
    tamper(tmp_path, step.id, [entry])
    outcome = executor().undo(step)
    assert not outcome.ok and "refused" in str(outcome.message)
    assert {(r.key, r.name): raw_value(r.key, r.name) for r in step.registry} == after_run
    if (entry["key"], entry["name"]) not in after_run:
        assert raw_value(entry["key"], entry["name"]) is None
    # The restore step that runs this undo is refused the same way.
    restore = executor().run(plan.step("restore-update-settings"), plan=plan)
    assert not restore.ok
    assert {(r.key, r.name): raw_value(r.key, r.name) for r in step.registry} == after_run


def test_saved_dword_values_come_back_for_real(tmp_path, registry_values):
    """What the step saved (one value set to 2, one absent) comes back exactly, even when progress.json
    writes the number in hex: a value the policy has is restored in decimal, with its type."""
    import winreg

    plan, executor = plan_and_executor(tmp_path)
    step = registry_step(plan, "block-driver-updates")
    for r in step.registry:
        registry_values(r.key, r.name)
    wu, search = step.registry
    set_raw(search.key, search.name, (2, winreg.REG_DWORD))
    assert executor().run(step, plan=plan).ok
    tamper(tmp_path, step.id, [{"key": wu.key, "name": wu.name, "kind": "REG_DWORD", "data": None},
                               {"key": search.key, "name": search.name, "kind": "REG_DWORD", "data": "0x2"}])
    outcome = executor().undo(step)
    assert outcome.ok, str(outcome.message)
    assert raw_value(wu.key, wu.name) is None
    assert raw_value(search.key, search.name) == (2, winreg.REG_DWORD)
