"""Thin a long series for drawing without hiding its peaks.

A 24-hour window at 1 Hz is 86,400 points per curve; a plot a few hundred
pixels wide can show about two values per pixel column. ``peak`` keeps the
minimum and the maximum of each bucket (what pyqtgraph's 'peak' mode does), so
a one-second spike to 0% or a short thermal excursion stays visible. Missing
samples (NaN) stay missing: a bucket with no reading is drawn as a gap, and so
is a stretch of time with no rows at all (the app was not running).
"""
from __future__ import annotations

import numpy as np

# A jump in time longer than this many typical intervals is drawn as a gap.
GAP_FACTOR = 5.0
MIN_GAP_S = 5.0


def gap_positions(t: np.ndarray) -> np.ndarray:
    """Indices after which ``t`` jumps by more than a few typical intervals."""
    if t.size < 3:
        return np.empty(0, dtype=np.intp)
    dt = np.diff(t)
    # The typical interval from a sample of the steps: a median over 86,400 values per curve
    # and per repaint would cost more than the drawing.
    typical = float(np.median(dt[:: max(1, dt.size // 512)]))
    limit = max(MIN_GAP_S, GAP_FACTOR * typical)
    return np.flatnonzero(dt > limit)


def mark_gaps(t: np.ndarray, y: np.ndarray, jumps: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Insert a NaN after every jump in ``t`` so a line is not drawn across it."""
    if jumps is None:
        jumps = gap_positions(t)
    if jumps.size == 0:
        return t, y
    typical = float(np.median(np.diff(t[: min(t.size, 64)]))) if t.size > 1 else 1.0
    t_out = np.insert(t, jumps + 1, t[jumps] + typical)
    y_out = np.insert(y.astype(float, copy=False), jumps + 1, np.nan)
    return t_out, y_out


def peak(t: np.ndarray, y: np.ndarray, max_points: int) -> tuple[np.ndarray, np.ndarray]:
    """At most about ``max_points`` points: each bucket's min and max, in order."""
    n = t.size
    if n <= max_points or max_points < 4:
        return t, y
    per_bucket = int(np.ceil(n / (max_points // 2)))
    buckets = int(np.ceil(n / per_bucket))
    pad = buckets * per_bucket - n
    yf = y.astype(float, copy=False)
    if pad:
        yf = np.concatenate([yf, np.full(pad, np.nan)])
    grid = yf.reshape(buckets, per_bucket)
    # fmin/fmax ignore NaN unless the whole bucket is NaN (then the gap stays).
    lo = np.fmin.reduce(grid, axis=1)
    hi = np.fmax.reduce(grid, axis=1)
    starts = t[::per_bucket]
    ends = t[np.minimum(np.arange(buckets) * per_bucket + per_bucket - 1, n - 1)]
    t_out = np.empty(buckets * 2)
    t_out[0::2] = starts
    t_out[1::2] = (starts + ends) / 2.0
    y_out = np.empty(buckets * 2)
    y_out[0::2] = lo
    y_out[1::2] = hi
    return t_out, y_out


def for_display(t: np.ndarray, y: np.ndarray, max_points: int,
                jumps: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Gaps marked, then thinned: what a plot should be given.

    Pass ``jumps`` (from ``gap_positions(t)``) when several curves share ``t``.
    """
    t2, y2 = mark_gaps(np.asarray(t, dtype=float), np.asarray(y, dtype=float), jumps)
    return peak(t2, y2, max_points)


def active_spans(t: np.ndarray, active: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the runs where ``active`` is true, for bands on a time axis.

    A run ends at the time of the first inactive row (or at the last row when
    it is still active), the same rule ``History.throttle_intervals`` uses.
    """
    if t.size == 0 or not active.any():
        return np.empty(0), np.empty(0)
    edges = np.flatnonzero(np.diff(np.concatenate(([False], active, [False])).astype(np.int8)))
    first, stop = edges[0::2], edges[1::2]
    return t[first].astype(float), t[np.minimum(stop, t.size - 1)].astype(float)
