"""Running a plan's copied text as a person would paste it into bash on the target (not a test module).

The text is run unchanged except for two things a test must change: the system paths it writes
(/etc/...) point into a temporary root, and ``sudo`` is a shell function that runs ``install`` (the
command that writes the file) as this user and only logs anything else (update-initramfs, ...),
so nothing of this machine changes."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

SUDO = '''sudo() {
  if [ "$1" = install ]; then "$@"; else printf '%s\\n' "$*" >> "$PASTE_LOG"; fi
}
'''


def commands_of(text: str) -> list[str]:
    """The lines of the copied text that run (not the '#' comments)."""
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def run_pasted(text: str, root: Path) -> tuple[subprocess.CompletedProcess, list[str]]:
    """bash runs ``text`` with /etc/... under ``root``; returns the result and the logged sudo commands."""
    bash = shutil.which("bash")
    assert bash is not None
    for line in commands_of(text):  # every line that changes the system goes through sudo
        assert re.match(r"^\s*(printf .* \| )?sudo ", line), line
    log = root / "sudo.log"
    script = SUDO + re.sub(r"(?<=[\s'])/etc/", str(root) + "/etc/", text) + "\n"
    result = subprocess.run([bash, "--norc", "--noprofile", "-c", script], capture_output=True, text=True, timeout=60,
                            env={"PATH": "/usr/bin:/bin", "PASTE_LOG": str(log)}, stdin=subprocess.DEVNULL)
    logged = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return result, logged
