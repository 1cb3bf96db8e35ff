"""Build the Windows bundle with PyInstaller and check it; run it with the Windows Python.

    py -m pip install -r requirements-build.txt
    py installer\\build_windows.py                       # build into dist\\windows\\gpu-assistant, check
    py installer\\build_windows.py --check-only dist\\windows\\gpu-assistant

On Linux the Windows lane runs it under Wine (../shared/tools/winpy/run.sh build/winpy
installer/build_windows.py); then makensis turns the folder into the installer
(installer/windows/gpu_assistant.nsi), which the lane installs, self-tests and uninstalls.

Checks: both executables (windowed gpu-assistant.exe, console gpu-assistant-cli.exe), the Qt
plugins and translations the app needs, resources; never the NVIDIA driver's nvml.dll (it must
match the installed driver), never an icuuc.dll (Windows 10+ has its own in System32; a copy from
a build machine would shadow it). Exit 0 when the bundle is complete, 1 when a check failed, 2 for
bad usage (PyInstaller missing, not Windows).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "installer"))

from bundle_rules import is_nvml  # noqa: E402
from services.version import APP_ID  # noqa: E402

SPEC = ROOT / "installer" / "gpu_assistant.spec"
DIST = ROOT / "dist" / "windows"
WORK = ROOT / "build" / "pyinstaller-windows"

# Relative to the bundle's _internal\ folder (the Windows PySide6 wheel's layout).
REQUIRED_WINDOWS = (
    "PySide6/plugins/platforms/qwindows.dll",
    "PySide6/plugins/platforms/qoffscreen.dll",
    "PySide6/plugins/imageformats/qsvg.dll",
    "PySide6/plugins/imageformats/qico.dll",
    "PySide6/plugins/iconengines/qsvgicon.dll",
    "PySide6/translations/qtbase_zh_CN.qm",
    "resources/icons/gpu-assistant.ico",
    "resources/icons/gpu-assistant.svg",
)
NEVER_BUNDLED = ("icuuc.dll",)


def check_bundle(bundle: Path) -> list[str]:
    problems = []
    for exe in (f"{APP_ID}.exe", f"{APP_ID}-cli.exe"):
        if not (bundle / exe).is_file():
            problems.append(f"no {exe}")
    internal = bundle / "_internal"
    problems += [f"missing {rel}" for rel in REQUIRED_WINDOWS if not (internal / rel).is_file()]
    ts_files = sorted((internal / "resources" / "translations").glob("*.ts"))
    if not ts_files:
        problems.append("no translations in resources/translations")
    problems += [f"{ts.name} has no compiled .qm" for ts in ts_files if not ts.with_suffix(".qm").is_file()]
    for path in bundle.rglob("*"):
        if is_nvml(path.name):
            problems.append(f"NVIDIA's NVML library must not be bundled: {path.relative_to(bundle)}")
        if path.name.lower() in NEVER_BUNDLED:
            problems.append(f"{path.name} must not be bundled (Windows has its own): {path.relative_to(bundle)}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build and check the Windows bundle (run with the Windows Python).")
    parser.add_argument("--check-only", metavar="BUNDLE", help="check an existing bundle folder, build nothing")
    args = parser.parse_args(argv)
    if args.check_only:
        bundle = Path(args.check_only)
    else:
        if sys.platform != "win32":
            print("error: build the Windows bundle with the Windows Python (under Wine: ../shared/tools/winpy/run.sh)",
                  file=sys.stderr)
            return 2
        try:
            import PyInstaller  # noqa: F401
        except ImportError:
            print("error: PyInstaller is not installed: pip install -r requirements-build.txt", file=sys.stderr)
            return 2
        command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
                   "--distpath", str(DIST), "--workpath", str(WORK), str(SPEC)]
        print("+ " + subprocess.list2cmdline(command), flush=True)
        done = subprocess.run(command, cwd=ROOT)
        if done.returncode != 0:
            print(f"error: PyInstaller failed ({done.returncode})", file=sys.stderr)
            return 1
        bundle = DIST / APP_ID
    problems = check_bundle(bundle)
    size = sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file())
    for problem in problems:
        print(f"FAIL  {problem}", file=sys.stderr)
    print(f"{'bundle FAILED' if problems else 'bundle OK'}: {bundle} ({size / 2**20:.1f} MiB)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
