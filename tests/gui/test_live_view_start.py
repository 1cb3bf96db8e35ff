"""A fresh start fills the graphs' width and widens as data comes in (issue 30)."""
from __future__ import annotations

from gui.monitor.dashboard import MIN_LIVE_SPAN_S, live_view_start

NOW = 1_800_000_000.0


def test_a_fresh_history_is_shown_across_the_width_not_at_the_right_edge():
    # 20 s of readings in a 10-minute window: the view spans the minimum, starting before the first reading
    assert live_view_start((NOW - 20, NOW), NOW, 600) == NOW - MIN_LIVE_SPAN_S
    # 4 minutes in: the view starts at the first reading and widens with it
    assert live_view_start((NOW - 240, NOW), NOW, 600) == NOW - 240
    # once the data covers the window, the window is what is shown
    assert live_view_start((NOW - 7200, NOW), NOW, 600) == NOW - 600
    assert live_view_start(None, NOW, 600) == NOW - 600  # nothing yet: the chosen window


def test_a_window_shorter_than_the_minimum_span_is_kept():
    assert live_view_start((NOW - 5, NOW), NOW, 30) == NOW - 30
