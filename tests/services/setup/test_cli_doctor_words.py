"""The doctor's fact lines are words in the user's language, not stable codes ("not_uefi")."""
from __future__ import annotations

import json

import main

from .machine import LINUX_DOCTOR
from .test_cli_setup import machine  # noqa: F401 - the fake machine fixture


@LINUX_DOCTOR
def test_fact_lines_in_english_and_chinese(machine, capsys, app_paths):  # noqa: F811
    main.main(["doctor"])
    out = capsys.readouterr().out
    assert "Secure Boot: off" in out and "Driver: 570.133.07" in out
    app_paths.config_dir.mkdir(parents=True, exist_ok=True)
    app_paths.settings_file.write_text(json.dumps({"general": {"language": "zh_CN"}}))
    main.main(["doctor"])
    out = capsys.readouterr().out
    assert "安全启动：关" in out and "驱动：570.133.07" in out
    assert "Secure Boot" not in out and "disabled" not in out


@LINUX_DOCTOR
def test_setup_plan_and_status_say_flags_and_states_in_chinese(machine, capsys, app_paths):  # noqa: F811
    app_paths.config_dir.mkdir(parents=True, exist_ok=True)
    app_paths.settings_file.write_text(json.dumps({"general": {"language": "zh_CN"}}))
    assert main.main(["setup", "--plan"]) == 0
    out = capsys.readouterr().out
    assert "(需要 root)" in out and "撤销：python main.py setup --undo" in out and "(root)" not in out
    assert main.main(["setup", "--status"]) == 0
    out = capsys.readouterr().out
    assert "待执行" in out and "pending" not in out and "not_done" not in out
