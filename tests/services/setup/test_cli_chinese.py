"""The CLI's plan and doctor report in Chinese carry no English labels or raw codes."""
from __future__ import annotations

import json
import re

import main

from .machine import LINUX_DOCTOR
from .test_cli_setup import PY, machine  # noqa: F401  (the fake machine fixture)

ENGLISH_LABELS = ("(root)", "(by hand)", "(reboot)", "root,", "undo:", "OS:", "GPU:", "Driver:", "Kernel module:",
                  "Secure Boot:", "not_uefi", "# back up", "# write")


def chinese(app_paths) -> None:
    app_paths.config_dir.mkdir(parents=True, exist_ok=True)
    app_paths.settings_file.write_text(json.dumps({"general": {"language": "zh_CN"}}))


@LINUX_DOCTOR
def test_plan_in_chinese_has_no_english_labels(machine, capsys, app_paths):  # noqa: F811
    chinese(app_paths)
    assert main.main(["setup", "--plan", "--full"]) == 0
    out = capsys.readouterr().out
    assert "(需要 root)" in out and "撤销：python main.py setup --undo" in out and "# 写入 " in out and "etc/modprobe.d/blacklist-nouveau.conf（3 行）：" in out
    for label in ENGLISH_LABELS:
        assert label not in out, label
    assert main.main(["setup", "--plan", "--os-release", "tests/data/setup/os-release/arch", "--gpu", "10de:2b85"]) == 0
    out = capsys.readouterr().out
    assert "(手动完成)" in out and "需要重启)" in out
    assert not any(label in out for label in ENGLISH_LABELS)


@LINUX_DOCTOR
def test_doctor_in_chinese_maps_codes_to_words(machine, capsys, app_paths, tmp_path):  # noqa: F811
    chinese(app_paths)
    del machine.runner.responses[("mokutil", "--sb-state")]  # no mokutil, no EFI folder: a BIOS boot
    python = tmp_path / "env" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("")
    python.chmod(0o755)
    machine.python(str(python), "torch-missing.json")
    main.main(["doctor", "--python", str(python)])
    out = capsys.readouterr().out
    assert "PyTorch：未安装" in out and not re.search(r"torch -\s*$", out, re.M)
    assert "系统：Ubuntu 24.04" in out and "安全启动：传统 BIOS 启动" in out
    assert "内核模块：开源内核模块 570" in out and re.search(r"驱动：570\.133\.07（最高支持 CUDA 12\.8）", out)
    for label in ENGLISH_LABELS:
        assert label not in out, label
