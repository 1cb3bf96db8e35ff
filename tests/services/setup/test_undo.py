"""Undo, byte for byte, after any number of runs, touching only the step's declared files
(against a temporary root; install/rm/ln really run there, nothing else does)."""
from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from services.setup.executor import StepExecutor
from services.setup.progress import ProgressStore
from services.setup.linux_plans import NOUVEAU_BLACKLIST, NOUVEAU_FILE
from services.setup.planner import inputs_for, plan_for_os
from services.setup.os_release import parse_os_release
from services.setup.rules import load_rules
from services.setup.system import CommandResult, FakeRunner, SystemRoot

from .machine import LINUX_DOCTOR, RUNS_LINUX_COMMANDS, os_release

RULES = load_rules()
BOOKWORM = "deb http://deb.debian.org/debian bookworm main\ndeb http://security.debian.org/debian-security bookworm-security main\n"


class Sandbox:
    """A temporary root plus the app's work folder; file commands run for real inside them."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.root_dir = tmp / "root"
        (self.root_dir / "etc" / "modprobe.d").mkdir(parents=True)
        (self.root_dir / "etc" / "apt").mkdir(parents=True)
        self.work = tmp / "work"
        allowed = (str(self.root_dir), str(self.work))

        def handler(argv):
            if argv[0] in ("install", "rm", "ln"):
                paths = [a for a in argv[1:] if a.startswith("/") and a != "/dev/stdin"]
                if argv[0] == "ln":
                    paths = paths[-1:]  # the link's target text may point anywhere
                assert paths and all(p.startswith(allowed) for p in paths), argv
                done = subprocess.run(list(argv), check=False, capture_output=True, text=True, input=self.runner.stdin)
                return CommandResult(done.returncode, done.stdout, done.stderr)
            return CommandResult(0, "")  # apt-get, update-initramfs, ...: recorded only

        self.runner = FakeRunner(handler=handler)
        self.progress_file = self.work / "progress.json"

    @property
    def root(self) -> SystemRoot:
        return SystemRoot(self.root_dir)

    def plan(self, distro: str = "ubuntu-24.04"):
        """A fresh plan, as the CLI makes one on every call (it reads the files as they are now)."""
        inputs = inputs_for(RULES, self.root, self.work / "staged", "2684", secure_boot="disabled", kernel="6.1.0-18-amd64")
        return plan_for_os(parse_os_release(os_release(distro)), inputs, RULES)

    def executor(self, plan) -> StepExecutor:
        progress = ProgressStore(self.progress_file).load()
        progress.adopt(plan)
        return StepExecutor(self.runner, self.root, progress, self.work / "backups")

    def path(self, system_path: str) -> Path:
        return self.root(system_path)


@pytest.fixture
def box(tmp_path):
    return Sandbox(tmp_path)


def snapshot(p: Path):
    st = os.lstat(p)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(p))
    return ("file", p.read_bytes(), stat.S_IMODE(st.st_mode))


def run_n_times(box: Sandbox, step_id: str, n: int, distro: str = "ubuntu-24.04") -> None:
    for _ in range(n):
        plan = box.plan(distro)
        outcome = box.executor(plan).run(plan.step(step_id))
        assert outcome.ok, outcome.message


def undo(box: Sandbox, step_id: str, distro: str = "ubuntu-24.04", dry_run: bool = False):
    plan = box.plan(distro)
    return box.executor(plan).undo(plan.step(step_id), dry_run=dry_run)


@RUNS_LINUX_COMMANDS
@pytest.mark.parametrize("runs", [1, 2, 3])
def test_original_blacklist_file_comes_back_byte_for_byte(box, runs):
    original = b"# my own notes\r\nblacklist foo\n\xff not utf-8\n"
    target = box.path(NOUVEAU_FILE)
    target.write_bytes(original)
    os.chmod(target, 0o600)
    run_n_times(box, "blacklist-nouveau", runs)
    assert target.read_text() == NOUVEAU_BLACKLIST
    outcome = undo(box, "blacklist-nouveau")
    assert outcome.ok, outcome.message
    assert snapshot(target) == ("file", original, 0o600)
    # the undo consumed the backup: another run + undo starts from the restored original
    run_n_times(box, "blacklist-nouveau", 2)
    assert undo(box, "blacklist-nouveau").ok
    assert snapshot(target) == ("file", original, 0o600)


@RUNS_LINUX_COMMANDS
@pytest.mark.parametrize("runs", [1, 2, 3])
def test_a_file_that_did_not_exist_is_removed(box, runs):
    run_n_times(box, "blacklist-nouveau", runs)
    assert box.path(NOUVEAU_FILE).exists()
    assert undo(box, "blacklist-nouveau").ok
    assert not os.path.lexists(box.path(NOUVEAU_FILE))


@RUNS_LINUX_COMMANDS
def test_a_symlink_stays_a_symlink(box):
    real = box.path("/etc/modprobe.d/shared/nouveau.conf")
    real.parent.mkdir()
    real.write_text("blacklist lbm-nouveau\n")
    link = box.path(NOUVEAU_FILE)
    link.symlink_to("shared/nouveau.conf")
    run_n_times(box, "blacklist-nouveau", 2)
    assert not link.is_symlink() and real.read_text() == "blacklist lbm-nouveau\n"  # the link's target untouched
    assert undo(box, "blacklist-nouveau").ok
    assert snapshot(link) == ("link", "shared/nouveau.conf")
    assert real.read_text() == "blacklist lbm-nouveau\n"


@RUNS_LINUX_COMMANDS
@pytest.mark.parametrize("runs", [1, 2])
def test_debian_sources_line_is_restored(box, runs):
    sources = box.path("/etc/apt/sources.list")
    sources.write_text(BOOKWORM)
    os.chmod(sources, 0o644)
    run_n_times(box, "enable-non-free", runs, "debian-12")
    assert "non-free" in sources.read_text()
    assert undo(box, "enable-non-free", "debian-12").ok
    assert snapshot(sources) == ("file", BOOKWORM.encode(), 0o644)


@RUNS_LINUX_COMMANDS
def test_file_edited_after_the_preview_is_not_overwritten(box):
    sources = box.path("/etc/apt/sources.list")
    sources.write_text(BOOKWORM)
    plan = box.plan("debian-12")  # the preview: made from the file as it was
    step = plan.step("enable-non-free")
    edited = BOOKWORM + "deb http://deb.debian.org/debian bookworm-backports main\n"
    sources.write_text(edited)
    outcome = box.executor(plan).run(step)
    assert not outcome.ok and "changed after the plan was shown" in str(outcome.message)
    assert sources.read_text() == edited
    # a fresh plan (a new preview) sees the edit and keeps it
    run_n_times(box, "enable-non-free", 1, "debian-12")
    assert "bookworm-backports main contrib non-free non-free-firmware" in sources.read_text()


def _tamper(box: Sandbox, step_id: str, change) -> None:
    data = json.loads(box.progress_file.read_text())
    change(data["steps"][step_id])
    box.progress_file.write_text(json.dumps(data))


@RUNS_LINUX_COMMANDS
def test_undo_refuses_a_path_the_step_does_not_declare(box):
    victim = box.tmp / "victim.txt"
    victim.write_text("keep me")
    run_n_times(box, "blacklist-nouveau", 1)
    for bad in ("/etc/../../victim.txt", "/etc/passwd", "/etc/modprobe.d/../modprobe.d/blacklist-nouveau.conf"):
        _tamper(box, "blacklist-nouveau", lambda rec, bad=bad: rec["backups"][0].update(path=bad))
        outcome = undo(box, "blacklist-nouveau")
        assert not outcome.ok and "refused" in str(outcome.message), bad
        dry = undo(box, "blacklist-nouveau", dry_run=True)
        assert not dry.ok
    assert victim.read_text() == "keep me"
    assert box.path(NOUVEAU_FILE).read_text() == NOUVEAU_BLACKLIST  # nothing was touched
    assert not any(c[0] in ("rm", "install", "ln") and "victim" in " ".join(c) for c in box.runner.calls)


@RUNS_LINUX_COMMANDS
def test_undo_refuses_a_backup_outside_the_steps_folder(box):
    target = box.path(NOUVEAU_FILE)
    target.write_text("mine\n")
    run_n_times(box, "blacklist-nouveau", 1)
    elsewhere = box.tmp / "elsewhere.conf"
    elsewhere.write_text("not a backup")
    _tamper(box, "blacklist-nouveau", lambda rec: rec["backups"][0].update(backup=str(elsewhere)))
    outcome = undo(box, "blacklist-nouveau")
    assert not outcome.ok and "not in this step's backup folder" in str(outcome.message)
    assert target.read_text() == NOUVEAU_BLACKLIST


@RUNS_LINUX_COMMANDS
@pytest.mark.parametrize("change, field", [
    (lambda rec: rec.update(at="yesterday"), "steps.blacklist-nouveau.at"),
    (lambda rec: rec.update(backups={"path": NOUVEAU_FILE}), "steps.blacklist-nouveau.backups"),
    (lambda rec: rec["backups"][0].update(path=7), "steps.blacklist-nouveau.backups[0].path"),
    (lambda rec: rec["backups"][0].update(mode="rwx"), "steps.blacklist-nouveau.backups[0].mode"),
    (lambda rec: rec["backups"][0].update(kind="device"), "steps.blacklist-nouveau.backups[0].kind"),
    (lambda rec: rec.update(state=["done"]), "steps.blacklist-nouveau.state"),
])
def test_wrong_typed_progress_is_a_clear_message(box, change, field):
    box.path(NOUVEAU_FILE).write_text("mine\n")
    run_n_times(box, "blacklist-nouveau", 1)
    _tamper(box, "blacklist-nouveau", change)
    plan = box.plan()
    progress = ProgressStore(box.progress_file).load()
    assert progress.load_problem and field in progress.load_problem and "kept as progress.json.broken-" in progress.load_problem
    ex = StepExecutor(box.runner, box.root, progress, box.work / "backups")
    outcome = ex.undo(plan.step("blacklist-nouveau"))
    assert not outcome.ok and "damaged" in str(outcome.message) and field in str(outcome.message)
    rerun = ex.run(plan.step("blacklist-nouveau"))
    assert not rerun.ok
    assert box.path(NOUVEAU_FILE).read_text() == NOUVEAU_BLACKLIST
    assert list(box.work.glob("progress.json.broken-*"))  # the user's file is kept as it was


@RUNS_LINUX_COMMANDS
def test_undo_dry_run_reports_its_commands_and_changes_nothing(box):
    target = box.path(NOUVEAU_FILE)
    target.write_text("mine\n")
    os.chmod(target, 0o640)
    run_n_times(box, "blacklist-nouveau", 2)
    calls = len(box.runner.calls)
    dry = undo(box, "blacklist-nouveau", dry_run=True)
    assert dry.ok
    text = "\n".join(dry.lines)
    assert "install -m 0640" in text and str(target) in text and "update-initramfs -u" in text
    assert "restore " + str(target) + " from the backup " in text
    assert len(box.runner.calls) == calls and target.read_text() == NOUVEAU_BLACKLIST
    real = undo(box, "blacklist-nouveau")
    assert real.ok and [" ".join(c.argv) for c in real.log][0].startswith("install -m 0640")
    assert target.read_text() == "mine\n"


@pytest.mark.linux_only("the backup line says the POSIX mode of a Linux file (0644); Windows has no such modes")
def test_preview_shows_contents_destination_and_undo(box):
    plan = box.plan()
    lines = box.executor(plan).describe(plan.step("blacklist-nouveau"))
    text = "\n".join(lines)
    assert f"{box.path(NOUVEAU_FILE)} does not exist yet: undo removes it" in text
    assert "#   blacklist nouveau" in text and "#   options nouveau modeset=0" in text
    box.path(NOUVEAU_FILE).write_text("x\n")
    text = "\n".join(box.executor(box.plan()).describe(box.plan().step("blacklist-nouveau")))
    assert f"back up {box.path(NOUVEAU_FILE)} (mode 0644) to {box.path('/var/lib/gpu-assistant/setup-backups/blacklist-nouveau')}" in text


@RUNS_LINUX_COMMANDS
def test_a_new_plan_keeps_backups_no_undo_consumed(box):
    original = b"blacklist lbm-nouveau\n"
    box.path(NOUVEAU_FILE).write_bytes(original)
    run_n_times(box, "blacklist-nouveau", 1)
    # the card changed (another plan key): the backup of the system's file is still there to undo
    inputs = inputs_for(RULES, box.root, box.work / "staged", "2b85", secure_boot="disabled")
    other = plan_for_os(parse_os_release(os_release("ubuntu-24.04")), inputs, RULES)
    ex = box.executor(other)
    assert ex.progress.plan_key == other.key and ex.progress.records["blacklist-nouveau"].backups
    assert ex.undo(other.step("blacklist-nouveau")).ok
    assert box.path(NOUVEAU_FILE).read_bytes() == original


def test_registry_values_run_twice_still_restore_the_originals(box):
    from services.setup.os_release import OsInfo
    from services.setup.windows_registry import RegQueryTextReader
    from services.setup.windows_plan import WindowsPlanOptions

    wu = ("HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate", "ExcludeWUDriversInQualityUpdate")
    search = ("HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DriverSearching", "SearchOrderConfig")
    registry = {search: ("REG_DWORD", "1")}  # the WU policy value is not set at first

    def reg(argv):
        if argv[:2] == ("reg", "query"):
            value = registry.get((argv[2], argv[4]))
            if value is None:
                return CommandResult(1, "", "ERROR: The system was unable to find the specified registry key or value.\r\n")
            return CommandResult(0, f"\r\n{argv[2]}\r\n    {argv[4]}    {value[0]}    {value[1]}\r\n")
        if argv[:2] == ("reg", "add"):
            registry[(argv[2], argv[4])] = (argv[6], argv[8])
            return CommandResult(0, "The operation completed successfully.\r\n")
        if argv[:2] == ("reg", "delete"):
            registry.pop((argv[2], argv[4]), None)
            return CommandResult(0, "The operation completed successfully.\r\n")
        return None

    runner = FakeRunner(handler=reg)
    # The registry is read through the same recorded `reg` (on Windows it would be the real one, winreg).
    registry_reader = RegQueryTextReader(runner)
    inputs = inputs_for(RULES, box.root, box.work / "staged", "2684")
    plan = plan_for_os(OsInfo(system="windows", pretty_name="Windows"), inputs, RULES, WindowsPlanOptions())
    step = plan.step("block-driver-updates")
    for _ in range(3):
        progress = ProgressStore(box.progress_file).load()
        progress.adopt(plan)
        assert StepExecutor(runner, box.root, progress, box.work / "backups", system="windows", registry=registry_reader).run(step).ok
    assert registry == {search: ("REG_DWORD", "0"), wu: ("REG_DWORD", "1")}
    progress = ProgressStore(box.progress_file).load()
    assert StepExecutor(runner, box.root, progress, box.work / "backups", system="windows", registry=registry_reader).undo(step).ok
    assert registry == {search: ("REG_DWORD", "1")}


@LINUX_DOCTOR
def test_cli_undo_of_a_step_the_repair_plan_leaves_out(box, monkeypatch, capsys, app_paths):
    """Run with --full, then the plan (driver fine, no nouveau) leaves the step out: undo still finds it."""
    import main
    from services.setup import doctor as doctor_module
    from services.setup import system as system_module

    from .machine import FakeNvml, Machine

    m = Machine(box.root_dir)
    m.distro("ubuntu-24.04").lspci("lspci-4090-nvidia.txt").loaded("proc-driver-version-open-570.txt", "nvidia 1 0\n")
    m.modinfo("570.133.07").secure_boot("mokutil-disabled.txt").smi(0, "570.133.07, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    allowed = (str(box.root_dir), str(app_paths.data_dir))

    def files_only(argv):
        if argv[0] not in ("install", "rm", "ln"):
            return None
        assert all(a.startswith(allowed) for a in argv[1:] if a.startswith("/") and a != "/dev/stdin"), argv
        done = subprocess.run(list(argv), check=False, capture_output=True, text=True, input=m.runner.stdin)
        return CommandResult(done.returncode, done.stdout, done.stderr)

    m.runner.handler = files_only
    m.runner.responses[("update-initramfs",)] = CommandResult(0, "")
    monkeypatch.setattr(system_module, "SubprocessRunner", lambda *a, **k: m.runner)
    monkeypatch.setattr(system_module, "SystemRoot", lambda *a, **k: m.root)
    monkeypatch.setattr(doctor_module, "SystemRoot", lambda *a, **k: m.root)
    real = doctor_module.read_nvml
    monkeypatch.setattr(doctor_module, "read_nvml", lambda _mod=None: real(FakeNvml()))
    target = box.path(NOUVEAU_FILE)
    target.write_text("# mine\n")
    os.chmod(target, 0o600)
    for _ in range(2):
        assert main.main(["setup", "--run", "blacklist-nouveau", "--yes", "--full"]) == 0
    capsys.readouterr()
    assert main.main(["setup", "--undo", "blacklist-nouveau", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"install -m 0600 -o {os.getuid()} -g {os.getgid()} " in out and "update-initramfs -u" in out
    assert target.read_text() == NOUVEAU_BLACKLIST
    assert main.main(["setup", "--undo", "blacklist-nouveau", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "$ install -m 0600" in out and "Undone" in out  # the undo reports its commands
    assert snapshot(target) == ("file", b"# mine\n", 0o600)


@pytest.mark.parametrize("text", ["[" * 100000 + "]" * 100000, "not json", '{"steps": [1, 2]}', "[]", '{"steps": {"x": 5}}'])
def test_unreadable_progress_is_a_message_not_a_traceback(box, text):
    box.work.mkdir(parents=True, exist_ok=True)
    box.progress_file.write_text(text)
    progress = ProgressStore(box.progress_file).load()
    assert progress.load_problem and "progress.json" in progress.load_problem
    assert list(box.work.glob("progress.json.broken-*"))


@RUNS_LINUX_COMMANDS
def test_undo_does_not_throw_away_a_later_edit(box):
    target = box.path(NOUVEAU_FILE)
    target.write_text("# mine\n")
    run_n_times(box, "blacklist-nouveau", 2)
    target.write_text(NOUVEAU_BLACKLIST + "options nouveau foo=1\n")  # the person edited our file afterwards
    outcome = undo(box, "blacklist-nouveau")
    assert not outcome.ok and "was changed after GPU Assistant wrote it" in str(outcome.message)
    assert "options nouveau foo=1" in target.read_text()
    target.write_text(NOUVEAU_BLACKLIST)  # put back as we wrote it: undo goes ahead
    assert undo(box, "blacklist-nouveau").ok and target.read_text() == "# mine\n"


@pytest.mark.linux_only("the Linux privileged side: root's install(1) on a temporary root, POSIX owners, modes and symlinks")
# ---- undo trusts only what the privileged side made (progress.json is the user's to edit) ----
def test_undo_takes_mode_and_owner_from_the_privileged_backup_not_progress_json(box):
    target = box.path(NOUVEAU_FILE)
    target.write_bytes(b"# mine\n")
    os.chmod(target, 0o600)
    run_n_times(box, "blacklist-nouveau", 1)
    _tamper(box, "blacklist-nouveau", lambda rec: rec["backups"][0].update(mode="6777", uid=4242, gid=4242))
    outcome = undo(box, "blacklist-nouveau")
    assert outcome.ok, outcome.message
    st = os.lstat(target)
    assert stat.S_IMODE(st.st_mode) == 0o600 and st.st_uid == os.geteuid() and target.read_bytes() == b"# mine\n"
    assert not any("6777" in c or "4242" in c for call in box.runner.calls for c in call)


def _backup_of(box: Sandbox) -> Path:
    return box.path("/var/lib/gpu-assistant/setup-backups/blacklist-nouveau/blacklist-nouveau.conf")


@pytest.mark.linux_only("the Linux privileged side: root's install(1) on a temporary root, POSIX owners, modes and symlinks")
@pytest.mark.parametrize("spoil", ["content", "owner", "writable", "folder-writable", "swapped-for-link"])
def test_undo_refuses_a_backup_the_privileged_side_no_longer_vouches_for(box, spoil):
    target = box.path(NOUVEAU_FILE)
    target.write_text("# mine\n")
    run_n_times(box, "blacklist-nouveau", 1)
    backup = _backup_of(box)
    if spoil == "content":
        backup.write_text("install nouveau /bin/sh -c 'chmod u+s /bin/bash'\n")
    elif spoil == "owner":
        if not hasattr(os, "geteuid") or os.geteuid() != 0:
            pytest.skip("handing a file to another owner needs root")
        os.chown(backup, 4242, 4242)
    elif spoil == "writable":
        os.chmod(backup, 0o666)
    elif spoil == "folder-writable":
        os.chmod(backup.parent, 0o777)
    else:
        secret = box.tmp / "secret"
        secret.write_text("# mine\n")
        backup.unlink()
        backup.symlink_to(secret)
    before = len(box.runner.calls)
    outcome = undo(box, "blacklist-nouveau")
    assert not outcome.ok and "refused" in str(outcome.message), outcome.message
    assert target.read_text() == NOUVEAU_BLACKLIST and len(box.runner.calls) == before


@pytest.mark.linux_only("the Linux privileged side: root's install(1) on a temporary root, POSIX owners, modes and symlinks")
def test_undo_puts_back_the_link_the_privileged_side_saved_not_a_tampered_one(box):
    real = box.path("/etc/modprobe.d/shared/nouveau.conf")
    real.parent.mkdir()
    real.write_text("blacklist lbm-nouveau\n")
    box.path(NOUVEAU_FILE).symlink_to("shared/nouveau.conf")
    run_n_times(box, "blacklist-nouveau", 1)
    evil = box.tmp / "user-owned.conf"
    evil.write_text("install nvidia /tmp/x\n")
    _tamper(box, "blacklist-nouveau", lambda rec: rec["backups"][0].update(link=str(evil), sha256="link:" + str(evil)))
    outcome = undo(box, "blacklist-nouveau")
    assert not outcome.ok and "refused" in str(outcome.message)
    assert not os.path.islink(box.path(NOUVEAU_FILE))
    assert not any(str(evil) in call for call in box.runner.calls)


@pytest.mark.linux_only("the Linux privileged side: root's install(1) on a temporary root, POSIX owners, modes and symlinks")
def test_root_copies_what_the_preview_showed_even_if_the_staged_file_is_swapped(box):
    """The staged copy sits in the user's folder: swapped for a link to a secret (or rewritten)
    while the password prompt is open, root still writes the plan's content."""
    secret = box.tmp / "secret"
    secret.write_text("password=hunter2\n")
    os.chmod(secret, 0o600)
    inner = box.runner.handler

    def swap_then_run(argv):
        if argv[0] == "install" and argv[-1] == str(box.path(NOUVEAU_FILE)):
            staged = box.work / "staged" / "blacklist-nouveau" / "blacklist-nouveau.conf"
            staged.unlink()
            staged.symlink_to(secret)
        return inner(argv)

    box.runner.handler = swap_then_run
    run_n_times(box, "blacklist-nouveau", 1)
    assert box.path(NOUVEAU_FILE).read_text() == NOUVEAU_BLACKLIST
    shown = box.executor(box.plan()).describe(box.plan().step("blacklist-nouveau"))
    assert any("/dev/stdin" in line for line in shown)  # the preview says how the content travels


