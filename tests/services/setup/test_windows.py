from __future__ import annotations


import pytest

from services.setup.diagnosis import diagnose
from services.setup.doctor import collect_facts
from services.setup.elevation import uac_wrap
from services.setup.executor import StepExecutor
from services.setup.os_release import OsInfo
from services.setup.planner import inputs_for, plan_for_os
from services.setup.progress import ProgressStore
from services.setup.rules import load_rules
from services.setup.system import CommandResult, FakeRunner, SystemRoot
from services.setup.windows import LiveWindowsProbe, collect_windows_facts, wmi_driver_to_nvidia
from services.setup.windows_plan import WindowsPlanOptions
from services.setup.windows_registry import RegQueryTextReader, parse_reg_query, parse_reg_query_tree

from .machine import DATA, FakeNvml

RULES = load_rules()
WIN = DATA / "windows"
NOT_FOUND = CommandResult(1, "", "ERROR: The system was unable to find the specified registry key or value.\r\n")


def text(name: str) -> str:
    return (WIN / name).read_text(encoding="utf-8")


def windows_runner(paging="reg-pagingfiles-fixed.txt", power="powercfg-balanced.txt", hags=True) -> FakeRunner:
    def handler(argv):
        if argv[0] == "powershell.exe":
            script = argv[-1]
            if "Win32_OperatingSystem" in script:
                return CommandResult(0, text("wmi-os.json"))
            if "Win32_VideoController" in script:
                return CommandResult(0, text("wmi-videocontroller.json"))
            if "GPU Process Memory" in script:
                return CommandResult(0, text("counters-gpu-process-memory.json"))
        if argv[:2] == ("reg", "query"):
            key = argv[2]
            if key.endswith("GraphicsDrivers"):
                return CommandResult(0, text("reg-hwschmode-on.txt")) if hags else NOT_FOUND
            if key.endswith("Memory Management"):
                return CommandResult(0, text(paging))
            if key.endswith("DirectX") and "/s" in argv:
                return CommandResult(0, text("reg-directx.txt"))
        if argv == ("powercfg", "/getactivescheme"):
            return CommandResult(0, text(power))
        return None

    return FakeRunner(handler=handler)


def test_wmi_driver_version_decoding():
    assert wmi_driver_to_nvidia("32.0.15.6094") == "560.94"
    assert wmi_driver_to_nvidia("32.0.15.7657") == "576.57"
    assert wmi_driver_to_nvidia("31.0.15.5222") == "552.22"
    assert wmi_driver_to_nvidia("32.0.15.8100") == "581.00"
    assert wmi_driver_to_nvidia("not a version") is None


def test_reg_query_parsing():
    assert parse_reg_query(text("reg-hwschmode-on.txt")) == {"HwSchMode": ("REG_DWORD", "2")}
    tree = parse_reg_query_tree(text("reg-directx.txt"))
    nvidia = [v for v in tree.values() if v.get("VendorId") == ("REG_DWORD", str(0x10DE))]
    assert nvidia[0]["AdapterLuid"] == ("REG_QWORD", str(0xD1A3))


def test_windows_facts_and_findings():
    runner = windows_runner()
    probe = LiveWindowsProbe(runner, process_name=lambda pid: {11234: "python.exe"}.get(pid, "?"),
                             registry=RegQueryTextReader(runner))
    facts = collect_windows_facts(probe)
    assert facts.os.pretty_name == "Microsoft Windows 11 Pro"
    assert facts.driver_version == "560.94" and facts.wmi_driver_version == "32.0.15.6094"
    assert [g.pci_id for g in facts.gpus] == ["8086:a780", "10de:2684"]
    assert facts.power_scheme_guid == "381b4222-f694-41f0-9685-ff5bb260df2e"
    assert facts.hags_mode == 2
    assert facts.paging_files == ("C:\\pagefile.sys 2048 4096", "D:\\pagefile.sys 1024 1024")
    # only the NVIDIA adapter's LUID counts, and only a big shared share
    assert [(s.pid, s.name) for s in facts.spills] == [(11234, "python.exe")]
    full = collect_facts(runner, python=None, nvml_module=FakeNvml(driver="560.94", cuda=12060), windows_probe=probe, system="windows")
    report = diagnose(full, RULES)
    codes = {f.code: f for f in report.findings}
    assert report.gpu.generation == "Ada Lovelace"
    assert codes["win_power_plan"].fixes[0].commands == (("powercfg", "/setactive", "8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c"),)
    assert str(codes["win_hags"].title) == "Hardware-accelerated GPU scheduling: on"
    assert "WinError 1455" in str(codes["win_pagefile_fixed"].detail)
    spill = codes["win_gpu_memory_spill"]
    assert "python.exe (pid 11234) has 6.0 GiB" in str(spill.title)
    assert "Prefer No Sysmem Fallback" in str(spill.detail)
    assert report.to_json()["windows"]["driver_version"] == "560.94"


