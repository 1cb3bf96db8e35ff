"""The Windows code against the real Windows APIs: winreg, reg.exe, pdh.dll, CommandLineToArgvW,
known folders. Marked ``windows``: they run on Windows and in the Windows lane (Wine), and are
skipped elsewhere, where the same code is tested through fakes."""
from __future__ import annotations

import ctypes
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.windows

ROOT = Path(__file__).resolve().parents[2]
# A program path a Chinese user may well have: spaces, Chinese, an apostrophe.
PROGRAM = "C:\\Users\\李 雷\\AI 工具\\Tom's webui\\venv\\Scripts\\python.exe"


def raw_value(key: str, name: str):
    """(data, type) exactly as the registry holds it, or None."""
    import winreg

    from services.setup.windows_registry import split_key

    hive, path = split_key(key)
    try:
        with winreg.OpenKey(getattr(winreg, hive), path) as handle:
            return winreg.QueryValueEx(handle, name)
    except FileNotFoundError:
        return None


def set_raw(key: str, name: str, value) -> None:
    import winreg

    from services.setup.windows_registry import split_key

    hive, path = split_key(key)
    with winreg.CreateKeyEx(getattr(winreg, hive), path, 0, winreg.KEY_SET_VALUE) as handle:
        if value is None:
            try:
                winreg.DeleteValue(handle, name)
            except FileNotFoundError:
                pass
        else:
            winreg.SetValueEx(handle, name, 0, value[1], value[0])


@pytest.fixture
def keep_values():
    """Put back every value a test touches, whatever happens."""
    saved: dict[tuple[str, str], object] = {}

    def keep(key: str, name: str):
        saved.setdefault((key, name), raw_value(key, name))
        return saved[(key, name)]

    yield keep
    for (key, name), value in saved.items():
        set_raw(key, name, value)


# ---- hybrid: the per-app GPU preference ------------------------------------------------------------
def test_gpu_preference_is_merged_backed_up_and_undone_byte_for_byte(tmp_path, keep_values):
    import winreg

    from services.hybrid.preference_store import PreferenceStore
    from services.hybrid.preference_windows import USER_GPU_PREFERENCES, plan_windows
    from services.hybrid.windows import WinRegistry

    key = "HKCU\\" + USER_GPU_PREFERENCES
    other = "C:\\Games\\other.exe"
    keep_values(key, PROGRAM)
    keep_values(key, other)
    set_raw(key, PROGRAM, ("SwapEffectUpgradeEnable=1;AutoHDREnable=2097;", winreg.REG_SZ))
    set_raw(key, other, ("GpuPreference=1;", winreg.REG_SZ))
    before = raw_value(key, PROGRAM)

    registry = WinRegistry()
    plan = plan_windows(registry, PROGRAM, exists=lambda p: True)
    assert key in plan.describe()
    store = PreferenceStore(tmp_path / "backups", registry)
    record = store.apply(plan)
    assert raw_value(key, PROGRAM) == ("GpuPreference=2;SwapEffectUpgradeEnable=1;AutoHDREnable=2097;", winreg.REG_SZ)
    assert record.backup_file.is_file()
    assert raw_value(key, other) == ("GpuPreference=1;", winreg.REG_SZ)  # another program's value untouched
    store.undo(PROGRAM)
    assert raw_value(key, PROGRAM) == before
    assert raw_value(key, other) == ("GpuPreference=1;", winreg.REG_SZ)


def test_gpu_preference_for_a_new_program_is_removed_by_undo(tmp_path, keep_values):
    from services.hybrid.preference_store import PreferenceStore
    from services.hybrid.preference_windows import USER_GPU_PREFERENCES, plan_windows
    from services.hybrid.windows import WinRegistry

    key = "HKCU\\" + USER_GPU_PREFERENCES
    keep_values(key, PROGRAM)
    set_raw(key, PROGRAM, None)
    store = PreferenceStore(tmp_path / "backups", WinRegistry())
    store.apply(plan_windows(WinRegistry(), PROGRAM, exists=lambda p: True))
    assert raw_value(key, PROGRAM)[0].startswith("GpuPreference=2;")
    store.undo(PROGRAM)
    assert raw_value(key, PROGRAM) is None


# ---- setup: the Windows plan's registry steps -----------------------------------------------------
def windows_plan(tmp_path):
    from services.setup.os_release import OsInfo
    from services.setup.planner import inputs_for, plan_for_os
    from services.setup.rules import load_rules
    from services.setup.system import SystemRoot
    from services.setup.windows_plan import WindowsPlanOptions

    rules = load_rules()
    inputs = inputs_for(rules, SystemRoot(tmp_path), tmp_path / "staged", "2684")
    return plan_for_os(OsInfo(system="windows", pretty_name="Windows"), inputs, rules, WindowsPlanOptions())


