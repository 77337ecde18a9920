"""Allocation and promotion rates, live set, heap and metaspace peaks."""

import pytest
from metrics_frames import concurrent, cycle, frame, pause
from reference.allocation import PROMOTION_FROM_HEAP, PROMOTION_FROM_OLD, allocation_figures
from reference.heap import heap_figures

MIB = 1024 * 1024


def heap(before_mib, after_mib, **extra):
    return {"heap_before_bytes": before_mib * MIB, "heap_after_bytes": after_mib * MIB, **extra}


def test_allocation_rate_sums_growth_between_consecutive_gcs():
    rows = [
        pause(1.0, 0, "young", 1.0, **heap(100, 20)),
        pause(3.0, 1, "young", 1.0, **heap(120, 30)),
        pause(5.0, 2, "young", 1.0, **heap(130, 40)),
    ]
    a = allocation_figures(frame(*rows))
    assert a.allocated_bytes == 200 * MIB  # (120 - 20) + (130 - 30)
    assert a.allocation_span_s == pytest.approx(4.0)
    assert a.allocation_rate_mib_per_s == pytest.approx(50.0)


def test_memory_freed_between_gcs_counts_as_no_allocation():
    rows = [pause(0.0, 0, "remark", 1.0, **heap(100, 100)), pause(2.0, 1, "young", 1.0, **heap(60, 20))]
    a = allocation_figures(frame(*rows))
    assert a.allocated_bytes == 0 and a.allocation_rate_mib_per_s == 0.0


def test_allocation_needs_two_heap_figures():
    assert (
        allocation_figures(frame(pause(1.0, 0, "young", 1.0, **heap(10, 5)))).allocation_rate_mib_per_s
        is None
    )


def test_promotion_from_old_generation_figures():
    rows = [
        pause(0.0, 0, "young", 1.0, old_before_bytes=0, old_after_bytes=5 * MIB),
        pause(2.0, 1, "young", 1.0, old_before_bytes=5 * MIB, old_after_bytes=15 * MIB),
        pause(3.0, 2, "full", 1.0, old_before_bytes=15 * MIB, old_after_bytes=1 * MIB),
        pause(4.0, 3, "young", 1.0, old_before_bytes=1 * MIB, old_after_bytes=11 * MIB),
    ]
    a = allocation_figures(frame(*rows))
    assert a.promotion_source == PROMOTION_FROM_OLD
    assert a.promoted_bytes == 20 * MIB  # young GCs 2..n: 10 + 10; the full GC is not a young GC
    assert a.promotion_rate_mib_per_s == pytest.approx(5.0)  # over 4 s


def test_promotion_from_young_and_heap_when_old_is_absent():
    young = {"young_before_bytes": 80 * MIB, "young_after_bytes": 10 * MIB}
    rows = [
        pause(
            0.0, 0, "young", 1.0, **heap(100, 35), **young
        ),  # 70 MiB left young, 65 left the heap: 5 promoted
        pause(1.0, 1, "young", 1.0, **heap(110, 40), **young),  # 70 MiB left young, 70 left the heap: 0
        pause(2.0, 2, "young", 1.0, **heap(120, 45), **young),  # 70 MiB left young, 75 left the heap: -5 -> 0
        pause(3.0, 3, "young", 1.0, **heap(130, 58), **young),  # 70 MiB left young, 72 left the heap: -2 -> 0
        pause(4.0, 4, "young", 1.0, **heap(140, 72), **young),  # 70 MiB left young, 68 left the heap: 2
    ]
    a = allocation_figures(frame(*rows))
    assert a.promotion_source == PROMOTION_FROM_HEAP
    assert a.promoted_bytes == 2 * MIB  # young GCs 2..n
    assert a.promotion_rate_mib_per_s == pytest.approx(0.5)  # over 4 s


def test_no_promotion_without_generation_figures():
    rows = [pause(0.0, 0, "young", 1.0, **heap(100, 35)), pause(1.0, 1, "young", 1.0, **heap(100, 35))]
    a = allocation_figures(frame(*rows))
    assert (a.promotion_source, a.promotion_rate_mib_per_s) == (None, None)


def test_live_set_prefers_full_gcs():
    rows = [
        pause(1.0, 0, "mixed", 1.0, **heap(200, 150)),
        pause(2.0, 1, "full", 1.0, **heap(200, 90)),
        pause(3.0, 2, "full", 1.0, **heap(200, 110)),
    ]
    h = heap_figures(frame(*rows))
    assert h.live_set_source == "full GCs"
    assert h.live_set_estimate_bytes == 100 * MIB
    assert (h.after_full_gc.count, h.after_full_gc.max_bytes, h.after_full_gc.last_bytes) == (
        2,
        110 * MIB,
        110 * MIB,
    )


def test_live_set_falls_back_to_mixed_then_cycle_ends():
    mixed = frame(
        pause(1.0, 0, "young", 1.0, **heap(200, 180)), pause(2.0, 1, "mixed", 1.0, **heap(200, 150))
    )
    assert (heap_figures(mixed).live_set_source, heap_figures(mixed).live_set_estimate_bytes) == (
        "mixed GCs",
        150 * MIB,
    )
    zgc = frame(
        cycle(1.0, 0, "zgc-major", 300.0, **heap(100, 60)), cycle(5.0, 1, "zgc-minor", 50.0, **heap(90, 70))
    )
    h = heap_figures(zgc)
    assert (h.live_set_source, h.live_set_estimate_bytes) == ("concurrent cycle ends", 60 * MIB)
    young_only = frame(pause(1.0, 0, "young", 1.0, **heap(200, 180)))
    assert heap_figures(young_only).live_set_estimate_bytes is None


def test_heap_and_metaspace_peaks():
    metaspace = {
        "metaspace_before_bytes": 30 * MIB,
        "metaspace_after_bytes": 31 * MIB,
        "metaspace_capacity_bytes": 64 * MIB,
    }
    rows = [
        pause(1.0, 0, "young", 1.0, **heap(200, 100), heap_capacity_bytes=512 * MIB, **metaspace),
        concurrent(2.0, 1, "concurrent-cleanup", 1.0, **heap(250, 240)),
    ]
    h = heap_figures(frame(*rows))
    assert (h.heap_used_max_bytes, h.heap_capacity_max_bytes) == (250 * MIB, 512 * MIB)
    assert (h.metaspace_used_max_bytes, h.metaspace_capacity_max_bytes) == (31 * MIB, 64 * MIB)