def test_power_plan_read_by_guid_not_localized_name():
    runner = windows_runner(paging="reg-pagingfiles-auto.txt", power="powercfg-high-german.txt", hags=False)
    probe = LiveWindowsProbe(runner, registry=RegQueryTextReader(runner))
    facts = collect_windows_facts(probe)
    report = diagnose(collect_facts(FakeRunner(), nvml_module=FakeNvml(), windows_probe=probe, system="windows"), RULES)
    codes = {f.code: f for f in report.findings}
    assert "win_power_plan_ok" in codes and str(codes["win_power_plan_ok"].title) == "Power plan: High performance"
    assert "win_pagefile_ok" in codes and facts.hags_mode is None
    assert str(codes["win_hags"].title) == "Hardware-accelerated GPU scheduling: Windows default (value not set)"


@pytest.fixture
def win_plan(tmp_path):
    inputs = inputs_for(RULES, SystemRoot(tmp_path), tmp_path / "staged", "2684")
    return plan_for_os(OsInfo(system="windows", pretty_name="Windows"), inputs, RULES,
                       WindowsPlanOptions(driver_package="C:\\Users\\li\\Downloads\\581.57-desktop-win10-win11-64bit-international-dch-whql.exe",
                                          ddu_exe="C:\\Tools\\DDU\\Display Driver Uninstaller.exe"))


def win_executor(tmp_path, runner):
    # Recorded reg.exe output stands for the registry here (the windows-marked tests use the real one).
    return StepExecutor(runner, SystemRoot(tmp_path), ProgressStore(tmp_path / "p.json"), tmp_path / "b", system="windows",
                        registry=RegQueryTextReader(runner))


def test_windows_plan_shape(win_plan):
    ids = [s.id for s in win_plan.steps]
    assert ids == ["download-driver", "download-ddu", "block-driver-updates", "restore-point", "safe-mode", "run-ddu",
                   "install-driver", "restore-update-settings", "verify-driver", "install-pytorch", "verify-pytorch"]
    ddu = win_plan.step("run-ddu")
    assert ddu.commands == (("C:\\Tools\\DDU\\Display Driver Uninstaller.exe", "-silent", "-cleannvidia", "-restart", "-NoRestorePoint"),)
    assert win_plan.step("download-driver").manual and win_plan.step("download-driver").link.startswith("https://www.nvidia.com/")
    data = win_plan.to_json()
    assert all({"id", "title", "commands", "needs_root", "needs_reboot"} <= set(s) for s in data["steps"])


