"""How the setup services touch the machine: a command runner and a file-system root.

Every probe and every step goes through these two, so tests hand in a fake
runner with recorded output and a temporary directory as ``/``. Commands are
argument lists, never shell strings.
"""
from __future__ import annotations

import os
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from collections.abc import Callable, Sequence

COMMAND_MISSING = 127
COMMAND_TIMED_OUT = 124


@dataclass(frozen=True, slots=True)
class CommandResult:
    returncode: int
    stdout: str = ""
    stderr: str = ""

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    @property
    def missing(self) -> bool:
        return self.returncode == COMMAND_MISSING

    @property
    def timed_out(self) -> bool:
        return self.returncode == COMMAND_TIMED_OUT

    @property
    def output(self) -> str:
        return (self.stdout + ("\n" if self.stdout and self.stderr else "") + self.stderr).strip()


class Runner(Protocol):
    def run(self, argv: Sequence[str], timeout: float = 30.0, input_text: str | None = None) -> CommandResult: ...


class SubprocessRunner:
    """Runs real commands (argument lists only) with a timeout."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        # LC_ALL=C keeps tool output (mokutil, lspci, apt) in the English form the parsers read.
        base = dict(os.environ)
        base["LC_ALL"] = "C"
        self._env = {**base, **(env or {})}

    def run(self, argv: Sequence[str], timeout: float = 30.0, input_text: str | None = None) -> CommandResult:
        try:
            done = subprocess.run(
                list(argv), capture_output=True, text=True, timeout=timeout, input=input_text,
                env=self._env, errors="replace",
            )
        except FileNotFoundError:
            return CommandResult(COMMAND_MISSING, "", f"{argv[0]}: command not found")
        except PermissionError as exc:
            return CommandResult(126, "", f"{argv[0]}: {exc.strerror}")
        except subprocess.TimeoutExpired:
            return CommandResult(COMMAND_TIMED_OUT, "", f"{argv[0]}: timed out after {timeout:g} s")
        except OSError as exc:
            return CommandResult(126, "", f"{argv[0]}: {exc.strerror or exc}")
        return CommandResult(done.returncode, done.stdout or "", done.stderr or "")

    def run_streaming(self, argv: Sequence[str], on_line: Callable[[str], None], timeout: float = 3600.0) -> CommandResult:
        """Like ``run``, but hands each output line to ``on_line`` as it comes
        (apt or dnf can take minutes; the wizard shows their progress live)."""
        try:
            proc = subprocess.Popen(
                list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                text=True, errors="replace", env=self._env, bufsize=1,
            )
        except FileNotFoundError:
            return CommandResult(COMMAND_MISSING, "", f"{argv[0]}: command not found")
        except OSError as exc:
            return CommandResult(126, "", f"{argv[0]}: {exc.strerror or exc}")
        timed_out = threading.Event()

        def kill() -> None:
            timed_out.set()
            proc.kill()

        watchdog = threading.Timer(timeout, kill)
        watchdog.daemon = True
        watchdog.start()
        lines: list[str] = []
        try:
            assert proc.stdout is not None
            with proc.stdout:  # closed here, not left to the garbage collector
                for line in proc.stdout:
                    lines.append(line)
                    on_line(line.rstrip("\n"))
            proc.wait()
        finally:
            watchdog.cancel()
            watchdog.join()
            if proc.poll() is None:  # on_line raised: the command does not outlive the call
                proc.kill()
                proc.wait()
        if timed_out.is_set():
            return CommandResult(COMMAND_TIMED_OUT, "".join(lines), f"{argv[0]}: timed out after {timeout:g} s")
        return CommandResult(proc.returncode, "".join(lines), "")


@dataclass
class FakeRunner:
    """A runner that answers from recorded output, for tests and demos.

    ``responses`` maps a command (tuple, or its first words) to a result; the
    longest matching prefix wins. Unknown commands are 'not found'.
    """

    responses: dict[tuple[str, ...], CommandResult] = field(default_factory=dict)
    calls: list[tuple[str, ...]] = field(default_factory=list)
    handler: Callable[[tuple[str, ...]], CommandResult | None] | None = None
    stdin: str | None = None  # what the command being handled gets on standard input

    def add(self, argv: Sequence[str], returncode: int = 0, stdout: str = "", stderr: str = "") -> "FakeRunner":
        self.responses[tuple(argv)] = CommandResult(returncode, stdout, stderr)
        return self

    def run(self, argv: Sequence[str], timeout: float = 30.0, input_text: str | None = None) -> CommandResult:
        key = tuple(argv)
        self.calls.append(key)
        self.stdin = input_text
        if self.handler is not None:
            handled = self.handler(key)
            if handled is not None:
                return handled
        for n in range(len(key), 0, -1):
            if key[:n] in self.responses:
                return self.responses[key[:n]]
        return CommandResult(COMMAND_MISSING, "", f"{key[0]}: command not found")


@dataclass(frozen=True, slots=True)
class SystemRoot:
    """The directory that stands for ``/`` (a temporary folder in tests)."""

    path: Path = Path("/")

    def __call__(self, system_path: str) -> Path:
        return self.path / system_path.lstrip("/")

    @property
    def is_real(self) -> bool:
        return self.path == Path("/")

    def read_text(self, system_path: str, limit: int = 1_000_000) -> str | None:
        try:
            with open(self(system_path), encoding="utf-8", errors="replace") as fh:
                return fh.read(limit)
        except OSError:
            return None

    def read_bytes(self, system_path: str, limit: int = 4096) -> bytes | None:
        try:
            with open(self(system_path), "rb") as fh:
                return fh.read(limit)
        except OSError:
            return None

    def exists(self, system_path: str) -> bool:
        return self(system_path).exists()
