"""Recording and replay errors, unreadable-session problems and "skipped" notes follow the run's
language where a person reads them (CLI stderr, the session list), while ``str()`` and the JSON
output stay the English line, byte for byte.

The exceptions carry the line as a ``Msg`` (``exc.message``); file names, ids and the words of
SQLite or the OS are placeholders, kept as they come.
"""
from __future__ import annotations

import os

import json
import re
import sqlite3
import string
from pathlib import Path

import pytest

from tests.services.telemetry_helpers import recording_with_bad_cells
from tests.cli_helpers import CJK, english_system, run  # noqa: F401 - english_system is a fixture

from services.i18n import Catalog, Msg
from services.telemetry import recording, replay_errors, session_store
from services.telemetry.recording import RecordingError
from services.telemetry.replay import open_replay
from services.telemetry.replay_errors import ReplayError
from services.telemetry.session_store import SessionStore

pytestmark = pytest.mark.usefixtures("english_system")

DAMAGED_ID = "20200101-000000"


@pytest.fixture(scope="module")
def zh() -> Catalog:
    return Catalog.load("zh_CN")


@pytest.fixture
def folder(tmp_path) -> Path:
    """A recordings folder with one damaged file (not a database at all)."""
    d = tmp_path / "recordings"
    d.mkdir()
    (d / f"session-{DAMAGED_ID}.sqlite").write_bytes(b"this is no database")
    return d


# ---------------------------------------------------------------- the CLI


def test_unknown_session_id_in_both_languages(folder, tmp_path, capsys):
    args = ["sessions", "--dir", str(folder), "--export", "2020", "--csv", str(tmp_path / "x.csv")]
    code, out, err = run(["--lang", "zh_CN", *args], capsys)
    assert (code, out) == (2, "")
    assert err == f"错误：{folder} 中没有会话 '2020'\n"
    code, out, err = run(["--lang", "en", *args], capsys)
    assert (code, out) == (2, "")
    assert err == f"error: no session '2020' in {folder}\n"


def test_damaged_recording_export_and_compare_in_both_languages(folder, tmp_path, capsys):
    name = f"session-{DAMAGED_ID}.sqlite"
    export = ["sessions", "--dir", str(folder), "--export", DAMAGED_ID, "--csv", str(tmp_path / "x.csv")]
    code, _, err = run(["--lang", "zh_CN", *export], capsys)
    assert code == 2
    assert err == f"错误：{name}：不是可读取的录制文件（file is not a database）\n"  # SQLite's own words stay
    code, _, err = run(["--lang", "en", *export], capsys)
    assert code == 2
    assert err == f"error: {name}: not a readable recording (file is not a database)\n"
    compare = ["sessions", "--dir", str(folder), "--compare", DAMAGED_ID, DAMAGED_ID]
    code, _, err = run(["--lang", "zh_CN", *compare], capsys)
    assert code == 2 and err.startswith("错误：") and "不是可读取的录制文件" in err
    assert not (tmp_path / "x.csv").exists()


def test_session_list_says_the_problem_in_chinese_and_json_stays_english(folder, capsys):
    name = f"session-{DAMAGED_ID}.sqlite"
    code, out, _ = run(["--lang", "zh_CN", "sessions", "--dir", str(folder), "--list"], capsys)
    assert code == 0
    assert f"{DAMAGED_ID}  无法读取：{name}：不是可读取的录制文件（file is not a database）" in out
    code, out, _ = run(["--lang", "en", "sessions", "--dir", str(folder), "--list"], capsys)
    assert code == 0
    assert f"{DAMAGED_ID}  unreadable: {name}: not a readable recording (file is not a database)" in out
    assert not CJK.search(out)

    outputs = []
    for language in ("zh_CN", "en"):
        code, out, _ = run(["--lang", language, "sessions", "--dir", str(folder), "--list", "--json"], capsys)
        assert code == 0
        outputs.append(out)
    assert outputs[0] == outputs[1]  # JSON is the same in every language
    (entry,) = json.loads(outputs[0])["sessions"]
    assert entry["problem"] == f"{name}: not a readable recording (file is not a database)"


def test_export_of_a_partly_damaged_recording_notes_what_was_skipped(tmp_path, capsys):
    path = recording_with_bad_cells(tmp_path)
    target = tmp_path / "out.csv"
    args = ["sessions", "--dir", str(tmp_path), "--export", str(path), "--csv", str(target)]
    code, _, err = run(["--lang", "zh_CN", *args], capsys)
    assert code == 0
    assert err == f"提示：{path.name}：已跳过 2 行无法读取的数据和 2 个无法读取的数值\n"
    code, _, err = run(["--lang", "en", *args], capsys)
    assert code == 0
    assert err == f"note: {path.name}: 2 unreadable rows and 2 unreadable values skipped\n"


# ---------------------------------------------------------------- the services


