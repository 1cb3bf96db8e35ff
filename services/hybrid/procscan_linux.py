"""Reads what each process has open and loaded, from /proc (Linux).

For every process: DRM clients (from the fdinfo of fds on /dev/dri), NVIDIA device
files held open, GPU driver libraries mapped (/proc/PID/maps) and offload variables
in its environment (/proc/PID/environ). Another user's process is reported as
unreadable rather than skipped silently.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from services.hybrid.fdinfo import DrmClient, parse_fdinfo

OFFLOAD_VARIABLES = (
    "__NV_PRIME_RENDER_OFFLOAD",
    "__NV_PRIME_RENDER_OFFLOAD_PROVIDER",
    "__GLX_VENDOR_LIBRARY_NAME",
    "__VK_LAYER_NV_optimus",
    "__EGL_VENDOR_LIBRARY_FILENAMES",
    "DRI_PRIME",
    "CUDA_VISIBLE_DEVICES",
    "MESA_VK_DEVICE_SELECT",
)

# Library file-name prefixes -> family. NVIDIA names from the NVIDIA driver package; Mesa
# names from Mesa's DRI/Vulkan drivers (Mesa >= 24.2 also maps libgallium-<ver>.so).
LIBRARY_FAMILIES: tuple[tuple[str, str], ...] = (
    ("libGLX_nvidia", "nvidia"),
    ("libEGL_nvidia", "nvidia"),
    ("libnvidia-glcore", "nvidia"),
    ("libnvidia-eglcore", "nvidia"),
    ("libnvidia-gpucomp", "nvidia"),
    ("libnvidia-glvkspirv", "nvidia"),
    ("libnvidia-rtcore", "nvidia"),
    ("libnvoptix", "nvidia"),
    ("libcuda.so", "cuda"),
    ("libnvcuvid", "nvidia-video"),
    ("libnvidia-encode", "nvidia-video"),
    ("libnvidia-ml", "nvml"),  # monitoring only: says nothing about rendering
    ("iris_dri", "intel"),
    ("crocus_dri", "intel"),
    ("i965_dri", "intel"),
    ("libvulkan_intel", "intel"),
    ("libze_intel_gpu", "intel"),
    ("libigdrcl", "intel"),
    ("radeonsi_dri", "amd"),
    ("r600_dri", "amd"),
    ("libvulkan_radeon", "amd"),
    ("libamdhip64", "amd"),
    ("libhsa-runtime64", "amd"),
    ("nouveau_dri", "nouveau"),
    ("libvulkan_nouveau", "nouveau"),
    ("libgallium", "mesa"),
    ("libdril_dri", "mesa"),
    ("swrast_dri", "software"),
    ("kms_swrast_dri", "software"),
    ("libvulkan_lvp", "software"),
)


def library_family(filename: str) -> str | None:
    for prefix, family in LIBRARY_FAMILIES:
        if filename.startswith(prefix):
            return family
    return None


@dataclass(slots=True)
class ProcessSnapshot:
    pid: int
    name: str
    exe: str | None = None
    cmdline: tuple[str, ...] = ()
    clients: dict[tuple, DrmClient] = field(default_factory=dict)
    device_nodes: set[str] = field(default_factory=set)
    libraries: set[str] = field(default_factory=set)
    offload_env: dict[str, str] = field(default_factory=dict)
    readable: bool = True

    @property
    def has_gpu_evidence(self) -> bool:
        families = {library_family(lib) for lib in self.libraries} - {None, "nvml"}
        return bool(self.clients or self.device_nodes or families or self.offload_env)


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def read_drm_clients(proc_dir: Path) -> tuple[dict[tuple, DrmClient], set[str], bool]:
    """DRM clients (deduplicated by driver, pdev, client id) and GPU device nodes held open."""
    clients: dict[tuple, DrmClient] = {}
    nodes: set[str] = set()
    try:
        fds = os.listdir(proc_dir / "fd")
    except PermissionError:
        return clients, nodes, False
    except OSError:
        return clients, nodes, True
    for fd in fds:
        try:
            target = os.readlink(proc_dir / "fd" / fd)
        except OSError:
            continue
        if target.startswith("/dev/nvidia"):
            nodes.add(target)
        elif target.startswith("/dev/dri/"):
            nodes.add(target)
            text = _read_text(proc_dir / "fdinfo" / fd)
            client = parse_fdinfo(text) if text else None
            if client is not None:
                # Several fds may share one client (dup, or card + render node of one context).
                clients.setdefault(client.key, client)
    return clients, nodes, True


def read_libraries(proc_dir: Path) -> set[str] | None:
    """File names of GPU driver libraries mapped into the process (None: not readable)."""
    try:
        with open(proc_dir / "maps", encoding="utf-8", errors="replace") as handle:
            found: set[str] = set()
            for line in handle:
                slash = line.find("/")
                if slash < 0:
                    continue
                name = line[slash:].rstrip("\n").rsplit("/", 1)[-1]
                if name.endswith(" (deleted)"):
                    name = name[: -len(" (deleted)")]
                if library_family(name):
                    found.add(name)
            return found
    except OSError:
        return None


def read_offload_env(proc_dir: Path) -> dict[str, str] | None:
    try:
        raw = (proc_dir / "environ").read_bytes()
    except OSError:
        return None
    found: dict[str, str] = {}
    for item in raw.split(b"\0"):
        key, sep, value = item.partition(b"=")
        if sep:
            name = key.decode("utf-8", "replace")
            if name in OFFLOAD_VARIABLES:
                found[name] = value.decode("utf-8", "replace")
    return found


def _identity(proc_dir: Path, pid: int) -> tuple[str, str | None, tuple[str, ...]] | None:
    comm = _read_text(proc_dir / "comm")
    if comm is None:
        return None
    try:
        exe: str | None = os.readlink(proc_dir / "exe")
    except OSError:
        exe = None
    raw = b""
    try:
        raw = (proc_dir / "cmdline").read_bytes()
    except OSError:
        pass
    cmdline = tuple(part.decode("utf-8", "replace") for part in raw.split(b"\0") if part)
    name = comm.strip()
    if exe and not exe.endswith(" (deleted)"):
        base = os.path.basename(exe)
        if base.startswith(name):  # comm is cut to 15 characters; the exe name is whole
            name = base
    return name, exe, cmdline


def snapshot_process(proc_root: Path, pid: int, deep: bool = True) -> ProcessSnapshot | None:
    proc_dir = proc_root / str(pid)
    ident = _identity(proc_dir, pid)
    if ident is None:
        return None  # gone
    name, exe, cmdline = ident
    snap = ProcessSnapshot(pid=pid, name=name, exe=exe, cmdline=cmdline)
    snap.clients, snap.device_nodes, fd_ok = read_drm_clients(proc_dir)
    if deep:
        libraries = read_libraries(proc_dir)
        env = read_offload_env(proc_dir)
        snap.libraries = libraries or set()
        snap.offload_env = env or {}
        snap.readable = fd_ok and libraries is not None
    else:
        snap.readable = fd_ok
    return snap


def list_pids(proc_root: Path) -> list[int]:
    try:
        return sorted(int(name) for name in os.listdir(proc_root) if name.isdigit())
    except OSError:
        return []


def scan_processes(proc_root: Path, pids: list[int] | None = None, deep: bool = True) -> dict[int, ProcessSnapshot]:
    result: dict[int, ProcessSnapshot] = {}
    for pid in (pids if pids is not None else list_pids(proc_root)):
        snap = snapshot_process(proc_root, pid, deep=deep)
        if snap is not None:
            result[pid] = snap
    return result
