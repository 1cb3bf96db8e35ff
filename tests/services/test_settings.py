from __future__ import annotations

import json

from services.settings import Settings, SettingsStore, from_dict


def test_round_trip(tmp_path):
    store = SettingsStore(tmp_path / "settings.json")
    store.load()
    store.settings.general.language = "zh_CN"
    store.settings.alerts.temperature_c = 80
    store.save()
    again = SettingsStore(tmp_path / "settings.json")
    assert again.load().general.language == "zh_CN"
    assert again.settings.alerts.temperature_c == 80.0


def test_bad_values_fall_back_to_defaults():
    loaded = from_dict(Settings, {"general": {"language": 5, "keep_running_in_tray": "yes"},
                                  "monitor": {"fast_interval_s": 2}, "unknown": 1})
    assert loaded.general.language == "auto"
    assert loaded.general.keep_running_in_tray is True
    assert loaded.monitor.fast_interval_s == 2.0


def test_corrupt_file_is_kept_aside_not_lost(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    store = SettingsStore(path)
    settings = store.load()
    assert settings == Settings()
    assert store.load_problem and "kept it as" in store.load_problem
    kept = list(tmp_path.glob("settings.json.broken-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == "{not json"


def test_too_deeply_nested_file_is_kept_aside_not_a_traceback(tmp_path):
    # json raises RecursionError, not ValueError, past its nesting limit
    path = tmp_path / "settings.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    store = SettingsStore(path)
    assert store.load() == Settings()
    assert store.load_problem and "kept it as" in store.load_problem
    assert len(list(tmp_path.glob("settings.json.broken-*"))) == 1


def test_save_notifies_listeners(tmp_path):
    store = SettingsStore(tmp_path / "s.json")
    seen = []
    store.subscribe(seen.append)
    store.save()
    assert seen == [store.settings]
    assert json.loads((tmp_path / "s.json").read_text())["general"]["language"] == "auto"
