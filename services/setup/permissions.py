"""May this user open the GPU's device files? (Linux)

NVML and CUDA open /dev/nvidiactl and /dev/nvidiaN; when they may not, NVML says
"Insufficient Permissions" and the dashboard shows "No permission". The NVIDIA module
creates the files with the mode, owner and group of its NVreg_DeviceFileMode/UID/GID
options (nv-reg.h in NVIDIA/open-gpu-kernel-modules; the defaults are 0666, root, root),
which /proc/driver/nvidia/params shows. Some distributions restrict them to a group
(openSUSE's modprobe.nvidia.install loads the module with NVreg_DeviceFileGID=<video's gid>
and NVreg_DeviceFileMode=0660), so a user outside that group cannot use the GPU.
"""
from __future__ import annotations

import getpass
import os
import re
import stat
from dataclasses import dataclass

from services.setup.system import SystemRoot

NODE_NAMES = re.compile(r"^nvidia(ctl|\d+|-uvm)$")


@dataclass(frozen=True, slots=True)
class DeviceNode:
    path: str  # '/dev/nvidia0'
    mode: int  # permission bits, 0o660
    gid: int
    group: str  # name of gid, or the number as text
    usable: bool  # this user may read and write it


@dataclass(frozen=True, slots=True)
class DevicePermissions:
    user: str
    nodes: tuple[DeviceNode, ...] = ()
    params: tuple[tuple[str, str], ...] = ()  # DeviceFileUID/GID/Mode from /proc/driver/nvidia/params

    @property
    def blocked(self) -> tuple[DeviceNode, ...]:
        return tuple(n for n in self.nodes if not n.usable)


def parse_group_names(text: str) -> dict[int, str]:
    """gid -> name from /etc/group lines ('video:x:44:alice')."""
    out: dict[int, str] = {}
    for line in (text or "").splitlines():
        parts = line.split(":")
        if len(parts) >= 3 and parts[2].isdigit():
            out.setdefault(int(parts[2]), parts[0])
    return out


def parse_params(text: str) -> tuple[tuple[str, str], ...]:
    keep = ("DeviceFileUID", "DeviceFileGID", "DeviceFileMode")
    out = []
    for line in (text or "").splitlines():
        key, _, value = line.partition(":")
        if key.strip() in keep:
            out.append((key.strip(), value.strip()))
    return tuple(out)


def read_device_permissions(root: SystemRoot, user: str | None = None) -> DevicePermissions:
    try:
        user = user or getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container)
        user = str(os.getuid()) if hasattr(os, "getuid") else ""
    groups = parse_group_names(root.read_text("/etc/group") or "")
    nodes = []
    try:
        names = sorted(n for n in os.listdir(root("/dev")) if NODE_NAMES.match(n))
    except OSError:
        names = []
    for name in names:
        path = root("/dev") / name
        try:
            st = os.stat(path)
        except OSError:
            continue
        nodes.append(DeviceNode(f"/dev/{name}", stat.S_IMODE(st.st_mode), st.st_gid,
                                groups.get(st.st_gid, str(st.st_gid)), os.access(path, os.R_OK | os.W_OK)))
    return DevicePermissions(user, tuple(nodes), parse_params(root.read_text("/proc/driver/nvidia/params") or ""))
