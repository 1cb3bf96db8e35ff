"""Settings with out-of-range values are clamped or reset on load, field by field, and said."""
from __future__ import annotations

import json
import math
import os

import pytest

from services.settings import Settings, SettingsStore, validate


def _store(tmp_path, data) -> SettingsStore:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    store = SettingsStore(path)
    store.load()
    return store


@pytest.mark.parametrize("port, expected", [(99999, 65535), (-1, 1), (0, 1), (9400, 9400)])
def test_exporter_port_is_clamped(tmp_path, port, expected):
    store = _store(tmp_path, {"exporter": {"port": port}})
    assert store.settings.exporter.port == expected
    assert isinstance(store.settings.exporter.port, int)
    if port != expected:
        assert any("exporter.port" in note for note in store.load_notes)
    else:
        assert store.load_notes == []


def test_nan_alert_temperature_falls_back_to_the_default(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"alerts": {"temperature_c": NaN, "memory_pct": Infinity}}', encoding="utf-8")
    store = SettingsStore(path)
    settings = store.load()
    assert settings.alerts.temperature_c == Settings().alerts.temperature_c
    assert settings.alerts.memory_pct == Settings().alerts.memory_pct
    assert "alerts.temperature_c" in store.load_problem and "alerts.memory_pct" in store.load_problem


def test_huge_fast_interval_is_clamped_and_slow_follows(tmp_path):
    store = _store(tmp_path, {"monitor": {"fast_interval_s": 1e308, "slow_interval_s": 1.0}})
    assert store.settings.monitor.fast_interval_s == 3600.0
    assert store.settings.monitor.slow_interval_s >= store.settings.monitor.fast_interval_s
    assert all(math.isfinite(v) for v in (store.settings.monitor.fast_interval_s,))


def test_unknown_language_is_reset(tmp_path):
    store = _store(tmp_path, {"general": {"language": "klingon"}})
    assert store.settings.general.language == "auto"
    assert any("general.language" in n for n in store.load_notes)


def test_save_never_writes_a_bad_value(tmp_path):
    store = SettingsStore(tmp_path / "settings.json")
    settings = Settings()
    settings.exporter.port = 123456
    store.save(settings)
    assert json.loads((tmp_path / "settings.json").read_text())["exporter"]["port"] == 65535


def test_validate_leaves_good_settings_alone():
    assert validate(Settings()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_settings_file_is_refused_without_blocking(tmp_path):
    path = tmp_path / "settings.json"
    os.mkfifo(path)
    store = SettingsStore(path)
    settings = store.load()  # would block forever on open() if it tried to read
    assert settings == Settings()
    assert "FIFO" in store.load_problem


def test_hub_survives_a_huge_interval():
    from services.telemetry.hub import TelemetryHub
    from services.telemetry.simulated import SimulatedSource

    hub = TelemetryHub(SimulatedSource(seed=0), fast_interval_s=1e308, slow_interval_s=1e308)
    assert hub.fast_interval_s == 3600.0
    with pytest.raises(ValueError):
        TelemetryHub(SimulatedSource(seed=0), fast_interval_s=math.nan)
