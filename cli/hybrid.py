"""``python main.py hybrid``: which GPU each program uses, and putting one on the NVIDIA GPU."""
from __future__ import annotations

import argparse
import json
import os
import shutil
from typing import Any

from cli import EXIT_FAILED, EXIT_NO_GPU, EXIT_OK, EXIT_USAGE, UsageError, cli_catalog, fail, program_name
from services.hybrid.cli_text import t
from services.i18n import Catalog, translate

HELP = "which GPU each program really uses (integrated or NVIDIA), and run a program on the NVIDIA GPU"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--list", action="store_true", help="list the GPUs and every program using one")
    action.add_argument("--pid", type=int, metavar="PID", help="verdict and evidence for one process")
    action.add_argument("--launch", action="store_true",
                        help="start PROGRAM (after --) on the discrete GPU and report where it landed")
    action.add_argument("--prefer-nvidia", metavar="PATH",
                        help="make a program use the NVIDIA GPU (Windows: per-app preference; Linux: launcher "
                             "and menu entry); shows the exact change first")
    action.add_argument("--undo", metavar="PATH", help="undo the last --prefer-nvidia for PATH from its backup")
    parser.add_argument("--dry-run", action="store_true", help="with --prefer-nvidia: only show the change")
    parser.add_argument("--json", action="store_true", help="machine-readable output (English, stable codes)")
    parser.add_argument("--all", action="store_true", help="with --list: include programs with no GPU evidence")
    parser.add_argument("--interval", type=float, default=1.0, metavar="S",
                        help="seconds between the two samples (default 1)")
    parser.add_argument("--timeout", type=float, default=20.0, metavar="S",
                        help="with --launch: how long to wait for GPU work (default 20)")
    parser.add_argument("program", nargs=argparse.REMAINDER, help="with --launch: -- PROGRAM ARGS...")


def build_service():
    from services.hybrid.service import default_service

    return default_service()



NO_PROGRAM = translate("Cli", "no such program: {program}")


def run(args: argparse.Namespace) -> int:
    program = _parse(args)
    from services.hybrid.preference import PlanError

    cat = cli_catalog()
    service = build_service()
    try:  # each action calls the service and renders its answer (text or --json)
        if args.undo:
            return _undo(service, args.undo, cat, args.json)
        inventory = service.inventory()
        if not inventory.has_gpu:
            return _no_gpu(inventory, cat, args.json)
        if args.list:
            return _list(service, inventory, args, cat)
        if args.pid is not None:
            return _pid(service, inventory, args, cat)
        if args.prefer_nvidia:
            return _prefer(service, inventory, args.prefer_nvidia, args.dry_run, cat, args.json)
        return _launch(service, inventory, program, args, cat)
    except PlanError as exc:
        return fail(exc.message, EXIT_USAGE, catalog=cat)
    finally:
        service.close()


def _parse(args: argparse.Namespace) -> list[str]:
    """Check what argparse cannot (ranges, which options go together, that the program exists);
    returns the program to ``--launch`` (empty without it). Raises UsageError."""
    # Written as "not inside" so that NaN (every comparison false) is refused too.
    if not 0 < args.interval <= 60:
        raise UsageError(translate("Cli", "--interval must be between 0 and 60 seconds"))
    if not 0 < args.timeout <= 600:
        raise UsageError(translate("Cli", "--timeout must be between 0 and 600 seconds"))
    if args.pid is not None and args.pid <= 0:
        raise UsageError(translate("Cli", "--pid must be a process id (a positive whole number), not {value}").format(
            value=args.pid))
    for flag, value in (("--prefer-nvidia", args.prefer_nvidia), ("--undo", args.undo)):
        if value is not None and not value.strip():
            raise UsageError(translate("Cli", "{option} needs the path of a program").format(option=flag))
    program = list(args.program or [])
    if program and program[0] == "--":
        program = program[1:]
    if args.launch and not program:
        raise UsageError(translate("Cli", "name the program to start: hybrid --launch -- PROGRAM ARGS..."))
    if program and not args.launch:
        raise UsageError(translate("Cli", "unexpected arguments: {arguments}").format(arguments=" ".join(program)))
    if args.dry_run and not args.prefer_nvidia:
        raise UsageError(translate("Cli", "--dry-run goes with --prefer-nvidia"))

    # A wrong path is bad input whatever the machine has: say so before looking for GPUs.
    wanted = os.path.expanduser(args.prefer_nvidia or "")
    if args.prefer_nvidia and os.path.isabs(wanted) and not os.path.isfile(wanted):
        raise UsageError(NO_PROGRAM.format(program=args.prefer_nvidia))
    if program and not os.path.isfile(os.path.expanduser(program[0])) and shutil.which(program[0]) is None:
        raise UsageError(NO_PROGRAM.format(program=program[0]))
    return program


# ---- JSON shapes ---------------------------------------------------------------------------

