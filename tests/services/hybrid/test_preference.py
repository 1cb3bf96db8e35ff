from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from services.hybrid.inventory_linux import read_linux_inventory
from services.hybrid.model import Inventory
from services.hybrid.preference import PlanError
from services.hybrid.preference_linux import desktop_exec_quote, desktop_exec_split, offload_environment, plan_linux
from services.hybrid.preference_store import PreferenceStore
from services.hybrid.preference_windows import USER_GPU_PREFERENCES, format_tokens, parse_tokens, plan_windows
from services.hybrid.windows import HKCU
from tests.fakes.hybrid_fakes import AMD_DGPU, INTEL_IGPU, NVIDIA_DGPU, build_sysfs, laptop_registry

BLENDER = "C:\\Program Files\\Blender Foundation\\Blender 4.2\\blender.exe"
WEBUI = "C:\\Users\\李雷\\AI 工具\\stable-diffusion-webui\\venv\\Scripts\\python.exe"
QUOTED = "D:\\Games\\Tom's Game (x64)\\game.exe"


def prefs(registry):
    return registry.values(HKCU, USER_GPU_PREFERENCES)


def test_tokens_round_trip():
    tokens = parse_tokens("SwapEffectUpgradeEnable=1;AutoHDREnable=2097;")
    assert tokens == {"SwapEffectUpgradeEnable": "1", "AutoHDREnable": "2097"}
    assert format_tokens(tokens) == "SwapEffectUpgradeEnable=1;AutoHDREnable=2097;"
    assert parse_tokens(" GpuPreference=2 ;; ") == {"GpuPreference": "2"}
    assert parse_tokens(None) == {}


def test_windows_merges_with_other_tokens_and_undoes(tmp_path):
    registry = laptop_registry()
    plan = plan_windows(registry, BLENDER, exists=lambda p: True)
    (change,) = plan.changes
    assert change.before == "SwapEffectUpgradeEnable=1;AutoHDREnable=2097;"
    assert change.after == "GpuPreference=2;SwapEffectUpgradeEnable=1;AutoHDREnable=2097;"
    assert "HKCU\\Software\\Microsoft\\DirectX\\UserGpuPreferences" in plan.describe()
    assert any("Restart the program" in str(n) for n in plan.notes)
    store = PreferenceStore(tmp_path / "backups", registry)
    record = store.apply(plan)
    assert prefs(registry)[BLENDER] == change.after
    assert record.backup_file.exists()
    store.undo(BLENDER.upper())  # Windows paths are case-insensitive
    assert prefs(registry)[BLENDER] == change.before
    assert prefs(registry)["DirectXUserGlobalSettings"] == "SwapEffectUpgradeEnable=1;"
    with pytest.raises(PlanError):
        store.undo(BLENDER)  # nothing left to undo


def test_windows_non_ascii_path_power_saving_becomes_high_performance(tmp_path):
    registry = laptop_registry()
    plan = plan_windows(registry, WEBUI, exists=lambda p: True)
    assert plan.changes[0].after == "GpuPreference=2;VRROptimizeEnable=0;"
    assert "李雷" in plan.describe()


def test_windows_specific_adapter_choice_is_replaced(tmp_path):
    registry = laptop_registry()
    plan = plan_windows(registry, QUOTED, exists=lambda p: True)
    assert plan.changes[0].after == "GpuPreference=2;"
    assert any("specific GPU" in str(n) for n in plan.notes)


def test_windows_new_value_and_undo_deletes_it(tmp_path):
    registry = laptop_registry()
    exe = "C:\\Program Files\\ComfyUI\\python_embeded\\python.exe"
    plan = plan_windows(registry, exe, exists=lambda p: True)
    assert plan.changes[0].before is None and plan.changes[0].after == "GpuPreference=2;"
    store = PreferenceStore(tmp_path, registry)
    store.apply(plan)
    store.undo(exe)
    assert exe not in prefs(registry)


