"""GPU Assistant: the composition root.

``python main.py`` opens the app; ``python main.py <command>`` runs a headless
command (``--help`` lists them). Headless commands never import Qt. The parser and
the running of a command are the command line's front end (``cli/front.py``);
this file decides between a command and the window, and wires the window's inputs.
"""
from __future__ import annotations

if __name__ == "__main__":  # before the first import: start-up makes objects that all live on
    from services.program import collect_less_while_starting

    collect_less_while_starting()  # until what keeps running says it has started (start_up_done)

import argparse
import sys

from cli import EXIT_FAILED, EXIT_USAGE, cli_catalog, fail, note
from cli.front import (
    app_usage_problem, build_parser, ensure_std_streams, lang_option, run_captured, run_command, run_language,
)
from services.console import configure_output
from services.i18n import translate


def open_app_inputs(args: argparse.Namespace) -> tuple[int | None, object | None]:
    """The window's own inputs, checked before it is built (Qt is known to load by now): the page
    named, and the ``--replay`` file opened once. Returns (exit code or None, the replay source)."""
    from gui.pages import PAGES

    keys = [spec.key for spec in PAGES]
    if args.page is not None and args.page not in keys:  # bad usage: say so, do not open some other page
        return fail(translate("Cli", "unknown page {page}; pages: {pages}").format(
            page=repr(args.page), pages=", ".join(keys)), EXIT_USAGE), None
    if not args.replay or args.self_test:
        return None, None
    from services.telemetry.replay import open_replay, text_progress
    from services.telemetry.replay_errors import ReplayError

    try:
        source = open_replay(args.replay, progress=text_progress(args.replay, sys.stderr, render=cli_catalog().render))
    except ReplayError as exc:
        return fail(exc.message, EXIT_USAGE), None
    for line in source.notes:  # what a damaged or huge file left out, said once
        note(line)
    return None, source


command_ran = False  # main() ran a headless command in this process (not the window)


def main(argv: list[str] | None = None) -> int:
    global command_ran
    ensure_std_streams()
    configure_output()  # piped output on a Windows code page (1252, 936) degrades instead of raising
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    with run_language(lang_option(argv)):
        args = parser.parse_args(argv)
    with run_language(args.lang):
        if getattr(args, "unavailable", None):
            return fail(args.unavailable, EXIT_FAILED)
        if getattr(args, "command", None):
            command_ran = True
            return run_command(args)
        problem = app_usage_problem(args)
    if problem is not None:
        return problem
    from services.platform_check import gui_start_problem

    problem = gui_start_problem(offscreen=bool(args.screenshot or args.self_test))
    if problem:
        print(problem, file=sys.stderr)
        return 4
    with run_language(args.lang):
        problem, replay_source = open_app_inputs(args)
    if problem is not None:
        return problem
    from gui.app import run_app
    from services.program import start_up_done

    start_up_done()  # the window keeps running: the collector's normal pace from here on
    return run_app(args, run_captured, replay_source)


if __name__ == "__main__":
    from services.program import end_now_if_done

    exit_code = main()
    if command_ran:  # a finished headless command; the window's teardown is left to the interpreter
        end_now_if_done(exit_code)
    sys.exit(exit_code)