def gpu_json(adapter) -> dict[str, Any]:
    return {
        "key": adapter.key, "name": adapter.name, "vendor": adapter.vendor.value, "kind": adapter.kind.value,
        "pci_address": adapter.pci_address, "driver": adapter.driver, "drives_display": adapter.drives_display,
        "boot_vga": adapter.boot_vga, "connected_outputs": list(adapter.connected_outputs), "luid": adapter.luid,
        "vendor_id": adapter.vendor_id, "device_id": adapter.device_id,
    }


def process_json(report, inventory) -> dict[str, Any]:
    return {
        "pid": report.pid, "name": report.name, "exe": report.exe, "placement": report.placement.value,
        "basis": report.basis.value, "work_pct": _round(report.work_pct), "memory_mib": _round(report.memory_mib),
        "uses": [{
            "gpu": use.adapter_key, "gpu_name": (inventory.adapter(use.adapter_key).name
                                                 if inventory.adapter(use.adapter_key) else None),
            "source": use.source, "kind": use.kind, "work_pct": _round(use.work_pct),
            "engines": {e.engine: _round(e.busy_pct) for e in use.engines}, "memory_mib": _round(use.memory_mib),
        } for use in report.uses],
        "libraries": list(report.libraries), "offload_env": dict(report.offload_env),
        "device_nodes": list(report.device_nodes), "readable": report.readable,
        "evidence": [str(m) for m in report.evidence],
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


# ---- text ------------------------------------------------------------------------------------

PLACEMENT_WORDS = {
    "nvidia": t("NVIDIA GPU"),
    "integrated": t("integrated GPU"),
    "other": t("another GPU"),
    "both": t("both GPUs"),
    "none": t("no GPU"),
}
BASIS_WORDS = {
    "measured": t("measured"),
    "context": t("idle, holds a context"),
    "libraries": t("from loaded drivers"),
    "nothing": t("no evidence"),
}
KIND_WORDS = {
    "integrated": t("integrated"),
    "discrete": t("discrete"),
    "unknown": t("integrated or discrete: unknown"),
}


def _gpu_line(adapter, cat: Catalog) -> str:
    parts = [f"[{cat.render(KIND_WORDS[adapter.kind.value])}] {adapter.name}"]
    if adapter.pci_address:
        parts.append(adapter.pci_address)
    if adapter.luid:
        parts.append(f"LUID {adapter.luid}")
    if adapter.driver:
        parts.append(adapter.driver)
    if adapter.drives_display:
        outputs = ", ".join(adapter.connected_outputs)
        parts.append(cat.render(t("drives the display")) + (f" ({outputs})" if outputs else ""))
    return "  " + "  ".join(parts)


def _verdict_text(report, cat: Catalog) -> str:
    return f"{cat.render(PLACEMENT_WORDS[report.placement.value])} ({cat.render(BASIS_WORDS[report.basis.value])})"


def _no_gpu(inventory, cat: Catalog, as_json: bool) -> int:
    if as_json:
        _print_json({"platform": inventory.platform, "gpus": [], "error": "no_gpu",
                     "checked": [str(m) for m in inventory.checked], "problems": [str(m) for m in inventory.problems]})
    # separator and brackets translated too: ASCII "; (...)" inside a Chinese sentence reads badly
    reasons = cat.render(t("; ")).join(cat.render(m) for m in inventory.problems)
    message = cat.render(t("No GPU found on this computer"))
    if reasons:
        message = cat.render(t("{message} ({reasons})").format(message=message, reasons=reasons))
    return fail(message, EXIT_NO_GPU, catalog=cat)


def _list(service, inventory, args, cat: Catalog) -> int:
    result = service.scan(args.interval, include_all=args.all, inventory=inventory)
    modes = service.system_modes()
    procs = sorted(result.processes, key=lambda r: (-(r.work_pct or 0.0), -(r.memory_mib or 0.0), r.pid))
    if args.json:
        _print_json({
            "platform": inventory.platform, "gpus": [gpu_json(a) for a in inventory.adapters],
            "system_modes": [{"tool": m.tool, "mode": m.mode, "output": m.output} for m in modes.modes],
            "switcheroo": None if modes.switcheroo is None else [
                {"index": g.index, "name": g.name, "default": g.default, "environment": dict(g.environment)}
                for g in modes.switcheroo],
            "nvidia_status": str(result.nvidia_status) if result.nvidia_status else None,
            "interval_s": round(result.interval_s, 3),
            "notes": [str(n) for n in result.notes],
            "processes": [process_json(r, inventory) for r in procs],
        })
        return EXIT_OK
    print(cat.render(t("GPUs")))
    for adapter in inventory.adapters:
        print(_gpu_line(adapter, cat))
    for mode in modes.modes:
        print(cat.render(t("System mode ({tool}): {mode}").format(
            tool=mode.tool, mode=mode.mode or mode.output or "?")))
    if modes.switcheroo is not None:
        print(cat.render(t("switcheroo-control is running ({count} GPUs)").format(
            count=len(modes.switcheroo))))
    if result.nvidia_status:
        print(cat.render(result.nvidia_status))
    for note in result.notes:
        print(cat.render(note))
    print()
    print(cat.render(t("Programs using a GPU (sampled over {seconds} s)").format(
        seconds=f"{result.interval_s:.1f}")))
    if not procs:
        print("  " + cat.render(t("No program is using a GPU right now")))
        return EXIT_OK
    print(f"  {'PID':>7}  {'NAME':<24} {'WORK':>6} {'MEMORY':>10}  VERDICT")
    for r in procs:
        work = f"{r.work_pct:.0f}%" if r.work_pct is not None else "-"
        mem = f"{r.memory_mib:.0f} MiB" if r.memory_mib is not None else "-"
        print(f"  {r.pid:>7}  {r.name[:24]:<24} {work:>6} {mem:>10}  {_verdict_text(r, cat)}")
    return EXIT_OK


def _pid(service, inventory, args, cat: Catalog) -> int:
    if args.pid <= 0:
        raise UsageError(translate("Cli", "--pid must be a positive process id"))
    report = service.scan(args.interval, pids=[args.pid], inventory=inventory).process(args.pid)
    if report is None:
        raise UsageError(translate("Cli", "no process with pid {pid}").format(pid=args.pid))
    if args.json:
        _print_json(process_json(report, inventory))
        return EXIT_OK
    print(f"{report.name} (pid {report.pid})" + (f"  {report.exe}" if report.exe else ""))
    print(cat.render(t("Verdict: {verdict}").format(verdict=_verdict_text(report, cat))))
    for msg in report.evidence:
        print("  - " + cat.render(msg))
    return EXIT_OK


def _prefer(service, inventory, path: str, dry_run: bool, cat: Catalog, as_json: bool) -> int:
    plan = service.plan_prefer_nvidia(path, inventory)
    if as_json:
        data = {"program": plan.program, "platform": plan.platform, "dry_run": dry_run,
                "changes": [{"kind": c.kind, "target": c.target, "name": c.name, "before": c.before, "after": c.after}
                            for c in plan.changes], "notes": [str(n) for n in plan.notes], "backup": None}
    else:
        print(cat.render(t("This will change:")))
        print(plan.describe(cat.tr))
    if plan.is_noop:
        if as_json:
            _print_json(data)
        else:
            print(cat.render(t("Already set: nothing to change")))
        return EXIT_OK
    if dry_run:
        if as_json:
            _print_json(data)
        else:
            print(cat.render(t("Dry run: nothing was changed")))
        return EXIT_OK
    record = service.apply(plan)
    if as_json:
        data["backup"] = str(record.backup_file)
        _print_json(data)
        return EXIT_OK
    print(cat.render(t("Done. Backup: {path}").format(path=str(record.backup_file))))
    for note in plan.notes:
        print("  - " + cat.render(note))
    print(cat.render(t("Undo with: {command}").format(
        command=f"{program_name()} hybrid --undo {json.dumps(plan.program, ensure_ascii=False)}")))
    return EXIT_OK


def _undo(service, path: str, cat: Catalog, as_json: bool) -> int:
    record = service.undo(path)
    if as_json:
        _print_json({"program": record.plan.program, "undone": True, "backup": str(record.backup_file)})
    else:
        print(cat.render(t("Undone: {path}").format(path=record.plan.program)))
        print(record.plan.describe(cat.tr))
    return EXIT_OK


def _launch(service, inventory, program: list[str], args, cat: Catalog) -> int:
    env = service.launch_env(inventory)
    if not args.json:
        shown = " ".join(f"{k}={v}" for k, v in env)
        print(cat.render(t("Starting {program} {env}").format(
            program=json.dumps(program, ensure_ascii=False), env=shown).format()))
    report = service.launch_and_check(program, timeout_s=args.timeout, poll_s=args.interval, inventory=inventory)
    landed = report.report
    if args.json:
        _print_json({"pid": report.pid, "argv": list(report.argv), "env": dict(report.env), "outcome": report.outcome,
                     "waited_s": round(report.waited_s, 2), "returncode": report.returncode,
                     "notes": [str(n) for n in report.notes],
                     "process": process_json(landed, inventory) if landed else None})
    else:
        if report.outcome == "landed" and landed is not None:
            print(cat.render(t("Landed on: {verdict}").format(verdict=_verdict_text(landed, cat))))
        elif report.outcome == "exited":
            print(cat.render(t("The program ended after {seconds} s before it used a GPU").format(
                seconds=f"{report.waited_s:.1f}")))
        else:
            print(cat.render(t("No GPU work seen within {seconds} s").format(
                seconds=f"{report.waited_s:.0f}")))
        if landed is not None:
            for msg in landed.evidence:
                print("  - " + cat.render(msg))
        for note in report.notes:
            print(cat.render(note))
    return EXIT_OK if report.outcome == "landed" else EXIT_FAILED
