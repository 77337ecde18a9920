"""Per-variant results: the metric's timeline over the trials, and its sparkline."""

from __future__ import annotations

from corpus import GCLOGS
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


def test_young_gc_rate_of_generational_zgc_is_its_minor_collections():
    """Generational ZGC has no young pauses: its minor collections are its young GCs (real JDK 25 log)."""
    from types import SimpleNamespace

    from jvmlab.experiment.results import FIGURES, LEVEL_FIGURES
    from jvmlab.experiment.trial import gc_figures

    zgc = gc_figures(GCLOGS / "generated/jdk25-zgc-gcstar.log")
    assert zgc is not None and zgc["rates"]["young"]["count"] == 0
    minor = zgc["rates"]["zgc-minor"]
    assert minor["count"] > 50 and zgc["rates"]["zgc-major"]["count"] > 0
    assert FIGURES["young_per_min"](SimpleNamespace(gc=zgc)) == minor["mean_per_min"]
    assert LEVEL_FIGURES["young_peak_per_min"](SimpleNamespace(gc=zgc)) == minor["peak_per_min"]

    g1 = gc_figures(GCLOGS / "generated/jdk25-g1-gcstar.log")
    assert g1 is not None and g1["rates"]["young"]["count"] > 0
    assert LEVEL_FIGURES["young_per_min"](SimpleNamespace(gc=g1)) == g1["rates"]["young"]["mean_per_min"]
