"""The CLI's own error, note and usage lines follow the language of the run (``--lang``, the
settings, the system locale), and writing our output never ends in a traceback.

In-process through ``main.main`` as a user's command line goes: the exit codes are those of
``cli`` (2 bad usage, 1 failed, 3 no GPU) in every language.
"""
from __future__ import annotations

import os

import errno
import io
import subprocess
import sys
from pathlib import Path

import pytest

import main
from tests.cli_helpers import CJK, english_system, run  # noqa: F401 - english_system is a fixture

pytestmark = pytest.mark.usefixtures("english_system")

ROOT = Path(__file__).resolve().parents[2]


def _no_os_release(tmp_path: Path) -> str:
    path = tmp_path / "os-release"
    path.write_text('NAME="Nothing"\n', encoding="utf-8")
    return str(path)


# (arguments after the language, exit code, the Chinese line's start, the English line)
CASES = [
    (["psu"], 2, "错误：请至少给出一个 --gpu 或 --cpu",
     "error: give at least one --gpu or --cpu (or --detect)"),
    (["psu", "--gpu", "no-such-card-zz"], 2, "错误：未知的显卡 “no-such-card-zz”；最接近的：",
     "error: unknown GPU 'no-such-card-zz'; closest: ..."),  # the names depend on the catalogue
    (["fit", "--params-b", "x"], 2, "错误：--params-b 必须是数字，收到的是 “x”",
     "error: --params-b must be a number, got 'x'"),
    (["fit", "--params-b", "7", "--model", "llama-3.1-8b"], 2, "错误：只能指定一个模型：--model 不能与",
     "error: give one model: --model cannot be combined with --model-config or --params-b"),
    (["monitor", "--once", "--duration", "5"], 2, "错误：--duration 用于持续记录；--once 只读取一次",
     "error: --duration is for logging; --once takes a single reading"),
    (["monitor", "--interval", "0"], 2, "错误：--interval 必须在 0.1 到 3600 秒之间",
     "error: --interval must be between 0.1 and 3600 seconds"),
    (["exporter", "--port", "70000"], 2, "错误：--port 必须在 0-65535 之间，而不是 70000",
     "error: --port must be 0-65535, not 70000"),
    (["hybrid", "--launch"], 2, "错误：请给出要启动的程序：hybrid --launch -- PROGRAM ARGS...",
     "error: name the program to start: hybrid --launch -- PROGRAM ARGS..."),
    (["sessions", "--dir", "{tmp}/missing", "--list"], 2, "错误：{tmp}/missing：没有这个文件夹",
     "error: {tmp}/missing: no such folder"),
    (["doctor", "--python", "{tmp}/no-python"], 2, "错误：没有这个解释器：{tmp}/no-python",
     "error: no such interpreter: {tmp}/no-python"),
    (["setup", "--plan", "--os-release", "{os_release}"], 2, "错误：{os_release} 不是 os-release 文件（没有 ID= 行）",
     "error: {os_release} is not an os-release file (no ID= line)"),
    (["--demo", "psu"], 2, "错误：--demo 只用于应用本身和带模拟数据源的命令（monitor、exporter），不能用于 “psu”",
     "error: --demo is for the app and for the commands with a simulated source (monitor, exporter), not for 'psu'"),
    (["--screenshot", "shot.jpg"], 2, "错误：--screenshot 需要以 .png 结尾的文件名，而不是 'shot.jpg'",
     "error: --screenshot needs a file name ending in .png, not 'shot.jpg'"),
]


def _fill(items, tmp_path: Path):
    values = {"tmp": str(tmp_path), "os_release": _no_os_release(tmp_path)}
    # Paths as the user's system writes them (C:\\...\\missing on Windows), as the command says them back.
    return [item.replace("{tmp}/", "{tmp}" + os.sep).format(**values) for item in items]


