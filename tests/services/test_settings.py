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


# ---- issue 23: a settings file from a newer version is kept ---------------------------------
def _newer_file(path):
    data = {"general": {"language": "zh_CN", "theme": "midnight"},
            "psu": {"psu_w": 20000, "ram_sticks": 4, "future_rail": {"v": 12}},
            "fit": {"seq": 4096},
            "telemetry_v9": {"anything": [1, 2, 3]}}
    path.write_text(json.dumps(data), encoding="utf-8")
    return data


def test_opening_and_saving_unchanged_keeps_a_newer_versions_file_byte_for_byte(tmp_path):
    path = tmp_path / "settings.json"
    _newer_file(path)
    before = path.read_bytes()
    store = SettingsStore(path)
    store.load()
    assert store.settings.psu.psu_w == 10_000  # clamped in memory for this version
    store.save()  # what a page does on opening: nothing changed
    assert path.read_bytes() == before and not (tmp_path / "settings.json.bak").exists()


def test_saving_a_change_writes_only_that_field_and_keeps_a_backup(tmp_path):
    path = tmp_path / "settings.json"
    data = _newer_file(path)
    before = path.read_bytes()
    store = SettingsStore(path)
    settings = store.load()
    settings.psu.ram_sticks = 2
    store.save(settings)
    after = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(json.dumps(data))
    expected["psu"]["ram_sticks"] = 2
    assert after == expected  # unknown keys, sections and the out-of-range psu_w all kept
    assert (tmp_path / "settings.json.bak").read_bytes() == before
    settings.fit.seq = 8192
    store.save(settings)
    assert (tmp_path / "settings.json.bak").read_bytes() == before  # the backup is of the original
    assert json.loads(path.read_text(encoding="utf-8"))["fit"]["seq"] == 8192


def test_a_deeply_nested_settings_file_is_kept_aside_not_a_recursion_error(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"general": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    store = SettingsStore(path)
    assert store.load() == Settings()
    assert store.load_problem and "kept it as" in store.load_problem
