"""The wizard's decisions without widgets: step states, what can be done with a step,
where to resume after a restart, and what "run" and "undo" mean (services.setup.session)."""
from __future__ import annotations

import dataclasses

import pytest

from services.i18n import translate
from services.setup.plan import Plan, Step
from services.setup.progress import ProgressStore
from services.setup.session import BY_HAND, DRY_RUN, NEEDS_FILE, NOTHING, RUN, StepActions, WizardSession, step_flags


def step(sid: str, **kw) -> Step:
    return Step(sid, translate("Setup", sid), translate("Setup", "why"), **kw)


STEPS = (
    step("update-package-lists", commands=(("apt-get", "update"),), needs_root=True),
    step("install-driver", commands=(("apt-get", "install", "nvidia-driver-570"),), needs_root=True,
         undo=(("apt-get", "remove", "nvidia-driver-570"),)),
    step("enroll-mok", manual=True, link="https://example.org/mok"),
    step("reboot", commands=(("systemctl", "reboot"),), needs_root=True, needs_reboot=True),
    step("install-pytorch", commands=(("pip", "install", "torch"),)),
)


def make_plan(system: str = "linux", steps=STEPS) -> Plan:
    return Plan("ubuntu-24.04:10de:2684", system, "Ubuntu 24.04", True, translate("Setup", "plan"), steps=steps)


@pytest.fixture
def session(tmp_path) -> WizardSession:
    return WizardSession(ProgressStore(tmp_path / "progress.json"), make_plan())


def by_id(session: WizardSession, sid: str) -> Step:
    found = session.plan.step(sid)
    assert found is not None
    return found


def test_resume_point_is_the_first_step_still_to_do(session):
    assert session.first_open() == 0 and session.resume_index() == 0
    session.progress.set_state("update-package-lists", "done")
    session.progress.set_state("install-driver", "skipped")
    assert session.resume_index() == 2  # enroll-mok
    # The step that was open stays open, whatever is done.
    assert session.resume_index("install-pytorch") == 4
    assert session.resume_index("not-in-this-plan") == 2


def test_resume_after_a_reboot_reads_the_saved_progress(session, tmp_path):
    for sid in ("update-package-lists", "install-driver", "enroll-mok", "reboot"):
        session.progress.set_state(sid, "done")
    reopened = WizardSession(ProgressStore(tmp_path / "progress.json").load(), make_plan())
    assert reopened.resume_index() == 4 and reopened.state(by_id(reopened, "reboot")) == "done"


def test_everything_done_resumes_at_the_first_step(session):
    for s in STEPS:
        session.progress.set_state(s.id, "done")
    assert session.first_open() is None and session.resume_index() == 0


def test_a_passing_check_counts_as_done_and_is_told_apart(session):
    driver = by_id(session, "install-driver")
    session.checks = {"install-driver": "done"}
    assert session.state(driver) == "done" and session.recorded(driver) == "pending"
    assert session.status(driver) == "already-done"
    assert session.first_open() == 0  # update-package-lists: its check has not passed


def test_a_reboot_done_before_the_driver_waits(session):
    reboot = by_id(session, "reboot")
    session.progress.set_state("reboot", "done")
    assert session.state(reboot) == "pending" and session.status(reboot) == "waits"
    for sid in ("update-package-lists", "install-driver", "enroll-mok"):
        session.progress.set_state(sid, "skipped")
    assert session.status(reboot) == "done"


def test_another_machines_plan_has_no_progress_here(session):
    session.progress.set_state("update-package-lists", "done")
    session.preview = True
    first = by_id(session, "update-package-lists")
    assert session.states() == {s.id: "pending" for s in STEPS}
    assert session.recorded(first) == "pending" and session.status(first) == "pending"


def test_no_plan_means_no_states_and_no_actions(tmp_path):
    empty = WizardSession(ProgressStore(tmp_path / "p.json"))
    assert empty.states() == {} and empty.first_open() is None and empty.resume_index("x") == 0
    assert empty.actions(None) == StepActions()


def test_actions_for_this_machines_steps(session):
    driver, mok = by_id(session, "install-driver"), by_id(session, "enroll-mok")
    can = session.actions(driver)
    assert (can.run, can.copy, can.skip, can.check) == (True, True, True, True)
    assert not can.undo and not can.mark_done  # never run here: nothing to undo
    session.progress.set_state("install-driver", "failed")
    assert session.actions(driver).undo
    session.progress.set_state("install-driver", "undone")
    assert not session.actions(driver).undo
    assert session.actions(mok).mark_done and not session.actions(mok).undo  # by hand, no undo
    busy = session.actions(driver, busy=True)
    assert busy == StepActions()  # a running check or step: nothing else starts


def test_undo_needs_a_step_that_can_be_undone(session):
    pkg = by_id(session, "update-package-lists")  # no undo commands, no files
    session.progress.set_state(pkg.id, "done")
    assert not pkg.undoable and not session.actions(pkg).undo


def test_another_machines_plan_is_read_copied_and_dry_run_only(session):
    session.progress.set_state("install-driver", "done")
    session.preview = True
    driver, mok = by_id(session, "install-driver"), by_id(session, "enroll-mok")
    can = session.actions(driver)
    assert can.copy and not can.run and not (can.skip or can.check or can.undo)
    assert session.actions(driver, dry=True).run
    assert not session.actions(mok).mark_done


