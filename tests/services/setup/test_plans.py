from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import main
from services.setup.executor import StepExecutor
from services.setup.progress import ProgressStore
from services.setup.linux_plans import NOUVEAU_FILE, add_debian_components, debian_components_present
from services.setup.planner import inputs_for, plan_for_os
from services.setup.os_release import parse_os_release
from services.setup.rules import load_rules
from services.setup.system import CommandResult, FakeRunner, SystemRoot

from .machine import DATA, RUNS_LINUX_COMMANDS, os_release

RULES = load_rules()
DISTROS = ["ubuntu-20.04", "ubuntu-22.04", "ubuntu-24.04", "debian-11", "debian-12", "debian-13", "fedora-41",
           "arch", "linuxmint-22", "pop-22.04", "opensuse-tumbleweed", "opensuse-leap-15.6", "rocky-9.4",
           "almalinux-9.3", "oracle-8.10", "amazon-linux-2023", "cloudlinux-8.10", "amazon-linux-2", "mageia-8"]
UNSUPPORTED = {"amazon-linux-2", "mageia-8"}
BOOKWORM_SOURCES = """Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main non-free-firmware
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main non-free-firmware
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""
BULLSEYE_LIST = """deb http://deb.debian.org/debian bullseye main
deb-src http://deb.debian.org/debian bullseye main

