"""Starting the window does not load every command module; anything else gets the full parser."""
from __future__ import annotations

from cli import front


def test_app_options_alone_skip_the_command_modules():
    assert not front.names_a_command([])
    assert not front.names_a_command(["--demo", "--page", "dashboard", "--lang=zh_CN", "--minimized"])
    assert not front.names_a_command(["--replay", "run.csv", "--screenshot", "x.png"])


def test_commands_help_and_typos_get_the_full_parser():
    assert front.names_a_command(None)
    assert front.names_a_command(["monitor", "--once"])
    assert front.names_a_command(["--help"])
    assert front.names_a_command(["--demo", "monitr"])
    assert front.names_a_command(["--page", "setup", "sessions"])


def test_the_parser_still_parses_app_options_without_commands():
    parser = front.build_parser(["--demo", "--page", "dashboard"])
    args = parser.parse_args(["--demo", "--page", "dashboard"])
    assert args.demo and args.page == "dashboard" and getattr(args, "command", None) is None
