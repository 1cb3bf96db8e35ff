"""The card's tiles judge readings by the health rules and the user's alert settings."""
from __future__ import annotations

import dataclasses
import time

from gui.monitor.card import GpuCard
from services.settings import AlertSettings
from tests.gui.fake_hub import gpu_info, gpu_sample


def _card(qtbot, alerts: AlertSettings) -> GpuCard:
    card = GpuCard(gpu_info(0), alert_settings=lambda: alerts)
    qtbot.addWidget(card)
    return card


def test_memory_tile_turns_red_at_the_users_memory_alert_level(qtbot):
    alerts = AlertSettings(memory_pct=95.0)
    card = _card(qtbot, alerts)
    sample = gpu_sample(0, time.time())  # 18000 of 24564 MiB: 73 %
    card.update_live(sample, {})
    assert card.tile_memory.property("level") == "ok"
    alerts.memory_pct = 70.0  # the user lowered the alert; the card reads the settings each time
    card.update_live(sample, {})
    assert card.tile_memory.property("level") == "hot"


def test_fan_tile_follows_the_fan_stopped_while_hot_alert(qtbot):
    alerts = AlertSettings(fan_zero_hot_c=70.0)
    card = _card(qtbot, alerts)
    still = dataclasses.replace(gpu_sample(0, time.time(), temperature=74.0), fan_pct=0.0)
    card.update_live(still, {})
    assert card.tile_fan.property("level") == "hot"
    alerts.fan_zero_hot_c = 80.0
    card.update_live(still, {})
    assert card.tile_fan.property("level") == "ok"


def test_power_tile_is_warm_at_the_power_limit(qtbot):
    card = _card(qtbot, AlertSettings())
    sample = gpu_sample(0, time.time())  # 320 W of a 450 W limit
    card.update_live(sample, {})
    assert card.tile_power.property("level") == "ok"
    card.update_live(dataclasses.replace(sample, power_w=445.0), {})
    assert card.tile_power.property("level") == "warm"


def test_a_plot_title_too_wide_for_its_plot_is_shortened_not_clipped(qapp):
    from PySide6.QtGui import QFont, QFontMetricsF

    from gui.monitor.graph_titles import fitted_title

    font = QFont()
    font.setPointSizeF(8)
    metrics = QFontMetricsF(font)
    stats = "min 64 · avg 68 · max 69"
    wide, cut = fitted_title("temperature", stats, 2000, metrics)
    assert not cut and "slowdown" in wide and stats in wide
    narrow, cut = fitted_title("temperature", stats, 150, metrics)
    assert cut and "slowdown" not in narrow and "…" in narrow
    for line in narrow.replace("<br>", "\n").splitlines():  # every line fits, tags aside
        plain = line.replace("</span>", "")
        while "<span" in plain:
            start = plain.index("<span")
            plain = plain[:start] + plain[plain.index(">", start) + 1:]
        assert metrics.horizontalAdvance(plain) <= 150
