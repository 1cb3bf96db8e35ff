"""A user's desktop entry that is not UTF-8 is left alone: a lossy read would back up a copy
that could never restore the original."""
from __future__ import annotations

import pytest

from services.hybrid.preference import PlanError
from services.hybrid.preference_linux import desktop_exec_quote, plan_linux
from tests.services.hybrid.test_preference import make_program, nvidia_inventory


def test_a_latin1_desktop_entry_is_refused_not_mangled(tmp_path):
    home = tmp_path / "home"
    program = make_program(tmp_path / "opt", "krita")
    user_apps = home / ".local/share/applications"
    user_apps.mkdir(parents=True)
    original = ("[Desktop Entry]\nName=Krita für Grafik\nExec=" + desktop_exec_quote(program)
                + " %F\nType=Application\n").encode("latin-1")
    entry = user_apps / "org.kde.krita.desktop"
    entry.write_bytes(original)
    with pytest.raises(PlanError) as caught:
        plan_linux(program, nvidia_inventory(tmp_path), home, system_app_dirs=[])
    assert "not UTF-8" in str(caught.value.message) and str(entry) in str(caught.value.message)
    assert entry.read_bytes() == original
