"""A broken hardware catalogue (a packaging bug) is one line in the reader's language: ``CatalogError``
is a ``TranslatableError`` whose ``str()`` stays the English it always was."""
from __future__ import annotations

import json

import pytest

from services.hardware import catalog as catalog_module
from services.hardware.catalog import CatalogError, load_catalog
from services.i18n import Catalog, TranslatableError
from tests.cli_helpers import english_system, run  # noqa: F401 - english_system is a fixture

pytestmark = pytest.mark.usefixtures("english_system")
ZH = Catalog.load("zh_CN")
REAL_LOAD = load_catalog


def _unreadable(tmp_path):
    (tmp_path / "gpus.json").write_text("{not json", encoding="utf-8")
    return tmp_path


def _malformed(tmp_path):
    (tmp_path / "gpus.json").write_text(json.dumps({"no_gpus": []}), encoding="utf-8")
    return tmp_path


def test_an_unreadable_catalogue_file_in_english_and_chinese(tmp_path):
    with pytest.raises(CatalogError) as info:
        load_catalog(_unreadable(tmp_path))
    assert isinstance(info.value, TranslatableError)
    english = str(info.value)
    assert english.startswith("cannot read gpus.json: Expecting property name enclosed in double quotes")
    assert str(info.value.message) == english
    assert ZH.render(info.value.message) == "无法读取 gpus.json：" + english.removeprefix("cannot read gpus.json: ")


def test_a_malformed_catalogue_in_english_and_chinese(tmp_path):
    with pytest.raises(CatalogError) as info:
        load_catalog(_malformed(tmp_path))
    assert str(info.value) == "catalogue data is malformed: KeyError('gpus')"
    assert ZH.render(info.value.message) == "硬件目录数据格式有误：KeyError('gpus')"


def test_the_psu_command_says_a_broken_catalogue_in_the_runs_language(tmp_path, capsys, monkeypatch):
    folder = _malformed(tmp_path)
    monkeypatch.setattr(catalog_module, "load_catalog", lambda: REAL_LOAD(folder))
    code, out, err = run(["--lang", "zh_CN", "psu", "--gpu", "4090"], capsys)
    assert (code, out, err) == (1, "", "错误：硬件目录数据格式有误：KeyError('gpus')\n")
    code, out, err = run(["psu", "--gpu", "4090"], capsys)
    assert (code, out, err) == (1, "", "error: catalogue data is malformed: KeyError('gpus')\n")
