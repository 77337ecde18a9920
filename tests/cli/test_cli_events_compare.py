"""`jvmlab gc events` (CSV, Parquet, stdout) and `jvmlab gc compare` (labels, % change, JSON)."""

from __future__ import annotations

import io
import json

import polars as pl

import jvmlab
from jvmlab.cli.main import main

G1 = "generated/jdk25-g1-gcstar.log"
PARALLEL = "generated/jdk25-parallel-gcstar.log"
DATED = "gcviewer/openjdk/SampleSun1_8_0CmsPrintGcId.txt"


def test_events_csv_to_stdout_is_readable(cli, gclog):
    run = cli("gc", "events", gclog(DATED), "--csv", "-")
    assert run.code == 0, run.err
    table = pl.read_csv(io.StringIO(run.out), try_parse_dates=True)
    assert {"gc_id", "kind", "cause", "pause_ms", "wall_time"} <= set(table.columns)
    assert table.height == jvmlab.gclog.load(gclog(DATED)).events.height
    assert table.schema["kind"] == pl.String
    wall_time = table.schema["wall_time"]
    assert isinstance(wall_time, pl.Datetime) and wall_time.time_zone == "UTC"
    assert table.get_column("cause").to_list()[0] == "Allocation Failure"
    assert "10.6548," in run.out  # no binary noise (10.654800000000002)


def test_events_csv_and_parquet_files(cli, gclog, tmp_path):
    events = jvmlab.gclog.load(gclog(G1)).events
    assert cli("gc", "events", gclog(G1), "--csv", tmp_path / "e.csv").code == 0
    assert pl.read_csv(tmp_path / "e.csv").height == events.height
    assert cli("gc", "events", gclog(G1), "--parquet", tmp_path / "e.parquet").code == 0
    table = pl.read_parquet(tmp_path / "e.parquet")
    assert table.height == events.height
    assert table.schema["kind"] == pl.String
    assert table.get_column("pause_ms").sum() == events.get_column("pause_ms").sum()


def test_events_parquet_to_stdout(gclog, capsysbinary):
    assert main(["gc", "events", str(gclog(G1)), "--parquet", "-"]) == 0
    out = capsysbinary.readouterr().out
    assert out[:4] == b"PAR1"
    assert pl.read_parquet(io.BytesIO(out)).height == jvmlab.gclog.load(gclog(G1)).events.height


def test_events_needs_exactly_one_output(cli, gclog, tmp_path):
    for extra in ([], ["--csv", "-", "--parquet", str(tmp_path / "x")]):
        run = cli("gc", "events", gclog(G1), *extra)
        assert run.code == 2
        assert (
            run.err.strip()
            == "error: give exactly one of --csv FILE or --parquet FILE (FILE '-' writes to stdout)"
        )


def test_events_to_an_unwritable_place(cli, gclog, tmp_path):
    target = tmp_path / "missing-dir" / "e.csv"
    run = cli("gc", "events", gclog(G1), "--csv", target)
    assert run.code == 2
    assert run.err.strip() == f"error: {target}: cannot write: No such file or directory"


def test_compare_with_labels(cli, gclog):
    run = cli("gc", "compare", f"g1={gclog(G1)}", f"parallel={gclog(PARALLEL)}")
    assert run.code == 0, run.err
    headline = run.out.splitlines()[0]
    assert headline.startswith("parallel vs g1: ")
    assert "Full GC +50%" in headline  # 8 -> 12 full GCs
    assert "vs g1" in run.out and "warning: the inputs use different collectors" in run.out


def test_compare_json(cli, gclog):
    run = cli("gc", "compare", "--json", f"g1={gclog(G1)}", f"parallel={gclog(PARALLEL)}")
    document = json.loads(run.out)
    assert (document["format_version"], document["tool"], document["baseline"]) == (1, "jvmlab", "g1")
    assert [i["label"] for i in document["inputs"]] == ["g1", "parallel"]
    full = next(f for f in document["figures"] if f["key"] == "full_gc_count")
    assert full["values"] == [8.0, 12.0]
    assert full["change_percent"] == [None, 50.0]
    assert document["inputs"][0]["pause_count"] == 135


def test_compare_default_labels_are_file_names(cli, gclog):
    run = cli("gc", "compare", "--json", gclog(G1), gclog(PARALLEL))
    assert json.loads(run.out)["baseline"] == "jdk25-g1-gcstar.log"


def test_compare_needs_two_logs_and_distinct_labels(cli, gclog):
    run = cli("gc", "compare", gclog(G1))
    assert run.code == 2 and run.err.startswith("error: compare needs at least two logs")
    run = cli("gc", "compare", f"a={gclog(G1)}", f"a={gclog(PARALLEL)}")
    assert run.code == 2 and "label 'a' names two inputs" in run.err
