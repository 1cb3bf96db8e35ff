"""A plan for another machine (``setup --plan --os-release FILE``) is text to paste into a shell there:
a file's content reaches root's ``install`` on standard input, so the line must carry that content
itself (a bare ``install ... /dev/stdin`` waits for the terminal). These tests paste the text into
bash, in a temporary root, and compare the file written byte for byte."""
from __future__ import annotations

import os
import stat
import subprocess

import pytest

from services.paths import resource_path
from services.setup.fmt import printf_command
from services.setup.linux_plans import NOUVEAU_BLACKLIST, NOUVEAU_FILE

from ...cli_helpers import run
from .machine import RUNS_LINUX_COMMANDS
from .pasted import run_pasted

DISTROS = sorted(p.name for p in resource_path("data", "os-release").iterdir() if not p.name.endswith(".md"))


def step_block(output: str, step_id: str) -> str:
    """The command lines the CLI prints under one step (what a person copies), without the indent."""
    lines = output.splitlines()
    start = next(i for i, ln in enumerate(lines) if f"[{step_id}]" in ln)
    block = []
    for ln in lines[start + 2:]:  # after the title and the explanation
        if not ln.startswith("     "):
            break
        block.append(ln[5:])
    return "\n".join(block)


@RUNS_LINUX_COMMANDS
@pytest.mark.parametrize("distro", DISTROS)
def test_the_printed_plan_for_another_machine_writes_the_file_when_pasted(tmp_path, capsys, distro):
    code, out, err = run(["setup", "--plan", "--os-release", str(resource_path("data", "os-release", distro)),
                          "--gpu", "10de:2684"], capsys)
    assert code == 0, err
    text = step_block(out, "blacklist-nouveau")
    assert "/dev/stdin" in text and "sudo install" in text
    root = tmp_path / "target"
    root.mkdir()
    result, logged = run_pasted(text, root)
    assert result.returncode == 0, result.stderr
    written = root / NOUVEAU_FILE.lstrip("/")
    assert written.read_bytes() == NOUVEAU_BLACKLIST.encode("utf-8")
    assert stat.S_IMODE(os.lstat(written).st_mode) == 0o644
    assert logged  # the initramfs rebuild was asked for (logged, not run)
    assert all("install" not in ln for ln in logged)


@RUNS_LINUX_COMMANDS
@pytest.mark.parametrize("content", [
    "blacklist nouveau\noptions nouveau modeset=0\n",
    "no newline at the end",
    "",
    "\n",
    "\n\nblank lines\n\n",
    "it's 'quoted' \"twice\" $HOME `id` $(id) \\n \\\\ %s %% %b\n\ttab * ? [a] ~ ! #x\n",
    "中文 显卡\r\nCRLF kept\r\n",
    "- starts with a dash\n--also\n",
])
def test_printf_writes_exactly_the_content(tmp_path, content):
    """The printf line, as bash runs it, gives back exactly the content: nothing expanded, no newline
    added or lost."""
    line = printf_command(content)
    assert "\n" not in line  # one line: it pastes into an indented listing and a terminal alike
    out = tmp_path / "out"
    subprocess.run(["bash", "--norc", "--noprofile", "-c", f"{line} > {out}"], check=True, timeout=30,
                   stdin=subprocess.DEVNULL)
    assert out.read_bytes() == content.encode("utf-8")


@RUNS_LINUX_COMMANDS
def test_this_machine_plan_line_runs_when_pasted_too(tmp_path):
    """The Setup page's 'Copy commands' for this machine's step uses the same lines."""
    from services.setup.executor import StepExecutor
    from services.setup.planner import inputs_for, plan_for_os
    from services.setup.os_release import parse_os_release
    from services.setup.progress import ProgressStore
    from services.setup.rules import load_rules
    from services.setup.system import FakeRunner, SystemRoot

    from .machine import os_release

    rules = load_rules()
    root = SystemRoot(tmp_path / "root")
    inputs = inputs_for(rules, root, tmp_path / "staged", "2684", secure_boot="disabled")
    plan = plan_for_os(parse_os_release(os_release("ubuntu-24.04")), inputs, rules)
    ex = StepExecutor(FakeRunner(), root, ProgressStore(tmp_path / "progress.json"), tmp_path / "backups",
                      elevation="sudo")
    text = "\n".join(ex.describe(plan.step("blacklist-nouveau"), plan=plan))
    # This machine's plan names the temporary root's own paths already.
    assert str(tmp_path / "root" / "etc" / "modprobe.d") in text
    target = tmp_path / "pasted"
    target.mkdir()
    result, _ = run_pasted(text.replace(str(tmp_path / "root"), ""), target)
    assert result.returncode == 0, result.stderr
    assert (target / NOUVEAU_FILE.lstrip("/")).read_bytes() == NOUVEAU_BLACKLIST.encode("utf-8")