def _windows_step(box):
    from services.setup.os_release import OsInfo
    from services.setup.windows_plan import WindowsPlanOptions

    inputs = inputs_for(RULES, box.root, box.work / "staged", "2684")
    plan = plan_for_os(OsInfo(system="windows", pretty_name="Windows"), inputs, RULES, WindowsPlanOptions())
    return plan.step("block-driver-updates")


@pytest.mark.parametrize("change", [
    {"kind": "REG_SZ", "data": "cmd /c evil.exe"},  # another type than the step writes
    {"data": "99999999999"},  # not a DWORD
    {"data": "1 /f & evil"},
    {"key": "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\RunOnce", "name": "x"},
    {"data": "7"},  # a DWORD, but not a value this policy has
])
def test_registry_undo_restores_only_owned_names_with_their_type(box, change):
    step = _windows_step(box)
    r = step.registry[0]
    progress = ProgressStore(box.progress_file)
    rec = progress.record(step.id)
    rec.state = "done"
    rec.registry_before = [{"key": r.key, "name": r.name, "kind": r.kind, "data": "1", **change}]
    progress.save()
    runner = FakeRunner(handler=lambda argv: CommandResult(0, ""))
    ex = StepExecutor(runner, box.root, ProgressStore(box.progress_file).load(), box.work / "backups", system="windows")
    outcome = ex.undo(step)
    assert not outcome.ok and "refused" in str(outcome.message)
    assert runner.calls == []


