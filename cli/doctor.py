"""``python main.py doctor``: check the driver stack and a Python environment."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from cli import CANNOT_USE, EXIT_FAILED, EXIT_NO_GPU, EXIT_OK, UsageError, cli_catalog, program_name, refuse_empty
from services.i18n import Catalog, translate

HELP = "check the NVIDIA driver, CUDA and PyTorch in a Python environment, and say how to fix problems"

NO_DRIVER_CODES = {"no_nvidia_gpu", "driver_not_installed", "nouveau_in_use", "secure_boot_blocks_module", "module_not_loaded"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--python", metavar="PATH", help="interpreter of the environment to test (a venv's or conda env's python)")
    parser.add_argument("--list-envs", action="store_true", help="list the venvs and conda environments found in your home folder")
    parser.add_argument("--explain", metavar="TEXT", help="explain an error message ('-' reads it from stdin), using what the doctor finds here")
    parser.add_argument("--json", action="store_true", help="print the report as JSON (stable codes, English text)")



NO_INTERPRETER = translate("Cli", "no such interpreter: {path}")


def check_python_path(path: str) -> str:
    p = Path(path).expanduser()
    try:
        p.stat()
    except FileNotFoundError:
        raise UsageError(NO_INTERPRETER.format(path=path)) from None
    except OSError as exc:  # name too long, permission denied on a parent folder, ...
        raise UsageError(CANNOT_USE.format(path=path, reason=exc.strerror or str(exc))) from None
    if p.is_dir():  # accept an environment folder too
        for cand in (p / "bin" / "python3", p / "bin" / "python", p / "Scripts" / "python.exe", p / "python.exe"):
            if cand.is_file():
                return str(cand)
        raise UsageError(translate("Cli", "no Python interpreter inside {path}").format(path=path))
    if not p.is_file():
        raise UsageError(NO_INTERPRETER.format(path=path))
    if not _runnable(p):
        raise UsageError(translate("Cli", "{path} is not executable").format(path=path))
    return str(p)


def _runnable(p: Path) -> bool:
    if os.name == "nt":  # X_OK holds for every file there: Windows runs a file by its extension (PATHEXT)
        return p.suffix.lower() in os.environ.get("PATHEXT", ".COM;.EXE;.BAT;.CMD").lower().split(";")
    return os.access(p, os.X_OK)


def chosen_python(args: argparse.Namespace) -> tuple[str | None, str]:
    """The interpreter to check and how it was chosen: --python, else the one the user is in
    (an active venv or conda env, then python3/python on PATH), from the machine model."""
    from services.setup.machine import PY_GIVEN, active_python

    if args.python:
        return check_python_path(args.python), PY_GIVEN
    found = active_python()
    return (found.path, found.how) if found else (None, "")


def run(args: argparse.Namespace) -> int:
    from services.setup.doctor import run_doctor
    from services.setup.fmt import envs_found_heading
    from services.setup.python_env import find_python_envs
    from services.setup.rules import RulesError, load_rules
    from services.setup.system import SubprocessRunner

    if args.list_envs:
        envs = find_python_envs(Path.home())
        if args.json:
            print(json.dumps([{"name": e.name, "python": e.python, "kind": e.kind} for e in envs], indent=2))
        else:
            for e in envs:
                print(f"{e.kind:6} {e.name:24} {e.python}")
            if not envs:
                print(cli_catalog().render(translate(
                    "Cli", "no venvs or conda environments found in the usual places; pass --python PATH")))
        return EXIT_OK
    if args.explain is not None and args.explain != "-" and not args.explain.strip():
        raise UsageError(translate("Cli", "--explain needs the error text (or '-' to read it from stdin)"))
    refuse_empty(args.python, "--python")
    python, python_how = chosen_python(args)
    try:
        rules = load_rules()
    except RulesError as exc:
        raise UsageError(exc.message) from exc
    windows_probe = None
    if sys.platform == "win32":
        from services.setup.windows import LiveWindowsProbe

        windows_probe = LiveWindowsProbe(SubprocessRunner())
    report = run_doctor(SubprocessRunner(), rules, python=python, windows_probe=windows_probe, python_how=python_how)
    if args.explain is not None:
        return explain_cli(args, report)
    codes = {f.code for f in report.findings}
    code = EXIT_NO_GPU if codes & NO_DRIVER_CODES else EXIT_FAILED if report.worst == "error" else EXIT_OK
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        return code
    cat = cli_catalog()
    print(render_text(report, cat))
    if not args.python:
        envs = find_python_envs(Path.home())
        if envs:
            print()
            print(cat.render(envs_found_heading()))
            for e in envs[:8]:
                print(f"  {e.name}: {e.python}")
    return code


def render_text(report, cat: Catalog) -> str:
    from services.setup.fmt import (command_line, driver_value, fact_label, fact_line, generation_word, module_flavor_word,
                                    secure_boot_word, torch_line)

    f = report.facts
    lines = []
    marks = {"error": "[X]", "warning": "[!]", "info": "[i]", "ok": "[OK]"}

    def fact(key: str, value: str) -> None:
        lines.append(cat.render(fact_line(fact_label(key), value.rstrip())))

    if f.os:
        fact("os", f"{f.os.pretty_name} {f.os.kernel}")
    if report.gpu:
        g = report.gpu
        fact("gpu", f"{g.name} [{g.pci.pci_id}] {cat.render(generation_word(g.generation))} {g.sm or ''}")
    if f.driver_version:
        cuda = f.nvml.cuda_version if f.nvml and f.nvml.cuda_version else "?"
        fact("driver", cat.render(driver_value(f.driver_version, cuda)))
    if f.kernel_module and f.kernel_module.loaded_flavor:
        fact("module", f"{cat.render(module_flavor_word(f.kernel_module.loaded_flavor))} {f.kernel_module.loaded_version or ''}")
    fact("secure_boot", cat.render(secure_boot_word(f.secure_boot)))
    if f.torch and f.torch.ran:
        fact("python", cat.render(torch_line(f.torch.python, f.torch.python_version, f.torch.torch_version)))
    lines.append("")
    for x in report.findings:
        lines.append(f"{marks.get(x.severity, '-')} {cat.render(x.title)}")
        lines.append(f"    {cat.render(x.detail)}")
        for fix in x.fixes:
            lines.append(f"    -> {cat.render(fix.label)}")
            for c in fix.commands:
                lines.append(f"       {command_line(c)}")
            if fix.step and not fix.commands:
                lines.append(f"       {program_name()} setup --run {fix.step}")
    return "\n".join(lines)


def explain_cli(args: argparse.Namespace, report) -> int:
    from services.setup.fmt import command_line
    from services.setup.troubleshoot import explain, no_match_message

    text = sys.stdin.read() if args.explain == "-" else args.explain
    if not text.strip():
        raise UsageError(translate("Cli", "--explain got no text to explain"))
    found = explain(text, report)
    if args.json:
        print(json.dumps([d.to_json() for d in found], indent=2, ensure_ascii=False))
        return EXIT_OK if found else EXIT_FAILED
    cat = cli_catalog()
    if not found:
        print(cat.render(no_match_message()))
        return EXIT_FAILED
    for d in found:
        print(cat.render(d.title))
        print("  " + cat.render(d.cause))
        for line in d.on_this_machine:
            print("  * " + cat.render(line))
        for fix in d.fixes:
            print("  -> " + cat.render(fix.label))
            for c in fix.commands:
                print("     " + command_line(c))
    return EXIT_OK
