"""The host's memory and a process's name and user, read from Linux's ``/proc``.

psutil parses these same files; reading them here lets a one-shot snapshot
(``monitor --once``) finish without loading psutil, which is about 10 ms of its
start-up. The figures are psutil's own, rule for rule (psutil 7.2,
``psutil/_pslinux.py`` and ``psutil/__init__.py``), and
``tests/services/test_procfs.py`` checks them against psutil for every process
on the machine running the tests:

- available memory is ``MemAvailable`` (the kernel's estimate, Linux 3.14+);
  used swap is ``SwapTotal - SwapFree``;
- a process's name is the ``comm`` field of ``/proc/PID/stat`` (between the
  first "(" and the last ")"); the kernel cuts it to 15 bytes, so a name that
  long is replaced by the base name of the command line's first word when that
  starts with it ("gnome-keyring-d" -> "gnome-keyring-daemon");
- the user is the owner of the real uid in ``/proc/PID/status``, or the uid
  as text when no passwd entry has it (a container's user).

Other systems, and the CPU and disk rates, stay with psutil
(``services/telemetry/system.py``).
"""
from __future__ import annotations

import os
from typing import NamedTuple

_KIB = 1024
_COMM_LEN = 15  # TASK_COMM_LEN - 1: the kernel keeps this many bytes of a name


class HostMemory(NamedTuple):  # not a dataclass: a fifth of the start-up cost to create
    """Bytes; None where the system did not say. ``available`` is what programs can still get without
    swapping."""
    total: int | None
    available: int | None
    swap_total: int | None
    swap_used: int | None


def read_memory(proc_root: str = "/proc") -> HostMemory | None:
    """``/proc/meminfo``; None when it cannot be read or lacks a field (a pre-3.14 kernel)."""
    values: dict[bytes, int] = {}
    try:
        with open(os.path.join(proc_root, "meminfo"), "rb") as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 2 and fields[0].endswith(b":"):
                    try:
                        values[fields[0][:-1]] = int(fields[1]) * _KIB
                    except ValueError:
                        continue
    except OSError:
        return None
    try:
        return HostMemory(total=values[b"MemTotal"], available=values[b"MemAvailable"],
                          swap_total=values[b"SwapTotal"],
                          swap_used=values[b"SwapTotal"] - values[b"SwapFree"])
    except KeyError:
        return None


def process_identity(pid: int, proc_root: str = "/proc") -> tuple[str | None, str | None]:
    """(name, user) of a process; (None, None) for one that is gone or hidden from us."""
    folder = os.path.join(proc_root, str(pid))
    try:
        with open(os.path.join(folder, "stat"), "rb") as f:
            stat = f.read()
        with open(os.path.join(folder, "status"), "rb") as f:
            status = f.read()
    except OSError:  # gone, another PID namespace, or /proc mounted with hidepid
        return None, None
    name = os.fsdecode(stat[stat.find(b"(") + 1:stat.rfind(b")")])
    if len(name) >= _COMM_LEN:
        name = _untruncated(name, folder)
    return name, _user(status)


def _untruncated(name: str, folder: str) -> str:
    try:
        with open(os.path.join(folder, "cmdline"), "rb") as f:
            data = os.fsdecode(f.read())
    except OSError:
        return name
    if not data:  # a zombie, or a kernel thread
        return name
    # Arguments end in NUL; a program that rewrote its title may use spaces (Chrome does).
    sep = "\x00" if data.endswith("\x00") else " "
    if data.endswith(sep):
        data = data[:-1]
    words = data.split(sep)
    if sep == "\x00" and len(words) == 1 and " " in data:
        words = data.split(" ")
    longer = os.path.basename(words[0])
    return longer if longer.startswith(name) else name


def _user(status: bytes) -> str | None:
    for line in status.splitlines():
        if line.startswith(b"Uid:"):
            fields = line.split()
            try:
                uid = int(fields[1])
            except (IndexError, ValueError):
                return None
            import pwd  # POSIX only; this module is read on Linux alone

            try:
                return pwd.getpwuid(uid).pw_name
            except KeyError:
                return str(uid)
    return None
