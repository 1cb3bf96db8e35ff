"""GPU Assistant: the composition root.

``python main.py`` opens the app; ``python main.py <command>`` runs a headless
command (``--help`` lists them). Headless commands never import Qt.
"""
from __future__ import annotations

import argparse
import os
import sys

from services.cli import (
    COMMANDS, EXIT_USAGE, UsageError, available_commands, check_path_options, command_available, fail, load_command,
)
from services.console import configure_output
from services.version import APP_ID, APP_NAME, __version__


# App options, and those of them that take a value: a command line made only of these starts the
# window, which does not need the command modules (loading them all costs about a third of a second).
APP_FLAGS = {"--demo", "--self-test", "--minimized", "--version"}
APP_VALUE_OPTIONS = {"--replay", "--screenshot", "--page", "--lang", "--window-size"}


def _words(argv: list[str]):
    """Each word of ``argv`` that is not the value of an app option (``--page fit`` skips ``fit``)."""
    expect_value = False
    for arg in argv:
        if expect_value:
            expect_value = False
        elif arg in APP_VALUE_OPTIONS:
            expect_value = True
        else:
            yield arg


def command_named(argv: list[str], commands: dict[str, str]) -> str | None:
    """The command ``argv`` runs (its first word that is not an app option), or None.

    ``main.py monitor --once`` then builds the parser of ``monitor`` alone: importing every
    command (the exporter's HTTP server, the recorder, numpy, the model-fit estimator) would
    cost a one-shot snapshot several times its own run time.
    """
    for arg in _words(argv):
        if arg.startswith("-"):
            if arg in ("-h", "--help"):
                return None  # the whole list of commands
            continue
        return arg if arg in commands else None
    return None


def names_a_command(argv: list[str] | None) -> bool:
    """False only when ``argv`` holds nothing but app options; help, commands and typos get the full parser."""
    if argv is None:
        return True
    return any(not (arg in APP_FLAGS or arg.split("=", 1)[0] in APP_VALUE_OPTIONS) for arg in _words(argv))


class _AppDemoAction(argparse.Action):
    """``--demo`` before a command: remembered apart from ``args.demo``, which a command's own
    ``--demo`` (exporter) would overwrite with its default when argparse merges the sub-namespace."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # noqa: ANN001
        namespace.demo = True
        namespace.app_demo = True


def apply_app_demo(args: argparse.Namespace, module) -> None:  # noqa: ANN001
    """``main.py --demo monitor ...``: the command runs on its simulated source, or says it has none."""
    if not getattr(args, "app_demo", False):
        return
    use_demo = getattr(module, "use_demo_source", None)
    if use_demo is None:
        raise UsageError(f"--demo is for the app and for the commands with a simulated source "
                         f"(monitor, exporter), not for '{args.command}'")
    use_demo(args)


def window_size(text: str) -> tuple[int, int]:
    """``1024x640`` -> (1024, 640); argparse turns the ValueError into a one-line usage error."""
    width, sep, height = text.lower().partition("x")
    try:
        size = (int(width), int(height)) if sep else None
    except ValueError:
        size = None
    if size is None or not (320 <= size[0] <= 10000 and 240 <= size[1] <= 10000):
        raise argparse.ArgumentTypeError(f"--window-size needs WIDTHxHEIGHT in pixels, e.g. 1024x640, not {text!r}")
    return size


class OneLineParser(argparse.ArgumentParser):
    """Bad usage is one line plus where to look, not argparse's whole usage block (exit 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see: {self.prog} --help)\n")


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    parser = OneLineParser(
        # In the bundle the user typed "gpu-assistant", not "main.py".
        prog=APP_ID if getattr(sys, "frozen", False) else "main.py",
        description=f"{APP_NAME}: set up, watch and size NVIDIA GPUs for AI work.",
    )
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    gui = parser.add_argument_group("app options")
    gui.add_argument("--demo", action=_AppDemoAction, nargs=0, default=False,
                     help="run on the simulated two-GPU training run (also before 'monitor' and 'exporter')")
    gui.add_argument("--replay", metavar="FILE", help="open a recording or an nvidia-smi CSV log")
    gui.add_argument("--screenshot", metavar="FILE.png", help="render the main window to a PNG and exit")
    gui.add_argument("--page", metavar="NAME", help="page to show first (dashboard, setup, hybrid, psu, fit, hosts, settings)")
    gui.add_argument("--lang", choices=["en", "zh_CN"], help="language for this run")
    gui.add_argument("--window-size", metavar="WxH", type=window_size,
                     help="the window's size, e.g. 1024x640 (with --screenshot: the picture's size; default 1280x820)")
    gui.add_argument("--self-test", action="store_true", help="open every page offscreen and run one estimate each")
    gui.add_argument("--minimized", action="store_true",
                     help="start in the tray without showing the window (used when starting with the system)")
    chosen = command_named(argv, COMMANDS) if argv is not None else None
    if chosen is not None and command_available(chosen):
        commands = {chosen: COMMANDS[chosen]}
    else:
        commands = available_commands() if names_a_command(argv) else {}
    if commands:
        sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
        for name in commands:
            try:
                module = load_command(name)
            except ImportError as exc:
                # One command's missing package must not take the others (or --help) down.
                # No option prefix: whatever follows is swallowed, so the message below is what the user sees.
                broken = sub.add_parser(name, help=f"(unavailable: {exc.name or exc} is not installed)",
                                        prefix_chars="\x00", add_help=False)
                broken.add_argument("rest", nargs="*")
                broken.set_defaults(unavailable=f"the {name} command needs the Python package "
                                                f"'{exc.name or exc}': run the setup command from README.md")
                continue
            cmd_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
            module.add_arguments(cmd_parser)
    return parser


