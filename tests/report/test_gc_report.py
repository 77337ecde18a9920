"""The GC report's view model on real logs: its sections, the figures of the summary in its tables, and
charts whose traces hold exactly the event table's rows (or the thinned count for long series)."""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pytest
from gc_report_inputs import labelled
from report_logs import CMS, G1, PARALLEL, ZGC

import jvmlab
from jvmlab.metrics import summarize
from jvmlab.report import units
from jvmlab.report.gclog.charts import MAX_BUCKETS, MIN_BUCKETS, bucket_width_s
from jvmlab.report.gclog.page import gc_report_page
from jvmlab.report.html import KeyValues, Preformatted, Table, Text, render
from jvmlab.report.html.charts import MAX_POINTS

SECTIONS = ["overview", "pauses", "collections", "memory", "diagnostics"]


@pytest.fixture(scope="module")
def g1_log():
    from report_logs import corpus_log

    return jvmlab.gclog.load(corpus_log(G1))


@pytest.fixture(scope="module")
def g1_page(g1_log):
    return gc_report_page([labelled("g1", g1_log)])


def _pauses(log) -> pl.DataFrame:
    return log.events.filter(pl.col("category") == "pause")


def _key_values(section) -> dict[str, str]:
    return {k: v for b in section.blocks if isinstance(b, KeyValues) for k, v in b.rows}


def _points(chart) -> dict[str, int]:
    return {t["name"]: len(t["x"]) for t in chart.figure["data"]}


def test_g1_page_sections_and_charts(g1_page):
    assert [s.id for s in g1_page.sections] == SECTIONS
    assert g1_page.title == "GC report: g1"
    assert "G1" in g1_page.subtitle and "JDK 25" in g1_page.subtitle
    ids = [c.id for c in g1_page.charts()]
    assert ids == ["pause-scatter", "pause-histogram", "pause-time", "gc-rate", "heap", "metaspace"]


def test_overview_holds_the_summary_figures(g1_page, g1_log):
    s = summarize(g1_log)
    overview = g1_page.section("overview")
    figures = _key_values(overview)
    assert figures["pauses"] == f"{s.pause_count:,}, {units.ms(s.pause_total_ms)} in total"
    assert units.ms(s.pause_p99_ms) in figures["percentiles (nearest-rank)"]
    assert figures["GC overhead"].startswith(units.percent(s.gc_overhead_percent))
    assert figures["allocation rate"] == units.mib_per_s(s.allocation.allocation_rate_mib_per_s)
    assert figures["Full GC causes"] == "G1 Compaction Pause 8"
    assert "live set estimate" in figures and "mean interval between GCs" in figures
    rates = next(b for b in overview.blocks if isinstance(b, Table))
    assert rates.column("collections") == ["Young GC", "Mixed GC", "Full GC", "All GCs"]
    assert rates.column("count") == ["86", "16", "8", f"{s.gc_count:,}"]
    assert [c.numeric for c in rates.columns] == [False, True, True, True]


def test_pause_scatter_has_one_point_per_pause(g1_page, g1_log):
    chart = next(c for c in g1_page.charts() if c.id == "pause-scatter")
    by_kind = dict(_pauses(g1_log).group_by(pl.col("kind").cast(pl.String)).len().rows())
    assert _points(chart) == by_kind
    assert chart.trace_names[:3] == ["young", "mixed", "full"]
    young = chart.trace("young")
    assert young["mode"] == "markers" and young["type"] == "scatter"
    assert young["text"][0] == "Pause Young (Normal) · G1 Evacuation Pause"
    assert max(young["y"]) == pytest.approx(
        _pauses(g1_log).filter(pl.col("kind") == "young")["pause_ms"].max()
    )
    assert chart.figure["layout"]["xaxis"]["title"]["text"] == "uptime (s)"


def test_pause_histogram_counts_every_pause(g1_page, g1_log):
    chart = next(c for c in g1_page.charts() if c.id == "pause-histogram")
    assert sum(sum(t["y"]) for t in chart.figure["data"]) == _pauses(g1_log).height
    assert chart.figure["layout"]["xaxis"]["title"]["text"].startswith("pause (ms)")


def test_per_bucket_bars_add_up_to_the_summary(g1_page, g1_log):
    s = summarize(g1_log)
    gc_rate = next(c for c in g1_page.charts() if c.id == "gc-rate")
    assert sum(sum(t["y"]) for t in gc_rate.figure["data"]) == s.gc_count
    assert gc_rate.trace_names == ["full", "mixed", "young", "concurrent cycle"]
    assert sum(gc_rate.trace("full")["y"]) == s.rates["full"].count
    pause_time = next(c for c in g1_page.charts() if c.id == "pause-time")
    total = sum(sum(t["y"]) for t in pause_time.figure["data"])
    assert total == pytest.approx(s.pause_total_ms, rel=1e-5)
    # a 12.8 s log: 1 s buckets, named in the titles
    assert gc_rate.title == "GCs per 1 s by kind"
    assert pause_time.figure["layout"]["yaxis"]["title"]["text"] == "pause time (ms per 1 s)"


def test_heap_and_metaspace_lines(g1_page, g1_log):
    with_heap = g1_log.events.filter(pl.col("heap_after_bytes").is_not_null())
    heap = next(c for c in g1_page.charts() if c.id == "heap")
    points = _points(heap)
    assert points["heap used (before → after GC)"] == 2 * with_heap.height  # before and after each GC
    assert points["heap capacity"] == with_heap["heap_capacity_bytes"].is_not_null().sum()
    assert points["old gen after GC"] == with_heap["old_after_bytes"].is_not_null().sum()
    assert heap.trace("young gen before GC")["visible"] == "legendonly"
    used = heap.trace("heap used (before → after GC)")
    assert max(used["y"]) == pytest.approx(with_heap["heap_before_bytes"].max() / units.MIB)
    assert np.all(np.diff(used["x"]) >= 0)
    assert heap.figure["layout"]["yaxis"]["title"]["text"] == "heap (MiB)"
    metaspace = next(c for c in g1_page.charts() if c.id == "metaspace")
    assert metaspace.figure["layout"]["yaxis"]["title"]["text"] == "metaspace (KiB)"


