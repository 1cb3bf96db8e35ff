from __future__ import annotations

import pytest

from services.hybrid.fdinfo import engine_busy_pct, is_work_engine, parse_fdinfo
from tests.fakes.hybrid_fakes import data

SECOND = 1_000_000_000


def test_i915_client_keys_memory_and_busy():
    t0, t1 = parse_fdinfo(data("fdinfo_i915_t0.txt")), parse_fdinfo(data("fdinfo_i915_t1.txt"))
    assert (t0.driver, t0.pdev, t0.client_id) == ("i915", "0000:00:02.0", "29")
    assert t0.engine_capacity == {"video": 2}
    assert t1.memory_used_bytes() == 17408 * 1024  # resident system0 + stolen-system0 (0)
    busy = engine_busy_pct(t0, t1, SECOND)
    assert busy["render"] == pytest.approx(45.0)
    assert busy["video"] == pytest.approx(5.0)  # 100 ms over two video engines
    assert busy["copy"] == 0.0


def test_xe_cycles_are_divided_by_total_cycles_and_capacity():
    t0, t1 = parse_fdinfo(data("fdinfo_xe_t0.txt")), parse_fdinfo(data("fdinfo_xe_t1.txt"))
    assert t0.driver == "xe" and t0.engine_ns == {}
    busy = engine_busy_pct(t0, t1, SECOND)
    assert busy["rcs"] == pytest.approx(50.0)
    assert busy["ccs"] == pytest.approx(6.25)
    assert busy["bcs"] == 0.0
    assert t1.memory_used_bytes() == (4628 + 12) * 1024


def test_amdgpu_legacy_and_new_memory_keys():
    t0, t1 = parse_fdinfo(data("fdinfo_amdgpu_t0.txt")), parse_fdinfo(data("fdinfo_amdgpu_t1.txt"))
    assert t0.memory_used_bytes() == (24752 + 5140) * 1024  # drm-memory-vram + gtt (+ cpu 0)
    busy = engine_busy_pct(t0, t1, SECOND)
    assert busy["gfx"] == pytest.approx(75.0)
    assert busy["dec"] == pytest.approx(2.0)
    new = parse_fdinfo(data("fdinfo_amdgpu_total_keys.txt"))
    assert new.memory_used_bytes() == (131072 + 9136) * 1024  # resident wins over total


def test_not_drm_and_garbage():
    assert parse_fdinfo(data("fdinfo_regular_file.txt")) is None
    assert parse_fdinfo("") is None
    client = parse_fdinfo("drm-driver:\ti915\ndrm-engine-render:\tlots ns\ndrm-total-system0:\tbig KiB\n")
    assert client is not None and client.engine_ns == {} and client.memory_used_bytes() is None


def test_counter_going_backwards_clamps_to_zero():
    t0, t1 = parse_fdinfo(data("fdinfo_i915_t0.txt")), parse_fdinfo(data("fdinfo_i915_t1.txt"))
    assert engine_busy_pct(t1, t0, SECOND)["render"] == 0.0
    assert engine_busy_pct(t0, t1, 0) == {}


def test_work_engines():
    assert all(is_work_engine(e) for e in ("render", "gfx", "compute", "rcs", "ccs"))
    assert not any(is_work_engine(e) for e in ("copy", "video", "video-enhance", "bcs", "vcs", "dec", "enc"))