@pytest.mark.parametrize(("args", "code", "chinese", "english"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_an_error_is_one_chinese_line_under_lang_zh(args, code, chinese, english, capsys, tmp_path):
    got, out, err = run(["--lang", "zh_CN", *_fill(args, tmp_path)], capsys)
    assert got == code
    assert err.startswith(_fill([chinese], tmp_path)[0]), err
    assert CJK.search(err) and "error:" not in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert out == ""


@pytest.mark.parametrize(("args", "code", "chinese", "english"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_the_same_error_in_english_is_unchanged(args, code, chinese, english, capsys, tmp_path):
    got, out, err = run(_fill(args, tmp_path), capsys)
    assert got == code
    english = _fill([english], tmp_path)[0]
    if english.endswith("..."):
        assert err.startswith(english[:-3]) and err.count("\n") == 1
    else:
        assert err == english + "\n"
    assert out == ""


def test_the_settings_language_is_used_without_lang(capsys, app_paths):
    from services.settings import SettingsStore

    store = SettingsStore(app_paths.settings_file)
    settings = store.load()
    settings.general.language = "zh_CN"
    store.save(settings)
    code, _, err = run(["psu"], capsys)
    assert code == 2
    assert err.startswith("错误：请至少给出一个 --gpu 或 --cpu")
    # --lang wins over the setting, for this run only
    code, _, err = run(["--lang", "en", "psu"], capsys)
    assert err == "error: give at least one --gpu or --cpu (or --detect)\n"


def test_a_chinese_system_locale_is_used(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, _, err = run(["fit"], capsys)
    assert code == 2
    assert err.startswith("错误：请先指定模型，例如 --model llama-3.1-8b（常用：")


def test_argparse_errors_get_our_frame_in_chinese(capsys):
    """The prefix, argparse's sentence and the pointer to --help follow the language
    (tests/services/test_argparse_messages_zh.py has argparse's sentences one by one)."""
    code, _, err = run(["--lang", "zh_CN", "hybrid"], capsys)
    assert code == 2
    assert err.startswith("main.py hybrid：错误：必须给出以下参数之一：--list --pid ")
    assert err.endswith("（参见：main.py hybrid --help）\n")
    code, _, err = run(["--lang=zh_CN", "--window-size", "3x3"], capsys)
    assert code == 2
    assert "--window-size 需要以像素为单位的 宽x高" in err and err.startswith("main.py：错误：")
    code, _, err = run(["hybrid"], capsys)
    assert err == ("main.py hybrid: error: one of the arguments --list --pid --launch --prefer-nvidia --undo "
                   "is required (see: main.py hybrid --help)\n")


def test_lang_read_before_parsing_ignores_what_follows_double_dash():
    assert main.lang_option(["--lang", "zh_CN", "psu"]) == "zh_CN"
    assert main.lang_option(["--lang=en", "fit"]) == "en"
    assert main.lang_option(["--lang", "fr", "psu"]) is None
    assert main.lang_option(["hybrid", "--launch", "--", "prog", "--lang", "zh_CN"]) is None
    assert main.lang_option(["--lang"]) is None


class _FullDisk(io.TextIOBase):
    """stdout on a full disk: every write (or the flush after it) fails with ENOSPC."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("lang", [[], ["--lang", "zh_CN"]])
def test_output_on_a_full_disk_is_one_line_and_exit_1(lang, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdout", _FullDisk())
    code, _, err = run([*lang, "fit", "--params-b", "7", "--json"], capsys)
    assert code == 1  # EXIT_FAILED: the run itself failed
    expected = "错误：无法写出输出：" if lang else "error: cannot write the output: "
    assert err == expected + "No space left on device\n"


def test_another_os_error_names_its_file(capsys, monkeypatch):
    from cli import psu

    def broken(args):
        raise PermissionError(errno.EACCES, "Permission denied", "/somewhere/prices.json")

    monkeypatch.setattr(psu, "run", broken)
    code, _, err = run(["--lang", "zh_CN", "psu"], capsys)
    assert code == 1
    assert err == "错误：无法使用 /somewhere/prices.json：Permission denied\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_monitor_once_to_dev_full_says_so_without_a_traceback():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "main.py", "--demo", "monitor", "--once"], cwd=ROOT, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr == "error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize(("encoding", "expected"), [
    ("cp936", "错误：请至少给出一个 --gpu 或 --cpu（或使用 --detect）\n"),
    # 1252 has no Chinese: readable stand-ins ("：" -> ":", "（" -> "(") and "?", never an exception
    ("cp1252", "??:??????? --gpu ? --cpu(??? --detect)\n"),
])
def test_chinese_errors_on_a_windows_code_page(encoding, expected, monkeypatch):
    """A pipe on Windows is encoded with the ANSI code page: the error line goes through
    services.console's handler like every other line."""
    raw = io.BytesIO()
    stderr = io.TextIOWrapper(raw, encoding=encoding, newline="\n")  # strict, as Python has it there
    monkeypatch.setattr(sys, "stderr", stderr)
    assert main.main(["--lang", "zh_CN", "psu"]) == 2
    stderr.flush()
    assert raw.getvalue().decode(encoding) == expected


def test_a_chinese_usage_error_on_code_page_1252_does_not_raise(monkeypatch):
    raw = io.BytesIO()
    stderr = io.TextIOWrapper(raw, encoding="cp1252", newline="\n")
    monkeypatch.setattr(sys, "stderr", stderr)
    with pytest.raises(SystemExit) as exc:
        main.main(["--lang", "zh_CN", "hybrid"])
    assert exc.value.code == 2
    stderr.flush()
    text = raw.getvalue().decode("cp1252")
    assert text.startswith("main.py hybrid:??:??????????:--list --pid ")
    assert text.endswith("(??:main.py hybrid --help)\n")
