"""`jvmlab gc summary` on real logs: the tables, and the JSON whose figures match the event table."""

from __future__ import annotations

import json
import math

import polars as pl
import pytest

import jvmlab

G1 = "generated/jdk25-g1-gcstar.log"
SAFEPOINTS = "generated/jdk17-g1-gcstar-safepoint-utctime-pid-tid.log"
CMS = "gcviewer/openjdk/SampleSun1_8_0CmsPrintGcId.txt"
CMS_LONG = "gctoolkit-testdata/gctoolkit-gclogs/preunified/cms/parnew/details/tenuring/gc.log"
ZGC = "generated/jdk17-zgc-gcstar.log"
NO_TIME_STAMPS = "gcviewer/openjdk/SampleSun1_3_1_19SunOS.txt"

INPUT_FIELDS = {
    "name",
    "format_version",
    "format",
    "window",
    "gc_count",
    "gc_ids",
    "counts_by_kind",
    "pause_count",
    "pause_total_ms",
    "pause_mean_ms",
    "pause_p50_ms",
    "pause_p90_ms",
    "pause_p95_ms",
    "pause_p99_ms",
    "pause_max_ms",
    "pause_percentile_method",
    "rates",
    "pause_time_per_min_mean_ms",
    "pause_time_per_min_peak_ms",
    "gc_overhead_percent",
    "gc_interval_mean_s",
    "allocation",
    "heap",
    "full_gc_causes",
    "concurrent_cycles",
    "safepoints",
    "notes",
    "diagnostics",
}


SUMMARY_TEXTS = (
    "G1 · unified · JDK 25",
    "Young GC",
    "Mixed GC",
    "Full GC",
    "All GCs",
    "percentiles (nearest-rank)",
    "GC overhead",
    "allocation rate",
    "promotion rate",
    "live set estimate",
    "metaspace peak",
    "G1 Compaction Pause",
    "concurrent cycles",
    "safepoints (not in pauses)",
    "lines: 1,934 total",
)


def test_summary_table_has_every_section(cli, gclog):
    run = cli("gc", "summary", gclog(G1))
    assert run.code == 0, run.err
    for text in SUMMARY_TEXTS:
        assert text in run.out, text
    assert run.err == ""


def test_summary_of_a_long_log_shows_peaks(cli, gclog):
    run = cli("gc", "summary", gclog(CMS_LONG))
    assert run.code == 0
    young = next(line for line in run.out.splitlines() if line.startswith("Young GC"))
    assert young.split()[-1].endswith("/min")  # a peak, not a dash: the run is 10 days long
    assert "does not show the JVM start" in run.out


def test_summary_without_time_stamps_says_so(cli, gclog):
    run = cli("gc", "summary", gclog(NO_TIME_STAMPS))
    assert run.code == 0
    assert "no time stamps" in run.out


def _json(run) -> dict:
    assert run.code == 0, run.err
    return json.loads(run.out)


@pytest.mark.parametrize("log", [G1, SAFEPOINTS, CMS, ZGC, NO_TIME_STAMPS])
def test_json_figures_match_the_event_table(cli, gclog, log):
    document = _json(cli("gc", "summary", "--json", gclog(log)))
    assert (document["format_version"], document["tool"]) == (1, "jvmlab")
    (entry,) = document["inputs"]
    assert set(entry) >= INPUT_FIELDS
    assert set(entry["format"]) >= {"generation", "collector", "decorators", "jdk_version"}
    events = jvmlab_events(gclog(log))
    pauses = events.filter(pl.col("category") == "pause")
    gcs = events.filter((pl.col("category") != "safepoint") & pl.col("gc_id").is_not_null())
    assert entry["gc_count"] == gcs.get_column("gc_id").n_unique()
    assert entry["pause_count"] == pauses.height
    assert math.isclose(
        entry["pause_total_ms"], pauses.get_column("pause_ms").sum(), rel_tol=1e-9, abs_tol=1e-9
    )
    if pauses.height:
        assert entry["pause_max_ms"] == pauses.get_column("pause_ms").max()
    assert sum(entry["counts_by_kind"].values()) == events.get_column("kind").drop_nulls().len()
    assert entry["safepoints"]["count"] == events.filter(pl.col("category") == "safepoint").height
    assert entry["diagnostics"]["lines_total"] > 0


def jvmlab_events(path) -> pl.DataFrame:
    return jvmlab.gclog.load(path).events


def test_json_of_several_logs_has_one_input_each(cli, gclog):
    document = _json(cli("gc", "summary", "--json", gclog(G1), gclog(ZGC)))
    assert [i["format"]["collector"] for i in document["inputs"]] == ["G1", "ZGC"]


def test_json_safepoints_are_separate_from_pauses(cli, gclog):
    (entry,) = _json(cli("gc", "summary", "--json", gclog(SAFEPOINTS)))["inputs"]
    assert entry["safepoints"]["count"] > 0
    pauses = jvmlab_events(gclog(SAFEPOINTS)).filter(pl.col("category") == "pause")
    assert math.isclose(entry["pause_total_ms"], pauses.get_column("pause_ms").sum())


def test_json_has_no_time_figures_without_time_stamps(cli, gclog):
    (entry,) = _json(cli("gc", "summary", "--json", gclog(NO_TIME_STAMPS)))["inputs"]
    assert entry["window"]["duration_s"] is None
    assert entry["gc_overhead_percent"] is None and entry["rates"]["all"]["mean_per_min"] is None


def test_time_window_options(cli, gclog):
    (entry,) = _json(cli("gc", "summary", "--json", "--start-s", "5", "--end-s", "10", gclog(G1)))["inputs"]
    assert (entry["window"]["start_s"], entry["window"]["end_s"], entry["window"]["narrowed"]) == (
        5.0,
        10.0,
        True,
    )
    run = cli("gc", "summary", "--start-s", "50", "--end-s", "10", gclog(G1))
    assert run.code == 2 and "--start-s" in run.err
