"""Carries the slow-tier readings into the fast-tier readings between them.

Fan, PCIe, encoder/decoder, ECC and processes are read on SLOW ticks only
(every few seconds). A FAST-only reading leaves them ``None``, but
``None`` means "this GPU does not report it" to every consumer (the JSON's
null, the CSV's ``[N/A]``, the dashboard's "n/a"). So both the hub (the app)
and ``monitor`` (the CLI) pass each reading through one :class:`SlowFieldCarry`,
which fills those fields with the last SLOW values of the same GPU, matched by
UUID so a GPU that changes its index after a resume keeps its own values. This
is the only carry-over: sources return None for a tier they were not asked for.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from services.telemetry.fields import SLOW_FIELDS
from services.telemetry.model import DeviceState, Snapshot, SystemSample, Tier


class SlowFieldCarry:
    """Remembers the last SLOW values per GPU UUID (and the last system sample)."""

    def __init__(self) -> None:
        self._by_uuid: dict[str, dict[str, Any]] = {}
        self._last_system: SystemSample | None = None

    def apply(self, snapshot: Snapshot, tiers: Tier) -> Snapshot:
        """``snapshot`` with the slow fields filled in on a FAST-only reading.

        A SLOW reading is stored as it is (a ``None`` there is a real "not
        supported" and replaces an older value). A GPU that is not OK keeps its
        empty fields: stale values must not look like readings of a lost GPU.
        """
        carried = []
        changed = False
        for sample in snapshot.samples:
            if Tier.SLOW in tiers:
                self._by_uuid[sample.uuid] = {f: getattr(sample, f) for f in SLOW_FIELDS}
                carried.append(sample)
                continue
            previous = self._by_uuid.get(sample.uuid)
            if previous is None or sample.state != DeviceState.OK:
                carried.append(sample)
                continue
            updates = {f: v for f, v in previous.items() if getattr(sample, f) is None and v is not None}
            if updates:
                sample = dataclasses.replace(sample, **updates)
                changed = True
            carried.append(sample)
        system = snapshot.system
        if system is not None:
            self._last_system = system
        elif self._last_system is not None:
            system = self._last_system
            changed = True
        if not changed:
            return snapshot
        return dataclasses.replace(snapshot, samples=tuple(carried), system=system)
