from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from services.i18n import Catalog, resolve_language, translate

ROOT = Path(__file__).resolve().parents[2]


def test_msg_renders_english_and_nested_args():
    inner = translate("Test", "heat")
    msg = translate("Test", "Slowed by {reason} since {t}").format(reason=inner, t="10:00")
    assert str(msg) == "Slowed by heat since 10:00"
    table = {("Test", "Slowed by {reason} since {t}"): "自 {t} 起因{reason}降速", ("Test", "heat"): "过热"}
    assert msg.render(lambda c, s: table.get((c, s), s)) == "自 10:00 起因过热降速"


def test_broken_translation_falls_back_to_english():
    msg = translate("Test", "Used {used}").format(used=3)
    assert msg.render(lambda c, s: "已用 {wrong}") == "Used 3"


def test_catalog_reads_shipped_chinese():
    catalog = Catalog.load("zh_CN")
    assert len(catalog) > 0
    assert catalog.tr("Pages", "Settings") == "设置"
    assert Catalog.load("en").tr("Pages", "Settings") == "Settings"


def test_resolve_language(monkeypatch):
    assert resolve_language("zh_CN") == "zh_CN"
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert resolve_language("auto") == "zh_CN"
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert resolve_language("auto") == "en"


def test_every_string_is_translated():
    result = subprocess.run([sys.executable, str(ROOT / "installer" / "i18n.py"), "check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_compiled_translations_are_current(tmp_path):
    """The shipped .qm files must match their .ts sources."""
    from installer.i18n import tool

    lrelease = tool("pyside6-lrelease")  # Windows: Scripts\pyside6-lrelease.exe beside the venv's python
    if lrelease is None:
        pytest.skip("pyside6-lrelease is not installed (a PySide6 without its tools): cannot compile the .ts files")
    for ts in sorted((ROOT / "resources" / "translations").glob("*.ts")):
        fresh = tmp_path / (ts.stem + ".qm")
        subprocess.run([lrelease, "-silent", str(ts), "-qm", str(fresh)], check=True)
        shipped = ts.with_suffix(".qm")
        assert shipped.exists(), f"{shipped.name} missing: run installer/i18n.py compile"
        assert shipped.read_bytes() == fresh.read_bytes(), f"{shipped.name} is stale: run installer/i18n.py compile"
