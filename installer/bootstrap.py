"""Set up a virtual environment and run the app or the tests: one command each.

    python installer/bootstrap.py app [APP ARGS...]     # e.g. --demo
    python installer/bootstrap.py test [PYTEST ARGS...]

Works with only a Python 3.10+ on PATH, on Linux and Windows. The environment
lives in ``.venv`` beside main.py and is reused; it is refreshed when a
requirements file changes.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"


def venv_python() -> Path:
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def ensure_venv(requirements: str) -> Path:
    python = venv_python()
    if not python.exists() and (VENV / "pyvenv.cfg").exists():
        # Another system's environment (a Linux bin/ seen from Windows, or Scripts\ from Linux, in a
        # shared folder): building over it would break it, and its install stamp would skip pip here.
        raise SystemExit(f"{VENV.name}{os.sep} holds a virtual environment this Python cannot use (made on "
                         f"another system, or damaged): it has no {python.relative_to(VENV)}. Move it aside "
                         "or delete it, then run this again.")
    if not python.exists():
        print(f"Creating a virtual environment in {VENV.name}/ ...", flush=True)
        try:
            venv.EnvBuilder(with_pip=True).create(VENV)
        except (subprocess.CalledProcessError, OSError) as exc:
            # Debian and Ubuntu ship venv's pip bootstrap in a separate package.
            hint = " Install it with: sudo apt install python3-venv" if sys.platform.startswith("linux") else ""
            raise SystemExit(f"Could not create the virtual environment ({exc}).{hint}") from exc
    req_file = ROOT / requirements
    digest = hashlib.sha256(b"".join(
        p.read_bytes() for p in sorted(ROOT.glob("requirements*.txt"))
    ) + requirements.encode()).hexdigest()
    stamp = VENV / f".installed-{requirements}"
    if not stamp.exists() or stamp.read_text() != digest:
        print(f"Installing {requirements} ...", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q",
                        "-r", str(req_file)], check=True)
        stamp.write_text(digest)
    return python


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 10):  # noqa: UP036 - this runs on whatever Python the user has
        print("GPU Assistant needs Python 3.10 or newer.", file=sys.stderr)
        return 2
    if len(argv) < 2 or argv[1] not in ("app", "test"):
        print(__doc__)
        return 2
    try:
        if argv[1] == "app":
            python = ensure_venv("requirements.txt")
            return subprocess.call([str(python), str(ROOT / "main.py"), *argv[2:]], cwd=ROOT)
        python = ensure_venv("requirements-dev.txt")
        env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
        return subprocess.call([str(python), "-m", "pytest", *argv[2:]], cwd=ROOT, env=env)
    except subprocess.CalledProcessError as exc:
        print(f"Setting up failed (exit code {exc.returncode}); see the pip output above.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv))
