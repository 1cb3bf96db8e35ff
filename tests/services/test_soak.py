"""A short soak in the suite (the 24 h figures come from tests/bench/bench_soak.py)."""
from __future__ import annotations

from tests.bench.bench_soak import run_soak


def test_an_hour_of_sampling_records_every_second_and_leaves_nothing_running(tmp_path):
    result = run_soak(1200, tmp_path)
    assert result.seconds_recorded == 1200
    assert result.largest_gap_s == 1.0
    assert result.ended_marker
    assert result.history_rows == 1200
    assert result.threads_after == result.threads_before
    assert result.threads_during == result.threads_before  # tick-driven: the hub made no thread
