"""What loading the settings and the setup progress had to fix or set aside is said in the reader's
language: ``load_problem`` (and the settings' ``load_notes``) stay English for logs and tests, the
``*_text`` twins are ``Msg`` objects the CLI and the GUI render."""
from __future__ import annotations

import json
import re

import pytest

from services.i18n import Catalog
from services.settings import SettingsStore
from services.setup.progress import ProgressStore
from tests.cli_helpers import CJK, english_system, run  # noqa: F401 - english_system is a fixture

ZH = Catalog.load("zh_CN")


def _settings(tmp_path, data) -> SettingsStore:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    store = SettingsStore(path)
    store.load()
    return store


# --- settings: clamped and reset fields (services/settings.py validate) ----------------------

def test_clamped_and_reset_settings_are_said_in_english_as_before(tmp_path):
    store = _settings(tmp_path, {"exporter": {"port": 99999}, "fit": {"seq": 0.5},
                                 "general": {"language": "klingon"}})
    assert store.load_notes == [
        "exporter.port = 99999 is out of range (1 to 65535); using 65535",
        "fit.seq = 0.5 is out of range (1 to 1e+07); using 1",
        "general.language = 'klingon' is not one of auto, en, zh_CN; using 'auto'",
    ]
    assert store.load_problem == "; ".join(store.load_notes)
    assert str(store.load_problem_text) == store.load_problem
    assert [str(note) for note in store.load_notes_text] == store.load_notes


def test_clamped_and_reset_settings_are_said_in_chinese(tmp_path):
    store = _settings(tmp_path, {"exporter": {"port": 99999}, "general": {"language": "klingon"}})
    assert ZH.render(store.load_problem_text) == (
        "exporter.port = 99999 超出范围（1 到 65535）；改用 65535；"
        "general.language = 'klingon' 不是 auto, en, zh_CN 之一；改用 'auto'")
    assert ZH.render(store.load_notes_text[0]) == "exporter.port = 99999 超出范围（1 到 65535）；改用 65535"


def test_a_nan_setting_names_the_default_it_falls_back_to(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"alerts": {"temperature_c": NaN}}', encoding="utf-8")
    store = SettingsStore(path)
    store.load()
    assert store.load_problem == "alerts.temperature_c = nan is out of range (30 to 120); using 83.0"
    assert ZH.render(store.load_problem_text) == "alerts.temperature_c = nan 超出范围（30 到 120）；改用 83.0"


def test_a_read_problem_wins_over_the_notes_and_a_good_load_clears_them(tmp_path):
    store = _settings(tmp_path, {"exporter": {"port": 0}})
    assert store.load_notes_text
    (tmp_path / "settings.json").write_text("{}", encoding="utf-8")
    store.load()
    assert store.load_notes == [] and store.load_notes_text == []
    assert store.load_problem is None and store.load_problem_text is None


# --- setup progress.json (services/setup/progress.py) ----------------------------------------

def _progress(tmp_path, text: str) -> ProgressStore:
    path = tmp_path / "progress.json"
    path.write_text(text, encoding="utf-8")
    return ProgressStore(path).load()


def _kept(tmp_path) -> str:
    return next(tmp_path.glob("progress.json.broken-*")).name


def test_an_unreadable_progress_file_in_english_and_chinese(tmp_path):
    progress = _progress(tmp_path, "{ not json")
    assert progress.load_problem == "progress.json could not be read (JSONDecodeError); starting fresh"
    assert str(progress.load_problem_text) == progress.load_problem
    assert ZH.render(progress.load_problem_text) == "progress.json 无法读取（JSONDecodeError）；将从头开始记录进度"
    assert _kept(tmp_path)  # set aside, not lost


@pytest.mark.parametrize(("text", "english", "chinese"), [
    ("[1, 2]", "progress.json: the top level is not an object", "progress.json：顶层不是 JSON 对象"),
    ('{"steps": [1]}', "progress.json: 'steps' is not an object", "progress.json：“steps” 不是 JSON 对象"),
    ('{"steps": {"a": 1}}', "progress.json: steps.a is not an object", "progress.json：steps.a 不是 JSON 对象"),
    ('{"steps": {"a": 1, "b": 2, "c": 3}}', "progress.json: steps.a is not an object (and 2 more)",
     "progress.json：steps.a 不是 JSON 对象（另有 2 处问题）"),
    ('{"steps": {"a": {"at": "5"}}}', 'progress.json: steps.a.at should be a whole number or a number, not str "5"',
     'progress.json：steps.a.at 应为整数或数字，而不是 str "5"'),
    ('{"steps": {"a": {"state": "gone"}}}',
     'progress.json: steps.a.state is "gone", not one of pending, done, skipped, failed, undone',
     'progress.json：steps.a.state 为 "gone"，不是 pending, done, skipped, failed, undone 之一'),
    ('{"steps": {"a": {"backups": [{"path": "/x", "kind": "file", "mode": "9"}]}}}',
     'progress.json: steps.a.backups[0].mode is "9", not an octal file mode',
     'progress.json：steps.a.backups[0].mode 为 "9"，不是八进制的文件权限'),
    ('{"steps": {"a": {"backups": [{"path": "/x", "kind": "symlink"}]}}}',
     "progress.json: steps.a.backups[0].link is missing for a symbolic link",
     "progress.json：steps.a.backups[0].link 缺失：符号链接的备份记录必须有这一项"),
])
def test_a_damaged_progress_file_is_kept_and_said_in_both_languages(tmp_path, text, english, chinese):
    progress = _progress(tmp_path, text)
    kept = _kept(tmp_path)
    assert progress.load_problem == f"{english}; the file was kept as {kept}"
    assert ZH.render(progress.load_problem_text) == f"{chinese}；原文件已保留为 {kept}"
    # a damaged step's record keeps the English reason (saved with it; undo refuses with it)
    invalid = [rec.invalid for rec in progress.records.values() if rec.invalid]
    if "steps." in english:
        assert invalid[0] == english.removeprefix("progress.json: ").removesuffix(" (and 2 more)")
    else:
        assert invalid == []


def test_the_setup_command_notes_a_damaged_progress_file_in_chinese(app_paths, capsys):
    from services.setup.planner import setup_dir

    work = setup_dir(app_paths)
    work.mkdir(parents=True)
    (work / "progress.json").write_text("{ not json", encoding="utf-8")
    argv = ["setup", "--plan", "--windows", "--gpu", "10de:2684"]
    code, out, err = run(["--lang", "zh_CN", *argv], capsys)
    assert code == 0 and out
    assert err.splitlines()[0] == "提示：progress.json 无法读取（JSONDecodeError）；将从头开始记录进度"

    (work / "progress.json").write_text("{ not json", encoding="utf-8")
    code, out, err = run(argv, capsys)
    assert code == 0
    assert err.splitlines()[0] == "note: progress.json could not be read (JSONDecodeError); starting fresh"
    assert not CJK.search(err) and re.search(r"Windows|10de", out)
