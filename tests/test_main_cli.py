"""main.py's own parts, in-process: help, version, the one-line usage errors, the app's --demo and
--lang before a command. Real processes are in tests/test_cli_robustness.py."""
from __future__ import annotations

import json
import os
import sys

import pytest

import main


def _main(argv, capsys):
    """``main(argv)`` in this process: (exit code, stdout, stderr); argparse's SystemExit is an exit code."""
    try:
        code = main.main(argv)
    except SystemExit as exc:
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_help_and_version(capsys):
    code, out, _ = _main(["--help"], capsys)
    assert code == 0 and "commands:" in out and "monitor" in out and "--self-test" in out
    code, out, _ = _main(["--version"], capsys)
    assert code == 0 and out.startswith("GPU Assistant ")


def test_usage_names_the_bundle_command_when_frozen(monkeypatch):
    assert main.build_parser().prog == "main.py"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert main.build_parser().prog == "gpu-assistant"


def test_bad_value_is_one_line_not_the_usage_block(capsys):
    code, out, err = _main(["psu", "--gpu", "4090", "--ram-sticks", "-1"], capsys)
    assert code == 2 and out == ""
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "--ram-sticks" in lines[0] and "--help" in lines[0]


def test_app_demo_before_monitor_runs_it_on_the_simulated_source(capsys):
    code, out, err = _main(["--demo", "monitor", "--once", "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["source"] == "demo" and len(doc["gpus"]) == 2


def _parsed(*argv):
    from cli import front, load_command

    args = main.build_parser(list(argv)).parse_args(list(argv))
    front.apply_app_demo(args, load_command(args.command))
    return args


def test_app_demo_before_exporter_survives_the_commands_own_default():
    # The exporter's own --demo (default False) overwrites args.demo when argparse merges its namespace.
    assert _parsed("--demo", "exporter").demo is True
    assert _parsed("exporter").demo is False
    assert _parsed("--demo", "monitor", "--once").source == "demo"
    assert _parsed("monitor", "--once").source is None  # monitor.run reads None as nvml


def test_app_demo_where_it_means_nothing_or_contradicts_is_bad_usage():
    from cli import UsageError

    with pytest.raises(UsageError, match="not for 'fit'"):
        _parsed("--demo", "fit", "--params-b", "7")
    with pytest.raises(UsageError, match="contradict"):
        _parsed("--demo", "monitor", "--source", "nvml", "--once")


def test_a_command_whose_package_is_missing_does_not_break_the_others(monkeypatch, capsys):
    import builtins

    real_import = builtins.__import__

    def no_prometheus(name, *args, **kwargs):
        if name.startswith("prometheus_client"):
            raise ModuleNotFoundError("No module named 'prometheus_client'", name="prometheus_client")
        return real_import(name, *args, **kwargs)

    for mod in [m for m in sys.modules if m.startswith(("cli.exporter", "services.exporter", "prometheus_client"))]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setattr(builtins, "__import__", no_prometheus)
    assert main.main(["exporter", "--demo"]) == 1
    assert "prometheus_client" in capsys.readouterr().err
    assert main.main(["fit", "--params-b", "7", "--json"]) == 0


def test_lang_before_a_command_does_not_outlive_the_call(capsys, monkeypatch):
    from services.i18n import LANGUAGE_OVERRIDE_ENV

    monkeypatch.delenv(LANGUAGE_OVERRIDE_ENV, raising=False)
    assert main.main(["--lang", "zh_CN", "psu", "--gpu", "4090"]) == 0
    assert "推荐" in capsys.readouterr().out
    assert LANGUAGE_OVERRIDE_ENV not in os.environ  # the next in-process call speaks its own language
    assert main.main(["psu", "--gpu", "4090"]) == 0
    assert "Recommended" in capsys.readouterr().out


def test_a_service_error_no_command_expected_is_one_line_not_a_traceback(monkeypatch, capsys):
    """A TranslatableError escaping a command (here the hardware catalogue's, as a damaged data
    file raises it) is one line in the run's language and exit code 1."""
    import types

    from cli import front
    from services.hardware.catalog import CatalogError
    from services.i18n import translate

    def run(args):
        raise CatalogError(translate("Catalog", "catalogue data is malformed: {problem}").format(problem="KeyError('gpus')"))

    real_load = front.load_command
    monkeypatch.setattr(front, "load_command", lambda name: types.SimpleNamespace(
        HELP="psu", add_arguments=real_load(name).add_arguments, run=run))
    code, out, err = _main(["psu"], capsys)
    assert (code, out) == (1, "")
    assert err == "error: catalogue data is malformed: KeyError('gpus')\n"
    code, out, err = _main(["--lang", "zh_CN", "psu"], capsys)
    assert (code, err) == (1, "错误：硬件目录数据格式有误：KeyError('gpus')\n")