def executor(tmp_path):
    from services.setup.executor import StepExecutor
    from services.setup.progress import ProgressStore
    from services.setup.system import SubprocessRunner, SystemRoot

    # Real reg.exe writes, real winreg reads; no UAC here (Wine has none, and HKLM is writable in the prefix).
    return StepExecutor(SubprocessRunner(), SystemRoot(tmp_path), ProgressStore(tmp_path / "progress.json"),
                        tmp_path / "backups", elevation="none", system="windows")


def test_driver_update_policy_is_set_checked_and_restored(tmp_path, keep_values):
    import winreg

    plan = windows_plan(tmp_path)
    step = plan.step("block-driver-updates")
    changes = {(r.key, r.name): r for r in step.registry}
    for key, name in changes:
        keep_values(key, name)
    wu, search = list(changes)
    set_raw(*wu, None)  # the policy value absent, as on most machines
    set_raw(*search, (1, winreg.REG_DWORD))  # Windows' default: drivers from Windows Update
    ex = executor(tmp_path)
    assert ex.check(step).state == "not_done"
    out = ex.run(step, plan=plan)
    assert out.ok, str(out.message)
    assert raw_value(*wu) == (1, winreg.REG_DWORD)
    assert raw_value(*search) == (0, winreg.REG_DWORD)
    assert ex.check(step).state == "done"
    restore = ex.run(plan.step("restore-update-settings"), plan=plan)
    assert restore.ok, str(restore.message)
    assert raw_value(*wu) is None
    assert raw_value(*search) == (1, winreg.REG_DWORD)
    assert ex.check(step).state == "not_done"


def test_safe_mode_runonce_entries_are_written_and_undone(tmp_path, keep_values):
    import winreg

    plan = windows_plan(tmp_path)
    # Only the step's registry part: bcdedit and the restart are what Wine cannot do.
    step = dataclasses.replace(plan.step("safe-mode"), commands=(), undo=(), check=None)
    for r in step.registry:
        keep_values(r.key, r.name)
        set_raw(r.key, r.name, None)
    ex = executor(tmp_path)
    out = ex.run(step, plan=plan)
    assert out.ok, str(out.message)
    undo_sm, reopen = step.registry
    assert raw_value(undo_sm.key, "*UndoSM") == ("bcdedit /deletevalue {current} safeboot", winreg.REG_SZ)
    data, kind = raw_value(reopen.key, "*GPUAssistantSetup")
    assert kind == winreg.REG_SZ and data == reopen.data and data.endswith("--page setup")
    assert "main.py" in data or "gpu-assistant.exe" in data
    undone = ex.undo(step)
    assert undone.ok, str(undone.message)
    assert raw_value(undo_sm.key, "*UndoSM") is None and raw_value(reopen.key, "*GPUAssistantSetup") is None


def test_registry_reader_types_and_absent_values(keep_values):
    import winreg

    from services.setup.windows_registry import WinregReader

    key = "HKCU\\Software\\GPU Assistant tests"
    for name in ("dword", "multi", "text"):
        keep_values(key, name)
    set_raw(key, "dword", (2, winreg.REG_DWORD))
    set_raw(key, "multi", (["C:\\pagefile.sys 2048 4096", "D:\\pagefile.sys 0 0"], winreg.REG_MULTI_SZ))
    set_raw(key, "text", ("显卡 ’quoted’", winreg.REG_SZ))
    reader = WinregReader()
    assert reader.value(key, "dword") == ("REG_DWORD", "2")
    assert reader.value(key, "multi") == ("REG_MULTI_SZ", "C:\\pagefile.sys 2048 4096\\0D:\\pagefile.sys 0 0")
    assert reader.value(key, "text") == ("REG_SZ", "显卡 ’quoted’")
    assert reader.value(key, "absent") is None
    assert reader.values(key + "\\no such key") == {}
    assert key in reader.tree("HKCU\\Software")  # the recursive read finds it


def test_the_doctor_knows_windows_without_powershell():
    from services.setup.doctor import collect_facts
    from services.setup.system import SubprocessRunner

    facts = collect_facts(SubprocessRunner())  # no CIM/PowerShell under Wine: the platform decides
    assert facts.os.system == "windows" and facts.windows is not None
    assert facts.os.pretty_name.startswith("Microsoft Windows")  # edition from the registry


# ---- hybrid: GPU counters through pdh.dll ----------------------------------------------------------
def test_pdh_without_gpu_counters_is_a_clear_state():
    from services.hybrid.windows import PdhCounterSource

    source = PdhCounterSource()  # loads the real pdh.dll through ctypes
    with pytest.raises(OSError, match="PdhAddEnglishCounterW failed"):
        source.sample(0.0)  # Wine's pdh.dll has no "GPU Engine" counters