def _bad_files(d: Path) -> dict[str, str]:
    """File name -> the English line open_replay gives today for it (``{d}`` is the folder)."""
    (d / "empty.csv").write_text("", encoding="utf-8")
    (d / "binary.csv").write_bytes(b"\xff\xfe\x00garbage\x00\xff")
    (d / "noheader.csv").write_text("1, 2, 3\n4, 5, 6\n", encoding="utf-8")
    (d / "other.csv").write_text("a,b,c\n1,2,3\n", encoding="utf-8")
    (d / "header.csv").write_text("timestamp, index, temperature.gpu\n", encoding="utf-8")
    (d / "bad.csv").write_text("timestamp, index, temperature.gpu\nx,y,z\nq,w,e\n2024/01/01 00:00:00.000, 0, 50\n",
                               encoding="utf-8")
    (d / "long.csv").write_text("x" * 200_000 + "\n", encoding="utf-8")
    (d / "folder.csv").mkdir()
    (d / "broken.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    conn = sqlite3.connect(d / "foreign.sqlite")
    conn.execute("CREATE TABLE t(a)")
    conn.commit()
    conn.close()
    return {
        "missing.csv": "{d}/missing.csv: no such file",
        "folder.csv": "{d}/folder.csv: is a folder, not a file",
        "empty.csv": "{d}/empty.csv: the file is empty",
        "binary.csv": "{d}/binary.csv: not an nvidia-smi CSV log or a GPU Assistant recording (binary data)",
        "noheader.csv": "{d}/noheader.csv: no header line; record with --format=csv (without noheader)",
        "other.csv": "{d}/other.csv: not an nvidia-smi CSV log or a GPU Assistant recording",
        "header.csv": "{d}/header.csv: the log has a header but no readings",
        "bad.csv": "{d}/bad.csv: 2 of 3 rows are unreadable; not a usable nvidia-smi CSV log",
        "long.csv": "{d}/long.csv: not an nvidia-smi CSV log (a line longer than 128 KiB)",
        "broken.sqlite": "broken.sqlite: not a readable recording (file is not a database)",
        "foreign.sqlite": "foreign.sqlite: an SQLite file, but not a GPU Assistant recording",
    }


def test_every_replay_error_is_english_in_str_and_chinese_when_rendered(tmp_path, zh):
    for name, english in _bad_files(tmp_path).items():
        with pytest.raises(ReplayError) as caught:
            open_replay(tmp_path / name)
        exc = caught.value
        assert str(exc) == english.replace("{d}/", "{d}" + os.sep).format(d=tmp_path), name  # the path as given
        assert isinstance(exc.message, Msg), name
        chinese = zh.render(exc.message)
        assert CJK.search(chinese) and name in chinese and "{" not in chinese, (name, chinese)
        said_by_sqlite = "file is not a database"  # a placeholder: kept as SQLite says it
        leftover = chinese.replace(str(tmp_path), "").replace(name, "").replace(said_by_sqlite, "")
        assert not re.search(r"\b(not|cannot|the|empty|no such)\b", leftover), chinese


def test_unreadable_session_problem_keeps_english_and_offers_the_translation(folder, zh):
    (info,) = SessionStore(folder).list()
    assert info.problem == f"session-{DAMAGED_ID}.sqlite: not a readable recording (file is not a database)"
    assert info.to_json()["problem"] == info.problem
    assert str(info.shown_problem) == info.problem
    assert zh.render(info.shown_problem) == f"session-{DAMAGED_ID}.sqlite：不是可读取的录制文件（file is not a database）"
    with pytest.raises(RecordingError) as caught:
        SessionStore(folder).summary(DAMAGED_ID)
    assert str(caught.value) == info.problem
    assert zh.render(caught.value.message) == zh.render(info.shown_problem)


def test_skipped_rows_notes_of_a_replay_are_translatable(tmp_path, zh):
    path = recording_with_bad_cells(tmp_path)
    (note,) = open_replay(path).notes
    assert str(note) == f"{path.name}: 2 unreadable rows and 2 unreadable values skipped"
    assert zh.render(note) == f"{path.name}：已跳过 2 行无法读取的数据和 2 个无法读取的数值"
    log = tmp_path / "some.csv"
    log.write_text("timestamp, index, temperature.gpu\n2024/01/01 00:00:01.000, 0, 50\nbad,row,here\n"
                   + "".join(f"2024/01/01 00:00:{i:02d}.000, 0, 5{i % 10}\n" for i in range(2, 50)), encoding="utf-8")
    (note,) = open_replay(log).notes
    assert str(note) == "some.csv: 1 unreadable rows skipped"
    assert zh.render(note) == "some.csv：已跳过 1 行无法读取的数据"


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_has_a_chinese_line_with_the_same_placeholders(zh):
    messages = [value for module in (recording, replay_errors, session_store) for value in vars(module).values()
                if isinstance(value, Msg) and value.context in ("Recording", "Replay")]
    assert len(messages) >= 20
    for msg in messages:
        chinese = zh.tr(msg.context, msg.text)
        assert chinese != msg.text and CJK.search(chinese), msg.text
        assert _placeholders(chinese) == _placeholders(msg.text), (msg.text, chinese)


def test_the_replay_progress_line_speaks_the_callers_language():
    import io

    from services.i18n import Catalog
    from services.telemetry.replay import text_progress

    english, chinese = io.StringIO(), io.StringIO()
    text_progress("run.csv", english, min_bytes=0)(40, 100)
    text_progress("run.csv", chinese, min_bytes=0, render=Catalog.load("zh_CN").render)(40, 100)
    assert english.getvalue() == "reading run.csv: 40%\n"
    assert chinese.getvalue() == "正在读取 run.csv：40%\n"