def test_registry_undo_never_writes_a_command_from_progress_into_the_machine_runonce_key(box):
    """'*UndoSM' in HKLM RunOnce is the step's own REG_SZ: an elevated undo puts back only the step's
    own command (or deletes the value), never one progress.json names; the user's HKCU value is
    written as the user, so any printable text there gains nothing."""
    from services.setup.os_release import OsInfo
    from services.setup.windows_plan import WindowsPlanOptions

    inputs = inputs_for(RULES, box.root, box.work / "staged", "2684")
    step = plan_for_os(OsInfo(system="windows", pretty_name="Windows"), inputs, RULES, WindowsPlanOptions()).step("safe-mode")
    machine, user = step.registry
    runner = FakeRunner(handler=lambda argv: CommandResult(0, ""))
    for before, allowed in ((machine.data, True), ("cmd /c evil.exe", False), (None, True)):
        progress = ProgressStore(box.progress_file)
        rec = progress.record(step.id)
        rec.state = "done"
        rec.registry_before = [{"key": machine.key, "name": machine.name, "kind": "REG_SZ", "data": before},
                               {"key": user.key, "name": user.name, "kind": "REG_SZ", "data": "pythonw.exe other.py"}]
        progress.save()
        ex = StepExecutor(runner, box.root, ProgressStore(box.progress_file).load(), box.work / "backups",
                          system="windows", elevation="uac")
        runner.calls.clear()
        outcome = ex.undo(step)
        assert outcome.ok is allowed, (before, str(outcome.message))
        if not allowed:
            assert runner.calls == [] and "refused" in str(outcome.message)
        assert not any("evil" in a for argv in runner.calls for a in argv)


