"""Starting the window does not load every command module; anything else gets the full parser."""
from __future__ import annotations

import main


def test_app_options_alone_skip_the_command_modules():
    assert not main.names_a_command([])
    assert not main.names_a_command(["--demo", "--page", "dashboard", "--lang=zh_CN", "--minimized"])
    assert not main.names_a_command(["--replay", "run.csv", "--screenshot", "x.png"])


def test_commands_help_and_typos_get_the_full_parser():
    assert main.names_a_command(None)
    assert main.names_a_command(["monitor", "--once"])
    assert main.names_a_command(["--help"])
    assert main.names_a_command(["--demo", "monitr"])
    assert main.names_a_command(["--page", "setup", "sessions"])


def test_the_parser_still_parses_app_options_without_commands():
    parser = main.build_parser(["--demo", "--page", "dashboard"])
    args = parser.parse_args(["--demo", "--page", "dashboard"])
    assert args.demo and args.page == "dashboard" and getattr(args, "command", None) is None
