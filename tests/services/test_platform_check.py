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


def test_gui_start_problem_names_the_install_line(monkeypatch, tmp_path):
    import subprocess
    import sys

    import services.platform_check as pc

    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setattr(pc, "_xcb_plugin", lambda: plugin)
    monkeypatch.setattr(pc.subprocess, "run",
                        lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout=LDD, stderr=""))
    message = pc.gui_start_problem()
    assert message is not None
    assert "libxcb-cursor.so.0" in message
    assert "install" in message  # the distro's exact line follows
    monkeypatch.setattr(pc.subprocess, "run",
                        lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout="libc.so.6 => /lib/libc.so.6", stderr=""))
    assert pc.gui_start_problem() is None


def test_no_display_is_explained(monkeypatch):
    import sys

    import services.platform_check as pc

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    assert "No display" in pc.gui_start_problem()
    assert pc.gui_start_problem(offscreen=True) is None
