"""What goes into the PyInstaller bundle and what never may: one list for the spec, the build
script and the tests."""
from __future__ import annotations

import re

# The NVIDIA driver's NVML library, under any name it has on Linux or Windows. It is never bundled:
# it must match the installed driver, and its absence is how the app knows there is no driver.
NVML_NAME = re.compile(r"^(libnvidia-ml\.so(\.\d+)*|nvml\.dll)$", re.IGNORECASE)

# Qt plugins the app never needs, by file stem without "lib" and suffix. Dropped before PyInstaller
# follows their libraries, which is where the size is: qtvirtualkeyboardplugin pulls in QtQuick and
# QtQml (about 20 MB), qpdf pulls in QtPdf, qgtk3 pulls in the whole GTK 3 stack (whose bundled copies
# also clash with the user's GTK). eglfs, linuxfb, vnc, evdev and tuio are for kiosk devices.
# Kept: platforms xcb, wayland, offscreen, minimal (Linux) and windows, offscreen (Windows);
# imageformats svg, ico, png, jpeg...; iconengines svg; the ibus and compose input contexts (typing
# Chinese); the xdg-desktop-portal theme (native file dialogs without GTK).
DROP_QT_PLUGINS = frozenset({
    "qtvirtualkeyboardplugin", "qpdf", "qgtk3", "qeglfs", "qlinuxfb", "qminimalegl", "qvnc", "qvkkhrdisplay",
    "qeglfs-emu-integration", "qeglfs-kms-egldevice-integration", "qeglfs-x11-integration",
    "qevdevkeyboardplugin", "qevdevmouseplugin", "qevdevtabletplugin", "qevdevtouchplugin", "qtuiotouchplugin",
})

# Qt's own translations kept: the app's languages only (qtbase_zh_CN puts Qt's dialogs in Chinese).
QT_TRANSLATIONS_KEPT = re.compile(r"^qt(base)?_(zh_CN|en)\.qm$")

# Files a Linux bundle cannot work without, relative to its _internal/ folder.
REQUIRED_LINUX = (
    "PySide6/Qt/plugins/platforms/libqxcb.so",
    "PySide6/Qt/plugins/platforms/libqwayland.so",
    "PySide6/Qt/plugins/platforms/libqoffscreen.so",
    "PySide6/Qt/plugins/imageformats/libqsvg.so",
    "PySide6/Qt/plugins/imageformats/libqico.so",
    "PySide6/Qt/plugins/iconengines/libqsvgicon.so",
    "PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so",
    "PySide6/Qt/translations/qtbase_zh_CN.qm",
    "resources/icons/gpu-assistant.svg",
    "resources/icons/hicolor/256x256/apps/gpu-assistant.png",
)


def plugin_stem(file_name: str) -> str:
    """``libqgtk3.so`` -> ``qgtk3``; ``qwindows.dll`` -> ``qwindows``."""
    stem = file_name.replace("\\", "/").rsplit("/", 1)[-1].split(".")[0]
    return stem[3:] if stem.startswith("lib") else stem


def is_nvml(file_name: str) -> bool:
    return bool(NVML_NAME.match(file_name.replace("\\", "/").rsplit("/", 1)[-1]))


def keep_in_bundle(dest: str) -> bool:
    """Whether a collected file (by its destination path in the bundle) stays in the bundle."""
    if is_nvml(dest):
        return False
    parts = dest.replace("\\", "/").split("/")
    # Qt's translations: PySide6/Qt/translations (Linux wheels) or PySide6/translations (Windows wheels).
    if len(parts) >= 3 and parts[-2] == "translations" and parts[-3] in ("Qt", "PySide6") and parts[-1].endswith(".qm"):
        return bool(QT_TRANSLATIONS_KEPT.match(parts[-1]))
    if len(parts) >= 3 and parts[-3] == "plugins":
        return plugin_stem(parts[-1]) not in DROP_QT_PLUGINS
    return True


def windows_version_info(app_name: str, app_id: str, version: str):
    """The .exe's version resource (Explorer > Properties > Details, and what support asks for).

    Imports PyInstaller, so only the spec (and a test with PyInstaller installed) call it.
    """
    from PyInstaller.utils.win32.versioninfo import (
        FixedFileInfo, StringFileInfo, StringStruct, StringTable, VarFileInfo, VarStruct, VSVersionInfo,
    )

    numbers = tuple(int(part) for part in (version.split(".") + ["0", "0", "0"])[:3]) + (0,)
    strings = [
        StringStruct("CompanyName", "The GPU Assistant developers"),
        StringStruct("FileDescription", app_name),
        StringStruct("FileVersion", version),
        StringStruct("InternalName", app_id),
        StringStruct("OriginalFilename", f"{app_id}.exe"),
        StringStruct("ProductName", app_name),
        StringStruct("ProductVersion", version),
    ]
    return VSVersionInfo(
        ffi=FixedFileInfo(filevers=numbers, prodvers=numbers),
        kids=[
            StringFileInfo([StringTable("040904B0", strings)]),  # US English, Unicode
            VarFileInfo([VarStruct("Translation", [0x0409, 1200])]),
        ],
    )