def test_block_updates_saves_old_values_and_restore_puts_them_back(tmp_path, win_plan):
    runner = FakeRunner()
    runner.responses[("reg", "query", "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate")] = NOT_FOUND
    runner.responses[("reg", "query", "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DriverSearching")] = CommandResult(
        0, "\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DriverSearching\r\n    SearchOrderConfig    REG_DWORD    0x1\r\n")
    runner.responses[("reg", "add")] = CommandResult(0, "The operation completed successfully.\r\n")
    runner.responses[("reg", "delete")] = CommandResult(0, "The operation completed successfully.\r\n")
    ex = win_executor(tmp_path, runner)
    step = win_plan.step("block-driver-updates")
    assert ex.check(step).state == "not_done"
    assert ex.run(step).ok
    assert ("reg", "add", "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate", "/v", "ExcludeWUDriversInQualityUpdate",
            "/t", "REG_DWORD", "/d", "1", "/f") in runner.calls
    assert ("reg", "add", "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DriverSearching", "/v", "SearchOrderConfig",
            "/t", "REG_DWORD", "/d", "0", "/f") in runner.calls
    runner.calls.clear()
    restore = win_plan.step("restore-update-settings")
    assert any("reg delete" in line for line in ex.describe(restore, plan=win_plan))
    assert ex.run(restore, plan=win_plan).ok
    assert runner.calls == [
        ("reg", "delete", "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate", "/v", "ExcludeWUDriversInQualityUpdate", "/f"),
        ("reg", "add", "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DriverSearching", "/v", "SearchOrderConfig", "/t", "REG_DWORD", "/d", "1", "/f"),
    ]
    assert ex.progress.state("block-driver-updates") == "undone" and ex.progress.state("restore-update-settings") == "done"


def test_restore_before_block_is_refused(tmp_path, win_plan):
    ex = win_executor(tmp_path, FakeRunner())
    out = ex.run(win_plan.step("restore-update-settings"), plan=win_plan)
    assert not out.ok and "Nothing to restore" in str(out.message)


def test_safe_mode_writes_runonce_undo_before_bcdedit(tmp_path, win_plan):
    runner = FakeRunner()
    runner.responses[("reg", "query")] = NOT_FOUND
    for cmd in ("reg", "bcdedit", "shutdown"):
        runner.responses[(cmd,)] = CommandResult(0, "")
    ex = win_executor(tmp_path, runner)
    step = win_plan.step("safe-mode")
    assert ex.run(step).ok
    order = [c[0] + " " + c[1] for c in runner.calls]
    assert order.index("reg add") < order.index("bcdedit /set") < order.index("shutdown /r")
    runonce = next(c for c in runner.calls if c[:2] == ("reg", "add"))
    assert runonce[4] == "*UndoSM" and runonce[-2] == "bcdedit /deletevalue {current} safeboot"
    assert "bcdedit /deletevalue {default} safeboot" in str(step.explanation)
    # The wizard reopens at the next step after the restart, as the user, and says so.
    reopen = [c for c in runner.calls if c[:3] == ("reg", "add", "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce")]
    assert reopen and reopen[0][4] == "*GPUAssistantSetup" and reopen[0][-2].endswith("--page setup")
    assert order.index("reg add") < order.index("bcdedit /set")
    assert "wizard continues after the restart" in str(step.explanation)
    runner.calls.clear()
    assert ex.undo(step).ok
    assert ("bcdedit", "/deletevalue", "{current}", "safeboot") in runner.calls
    assert runner.calls[0][:2] == ("reg", "delete")
    assert ("reg", "delete", "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce", "/v", "*GPUAssistantSetup", "/f") in runner.calls


def test_reopen_command_starts_the_windowed_app_at_the_setup_page():
    from services.setup.windows_plan import app_reopen_command

    bundle = app_reopen_command(frozen=True, executable="C:\\Users\\李 雷\\AppData\\Local\\Programs\\GPU Assistant\\gpu-assistant-cli.exe", windows=True)
    assert bundle == '"C:\\Users\\李 雷\\AppData\\Local\\Programs\\GPU Assistant\\gpu-assistant.exe" --page setup'
    checkout = app_reopen_command(frozen=False, executable="C:\\Python313\\python.exe", main_script="D:\\src\\main.py", windows=True)
    assert checkout == "C:\\Python313\\pythonw.exe D:\\src\\main.py --page setup"
    assert app_reopen_command(windows=False).endswith('gpu-assistant.exe" --page setup')