deb http://security.debian.org/debian-security bullseye-security main
deb http://deb.debian.org/debian bullseye-updates main
"""


def sandbox_runner(root: Path, staging: Path, backups: Path) -> FakeRunner:
    """Runs install/rm for real, but only on paths inside the test folders; every other
    command (apt-get, update-initramfs, reg, ...) is recorded and answers 0."""
    allowed = (str(root), str(staging), str(backups))

    def handler(argv):
        if argv[0] in ("install", "rm"):
            paths = [a for a in argv[1:] if a.startswith("/") and a != "/dev/stdin"]
            assert paths and all(p.startswith(allowed) for p in paths), argv
            done = subprocess.run(list(argv), capture_output=True, text=True, input=runner.stdin)
            return CommandResult(done.returncode, done.stdout, done.stderr)
        return None

    runner = FakeRunner(handler=handler)
    runner.responses[("apt-get",)] = CommandResult(0, "ok")
    for cmd in ("update-initramfs", "dracut", "mkinitcpio", "dnf", "pacman", "akmods", "ubuntu-drivers", "mokutil",
                "systemctl", "kmodgenca", "nvidia-smi", "zypper", "curl", "wget", "dpkg"):
        runner.responses[(cmd,)] = CommandResult(0, "")
    return runner


@pytest.fixture
def env(tmp_path):
    root = tmp_path / "root"
    (root / "etc" / "modprobe.d").mkdir(parents=True)
    work = tmp_path / "work"
    return root, work


def make(env, distro: str, gpu: str = "2684", secure_boot: str = "enabled", python: str | None = None, kernel: str = "6.1.0-18-amd64"):
    root, work = env
    osi = parse_os_release(os_release(distro))
    inputs = inputs_for(RULES, SystemRoot(root), work / "staged", gpu, secure_boot=secure_boot, kernel=kernel, python=python)
    plan = plan_for_os(osi, inputs, RULES)
    progress = ProgressStore(work / "progress.json").load()
    progress.adopt(plan)
    runner = sandbox_runner(root, work / "staged", work / "backups")
    return plan, StepExecutor(runner, SystemRoot(root), progress, work / "backups"), runner


@pytest.mark.parametrize("distro", DISTROS)
def test_plan_for_every_distro(env, distro):
    plan, _, _ = make(env, distro)
    ids = [s.id for s in plan.steps]
    assert ids[-4:] == ["reboot", "verify-driver", "install-pytorch", "verify-pytorch"]
    assert "blacklist-nouveau" in ids and "install-driver" in ids
    data = plan.to_json()
    for step in data["steps"]:
        assert {"id", "title", "commands", "needs_root", "needs_reboot"} <= set(step)
        assert all(isinstance(c, list) and all(isinstance(a, str) for a in c) for c in step["commands"])
    if distro in UNSUPPORTED:
        assert not plan.supported
        assert "not a distribution GPU Assistant has tested steps for" in data["summary"]
        assert next(s for s in plan.steps if s.id == "install-driver").manual
    else:
        assert plan.supported


def test_family_specific_commands(env):
    ubuntu, _, _ = make(env, "pop-22.04")
    assert ("ubuntu-drivers", "install", "nvidia:580-open") in ubuntu.step("install-driver").commands
    assert ubuntu.step("blacklist-nouveau").commands[-1] == ("update-initramfs", "-u")
    assert ubuntu.step("enroll-mok").commands[-1] == ("mokutil", "--import", "/var/lib/shim-signed/mok/MOK.der")
    fedora, _, _ = make(env, "fedora-41", gpu="2b85")
    # RPM Fusion's Howto: akmod-nvidia for every current card, RTX 50 included
    assert fedora.step("install-driver").commands == (("dnf", "install", "-y", "akmod-nvidia", "xorg-x11-drv-nvidia-cuda"),)
    assert fedora.step("blacklist-nouveau").commands[-1] == ("dracut", "--force")
    assert [s.id for s in fedora.steps].index("enroll-mok") < [s.id for s in fedora.steps].index("install-driver")
    assert "rpmfusion-nonfree-release-41.noarch.rpm" in fedora.step("enable-rpmfusion").commands[0][-1]
    arch, _, _ = make(env, "arch", gpu="2b85", secure_boot="disabled")
    assert arch.step("install-driver").commands == (("pacman", "-S", "--needed", "--noconfirm", "nvidia-open", "nvidia-utils"),)
    assert arch.step("blacklist-nouveau").commands[-1] == ("mkinitcpio", "-P")
    assert arch.step("enroll-mok") is None  # Secure Boot off: no MOK step
    debian, _, _ = make(env, "debian-12")
    assert debian.step("install-driver").commands == (("apt-get", "install", "-y", "nvidia-driver", "firmware-misc-nonfree", "linux-headers-6.1.0-18-amd64"),)


def test_pascal_on_fedora_and_arch_gets_legacy_branch(env):
    fedora, _, _ = make(env, "fedora-41", gpu="1b80")  # GTX 1080 is not in the id table: identified by name? no name here
    # without a name, the id alone does not identify Pascal; with lspci's name it does
    root, work = env
    inputs = inputs_for(RULES, SystemRoot(root), work, "1b80", name="GP104 [GeForce GTX 1080]", secure_boot="disabled")
    fedora = plan_for_os(parse_os_release(os_release("fedora-41")), inputs, RULES)
    assert fedora.step("install-driver").commands[0][3] == "akmod-nvidia-580xx"
    arch = plan_for_os(parse_os_release(os_release("arch")), inputs, RULES)
    assert arch.step("install-driver").manual and "nvidia-580xx-dkms" in arch.step("install-driver").link
    assert any("proprietary kernel module" in str(n) for n in arch.notes)
    assert fedora.step("install-pytorch").commands[-1][-1].endswith("/cu126")


def test_blackwell_on_debian_warns_about_old_packaged_driver(env):
    for distro, packaged in (("debian-12", "535"), ("debian-13", "550.163.01")):
        plan, _, _ = make(env, distro, gpu="2b85")
        assert any(f"packages driver {packaged}" in str(n) for n in plan.notes), plan.notes


@RUNS_LINUX_COMMANDS
def test_nouveau_step_check_run_undo_in_temp_root(env):
    root, work = env
    plan, ex, runner = make(env, "ubuntu-24.04")
    step = plan.step("blacklist-nouveau")
    assert ex.check(step).state == "not_done"
    dry = ex.dry_run(step)
    assert any("install -D -m 0644" in line for line in dry.lines) and not (root / "etc/modprobe.d/blacklist-nouveau.conf").exists()
    out = ex.run(step)
    assert out.ok, out.message
    target = root / NOUVEAU_FILE.lstrip("/")
    assert "blacklist nouveau\noptions nouveau modeset=0" in target.read_text()
    assert ("update-initramfs", "-u") in runner.calls
    assert ex.check(step).state == "done"
    assert ex.progress.state("blacklist-nouveau") == "done"
    undo = ex.undo(step)
    assert undo.ok, undo.message
    assert not target.exists()  # it did not exist before: undo removes it
    assert ex.check(step).state == "not_done"
    assert runner.calls.count(("update-initramfs", "-u")) == 2


@RUNS_LINUX_COMMANDS
def test_existing_file_is_backed_up_and_restored_exactly(env):
    root, work = env
    target = root / "etc/modprobe.d/blacklist-nouveau.conf"
    target.write_text("# my own notes\nblacklist foo\n")
    plan, ex, _ = make(env, "arch", secure_boot="disabled")
    step = plan.step("blacklist-nouveau")
    assert ex.run(step).ok
    rec = ex.progress.records["blacklist-nouveau"]
    backup = Path(rec.backups[0]["backup"])
    assert backup.read_text() == "# my own notes\nblacklist foo\n" and str(backup).startswith(str(root / "var/lib/gpu-assistant/setup-backups"))
    assert ex.undo(step).ok
    assert target.read_text() == "# my own notes\nblacklist foo\n"


def test_already_blacklisted_by_package_counts_as_done(env):
    root, _ = env
    (root / "usr/lib/modprobe.d").mkdir(parents=True)
    (root / "usr/lib/modprobe.d/nvidia-installer-disable-nouveau.conf").write_text("blacklist nouveau\noptions nouveau modeset=0\n")
    plan, ex, _ = make(env, "fedora-41")
    assert ex.check(plan.step("blacklist-nouveau")).state == "done"


@RUNS_LINUX_COMMANDS
@pytest.mark.parametrize("codename,text,path", [
    ("debian-12", BOOKWORM_SOURCES, "etc/apt/sources.list.d/debian.sources"),
    ("debian-11", BULLSEYE_LIST, "etc/apt/sources.list"),
])
def test_debian_non_free_edit_check_undo(env, codename, text, path):
    root, _ = env
    f = root / path
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(text)
    plan, ex, _ = make(env, codename)
    step = plan.step("enable-non-free")
    assert not step.manual
    assert ex.check(step).state == "not_done"  # bookworm's 'non-free-firmware' alone is not enough
    assert ex.run(step).ok
    new = f.read_text()
    if codename == "debian-12":
        assert new.count("Components: main non-free-firmware contrib non-free") == 2
    else:
        assert "deb http://deb.debian.org/debian bullseye main contrib non-free" in new
        assert "non-free-firmware" not in new  # bullseye has no such component
    assert ex.check(step).state == "done"
    assert ex.undo(step).ok
    assert f.read_text() == text


def test_debian_components_helpers():
    assert debian_components_present(add_debian_components(BOOKWORM_SOURCES, "bookworm"), ["contrib", "non-free", "non-free-firmware"])
    assert add_debian_components(add_debian_components(BULLSEYE_LIST, "bullseye"), "bullseye") == add_debian_components(BULLSEYE_LIST, "bullseye")


@RUNS_LINUX_COMMANDS
@pytest.mark.parametrize("distro", ["ubuntu-24.04", "debian-12", "fedora-41", "arch", "opensuse-tumbleweed", "rocky-9.4"])
def test_every_step_check_run_and_undo(env, distro):
    root, _ = env
    (root / "etc/apt/sources.list.d").mkdir(parents=True)
    (root / "etc/apt/sources.list.d/debian.sources").write_text(BOOKWORM_SOURCES)
    plan, ex, runner = make(env, distro, python="/home/li/.venv/bin/python")
    runner.responses[("/home/li/.venv/bin/python",)] = CommandResult(0, "")
    for step in plan.steps:
        assert ex.check(step).state in ("done", "not_done", "unknown"), step.id
        out = ex.run(step)
        if step.manual and not step.commands:
            assert not out.ok
            continue
        assert out.ok, (step.id, str(out.message))
        for cmd in step.commands:
            # a staged file's content reaches the privileged command on standard input
            ran = tuple("/dev/stdin" if any(a == f.staged for f in step.files) else a for a in cmd) if step.needs_root else tuple(cmd)
            assert ran in runner.calls, (step.id, cmd)
        if step.undoable:
            assert ex.undo(step).ok, step.id
            for cmd in step.undo:
                assert tuple(cmd) in runner.calls
            assert ex.progress.state(step.id) == "undone"


def test_failure_stops_the_step_and_is_recorded(env):
    plan, ex, runner = make(env, "ubuntu-24.04")
    runner.responses[("ubuntu-drivers",)] = CommandResult(1, "", "ERROR: no drivers found\n")
    out = ex.run(plan.step("install-driver"))
    assert not out.ok and "exit code 1" in str(out.message) and "no drivers found" in str(out.message)
    assert ex.progress.state("install-driver") == "failed"


def test_pkexec_refusal_is_a_clear_message(env):
    root, work = env
    plan, _, _ = make(env, "ubuntu-24.04")
    runner = FakeRunner().add(["pkexec"], 126, "", "Error executing command as another user: Not authorized")
    ex = StepExecutor(runner, SystemRoot(root), ProgressStore(work / "p.json"), work / "b", elevation="pkexec")
    out = ex.run(plan.step("update-package-lists"))
    assert runner.calls == [("pkexec", "apt-get", "update")]
    assert "Permission was refused" in str(out.message)


def test_progress_resumes_and_survives_corruption(env, tmp_path):
    plan, ex, _ = make(env, "ubuntu-24.04")
    ex.skip(plan.step("update-package-lists"))
    again = ProgressStore(ex.progress.path).load()
    assert again.state("update-package-lists") == "skipped" and again.plan_key == plan.key
    other, _, _ = make(env, "arch")
    again.adopt(other)
    assert again.state("update-package-lists") == "pending"
    ex.progress.path.write_text("{not json")
    broken = ProgressStore(ex.progress.path).load()
    assert broken.load_problem and list(ex.progress.path.parent.glob("progress.json.broken-*"))


@pytest.mark.linux_only("runs a Linux step's own install/cp on a temporary root")
def test_backup_failure_changes_nothing(env):
    root, work = env
    target = root / "etc/modprobe.d/blacklist-nouveau.conf"
    target.write_text("x")
    plan, _, runner = make(env, "ubuntu-24.04")
    blocker = root / "var/not-a-folder"
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("")  # the backup folder cannot be made under a file, even as root
    ex = StepExecutor(runner, SystemRoot(root), ProgressStore(work / "p.json"), work / "backups", system_backup_dir=blocker / "backups")
    out = ex.run(plan.step("blacklist-nouveau"))
    assert not out.ok and "could not back up" in str(out.message)
    assert not any(c[0] == "install" and c[-1] == str(target) for c in runner.calls) and target.read_text() == "x"
    assert ex.progress.state("blacklist-nouveau") == "failed"


def test_cli_plan_json_from_os_release(capsys):
    rc = main.main(["setup", "--plan", "--os-release", str(DATA / "os-release" / "ubuntu-22.04"), "--gpu", "10de:2684", "--json"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["supported"] and data["os"] == "Ubuntu 22.04.5 LTS"
    ids = [s["id"] for s in data["steps"]]
    assert ids[:3] == ["update-package-lists", "install-driver", "blacklist-nouveau"]
    step = data["steps"][1]
    assert step["commands"] == [["apt-get", "install", "-y", "ubuntu-drivers-common"], ["ubuntu-drivers", "install", "nvidia:580-open"]]
    assert data["driver"]["branch"] == "580" and data["driver"]["module"] == "open"
    assert data["pytorch"]["build"] == "cu130" and data["pytorch"]["runs_on_driver"] == "ok"
    assert step["needs_root"] is True and step["needs_reboot"] is False and step["state"] == "pending"


@pytest.mark.parametrize("distro", ["ubuntu-24.04", "debian-12", "fedora-41", "rocky-9.4", "arch"])
def test_plan_for_another_linux_machine_holds_its_paths_not_the_hosts(capsys, app_paths, distro):
    """How a user prepares a Linux install from Windows: every path of the plan is the target's
    (POSIX, /etc/...), never this host's (C:\\Users\\..., \\etc\\..., this user's home)."""
    rc = main.main(["setup", "--plan", "--os-release", str(DATA / "os-release" / distro), "--gpu", "10de:2684",
                    "--full", "--json"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    paths = [a for s in data["steps"] for c in (*s["commands"], *s["undo"]) for a in c
             if ("/" in a or "\\" in a) and "://" not in a]
    paths += [p for s in data["steps"] for f in s["files"] for p in (f["path"], f["staged"])]
    paths += [p for s in data["steps"] if s["check"] for p in s["check"]["paths"]]
    assert any(p.startswith("/etc/") for p in paths), paths
    for p in paths:
        assert "\\" not in p and ":" not in p.split("/")[0], p  # no drive letter, no backslash
        assert str(app_paths.data_dir) not in p, p
    # the staged copies are where the app keeps them on that machine
    staged = [f["staged"] for s in data["steps"] for f in s["files"]]
    assert staged and all(p.startswith("~/.local/share/gpu-assistant/setup/staged/") for p in staged), staged


def test_cli_unsupported_distro_text(capsys):
    assert main.main(["setup", "--plan", "--os-release", str(DATA / "os-release" / "mageia-8"), "--gpu", "2684"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Mageia 8 is not a distribution GPU Assistant has tested steps for")
    assert "dracut --force" in out  # the initramfs tool is known from ID / ID_LIKE


def test_cli_refuses_to_run_a_hypothetical_plan(capsys):
    rc = main.main(["setup", "--run", "reboot", "--os-release", str(DATA / "os-release" / "arch"), "--gpu", "2684"])
    assert rc == 2 and "only describe a plan" in capsys.readouterr().err


def test_subprocess_runner_streams_lines_and_times_out(tmp_path):
    import sys

    from services.setup.system import SubprocessRunner

    runner = SubprocessRunner()
    seen = []
    script = "import sys\nfor i in range(3): print('line', i, flush=True)\nsys.exit(4)"
    result = runner.run_streaming([sys.executable, "-c", script], seen.append, timeout=30)
    assert seen == ["line 0", "line 1", "line 2"] and result.returncode == 4
    slow = runner.run_streaming([sys.executable, "-c", "import time; time.sleep(30)"], seen.append, timeout=0.5)
    assert slow.timed_out
    assert runner.run_streaming(["/nonexistent/tool"], seen.append).missing
    assert runner.run([sys.executable, "-c", "print('x')"]).stdout == "x\n"
    assert runner.run(["/nonexistent/tool"]).missing


def test_a_failing_line_handler_does_not_leave_the_command_running():
    import subprocess
    import sys

    from services.setup.system import SubprocessRunner

    started = []
    real_popen = subprocess.Popen

    def recording_popen(*args, **kwargs):
        started.append(real_popen(*args, **kwargs))
        return started[-1]

    def refuse(line):
        raise RuntimeError("the window went away")

    script = "import time\nprint('first', flush=True)\ntime.sleep(30)"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(subprocess, "Popen", recording_popen)
        with pytest.raises(RuntimeError):
            SubprocessRunner().run_streaming([sys.executable, "-c", script], refuse, timeout=60)
    (proc,) = started
    assert proc.poll() is not None and proc.stdout.closed


def test_cli_plan_text_says_what_it_ends_with(capsys):
    assert main.main(["setup", "--plan", "--os-release", str(DATA / "os-release" / "debian-12"), "--gpu", "10de:2684"]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert line == "  = Ends with driver 535.261.03 or newer (nvidia-driver) and PyTorch 2.14 cu126, which that driver runs."


def test_picked_files_survive_a_reload_and_bad_entries_are_dropped(tmp_path):
    store = ProgressStore(tmp_path / "progress.json")
    store.pick_file("ddu_exe", "C:\\Tools\\DDU\\Display Driver Uninstaller.exe")
    store.pick_file("driver_package", "D:\\驱动\\581.57-desktop-win10-win11-64bit-international-dch-whql.exe")
    again = ProgressStore(store.path).load()
    assert again.picked_files == store.picked_files and again.load_problem is None
    again.pick_file("ddu_exe", "")  # forgetting one keeps the other
    assert list(ProgressStore(store.path).load().picked_files) == ["driver_package"]
    raw = json.loads(store.path.read_text(encoding="utf-8"))
    raw["picked_files"] = {"ddu_exe": 7, "driver_package": ["x"], "ok": "C:\\a.exe"}
    store.path.write_text(json.dumps(raw), encoding="utf-8")
    assert ProgressStore(store.path).load().picked_files == {"ok": "C:\\a.exe"}
    raw["picked_files"] = "C:\\a.exe"
    store.path.write_text(json.dumps(raw), encoding="utf-8")
    assert ProgressStore(store.path).load().picked_files == {}


def test_a_home_path_of_another_machine_stays_expandable_when_copied():
    from services.setup.fmt import command_line

    assert command_line(("python3", "-m", "venv", "~/.venvs/torch")) == "python3 -m venv ~/.venvs/torch"
    assert command_line(("cp", "~/my files/x", "~", "a~/b")) == "cp ~/'my files/x' '~' 'a~/b'"
