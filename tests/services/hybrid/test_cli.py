from __future__ import annotations

import json
import os
import sys

import pytest

import main
import cli.hybrid as cli
from services.hybrid.nvidia import NvidiaProcess, NvidiaUtilization
from services.hybrid.service import HybridService
from tests.fakes.hybrid_fakes import INTEL_IGPU, NVIDIA_DGPU, FakeNvidiaProbe, FakeRunner, build_sysfs


@pytest.fixture
def laptop(tmp_path, monkeypatch):
    root = build_sysfs(tmp_path / "root", [INTEL_IGPU, NVIDIA_DGPU])
    probe = FakeNvidiaProbe(processes=[NvidiaProcess(os.getpid(), 0, "compute", 900.0)],
                            utilization=[NvidiaUtilization(os.getpid(), 0, 55.0, 0.0, 0.0)])
    runner = FakeRunner({("prime-select", "query"): (0, "on-demand\n")})
    service = HybridService(platform="linux", sysfs_root=root, nvidia_factory=lambda: (probe, None),
                            runner=runner, home=tmp_path / "home", backup_dir=tmp_path / "backups")
    monkeypatch.setattr(cli, "build_service", lambda: service)
    return service


@pytest.fixture
def no_gpu(tmp_path, monkeypatch):
    service = HybridService(platform="linux", sysfs_root=tmp_path / "empty", nvidia_factory=lambda: (None, None),
                            runner=FakeRunner({}), home=tmp_path / "home", backup_dir=tmp_path / "backups")
    monkeypatch.setattr(cli, "build_service", lambda: service)


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_list_json(laptop, capsys):
    assert main.main(["hybrid", "--list", "--json", "--interval", "0.05"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [g["kind"] for g in out["gpus"]] == ["integrated", "discrete"]
    assert out["gpus"][0]["drives_display"] is True
    assert out["system_modes"] == [{"tool": "prime-select", "mode": "on-demand", "output": "on-demand"}]
    me = next(p for p in out["processes"] if p["pid"] == os.getpid())
    assert me["placement"] == "nvidia" and me["basis"] == "measured" and me["work_pct"] == 55.0
    assert me["uses"][0]["gpu"] == "pci:0000:01:00.0" and me["uses"][0]["engines"]["SM"] == 55.0


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_list_and_pid_text(laptop, capsys):
    assert main.main(["hybrid", "--list", "--interval", "0.05"]) == 0
    text = capsys.readouterr().out
    assert "[integrated] CometLake-H GT2 [UHD Graphics]" in text and "drives the display (eDP-1)" in text
    assert "System mode (prime-select): on-demand" in text
    assert main.main(["hybrid", "--pid", str(os.getpid()), "--interval", "0.05"]) == 0
    text = capsys.readouterr().out
    assert "Verdict: NVIDIA GPU (measured)" in text
    assert "The NVIDIA driver lists it as a compute process" in text


@pytest.mark.linux_only("reads a Linux sysfs tree (symbolic links) and /proc built in a temporary folder")
def test_pid_json_and_missing_pid(laptop, capsys):
    assert main.main(["hybrid", "--pid", str(os.getpid()), "--json", "--interval", "0.05"]) == 0
    assert json.loads(capsys.readouterr().out)["placement"] == "nvidia"
    assert main.main(["hybrid", "--pid", "999999999", "--interval", "0.05"]) == 2
    assert "no process with pid" in capsys.readouterr().err


@pytest.mark.linux_only("the Linux launcher in ~/.local/bin (an executable script); Windows writes the registry (tests/windows)")
def test_prefer_dry_run_then_apply_then_undo(laptop, tmp_path, capsys):
    program = tmp_path / "Stable Diffusion" / "webui.sh"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    launcher = tmp_path / "home/.local/bin/webui-on-nvidia"
    assert main.main(["hybrid", "--prefer-nvidia", str(program), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"file {launcher}: create (executable)" in out and "Dry run: nothing was changed" in out
    assert not launcher.exists()
    assert main.main(["hybrid", "--prefer-nvidia", str(program), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["backup"] and launcher.exists()
    assert main.main(["hybrid", "--undo", str(program)]) == 0
    assert "Undone" in capsys.readouterr().out and not launcher.exists()


def test_every_action_says_no_gpu_and_exits_3(no_gpu, capsys):
    program = sys.executable  # a program this machine has, Linux or Windows
    for argv in (["--list"], ["--pid", "1"], ["--launch", "--", program], ["--prefer-nvidia", program],
                 ["--list", "--json"]):
        assert main.main(["hybrid", *argv]) == 3
        assert "No GPU found on this computer" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["--launch"], ["--list", "extra"], ["--list", "--interval", "0"], ["--list", "--dry-run"],
])
def test_bad_usage_exits_2(laptop, argv, capsys):
    assert main.main(["hybrid", *argv]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_prefer_bad_path_is_one_line(laptop, capsys):
    assert main.main(["hybrid", "--prefer-nvidia", "relative/app"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "full path" in err


def test_chinese_catalog_covers_the_hybrid_texts():
    from services.hybrid.cli_text import CLI_TEXT
    from services.i18n import Catalog

    catalog = Catalog.load("zh_CN")
    assert catalog.render(cli.t("No GPU found on this computer")) == "这台电脑上没有找到 GPU"
    untranslated = [text for text, msg in CLI_TEXT.items() if catalog.render(msg) == text and text not in ("NVIDIA GPU",)]
    assert untranslated == []
