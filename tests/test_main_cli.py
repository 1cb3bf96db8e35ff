from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args):
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True, cwd=ROOT)


def test_help_and_version():
    assert _run("--help").returncode == 0
    result = _run("--version")
    assert result.returncode == 0 and "GPU Assistant" in result.stdout


def test_bad_usage_exits_2():
    result = _run("no-such-command")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_no_console_streams_do_not_crash():
    """A windowed Windows build runs with sys.stdout and sys.stderr set to None; code that needs a
    real stream (the self-test's watchdog, sys.stdout.write) must still work there."""
    code = ("import sys, faulthandler; sys.stdout = None; sys.stderr = None\n"
            "import main\n"
            "main.ensure_std_streams()\n"
            "faulthandler.dump_traceback_later(60); faulthandler.cancel_dump_traceback_later()\n"
            "sys.stdout.write('x')\n"
            "try:\n    main.main(['--version'])\nexcept SystemExit as exc:\n    raise SystemExit(exc.code)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def test_usage_names_the_bundle_command_when_frozen(monkeypatch):
    import main

    assert main.build_parser().prog == "main.py"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert main.build_parser().prog == "gpu-assistant"


def test_bad_value_is_one_line_not_the_usage_block():
    result = _run("psu", "--gpu", "4090", "--ram-sticks", "-1")
    assert result.returncode == 2
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "--ram-sticks" in lines[0] and "--help" in lines[0]


def test_closed_pipe_is_not_a_traceback():
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader ("| head") is already gone
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "fit", "--params-b", "7", "--json"],
                            stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    os.close(write_end)
    assert "Traceback" not in result.stderr
    assert result.returncode == 0


def test_app_demo_before_monitor_runs_it_on_the_simulated_source():
    import json

    result = _run("--demo", "monitor", "--once", "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["source"] == "demo" and len(doc["gpus"]) == 2


def _parsed(*argv):
    import main
    from services.cli import load_command

    args = main.build_parser(list(argv)).parse_args(list(argv))
    main.apply_app_demo(args, load_command(args.command))
    return args


def test_app_demo_before_exporter_survives_the_commands_own_default():
    # The exporter's own --demo (default False) overwrites args.demo when argparse merges its namespace.
    assert _parsed("--demo", "exporter").demo is True
    assert _parsed("exporter").demo is False
    assert _parsed("--demo", "monitor", "--once").source == "demo"
    assert _parsed("monitor", "--once").source is None  # monitor.run reads None as nvml


def test_app_demo_where_it_means_nothing_or_contradicts_is_bad_usage():
    import pytest

    from services.cli import UsageError

    with pytest.raises(UsageError, match="not for 'fit'"):
        _parsed("--demo", "fit", "--params-b", "7")
    with pytest.raises(UsageError, match="contradict"):
        _parsed("--demo", "monitor", "--source", "nvml", "--once")
    result = _run("--demo", "psu", "--gpu", "4090")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


def test_a_command_whose_package_is_missing_does_not_break_the_others(monkeypatch, capsys):
    import builtins

    import main

    real_import = builtins.__import__

    def no_prometheus(name, *args, **kwargs):
        if name.startswith("prometheus_client"):
            raise ModuleNotFoundError("No module named 'prometheus_client'", name="prometheus_client")
        return real_import(name, *args, **kwargs)

    for mod in [m for m in sys.modules if m.startswith(("services.cli.exporter", "services.exporter", "prometheus_client"))]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setattr(builtins, "__import__", no_prometheus)
    assert main.main(["exporter", "--demo"]) == 1
    assert "prometheus_client" in capsys.readouterr().err
    assert main.main(["fit", "--params-b", "7", "--json"]) == 0


def test_lang_before_a_command_does_not_outlive_the_call(capsys, monkeypatch):
    import main
    from services.i18n import LANGUAGE_OVERRIDE_ENV

    monkeypatch.delenv(LANGUAGE_OVERRIDE_ENV, raising=False)
    assert main.main(["--lang", "zh_CN", "psu", "--gpu", "4090"]) == 0
    assert "推荐" in capsys.readouterr().out
    assert LANGUAGE_OVERRIDE_ENV not in os.environ  # the next in-process call speaks its own language
    assert main.main(["psu", "--gpu", "4090"]) == 0
    assert "Recommended" in capsys.readouterr().out
