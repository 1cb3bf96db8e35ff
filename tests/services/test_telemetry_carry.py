"""SlowFieldCarry: the one place that fills FAST-only readings with the last SLOW values."""
from __future__ import annotations

from services.telemetry.carry import SlowFieldCarry
from services.telemetry.model import DeviceState, GpuSample, Snapshot, SourceStatus, Tier

OK = SourceStatus(DeviceState.OK)


def snap(*samples: GpuSample) -> Snapshot:
    return Snapshot(t=samples[0].t if samples else 0.0, status=OK, samples=samples)


def test_fast_reading_gets_the_last_slow_values_of_the_same_uuid():
    carry = SlowFieldCarry()
    carry.apply(snap(GpuSample(t=1, index=0, uuid="A", fan_pct=40.0, pstate=2, pcie_gen=4),
                     GpuSample(t=1, index=1, uuid="B", fan_pct=70.0, pstate=0, pcie_gen=3)), Tier.FAST | Tier.SLOW)
    # After a resume the GPUs came back with swapped indices: values follow the UUID.
    out = carry.apply(snap(GpuSample(t=2, index=0, uuid="B", utilization_pct=90.0),
                           GpuSample(t=2, index=1, uuid="A", utilization_pct=10.0)), Tier.FAST)
    assert [(s.uuid, s.fan_pct, s.pcie_gen) for s in out.samples] == [("B", 70.0, 3), ("A", 40.0, 4)]
    assert out.samples[0].utilization_pct == 90.0
    # P-state is read on every FAST tick: a FAST reading without it has none, nothing is carried.
    assert [s.pstate for s in out.samples] == [None, None]


def test_none_on_a_slow_reading_means_unsupported_and_is_not_filled():
    carry = SlowFieldCarry()
    carry.apply(snap(GpuSample(t=1, index=0, uuid="A", fan_pct=40.0)), Tier.SLOW)
    carry.apply(snap(GpuSample(t=2, index=0, uuid="A", fan_pct=None)), Tier.SLOW)
    out = carry.apply(snap(GpuSample(t=3, index=0, uuid="A")), Tier.FAST)
    assert out.samples[0].fan_pct is None


def test_a_gpu_that_is_not_ok_keeps_its_fields_empty():
    carry = SlowFieldCarry()
    carry.apply(snap(GpuSample(t=1, index=0, uuid="A", fan_pct=40.0)), Tier.SLOW)
    lost = GpuSample(t=2, index=0, uuid="A", state=DeviceState.LOST, state_detail="gone")
    out = carry.apply(snap(lost), Tier.FAST)
    assert out.samples[0] is lost


def test_fast_reading_without_anything_to_carry_is_returned_unchanged():
    carry = SlowFieldCarry()
    first = snap(GpuSample(t=1, index=0, uuid="A", utilization_pct=5.0))
    assert carry.apply(first, Tier.FAST) is first
