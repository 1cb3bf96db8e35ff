"""``python main.py setup``: show the driver + CUDA + PyTorch plan, run or undo one step."""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cli import CANNOT_READ, EXIT_FAILED, EXIT_NO_GPU, EXIT_OK, UsageError, cli_catalog, fail, program_name, refuse_empty
from cli import note as print_note
from services.i18n import translate

HELP = "show the driver/CUDA/PyTorch install plan for this machine; run, dry-run, check or undo one step"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--plan", action="store_true", help="print the whole plan (nothing runs)")
    what.add_argument("--status", action="store_true", help="run every step's check and show what is already done")
    what.add_argument("--run", metavar="STEP", help="run one step (its commands are shown first)")
    what.add_argument("--undo", metavar="STEP", help="undo one step (restore backed-up files / registry values)")
    parser.add_argument("--os-release", metavar="FILE", help="plan for this os-release file instead of this machine")
    parser.add_argument("--windows", action="store_true", help="plan for Windows (clean reinstall with DDU) instead of this machine")
    parser.add_argument("--gpu", metavar="CARD", help="plan for this card: a name or model number (4090, 'RTX 3060') or a PCI id (10de:2684)")
    parser.add_argument("--python", metavar="PATH", help="the Python environment the PyTorch step installs into")
    parser.add_argument("--driver-package", metavar="EXE", help="Windows: the NVIDIA offline driver package you downloaded (remembered for this machine's plan)")
    parser.add_argument("--ddu", metavar="EXE", help="Windows: 'Display Driver Uninstaller.exe' you downloaded (remembered for this machine's plan)")
    parser.add_argument("--full", action="store_true",
                        help="reinstall everything: every step, also those the doctor found not needed (Windows: the DDU clean reinstall)")
    parser.add_argument("--dry-run", action="store_true", help="with --run/--undo: print every action, change nothing")
    parser.add_argument("--yes", action="store_true", help="with --run/--undo: do not ask for confirmation")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


@dataclass(frozen=True, slots=True)
class SetupRequest:
    """What the command line asks for, checked (``parse_request``)."""

    python: str | None  # the interpreter the PyTorch step installs into
    python_how: str  # given | venv | conda | path (services.setup.machine)
    device_id: str | None  # --gpu, resolved by name or PCI id
    card_name: str
    os_info: Any  # OsInfo of --os-release / --windows; None: this machine
    full: bool
    driver_package: str
    ddu: str

    @property
    def hypothetical(self) -> bool:
        """A plan for another machine: it is only described."""
        return self.os_info is not None


@dataclass
class PlannedSetup:
    """The plan and what runs, checks and describes its steps (``make_plan``)."""

    plan: Any  # services.setup.plan.Plan
    executor: Any  # services.setup.executor.StepExecutor
    session: Any  # services.setup.session.WizardSession
    report: Any = None  # the doctor's report, for this machine's plan
    work: Path = Path()
    win_opts: Any = None


def run(args: argparse.Namespace) -> int:
    from services.setup.rules import RulesError, load_rules

    try:
        rules = load_rules()
    except RulesError as exc:
        raise UsageError(exc.message) from exc
    request = parse_request(args, rules)
    planned = make_plan(request, rules)
    if planned is None:
        return fail(translate("Cli", "no NVIDIA GPU found on this machine; pass --gpu CARD to plan anyway"), EXIT_NO_GPU)
    cat = cli_catalog()
    if args.plan:
        return show_plan(planned, args.json, cat)
    if request.hypothetical and (args.run is not None or args.undo is not None or args.status):
        raise UsageError(translate("Cli", "--os-release/--windows only describe a plan; --run, --undo and --status "
                                           "work on this machine"))
    if args.status:
        return show_status(planned, args.json, cat)
    return run_or_undo(planned, request, rules, args, cat)


# ---- 1. parse ---------------------------------------------------------------------------------------
def parse_request(args: argparse.Namespace, rules) -> SetupRequest:
    from cli.doctor import chosen_python
    from services.setup.card_lookup import PciIdError, resolve_card
    from services.setup.os_release import OsInfo, parse_os_release

    refuse_empty(args.python, "--python")
    python, python_how = chosen_python(args)
    device_id, card_name = None, ""
    if args.gpu is not None:  # --gpu "" is a bad card, not "no --gpu"
        try:
            device_id, card_name = resolve_card(rules, args.gpu)
        except PciIdError as exc:
            raise UsageError(exc.message) from exc
    os_info = None
    if args.os_release:
        text = read_os_release(args.os_release)
        os_info = parse_os_release(text)
        if not os_info.id:
            raise UsageError(translate("Cli", "{path} is not an os-release file (no ID= line)").format(path=args.os_release))
    elif args.windows:
        os_info = OsInfo(system="windows", pretty_name="Windows")
    return SetupRequest(python, python_how, device_id, card_name, os_info, args.full,
                        args.driver_package or "", args.ddu or "")