def test_diagnostics_section(g1_page, g1_log):
    figures = _key_values(g1_page.section("diagnostics"))
    assert figures["lines"] == f"{g1_log.diagnostics['lines_total']:,}"
    assert figures["unknown"] == "0"


def test_unknown_lines_are_shown_as_samples(hostile_log):
    page = gc_report_page([labelled("hostile", jvmlab.gclog.load(hostile_log))])
    samples = next(b for b in page.section("diagnostics").blocks if isinstance(b, Preformatted))
    assert len(samples.lines) == 3 and "<script>alert(1)</script>" in samples.lines[0]


def test_long_series_are_thinned(g1_log):
    """100 copies of the G1 log, one after another: more pauses than a trace draws."""
    events = g1_log.events
    span = events["uptime_s"].max() + 1.0
    copies = [
        events.with_columns(pl.col("uptime_s") + i * span, pl.col("gc_id") + i * 10_000) for i in range(100)
    ]
    big = pl.concat(copies)
    fmt = {**g1_log.format, "last_time_s": 100 * span}
    log = dataclasses.replace(g1_log, events=big, format=fmt)
    page = gc_report_page([labelled("big", log)])
    scatter = next(c for c in page.charts() if c.id == "pause-scatter")
    young = big.filter((pl.col("category") == "pause") & (pl.col("kind") == "young"))
    assert young.height == 8600
    assert len(scatter.trace("young")["x"]) <= MAX_POINTS
    assert max(scatter.trace("young")["y"]) == pytest.approx(young["pause_ms"].max())
    assert len(scatter.trace("full")["x"]) == 800  # short traces stay whole
    assert "thinned" in scatter.caption
    heap = next(c for c in page.charts() if c.id == "heap")
    assert len(heap.trace("heap used (before → after GC)")["x"]) <= MAX_POINTS
    gc_rate = next(c for c in page.charts() if c.id == "gc-rate")
    assert sum(sum(t["y"]) for t in gc_rate.figure["data"]) == summarize(log).gc_count
    assert gc_rate.title == "GCs per minute by kind"  # 1,380 s: 23 minutes


@pytest.mark.parametrize(
    ("duration_s", "width_s"), [(12.8, 1), (300, 30), (3600, 60), (86400 * 0.5, 60), (86400 * 10, 1800)]
)
def test_bucket_widths(duration_s, width_s):
    assert bucket_width_s(duration_s) == width_s
    assert MIN_BUCKETS <= duration_s / width_s <= MAX_BUCKETS


def test_zgc_page(gclog):
    log = jvmlab.gclog.load(gclog(ZGC))
    page = gc_report_page([labelled("zgc", log)])
    charts = {c.id: c for c in page.charts()}
    assert set(charts) == {"pause-scatter", "pause-histogram", "pause-time", "gc-rate", "heap"}
    assert set(charts["gc-rate"].trace_names) >= {"ZGC major", "ZGC minor"}
    assert sum(sum(t["y"]) for t in charts["gc-rate"].figure["data"]) == summarize(log).gc_count
    assert sum(_points(charts["pause-scatter"]).values()) == _pauses(log).height


def test_jdk8_cms_page(gclog):
    log = jvmlab.gclog.load(gclog(CMS))
    page = gc_report_page([labelled("cms", log)])
    assert [s.id for s in page.sections] == SECTIONS
    scatter = next(c for c in page.charts() if c.id == "pause-scatter")
    assert _points(scatter) == {"young": 8, "initial-mark": 1, "remark": 1}
    heap = next(c for c in page.charts() if c.id == "heap")
    assert "old gen after GC" in heap.trace_names
    render(page)


def test_several_logs_side_by_side(gclog):
    logs = [labelled(label, jvmlab.gclog.load(gclog(p))) for label, p in (("g1", G1), ("par", PARALLEL))]
    page = gc_report_page(logs)
    assert [s.id for s in page.sections] == ["side-by-side", "log1", "log2"]
    assert [s.id for s in page.section("log2").children] == [f"log2-{s}" for s in SECTIONS]
    table = next(b for b in page.section("side-by-side").blocks if isinstance(b, Table))
    assert [c.title for c in table.columns] == ["figure", "g1", "par", "par vs g1"]
    full = table.rows[table.column("figure").index("Full GC")]
    assert [c.text for c in full] == ["Full GC", "8", "12", "+50%"]
    assert full[3].status == "worse"
    warnings = [b for b in page.section("side-by-side").blocks if isinstance(b, Text) and b.tone == "warning"]
    assert "different collectors" in warnings[0].paragraphs[0]
    assert len({c.id for c in page.charts()}) == len(page.charts()) == 12


def test_window_keeps_the_events_inside(g1_log):
    page = gc_report_page([labelled("g1", g1_log, (3.0, 9.0))], window=(3.0, 9.0))
    scatter = next(c for c in page.charts() if c.id == "pause-scatter")
    inside = _pauses(g1_log).filter(pl.col("uptime_s").is_between(3.0, 9.0))
    assert sum(_points(scatter).values()) == inside.height
    assert all(3.0 <= x <= 9.0 for t in scatter.figure["data"] for x in t["x"])
    assert "events from 3 s to 9 s" in page.subtitle
