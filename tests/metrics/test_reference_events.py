"""Full GC causes, concurrent cycles, safepoints (kept apart from pauses)."""

import pytest
from metrics_frames import concurrent, cycle, frame, pause, safepoint
from reference.causes import NO_CAUSE, count_by_cause, full_gc_causes
from reference.concurrent import FROM_CYCLE_ROWS, FROM_PHASES, cycle_stats
from reference.safepoints import safepoint_stats

from jvmlab.metrics.windows import RunWindow


def test_full_gc_causes_most_frequent_first():
    rows = [
        pause(1.0, 0, "full", 1.0, cause="System.gc()"),
        pause(2.0, 1, "full", 1.0, cause="Ergonomics"),
        pause(3.0, 2, "full", 1.0, cause="Ergonomics"),
        pause(4.0, 3, "full", 1.0),
        pause(5.0, 4, "young", 1.0, cause="Allocation Failure"),
    ]
    assert full_gc_causes(frame(*rows)) == {"Ergonomics": 2, NO_CAUSE: 1, "System.gc()": 1}
    assert count_by_cause(frame(*rows), ["young"]) == {"Allocation Failure": 1}


def test_cycle_rows_give_cycle_durations():
    rows = [
        cycle(1.0, 0, "concurrent-cycle", 400.0),
        concurrent(1.0, 0, "concurrent-mark", 300.0),
        cycle(5.0, 1, "concurrent-cycle", 600.0),
    ]
    c = cycle_stats(frame(*rows))
    assert (c.count, c.total_ms, c.mean_ms, c.max_ms, c.source) == (2, 1000.0, 500.0, 600.0, FROM_CYCLE_ROWS)


def test_phases_grouped_by_gc_id_give_the_span_of_the_cycle():
    rows = [
        pause(10.0, 3, "initial-mark", 5.0),
        concurrent(10.1, 3, "concurrent-mark", 200.0),  # ends 10.3
        pause(10.5, 3, "remark", 20.0),
        concurrent(10.6, 3, "concurrent-sweep", 400.0),  # ends 11.0
        concurrent(20.0, 7, "concurrent-mark", 50.0),
    ]
    c = cycle_stats(frame(*rows))
    assert c.source == FROM_PHASES
    assert c.count == 2
    assert c.max_ms == pytest.approx(900.0)  # 11.0 - 10.1
    assert c.mean_ms == pytest.approx(475.0)


def test_no_cycles():
    c = cycle_stats(frame(pause(1.0, 0, "young", 1.0)))
    assert (c.count, c.mean_ms, c.source) == (0, None, None)


def test_safepoint_statistics():
    window = RunWindow(start_s=0.0, end_s=10.0, from_jvm_start=True)
    rows = [
        safepoint(1.0, 12.0, 0.5),
        safepoint(2.0, 3.0, 2.5),
        safepoint(3.0, 5.0),
        pause(1.0, 0, "young", 11.0),
    ]
    s = safepoint_stats(frame(*rows), window)
    assert (s.count, s.total_ms, s.max_ms, s.ttsp_total_ms, s.ttsp_max_ms) == (3, 20.0, 12.0, 3.0, 2.5)
    assert s.time_percent == pytest.approx(0.2)


def test_no_safepoints():
    s = safepoint_stats(
        frame(pause(1.0, 0, "young", 11.0)), RunWindow(start_s=0.0, end_s=10.0, from_jvm_start=True)
    )
    assert (s.count, s.total_ms, s.max_ms, s.ttsp_max_ms) == (0, 0.0, None, None)
