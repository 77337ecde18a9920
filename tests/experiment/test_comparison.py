"""`jvmlab compare`: a stored experiment's variants with CIs, changes against the baseline and their
significance, goals, warm-up, quality warnings; and its JSON, CSV and Markdown exports."""

from __future__ import annotations

import csv
import io
import json

import pytest
from synthetic import Variant, store_experiment

from jvmlab.cli.main import main
from jvmlab.errors import JvmLabError
from jvmlab.experiment.analysis.comparison import resolve_baselines, stored_comparison
from jvmlab.experiment.analysis.goals import FAIL, INCONCLUSIVE, PASS
from jvmlab.experiment.storage import Store
from jvmlab.report.experiment.comparison_view import BETTER, EQUIVALENT, WORSE, comparison_view

GOALS = {"all": ["ops_per_s >= +5%", "young_gc_per_min <= -20%", "pause_p99_ms <= 10", "rss_peak_mb <= 501"]}


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "jvmlab.db"
    store = Store.open(str(path))
    variants = [
        Variant("jdk17", "default"),
        Variant("jdk17", "faster", metric=330.0, young_per_min=45.0, pause_p99_ms=8.0),
        Variant("jdk17", "same"),
        Variant("jdk17", "slower", metric=270.0, warmup_points=0),
    ]
    store_experiment(store, variants, goals=GOALS)
    levels = {"low": 5.0, "high": 50.0}
    store_experiment(
        store,
        [
            Variant("jdk21", "default", p99_ms=levels),
            Variant("jdk21", "zgc", p99_ms={"low": 2.0, "high": 10.0}),
        ],
        name="levels",
        levels=["low", "high"],
        goals={"high": ["p99_ms <= -30%", "p99_ms <= 20"]},
    )
    store.close()
    return str(path)


def _comparison(db, ref="synthetic", **kw):
    store = Store.open(db)
    try:
        return stored_comparison(store, ref, **kw)
    finally:
        store.close()


def test_changes_against_the_baseline_with_significance(db):
    c = _comparison(db)
    (block,) = c.blocks
    ops = block.cells["ops_per_s"]
    assert ops["jdk17/default"].change is None  # the baseline
    faster, same, slower = (ops[v].change for v in ("jdk17/faster", "jdk17/same", "jdk17/slower"))
    assert faster is not None and faster.significant and 8 < faster.percent < 12
    assert faster.ci_low_percent < 10 < faster.ci_high_percent or abs(faster.percent - 10) < 1.5
    assert same is not None and not same.significant and abs(same.percent) < 2
    assert slower is not None and slower.significant and slower.percent < 0
    e = ops["jdk17/faster"].estimate
    assert e.n == 5 and e.ci_low < e.mean < e.ci_high
    young = block.cells["young_gc_per_min"]["jdk17/faster"].change
    assert young is not None and young.significant and -30 < young.percent < -20


def test_the_view_marks_better_worse_and_equivalent(db):
    view = comparison_view(_comparison(db), ["ops_per_s", "young_gc_per_min"])
    (table,) = view.tables
    assert table.columns == ("ops per s (ops/s)", "Young GC per minute")
    rows = dict(table.rows)
    assert rows["jdk17/default"][0].change == ""
    assert rows["jdk17/faster"][0].tone == BETTER and rows["jdk17/faster"][0].change.endswith("▲")
    assert rows["jdk17/faster"][1].tone == BETTER  # fewer young GCs is better
    assert rows["jdk17/slower"][0].tone == WORSE and rows["jdk17/slower"][0].change.endswith("▼")
    # the same ops/s: its whole CI within +-5 %, the default threshold
    assert rows["jdk17/same"][0].tone == EQUIVALENT and rows["jdk17/same"][0].change.endswith("≈")
    assert "±" in rows["jdk17/faster"][0].value
    # the primary measure (the workload's metric) shows the noise of single runs its verdict saw through
    assert " CV " in rows["jdk17/faster"][0].value and " CV " not in rows["jdk17/faster"][1].value


def test_goals_are_judged_per_variant(db):
    c = _comparison(db)
    verdicts = {(v.variant, v.goal.text): v.verdict for v in c.blocks[0].verdicts}
    assert verdicts[("jdk17/faster", "ops_per_s >= +5%")] == PASS
    assert verdicts[("jdk17/same", "ops_per_s >= +5%")] == FAIL
    assert verdicts[("jdk17/faster", "young_gc_per_min <= -20%")] == PASS
    assert verdicts[("jdk17/faster", "pause_p99_ms <= 10")] == PASS
    assert (
        verdicts[("jdk17/default", "pause_p99_ms <= 10")] == FAIL
    )  # absolute goals hold for the baseline too
    assert ("jdk17/default", "ops_per_s >= +5%") not in verdicts  # ... relative ones do not
    assert INCONCLUSIVE in {verdicts[(v, "rss_peak_mb <= 501")] for v in ("jdk17/same", "jdk17/faster")}