@pytest.mark.parametrize("bad", ["game.exe", "C:\\Games\\game.bat", 'C:\\Games\\"game".exe', "/usr/bin/game.exe"])
def test_windows_rejects_bad_paths(bad):
    with pytest.raises(PlanError):
        plan_windows(laptop_registry(), bad, exists=lambda p: True)


def test_windows_missing_program():
    with pytest.raises(PlanError, match="No program at"):
        plan_windows(laptop_registry(), "C:\\nope\\x.exe", exists=lambda p: False)


def test_windows_refused_write_changes_nothing_and_plan_goes_stale(tmp_path):
    registry = laptop_registry()
    plan = plan_windows(registry, BLENDER, exists=lambda p: True)
    registry.fail_writes = True
    with pytest.raises(PlanError, match="Could not apply"):
        PreferenceStore(tmp_path, registry).apply(plan)
    assert prefs(registry)[BLENDER] == plan.changes[0].before
    registry.fail_writes = False
    registry.set_string(HKCU, USER_GPU_PREFERENCES, BLENDER, "GpuPreference=1;")
    with pytest.raises(PlanError, match="changed after the plan"):
        PreferenceStore(tmp_path, registry).apply(plan)


# ---- Linux -------------------------------------------------------------------------------

@pytest.mark.parametrize("arg", [
    "/opt/My Apps/stable diffusion/webui.sh", "/home/李雷/AI 工具/run", "/opt/it's \"quoted\"/a$b`c\\d", "50%", "plain",
])
def test_desktop_exec_quoting_round_trips(arg):
    assert desktop_exec_split(desktop_exec_quote(arg) + " %U") == [arg, "%U"]


def test_desktop_exec_quote_spec_example():
    # Desktop Entry Spec: a literal backslash inside a quoted argument takes four backslashes.
    assert desktop_exec_quote("a\\b c") == '"a\\\\\\\\b c"'
    assert desktop_exec_quote('say "hi"') == '"say \\\\"hi\\\\""'


def nvidia_inventory(tmp_path) -> Inventory:
    return read_linux_inventory(build_sysfs(tmp_path / "sys-root", [INTEL_IGPU, NVIDIA_DGPU]))


def make_program(folder, name="my app", body='#!/bin/sh\necho "$__NV_PRIME_RENDER_OFFLOAD|$__GLX_VENDOR_LIBRARY_NAME|$*"\n'):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(body)
    path.chmod(0o755)
    return str(path)


@pytest.mark.linux_only  # builds a sysfs tree with symlinks
def test_offload_environment_per_driver(tmp_path):
    assert dict(offload_environment(nvidia_inventory(tmp_path)))["__NV_PRIME_RENDER_OFFLOAD"] == "1"
    amd = read_linux_inventory(build_sysfs(tmp_path / "amd", [INTEL_IGPU, AMD_DGPU]))
    assert offload_environment(amd) == (("DRI_PRIME", "pci-0000_03_00_0"),)
    nouveau = read_linux_inventory(build_sysfs(tmp_path / "nv", [INTEL_IGPU, dict(NVIDIA_DGPU, driver="nouveau")]))
    assert offload_environment(nouveau) == (("DRI_PRIME", "pci-0000_01_00_0"),)
    only_intel = read_linux_inventory(build_sysfs(tmp_path / "i", [INTEL_IGPU]))
    assert offload_environment(only_intel) == ()


