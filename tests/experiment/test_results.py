"""Per-variant results: the metric's timeline over the trials, and its sparkline."""

from __future__ import annotations

from types import SimpleNamespace

import polars as pl
import pytest
from corpus import GCLOGS

import jvmlab.gclog
from jvmlab.experiment.analysis.measures import measures
from jvmlab.experiment.analysis.results import FIGURES, LEVEL_FIGURES, Timeline
from jvmlab.experiment.execution.trial import gc_figures
from jvmlab.report.sparkline import sparkline


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


@pytest.mark.corpus
def test_young_gc_rate_of_generational_zgc_is_its_minor_collections():
    """Generational ZGC has no young pauses: its minor collections are its young GCs (real JDK 25 log)."""
    zgc = gc_figures(GCLOGS / "generated/jdk25-zgc-gcstar.log")
    assert zgc is not None and zgc["rates"]["young"]["count"] == 0
    minor = zgc["rates"]["zgc-minor"]
    assert minor["count"] > 50 and zgc["rates"]["zgc-major"]["count"] > 0
    assert FIGURES["young_per_min"](SimpleNamespace(gc=zgc)) == minor["mean_per_min"]
    assert LEVEL_FIGURES["young_peak_per_min"](SimpleNamespace(gc=zgc)) == minor["peak_per_min"]
    assert FIGURES["young_pause_ms_per_min"](SimpleNamespace(gc=zgc)) is None  # no young pause time: no data

    g1 = gc_figures(GCLOGS / "generated/jdk25-g1-gcstar.log")
    assert g1 is not None and g1["rates"]["young"]["count"] > 0
    assert LEVEL_FIGURES["young_per_min"](SimpleNamespace(gc=g1)) == g1["rates"]["young"]["mean_per_min"]


# A CMS log with 1,396 full GCs over 80 minutes of run.
CMS_FULL_GCS = (
    "gctoolkit-testdata/gctoolkit-gclogs/preunified/cms/parnew/details/tenuring/par.cms.wd.wt.webapp.log"
)


@pytest.mark.corpus
def test_full_gc_pause_time_per_minute_of_a_real_log():
    """The full GCs' pause total is the sum over the full pauses of the event table; trials and levels read
    their pause time per minute, mean and peak, and so do the measures that goals name."""
    path = GCLOGS / CMS_FULL_GCS
    if not path.exists():
        pytest.skip(f"{path} is not present")
    events = jvmlab.gclog.load(path).events
    full_ms = events.filter((pl.col("category") == "pause") & (pl.col("kind") == "full"))["pause_ms"]
    gc = gc_figures(path)
    assert gc is not None
    full = gc["rates"]["full"]
    assert full["count"] == len(full_ms) > 1000 and full_ms.null_count() == 0
    assert full["pause_total_ms"] == pytest.approx(full_ms.sum(), rel=1e-12)
    assert full["pause_ms_per_min_mean"] == pytest.approx(full_ms.sum() / gc["window"]["duration_s"] * 60)
    assert full_ms.max() <= full["pause_ms_per_min_peak"] <= full["pause_total_ms"]

    trial = SimpleNamespace(gc=gc)
    assert FIGURES["full_pause_ms_per_min"](trial) == full["pause_ms_per_min_mean"]
    assert LEVEL_FIGURES["full_pause_ms_per_min_peak"](trial) == full["pause_ms_per_min_peak"]
    young = gc["rates"]["young"]["pause_ms_per_min_mean"]
    assert young > 0 and FIGURES["young_pause_ms_per_min"](trial) == young
    m = measures(None)
    assert m["full_gc_pause_ms_per_min"].of_trial(trial) == full["pause_ms_per_min_mean"]
    assert m["full_gc_pause_ms_per_min"].of_level(trial) == full["pause_ms_per_min_mean"]
    assert m["full_gc_pause_ms_per_min_peak"].of_trial is None
    assert m["full_gc_pause_ms_per_min_peak"].of_level(trial) == full["pause_ms_per_min_peak"]
    assert m["young_gc_pause_ms_per_min"].label == "Young GC pause time per minute"
    assert m["full_gc_pause_ms_per_min"].better(-50.0) is True  # lower is better


def test_why_calls_were_not_counted_is_one_line_per_reason():
    from jvmlab.experiment.analysis.results import count_errors

    trials = [
        SimpleNamespace(repetition=1, counts={"error": "jfr print cannot read it"}),
        SimpleNamespace(repetition=2, counts={"backend": "jfr", "calls": {}}),
        SimpleNamespace(repetition=3, counts={"error": "jfr print cannot read it"}),
        SimpleNamespace(repetition=4, counts=None),
    ]
    assert count_errors(trials) == ["#1, #3: jfr print cannot read it"]
