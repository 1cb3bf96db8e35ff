"""Windows: the clean-reinstall plan (DDU in Safe Mode, then the offline driver package) and the
RunOnce command that reopens the app at the setup page after each restart."""
from __future__ import annotations

import sys
from dataclasses import dataclass

from services.i18n import translate
from services.setup.plan import Check, Plan, RegistryChange, Step


@dataclass(frozen=True, slots=True)
class WindowsPlanOptions:
    driver_package: str = ""  # path of the downloaded offline package (.exe)
    ddu_exe: str = ""  # path of 'Display Driver Uninstaller.exe'
    reopen_command: str = ""  # the command line that reopens this app at the setup page ("": app_reopen_command())


# The user's RunOnce key: Windows runs each value once at the user's next sign-in, then deletes it; a
# name starting with '*' runs in Safe Mode too (https://learn.microsoft.com/windows/win32/setupapi/
# run-and-runonce-registry-keys). HKCU, so the app reopens as the user, not as the administrator.
USER_RUNONCE_KEY = r"HKCU\Software\Microsoft\Windows\CurrentVersion\RunOnce"
REOPEN_VALUE = "*GPUAssistantSetup"
INSTALLED_APP = r"%LOCALAPPDATA%\Programs\GPU Assistant\gpu-assistant.exe"


def app_reopen_command(frozen: bool | None = None, executable: str | None = None, main_script: str | None = None,
                       windows: bool | None = None) -> str:
    """The command line that opens this app at the setup page, for RunOnce: the windowed
    gpu-assistant.exe of a bundle (not its -cli twin), or pythonw.exe with main.py from a checkout.
    Planning for another machine (not on Windows) names the installer's default location."""
    import subprocess
    from pathlib import PureWindowsPath

    windows = sys.platform == "win32" if windows is None else windows
    frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    executable = executable or sys.executable
    if not windows:
        return f'"{INSTALLED_APP}" --page setup'
    exe = PureWindowsPath(executable)
    if frozen:
        if exe.stem.lower().endswith("-cli"):
            exe = exe.with_name(exe.stem[: -len("-cli")] + exe.suffix)
        return subprocess.list2cmdline([str(exe), "--page", "setup"])
    if exe.name.lower() == "python.exe":
        exe = exe.with_name("pythonw.exe")  # no console window at sign-in
    if main_script is None:
        from pathlib import Path

        main_script = str(Path(__file__).resolve().parents[2] / "main.py")
    return subprocess.list2cmdline([str(exe), main_script, "--page", "setup"])


DRIVER_PLACEHOLDER = "<NVIDIA driver package .exe>"
# DDU's options and Safe Mode advice: Wagnard/display-drivers-uninstaller Readme.txt,
# AppLaunchOptions.vb, Application.xaml.vb.
DDU_PLACEHOLDER = "<Display Driver Uninstaller.exe>"


