"""The privileged path for real: run as a normal user who may run sudo without a password (a throwaway
account made for this check), in a temporary root. Not part of the suite (it needs that account):

    sudo -u CHECKUSER python tests/sudo_swap_check.py

What it shows, with real sudo, real root-owned files and a real secret only root can read:
1. control: root's ``install`` reading the staged file by path follows a link swapped in for it
   (the attack issue 23 reported: the secret lands in a world-readable file);
2. the setup step, with that same swap made just before its privileged command runs, writes exactly
   the content the preview showed (it reaches root on standard input), root-owned, mode 0644;
3. the backup of the file it replaced is made by root in a root-only folder; the user cannot write
   there; undo restores the original byte for byte; a progress.json pointing undo at a backup of the
   user's is refused and nothing is written.
Prints one line per check and exits 1 on the first that fails. Everything it makes is removed.
"""
from __future__ import annotations

import dataclasses
import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from services.setup.executor import StepExecutor  # noqa: E402
from services.setup.linux_plans import NOUVEAU_BLACKLIST, NOUVEAU_FILE  # noqa: E402
from services.setup.planner import inputs_for, plan_for_os  # noqa: E402
from services.setup.os_release import parse_os_release  # noqa: E402
from services.setup.progress import ProgressStore  # noqa: E402
from services.setup.rules import load_rules  # noqa: E402
from services.setup.system import CommandResult, SubprocessRunner, SystemRoot  # noqa: E402

SECRET = "root-only secret: hunter2\n"
ORIGINAL = "# the machine's own file, before GPU Assistant\nblacklist something-else\n"
UBUNTU = 'ID=ubuntu\nVERSION_ID="24.04"\nPRETTY_NAME="Ubuntu 24.04"\nVERSION_CODENAME=noble\n'


def sudo(*argv: str, input_text: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["sudo", "-n", *argv], input=input_text, capture_output=True, text=True, timeout=60)


def check(ok: bool, what: str) -> None:
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        raise SystemExit(1)


class SwappingRunner(SubprocessRunner):
    """The real runner; just before a privileged command runs (while a password prompt would be
    open), the staged file is replaced by a link to the secret."""

    def __init__(self, staged: Path, secret: Path) -> None:
        super().__init__()
        self.staged, self.secret, self.swaps = staged, secret, 0

    def run(self, argv, timeout: float = 60.0, input_text: str | None = None) -> CommandResult:
        if argv[:2] == ("sudo", "install") and str(argv[-1]).endswith(NOUVEAU_FILE) and self.staged.exists():
            self.staged.unlink()
            self.staged.symlink_to(self.secret)
            self.swaps += 1
        return super().run(argv, timeout=timeout, input_text=input_text)


def main() -> int:
    if os.geteuid() == 0:
        print("run this as a normal user with password-less sudo, not as root")
        return 2
    if sudo("true").returncode != 0:
        print("sudo -n true failed: this user may not run sudo without a password")
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="sudo-swap-check-"))
    try:
        return run_checks(tmp)
    finally:
        sudo("rm", "-rf", "--", str(tmp))  # root-owned files inside
        if tmp.exists():
            subprocess.run(["rm", "-rf", "--", str(tmp)], check=False)


def run_checks(tmp: Path) -> int:
    secret = tmp / "secret"
    r = sudo("install", "-m", "0600", "-o", "0", "-g", "0", "/dev/stdin", str(secret), input_text=SECRET)
    check(r.returncode == 0, f"root made a secret {secret} (0600, root)")
    try:
        secret.read_text()
        readable = True
    except PermissionError:
        readable = False
    check(not readable, "the user cannot read the secret")

    # 1. control: the old command, root's install reading a user-owned path
    staged_old = tmp / "old-staged.conf"
    staged_old.symlink_to(secret)
    leak = tmp / "leak.conf"
    r = sudo("install", "-m", "0644", str(staged_old), str(leak))
    leaked = r.returncode == 0 and leak.read_text() == SECRET
    check(leaked, "control: root's install given the staged path follows the swapped link; the secret is world-readable")

    # 2. the step, in a temporary root whose /etc is root's
    system = tmp / "root"
    target = system / NOUVEAU_FILE.lstrip("/")
    r = sudo("install", "-D", "-m", "0644", "-o", "0", "-g", "0", "/dev/stdin", str(target), input_text=ORIGINAL)
    check(r.returncode == 0 and os.stat(target).st_uid == 0, f"root made the original {target}")
    rules = load_rules()
    root = SystemRoot(system)
    inputs = inputs_for(rules, root, tmp / "staged", "2684", secure_boot="disabled")
    plan = plan_for_os(parse_os_release(UBUNTU), inputs, rules)
    full = plan.step("blacklist-nouveau")
    # Only the file's privileged copy (run and undo): the initramfs rebuild would change this machine.
    step = dataclasses.replace(full, commands=tuple(c for c in full.commands if c and c[0] == "install"), undo=())
    check(len(step.commands) == 1 and len(step.files) == 1, "the step writes one file with root's install")
    staged = Path(step.files[0].staged)
    runner = SwappingRunner(staged, secret)
    progress_file = tmp / "progress.json"
    ex = StepExecutor(runner, root, ProgressStore(progress_file), tmp / "backups", elevation="sudo")
    shown = "\n".join(ex.describe(step, plan=plan))
    outcome = ex.run(step, plan=plan)
    check(outcome.ok, f"the step ran through sudo: {outcome.message}")
    check(runner.swaps == 1 and staged.is_symlink(), "the staged file was swapped for a link to the secret before root's command")
    st = os.lstat(target)
    written = target.read_bytes()
    check(written == NOUVEAU_BLACKLIST.encode(), "root wrote exactly the content the preview showed, not the secret")
    check(SECRET.encode() not in written and NOUVEAU_BLACKLIST.splitlines()[1] in shown, "the preview showed that content")
    check(stat.S_ISREG(st.st_mode) and st.st_uid == 0 and stat.S_IMODE(st.st_mode) == 0o644, "the file is root's, mode 0644, not a link")

    # 3. the backup and undo
    backups = ex.system_backup_dir / step.id
    bst = os.lstat(backups)
    check(bst.st_uid == 0 and not bst.st_mode & 0o022, f"the backup folder {backups} is root's, writable by no one else")
    try:
        (backups / "planted").write_text("x")
        planted = True
    except PermissionError:
        planted = False
    check(not planted, "the user cannot write into the backup folder")
    saved = json.loads(progress_file.read_text())
    good = json.dumps(saved)
    rec = saved["steps"][step.id]
    evil = tmp / "evil.conf"
    evil.write_text("user's content\n")
    rec["backups"][0]["backup"] = str(evil)
    progress_file.write_text(json.dumps(saved))
    tampered = StepExecutor(SubprocessRunner(), root, ProgressStore(progress_file).load(), tmp / "backups", elevation="sudo").undo(step)
    check(not tampered.ok and "refused" in str(tampered.message), f"undo from a backup of the user's is refused: {tampered.message}")
    check(target.read_bytes() == NOUVEAU_BLACKLIST.encode(), "and nothing was written")
    progress_file.write_text(good)
    undone = StepExecutor(SubprocessRunner(), root, ProgressStore(progress_file).load(), tmp / "backups", elevation="sudo").undo(step)
    check(undone.ok, f"undo through sudo: {undone.message}")
    st = os.lstat(target)
    check(target.read_bytes() == ORIGINAL.encode() and st.st_uid == 0 and stat.S_IMODE(st.st_mode) == 0o644,
          "undo put back the original byte for byte, root's, mode 0644")
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