def test_a_scan_without_gpu_counters_says_why(tmp_path):
    from services.hybrid.attribution import WindowsAttributor
    from services.hybrid.model import Inventory
    from services.hybrid.windows import PdhCounterSource

    result = WindowsAttributor(PdhCounterSource(), process_info=lambda pid: None).scan(
        Inventory((), "windows"), interval_s=0.0)
    assert result.processes == ()
    assert any("performance counters could not be read" in str(n) for n in result.notes)


def test_hybrid_command_without_gpu_counters_says_so():
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "hybrid", "--list", "--interval", "0.1"],
                          capture_output=True, text=True, errors="replace", timeout=300)
    assert "Traceback" not in done.stderr + done.stdout
    assert done.returncode in (0, 1, 3), done.stderr


# ---- the host's load through psutil (Windows has no /proc) -------------------------------------
def test_the_system_probe_reads_ram_through_psutil_even_without_swap_counters():
    import psutil

    from services.telemetry.system import SystemProbe

    probe = SystemProbe(rates=False)
    sample = probe.sample(now=0.0)
    assert sample.cpu_count == psutil.cpu_count()
    assert 0 < sample.ram_used_mib <= sample.ram_total_mib  # Windows' own memory status
    try:  # swap comes from performance counters: Wine's pdh.dll lacks them, and Windows can switch them off
        swap = psutil.swap_memory()
    except RuntimeError:
        assert sample.swap_total_mib is None and sample.swap_used_mib is None
    else:
        assert sample.swap_total_mib == swap.total / 2**20


# ---- elevation: the command line Start-Process hands over ------------------------------------------
@pytest.mark.parametrize("quote", ["'", "‘", "’", "‚", "‛"])
def test_uac_argument_line_parses_back_with_commandlinetoargvw(quote):
    from services.setup.elevation import windows_command_line

    args = ["add", "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", "/d",
            f'{quote}; Start-Process calc; {quote}', 'say "hi"', "C:\\dir with space\\", "显卡", ""]
    line = "prog.exe " + windows_command_line(args)
    shell32 = ctypes.WinDLL("shell32")
    shell32.CommandLineToArgvW.restype = ctypes.POINTER(ctypes.c_wchar_p)
    shell32.CommandLineToArgvW.argtypes = [ctypes.c_wchar_p, ctypes.POINTER(ctypes.c_int)]
    count = ctypes.c_int()
    argv = shell32.CommandLineToArgvW(line, ctypes.byref(count))
    try:
        parsed = [argv[i] for i in range(count.value)]
    finally:
        ctypes.windll.kernel32.LocalFree(argv)
    assert parsed == ["prog.exe", *args]


# ---- data and settings for a user whose name has spaces and Chinese characters --------------------
PROFILE_SCRIPT = r"""
import json, sys
from services.paths import AppPaths
from services.settings import SettingsStore
paths = AppPaths.default()
store = SettingsStore(paths.settings_file)
store.load()
store.save()
paths.recordings_dir.mkdir(parents=True, exist_ok=True)
(paths.recordings_dir / "probe.txt").write_text("显存", encoding="utf-8")
again = SettingsStore(paths.settings_file)
again.load()
print(json.dumps({"config": str(paths.config_dir), "data": str(paths.data_dir),
                  "settings": paths.settings_file.is_file(), "language": again.settings.general.language}))
"""


def test_data_and_settings_under_a_chinese_user_profile(tmp_path, keep_values):
    import winreg

    shell_folders = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\User Shell Folders"
    profile = Path("C:\\users\\李 雷 (测试)")
    local, roaming = profile / "AppData" / "Local", profile / "AppData" / "Roaming"
    keep_values(shell_folders, "Local AppData")
    keep_values(shell_folders, "AppData")
    set_raw(shell_folders, "Local AppData", (str(local), winreg.REG_EXPAND_SZ))
    set_raw(shell_folders, "AppData", (str(roaming), winreg.REG_EXPAND_SZ))
    env = {k: v for k, v in os.environ.items() if k != "GPU_ASSISTANT_HOME"}
    env.update(LOCALAPPDATA=str(local), APPDATA=str(roaming), USERPROFILE=str(profile))
    try:
        done = subprocess.run([sys.executable, "-c", PROFILE_SCRIPT], cwd=ROOT, env=env, capture_output=True,
                              text=True, encoding="utf-8", errors="replace", timeout=300)
        assert done.returncode == 0, done.stderr
        found = json.loads(done.stdout.strip().splitlines()[-1])
        assert found["data"].lower().startswith(str(local).lower()), found
        assert found["config"].lower().startswith(str(local).lower()) or found["config"].lower().startswith(str(roaming).lower())
        assert found["settings"]
        assert (Path(found["data"]) / "recordings" / "probe.txt").read_text(encoding="utf-8") == "显存"
    finally:
        import shutil

        shutil.rmtree(profile, ignore_errors=True)
