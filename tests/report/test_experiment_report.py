"""`jvmlab report EXPERIMENT`: the experiment's HTML report from its view model (sections, tables, charts,
links), escaping of what comes from specs and logs, the page in a real browser, and the CLI."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from browser import CHROMIUM_GROUP, chromium, open_reports
from report_logs import corpus_log

from jvmlab.cli.main import main
from jvmlab.experiment.analysis.report_data import report_data
from jvmlab.experiment.storage import Store
from jvmlab.report.experiment.page import experiment_page
from jvmlab.report.html.page import Links, Table, render, write

sys.path.insert(0, str(Path(__file__).parents[1] / "experiment"))
from synthetic import Variant, store_experiment  # noqa: E402

HOSTILE = "<script>alert(1)</script></script><img src=x onerror=alert(2)>"
GOALS = {"all": ["ops_per_s >= +5%", "pause_p99_ms <= 10", "rss_peak_mb <= 500"]}


@pytest.fixture
def db(tmp_path) -> str:
    path = str(tmp_path / "jvmlab.db")
    store = Store.open(path)
    gc_log = corpus_log("generated/jdk25-g1-gcstar.log")
    variants = [Variant("jdk21", "default"), Variant("jdk21", "tuned", metric=330.0, pause_p99_ms=8.0)]
    store_experiment(store, variants, goals=GOALS, gc_log=gc_log, description=HOSTILE, repetitions=3)
    levels = [
        Variant("jdk21", "default", p99_ms={"low": 5.0, "high": 50.0}),
        Variant("jdk21", "zgc", p99_ms={"low": 2.0, "high": 10.0}),
    ]
    store_experiment(
        store,
        levels,
        name="levels",
        levels=["low", "high"],
        goals={"high": ["p99_ms <= -30%"]},
        gc_log=gc_log,
    )
    store.close()
    return path


def _page(db: str, ref: str, output: Path):
    store = Store.open(db)
    try:
        return experiment_page(report_data(store, ref), output=output, generated_at="fixed")
    finally:
        store.close()


def test_the_page_has_every_part(db, tmp_path):
    page = _page(db, "synthetic", tmp_path / "report.html")
    assert [s.id for s in page.sections] == [
        "overview", "environment", "goals", "comparison", "charts", "findings", "gc", "trials"
    ]  # fmt: skip
    findings = page.section("findings")
    assert [child.title for child in findings.children] == ["jdk21/default", "jdk21/tuned"]
    goals = next(b for b in page.section("goals").blocks if isinstance(b, Table))
    verdicts = dict(zip(goals.column("goal"), goals.column("verdict"), strict=False))
    assert verdicts["ops_per_s >= +5%"] == "pass"
    statuses = {cell.status for row in goals.rows for cell in row if cell.text in ("pass", "fail")}
    assert statuses == {"pass", "fail"}
    table = next(b for b in page.section("comparison").blocks if isinstance(b, Table))
    tuned = next(row for row in table.rows if row[0].text == "jdk21/tuned")
    assert tuned[1].status == "better" and "▲" in tuned[1].text  # ops_per_s +10%, significant
    flags = [b for b in page.section("environment").blocks if isinstance(b, Table)][-1]
    assert flags.column("variant") == ["jdk21/default", "jdk21/tuned"]


def test_the_charts_hold_the_data(db, tmp_path):
    page = _page(db, "synthetic", tmp_path / "report.html")
    charts = {c.id: c for c in page.charts()}
    assert charts["metric-over-time"].trace_names == ["jdk21/default", "jdk21/tuned"]
    tuned = charts["metric-over-time"].trace("jdk21/tuned")
    assert 320 < max(tuned["y"]) < 345 and min(tuned["y"]) < 200  # the warm-up is visible
    bars = charts["metric-estimates"].figure["data"][0]
    assert len(bars["y"]) == 2 and all(e > 0 for e in bars["error_y"]["array"])
    assert len(charts["rss-over-time"].figure["data"]) == 6  # a line per trial
    for i in (1, 2):  # per variant, the charts of a real GC log
        assert {f"v{i}-heap", f"v{i}-pause-scatter", f"v{i}-pause-histogram", f"v{i}-gc-rate"} <= set(charts)


def test_latency_against_load_per_level(db, tmp_path):
    page = _page(db, "levels", tmp_path / "report.html")
    charts = {c.id: c for c in page.charts()}
    p99 = charts["latency-p99"]
    assert p99.trace_names == ["jdk21/default", "jdk21/zgc"]
    assert p99.trace("jdk21/zgc")["x"] == [100.0, 200.0]
    assert p99.trace("jdk21/zgc")["y"][1] == pytest.approx(10.0, rel=0.05)
    assert "p99-estimates" in charts and "gc-per-minute" in charts


def test_trial_files_are_linked_relative_to_the_report(db, tmp_path):
    out = tmp_path / "out" / "report.html"
    out.parent.mkdir()
    page = _page(db, "synthetic", out)
    links = next(b for b in page.section("trials").blocks if isinstance(b, Links))
    assert len(links.items) == 6
    label, href = links.items[0]
    assert label.endswith(": gc_log") and not href.startswith("/")
    assert (out.parent / href).resolve() == corpus_log("generated/jdk25-g1-gcstar.log").resolve()


def test_text_from_the_spec_is_escaped(db, tmp_path):
    html = render(_page(db, "synthetic", tmp_path / "r.html"))
    assert "<script>alert(1)" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.skipif(
    chromium() is None and not os.environ.get("CI"), reason="Chromium not installed (make chromium)"
)
@pytest.mark.chromium
@pytest.mark.xdist_group(CHROMIUM_GROUP)  # one Chromium for the worker's browser tests
def test_the_report_in_a_browser(db, tmp_path, shared_chromium):
    pages = []
    for ref in ("synthetic", "levels"):
        out = tmp_path / f"experiment-report-{ref}.html"
        write(_page(db, ref, out), out)
        pages.append((out, out.with_suffix(".png")))
    for result in open_reports(pages, shared_chromium):
        assert result.console_errors == [] and result.page_errors == [] and result.blocked_requests == []
        assert result.charts and all(c.svgs > 0 and c.marks > 0 for c in result.charts), [
            c for c in result.charts if not c.marks
        ]
        assert result.screenshot is not None and result.screenshot.stat().st_size > 50_000


def test_the_cli(db, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", "synthetic", "--db", db, "-o", str(out)]) == 0
    assert re.match(r"wrote .*r\.html \(\d+\.\d MB\)", capsys.readouterr().out)
    assert out.read_text().startswith("<!DOCTYPE html>")
    md = tmp_path / "r.md"
    assert main(["report", "levels", "--db", db, "--format", "markdown", "-o", str(md)]) == 0
    assert "✅ pass" in md.read_text()
    capsys.readouterr()
    assert main(["report", "nope", "--db", db, "-o", str(out)]) == 2
    assert "holds no experiment 'nope'" in capsys.readouterr().err
    assert main(["report", "--db", db, "-o", str(tmp_path / "no" / "r.html")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_warm_up_is_in_the_report(db, tmp_path):
    page = _page(db, "synthetic", tmp_path / "report.html")
    steady = next(
        b for b in page.section("comparison").blocks if isinstance(b, Table) and "warm-up" in b.caption
    )
    assert steady.column("repetitions") == ["warm-up ×3", "warm-up ×3"]
    assert all(text.endswith(" s") for text in steady.column("time to steady"))
    assert page.charts()[0].title == "ops per s over time"
