"""The user's Python environments: where they are, whether PyTorch works in them (probed in the
interpreter itself, never imported by the app) and whether pip may install into them (PEP 668)."""
from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from services.setup.system import CommandResult, Runner, SystemRoot

# Runs inside the *target* interpreter; prints one JSON line. Kept free of f-strings
# and walrus so it works on old interpreters too.
TORCH_PROBE = r'''
import json, sys, warnings
out = {"python": sys.version.split()[0], "executable": sys.executable}
try:
    import torch
except Exception as exc:
    out["torch_error"] = "%s: %s" % (type(exc).__name__, exc)
    print("GPUA-PROBE " + json.dumps(out)); sys.exit(0)
out["torch_version"] = torch.__version__
out["cuda_build"] = getattr(torch.version, "cuda", None)
out["hip"] = getattr(torch.version, "hip", None)
try:
    out["cudnn"] = torch.backends.cudnn.version()
except Exception:
    out["cudnn"] = None
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        out["cuda_available"] = bool(torch.cuda.is_available())
    except Exception as exc:
        out["cuda_available"] = False
        out["cuda_error"] = str(exc)
    try:
        out["arch_list"] = list(torch.cuda.get_arch_list())
    except Exception:
        out["arch_list"] = []
    if out["cuda_available"]:
        try:
            out["device_count"] = torch.cuda.device_count()
            out["device_name"] = torch.cuda.get_device_name(0)
            out["capability"] = list(torch.cuda.get_device_capability(0))
            a = torch.ones((256, 256), device="cuda")
            b = a @ a
            torch.cuda.synchronize()
            out["matmul_ok"] = float(b[0, 0].item()) == 256.0
        except Exception as exc:
            out["matmul_ok"] = False
            out["matmul_error"] = "%s: %s" % (type(exc).__name__, exc)
out["warnings"] = [str(w.message) for w in caught][:5]
print("GPUA-PROBE " + json.dumps(out))
'''
PROBE_MARK = "GPUA-PROBE "


@dataclass(frozen=True, slots=True)
class TorchProbe:
    python: str  # interpreter that was probed
    ran: bool  # the interpreter started and answered
    error: str = ""  # why it did not answer
    python_version: str = ""
    torch_version: str | None = None
    torch_error: str = ""
    cuda_build: str | None = None
    hip: str | None = None
    cudnn: int | None = None
    cuda_available: bool = False
    cuda_error: str = ""
    arch_list: tuple[str, ...] = ()
    device_name: str = ""
    capability: tuple[int, int] | None = None
    matmul_ok: bool | None = None
    matmul_error: str = ""
    warnings: tuple[str, ...] = ()

    @property
    def has_torch(self) -> bool:
        return self.torch_version is not None

    @property
    def is_cpu_build(self) -> bool:
        return self.has_torch and self.cuda_build is None and self.hip is None

    @property
    def cudnn_text(self) -> str:
        if not self.cudnn:
            return ""
        n = int(self.cudnn)  # 91900 -> 9.19.0 (cuDNN 9); 8907 -> 8.9.7 (cuDNN 8)
        if n >= 10000:
            return f"{n // 10000}.{(n % 10000) // 100}.{n % 100}"
        return f"{n // 1000}.{(n % 1000) // 100}.{n % 100}"


def parse_torch_probe(python: str, result: CommandResult) -> TorchProbe:
    line = next((ln for ln in reversed(result.stdout.splitlines()) if ln.startswith(PROBE_MARK)), None)
    if line is None:
        if result.missing:
            why = "the interpreter was not found"
        elif result.timed_out:
            why = "the interpreter did not answer in time"
        else:
            tail = [ln for ln in result.output.splitlines() if ln.strip()]
            why = tail[-1] if tail else f"exit code {result.returncode}"
        return TorchProbe(python, False, why)
    try:
        data = json.loads(line[len(PROBE_MARK):])
    except json.JSONDecodeError:
        return TorchProbe(python, False, "the probe printed something unreadable")
    cap = data.get("capability")
    return TorchProbe(
        python=python, ran=True, python_version=str(data.get("python", "")),
        torch_version=data.get("torch_version"), torch_error=data.get("torch_error", ""),
        cuda_build=data.get("cuda_build"), hip=data.get("hip"), cudnn=data.get("cudnn"),
        cuda_available=bool(data.get("cuda_available")), cuda_error=data.get("cuda_error", ""),
        arch_list=tuple(data.get("arch_list") or ()), device_name=data.get("device_name", ""),
        capability=(int(cap[0]), int(cap[1])) if isinstance(cap, list) and len(cap) == 2 else None,
        matmul_ok=data.get("matmul_ok"), matmul_error=data.get("matmul_error", ""),
        warnings=tuple(data.get("warnings") or ()),
    )


# An interpreter must at least start and print within this; one that hangs (a broken site
# hook, a stuck network drive) was given the torch probe's 90 s and then the stdlib query's
# 20 s more. Starting Python takes well under a second; 15 s leaves room for a slow disk.
STARTUP_TIMEOUT_S = 15.0
INTERPRETER_HUNG = f"the interpreter did not start within {STARTUP_TIMEOUT_S:g} s"


