"""summarize(): the figures together, from a synthetic log with known answers."""

import json

import pytest
from metrics_frames import cycle, frame, log_of, pause, safepoint
from test_reference_rates import pauses_by_kind

from jvmlab.metrics import SUMMARY_FORMAT_VERSION, summarize
from jvmlab.metrics.notes import NO_TIME_STAMPS

MIB = 1024 * 1024


def synthetic():
    rows = [
        pause(10.0, 0, "young", 20.0, heap_before_bytes=100 * MIB, heap_after_bytes=20 * MIB),
        safepoint(10.0, 21.0, 0.4),
        pause(30.0, 1, "young", 40.0, heap_before_bytes=120 * MIB, heap_after_bytes=30 * MIB),
        cycle(40.0, 2, "concurrent-cycle", 800.0),
        pause(40.0, 2, "remark", 5.0),
        pause(
            70.0,
            3,
            "full",
            335.0,
            heap_before_bytes=200 * MIB,
            heap_after_bytes=50 * MIB,
            cause="System.gc()",
        ),
        safepoint(70.0, 400.0, 1.0),
    ]
    return log_of(frame(*rows), last_time_s=120.0)


def test_summary_figures():
    s = summarize(synthetic())
    assert s.format_version == SUMMARY_FORMAT_VERSION
    assert (s.window.start_s, s.window.end_s) == (0.0, 120.0)
    assert (s.gc_count, s.pause_count, s.pause_total_ms, s.pause_max_ms) == (4, 4, 400.0, 335.0)
    assert s.counts_by_kind == {"safepoint": 2, "concurrent-cycle": 1, "full": 1, "remark": 1, "young": 2}
    assert s.gc_overhead_percent == pytest.approx(400.0 / 120_000.0 * 100)
    assert s.rates["young"].mean_per_min == pytest.approx(1.0)
    assert s.rates["full"].peak_per_min == 1
    assert s.pause_time_per_min_mean_ms == pytest.approx(200.0)
    assert s.gc_interval_mean_s == pytest.approx(20.0)
    assert s.full_gc_causes == {"System.gc()": 1}
    assert s.heap.live_set_estimate_bytes == 50 * MIB
    assert (s.concurrent_cycles.count, s.concurrent_cycles.mean_ms) == (1, 800.0)
    assert (s.safepoints.count, s.safepoints.total_ms) == (2, 421.0)
    assert s.notes == []


def test_summary_is_immutable_and_serialisable():
    s = summarize(synthetic())
    with pytest.raises(Exception):  # noqa: B017 - pydantic raises ValidationError on frozen models
        s.pause_count = 0  # type: ignore[misc]
    document = json.loads(s.model_dump_json())
    assert document["window"]["duration_s"] == 120.0
    assert document["rates"]["young"]["count"] == 2


def test_window_narrows_every_figure():
    s = summarize(synthetic(), window=(20.0, 100.0))
    assert (s.window.start_s, s.window.end_s, s.window.narrowed) == (20.0, 100.0, True)
    assert (s.pause_count, s.gc_count) == (3, 3)
    assert s.rates["young"].count == 1


def test_a_log_without_time_stamps_has_counts_but_no_rates():
    rows = [pause(None, 0, "young", 20.0), pause(None, 1, "full", 100.0)]
    s = summarize(
        log_of(frame(*rows), first_time_s=None, last_time_s=None, jvm_start_seen=False, gc_ids="assigned")
    )
    assert (s.gc_count, s.pause_count, s.pause_p50_ms) == (2, 2, 20.0)
    assert (s.gc_overhead_percent, s.rates["all"].mean_per_min, s.gc_interval_mean_s) == (None, None, None)
    assert s.notes[0] == NO_TIME_STAMPS
    assert any("jvmlab's own numbering" in n for n in s.notes)


def test_notes_for_a_short_run_that_starts_late():
    s = summarize(
        log_of(
            frame(pause(100.0, 0, "young", 1.0)), first_time_s=90.0, last_time_s=130.0, jvm_start_seen=False
        )
    )
    assert s.window.start_s == 90.0
    assert any("shorter than 60 s" in n for n in s.notes)
    assert any("does not show the JVM start" in n for n in s.notes)


def test_gclog_summary_method_calls_summarize():
    assert summarize(synthetic()).pause_count == 4


def test_pause_time_per_minute_of_each_pause_kind():
    rates = summarize(log_of(pauses_by_kind(), last_time_s=120.0)).rates
    full = rates["full"]
    assert (full.count, full.pause_total_ms, full.pause_ms_per_min_peak) == (5, 350.0, 200.0)
    assert full.pause_ms_per_min_mean == pytest.approx(175.0)  # 350 ms / 120 s x 60
    assert (rates["young"].pause_total_ms, rates["young"].pause_ms_per_min_peak) == (5.0, 5.0)
    assert (rates["mixed"].pause_total_ms, rates["mixed"].pause_ms_per_min_mean) == (0.0, 0.0)
    assert rates["zgc-minor"].pause_total_ms is None and rates["all"].pause_ms_per_min_peak is None
