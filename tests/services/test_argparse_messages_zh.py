"""argparse's own sentences ("the following arguments are required: ...", "invalid choice: ...")
follow the run's language; option names, values and choices stay as argparse wrote them, and the
English line is exactly argparse's. A sentence we do not know is printed as argparse wrote it.
"""
from __future__ import annotations

import pytest

import argparse

from cli.front import OneLineParser, argparse_gettext, argparse_ngettext
from services.i18n import LANGUAGE_OVERRIDE_ENV
from tests.cli_helpers import english_system, run  # noqa: F401 - english_system is a fixture

pytestmark = pytest.mark.usefixtures("english_system")

# (arguments after the language, the Chinese line, the English line): a user's command lines.
CASES = [
    (["sessions"], "main.py sessions：错误：必须给出以下参数之一：--list --export --compare --delete（参见：main.py sessions --help）",
     "main.py sessions: error: one of the arguments --list --export --compare --delete is required "
     "(see: main.py sessions --help)"),
    (["psu", "--foo"], "main.py：错误：无法识别的参数：--foo（参见：main.py --help）",
     "main.py: error: unrecognized arguments: --foo (see: main.py --help)"),
    (["monitor", "--interval"], "main.py monitor：错误：参数 --interval：需要一个值（参见：main.py monitor --help）",
     "main.py monitor: error: argument --interval: expected one argument (see: main.py monitor --help)"),
    (["sessions", "--compare", "a"], "main.py sessions：错误：参数 --compare：需要 2 个值（参见：main.py sessions --help）",
     "main.py sessions: error: argument --compare: expected 2 arguments (see: main.py sessions --help)"),
    (["hybrid", "--list", "--pid", "3"],
     "main.py hybrid：错误：参数 --pid：不能与参数 --list 同时使用（参见：main.py hybrid --help）",
     "main.py hybrid: error: argument --pid: not allowed with argument --list (see: main.py hybrid --help)"),
    (["exporter", "--port", "abc"], "main.py exporter：错误：参数 --port：无效的 int 值：'abc'（参见：main.py exporter --help）",
     "main.py exporter: error: argument --port: invalid int value: 'abc' (see: main.py exporter --help)"),
    (["psu", "--ram-sticks", "x"], "main.py psu：错误：参数 --ram-sticks：“x” 不是整数（参见：main.py psu --help）",
     "main.py psu: error: argument --ram-sticks: 'x' is not a whole number (see: main.py psu --help)"),
    (["psu", "--cpu-w", "0"], "main.py psu：错误：参数 --cpu-w：必须在 1 到 2000 之间（参见：main.py psu --help）",
     "main.py psu: error: argument --cpu-w: must be between 1 and 2000 (see: main.py psu --help)"),
]


