"""Per-variant results: the metric's timeline over the trials, and its sparkline."""

from __future__ import annotations

from jvmlab.experiment.results import Timeline
from jvmlab.report.experiment_view import sparkline


def test_a_timeline_averages_the_trials_per_bin():
    a = [(1.0, 10.0), (2.0, 20.0), (3.0, 30.0), (4.0, 40.0)]
    b = [(0.9, 12.0), (1.9, 22.0), (2.9, 32.0)]  # shorter: ends in bin 2
    t = Timeline.of([a, b])
    assert t is not None and len(t.values) == 4  # no more bins than one trial has readings
    assert t.bin_s == 4.0 / 4
    assert t.values == [11.0, 21.0, 31.0, 40.0]  # bin i holds (i, i + 1]


def test_a_timeline_with_many_readings_has_at_most_40_bins():
    points = [(i / 10, float(i)) for i in range(1, 1001)]
    t = Timeline.of([points])
    assert t is not None and len(t.values) == 40 and t.values[0] < t.values[-1]


def test_no_readings_no_timeline():
    assert Timeline.of([[], []]) is None and Timeline.of([]) is None


def test_sparkline_is_zero_based_with_gaps():
    assert sparkline([0.0, 50.0, None, 100.0], 100.0) == "▁▅ █"
    assert sparkline([0.0, None], 0.0) == "▁ "
