"""The command line's front end: the parser of the app's options and the commands, and running one
command with bad usage, Ctrl-C, a closed pipe and a full disk handled alike.

``main.py`` (the composition root) calls it; it lives here, not in ``main.py``, because a script is
compiled on every run and a module's bytecode is cached: a few ms of every command's start-up.
"""
from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import sys

from cli import (
    CANNOT_USE, COMMANDS, EXIT_FAILED, EXIT_USAGE, UsageError, available_commands, check_path_options, cli_catalog,
    command_available, fail, load_command,
)
from services.i18n import LANGUAGE_OVERRIDE_ENV, LANGUAGES, Msg, TranslatableError, translate
from services.version import APP_ID, APP_NAME, __version__


# App options, and those of them that take a value: a command line made only of these starts the
# window, which does not need the command modules (loading them all costs about a third of a second).
APP_FLAGS = {"--demo", "--self-test", "--minimized", "--version", "--record"}
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

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        namespace.demo = True
        namespace.app_demo = True


def apply_app_demo(args: argparse.Namespace, module) -> None:
    """``main.py --demo monitor ...``: the command runs on its simulated source, or says it has none."""
    if not getattr(args, "app_demo", False):
        return
    use_demo = getattr(module, "use_demo_source", None)
    if use_demo is None:
        raise UsageError(translate("Cli", "--demo is for the app and for the commands with a simulated source "
                                          "(monitor, exporter), not for '{command}'").format(command=args.command))
    use_demo(args)


def window_size(text: str) -> tuple[int, int]:
    """``1024x640`` -> (1024, 640); argparse turns the ValueError into a one-line usage error."""
    width, sep, height = text.lower().partition("x")
    try:
        size = (int(width), int(height)) if sep else None
    except ValueError:
        size = None
    if size is None or not (320 <= size[0] <= 10000 and 240 <= size[1] <= 10000):
        # Raised while parsing, where ``main`` has already set this run's language.
        raise argparse.ArgumentTypeError(cli_catalog().render(translate(
            "Cli", "--window-size needs WIDTHxHEIGHT in pixels, e.g. 1024x640, not {value}").format(value=repr(text))))
    return size


PARSE_ERROR = translate("Cli", "{prog}: error: {message} (see: {prog} --help)")

# argparse's own sentences, as it hands them to its module-level gettext functions (``argparse._`` and
# ``argparse.ngettext``, Python 3.10 to 3.14), with its %-placeholders written as {names}, in the
# order argparse has them. ``argparse_gettext`` (set as argparse's ``_`` below) says a sentence
# listed here in the run's language, still as a %-template: argparse fills in the option names,
# values and choices itself. A sentence not listed here stays argparse's English.
ARGUMENT_SENTENCE = translate("Cli", "argument {argument}: {message}")
ARGPARSE_SENTENCES = (
    ARGUMENT_SENTENCE,
    translate("Cli", "the following arguments are required: {arguments}"),
    translate("Cli", "one of the arguments {arguments} is required"),
    translate("Cli", "unrecognized arguments: {arguments}"),
    translate("Cli", "not allowed with argument {argument}"),
    translate("Cli", "ignored explicit argument {value}"),
    translate("Cli", "expected one argument"),
    translate("Cli", "expected at most one argument"),
    translate("Cli", "expected at least one argument"),
    translate("Cli", "expected {count} argument"),
    translate("Cli", "expected {count} arguments"),
    translate("Cli", "invalid choice: {value}, maybe you meant {closest}? (choose from {choices})"),  # 3.14
    translate("Cli", "invalid choice: {value} (choose from {choices})"),
    translate("Cli", "invalid {type} value: {value}"),
    translate("Cli", "ambiguous option: {option} could match {matches}"),
    translate("Cli", "unexpected option string: {option}"),
    translate("Cli", "unknown parser {parser} (choices: {choices})"),
)
_PERCENT_SPEC = re.compile(r"%(?:\(\w+\))?[sr]")
_BRACE_NAME = re.compile(r"\{(\w+)\}")
_templates: dict[str, tuple[Msg, dict[str, str]] | None] = {}  # argparse's msgid -> our sentence, its specs