def test_warm_up_is_found_in_every_repetition(db):
    c = _comparison(db)
    default = c.variant("jdk17/default")
    assert [s.classification for s in default.steady] == ["warm-up"] * 5 and default.consistent
    for s in default.steady:
        assert 12 <= s.time_to_steady_s <= 24  # the synthetic series rises over its first 20 s
        assert s.steady_mean == pytest.approx(300, rel=0.02) and s.early_mean < 270
    slower = c.variant("jdk17/slower")
    assert {s.classification for s in slower.steady} == {"flat"}


def test_levels_are_compared_each_with_their_goals(db):
    c = _comparison(db, "levels")
    assert [b.level for b in c.blocks] == ["low", "high"]
    high = c.blocks[1]
    change = high.cells["p99_ms"]["jdk21/zgc"].change
    assert change is not None and change.significant and change.percent == pytest.approx(-80, abs=3)
    verdicts = {(v.variant, v.goal.text): v.verdict for v in high.verdicts}
    assert verdicts == {
        ("jdk21/zgc", "p99_ms <= -30%"): PASS,
        ("jdk21/default", "p99_ms <= 20"): FAIL,
        ("jdk21/zgc", "p99_ms <= 20"): PASS,
    }
    assert c.blocks[0].verdicts == []  # the goals are for the high level only
    assert all(not v.steady for v in c.variants)  # under load the metric follows the load, not warm-up


def test_baselines():
    pairs = [("11", "default"), ("11", "cms"), ("17", "default"), ("17", "g1")]
    assert resolve_baselines(pairs, None) == {
        "11/default": "11/default",
        "11/cms": "11/default",
        "17/default": "17/default",
        "17/g1": "17/default",
    }
    assert set(resolve_baselines(pairs, "17/g1").values()) == {"17/g1"}
    assert resolve_baselines(pairs, "17") == {
        "11/default": "17/default",
        "11/cms": None,
        "17/default": "17/default",
        "17/g1": "17/g1",
    }
    assert resolve_baselines([("a", "x"), ("b", "y")], None) == {"a/x": "a/x", "b/y": "a/x"}
    only_defaults = [("a", "default"), ("b", "default")]  # a JDK shoot-out: the JDKs against the first
    assert resolve_baselines(only_defaults, None) == {"a/default": "a/default", "b/default": "a/default"}
    with pytest.raises(
        JvmLabError, match="baseline 'nope' is neither a variant, a flag set, a JDK nor a container"
    ):
        resolve_baselines(pairs, "nope")


def test_baselines_in_containers():
    # Flag sets are compared within a JDK and a container by default; naming a container compares the sizes.
    sized = [("21", fs, c) for c in ("small", "big") for fs in ("default", "tuned")]
    assert resolve_baselines(sized, None) == {
        "21/default/small": "21/default/small",
        "21/tuned/small": "21/default/small",
        "21/default/big": "21/default/big",
        "21/tuned/big": "21/default/big",
    }
    assert resolve_baselines(sized, "big") == {
        "21/default/small": "21/default/big",
        "21/tuned/small": "21/tuned/big",
        "21/default/big": "21/default/big",
        "21/tuned/big": "21/tuned/big",
    }
    assert resolve_baselines(sized, "tuned")["21/default/big"] == "21/tuned/big"


def test_a_few_repetitions_are_warned_about(tmp_path):
    store = Store.open(str(tmp_path / "db"))
    store_experiment(store, [Variant("a", "default"), Variant("a", "x")], repetitions=1)
    c = stored_comparison(store, None)
    store.close()
    assert [w.code for w in c.warnings] == ["few-repetitions"]
    change = c.blocks[0].cells["ops_per_s"]["a/x"].change
    assert change is not None and change.significant is None  # nothing to test with one repetition
    row = dict(comparison_view(c).tables[0].rows)["a/x"][0]
    assert row.tone == "untested" and not row.change.endswith(("▲", "▼", "~"))


