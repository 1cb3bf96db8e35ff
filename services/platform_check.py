"""Checks made before Qt starts, so the user gets a fix instead of Qt's abort.

On Linux, Qt's xcb platform plugin aborts the process when one of its shared
libraries is missing (since Qt 6.5 most often ``libxcb-cursor.so.0``). We run
``ldd`` on the plugin first and, if anything is missing, print the install line
for the user's distribution.
"""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

# soname -> package name per package manager
_PACKAGES: dict[str, dict[str, str]] = {
    "libxcb-cursor.so.0": {"apt": "libxcb-cursor0", "dnf": "xcb-util-cursor", "pacman": "xcb-util-cursor", "zypper": "libxcb-cursor0"},
    "libxkbcommon-x11.so.0": {"apt": "libxkbcommon-x11-0", "dnf": "libxkbcommon-x11", "pacman": "libxkbcommon-x11", "zypper": "libxkbcommon-x11-0"},
    "libxcb-icccm.so.4": {"apt": "libxcb-icccm4", "dnf": "xcb-util-wm", "pacman": "xcb-util-wm", "zypper": "libxcb-icccm4"},
    "libxcb-keysyms.so.1": {"apt": "libxcb-keysyms1", "dnf": "xcb-util-keysyms", "pacman": "xcb-util-keysyms", "zypper": "libxcb-keysyms1"},
    "libxcb-image.so.0": {"apt": "libxcb-image0", "dnf": "xcb-util-image", "pacman": "xcb-util-image", "zypper": "libxcb-image0"},
    "libxcb-render-util.so.0": {"apt": "libxcb-render-util0", "dnf": "xcb-util-renderutil", "pacman": "xcb-util-renderutil", "zypper": "libxcb-render-util0"},
    "libxcb-shape.so.0": {"apt": "libxcb-shape0", "dnf": "libxcb", "pacman": "libxcb", "zypper": "libxcb-shape0"},
    "libxcb-xkb.so.1": {"apt": "libxcb-xkb1", "dnf": "libxcb", "pacman": "libxcb", "zypper": "libxcb-xkb1"},
    "libEGL.so.1": {"apt": "libegl1", "dnf": "libglvnd-egl", "pacman": "libglvnd", "zypper": "libEGL1"},
    "libGL.so.1": {"apt": "libgl1", "dnf": "libglvnd-glx", "pacman": "libglvnd", "zypper": "libGL1"},
    "libfontconfig.so.1": {"apt": "libfontconfig1", "dnf": "fontconfig", "pacman": "fontconfig", "zypper": "libfontconfig1"},
    "libdbus-1.so.3": {"apt": "libdbus-1-3", "dnf": "dbus-libs", "pacman": "dbus", "zypper": "libdbus-1-3"},
}
_INSTALL = {
    "apt": ["sudo", "apt", "install"],
    "dnf": ["sudo", "dnf", "install"],
    "pacman": ["sudo", "pacman", "-S", "--needed"],
    "zypper": ["sudo", "zypper", "install"],
}


def package_manager(os_release: str) -> str:
    """Pick the package manager from the text of /etc/os-release."""
    fields = dict(re.findall(r'^([A-Z_]+)="?([^"\n]*)"?', os_release, re.M))
    ids = " ".join([fields.get("ID", ""), fields.get("ID_LIKE", "")]).lower().split()
    for family, manager in (
        ("debian", "apt"), ("ubuntu", "apt"), ("fedora", "dnf"), ("rhel", "dnf"), ("centos", "dnf"),
        ("arch", "pacman"), ("suse", "zypper"), ("opensuse", "zypper"),
    ):
        if family in ids or any(i.startswith(family) for i in ids):
            return manager
    return "apt"


def missing_libraries(ldd_output: str) -> list[str]:
    return sorted({m for m in re.findall(r"^\s*(\S+) => not found", ldd_output, re.M)})


def install_command(missing: list[str], manager: str) -> list[str]:
    packages: list[str] = []
    for soname in missing:
        pkg = _PACKAGES.get(soname, {}).get(manager)
        if pkg and pkg not in packages:
            packages.append(pkg)
    return _INSTALL[manager] + packages if packages else []


def _xcb_plugin() -> Path | None:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(list(spec.submodule_search_locations)[0])
    for candidate in (base / "Qt" / "plugins" / "platforms" / "libqxcb.so", base / "plugins" / "platforms" / "libqxcb.so"):
        if candidate.exists():
            return candidate
    return None


def gui_start_problem(offscreen: bool = False) -> str | None:
    """A message saying why the GUI cannot start here, or None if it can."""
    if importlib.util.find_spec("PySide6") is None:
        return "PySide6 is not installed: run the setup command from README.md first."
    if offscreen or not sys.platform.startswith("linux"):
        return None
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform and not platform.startswith("xcb"):
        return None
    if not os.environ.get("DISPLAY"):
        if os.environ.get("WAYLAND_DISPLAY"):
            return None
        return ("No display found (DISPLAY is not set). Run the app in a desktop session, "
                "or use the headless commands: python main.py --help")
    plugin = _xcb_plugin()
    if plugin is None:
        return None
    try:
        ldd = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, timeout=10).stdout
        qpa = plugin.parent.parent.parent / "lib" / "libQt6XcbQpa.so.6"
        if qpa.exists():
            ldd += subprocess.run(["ldd", str(qpa)], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    missing = missing_libraries(ldd)
    if not missing:
        return None
    try:
        os_release = Path("/etc/os-release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        os_release = ""
    command = install_command(missing, package_manager(os_release))
    lines = [f"Qt cannot open a window: missing system libraries: {', '.join(missing)}."]
    if command:
        lines.append("Install them with:")
        lines.append("    " + " ".join(command))
    return "\n".join(lines)