def _template_of(msgid: str) -> tuple[Msg, dict[str, str]] | None:
    """Our sentence whose text is ``msgid`` with its %-specs as {names}, and each name's spec."""
    if msgid not in _templates:
        found = None
        literal, specs = _PERCENT_SPEC.split(msgid), _PERCENT_SPEC.findall(msgid)
        for template in ARGPARSE_SENTENCES:
            parts = _BRACE_NAME.split(template.text)
            if parts[0::2] == literal and len(parts[1::2]) == len(specs):
                found = (template, dict(zip(parts[1::2], specs, strict=True)))
                break
        _templates[msgid] = found
    return _templates[msgid]


def argparse_gettext(msgid: str) -> str:
    """argparse's ``_``: ``msgid`` in the run's language, a %-template argparse then fills in."""
    known = _template_of(msgid) if isinstance(msgid, str) else None  # argparse may pass None (an empty title)
    if known is None:
        return msgid  # help texts, "usage: ", a sentence of a newer Python: argparse's own
    template, specs = known
    translated = cli_catalog().tr(template.context, template.text)
    pieces = _BRACE_NAME.split(translated)
    if any(name not in specs for name in pieces[1::2]):
        return msgid  # a translation with a placeholder argparse does not fill: keep argparse's
    return "".join(piece.replace("%", "%%") if i % 2 == 0 else specs[piece] for i, piece in enumerate(pieces))


def argparse_ngettext(singular: str, plural: str, n: int) -> str:
    """argparse's ``ngettext`` (our catalogue has one sentence per English form)."""
    return argparse_gettext(singular if n == 1 else plural)


# argparse's translation hook (it calls these module-level names for every sentence it says;
# https://docs.python.org/3/library/argparse.html#translations).
argparse._ = argparse_gettext  # type: ignore[attr-defined]
argparse.ngettext = argparse_ngettext  # type: ignore[attr-defined]


class OneLineParser(argparse.ArgumentParser):
    """Bad usage is one line plus where to look, not argparse's whole usage block (exit 2).
    argparse's sentence follows the run's language (``argparse_gettext``)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        failed = sys.exc_info()[1]
        if isinstance(failed, argparse.ArgumentError) and failed.argument_name and str(failed) == message:
            # Python 3.10 frames "argument X: ..." without its gettext: frame the sentence ourselves.
            message = cli_catalog().render(ARGUMENT_SENTENCE.format(argument=failed.argument_name,
                                                                   message=failed.message))
        line = cli_catalog().render(PARSE_ERROR.format(prog=self.prog, message=message))
        self.exit(EXIT_USAGE, line + "\n")


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
    gui.add_argument("--record", action="store_true",
                     help="record this run's session even for the demo (sessions of this computer are recorded as Settings say)")
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
                broken.set_defaults(unavailable=translate(
                    "Cli", "the {command} command needs the Python package '{package}': "
                           "run the setup command from README.md").format(command=name, package=exc.name or str(exc)))
                continue
            cmd_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
            module.add_arguments(cmd_parser)
    return parser


def ensure_std_streams() -> None:
    """A windowed Windows build (gpu-assistant.exe) has no console: sys.stdout and sys.stderr are
    None there, and the first print would raise. Send them to the null device instead; the console
    twin gpu-assistant-cli.exe is the one for text output."""
    if sys.stdout is None or sys.stderr is None:
        sink = open(os.devnull, "w", encoding="utf-8")  # lives as long as the process
        sys.stdout = sys.stdout or sink
        sys.stderr = sys.stderr or sink


def quiet_closed_pipe() -> None:
    """``main.py fit --json | head`` closed our stdout: what was wanted was delivered."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


# WORKAROUND for https://github.com/python/cpython/issues/79935: on Windows a write to a closed pipe
# raises EINVAL instead of BrokenPipeError.
def closed_pipe_on_windows(exc: OSError) -> bool:
    """Windows reports a write to a pipe whose reader is gone as EINVAL, not EPIPE (CPython issue
    #79935: the C runtime maps WriteFile's ERROR_NO_DATA to EINVAL). As with OUTPUT_ERRNOS, one that
    names no file is taken to be our own output (``main.py fit --json | more`` closed early)."""
    return os.name == "nt" and exc.errno == errno.EINVAL and exc.filename is None