def test_windows_file_pickers_show_on_their_steps_only(tmp_path):
    steps = (step("download-driver", manual=True), step("run-ddu", commands=(("ddu.exe",),), needs_root=True),
             step("install-pytorch", commands=(("pip", "install", "torch"),)))
    win = WizardSession(ProgressStore(tmp_path / "p.json"), make_plan("windows", steps))
    picks = {s.id: (win.actions(s).pick_driver, win.actions(s).pick_ddu) for s in steps}
    assert picks == {"download-driver": (True, False), "run-ddu": (False, True), "install-pytorch": (False, False)}
    linux = WizardSession(ProgressStore(tmp_path / "q.json"), make_plan("linux", steps))
    assert not any(linux.actions(s).pick_driver or linux.actions(s).pick_ddu for s in steps)
    # another machine's plan: its files are that machine's, nothing is picked here
    other = WizardSession(ProgressStore(tmp_path / "r.json"), make_plan("windows", steps), preview=True)
    assert not any(other.actions(s).pick_driver or other.actions(s).pick_ddu for s in steps)


def test_a_step_whose_file_is_not_chosen_says_so_before_asking_to_restart(tmp_path):
    ddu = step("run-ddu", commands=(("<Display Driver Uninstaller.exe>", "-silent", "-restart"),), needs_root=True)
    ddu = dataclasses.replace(ddu, needs_reboot=True)
    win = WizardSession(ProgressStore(tmp_path / "p.json"), make_plan("windows", (ddu,)))
    assert win.run_mode(ddu) == NEEDS_FILE and win.missing_file(ddu) == "Display Driver Uninstaller.exe"
    picked = dataclasses.replace(ddu, commands=((r"C:\dl\Display Driver Uninstaller.exe", "-silent", "-restart"),))
    assert win.run_mode(picked) == RUN and win.asks_first(picked)


def test_what_run_and_undo_mean(session):
    driver, mok = by_id(session, "install-driver"), by_id(session, "enroll-mok")
    assert session.run_mode(driver) == RUN and session.run_mode(mok) == BY_HAND
    assert session.run_mode(driver, dry=True) == DRY_RUN and session.run_mode(mok, demo=True) == DRY_RUN
    assert session.undo_mode() == RUN and session.undo_mode(dry=True) == DRY_RUN and session.undo_mode(demo=True) == DRY_RUN
    session.preview = True
    assert session.run_mode(driver) == DRY_RUN and session.run_mode(mok) == DRY_RUN
    assert session.undo_mode() == NOTHING and session.undo_mode(dry=True) == DRY_RUN


def test_a_by_hand_step_with_commands_runs(session):
    assert session.run_mode(step("fix", manual=True, commands=(("true",),))) == RUN


def test_restart_asks_first_and_driver_changes_are_checked_again(session):
    assert WizardSession.asks_first(by_id(session, "reboot"))
    assert not WizardSession.asks_first(by_id(session, "install-driver"))
    assert WizardSession.recheck_after(by_id(session, "reboot"), ok=True)
    assert WizardSession.recheck_after(by_id(session, "install-pytorch"), ok=True)
    assert not WizardSession.recheck_after(by_id(session, "reboot"), ok=False)
    assert not WizardSession.recheck_after(by_id(session, "install-driver"), ok=True)
    assert not WizardSession.recheck_after(None, ok=True)


def test_step_flags_name_the_privilege_by_system():
    s = step("x", needs_root=True, needs_reboot=True, manual=True)
    assert step_flags(s, "linux") == ["root", "reboot", "by hand"]
    assert step_flags(s, "windows") == ["admin", "reboot", "by hand"]
    assert step_flags(step("y"), "linux") == []


def test_picked_files_come_back_for_this_machine_only(session, tmp_path):
    session.pick_file("ddu_exe", "C:\\Tools\\DDU\\Display Driver Uninstaller.exe")
    session.progress.pick_file("reopen_command", "x.exe")  # not a file the person picks
    session.progress.pick_file("not-an-option", "y.exe")
    reopened = WizardSession(ProgressStore(tmp_path / "progress.json").load(), make_plan("windows"))
    assert reopened.picked_files() == {"ddu_exe": "C:\\Tools\\DDU\\Display Driver Uninstaller.exe"}
    reopened.preview = True  # another machine's plan: its picks are not this machine's
    reopened.pick_file("driver_package", "D:\\581.57.exe")
    reopened.pick_file("ddu_exe", "")
    again = WizardSession(ProgressStore(tmp_path / "progress.json").load())
    assert again.picked_files() == {"ddu_exe": "C:\\Tools\\DDU\\Display Driver Uninstaller.exe"}
    again.pick_file("ddu_exe", "")
    assert WizardSession(ProgressStore(tmp_path / "progress.json").load()).picked_files() == {}


def test_after_skip_or_done_the_next_step_still_to_do(session):
    # Nothing finished: the next row.
    assert session.next_open(0) == 1
    # Rows already done (recorded, or found done by a check) are passed over.
    session.progress.set_state("install-driver", "done")
    session.checks = {"enroll-mok": "done"}
    session.progress.set_state("update-package-lists", "skipped")
    assert session.next_open(0) == 3  # reboot
    # None left after it: back to the first still to do before it.
    session.progress.set_state("install-pytorch", "done")
    session.progress.set_state("reboot", "done")
    session.progress.set_state("update-package-lists", "pending")
    assert session.next_open(4) == 0
    # Everything finished: the next row, and the last stays where it is.
    for s in STEPS:  # in order: a reboot recorded before a step that needs it would wait for it
        session.progress.set_state(s.id, "done")
    assert session.first_open() is None
    assert session.next_open(1) == 2 and session.next_open(4) == 4


def test_no_plan_stays_put(tmp_path):
    assert WizardSession(ProgressStore(tmp_path / "progress.json")).next_open(3) == 3
