from __future__ import annotations

import main


def test_doctor_bad_python_path_is_usage_error(capsys, tmp_path):
    assert main.main(["doctor", "--python", str(tmp_path / "nope" / "python")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no such interpreter") and "Traceback" not in err


def test_doctor_env_folder_without_python(capsys, tmp_path):
    assert main.main(["doctor", "--python", str(tmp_path)]) == 2
    assert "no Python interpreter inside" in capsys.readouterr().err


def test_doctor_list_envs_json(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))  # the home folder on Windows
    (tmp_path / ".venv" / "pyvenv.cfg").parent.mkdir(parents=True)
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("")
    for exe in ("bin/python", "Scripts/python.exe"):  # the Linux and the Windows layout
        (tmp_path / ".venv" / exe).parent.mkdir(exist_ok=True)
        (tmp_path / ".venv" / exe).write_text("")
    assert main.main(["doctor", "--list-envs", "--json"]) == 0
    import json

    assert json.loads(capsys.readouterr().out)[0]["kind"] == "venv"
