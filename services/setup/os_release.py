"""The operating system this machine runs: /etc/os-release (kept within bounds) as ``OsInfo``."""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from services.setup.system import SystemRoot


@dataclass(frozen=True, slots=True)
class OsInfo:
    system: str  # 'linux' | 'windows' | other platform name
    id: str = ""
    id_like: tuple[str, ...] = ()
    version_id: str = ""
    codename: str = ""
    pretty_name: str = ""
    kernel: str = ""
    base_codename: str = ""  # UBUNTU_CODENAME on Ubuntu derivatives (Mint 22 -> noble)

    @property
    def family(self) -> str:
        """ubuntu | debian | fedora | rhel | suse | arch | windows | unsupported.

        From ID and the ID_LIKE chain (os-release(5)): Rocky/Alma say 'rhel centos
        fedora', Oracle Linux and Amazon Linux 2023 only 'fedora', Mageia 'mandriva
        fedora' -- so Red Hat rebuilds are matched by name before the fedora test."""
        if self.system == "windows":
            return "windows"
        ids = (self.id, *self.id_like)
        if "ubuntu" in ids:  # Ubuntu, Mint, Pop!_OS (ID_LIKE carries ubuntu)
            return "ubuntu"
        if "debian" in ids:
            return "debian"
        if self.id in RHEL_IDS or "rhel" in self.id_like or "centos" in self.id_like:
            return "rhel"
        if "mandriva" in ids or self.id in ("mageia", "openmandriva"):
            return "unsupported"  # RPM-based but not Fedora's repositories
        if self.id == "fedora" or "fedora" in self.id_like:
            return "fedora"
        if "suse" in ids or self.id.startswith(("opensuse", "sles", "sle")):
            return "suse"
        if "arch" in ids:
            return "arch"
        return "unsupported"

    @property
    def initramfs_tool(self) -> str | None:
        """dracut | update-initramfs | mkinitcpio, when the family says which."""
        ids = (self.id, *self.id_like)
        if self.family in ("ubuntu", "debian"):
            return "update-initramfs"
        if self.family in ("fedora", "rhel", "suse") or any(i in ids for i in ("mageia", "mandriva", "openmandriva", "void")):
            return "dracut"
        if self.family == "arch":
            return "mkinitcpio"
        return None


# Red Hat Enterprise Linux and its rebuilds, by os-release ID (their ID_LIKE may say only 'fedora').
RHEL_IDS = ("rhel", "centos", "rocky", "almalinux", "ol", "amzn", "cloudlinux", "eurolinux", "navy", "circle",
            "virtuozzo", "scientific")


# os-release(5) values are short (a name, a URL); a line longer than this is not one, and shlex
# takes quadratic time on it (a 5 MB line took 45 s). Such lines are skipped by the parser; a file
# the user names (setup --os-release) is refused with the line's number (cli.setup.read_os_release, with os_release_long_line).
OS_RELEASE_MAX_LINE = 4096
# A real os-release is well under a kilobyte; a file the user names is read up to this much.
OS_RELEASE_MAX_BYTES = 64 * 1024


def os_release_long_line(text: str) -> int | None:
    """The number (from 1) of the first line of ``text`` the parser would skip as too long, or None."""
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > OS_RELEASE_MAX_LINE:
            return number
    return None


def parse_os_release(text: str, kernel: str = "") -> OsInfo:
    values: dict[str, str] = {}
    for line in text.splitlines():
        if len(line) > OS_RELEASE_MAX_LINE:
            continue
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, raw = line.partition("=")
        try:
            parts = shlex.split(raw)
        except ValueError:
            parts = [raw.strip("\"'")]
        values[key.strip()] = parts[0] if parts else ""
    codename = values.get("VERSION_CODENAME") or values.get("UBUNTU_CODENAME", "")
    # Debian testing/unstable has no VERSION_ID; the codename is in VERSION or PRETTY_NAME.
    if not codename:
        m = re.search(r"\(([a-z]+)\)", values.get("VERSION", "") + values.get("PRETTY_NAME", ""))
        codename = m.group(1) if m else ""
    return OsInfo(
        system="linux",
        id=values.get("ID", "").lower(),
        id_like=tuple(values.get("ID_LIKE", "").lower().split()),
        version_id=values.get("VERSION_ID", ""),
        codename=codename.lower(),
        pretty_name=values.get("PRETTY_NAME", values.get("NAME", "Linux")),
        kernel=kernel,
        base_codename=(values.get("UBUNTU_CODENAME") or codename).lower(),
    )


def read_os(root: SystemRoot, kernel: str = "") -> OsInfo | None:
    for path in ("/etc/os-release", "/usr/lib/os-release"):
        text = root.read_text(path)
        if text is not None:
            return parse_os_release(text, kernel)
    return None