def probe_torch(python: str, runner: Runner, timeout: float = 90.0) -> TorchProbe:
    """Run the probe in the user's interpreter (never import torch in the app). It is first asked
    to start and print, briefly: a hanging interpreter is reported after STARTUP_TIMEOUT_S."""
    alive = runner.run([python, "-c", "print('ok')"], timeout=STARTUP_TIMEOUT_S)
    if alive.timed_out:
        return TorchProbe(python, False, INTERPRETER_HUNG)
    return parse_torch_probe(python, runner.run([python, "-c", TORCH_PROBE], timeout=timeout))


def default_venv_dir() -> str:
    """Where the wizard puts PyTorch when the system Python refuses pip (PEP 668)."""
    return str(Path.home() / ".venvs" / "torch")


# The stdlib folder (where PEP 668's marker lives), then 1 when the interpreter is a virtual
# environment: PEP 668 exempts those ("sys.prefix != sys.base_prefix"), so its marker does not apply.
STDLIB_QUERY = ("import sys, sysconfig; print(sysconfig.get_path('stdlib')); "
                "print(int(sys.prefix != getattr(sys, 'base_prefix', getattr(sys, 'real_prefix', sys.prefix))))")


@dataclass(frozen=True, slots=True)
class PythonEnvState:
    """PEP 668 state of one interpreter: is 'pip install' into it refused?"""

    python: str
    stdlib: str = ""  # '' when the interpreter did not answer
    externally_managed: bool | None = None  # None = could not ask; False in a virtual environment
    in_venv: bool | None = None  # sys.prefix != sys.base_prefix (None: not asked)
    marker: bool = False  # the stdlib folder has the EXTERNALLY-MANAGED file (a venv ignores it)


def read_externally_managed(python: str, runner: Runner, root: SystemRoot) -> PythonEnvState:
    """Ask the interpreter for its stdlib folder and whether it is a virtual environment, and look
    for PEP 668's EXTERNALLY-MANAGED there. PEP 668 ("Marking the Python environment as externally
    managed"): installers ignore the marker inside a virtual environment."""
    r = runner.run([python, "-c", STDLIB_QUERY], timeout=20)
    lines = [ln.strip() for ln in r.stdout.splitlines() if ln.strip()]
    stdlib = next((ln for ln in lines if ln.startswith("/")), None)
    if not r.ok or stdlib is None:
        return PythonEnvState(python)
    in_venv = {"1": True, "0": False}.get(lines[-1]) if lines[-1] != stdlib else None
    marker = root.exists(stdlib.rstrip("/") + "/EXTERNALLY-MANAGED")
    return PythonEnvState(python, stdlib, marker and not in_venv, in_venv, marker)


@dataclass(frozen=True, slots=True)
class PythonEnv:
    name: str
    python: str
    kind: str  # venv | conda | system | app


def _interpreter(prefix: Path, windows: bool) -> Path | None:
    candidates = [prefix / "Scripts" / "python.exe", prefix / "python.exe"] if windows else [prefix / "bin" / "python3", prefix / "bin" / "python"]
    return next((c for c in candidates if c.is_file()), None)


def find_python_envs(home: Path, windows: bool = sys.platform == "win32", extra_conda_roots: Sequence[Path] = ()) -> list[PythonEnv]:
    """venvs and conda environments in the usual places under ``home``."""
    found: list[PythonEnv] = []
    seen: set[str] = set()

    def add(name: str, prefix: Path, kind: str) -> None:
        exe = _interpreter(prefix, windows)
        if exe and str(exe) not in seen:
            seen.add(str(exe))
            found.append(PythonEnv(name, str(exe), kind))

    for single in (".venv", "venv", ".env"):
        if (home / single / "pyvenv.cfg").is_file():
            add(f"~/{single}", home / single, "venv")
    for parent in (".virtualenvs", ".venvs", "venvs", "envs", ".local/share/virtualenvs"):
        try:
            for d in sorted((home / parent).iterdir()):
                if (d / "pyvenv.cfg").is_file():
                    add(d.name, d, "venv")
        except OSError:
            pass
    conda_roots = [home / n for n in ("miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba")]
    conda_roots += list(extra_conda_roots)
    for croot in conda_roots:
        if (croot / "conda-meta").is_dir():
            add(f"conda base ({croot.name})", croot, "conda")
        try:
            for d in sorted((croot / "envs").iterdir()):
                add(d.name, d, "conda")
        except OSError:
            pass
    try:
        for d in sorted((home / ".conda" / "envs").iterdir()):
            add(d.name, d, "conda")
    except OSError:
        pass
    listing = home / ".conda" / "environments.txt"
    try:
        for line in listing.read_text(encoding="utf-8", errors="replace").splitlines():
            p = Path(line.strip())
            if line.strip():
                add(p.name, p, "conda")
    except OSError:
        pass
    return found
