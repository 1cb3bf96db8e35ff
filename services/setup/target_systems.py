"""Planning for another machine: the systems the wizard knows without sitting at them (Windows and
the os-release files it ships), and their paths, which are the target's, never this host's."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path, PurePath, PurePosixPath

from services.setup.os_release import OsInfo
from services.setup.plan import Plan
from services.setup.planner import inputs_for, plan_for_os
from services.setup.rules import Rules
from services.setup.system import SystemRoot

OS_RELEASE_DIR = "os-release"


@dataclasses.dataclass(frozen=True, slots=True)
class TargetSystem:
    """A system the wizard can plan for without sitting at it (Windows or a known os-release)."""

    key: str  # 'windows' or the os-release file's name
    label: str
    os: OsInfo


def known_systems() -> list[TargetSystem]:
    """Windows and every distribution whose os-release file ships in resources/data/os-release."""
    from services.paths import resource_path
    from services.setup.os_release import parse_os_release

    out = [TargetSystem("windows", "Windows 10 / 11", OsInfo(system="windows", id="windows", pretty_name="Windows"))]
    folder = resource_path("data", OS_RELEASE_DIR)
    try:
        files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.endswith(".md"))
    except OSError:
        files = []
    for path in files:
        try:
            info = parse_os_release(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if info.id:
            out.append(TargetSystem(path.name, info.pretty_name or path.name, info))
    return out


# Where a plan for another Linux machine stages its files and puts the PyTorch venv: the app's own
# folders on that machine (platformdirs' Linux user_data_dir, and default_venv_dir()), from the
# target user's home: this host's folders (C:\Users\... on Windows, or another user's home) mean
# nothing there.
LINUX_TARGET_STAGING = PurePosixPath("~/.local/share/gpu-assistant/setup/staged")
LINUX_TARGET_VENV = "~/.venvs/torch"


def target_paths(os_info: OsInfo | None, staging_dir: PurePath) -> tuple[SystemRoot, PurePath, str | None]:
    """The root, staging folder and venv folder (None: the default) of a plan for another machine.

    A Linux target gets its own POSIX paths (/etc/modprobe.d/..., never \\etc\\... when made on
    Windows) and its own staging and venv folders, never this host's.
    """
    if os_info is not None and os_info.system == "windows":
        return SystemRoot(), staging_dir, None
    # Only str()'d into commands (probe_files is off for another machine), so a pure path will do.
    root = SystemRoot(PurePosixPath("/")) if os.name == "nt" else SystemRoot()  # type: ignore[arg-type]
    return root, LINUX_TARGET_STAGING, LINUX_TARGET_VENV


def plan_for_target(rules: Rules, target: TargetSystem, device_id: str, name: str, staging_dir: Path,
                    root: SystemRoot | None = None, windows_options=None) -> Plan:
    """The full plan for another machine, as 'setup --plan --os-release F --gpu ID' makes it
    (nothing of this machine is read; its paths are the target's)."""
    target_root, staging, venv_dir = target_paths(target.os, staging_dir)
    inputs = inputs_for(rules, root or target_root, staging, device_id, name=name, probe_files=False,
                        venv_dir=venv_dir)
    return plan_for_os(target.os, inputs, rules, windows_options)