def test_placeholders_must_be_chosen_first(tmp_path):
    inputs = inputs_for(RULES, SystemRoot(tmp_path), tmp_path, "2684")
    plan = plan_for_os(OsInfo(system="windows"), inputs, RULES, WindowsPlanOptions())
    runner = FakeRunner()
    out = win_executor(tmp_path, runner).run(plan.step("run-ddu"))
    assert not out.ok and "Choose the file first" in str(out.message) and runner.calls == []


def test_uac_wrapping_quotes_arguments():
    argv = uac_wrap(("C:\\Tools\\DDU\\Display Driver Uninstaller.exe", "-silent", "it's"))
    assert argv[:4] == ("powershell.exe", "-NoProfile", "-NonInteractive", "-Command")
    assert "-FilePath 'C:\\Tools\\DDU\\Display Driver Uninstaller.exe'" in argv[4]
    assert "-ArgumentList '-silent it''s' -Verb RunAs -Wait -PassThru" in argv[4]
    assert argv[4].endswith("exit $p.ExitCode")


def ps_single_quoted(script: str, start: int) -> tuple[str, int]:
    """PowerShell's tokenizer for a single-quoted string at ``script[start]`` (ScanStringLiteral:
    any of ' ‘ ’ ‚ ‛ ends it; two in a row stand for one): (value, index after the closing quote)."""
    quotes = "\u0027\u2018\u2019\u201a\u201b"
    assert script[start] in quotes
    i, out = start + 1, []
    while True:
        c = script[i]
        if c in quotes:
            if i + 1 < len(script) and script[i + 1] in quotes:
                out.append(script[i + 1])
                i += 2
                continue
            return "".join(out), i + 1
        out.append(c)
        i += 1


@pytest.mark.parametrize("quote", ["'", "\u2018", "\u2019", "\u201a", "\u201b"])
def test_uac_wrapping_survives_every_powershell_single_quote(quote):
    # issue 16: a program path holding ’; Start-Process calc; ’ must stay one string literal.
    program = f"C:\\Users\\x{quote}; Start-Process calc; {quote}\\setup.exe"
    value = f"a{quote} b"
    script = uac_wrap((program, "/v", value))[4]
    path_at = script.index("-FilePath ") + len("-FilePath ")
    parsed, end = ps_single_quoted(script, path_at)
    assert parsed == program
    assert script[end:].startswith(" -ArgumentList ")
    args, end = ps_single_quoted(script, end + len(" -ArgumentList "))
    assert args == '/v "a' + quote + ' b"'  # one command line; the space-holding value quoted for CommandLineToArgvW
    assert script[end:] == " -Verb RunAs -Wait -PassThru -WindowStyle Hidden; exit $p.ExitCode"


def test_uac_elevation_used_for_admin_steps(tmp_path, win_plan):
    runner = FakeRunner()
    runner.responses[("powershell.exe",)] = CommandResult(0, "")
    ex = StepExecutor(runner, SystemRoot(tmp_path), ProgressStore(tmp_path / "p.json"), tmp_path / "b",
                      elevation="uac", system="windows")
    assert ex.run(win_plan.step("restore-point")).ok
    assert runner.calls[0][0] == "powershell.exe" and "Start-Process -FilePath 'powershell.exe'" in runner.calls[0][-1]


def test_every_windows_step_check_run_undo(tmp_path, win_plan):
    runner = FakeRunner()
    runner.responses[("reg", "query")] = NOT_FOUND
    for cmd in ("reg", "bcdedit", "shutdown", "powershell.exe", "nvidia-smi", "python",
                "C:\\Tools\\DDU\\Display Driver Uninstaller.exe",
                "C:\\Users\\li\\Downloads\\581.57-desktop-win10-win11-64bit-international-dch-whql.exe"):
        runner.responses[(cmd,)] = CommandResult(0, "")
    ex = win_executor(tmp_path, runner)
    for step in win_plan.steps:
        assert ex.check(step).state in ("done", "not_done", "unknown"), step.id
        out = ex.run(step, plan=win_plan)
        if step.manual and not step.commands:
            assert not out.ok
            continue
        assert out.ok, (step.id, str(out.message))
        for cmd in step.commands:
            assert tuple(cmd) in runner.calls
        if step.undoable and step.id != "block-driver-updates":  # that one is undone by restore-update-settings
            assert ex.undo(step).ok, step.id
    assert ex.progress.state("block-driver-updates") == "undone"
    assert ex.progress.state("restore-update-settings") == "done"


