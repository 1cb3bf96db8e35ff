"""A step's check: is what the step does already done on this machine?

Each kind of check (a line in a file, a command's output, a registry value, the loaded driver, a
working PyTorch) reads the machine and answers done, not done or unknown, with a detail.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.setup.plan import Check
from services.setup.probes import parse_proc_driver_version
from services.setup.python_env import probe_torch
from services.setup.system import CommandResult, Runner, SystemRoot


@dataclass(frozen=True, slots=True)
class CheckResult:
    state: str  # done | not_done | unknown
    detail: str = ""


def run_check(c: Check, root: SystemRoot, runner: Runner, registry: Callable[[], Any]) -> CheckResult:
    """``registry`` builds the registry reader (services.setup.windows_registry.RegistryReader) on first use."""
    if c.kind in ("any_file_contains", "file_contains"):
        for p in c.paths:
            target = root(p)
            files = sorted(target.glob("*.conf")) if target.is_dir() else [target]
            for f in files:
                try:
                    text = f.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                if any(line.strip().startswith(c.text) for line in text.splitlines()) or (c.kind == "file_contains" and c.text in text):
                    return CheckResult("done", str(f))
        return CheckResult("not_done")
    if c.kind == "debian_components":
        from services.setup.linux_plans import debian_components_present

        sources = root.read_text(c.paths[0]) if c.paths else None
        if sources is None:
            return CheckResult("unknown", f"cannot read {c.paths[0] if c.paths else '?'}")
        return CheckResult("done" if debian_components_present(sources, c.text.split()) else "not_done")
    if c.kind == "file_exists":
        return CheckResult("done" if all(Path(p).is_file() for p in c.paths) else "not_done")
    if c.kind == "command_ok":
        r = runner.run(c.argv, timeout=60)
        if r.missing:
            return CheckResult("not_done", f"{c.argv[0]} is not installed")
        return CheckResult("done" if r.ok else "not_done", first_line(r))
    if c.kind == "command_output":
        r = runner.run(c.argv, timeout=60)
        return CheckResult("done" if r.ok and c.expect in r.output else "not_done", first_line(r))
    if c.kind == "registry_value":
        from services.setup.windows_registry import RegistryError

        try:  # argv is the reg.exe form shown to the user: reg query KEY /v NAME
            value = registry().value(c.argv[2], c.text)
        except (RegistryError, ValueError, IndexError) as exc:
            return CheckResult("unknown", str(exc))
        return CheckResult("done" if value is not None and value[1] == c.expect else "not_done", "" if value is None else value[1])
    if c.kind == "secure_boot_key":
        sb = runner.run(["mokutil", "--sb-state"], timeout=10)
        if "disabled" in sb.output.lower():
            return CheckResult("done", "Secure Boot is off")
        if not c.argv:
            return CheckResult("unknown")
        r = runner.run(c.argv, timeout=10)
        return CheckResult("done" if c.expect in r.output else "not_done", first_line(r))
    if c.kind == "driver_loaded":
        loaded, _ = parse_proc_driver_version(root.read_text("/proc/driver/nvidia/version") or "")
        if not loaded:
            return CheckResult("not_done", "no NVIDIA module is loaded")
        disk = runner.run(["modinfo", "-F", "version", "nvidia"], timeout=10)
        if disk.ok and disk.stdout.strip() and disk.stdout.strip() != loaded:
            return CheckResult("not_done", f"loaded {loaded}, installed {disk.stdout.strip()}: reboot")
        return CheckResult("done", loaded)
    if c.kind == "torch_ok":
        probe = probe_torch(c.argv[0], runner)
        if not probe.ran:
            return CheckResult("not_done", probe.error)
        ok = probe.cuda_available and probe.matmul_ok is True
        return CheckResult("done" if ok else "not_done", probe.torch_version or probe.torch_error)
    return CheckResult("unknown", f"unknown check {c.kind}")


def first_line(r: CommandResult) -> str:
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    return lines[0] if lines else ""