@pytest.mark.parametrize("at", ["1" * 400, "1e400", "-1e400", "1e300"])
def test_absurd_times_in_progress_are_a_problem_not_an_overflow(box, at):
    box.work.mkdir(parents=True, exist_ok=True)
    box.progress_file.write_text('{"steps": {"blacklist-nouveau": {"state": "done", "at": ' + at + "}}}")
    progress = ProgressStore(box.progress_file).load()
    assert progress.load_problem and "steps.blacklist-nouveau.at" in progress.load_problem
    plan = box.plan()
    ex = StepExecutor(box.runner, box.root, progress, box.work / "backups")
    assert not ex.undo(plan.step("blacklist-nouveau")).ok
    from services.setup.progress import step_states

    step_states(plan, progress)  # the plan's view of the states does not overflow either


@pytest.mark.linux_only("FIFOs in the file system (os.mkfifo) are POSIX")
def test_a_fifo_in_place_of_progress_json_does_not_hang(box):
    box.work.mkdir(parents=True, exist_ok=True)
    os.mkfifo(box.progress_file)
    progress = ProgressStore(box.progress_file).load()  # would block forever on open()
    assert progress.load_problem and "progress.json" in progress.load_problem
    assert not stat.S_ISFIFO(os.lstat(box.progress_file).st_mode) if box.progress_file.exists() else True


