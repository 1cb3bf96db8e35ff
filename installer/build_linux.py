"""Build the Linux bundle and its tarball, and prove they work.

    python -m venv build/venv && build/venv/bin/pip install -r requirements-build.txt
    build/venv/bin/python installer/build_linux.py            # build, check, self-test, tarball
    build/venv/bin/python installer/build_linux.py --check-only dist/gpu-assistant

Steps: PyInstaller with installer/gpu_assistant.spec into dist/gpu-assistant/; check the bundle
(no NVIDIA NVML library inside, the Qt plugins and resources the app needs are there); run
``gpu-assistant --self-test`` offscreen; pack dist/gpu-assistant-<version>-linux-<arch>.tar.gz with
the menu entry, AppStream data and install/uninstall scripts. Exit 0 when everything passed, 1 when
a check failed, 2 for bad usage (for example PyInstaller missing from this Python).

Everything it writes is under build/ and dist/ (both ignored by git and outside tests/).
"""
from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "installer"))

from bundle_rules import REQUIRED_LINUX, is_nvml  # noqa: E402
from services.version import APP_ID, DESKTOP_ID, __version__  # noqa: E402

SPEC = ROOT / "installer" / "gpu_assistant.spec"
LINUX = ROOT / "installer" / "linux"
SELF_TEST_TIMEOUT_S = 240


def nvml_copies(bundle: Path) -> list[Path]:
    """Every file in ``bundle`` named like the driver's NVML library."""
    return sorted(p for p in bundle.rglob("*") if is_nvml(p.name))


def check_bundle(bundle: Path) -> list[str]:
    """Problems with a built bundle; empty when it is complete."""
    problems = []
    exe = bundle / APP_ID
    if not exe.is_file() or not os.access(exe, os.X_OK):
        problems.append(f"no executable {exe.name}")
    internal = bundle / "_internal"
    for rel in REQUIRED_LINUX:
        if not (internal / rel).is_file():
            problems.append(f"missing {rel}")
    ts_files = sorted((internal / "resources" / "translations").glob("*.ts"))
    if not ts_files:
        problems.append("no translations in resources/translations")
    problems += [f"{ts.name} has no compiled .qm" for ts in ts_files if not ts.with_suffix(".qm").is_file()]
    problems += [f"NVIDIA's NVML library must not be bundled: {p.relative_to(bundle)}" for p in nvml_copies(bundle)]
    return problems


GLIBC_VERSION = re.compile(rb"GLIBC_(\d+)\.(\d+)")


def required_glibc(bundle: Path) -> tuple[int, int] | None:
    """The newest glibc symbol version any ELF file in the bundle asks for.

    The bundle runs only where the system's glibc is at least this new (glibc itself is never
    bundled), so it is printed with every build. The version names sit in each file's dynamic
    string table; reading them as bytes needs no binutils.
    """
    newest: tuple[int, int] | None = None
    for path in bundle.rglob("*"):
        if not path.is_file() or path.is_symlink():
            continue
        with path.open("rb") as handle:
            if handle.read(4) != b"\x7fELF":
                continue
            data = handle.read()
        for major, minor in GLIBC_VERSION.findall(data):
            version = (int(major), int(minor))
            if newest is None or version > newest:
                newest = version
    return newest


def du_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def run_pyinstaller(dist: Path, work: Path) -> None:
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
               "--distpath", str(dist), "--workpath", str(work), str(SPEC)]
    print("+ " + " ".join(command), flush=True)
    subprocess.run(command, cwd=ROOT, check=True)


