"""The desktop entry, AppStream data, Inno Setup script and bundle rules agree with the app."""
from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from services.version import APP_ID, APP_NAME, DESKTOP_ID, __version__

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "installer" / "linux"
NSI = ROOT / "installer" / "windows" / "gpu_assistant.nsi"
sys.path.insert(0, str(ROOT / "installer"))

import bundle_rules  # noqa: E402
import build_linux  # noqa: E402


def desktop_entry() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(LINUX / f"{DESKTOP_ID}.desktop", encoding="utf-8")
    return parser


def test_desktop_entry_matches_the_app():
    entry = desktop_entry()["Desktop Entry"]
    assert entry["Name"] == APP_NAME
    assert entry["Icon"] == APP_ID
    # install.sh rewrites lines starting "Exec=gpu-assistant" to the installed path.
    assert entry["Exec"] == APP_ID and entry["TryExec"] == APP_ID
    assert desktop_entry()["Desktop Action StartInTray"]["Exec"] == f"{APP_ID} --minimized"
    assert entry["Name[zh_CN]"] and entry["Comment[zh_CN]"]
    # On X11, Qt sets WM_CLASS to (program name, application name): the task bar matches the
    # window to this entry (and its icon) through the class, which is APP_ID.
    assert entry["StartupWMClass"] == APP_ID


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils not installed")
def test_desktop_entry_validates():
    result = subprocess.run(["desktop-file-validate", str(LINUX / f"{DESKTOP_ID}.desktop")],
                            capture_output=True, text=True)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout


