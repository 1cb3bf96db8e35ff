"""``python main.py power``: measure speed per watt at several power limits, and set, undo or keep a limit.

    power --sweep [--gpu N] [--seconds S] [--percent 100,80,60 | --limits 450,350] [--dry-run]
    power --set-limit W --gpu N [--dry-run]     power --undo [--gpu N] [--dry-run]
    power --keep --gpu N [--dry-run]            power --unkeep --gpu N [--dry-run]
    power --status [--gpu N]    power --list    power --show ID    power --compare ID ID

Every change is shown as the exact command first, recorded with the previous limit before it
runs, and undoable. A sweep puts the original limit back when it ends, fails or is stopped; if
it is killed, the next ``power`` command (or the app's next start) puts it back.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from cli import EXIT_FAILED, EXIT_NO_GPU, EXIT_OK, UsageError, cli_catalog, fail, info, note, render, warn
from services.i18n import Msg, translate
from services.power.model import COPY, MATMUL, UNITS, PowerError, Sweep, recommend, recommended_limit
from services.textwidth import display_width

HELP = "measure speed per watt at several power limits (a sweep); set, undo or keep a GPU's power limit"

KINDS = (MATMUL, COPY)
KIND_WORDS = {MATMUL: translate("Power", "matrix multiply (compute-bound: training, prompt processing)"),
              COPY: translate("Power", "memory copy (memory-bound: token generation)")}


def _type_error(message: Msg) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(cli_catalog().render(message))


def _numbers(low: float, high: float):
    def parse(text: str) -> list[float]:
        out: list[float] = []
        for part in text.split(","):
            try:
                value = float(part)
            except ValueError:
                raise _type_error(translate("Cli", "'{value}' is not a number").format(value=part.strip())) from None
            if not low <= value <= high:
                raise _type_error(translate("Cli", "must be between {low} and {high}").format(low=f"{low:g}", high=f"{high:g}"))
            out.append(value)
        return out
    return parse


def _number(low: float, high: float):
    many = _numbers(low, high)

    def parse(text: str) -> float:
        values = many(text)
        if len(values) != 1:
            raise _type_error(translate("Cli", "'{value}' is not a number").format(value=text))
        return values[0]
    return parse


def _kinds(text: str) -> list[str]:
    out = [k.strip() for k in text.split(",") if k.strip()]
    for k in out:
        if k not in KINDS:
            raise _type_error(translate("Power", "unknown workload '{value}' (choose from: matmul, copy)").format(value=k))
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--sweep", action="store_true", help="measure throughput and power at several limits, then restore the limit")
    action.add_argument("--set-limit", type=_number(1, 5000), metavar="W", help="set the GPU's power limit in watts")
    action.add_argument("--undo", action="store_true", help="put back the limit from before the app's last change")
    action.add_argument("--restore", action="store_true", help="put back a limit left by a sweep that was killed")
    action.add_argument("--keep", action="store_true", help="keep the current limit after a restart (systemd unit / scheduled task)")
    action.add_argument("--unkeep", action="store_true", help="remove what --keep installed")
    action.add_argument("--status", action="store_true", help="show the power limits and what the app has changed")
    action.add_argument("--list", action="store_true", help="list the saved sweeps")
    action.add_argument("--show", metavar="ID", help="show a saved sweep (its file name, the start of it, or a path)")
    action.add_argument("--compare", nargs=2, metavar=("ID", "ID"), help="compare two saved sweeps (before/after)")
    parser.add_argument("--gpu", type=int, default=0, metavar="N", help="GPU index (as nvidia-smi counts; default 0)")
    parser.add_argument("--dry-run", action="store_true", help="show the exact commands and change nothing")
    sweep = parser.add_argument_group("sweep")
    sweep.add_argument("--seconds", type=_number(5, 600), default=25.0, metavar="S", help="per limit and workload, warm-up included (default 25)")
    sweep.add_argument("--percent", type=_numbers(10, 150), metavar="P,P,...", help="limits as %% of the default (default 100,90,80,70,60)")
    sweep.add_argument("--limits", type=_numbers(1, 5000), metavar="W,W,...", help="limits in watts instead of --percent")
    sweep.add_argument("--workloads", type=_kinds, default=list(KINDS), metavar="matmul,copy")
    sweep.add_argument("--keep-percent", type=_number(50, 100), default=95.0, metavar="P", help="speed a recommended limit must keep (default 95)")
    sweep.add_argument("--python", metavar="PATH", help="the PyTorch environment's interpreter (default: python3, as the doctor)")
    sweep.add_argument("--yes", action="store_true", help="sweep even if another program is using the GPU")
    sweep.add_argument("--no-save", action="store_true", help="do not save the sweep with the recordings")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


# ---- the machine, replaceable in tests


def make_source() -> Any:
    from services.telemetry.nvml_source import NvmlSource

    return NvmlSource()


def make_runner() -> Any:
    from services.setup.system import SubprocessRunner

    return SubprocessRunner()


def make_workload(python: str | None) -> Any:
    from services.power.workload import TorchWorkloadRunner

    return TorchWorkloadRunner(python)


def sweep_clock() -> Any:
    import time

    return time.monotonic


def elevation() -> str:
    from services.power.limits import power_elevation

    return power_elevation(gui=False)


def system_name() -> str:
    return "windows" if sys.platform == "win32" else "linux"


def smi_present() -> bool:
    from services.power.persist import nvidia_smi_present

    return nvidia_smi_present(system_name())


# ---- run


def run(args: argparse.Namespace) -> int:
    if args.list:
        return _list(args)
    if args.show:
        return _show(args)
    if args.compare:
        return _compare(args)
    if args.keep or args.unkeep:
        return _keep(args)
    from services.power.limits import PowerLimitSetter, default_journal
    from services.power.sweep import GpuAccess, limit_reader

    source = make_source()
    status = source.open()
    try:
        if not source.devices():
            return fail(status.describe() or translate("Power", "no NVIDIA GPU found"), EXIT_NO_GPU)
        try:
            gpu = GpuAccess(source, args.gpu)
        except PowerError as exc:
            raise UsageError(exc.message) from None
        setter = PowerLimitSetter(make_runner(), default_journal(), elevation(), limit_reader(source))
        if not args.restore and not args.dry_run:
            _restore_interrupted(setter)
        if args.restore:
            return _restore(setter, args.dry_run)
        if args.status:
            return _status(gpu, setter, args.json)
        if args.undo:
            return _undo(gpu, setter, args)
        if args.set_limit is not None:
            return _set(gpu, setter, args)
        return _sweep(gpu, setter, args)
    finally:
        source.close()


def _shown(argv: tuple[str, ...]) -> str:
    from services.power.persist import Step

    return Step(argv).shown()


def _restore_interrupted(setter: Any) -> None:
    for outcome in setter.restore_interrupted_sweeps():
        note(translate("Power", "a sweep that did not finish had left a lower limit: {result}").format(result=outcome.message))


def _restore(setter: Any, dry_run: bool) -> int:
    outcomes = setter.restore_interrupted_sweeps(dry_run=dry_run)
    if not outcomes:
        print(render(translate("Power", "nothing to restore: no sweep left a power limit behind")))
        return EXIT_OK
    for o in outcomes:
        if o.command:
            print(_shown(o.command))
        print(render(o.message))
    return EXIT_OK if all(o.ok for o in outcomes) else EXIT_FAILED


def _status(gpu: Any, setter: Any, as_json: bool) -> int:
    from services.power.persist import kept_limit

    limits = gpu.limits()
    kept = kept_limit(system_name(), gpu.uuid)
    changes = [c for c in setter.journal.load() if c.uuid == gpu.uuid]
    if as_json:
        print(json.dumps({"gpu": gpu.index, "name": gpu.info.name, "uuid": gpu.uuid, "limits_w": limits._asdict(),
                          "kept_at_boot_w": kept, "changes": [asdict(c) for c in changes]},
                         indent=2))
        return EXIT_OK
    cat = cli_catalog()
    w = _w
    print(cat.render(translate("Power", "GPU {gpu} ({name}): power limit {current} W (default {default} W, allowed {low}-{high} W)").format(
        gpu=gpu.index, name=gpu.info.name, current=w(limits.current_w), default=w(limits.default_w),
        low=w(limits.min_w), high=w(limits.max_w))))
    for c in changes:
        print(cat.render(translate("Power", "changed by the app from {old} W to {new} W ({reason}); undo: python main.py power --undo --gpu {gpu}").format(
            old=w(c.previous_w), new=w(c.new_w), reason=c.reason, gpu=gpu.index)))
    if kept is not None:
        print(cat.render(translate("Power", "kept at {watts} W after a restart (python main.py power --unkeep --gpu {gpu} removes it)").format(
            watts=w(kept), gpu=gpu.index)))
    else:
        print(cat.render(RESETS_AT_REBOOT))
    return EXIT_OK


RESETS_AT_REBOOT = translate("Power", "A power limit resets when the computer restarts; to keep it, run: python main.py power --keep --gpu N")


def _w(value: float | None) -> str:
    return "?" if value is None else f"{value:g}"


def _set(gpu: Any, setter: Any, args: argparse.Namespace) -> int:
    from services.power.limits import REASON_USER, check_range

    limits = gpu.limits()
    try:
        check_range(args.set_limit, gpu.index, limits.min_w, limits.max_w)
    except PowerError as exc:
        raise UsageError(exc.message) from None
    if limits.current_w is None:
        return fail(translate("Power", "the card does not report its power limit"), EXIT_FAILED)
    cat = cli_catalog()
    command = setter.command(gpu.index, args.set_limit)
    print(cat.render(translate("Power", "command: {command}").format(command=_shown(command))))
    outcome = setter.apply(gpu.index, gpu.uuid, gpu.info.name, limits.current_w, args.set_limit, REASON_USER,
                           dry_run=args.dry_run)
    if not outcome.ok:
        return fail(outcome.message, EXIT_FAILED)
    print(cat.render(outcome.message))
    if not args.dry_run:
        print(cat.render(translate("Power", "undo: python main.py power --undo --gpu {gpu}").format(gpu=gpu.index)))
        print(cat.render(RESETS_AT_REBOOT))
    return EXIT_OK


def _undo(gpu: Any, setter: Any, args: argparse.Namespace) -> int:
    outcome = setter.undo_last(gpu.uuid, dry_run=args.dry_run)
    if outcome is None:
        print(render(translate("Power", "nothing to undo: the app has not changed GPU {gpu}'s power limit").format(gpu=gpu.index)))
        return EXIT_OK
    if outcome.command:
        print(_shown(outcome.command))
    if not outcome.ok:
        return fail(outcome.message, EXIT_FAILED)
    print(render(outcome.message))
    return EXIT_OK


def _keep(args: argparse.Namespace) -> int:
    from services.power.persist import keep_plan, keep_problem, run_steps
    from services.power.sweep import GpuAccess

    source = make_source()
    source.open()
    try:
        if not source.devices():
            return fail(translate("Power", "no NVIDIA GPU found"), EXIT_NO_GPU)
        try:
            gpu = GpuAccess(source, args.gpu)
        except PowerError as exc:
            raise UsageError(exc.message) from None
        watts = gpu.limits().current_w
    finally:
        source.close()
    if watts is None:
        return fail(translate("Power", "the card does not report its power limit"), EXIT_FAILED)
    # After the GPU: without a driver there is no nvidia-smi either, and "no NVIDIA GPU" says more.
    problem = keep_problem(system_name(), smi_present()) if args.keep else None
    if problem is not None and not args.dry_run:
        return fail(problem, EXIT_FAILED)
    plan = keep_plan(system_name(), gpu.uuid, watts)
    steps = plan.keep if args.keep else plan.undo
    cat = cli_catalog()
    if args.keep:
        print(cat.render(translate("Power", "keep GPU {gpu} at {watts} W after restarts ({where}); the commands:").format(
            gpu=gpu.index, watts=_w(watts), where=plan.where)))
    else:
        print(cat.render(translate("Power", "stop keeping GPU {gpu}'s limit after restarts ({where}); the commands:").format(
            gpu=gpu.index, where=plan.where)))
    for step in steps:
        print("  " + step.shown())
    if args.dry_run:
        if problem is not None:
            warn(problem)
        print(cat.render(translate("Power", "dry run: nothing was changed")))
        return EXIT_OK
    ok, message = run_steps(steps, make_runner(), elevation())
    if not ok:
        return fail(message, EXIT_FAILED)
    if args.keep:
        print(cat.render(translate("Power", "done; undo: python main.py power --unkeep --gpu {gpu}").format(gpu=gpu.index)))
        print("  " + "\n  ".join(s.shown() for s in plan.undo))
    else:
        print(cat.render(translate("Power", "done")))
    return EXIT_OK


# ---- the sweep


def _sweep(gpu: Any, setter: Any, args: argparse.Namespace) -> int:
    from services.power import store
    from services.power.sweep import DEFAULT_SHARES, SweepConfig, plan_limits, run_sweep
    from services.power.workload import workload_argv
    from services.power.model import WorkloadJob

    shares = tuple(p / 100.0 for p in args.percent) if args.percent else DEFAULT_SHARES
    config = SweepConfig(gpu.index, args.seconds, shares, tuple(args.limits or ()), tuple(args.workloads),
                         args.keep_percent / 100.0)
    limits = gpu.limits()
    planned = plan_limits(limits, config)
    cat = cli_catalog()
    workload = make_workload(args.python)
    if args.dry_run:
        minutes = len(planned) * len(config.kinds) * (config.seconds + 5) / 60
        print(cat.render(translate("Power", "sweep of GPU {gpu} ({name}) at {limits} W, about {minutes} minutes; the limit goes back to {current} W at the end").format(
            gpu=gpu.index, name=gpu.info.name, limits=", ".join(_w(w) for w in planned), minutes=f"{minutes:.1f}",
            current=_w(limits.current_w))))
        print(cat.render(translate("Power", "the commands:")))
        for w in planned:
            if limits.current_w is None or abs(w - limits.current_w) > 1:
                print("  " + _shown(setter.command(gpu.index, w)))
        for kind in config.kinds:
            job = WorkloadJob(kind, gpu.index, config.seconds, round(config.seconds * 0.35, 1))
            print("  " + " ".join(workload_argv(workload.python, job)))
        print("  " + _shown(setter.command(gpu.index, limits.current_w or planned[0])))
        print(cat.render(translate("Power", "dry run: nothing was changed")))
        return EXIT_OK
    busy = gpu.other_jobs()
    if busy and not args.yes:
        who = ", ".join(f"{name} (PID {pid}, {mib:.0f} MiB)" for pid, name, mib in busy)
        if sys.stdin.isatty():
            answer = input(cat.render(translate("Power", "GPU {gpu} is in use by {who}; the sweep would slow it down and measure it too. Sweep anyway? [y/N] ").format(
                gpu=gpu.index, who=who)))
            if answer.strip().lower() not in ("y", "yes", "是"):
                return EXIT_FAILED
        else:
            return fail(translate("Power", "GPU {gpu} is in use by {who}; stop it first, or pass --yes to sweep anyway").format(
                gpu=gpu.index, who=who), EXIT_FAILED)

    def progress(p: Any) -> None:
        info(translate("Power", "[{step}/{steps}] {watts} W: {kind} for {seconds} s").format(
            step=p.step, steps=p.steps, watts=_w(p.limit_w), kind=p.kind, seconds=f"{config.seconds:g}"), catalog=cat)

    try:
        sweep = run_sweep(gpu, setter, workload, config, on_progress=progress, clock=sweep_clock())
    except KeyboardInterrupt:
        now = gpu.limit_w()
        if now is not None and limits.current_w is not None and abs(now - limits.current_w) <= 1:
            note(translate("Power", "stopped; the power limit is back at {watts} W").format(watts=_w(now)), catalog=cat)
        else:
            warn(translate("Power", "stopped; the power limit is still {watts} W: the next power command or the app's next start puts it back").format(
                watts=_w(now)), catalog=cat)
        raise
    path = None
    if not args.no_save and sweep.points:
        try:
            path = store.save(sweep)
        except OSError as exc:
            warn(translate("Power", "could not save the sweep: {reason}").format(reason=exc.strerror or str(exc)), catalog=cat)
    if args.json:
        print(json.dumps({**sweep.to_json(), "saved": str(path) if path else None,
                          "recommended": {k: asdict(r) for k in sweep.kinds() if (r := recommend(sweep, k))}}, indent=2))
    else:
        print(render_sweep(sweep, cat))
        if path:
            print(cat.render(translate("Power", "saved: {path}").format(path=str(path))))
    for line in sweep.notes:
        warn(line, catalog=cat)
    if sweep.restored is False:
        return EXIT_FAILED
    return EXIT_OK if sweep.points else EXIT_FAILED


def render_sweep(sweep: Sweep, cat: Any) -> str:
    lines = [cat.render(translate("Power", "GPU {gpu} {name}, driver {driver}: default limit {default} W, allowed {low}-{high} W, {temp} °C at the start").format(
        gpu=sweep.gpu_index, name=sweep.gpu_name, driver=sweep.driver or "?", default=_w(sweep.default_limit_w),
        low=_w(sweep.min_limit_w), high=_w(sweep.max_limit_w), temp=_w(sweep.start_temperature_c)))]
    for kind in sweep.kinds():
        points = sweep.points_of(kind)
        full = points[0].value if points else 0
        unit = UNITS[kind]
        lines.append("")
        lines.append(cat.render(KIND_WORDS[kind]))
        capped = any(p.power_capped_share is not None for p in points)
        header = [cat.render(translate("Power", "limit W")), unit, "%", cat.render(translate("Power", "power W")),
                  f"{unit}/W", "SM MHz", "°C"] + ([cat.render(translate("Power", "capped"))] if capped else [])
        rows = [header]
        for p in points:
            row = [_w(p.limit_w), f"{p.value:.1f}", f"{100 * p.value / full:.0f}" if full else "?",
                   _w(p.power_w), f"{p.per_watt:.3f}" if p.per_watt else "?",
                   _w(round(p.sm_clock_mhz)) if p.sm_clock_mhz else "?",
                   _w(round(p.temperature_c)) if p.temperature_c is not None else "?"]
            if capped:
                row.append(f"{100 * p.power_capped_share:.0f}%" if p.power_capped_share is not None else "?")
            rows.append(row)
        widths = [max(display_width(r[i]) for r in rows) for i in range(len(header))]
        for r in rows:  # numbers right-aligned; CJK headers take two columns a character
            lines.append("  " + "  ".join(" " * (widths[i] - display_width(c)) + c for i, c in enumerate(r)))
        rec = recommend(sweep, kind)
        if rec is not None and points and rec.limit_w >= points[0].limit_w:
            lines.append(cat.render(translate("Power", "recommended: the full limit ({watts} W); every lower limit measured loses more than {loss}% of the speed").format(
                watts=_w(rec.limit_w), loss=f"{100 * (1 - sweep.keep_share):.0f}")))
        elif rec is not None:
            lines.append(cat.render(translate("Power", "recommended: {watts} W keeps {share}% of full speed at {gain}% more work per watt").format(
                watts=_w(rec.limit_w), share=f"{100 * rec.share:.0f}",
                gain=f"{100 * rec.per_watt_gain:+.0f}" if rec.per_watt_gain is not None else "?")))
    best = recommended_limit(sweep)
    if best is not None and sweep.original_limit_w is not None and best < sweep.original_limit_w - 1:
        lines.append("")
        lines.append(cat.render(translate("Power", "to use it: python main.py power --set-limit {watts} --gpu {gpu} (undo: power --undo)").format(
            watts=_w(best), gpu=sweep.gpu_index)))
    return "\n".join(lines)


def _load(name: str) -> Sweep:
    from services.power import store

    try:
        return store.load(store.resolve(name))
    except PowerError as exc:
        raise UsageError(exc.message) from None


def _list(args: argparse.Namespace) -> int:
    from services.power import store

    saved = store.list_saved()
    if args.json:
        print(json.dumps([{"file": str(s.path), "error": s.error, "gpu": s.sweep.gpu_name if s.sweep else None,
                           "points": len(s.sweep.points) if s.sweep else 0} for s in saved], indent=2))
        return EXIT_OK
    cat = cli_catalog()
    if not saved:
        print(cat.render(translate("Power", "no saved sweeps yet (python main.py power --sweep makes one)")))
    for s in saved:
        if s.sweep is None:
            print(f"{s.path.name}  {s.error}")
        else:
            best = recommended_limit(s.sweep)
            print(cat.render(translate("Power", "{file}  {name}, {points} points, recommended {watts} W").format(
                file=s.path.name, name=s.sweep.gpu_name, points=len(s.sweep.points), watts=_w(best))))
    return EXIT_OK


def _show(args: argparse.Namespace) -> int:
    sweep = _load(args.show)
    if args.json:
        print(json.dumps(sweep.to_json(), indent=2))
    else:
        print(render_sweep(sweep, cli_catalog()))
    return EXIT_OK


def _compare(args: argparse.Namespace) -> int:
    from services.power import store

    before, after = _load(args.compare[0]), _load(args.compare[1])
    rows = store.compare(before, after)
    if args.json:
        print(json.dumps([{"kind": r.kind, "limit_w": r.limit_w, "before": r.before, "after": r.after,
                           "change": r.change, "before_power_w": r.before_power_w, "after_power_w": r.after_power_w}
                          for r in rows], indent=2))
        return EXIT_OK
    cat = cli_catalog()
    print(cat.render(translate("Power", "before: {a} ({da}); after: {b} ({db})").format(
        a=Path(args.compare[0]).name, da=before.gpu_name, b=Path(args.compare[1]).name, db=after.gpu_name)))
    for r in rows:
        change = f"{100 * r.change:+.1f}%" if r.change is not None else "-"
        print(f"  {r.kind:6} {_w(r.limit_w):>5} W  {_v(r.before):>8} -> {_v(r.after):>8} {UNITS[r.kind]}  {change}")
    return EXIT_OK


def _v(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