def test_an_os_release_with_a_5_mb_line_parses_at_once():
    import time as _time

    text = 'ID=ubuntu\nVERSION_ID="24.04"\nPRETTY_NAME="' + "a b " * 1_300_000 + '"\nVERSION_CODENAME=noble\n'
    started = _time.monotonic()
    info = parse_os_release(text)
    assert _time.monotonic() - started < 2.0  # shlex on the long line took 45 s
    assert info.id == "ubuntu" and info.codename == "noble" and info.version_id == "24.04"


def test_doctor_on_a_hanging_interpreter_is_bounded_and_says_so(tmp_path):
    """An interpreter that never answers used to get the torch probe's 90 s and the stdlib
    query's 20 s; now it is asked to start once, for STARTUP_TIMEOUT_S."""
    from services.setup.doctor import collect_facts
    from services.setup.python_env import INTERPRETER_HUNG, STARTUP_TIMEOUT_S
    from services.setup.system import COMMAND_TIMED_OUT

    waited = []

    def hang(argv):
        if argv[0] == "/opt/hung/python":
            waited.append(argv)
            return CommandResult(COMMAND_TIMED_OUT, "", "timed out")
        return None

    runner = FakeRunner(handler=hang)
    timeouts = []
    real_run = runner.run

    def run(argv, timeout=30.0, input_text=None):
        if argv[0] == "/opt/hung/python":
            timeouts.append(timeout)
        return real_run(argv, timeout, input_text)

    runner.run = run
    from .machine import NO_NVML

    facts = collect_facts(runner, SystemRoot(tmp_path), "/opt/hung/python", nvml_module=NO_NVML, system="linux")
    assert facts.torch is not None and facts.torch.error == INTERPRETER_HUNG
    assert sum(timeouts) <= STARTUP_TIMEOUT_S and len(waited) == 1