def test_metainfo_matches_the_app():
    root = ET.parse(LINUX / f"{DESKTOP_ID}.metainfo.xml").getroot()
    assert root.findtext("id") == DESKTOP_ID
    assert root.find("launchable").text == f"{DESKTOP_ID}.desktop"
    assert root.find("icon").text == APP_ID
    releases = [r.get("version") for r in root.iter("release")]
    assert releases and releases[0] == __version__, "add a <release> for the new version"
    assert root.find("provides/binary").text == APP_ID


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstream not installed")
def test_metainfo_validates():
    result = subprocess.run(["appstreamcli", "validate", "--no-net", str(LINUX / f"{DESKTOP_ID}.metainfo.xml")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def nsi_text() -> str:
    return NSI.read_text(encoding="utf-8")


def nsi_section(text: str, name: str) -> str:
    """The body of ``Section ... NAME ...`` up to its ``SectionEnd``."""
    m = re.search(r'^Section [^\n]*' + re.escape(name) + r'[^\n]*\n(.*?)^SectionEnd', text, re.MULTILINE | re.DOTALL)
    assert m, name
    return m.group(1)


def test_nsis_script_is_a_per_user_64_bit_install():
    text = nsi_text()
    assert re.search(r"^Target amd64-unicode$", text, re.MULTILINE)  # Wine here and the bundle are 64-bit
    assert re.search(r"^RequestExecutionLevel user$", text, re.MULTILINE)  # no UAC prompt
    assert 'InstallDir "$LOCALAPPDATA\\Programs\\${APPNAME}"' in text
    assert f'!define VERSION "{__version__}"' in text
    assert f'!define APPEXE "{APP_ID}.exe"' in text and f'!define CLIEXE "{APP_ID}-cli.exe"' in text
    app = nsi_section(text, "SecApp")
    assert 'CreateShortcut "$SMPROGRAMS\\${APPNAME}.lnk"' in app
    assert 'WriteRegStr HKCU "${UNINSTKEY}" "UninstallString"' in app and "WriteUninstaller" in app
    # Start with Windows: optional (/o: off unless ticked), into the tray, removed by the uninstaller.
    startup = nsi_section(text, "SecStartup")
    assert 'Section /o "$(SecStartName)" SecStartup' in text
    assert '"${RUNKEY}"' in startup and "--minimized" in startup
    uninstall = nsi_section(text, '"Uninstall"')
    assert 'DeleteRegValue HKCU "${RUNKEY}"' in uninstall and 'DeleteRegKey HKCU "${UNINSTKEY}"' in uninstall
    # Never a recursive delete of the install folder a user may have pointed at Documents.
    assert 'RMDir /r "$INSTDIR"' not in uninstall and 'RMDir "$INSTDIR"' in uninstall


def test_windows_installer_ships_and_removes_the_exporter_task():
    text = nsi_text()
    assert 'File "exporter-task.ps1"' in nsi_section(text, "SecApp")
    assert "exporter-task.ps1\" -Remove" in nsi_section(text, '"Uninstall"')
    assert (NSI.parent / "exporter-task.ps1").is_file()


@pytest.mark.skipif(shutil.which("makensis") is None, reason="NSIS (makensis) not installed")
def test_nsis_script_compiles(tmp_path):
    bundle = tmp_path / "bundle"
    (bundle / "_internal").mkdir(parents=True)
    for name in (f"{APP_ID}.exe", f"{APP_ID}-cli.exe", "_internal/python313.dll"):
        (bundle / name).write_bytes(b"MZ stand-in")
    out = tmp_path / "setup.exe"
    done = subprocess.run(["makensis", "-V2", f"-DBUNDLE={bundle}", f"-DOUTFILE={out}", str(NSI)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert out.read_bytes()[:2] == b"MZ"


def test_nvml_names_are_recognised():
    for name in ("libnvidia-ml.so", "libnvidia-ml.so.1", "libnvidia-ml.so.560.35.03", "nvml.dll", "NVML.DLL",
                 "_internal/libnvidia-ml.so.1", "_internal\\nvml.dll"):
        assert bundle_rules.is_nvml(name), name
        assert not bundle_rules.keep_in_bundle(name), name
    for name in ("libnvidia-mlx.so", "pynvml.py", "libQt6Core.so.6", "nvml.py"):
        assert not bundle_rules.is_nvml(name), name


def test_bundle_rules_keep_what_the_app_needs():
    keep = bundle_rules.keep_in_bundle
    assert keep("PySide6/Qt/plugins/platforms/libqxcb.so")
    assert keep("PySide6/Qt/plugins/platforms/libqoffscreen.so")
    assert keep("PySide6/Qt/plugins/imageformats/libqsvg.so")
    assert keep("PySide6/Qt/plugins/iconengines/qsvgicon.dll")
    assert keep("PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so")
    assert not keep("PySide6/Qt/plugins/platformthemes/libqgtk3.so")
    assert not keep("PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so")
    assert not keep("PySide6\\Qt\\plugins\\imageformats\\qpdf.dll")
    assert keep("PySide6/Qt/translations/qtbase_zh_CN.qm")
    assert not keep("PySide6/Qt/translations/qtbase_de.qm")
    assert not keep("PySide6\\translations\\qtbase_de.qm")  # Windows wheel layout
    assert keep("PySide6\\translations\\qtbase_zh_CN.qm")
    assert keep("PySide6\\plugins\\platforms\\qwindows.dll")
    assert keep("resources/translations/shell_zh_CN.qm")


def test_bundle_check_finds_an_nvml_copy_and_missing_plugins(tmp_path):
    bundle = tmp_path / "gpu-assistant"
    internal = bundle / "_internal"
    for rel in bundle_rules.REQUIRED_LINUX:
        (internal / rel).parent.mkdir(parents=True, exist_ok=True)
        (internal / rel).write_bytes(b"x")
    (internal / "resources" / "translations").mkdir(parents=True, exist_ok=True)
    (internal / "resources" / "translations" / "shell_zh_CN.ts").write_text("<TS/>")
    (internal / "resources" / "translations" / "shell_zh_CN.qm").write_bytes(b"x")
    exe = bundle / APP_ID
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    assert build_linux.check_bundle(bundle) == []

    (internal / "libnvidia-ml.so.1").write_bytes(b"driver")
    (internal / "PySide6/Qt/plugins/platforms/libqxcb.so").unlink()
    problems = build_linux.check_bundle(bundle)
    assert any("NVML" in p and "libnvidia-ml.so.1" in p for p in problems)
    assert "missing PySide6/Qt/plugins/platforms/libqxcb.so" in problems
    assert build_linux.main(["--check-only", str(bundle)]) == 1
    assert build_linux.main(["--check-only", str(tmp_path / "nope")]) == 2


def test_build_dependencies_are_pinned_and_apart():
    build = (ROOT / "requirements-build.txt").read_text().splitlines()
    assert "-r requirements.txt" in build
    assert any(re.fullmatch(r"pyinstaller==[\d.]+", line) for line in build)
    runtime = (ROOT / "requirements.txt").read_text().lower()
    assert "pyinstaller" not in runtime


def test_spec_is_valid_python_and_names_what_it_must():
    text = (ROOT / "installer" / "gpu_assistant.spec").read_text(encoding="utf-8")
    compile(text, "gpu_assistant.spec", "exec")
    assert "keep_in_bundle" in text  # the last filter over every collected file (NVML, plugins, translations)
    assert 'collect_submodules("services")' in text and 'collect_submodules("gui")' in text
    assert '"tkinter"' in text


def test_required_glibc_is_the_newest_version_any_elf_asks_for(tmp_path):
    bundle = tmp_path / "b"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "gpu-assistant").write_bytes(b"\x7fELF" + b"\0GLIBC_2.17\0GLIBC_2.34\0")
    (bundle / "_internal" / "libx.so").write_bytes(b"\x7fELF" + b"\0GLIBC_2.9\0GLIBC_2.36\0")
    (bundle / "_internal" / "notes.txt").write_bytes(b"GLIBC_2.99 is not an ELF file")
    assert build_linux.required_glibc(bundle) == (2, 36)
    assert build_linux.required_glibc(tmp_path / "empty") is None


@pytest.mark.skipif(sys.platform != "win32", reason="PyInstaller's version-resource module imports win32api")
def test_windows_version_resource_carries_the_app_version():
    pytest.importorskip("PyInstaller")  # a build-time dependency (requirements-build.txt)
    info = bundle_rules.windows_version_info(APP_NAME, APP_ID, __version__)
    text = str(info)
    assert f"StringStruct('FileVersion', '{__version__}')" in text
    assert f"StringStruct('OriginalFilename', '{APP_ID}.exe')" in text
    assert info.toRaw()  # serialises to the binary resource PyInstaller writes into the .exe


def test_exporter_unit_starts_what_install_sh_installs():
    """The systemd user unit must point at the launcher install.sh creates."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    unit = (root / "installer" / "linux" / "gpu-assistant-exporter.service").read_text(encoding="utf-8")
    install = (root / "installer" / "linux" / "install.sh").read_text(encoding="utf-8")
    exec_start = re.search(r"^ExecStart=(\S+) exporter\b", unit, re.M)
    assert exec_start, "ExecStart must run the exporter command"
    assert exec_start.group(1) == "%h/.local/bin/gpu-assistant"
    assert 'BIN_DIR="$HOME/.local/bin"' in install and 'APP_ID="gpu-assistant"' in install
    assert "RestartPreventExitStatus=3" in unit  # no driver: retrying cannot help


def test_exporter_unit_passes_systemd_verify(tmp_path):
    import shutil
    import subprocess
    from pathlib import Path

    import pytest

    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    root = Path(__file__).resolve().parents[2]
    unit = (root / "installer" / "linux" / "gpu-assistant-exporter.service").read_text(encoding="utf-8")
    # verify needs the program to exist: point it at a stand-in with the same shape
    fake = tmp_path / "gpu-assistant"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    fake.chmod(0o755)
    copy = tmp_path / "gpu-assistant-exporter.service"
    copy.write_text(unit.replace("%h/.local/bin/gpu-assistant", str(fake)), encoding="utf-8")
    result = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True)
    problems = [ln for ln in result.stderr.splitlines() if "gpu-assistant-exporter.service" in ln]
    assert not problems, result.stderr


@pytest.mark.linux_only("the Linux bundle is built on Linux: install.sh keeps its POSIX execute bit, which Windows files do not have")
def test_tarball_holds_the_bundle_and_the_desktop_integration(tmp_path):
    import tarfile

    bundle = tmp_path / "dist" / APP_ID
    (bundle / "_internal").mkdir(parents=True)
    (bundle / APP_ID).write_text("#!/bin/sh\n")
    (bundle / "_internal" / "libx.so").write_bytes(b"x")
    archive = build_linux.make_tarball(bundle, tmp_path / "dist")
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
        modes = {m.name: m.mode for m in tar.getmembers()}
    top = archive.name[: -len(".tar.gz")]
    for rel in (APP_ID, "_internal/libx.so", "install.sh", "uninstall.sh",
                f"share/applications/{DESKTOP_ID}.desktop", f"share/metainfo/{DESKTOP_ID}.metainfo.xml",
                "share/systemd/user/gpu-assistant-exporter.service"):
        assert f"{top}/{rel}" in names, rel
    assert modes[f"{top}/install.sh"] & 0o111
    assert not (tmp_path / "dist" / top).exists()  # the staging folder is cleaned up


def test_windows_bundle_check_refuses_nvml_and_icuuc(tmp_path):
    sys.path.insert(0, str(ROOT / "installer"))
    from build_windows import REQUIRED_WINDOWS, check_bundle

    bundle = tmp_path / "gpu-assistant"
    for rel in [f"{APP_ID}.exe", f"{APP_ID}-cli.exe", *(f"_internal/{r}" for r in REQUIRED_WINDOWS),
                "_internal/resources/translations/setup_zh_CN.ts", "_internal/resources/translations/setup_zh_CN.qm"]:
        (bundle / rel).parent.mkdir(parents=True, exist_ok=True)
        (bundle / rel).write_bytes(b"x")
    assert check_bundle(bundle) == []
    (bundle / "_internal" / "icuuc.dll").write_bytes(b"x")
    (bundle / "_internal" / "NVML.dll").write_bytes(b"x")
    (bundle / f"{APP_ID}-cli.exe").unlink()
    problems = check_bundle(bundle)
    assert any("icuuc.dll must not be bundled" in p for p in problems)
    assert any("NVML library must not be bundled" in p for p in problems)
    assert f"no {APP_ID}-cli.exe" in problems
