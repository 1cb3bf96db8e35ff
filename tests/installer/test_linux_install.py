"""installer/linux/install.sh against a temporary HOME and a small stand-in bundle.

The stand-in has the real layout of the tarball (executable, _internal/resources/icons,
share/applications, share/metainfo, the two scripts) so the script runs unchanged.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "installer" / "linux"
DESKTOP_ID = "io.github.gpu_assistant.GpuAssistant"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@pytest.fixture
def bundle(tmp_path) -> Path:
    root = tmp_path / "gpu-assistant-0.1.0-linux-x86_64"
    exe = root / "gpu-assistant"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\necho gpu-assistant stand-in \"$@\"\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    shutil.copytree(ROOT / "resources" / "icons", root / "_internal" / "resources" / "icons")
    (root / "share" / "applications").mkdir(parents=True)
    (root / "share" / "metainfo").mkdir(parents=True)
    shutil.copy2(LINUX / f"{DESKTOP_ID}.desktop", root / "share" / "applications")
    shutil.copy2(LINUX / f"{DESKTOP_ID}.metainfo.xml", root / "share" / "metainfo")
    for script in ("install.sh", "uninstall.sh"):
        shutil.copy2(LINUX / script, root / script)
    return root


@pytest.fixture
def home(tmp_path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def run_script(script: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env["HOME"] = str(home)
    # The cache tools are optional; keep the test independent of what this machine has.
    env["PATH"] = "/usr/bin:/bin"
    return subprocess.run(["bash", str(script), *args], env=env, capture_output=True, text=True, timeout=60)


def all_files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def test_dry_run_prints_the_commands_and_changes_nothing(bundle, home):
    result = run_script(bundle / "install.sh", home, "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "+ cp -a" in result.stdout
    assert f"{home}/.local/share/icons/hicolor/48x48/apps/gpu-assistant.png" in result.stdout
    assert "Dry run: nothing was changed." in result.stdout
    assert all_files(home) == set()


def test_install_puts_entry_icons_and_link_in_place_and_uninstall_removes_them(bundle, home):
    # The user's own files, which must survive an uninstall.
    settings = home / ".config" / "gpu-assistant" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text("{}")
    recording = home / ".local" / "share" / "gpu-assistant" / "recordings" / "run.sqlite"
    recording.parent.mkdir(parents=True)
    recording.write_text("x")

    result = run_script(bundle / "install.sh", home)
    assert result.returncode == 0, result.stderr
    prefix = home / ".local" / "opt" / "gpu-assistant"
    exe = prefix / "gpu-assistant"
    desktop = home / ".local" / "share" / "applications" / f"{DESKTOP_ID}.desktop"
    link = home / ".local" / "bin" / "gpu-assistant"
    assert exe.is_file() and os.access(exe, os.X_OK)
    assert (prefix / "_internal" / "resources" / "icons" / "gpu-assistant.svg").is_file()
    assert link.is_symlink() and Path(os.readlink(link)) == exe
    text = desktop.read_text()
    assert f'Exec="{exe}"\n' in text
    assert f'Exec="{exe}" --minimized\n' in text
    assert f"TryExec={exe}\n" in text
    for size in (16, 32, 48, 128, 256, 512):
        assert (home / f".local/share/icons/hicolor/{size}x{size}/apps/gpu-assistant.png").is_file()
    assert (home / ".local/share/icons/hicolor/scalable/apps/gpu-assistant.svg").is_file()
    assert (home / f".local/share/metainfo/{DESKTOP_ID}.metainfo.xml").is_file()
    # The installed link runs the app.
    ran = subprocess.run([str(link), "--version"], capture_output=True, text=True)
    assert "gpu-assistant stand-in --version" in ran.stdout
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(desktop)], capture_output=True, text=True)
        assert check.returncode == 0 and not check.stdout.strip(), check.stdout

    # The copy kept beside the app removes it, with the tarball gone.
    shutil.rmtree(bundle)
    result = run_script(prefix / "uninstall.sh", home)
    assert result.returncode == 0, result.stderr
    assert "Removed." in result.stdout
    assert not prefix.exists() and not link.exists() and not desktop.exists()
    assert not list((home / ".local" / "share" / "icons").rglob("gpu-assistant.*"))
    assert settings.read_text() == "{}" and recording.read_text() == "x"


def test_installing_twice_replaces_the_first_copy(bundle, home):
    assert run_script(bundle / "install.sh", home).returncode == 0
    stale = home / ".local" / "opt" / "gpu-assistant" / "_internal" / "stale-from-old-version"
    stale.write_text("old")
    result = run_script(bundle / "install.sh", home)
    assert result.returncode == 0, result.stderr
    assert "Replacing the copy" in result.stdout
    assert not stale.exists()
    manifest = (home / ".local" / "opt" / "gpu-assistant" / ".installed-files").read_text().splitlines()
    assert len(manifest) == len(set(manifest))


def test_uninstall_dry_run_keeps_everything(bundle, home):
    assert run_script(bundle / "install.sh", home).returncode == 0
    before = all_files(home)
    result = run_script(bundle / "uninstall.sh", home, "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "+ rm -f --" in result.stdout and "Removed." not in result.stdout
    assert all_files(home) == before


def test_refuses_to_replace_a_command_that_is_not_ours(bundle, home):
    theirs = home / ".local" / "bin" / "gpu-assistant"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("someone else's script")
    result = run_script(bundle / "install.sh", home)
    assert result.returncode == 2
    assert "is not our link" in result.stderr
    assert theirs.read_text() == "someone else's script"
    assert not (home / ".local" / "opt").exists()


def test_refuses_a_folder_it_did_not_make(bundle, home):
    foreign = home / ".local" / "opt" / "gpu-assistant"
    foreign.mkdir(parents=True)
    (foreign / "notes.txt").write_text("mine")
    result = run_script(bundle / "install.sh", home)
    assert result.returncode == 2 and "not made by this installer" in result.stderr
    assert (foreign / "notes.txt").read_text() == "mine"


def test_custom_prefix_and_bad_usage(bundle, home, tmp_path):
    prefix = tmp_path / "apps" / "gpu"
    result = run_script(bundle / "install.sh", home, "--prefix", str(prefix))
    assert result.returncode == 0, result.stderr
    assert (prefix / "gpu-assistant").is_file()
    assert run_script(prefix / "uninstall.sh", home).returncode == 0
    assert not prefix.exists()

    bad = run_script(bundle / "install.sh", home, "--frobnicate")
    assert bad.returncode == 2 and bad.stderr.startswith("error: unknown option --frobnicate")
    nothing = run_script(bundle / "install.sh", home, "--bundle", str(tmp_path / "nope"))
    assert nothing.returncode == 2 and "no app in" in nothing.stderr
    assert run_script(bundle / "install.sh", home, "--prefix", str(home)).returncode == 2


def test_uninstall_when_not_installed_is_harmless(bundle, home):
    result = run_script(bundle / "uninstall.sh", home)
    assert result.returncode == 0
    assert "nothing to remove" in result.stdout


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_scripts_pass_shellcheck():
    result = subprocess.run(["shellcheck", str(LINUX / "install.sh"), str(LINUX / "uninstall.sh")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_started_with_sh_it_reruns_itself_in_bash(bundle, home):
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(["sh", str(bundle / "install.sh"), "--dry-run"], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Dry run: nothing was changed." in result.stdout


def test_someone_elses_menu_entry_is_moved_aside_and_put_back(bundle, home):
    theirs = home / ".local" / "share" / "applications" / f"{DESKTOP_ID}.desktop"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("[Desktop Entry]\nName=Theirs\n")
    result = run_script(bundle / "install.sh", home)
    assert result.returncode == 0, result.stderr
    backups = list(theirs.parent.glob(f"{DESKTOP_ID}.desktop.bak-*"))
    assert len(backups) == 1 and backups[0].read_text() == "[Desktop Entry]\nName=Theirs\n"
    assert "+ mv --" in result.stdout
    assert "GPU Assistant" in theirs.read_text()
    result = run_script(bundle / "uninstall.sh", home)
    assert result.returncode == 0, result.stderr
    assert theirs.read_text() == "[Desktop Entry]\nName=Theirs\n"
    assert not list(theirs.parent.glob("*.bak-*"))