# What a write to a full disk, past a file-size limit or to a failing device raises. The write that
# failed cannot be told apart afterwards (the buffer that failed is dropped), so an OSError of this
# kind that names no file is taken to be our own output (``monitor --once > /dev/full``).
OUTPUT_ERRNOS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EFBIG", "EIO", "EDQUOT", "ENXIO")
                          if hasattr(errno, name))


OUTPUT_FAILED = translate("Cli", "cannot write the output: {reason}")


def os_failure(exc: OSError) -> int:
    """An OSError out of a command is one line on stderr and exit code 1, never a traceback.
    Our own output failing (``monitor --once > /dev/full``) is said as such."""
    reason = exc.strerror or str(exc)
    message: Msg | str
    if exc.filename is None and exc.errno in OUTPUT_ERRNOS:
        quiet_closed_pipe()  # what is left in the buffer must not fail again at exit
        message = OUTPUT_FAILED.format(reason=reason)
    elif exc.filename:
        message = CANNOT_USE.format(path=str(exc.filename), reason=reason)
    else:
        message = reason
    with contextlib.suppress(OSError, ValueError):  # stderr may be unwritable as well
        fail(message, EXIT_FAILED)
    return EXIT_FAILED


def run_captured(name: str, argv: list[str]) -> tuple[int | None, str, str]:
    """Run one headless command in this process with its output captured: (exit code, stdout,
    stderr), or (None, "", "") when this build has no such command. The GUI's self-test runs the
    calculators through it without the GUI importing the command-line front end."""
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
            code = fail(exc.message, EXIT_USAGE)
    return code, out.getvalue(), err.getvalue()


def run_command(args: argparse.Namespace) -> int:
    """One headless command, with bad usage, Ctrl-C and a closed pipe handled alike."""
    module = load_command(args.command)
    try:
        check_path_options(args)
        apply_app_demo(args, module)
        code = module.run(args)
        sys.stdout.flush()
        return code
    except UsageError as exc:
        return fail(exc.message, EXIT_USAGE)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        quiet_closed_pipe()
        return 0
    except OSError as exc:
        if closed_pipe_on_windows(exc):
            quiet_closed_pipe()
            return 0
        return os_failure(exc)
    except TranslatableError as exc:
        # A service's error a command did not expect here (a damaged data file the app ships, say):
        # still one line in the reader's language and a failure code, never a traceback.
        return fail(exc.message, EXIT_FAILED)


def lang_option(argv: list[str]) -> str | None:
    """The value of ``--lang`` in ``argv``, read before argparse so that its own errors follow it."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            continue
        return value if value in LANGUAGES else None
    return None


@contextlib.contextmanager
def run_language(language: str | None):
    """``--lang zh_CN ...``: what this run prints is in that language (and only this run:
    ``main()`` is also called in-process, by the tests and the self-test)."""
    if not language:
        yield
        return
    before = os.environ.get(LANGUAGE_OVERRIDE_ENV)
    os.environ[LANGUAGE_OVERRIDE_ENV] = language
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(LANGUAGE_OVERRIDE_ENV, None)
        else:
            os.environ[LANGUAGE_OVERRIDE_ENV] = before


def app_usage_problem(args: argparse.Namespace) -> int | None:
    """Bad app options (before any window is built): printed, and the exit code; None when fine."""
    try:
        check_path_options(args)
    except UsageError as exc:
        return fail(exc.message, EXIT_USAGE)
    if args.screenshot is not None and not args.screenshot.lower().endswith(".png"):
        # The picture is always PNG; any other name would overwrite that file with PNG bytes.
        return fail(translate("Cli", "--screenshot needs a file name ending in .png, not {value}").format(
            value=repr(args.screenshot)), EXIT_USAGE)
    if args.screenshot:
        from pathlib import Path

        from cli import check_output_file

        try:  # a missing folder or a file in the way is bad input
            check_output_file(Path(args.screenshot))
        except UsageError as exc:
            return fail(translate("Cli", "--screenshot: {message}").format(message=exc.message), EXIT_USAGE)
    return None