def run_self_test(bundle: Path) -> bool:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    command = [str(bundle / APP_ID), "--self-test"]
    print("+ QT_QPA_PLATFORM=offscreen " + " ".join(command), flush=True)
    try:
        result = subprocess.run(command, env=env, timeout=SELF_TEST_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        print(f"the bundle's self-test did not finish in {SELF_TEST_TIMEOUT_S} s", file=sys.stderr)
        return False
    return result.returncode == 0


def make_tarball(bundle: Path, dist: Path) -> Path:
    """dist/gpu-assistant-<version>-linux-<arch>.tar.gz: the bundle plus desktop integration."""
    name = f"{APP_ID}-{__version__}-linux-{platform.machine()}"
    stage = dist / name
    if stage.exists():
        shutil.rmtree(stage)
    shutil.copytree(bundle, stage, symlinks=True)
    (stage / "share" / "applications").mkdir(parents=True)
    (stage / "share" / "metainfo").mkdir(parents=True)
    shutil.copy2(LINUX / f"{DESKTOP_ID}.desktop", stage / "share" / "applications")
    shutil.copy2(LINUX / f"{DESKTOP_ID}.metainfo.xml", stage / "share" / "metainfo")
    exporter_unit = LINUX / "gpu-assistant-exporter.service"
    if exporter_unit.is_file():  # opt-in: the README's exporter section says how to enable it
        (stage / "share" / "systemd" / "user").mkdir(parents=True)
        shutil.copy2(exporter_unit, stage / "share" / "systemd" / "user")
    for script in ("install.sh", "uninstall.sh"):
        shutil.copy2(LINUX / script, stage / script)
        (stage / script).chmod(0o755)
    archive = dist / f"{name}.tar.gz"
    with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
        tar.add(stage, arcname=name)
    shutil.rmtree(stage)
    return archive


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build and check the Linux bundle of GPU Assistant.")
    parser.add_argument("--dist", default=str(ROOT / "dist"), help="output folder (default: dist/)")
    parser.add_argument("--work", default=str(ROOT / "build" / "pyinstaller"), help="PyInstaller's work folder")
    parser.add_argument("--no-tarball", action="store_true", help="skip the .tar.gz")
    parser.add_argument("--no-self-test", action="store_true", help="skip running the bundle's --self-test")
    parser.add_argument("--check-only", metavar="BUNDLE", help="only check an existing bundle folder")
    args = parser.parse_args(argv)

    if args.check_only:
        bundle = Path(args.check_only)
        if not bundle.is_dir():
            print(f"error: {bundle} is not a folder", file=sys.stderr)
            return 2
        problems = check_bundle(bundle)
        for problem in problems:
            print(f"FAIL  {problem}")
        print("bundle check: " + ("FAILED" if problems else f"OK ({mib(du_bytes(bundle))}, no NVML library)"))
        return 1 if problems else 0

    if not sys.platform.startswith("linux"):
        print("error: this script builds the Linux bundle; on Windows see installer/windows/README.md", file=sys.stderr)
        return 2
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        print("error: PyInstaller is not installed in this Python; run: pip install -r requirements-build.txt",
              file=sys.stderr)
        return 2

    dist, work = Path(args.dist).resolve(), Path(args.work).resolve()
    started = time.perf_counter()
    try:
        run_pyinstaller(dist, work)
    except subprocess.CalledProcessError as exc:
        print(f"error: PyInstaller failed (exit code {exc.returncode})", file=sys.stderr)
        return 1
    bundle = dist / APP_ID
    build_s = time.perf_counter() - started

    problems = check_bundle(bundle)
    for problem in problems:
        print(f"FAIL  {problem}")
    if problems:
        return 1
    print(f"bundle check: OK, {bundle} is {mib(du_bytes(bundle))}, no NVML library (built in {build_s:.0f} s)")
    glibc = required_glibc(bundle)
    if glibc:
        print(f"needs glibc {glibc[0]}.{glibc[1]} or newer on the user's system (that of the build machine)")

    if not args.no_self_test and not run_self_test(bundle):
        print("error: the bundle's self-test failed", file=sys.stderr)
        return 1
    if not args.no_tarball:
        archive = make_tarball(bundle, dist)
        print(f"tarball: {archive} ({mib(archive.stat().st_size)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
