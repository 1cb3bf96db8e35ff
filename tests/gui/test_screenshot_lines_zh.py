"""``--screenshot``'s warnings and its error are lines like the commands' ("warning: ...",
"error: ..."), in the window's language: Chinese under ``--lang zh_CN``, the same English as before otherwise."""
from __future__ import annotations

import argparse

import pytest

import gui.app as app_module
from gui.app import AppController, build_context, take_screenshot


@pytest.fixture
def screenshot(qapp, app_paths, tmp_path, monkeypatch, capsys):
    """Takes a screenshot of the settings page at 320x240 (smaller than the window can be) into a
    path that is a folder (the PNG cannot be written there), with the graphs too slow to draw."""
    monkeypatch.setattr(app_module, "wait_for_drawn_page", lambda window, timeout_ms=10000: False)
    target = tmp_path / "taken.png"
    target.mkdir()
    controllers = []

    def take(language: str) -> tuple[int, str, str]:
        context = build_context(argparse.Namespace(demo=False), app_paths)
        controller = AppController(qapp, context, language_override=language)
        controllers.append(controller)
        window = controller.build_window("settings", restore=False)
        code = take_screenshot(controller, window, str(target), (320, 240), settle_ms=0)
        window.deleteLater()
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    yield take
    for controller in controllers:
        controller.translators.install(qapp, "en")  # the next test's widgets are English again


def _lines(err: str) -> list[str]:
    lines = err.splitlines()
    assert len(lines) == 3, err
    return lines


def test_screenshot_lines_are_chinese_under_lang_zh(screenshot, tmp_path):
    code, out, err = screenshot("zh_CN")
    assert code == 1 and out == ""
    size, graphs, failed = _lines(err)
    assert size.startswith("警告：窗口无法设为 320x240；截图为 ")
    assert graphs == "警告：图表未能及时绘制；截图中的图表可能是空的"
    assert failed == f"错误：无法写入 {tmp_path / 'taken.png'}"


def test_screenshot_lines_in_english_are_unchanged(screenshot, tmp_path):
    code, out, err = screenshot("en")
    assert code == 1 and out == ""
    size, graphs, failed = _lines(err)
    assert size.startswith("warning: the window cannot be 320x240; the picture is ")
    assert graphs == "warning: the graphs were not drawn in time; the picture may show empty plots"
    assert failed == f"error: could not write {tmp_path / 'taken.png'}"