def ensure_std_streams() -> None:
    """A windowed Windows build (gpu-assistant.exe) has no console: sys.stdout and sys.stderr are
    None there, and the first print would raise. Send them to the null device instead; the console
    twin gpu-assistant-cli.exe is the one for text output."""
    if sys.stdout is None or sys.stderr is None:
        sink = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
        sys.stdout = sys.stdout or sink
        sys.stderr = sys.stderr or sink


def quiet_closed_pipe() -> None:
    """``main.py fit --json | head`` closed our stdout: what was wanted was delivered."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def run_captured(name: str, argv: list[str]) -> tuple[int | None, str, str]:
    """Run one headless command in this process with its output captured: (exit code, stdout,
    stderr), or (None, "", "") when this build has no such command. The GUI's self-test runs the
    calculators through it without the GUI importing the command-line front end."""
    import contextlib
    import io

    if name not in available_commands():
        return None, "", ""
    module = load_command(name)
    parser = argparse.ArgumentParser(prog=name)
    module.add_arguments(parser)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = module.run(parser.parse_args(argv))
        except SystemExit as exc:  # argparse refused the arguments
            code = exc.code if isinstance(exc.code, int) else EXIT_USAGE
        except UsageError as exc:
            print(f"error: {exc}", file=sys.stderr)
            code = EXIT_USAGE
    return code, out.getvalue(), err.getvalue()


command_ran = False  # main() ran a headless command in this process (not the window)


def run_command(args: argparse.Namespace) -> int:
    """One headless command, with bad usage, Ctrl-C and a closed pipe handled alike."""
    global command_ran
    command_ran = True
    module = load_command(args.command)
    try:
        check_path_options(args)
        apply_app_demo(args, module)
        code = module.run(args)
        sys.stdout.flush()
        return code
    except UsageError as exc:
        return fail(str(exc), EXIT_USAGE)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        quiet_closed_pipe()
        return 0


def main(argv: list[str] | None = None) -> int:
    ensure_std_streams()
    configure_output()  # piped output on a Windows code page (1252, 936) degrades instead of raising
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if getattr(args, "unavailable", None):
        return fail(args.unavailable, 1)
    if getattr(args, "command", None):
        if not args.lang:
            return run_command(args)
        # "--lang zh_CN psu ...": the command speaks that language this run (and only this
        # run: main() is also called in-process, by the tests and the self-test).
        from services.i18n import LANGUAGE_OVERRIDE_ENV

        before = os.environ.get(LANGUAGE_OVERRIDE_ENV)
        os.environ[LANGUAGE_OVERRIDE_ENV] = args.lang
        try:
            return run_command(args)
        finally:
            if before is None:
                os.environ.pop(LANGUAGE_OVERRIDE_ENV, None)
            else:
                os.environ[LANGUAGE_OVERRIDE_ENV] = before
    try:
        check_path_options(args)
    except UsageError as exc:
        return fail(str(exc), EXIT_USAGE)
    if args.screenshot is not None and not args.screenshot.lower().endswith(".png"):
        # The picture is always PNG; any other name would overwrite that file with PNG bytes.
        return fail(f"--screenshot needs a file name ending in .png, not {args.screenshot!r}", EXIT_USAGE)
    if args.screenshot:
        from pathlib import Path

        from services.cli import check_output_file

        try:  # before any window is built: a missing folder or a file in the way is bad input
            check_output_file(Path(args.screenshot))
        except UsageError as exc:
            return fail(f"--screenshot: {exc}", EXIT_USAGE)
    from services.platform_check import gui_start_problem

    problem = gui_start_problem(offscreen=bool(args.screenshot or args.self_test))
    if problem:
        print(problem, file=sys.stderr)
        return 4
    from gui.app import run_app
    from services.program import start_up_done

    start_up_done()  # the window keeps running: the collector's normal pace from here on
    return run_app(args, run_captured)


if __name__ == "__main__":
    from services.program import collect_less_while_starting, end_now_if_done

    collect_less_while_starting()  # until what keeps running says it has started (start_up_done)
    exit_code = main()
    if command_ran:  # a finished headless command; the window's teardown is left to the interpreter
        end_now_if_done(exit_code)
    sys.exit(exit_code)