def build_windows_plan(inputs, rules, options: WindowsPlanOptions) -> Plan:
    from services.setup.linux_plans import plan_key, pytorch_steps

    w = rules.windows
    downloads = {d["name"]: d for d in rules.downloads}
    drv = downloads.get("NVIDIA driver (full offline package)", {})
    ddu = downloads.get("Display Driver Uninstaller (DDU)", {})
    # Placeholders until the person picks the files; the executor refuses to run them.
    pkg = options.driver_package or DRIVER_PLACEHOLDER
    ddu_exe = options.ddu_exe or DDU_PLACEHOLDER
    wu, search, sm = w["wu_driver_policy"], w["driver_search"], w["safe_mode_undo"]
    undo_sm = "bcdedit /deletevalue {current} safeboot"
    steps = [
        Step(
            id="download-driver",
            title=translate("Setup", "Download the driver's full offline package"),
            explanation=translate("Setup", "From NVIDIA's download page, pick your card and Windows and save the installer. Download it now: after the clean-up you may have no display driver and no easy way to browse. GPU Assistant does not bundle or fetch it."),
            manual=True, link=drv.get("url", ""), source=drv.get("source", ""),
            check=Check("file_exists", (options.driver_package,)) if options.driver_package else None,
        ),
        Step(
            id="download-ddu",
            title=translate("Setup", "Download Display Driver Uninstaller (DDU)"),
            explanation=translate("Setup", "Get DDU from its official site and unpack it. Use it only to repair a broken install or when changing GPU brand, not for every update."),
            manual=True, link=ddu.get("url", ""), source=ddu.get("source", ""),
            check=Check("file_exists", (options.ddu_exe,)) if options.ddu_exe else None,
        ),
        Step(
            id="block-driver-updates",
            title=translate("Setup", "Keep Windows Update from replacing the driver"),
            explanation=translate("Setup", "Sets the policy 'Do not include drivers with Windows Updates' and turns off automatic driver downloads for devices, so Windows does not install its own NVIDIA driver between the clean-up and your install. The old values are saved; the 'restore update settings' step puts them back."),
            registry=(RegistryChange(wu["key"], wu["value"], "REG_DWORD", str(wu["block"]),
                                     tuple(str(v) for v in wu.get("values", ()))),
                      RegistryChange(search["key"], search["value"], "REG_DWORD", str(search["block"]),
                                     tuple(str(v) for v in search.get("values", ())))),
            needs_root=True,
            check=Check("registry_value", argv=("reg", "query", wu["key"], "/v", wu["value"]), text=wu["value"], expect=str(wu["block"])),
            source=f'{wu["source"]}; {search["source"]}',
        ),
        Step(
            id="restore-point",
            title=translate("Setup", "Create a restore point"),
            explanation=translate("Setup", "A System Restore point lets you go back if something goes wrong. System Protection must be on for drive C:."),
            commands=(("powershell.exe", "-NoProfile", "-NonInteractive", "-Command",
                       "Checkpoint-Computer -Description 'GPU Assistant: before NVIDIA driver reinstall' -RestorePointType MODIFY_SETTINGS"),),
            needs_root=True,
            undo_note=translate("Setup", "A restore point is not undone; remove old ones in System Protection if you need the space."),
            source="DDU Readme.txt (make a restore point first)",
        ),
        Step(
            id="safe-mode",
            title=translate("Setup", "Restart into Safe Mode"),
            explanation=translate("Setup", "DDU works best in Safe Mode. First a RunOnce entry '*UndoSM' is written that switches Safe Mode off again at the next sign-in (the * makes it run in Safe Mode too), so the PC cannot get stuck there. If it ever does: at the Windows recovery command prompt run 'bcdedit /deletevalue {default} safeboot'. A second RunOnce entry reopens GPU Assistant at the next step (removing the old driver with DDU) when you sign in to Safe Mode, so the wizard continues after the restart. Save your work: this restarts the PC."),
            registry=(RegistryChange(sm["runonce_key"], sm["value"], "REG_SZ", undo_sm),
                      RegistryChange(USER_RUNONCE_KEY, REOPEN_VALUE, "REG_SZ", options.reopen_command or app_reopen_command())),
            commands=(("bcdedit", "/set", "{current}", "safeboot", "minimal"), ("shutdown", "/r", "/t", "15")),
            needs_root=True, needs_reboot=True,
            check=Check("command_output", argv=("bcdedit", "/enum", "{current}"), expect="safeboot"),
            undo=(("bcdedit", "/deletevalue", "{current}", "safeboot"),),
            source=sm["source"],
        ),
        Step(
            id="run-ddu",
            title=translate("Setup", "Remove the old driver with DDU"),
            explanation=translate("Setup", "In Safe Mode, DDU removes every trace of the NVIDIA driver and restarts into normal mode. -NoRestorePoint because the wizard made one."),
            commands=((ddu_exe, *w["ddu_args"]["args"], "-NoRestorePoint"),),
            needs_root=True, needs_reboot=True,
            undo_note=translate("Setup", "DDU's removal is not undone; the next step installs the new driver (or use the restore point)."),
            source=w["ddu_args"]["source"],
        ),
        Step(
            id="install-driver",
            title=translate("Setup", "Install the driver as a clean installation"),
            explanation=translate("Setup", "Back in normal mode, run the offline package. Choose 'Custom (Advanced)' and tick 'Perform a clean installation'. Restart when it asks."),
            commands=((pkg,),),
            needs_root=True,
            check=Check("command_ok", argv=("nvidia-smi",)),
            source="NVIDIA driver installer: its 'Perform a clean installation' option (the setup.exe -clean switch is community-documented; NVIDIA publishes no switch list)",
        ),
        Step(
            id="restore-update-settings",
            title=translate("Setup", "Restore the Windows Update settings"),
            explanation=translate("Setup", "Puts back the values the 'keep Windows Update from replacing the driver' step saved. Skip it if you want Windows to keep its hands off your driver."),
            commands=(), needs_root=True, restores="block-driver-updates",
            source=wu["source"],
        ),
        Step(
            id="verify-driver",
            title=translate("Setup", "Check that the driver works"),
            explanation=translate("Setup", "nvidia-smi talks to the driver through NVML. Exit code 0 means the driver is loaded and answers; its header shows the highest CUDA version this driver can run."),
            commands=(("nvidia-smi",),),
            check=Check("command_ok", argv=("nvidia-smi",)),
            source="https://docs.nvidia.com/deploy/nvidia-smi/index.html",
        ),
    ]
    install, verify = pytorch_steps(inputs, rules, "windows")
    steps += [install, verify]
    summary = translate("Setup", "Clean driver reinstall for {gpu} on Windows, then PyTorch").format(gpu=inputs.gpu_label)
    notes = (translate("Setup", "Each step that changes the system asks for administrator rights through a Windows (UAC) prompt."),)
    return Plan(plan_key("windows", inputs.gpu_label), "windows", "Windows", True, summary, notes, tuple(steps))