def read_os_release(path: str) -> str:
    """The text of the os-release file the user names, bounded: a file far larger than any
    os-release, or with a line longer than any os-release value, is refused with a message
    (never read whole, never a line silently left out of the plan)."""
    from services.setup.os_release import OS_RELEASE_MAX_BYTES, OS_RELEASE_MAX_LINE, os_release_long_line

    try:
        with open(path, "rb") as fh:
            data = fh.read(OS_RELEASE_MAX_BYTES + 1)
    except OSError as exc:
        raise UsageError(CANNOT_READ.format(path=path, reason=exc.strerror or str(exc))) from exc
    if len(data) > OS_RELEASE_MAX_BYTES:
        raise UsageError(translate("Cli", "{path} is larger than {size} KiB: not an os-release file").format(
            path=path, size=OS_RELEASE_MAX_BYTES // 1024))
    text = data.decode("utf-8", errors="replace")
    long_line = os_release_long_line(text)
    if long_line is not None:
        raise UsageError(translate("Cli", "{path}: line {line} is longer than {limit} characters: not an os-release file").format(
            path=path, line=long_line, limit=OS_RELEASE_MAX_LINE))
    return text


# ---- 2. call the services -----------------------------------------------------------------------------
def make_plan(request: SetupRequest, rules) -> PlannedSetup | None:
    """The plan (this machine's from the doctor, or another machine's), its progress, executor and
    session; None when this machine has no NVIDIA GPU and no --gpu was given."""
    from services.paths import AppPaths
    from services.setup.doctor import run_doctor
    from services.setup.elevation import default_elevation
    from services.setup.executor import StepExecutor
    from services.setup.planner import facts_for_plan, inputs_for, plan_for_os, plan_for_report, setup_dir
    from services.setup.progress import ProgressStore
    from services.setup.session import WizardSession
    from services.setup.system import SubprocessRunner, SystemRoot
    from services.setup.target_systems import target_paths
    from services.setup.windows_plan import WindowsPlanOptions

    work = setup_dir(AppPaths.default())
    root = SystemRoot()
    runner = SubprocessRunner()
    progress = ProgressStore(work / "progress.json").load()
    if progress.load_problem_text:
        print_note(progress.load_problem_text)
    # The files picked for this machine (here or on the Setup page) stay picked: --ddu and
    # --driver-package are remembered in progress.json, and a plan for this machine uses them.
    picking = WizardSession(progress, preview=request.hypothetical)
    for option, value in (("driver_package", request.driver_package), ("ddu_exe", request.ddu)):
        if value:
            picking.pick_file(option, value)
    picked = {} if request.hypothetical else picking.picked_files()
    win_opts = WindowsPlanOptions(driver_package=request.driver_package or picked.get("driver_package", ""),
                                  ddu_exe=request.ddu or picked.get("ddu_exe", ""))
    report = None
    if request.hypothetical:  # another machine: its own paths, never this host's (a Linux plan made on Windows too)
        target_root, staging, venv_dir = target_paths(request.os_info, work / "staged")
        inputs = inputs_for(rules, target_root, staging, request.device_id, name=request.card_name,
                            python=request.python, probe_files=False, venv_dir=venv_dir)
        plan = plan_for_os(request.os_info, inputs, rules, win_opts)
    else:
        report = run_doctor(runner, rules, python=request.python, python_how=request.python_how)
        if report.gpu is None and request.device_id is None:
            return None
        if request.device_id is not None:
            f = report.facts
            inputs = inputs_for(rules, root, work / "staged", request.device_id, name=request.card_name,
                                secure_boot=f.secure_boot, kernel=f.os.kernel if f.os else "", python=request.python,
                                **facts_for_plan(f))
            plan = plan_for_os(f.os, inputs, rules, win_opts)
        else:
            plan = plan_for_report(report, rules, root, work / "staged", win_opts, full=request.full)
    if request.hypothetical:
        # Another machine: nothing of this one is read (its files, its progress), and the commands
        # are written for a user there, with sudo, as the Setup page's plan for another machine.
        progress = ProgressStore(work / "preview-progress.json")
        executor = StepExecutor(runner, root, progress, work / "backups", system=plan.system, probe_files=False,
                                elevation="uac" if plan.system == "windows" else "sudo")
    else:
        progress.adopt(plan)
        executor = StepExecutor(runner, root, progress, work / "backups",
                                elevation=default_elevation(plan.system, gui=False, root=root), system=plan.system)
    # The step states and what "run" means, as the Setup page has them.
    return PlannedSetup(plan, executor, WizardSession(progress, plan), report, work, win_opts)


# ---- 3. render -------------------------------------------------------------------------------------------
def show_plan(planned: PlannedSetup, as_json: bool, cat) -> int:
    if as_json:
        data = planned.plan.to_json()
        states = planned.session.states()
        for s in data["steps"]:
            s["state"] = states[s["id"]]
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(render_plan(planned.plan, planned.executor, planned.session, cat))
    return EXIT_OK


def show_status(planned: PlannedSetup, as_json: bool, cat) -> int:
    from services.setup.fmt import pad_columns, setup_word

    plan, session = planned.plan, planned.session
    results = {s.id: planned.executor.check(s) for s in plan.steps}
    session.checks = {k: r.state for k, r in results.items()}
    states = session.states()
    rows = [{"id": s.id, "check": results[s.id].state, "detail": results[s.id].detail, "state": states[s.id]}
            for s in plan.steps]
    if as_json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:  # JSON keeps the codes; the table says them in words
            check, state = cat.render(setup_word(r["check"])), cat.render(setup_word(r["state"]))
            print(f"{r['id']:24} {pad_columns(check, 10)} {pad_columns(state, 8)} {r['detail']}".rstrip())
    return EXIT_OK


def run_or_undo(planned: PlannedSetup, request: SetupRequest, rules, args: argparse.Namespace, cat) -> int:
    from services.setup.fmt import command_line, confirm_question, nothing_changed
    from services.setup.planner import plan_for_report
    from services.setup.session import BY_HAND, DRY_RUN, NEEDS_FILE

    plan, executor, session = planned.plan, planned.executor, planned.session
    undo = args.undo is not None
    step_id = args.undo if undo else args.run
    step = plan.step(step_id)
    if step is None and undo and planned.report is not None and request.device_id is None:
        # A step the repair plan leaves out may still have run before (or in a full plan).
        from services.setup.system import SystemRoot

        step = plan_for_report(planned.report, rules, SystemRoot(), planned.work / "staged", planned.win_opts,
                               full=True).step(step_id)
    if step is None:
        skipped = next((x for x in plan.skipped if x.step.id == step_id), None)
        if skipped is not None:
            raise UsageError(translate("Cli", "step '{step}' is not in this plan ({reason}); add --full to run it "
                                              "anyway").format(step=step_id, reason=skipped.reason))
        raise UsageError(translate("Cli", "no step '{step}' in this plan; steps: {steps}").format(
            step=step_id, steps=", ".join(s.id for s in plan.steps)))
    lines = executor.describe(step, undo=undo, plan=plan, tr=cat.tr)
    print(cat.render(step.title))
    for line in lines:
        print("  " + line)
    mode = session.undo_mode(dry=args.dry_run) if undo else session.run_mode(step, dry=args.dry_run)
    if mode == DRY_RUN:
        print(cat.render(executor.dry_run(step).message) if not undo else cat.render(executor.undo(step, dry_run=True).message))
        return EXIT_OK
    if mode == NEEDS_FILE:  # before any question about restarting
        raise UsageError(translate("Cli", "choose the file first: {what} (pass it with --ddu or --driver-package)").format(
            what=session.missing_file(step)))
    if mode == BY_HAND:
        print(cat.render(step.explanation))
        if step.link:
            print(step.link)
        return EXIT_OK
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError(translate("Cli", "refusing to change the system without confirmation: add --yes (or --dry-run)"))
        try:
            answer = input(cat.render(confirm_question())).strip().lower()
        except EOFError:  # Ctrl-D at the question is a "no", not a traceback
            print()
            answer = ""
        if answer not in ("y", "yes"):
            print(cat.render(nothing_changed()))
            return EXIT_OK
    outcome = executor.undo(step) if undo else executor.run(step, on_line=print, plan=plan)
    if undo:
        for entry in outcome.log:  # an undo reports its commands like a run does
            print("$ " + command_line(entry.argv, plan.system == "windows"))
            if entry.output.strip():
                print(entry.output.rstrip())
    print(cat.render(outcome.message))
    if outcome.ok and step.needs_reboot and not undo:
        print(cat.render(step.explanation))
    return EXIT_OK if outcome.ok else EXIT_FAILED


def render_plan(plan, executor, session, cat) -> str:
    from services.setup.fmt import flags_label, setup_word, skipped_heading, undo_hint
    from services.setup.session import step_flags

    out = [cat.render(plan.summary)]
    if getattr(plan, "outcome", None) is not None:  # the driver it ends with and the PyTorch build for it
        from services.setup.linux_plans import outcome_summary

        out.append("  = " + cat.render(outcome_summary(plan.outcome)))
    for note in plan.notes:
        out.append("  * " + cat.render(note))
    out.append("")
    states = session.states()
    for i, s in enumerate(plan.steps, 1):
        flags = [setup_word(f) for f in step_flags(s, plan.system)]
        state = states[s.id]
        shown_state = cat.render(setup_word(state))
        out.append(f"{i}. [{s.id}] {cat.render(s.title)}" + (f"  {cat.render(flags_label(flags))}" if flags else "") + (f"  <{shown_state}>" if state != "pending" else ""))
        out.append("   " + cat.render(s.explanation))
        for line in executor.describe(s, plan=plan, tr=cat.tr):
            out.append("     " + line)
        if s.link:
            out.append("     " + s.link)
        if s.undoable:
            out.append("   " + cat.render(undo_hint(f"{program_name()} setup --undo {s.id}")))
        out.append("")
    if plan.skipped:
        out.append(cat.render(skipped_heading(f"{program_name()} setup --plan --full")))
        for x in plan.skipped:
            out.append(f"   - [{x.step.id}] {cat.render(x.step.title)}: {cat.render(x.reason)}")
    return "\n".join(out).rstrip()
