"""Per-minute rates: mean over the run window, peak over the busiest 60 s window anchored at event starts."""

import numpy as np
import pytest
from metrics_frames import concurrent, cycle, frame, pause
from reference.rates import gc_interval_mean_s, gc_rates, sliding_max
from reference.selection import gc_first_starts

from jvmlab.metrics.windows import RunWindow

TWO_MINUTES = RunWindow(start_s=0.0, end_s=120.0, from_jvm_start=True)


def test_sliding_max_counts_events_in_half_open_windows():
    times = np.array([0.0, 10.0, 59.9, 60.0, 61.0, 62.0])
    # [0, 60) holds 3; [10, 70) holds 5; [59.9, 119.9) holds 4
    assert sliding_max(times) == 5


def test_sliding_max_sums_weights():
    times = np.array([0.0, 30.0, 90.0])
    assert sliding_max(times, np.array([100.0, 50.0, 120.0])) == 150.0
    assert sliding_max(np.array([])) == 0.0


def _brute_force_max(times, width):
    # windows (t_j - width, t_j] ending at each event: the same maximum for times in general position
    return max(int(np.sum((times > t - width) & (times <= t))) for t in times)


@pytest.mark.parametrize("seed", range(5))
def test_sliding_max_equals_brute_force(seed):
    times = np.sort(np.random.default_rng(seed).uniform(0, 600, 300))
    assert sliding_max(times, width_s=60.0) == _brute_force_max(times, 60.0)


def test_young_rate_mean_and_peak():
    # 10 young GCs in the first minute, 2 in the second, over a 120 s run
    first_minute = [pause(i * 5.0, i, "young", 1.0) for i in range(10)]
    rows = [*first_minute, pause(70.0, 10, "young", 1.0), pause(100.0, 11, "young", 1.0)]
    young = gc_rates(frame(*rows), TWO_MINUTES)["young"]
    assert young.count == 12
    assert young.mean_per_min == pytest.approx(6.0)  # 12 / 120 s x 60
    assert young.peak_per_min == 10


def test_full_gc_rate_counts_only_full_pauses():
    rows = [pause(1.0, 0, "young", 1.0), pause(2.0, 1, "full", 100.0), pause(3.0, 2, "degenerated", 50.0)]
    rates = gc_rates(frame(*rows), TWO_MINUTES)
    assert (rates["young"].count, rates["full"].count, rates["degenerated"].count) == (1, 1, 1)
    assert rates["full"].mean_per_min == pytest.approx(0.5)


def test_all_gc_rate_counts_distinct_gc_ids_at_their_first_start():
    rows = [
        pause(10.0, 0, "young", 1.0),
        cycle(11.0, 1, "concurrent-cycle", 500.0),
        pause(11.0, 1, "initial-mark", 1.0),
        concurrent(11.1, 1, "concurrent-mark", 300.0),
        pause(11.4, 1, "remark", 2.0),
        pause(80.0, 2, "young", 1.0),
    ]
    events = frame(*rows)
    starts = gc_first_starts(events)
    assert starts.get_column("gc_id").to_list() == [0, 1, 2]
    assert starts.get_column("start_s").to_list() == [10.0, 11.0, 80.0]
    rate = gc_rates(events, TWO_MINUTES)["all"]
    assert (rate.count, rate.peak_per_min) == (3, 2)
    assert rate.mean_per_min == pytest.approx(1.5)


def test_peak_needs_a_full_minute():
    short = RunWindow(start_s=0.0, end_s=30.0, from_jvm_start=True)
    young = gc_rates(frame(pause(1.0, 0, "young", 1.0)), short)["young"]
    assert young.mean_per_min == pytest.approx(2.0)
    assert young.peak_per_min is None


def test_no_window_means_no_rates():
    none = RunWindow(start_s=None, end_s=None, from_jvm_start=False)
    young = gc_rates(frame(pause(None, 0, "young", 1.0)), none)["young"]
    assert (young.count, young.mean_per_min, young.peak_per_min) == (1, None, None)


def test_mean_interval_between_gcs():
    rows = [
        pause(1.0, 0, "young", 1.0),
        pause(3.0, 1, "young", 1.0),
        pause(3.5, 1, "young", 1.0),
        pause(7.0, 2, "full", 1.0),
    ]
    assert gc_interval_mean_s(frame(*rows)) == pytest.approx(3.0)  # (7 - 1) / 2
    assert gc_interval_mean_s(frame(pause(1.0, 0, "young", 1.0))) is None


def pauses_by_kind():
    """Full and young pauses (one full without a duration) and a cycle, for a 120 s run."""
    return frame(
        pause(0.0, 0, "full", 100.0),
        pause(30.0, 1, "full", 50.0),
        pause(40.0, 2, "young", 5.0),
        pause(50.0, 3, "full", None),  # no duration printed: counted, with no pause time
        pause(70.0, 4, "full", 80.0),
        pause(90.0, 5, "full", 120.0),
        cycle(95.0, 6, "zgc-minor", 10.0),
    )


def test_pause_time_per_minute_of_each_pause_kind():
    rates = gc_rates(pauses_by_kind(), TWO_MINUTES)
    full = rates["full"]
    assert (full.count, full.pause_total_ms) == (5, 350.0)
    assert full.pause_ms_per_min_mean == pytest.approx(175.0)  # 350 ms / 120 s x 60
    assert full.pause_ms_per_min_peak == 200.0  # [70, 130) holds 80 + 120; [0, 60) only 150
    young = rates["young"]
    assert (young.pause_total_ms, young.pause_ms_per_min_mean, young.pause_ms_per_min_peak) == (5.0, 2.5, 5.0)
    assert (rates["mixed"].pause_total_ms, rates["mixed"].pause_ms_per_min_peak) == (0.0, 0.0)
    for kind in ("zgc-minor", "all"):  # no pause time of their own
        r = rates[kind]
        assert (r.pause_total_ms, r.pause_ms_per_min_mean, r.pause_ms_per_min_peak) == (None, None, None)


def test_pause_time_per_minute_of_a_kind_needs_a_window():
    short = RunWindow(start_s=0.0, end_s=30.0, from_jvm_start=True)
    full = gc_rates(frame(pause(1.0, 0, "full", 40.0)), short)["full"]
    assert (full.pause_total_ms, full.pause_ms_per_min_mean, full.pause_ms_per_min_peak) == (40.0, 80.0, None)
    none = RunWindow(start_s=None, end_s=None, from_jvm_start=False)
    full = gc_rates(frame(pause(None, 0, "full", 40.0)), none)["full"]
    assert (full.pause_total_ms, full.pause_ms_per_min_mean, full.pause_ms_per_min_peak) == (40.0, None, None)
