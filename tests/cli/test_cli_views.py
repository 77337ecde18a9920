"""The view models behind the terminal output: formatting, % change, headlines, comparison warnings."""

from __future__ import annotations

import pytest

import jvmlab
from jvmlab.metrics import summarize
from jvmlab.metrics.comparison import compare, percent_change
from jvmlab.report import units
from jvmlab.report.gclog.comparison_view import compare_view, headline
from jvmlab.report.gclog.summary_view import summary_view


@pytest.mark.parametrize(
    ("baseline", "value", "change"),
    [
        (100.0, 18.0, -82.0),
        (8.0, 12.0, 50.0),
        (0.0, 0.0, 0.0),
        (0.0, 5.0, None),
        (None, 1.0, None),
        (1.0, None, None),
    ],
)
def test_percent_change(baseline, value, change):
    assert percent_change(baseline, value) == change


def test_units():
    assert (units.ms(0.0123), units.ms(12.345), units.ms(1234.56)) == ("0.012 ms", "12.35 ms", "1,234.6 ms")
    assert units.size(97.5 * 1024 * 1024) == "97.5 MiB"
    assert units.seconds(896165.4) == "896,165 s (10.4 d)"
    assert (units.change(-82.4), units.change(4.06), units.change(None)) == ("-82%", "+4.1%", "—")
    assert (units.per_min(402.7), units.per_min(6.04)) == ("403/min", "6.0/min")


def test_summary_view_rows(gclog):
    view = summary_view(summarize(jvmlab.gclog.load(gclog("generated/jdk25-g1-gcstar.log"))))
    assert [r.label for r in view.rate_rows] == ["Young GC", "Mixed GC", "Full GC", "All GCs"]
    assert view.rate_rows[0].count == "86"
    assert view.other_kinds_line == "other events: concurrent-cycle 16, remark 15, cleanup 10"
    rows = dict(row for section in view.sections for row in section.rows)
    assert rows["Full GC causes"] == "G1 Compaction Pause 8"
    assert rows["pauses"] == "135, 6,771.7 ms in total"


def test_comparison_headline_and_warnings(gclog):
    logs = ["generated/jdk25-g1-gcstar.log", "generated/jdk25-parallel-gcstar.log"]
    summaries = [summarize(jvmlab.gclog.load(gclog(p))) for p in logs]
    comparison = compare(summaries, ["g1", "parallel"])
    assert headline(comparison, 1).startswith("parallel vs g1: GCs -53%, Full GC +50%, mean pause +177%")
    assert any("different collectors (g1: G1, parallel: Parallel)" in w for w in comparison.warnings)
    view = compare_view(comparison, summaries)
    assert "Mixed GC" in [r.label for r in view.rows]  # G1 had mixed GCs
    assert "mean concurrent cycle" in [r.label for r in view.rows]
    assert "safepoint time" not in [r.label for r in view.rows]  # no safepoints in either log


def test_every_compared_figure_has_a_unit():
    from jvmlab.metrics.comparison import FIGURES
    from jvmlab.report import units
    from jvmlab.report.gclog.comparison_view import show

    assert show("allocation_rate_mib_per_s") is units.mib_per_s  # before the "_s" of seconds
    assert show("young_gc_per_min") is units.per_min
    for figure in FIGURES:
        assert show(figure.key)(1.0) != units.MISSING, figure.key
