from __future__ import annotations

from services.platform_check import install_command, missing_libraries, package_manager

LDD = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibxcb-cursor.so.0 => not found
\tlibxkbcommon-x11.so.0 => not found
\tlibQt6Gui.so.6 => /x/libQt6Gui.so.6 (0x00007f)
"""


def test_missing_libraries_from_ldd():
    assert missing_libraries(LDD) == ["libxcb-cursor.so.0", "libxkbcommon-x11.so.0"]


def test_install_line_per_distro():
    missing = ["libxcb-cursor.so.0"]
    assert install_command(missing, package_manager('ID=ubuntu\nID_LIKE=debian\n')) == \
        ["sudo", "apt", "install", "libxcb-cursor0"]
    assert install_command(missing, package_manager('ID=fedora\n')) == ["sudo", "dnf", "install", "xcb-util-cursor"]
    assert install_command(missing, package_manager('ID=arch\n'))[-1] == "xcb-util-cursor"
    assert package_manager('ID="opensuse-tumbleweed"\nID_LIKE="opensuse suse"\n') == "zypper"
    assert package_manager('ID=linuxmint\nID_LIKE="ubuntu debian"\n') == "apt"
