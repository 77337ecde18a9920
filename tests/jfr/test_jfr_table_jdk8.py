"""The GC event table made from a JDK 8 recording (what `advise --pid --record` reads on JDK 8, which has no
VM.log) against the GC log of the same JVM: real OpenJDK 8u504 runs of Churn, one per collector
(tests/jfr/jdk8: make_recordings.py, the recordings scrubbed to the GC events), read by an installed JDK's
`jfr` tool. Per GC id inside the recording's span (JFR starts after the JVM's first collections): the same
ids, the same pause kinds, pause time within max(0.5 ms, 3 %) (JFR's timer starts before the log's: up to
0.15 ms more per pause measured here), and the same collector."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from jvmlab.gclog import load
from jvmlab.jdk.discovery import discover
from jvmlab.jfr.gc_events import gc_log_of_recording

HERE = Path(__file__).parent / "jdk8"
COLLECTORS = {"serial": "Serial", "parallel": "Parallel", "cms": "CMS", "g1": "G1"}
PAUSE_TOLERANCE_MS = 0.5
PAUSE_TOLERANCE_FRACTION = 0.03


@pytest.fixture(scope="module")
def jfr_tool() -> Path:
    tools = [j.jfr for j in discover().jdks if j.major >= 11 and j.jfr.is_file()]
    if not tools:
        pytest.skip("no JDK 11+ with a jfr tool installed")
    return tools[0]


def per_gc(events: pl.DataFrame) -> dict[int, tuple[float, list[str]]]:
    rows = (
        events.filter(pl.col("category") == "pause", pl.col("gc_id").is_not_null())
        .group_by("gc_id")
        .agg(pl.col("pause_ms").sum(), pl.col("kind").cast(pl.String).sort().alias("kinds"))
    )
    return {r["gc_id"]: (r["pause_ms"], r["kinds"]) for r in rows.iter_rows(named=True)}


@pytest.mark.parametrize("name", sorted(COLLECTORS))
def test_a_jdk8_recording_gives_the_gc_logs_collections(name, jfr_tool):
    recorded = gc_log_of_recording(HERE / f"{name}.jfr", jfr_tool)
    logged = load(HERE / f"{name}.gc.log")
    assert recorded.format["collector"] == logged.format["collector"] == COLLECTORS[name]
    assert logged.format["gc_ids"] == "log"  # -XX:+PrintGCID: the same ids as JFR's
    table, log = per_gc(recorded.events), per_gc(logged.events)
    assert len(table) >= 10, f"{len(table)} collections in the recording"
    log = {i: gc for i, gc in log.items() if min(table) <= i <= max(table)}
    assert set(table) == set(log), f"JFR only {set(table) - set(log)}, log only {set(log) - set(table)}"
    for gc_id, (ms, kinds) in table.items():
        log_ms, log_kinds = log[gc_id]
        assert kinds == log_kinds, (gc_id, kinds, log_kinds)
        assert abs(ms - log_ms) <= max(PAUSE_TOLERANCE_MS, PAUSE_TOLERANCE_FRACTION * log_ms), (
            gc_id,
            ms,
            log_ms,
        )