@pytest.mark.skipif(sys.platform != "linux", reason="runs the launcher with /bin/sh")
def test_linux_launcher_and_new_desktop_entry_apply_run_and_undo(tmp_path):
    home = tmp_path / "home"
    program = make_program(tmp_path / "AI 工具" / "it's here", "web ui")
    plan = plan_linux(program, nvidia_inventory(tmp_path), home, system_app_dirs=[])
    launcher, desktop = plan.changes
    assert launcher.target == str(home / ".local/bin/web-ui-on-nvidia") and launcher.before is None
    assert desktop.target == str(home / ".local/share/applications/gpu-assistant-web-ui.desktop")
    assert "PrefersNonDefaultGPU=true" in desktop.after
    store = PreferenceStore(tmp_path / "backups", home=home)
    store.apply(plan)
    # The launcher really runs the program with the offload variables and passes arguments through.
    out = subprocess.run([launcher.target, "a b", "ü"], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "1|nvidia|a b ü"
    exec_line = next(line for line in desktop.after.splitlines() if line.startswith("Exec="))
    assert desktop_exec_split(exec_line[5:]) == [launcher.target, "%U"]
    store.undo(program)
    assert not os.path.exists(launcher.target) and not os.path.exists(desktop.target)


@pytest.mark.linux_only("the Linux preference: .desktop entries and launchers in ~/.local (symlinks, POSIX modes); Windows writes the registry (tests/windows)")
def test_linux_existing_desktop_entry_is_overridden_and_backed_up(tmp_path):
    home = tmp_path / "home"
    program = make_program(tmp_path / "opt", "krita")
    system_apps = tmp_path / "usr-share-applications"
    system_apps.mkdir()
    (system_apps / "org.kde.krita.desktop").write_text(
        "[Desktop Entry]\nName=Krita\nExec=" + desktop_exec_quote(program) + " %F\nType=Application\n"
        "\n[Desktop Action new]\nExec=krita --new\n")
    user_apps = home / ".local/share/applications"
    user_apps.mkdir(parents=True)
    own = "[Desktop Entry]\nName=My Krita\nExec=" + desktop_exec_quote(program) + " %F\nType=Application\n"
    (user_apps / "org.kde.krita.desktop").write_text(own)
    plan = plan_linux(program, nvidia_inventory(tmp_path), home, system_app_dirs=[system_apps])
    entry = plan.changes[1]
    assert entry.target == str(user_apps / "org.kde.krita.desktop") and entry.before == own
    assert "Name=My Krita" in entry.after and entry.after.count("PrefersNonDefaultGPU=true") == 1
    assert "Exec=env __NV_PRIME_RENDER_OFFLOAD=1 __GLX_VENDOR_LIBRARY_NAME=nvidia" in entry.after
    store = PreferenceStore(tmp_path / "backups", home=home)
    store.apply(plan)
    store.undo(program)
    assert (user_apps / "org.kde.krita.desktop").read_text() == own


def test_linux_undo_refuses_when_user_edited_the_file(tmp_path):
    home = tmp_path / "home"
    program = make_program(tmp_path / "opt", "tool")
    plan = plan_linux(program, nvidia_inventory(tmp_path), home, system_app_dirs=[])
    store = PreferenceStore(tmp_path / "backups", home=home)
    store.apply(plan)
    with open(plan.changes[0].target, "a") as f:
        f.write("# my edit\n")
    with pytest.raises(PlanError, match="undo it by hand"):
        store.undo(program)
    assert "# my edit" in Path(plan.changes[0].target).read_text()


@pytest.mark.linux_only  # "not executable" is a POSIX mode bit
def test_linux_bad_programs(tmp_path):
    inv = nvidia_inventory(tmp_path)
    with pytest.raises(PlanError, match="full path"):
        plan_linux("krita", inv, tmp_path)
    with pytest.raises(PlanError, match="No program"):
        plan_linux(str(tmp_path / "missing"), inv, tmp_path)
    text = tmp_path / "notes.txt"
    text.write_text("x")
    with pytest.raises(PlanError, match="not executable"):
        plan_linux(str(text), inv, tmp_path)
    only_intel = read_linux_inventory(build_sysfs(tmp_path / "i", [INTEL_IGPU]))
    with pytest.raises(PlanError, match="no NVIDIA"):
        plan_linux(make_program(tmp_path / "p"), only_intel, tmp_path)


def test_interpreters_get_a_note(tmp_path):
    plan = plan_windows(laptop_registry(), WEBUI, exists=lambda p: True)
    assert any("python.exe is an interpreter" in str(n) for n in plan.notes)
    assert not any("interpreter" in str(n) for n in plan_windows(laptop_registry(), BLENDER, exists=lambda p: True).notes)


def test_current_preference_in_words(tmp_path):
    from services.hybrid.service import HybridService

    service = HybridService(platform="win32", registry=laptop_registry(), nvidia_factory=lambda: (None, None),
                            backup_dir=tmp_path)
    assert str(service.current_preference(WEBUI.upper())) == "Windows GPU preference: Power saving"
    assert str(service.current_preference(BLENDER)) == "Windows GPU preference: not set (Windows decides)"
    assert str(service.current_preference(QUOTED)) == "Windows GPU preference: A specific GPU"
    linux = HybridService(platform="linux", sysfs_root=tmp_path, nvidia_factory=lambda: (None, None), backup_dir=tmp_path)
    assert "No launcher" in str(linux.current_preference("/usr/bin/x"))


@pytest.mark.linux_only  # makes program files whose names hold control characters: Windows refuses those names
@pytest.mark.parametrize("bad", ["tool\r", "to\nol", "tool\x1b[31m", "tool\x7f"])
def test_linux_refuses_control_characters_in_the_program_path(tmp_path, bad):
    """A CR in a program path used to write a raw CR into the .desktop file: three Exec=
    lines for parsers that split on CR, and an undo that refused."""
    program = make_program(tmp_path / "opt", bad)
    with pytest.raises(PlanError, match="control character"):
        plan_linux(program, nvidia_inventory(tmp_path), tmp_path / "home", system_app_dirs=[])
    with pytest.raises(ValueError):
        desktop_exec_quote(program)


# ---- undo writes only what it created, whatever the backup JSON says ---------------------------
def _applied(tmp_path):
    import json as _json

    home = tmp_path / "home"
    program = make_program(tmp_path / "opt", "tool")
    plan = plan_linux(program, nvidia_inventory(tmp_path), home, system_app_dirs=[])
    store = PreferenceStore(tmp_path / "backups", home=home)
    record = store.apply(plan)
    return home, program, store, record, _json.loads(record.backup_file.read_text())


@pytest.mark.linux_only("the Linux preference: .desktop entries and launchers in ~/.local (symlinks, POSIX modes); Windows writes the registry (tests/windows)")
@pytest.mark.parametrize("where", ["outside", "dotdot", "link-in-bin", "bin-linked-elsewhere"])
def test_hybrid_undo_refuses_a_target_it_never_writes(tmp_path, where):
    import json as _json

    home, program, store, record, data = _applied(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    launcher = Path(data["changes"][0]["target"])
    if where == "outside":
        target = str(victim)
    elif where == "dotdot":
        target = str(home / ".local/bin/../../../victim.txt")
    elif where == "link-in-bin":
        launcher.unlink()
        launcher.symlink_to(victim)
        target = str(launcher)
    else:
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        (elsewhere / "x-on-nvidia").write_text(data["changes"][0]["after"])
        os.rename(home / ".local/bin", tmp_path / "old-bin")
        (home / ".local/bin").symlink_to(elsewhere)
        target = str(home / ".local/bin/x-on-nvidia")
    data["changes"][0].update(target=target, after="keep me" if where != "bin-linked-elsewhere" else data["changes"][0]["after"],
                              before="attacker's text\n")
    record.backup_file.write_text(_json.dumps(data))
    with pytest.raises(PlanError, match="does not write"):
        store.undo(program)
    assert victim.read_text() == "keep me"


@pytest.mark.linux_only("a FIFO among the Linux preference's backups (os.mkfifo is POSIX)")
def test_hybrid_backups_nested_deep_or_fifo_are_skipped_not_a_crash(tmp_path):
    import json
    home, program, store, record, data = _applied(tmp_path)
    (tmp_path / "backups" / "0-deep.json").write_text("[" * 100000 + "]" * 100000)
    os.mkfifo(tmp_path / "backups" / "1-fifo.json")
    (tmp_path / "backups" / "2-shape.json").write_text(json.dumps({"program": program, "platform": "linux", "changes": [
        {"kind": "file", "target": 5, "name": None, "before": None, "after": None}]}))
    assert [r.backup_file for r in store.records(program)] == [record.backup_file]
    store.undo(program)
    assert not os.path.exists(data["changes"][0]["target"])
