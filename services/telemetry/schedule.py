"""The sampling schedule both samplers keep (the hub's thread and ``monitor``'s loop).

The next reading is due one interval after the previous due time (``next += interval``), not
"now + interval", so the rate does not drift with the cost of a read; when the sampler was held up
for longer than a slot (a suspend, a slow call), the missed slots are skipped rather than read in a burst.
"""
from __future__ import annotations

import math


def next_slot(previous: float | None, interval: float, now: float) -> float:
    """The next due time after ``now`` on the schedule (``now + interval`` to start one)."""
    if previous is None:
        return now + interval
    nxt = previous + interval
    if nxt <= now:
        nxt += math.floor((now - nxt) / interval + 1) * interval
    return nxt
