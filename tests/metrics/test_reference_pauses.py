"""Pause statistics, nearest-rank percentiles, pause time per minute, GC overhead."""

import numpy as np
import pytest
from metrics_frames import concurrent, frame, pause, safepoint
from reference.pauses import (
    pause_stats,
    pause_time_per_minute,
    percentile_nearest_rank,
)

from jvmlab.metrics.pauses import gc_overhead_percent
from jvmlab.metrics.windows import RunWindow


def test_nearest_rank_on_one_to_ten():
    values = np.arange(1.0, 11.0)
    got = [percentile_nearest_rank(values, p) for p in (50, 90, 95, 99, 100, 1)]
    assert got == [5.0, 9.0, 10.0, 10.0, 10.0, 1.0]


@pytest.mark.parametrize("seed", range(3))
def test_nearest_rank_matches_numpy_inverted_cdf(seed):
    values = np.random.default_rng(seed).exponential(20.0, 257)
    for p in (50, 90, 95, 99):
        assert percentile_nearest_rank(values, p) == np.percentile(values, p, method="inverted_cdf")


def test_pause_stats_of_known_pauses():
    rows = [pause(float(i), i, "young", float(ms)) for i, ms in enumerate([10, 20, 30, 40, 100])]
    s = pause_stats(frame(*rows))
    assert (s.count, s.total_ms, s.mean_ms, s.max_ms) == (5, 200.0, 40.0, 100.0)
    assert (s.p50_ms, s.p90_ms, s.p99_ms) == (30.0, 100.0, 100.0)


def test_safepoints_and_concurrent_phases_are_not_pauses():
    rows = [
        pause(1.0, 0, "young", 10.0),
        safepoint(1.0, 11.0, 0.5),
        safepoint(5.0, 900.0, 3.0),
        concurrent(2.0, 1, "concurrent-mark", 500.0),
    ]
    s = pause_stats(frame(*rows))
    assert (s.count, s.total_ms, s.max_ms) == (1, 10.0, 10.0)


def test_no_pauses():
    s = pause_stats(frame(safepoint(1.0, 2.0)))
    assert (s.count, s.total_ms, s.mean_ms, s.p99_ms) == (0, 0.0, None, None)


def test_overhead_is_pause_time_over_the_run_window():
    window = RunWindow(start_s=0.0, end_s=60.0, from_jvm_start=True)
    assert gc_overhead_percent(600.0, window) == pytest.approx(1.0)
    assert gc_overhead_percent(600.0, RunWindow(start_s=None, end_s=None, from_jvm_start=False)) is None


def test_pause_time_per_minute_mean_and_peak():
    window = RunWindow(start_s=0.0, end_s=180.0, from_jvm_start=True)
    rows = [pause(10.0, 0, "young", 100.0), pause(20.0, 1, "young", 300.0), pause(100.0, 2, "full", 500.0)]
    per_min = pause_time_per_minute(frame(*rows), window)
    assert per_min.mean_ms == pytest.approx(300.0)  # 900 ms over 3 min
    assert per_min.peak_ms == pytest.approx(500.0)  # [100, 160) beats [10, 70) = 400