def test_user_registry_values_are_written_as_the_user_not_elevated(tmp_path, win_plan):
    runner = FakeRunner()
    runner.responses[("reg", "query")] = NOT_FOUND
    for cmd in ("reg", "powershell.exe"):
        runner.responses[(cmd,)] = CommandResult(0, "")
    ex = StepExecutor(runner, SystemRoot(tmp_path), ProgressStore(tmp_path / "p.json"), tmp_path / "b",
                      elevation="uac", system="windows", registry=RegQueryTextReader(runner))
    step = win_plan.step("safe-mode")
    import dataclasses

    assert ex.run(dataclasses.replace(step, commands=())).ok
    hkcu = [c for c in runner.calls if c[:2] == ("reg", "add")]
    assert hkcu and hkcu[0][2].startswith("HKCU\\") and hkcu[0][4] == "*GPUAssistantSetup"
    elevated = [c[-1] for c in runner.calls if c[0] == "powershell.exe"]
    assert any("*UndoSM" in script for script in elevated)  # HKLM: through the UAC prompt
    assert not any("GPUAssistantSetup" in script for script in elevated)


# ---- the machine model on Windows (also in the Windows lane) -----------------------------------------
def test_failing_nvml_dll_with_the_registry_driver_says_what_failed_and_reinstalls_in_place(tmp_path):
    # The display-class registry (Win32_VideoController: 32.0.15.6094 = 560.94) lists NVIDIA's driver for
    # the card, but nvml.dll fails: the doctor says so (not "0 problems"), the machine model names the GPU
    # from the registry, and the plan reinstalls that driver in place with "Perform a clean installation";
    # DDU stays for mixed installs and --full.
    from services.setup.planner import plan_for_report

    runner = windows_runner(paging="reg-pagingfiles-auto.txt")
    probe = LiveWindowsProbe(runner)
    facts = collect_facts(runner, python=None, nvml_module=FakeNvml(init_error=(12, "NVML Shared Library Not Found")),
                          windows_probe=probe, system="windows")
    report = diagnose(facts, RULES)
    finding = next(f for f in report.findings if f.code == "driver_not_answering")
    assert finding.severity == "error" and "560.94" in str(finding.title)
    assert "nvml.dll" in str(finding.detail) and "NVML library missing" in str(finding.detail)
    machine = report.machine
    assert machine.driver.source == "registry" and machine.driver.version == "560.94" and not machine.driver.answers
    assert machine.gpu.name == "NVIDIA GeForce RTX 4090" and machine.gpu.source == "registry"

    def plan(full=False):
        return plan_for_report(report, RULES, SystemRoot(tmp_path), tmp_path / "staged", WindowsPlanOptions(), full=full)

    ids = [s.id for s in plan().steps]
    assert not {"safe-mode", "run-ddu"} & set(ids) and "install-driver" in ids
    install = plan().step("install-driver")
    assert str(install.title) == "Reinstall the driver with the offline package (clean installation)"
    assert "Perform a clean installation" in str(install.explanation) and "nvml.dll" in str(install.explanation)
    assert {"safe-mode", "run-ddu"} <= {s.id for s in plan(full=True).steps}


def test_windows_store_alias_is_not_the_users_python():
    from services.setup.machine import PY_PATH, active_python

    alias = r"C:\Users\li\AppData\Local\Microsoft\WindowsApps\python.exe"
    assert active_python({"PATH": "x"}, windows=True, which=lambda name, path=None: alias) is None
    real = r"C:\Users\li\AppData\Local\Programs\Python\Python312\python.exe"
    found = active_python({"PATH": "x"}, windows=True, which=lambda name, path=None: real)
    assert found.path == real and found.how == PY_PATH
