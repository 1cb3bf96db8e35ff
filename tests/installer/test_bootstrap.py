"""installer/bootstrap.py, the README's one command per platform: what it does with a .venv it finds."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def bootstrap(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("bootstrap_under_test", ROOT / "installer" / "bootstrap.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "VENV", tmp_path / ".venv")
    return module


def test_another_systems_venv_is_refused_untouched(bootstrap, tmp_path):
    """A checkout shared between Linux and Windows: the other system's .venv is not built over."""
    venv = tmp_path / ".venv"
    other = venv / ("bin/python" if os.name == "nt" else "Scripts/python.exe")
    other.parent.mkdir(parents=True)
    other.write_text("")
    (venv / "pyvenv.cfg").write_text("home = elsewhere\n")
    stamp = venv / ".installed-requirements-dev.txt"
    stamp.write_text("a digest")
    before = sorted(p.relative_to(venv) for p in venv.rglob("*"))
    with pytest.raises(SystemExit) as caught:
        bootstrap.ensure_venv("requirements-dev.txt")
    message = str(caught.value.code)
    assert "cannot use" in message and "Move it aside or delete it" in message
    assert str(bootstrap.venv_python().relative_to(venv)) in message
    assert sorted(p.relative_to(venv) for p in venv.rglob("*")) == before
    assert (venv / "pyvenv.cfg").read_text() == "home = elsewhere\n"


def test_the_python_of_this_system_is_where_venv_puts_it(bootstrap, tmp_path):
    python = bootstrap.venv_python()
    if os.name == "nt":
        assert python == tmp_path / ".venv" / "Scripts" / "python.exe"
    else:
        assert python == tmp_path / ".venv" / "bin" / "python"