@pytest.mark.parametrize(("args", "chinese", "english"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_argparse_sentence_is_one_chinese_line_under_lang_zh(args, chinese, english, capsys):
    code, out, err = run(["--lang", "zh_CN", *args], capsys)
    assert code == 2
    assert err == chinese + "\n"
    assert out == ""


@pytest.mark.parametrize(("args", "chinese", "english"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_argparse_sentence_in_english_is_unchanged(args, chinese, english, capsys):
    code, out, err = run(args, capsys)
    assert code == 2
    assert err == english + "\n"


def test_a_choice_error_follows_a_chinese_system_even_for_a_bad_lang(capsys, monkeypatch):
    """``--lang fr`` cannot choose the language: the system's is used, and the choices stay as argparse wrote them."""
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, _, err = run(["--lang", "fr", "psu"], capsys)
    assert code == 2
    assert err.startswith("main.py：错误：参数 --lang：无效的选择：'fr'（可选：")
    assert "en" in err and "zh_CN" in err and "invalid choice" not in err
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    code, _, err = run(["--lang", "fr", "psu"], capsys)
    assert err.startswith("main.py: error: argument --lang: invalid choice: 'fr' (choose from ")


class _Recording(OneLineParser):
    """Our parser that keeps the sentence argparse handed to ``error``."""

    said: list[str] = []

    def error(self, message: str) -> None:  # type: ignore[override]
        self.said.append(message)
        super().error(message)


def _parser() -> _Recording:
    parser = _Recording(prog="prog", exit_on_error=True)
    parser.add_argument("--compare")
    parser.add_argument("--count", type=int)
    parser.add_argument("--flag", action="store_true")
    parser.add_argument("--pair", nargs=2)
    parser.add_argument("--some", nargs="+")
    parser.add_argument("--mode", choices=["fast", "slow"])
    parser.add_argument("--need", required=True)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--left", action="store_true")
    group.add_argument("--right", action="store_true")
    return parser


# Bad command lines for the parser above, one per argparse sentence, and a word of the Chinese.
SENTENCES = [
    (["--need", "x", "--co", "1"], "选项不明确"),
    ([], "缺少必需的参数：--need"),
    (["--need", "x", "--count", "z"], "无效的 int 值：'z'"),
    (["--need", "x", "--flag=yes"], "不接受值"),
    (["--need", "x", "--pair", "a"], "需要 2 个值"),
    (["--need", "x", "--some"], "至少需要一个值"),
    (["--need", "x", "--mode", "medium"], "无效的选择：'medium'（可选："),
    (["--need", "x", "--left", "--right"], "参数 --right：不能与参数 --left 同时使用"),
    (["--need", "x", "extra"], "无法识别的参数：extra"),
    (["--need"], "参数 --need：需要一个值"),
]


ARGPARSE_WORDS = {"argument", "arguments", "expected", "invalid", "choice", "choose", "required", "unrecognized",
                  "allowed", "ambiguous", "option", "could", "match", "ignored", "explicit", "value"}


@pytest.mark.parametrize(("argv", "chinese"), SENTENCES, ids=[" ".join(s[0]) or "(none)" for s in SENTENCES])
def test_each_argparse_sentence_of_this_python_is_translated(argv, chinese, capsys, monkeypatch):
    """Said by what this Python's argparse really says, not by a copy of its wording."""
    monkeypatch.setenv(LANGUAGE_OVERRIDE_ENV, "en")
    _Recording.said = []
    with pytest.raises(SystemExit):
        _parser().parse_args(argv)
    english = _Recording.said[-1]
    assert capsys.readouterr().err == f"prog: error: {english} (see: prog --help)\n"

    monkeypatch.setenv(LANGUAGE_OVERRIDE_ENV, "zh_CN")
    with pytest.raises(SystemExit) as exc:
        _parser().parse_args(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("prog：错误：") and err.endswith("（参见：prog --help）\n"), err
    assert chinese in err
    # what is left in English is only what argparse quoted from the command line or the parser
    assert not ARGPARSE_WORDS.intersection(err.replace(":", " ").split()), (english, err)


def test_our_gettext_is_argparses():
    assert argparse._ is argparse_gettext and argparse.ngettext is argparse_ngettext


@pytest.mark.parametrize(("msgid", "chinese"), [
    ("argument %(argument_name)s: %(message)s", "参数 %(argument_name)s：%(message)s"),  # 3.11 on
    ("invalid choice: %(value)r (choose from %(choices)s)", "无效的选择：%(value)r（可选：%(choices)s）"),
    ("invalid choice: %(value)r, maybe you meant %(closest)r? (choose from %(choices)s)",  # 3.14
     "无效的选择：%(value)r，是否想用 %(closest)r？（可选：%(choices)s）"),
    ("the following arguments are required: %s", "缺少必需的参数：%s"),
    ("invalid %(type)s value: %(value)r", "无效的 %(type)s 值：%(value)r"),
])
def test_argparses_msgids_of_python_3_10_to_3_14_become_chinese_templates(msgid, chinese, monkeypatch):
    monkeypatch.setenv(LANGUAGE_OVERRIDE_ENV, "zh_CN")
    assert argparse_gettext(msgid) == chinese
    monkeypatch.setenv(LANGUAGE_OVERRIDE_ENV, "en")
    assert argparse_gettext(msgid) == msgid


def test_plural_forms_and_sentences_we_do_not_know(monkeypatch):
    monkeypatch.setenv(LANGUAGE_OVERRIDE_ENV, "zh_CN")
    assert argparse_ngettext("expected %s argument", "expected %s arguments", 3) % 3 == "需要 3 个值"
    assert argparse_gettext("a sentence from a newer Python: %s") == "a sentence from a newer Python: %s"
    assert argparse_gettext("show this help message and exit") == "show this help message and exit"
    # argparse still fills a known sentence's placeholders
    said = argparse_gettext("ambiguous option: %(option)s could match %(matches)s") % {
        "option": "--co", "matches": "--compare, --count"}
    assert said.startswith("选项不明确") and "--co" in said and "--compare, --count" in said