def test_the_cli_table_and_exports(db, tmp_path, capsys):
    assert main(["compare", "synthetic", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "jdk17/faster" in out and "▲" in out and "goals" in out and "warm-up ×5" in out

    assert main(["compare", "synthetic", "--db", db, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format_version"] == 2 and doc["experiment"]["name"] == "synthetic"
    assert doc["threshold_percent"] == 5.0
    cell = doc["blocks"][0]["cells"]["ops_per_s"]["jdk17/faster"]
    assert cell["change"]["significant"] is True and len(cell["values"]) == 5
    assert cell["verdict"] == "better" and cell["change"]["level"] == pytest.approx(
        0.99
    )  # primary: alone, at 1 - alpha

    out_csv = tmp_path / "c.csv"
    assert main(["compare", "synthetic", "--db", db, "--format", "csv", "-o", str(out_csv)]) == 0
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text())))
    faster = next(r for r in rows if r["variant"] == "jdk17/faster" and r["measure"] == "ops_per_s")
    assert faster["baseline"] == "jdk17/default" and faster["significant"] == "True"
    assert faster["verdict"] == "better" and float(faster["change_ci_level"]) == pytest.approx(0.99)
    assert float(faster["ci_low"]) < float(faster["mean"]) < float(faster["ci_high"])

    # without --format, -o's extension names it
    inferred = tmp_path / "inferred.csv"
    assert main(["compare", "synthetic", "--db", db, "-o", str(inferred)]) == 0
    assert inferred.read_text() == out_csv.read_text()
    as_json = tmp_path / "c.json"
    assert main(["compare", "synthetic", "--db", db, "-o", str(as_json)]) == 0
    assert json.loads(as_json.read_text())["experiment"]["name"] == "synthetic"

    assert main(["compare", "levels", "--db", db, "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert "**level high (200 req/s)**" in md and "✅ pass" in md and "❌ fail" in md


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", "nope"], "holds no experiment 'nope'"),
        (["compare", "synthetic", "--baseline", "jdk99"], "baseline 'jdk99' is neither"),
        (["compare", "synthetic", "--format", "xml"], "--format xml: use one of table, json, csv, markdown"),
        (["compare", "synthetic", "--alpha", "0.7"], "--alpha 0.7: give a significance level"),
        (["compare", "synthetic", "-m", "p99"], "unknown measure 'p99'"),
        (["compare", "synthetic", "--format", "csv", "-o", "/nonexistent/x.csv"], "does not exist"),
        (["compare", "synthetic", "-o", "out.txt"], "-o out.txt: the table is for the terminal"),
        (["compare", "synthetic", "--format", "table", "-o", "t.csv"], "the table is for the terminal"),
    ],
)
def test_cli_errors_are_one_line(db, args, message, capsys):
    assert main([*args, "--db", db]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_series_too_short_for_changepoints_is_not_classified(tmp_path):
    store = Store.open(str(tmp_path / "db"))
    store_experiment(store, [Variant("a", "default", readings=6), Variant("a", "x", warmup_points=0)])
    view = comparison_view(stored_comparison(store, None))
    store.close()
    rows = {r.variant: r for r in view.steady}
    assert rows["a/default"].classes == "too short to tell (6 readings; 10 needed)"
    assert rows["a/x"].classes == "flat ×5" and rows["a/x"].time_to_steady == "from the start"


def test_findings_name_the_significant_changes(db):
    view = comparison_view(_comparison(db), ["ops_per_s", "young_gc_per_min"])
    faster = next(f for f in view.findings if f.startswith("jdk17/faster: "))
    assert "ops per s (ops/s) +" in faster and "▲" in faster and "Young GC per minute -" in faster
    same = [f for f in view.findings if f.startswith("jdk17/same: ")]
    assert all("inconclusive, more repetitions decide" in f for f in same), same
    assert any(f.startswith("jdk17/slower: ops per s (ops/s) -") and f.endswith("▼") for f in view.findings)


def test_a_warm_up_that_reorders_the_variants_is_said(tmp_path):
    """Like the JIT warm-up that made one JDK slowest at first and fastest at the end."""
    store = Store.open(str(tmp_path / "db"))
    quick = Variant("a", "default", metric=300.0, start=0.8, warmup_points=10)
    slow_starter = Variant("b", "default", metric=330.0, start=0.5, warmup_points=40)
    store_experiment(store, [quick, slow_starter], repetitions=3)
    view = comparison_view(stored_comparison(store, None))
    store.close()
    assert view.findings[-1] == (
        "warm-up changes the order (best first): early a/default, b/default; steady b/default, a/default"
    )
