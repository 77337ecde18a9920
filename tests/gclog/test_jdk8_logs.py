"""Real OpenJDK 8u504 GC logs (tests/gclog/jdk8, written by make_logs.py) against the JVM's own JFR truth.

Every collector of JDK 8 and every family of print flags: each log parses with no unknown line, names its
collector, and its pauses agree with the jdk.GarbageCollection events recorded by the same JVM.

Matching: JFR's start (s after jvmStartTime) and the log's uptime differ by a constant per run (measured
0.05-0.15 s), so a collection is paired with the log's GC id whose first pause starts at the JFR start plus
that offset, within MATCH_S (the log prints ms). Ids are not compared: -verbose:gc logs do not show the
young collection JDK 8's DefNew gives up on (it takes a GC id), and a rotated set starts mid-run.

Tolerance per collection (log pause sum - JFR sumOfPauses): within max(PAUSE_MS, PAUSE_SHARE) (the log prints
0.1 us, the two timers differ by tens of us); CMS concurrent cycles (initial mark + remark): the log is
shorter by at most CMS_REMARK_MS (JFR times the remark's whole VM operation, measured up to 0.69 ms more).
At least MIN_AGREEMENT of the JFR collections inside the log's span must agree: first collections of a run
are slower and print more (-XX:PrintFLSStatistics=1 prints inside the log's timer: 34.8 ms logged, 30.3 ms
in JFR for the first ParNew of cms-fls).
"""

from __future__ import annotations

import json
import statistics
import tomllib
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest

import jvmlab

HERE = Path(__file__).resolve().parent / "jdk8"
MANIFEST = tomllib.loads((HERE / "MANIFEST.toml").read_text())
COLLECTORS = {"serial": "Serial", "parallel": "Parallel", "cms": "CMS", "g1": "G1"}
MATCH_S = 0.005
PAUSE_MS = 0.2
PAUSE_SHARE = 0.03
CMS_REMARK_MS = 1.0
MIN_AGREEMENT = 0.9
# Log collections JFR has no event for, measured: a rotated set's ids are assigned from its first file (a
# cycle's remark/cleanup is not recognised by id); one more young id in the CMS logs at the window's edge.
KNOWN_EXTRA = {"g1-rotation": 1, "cms-promotion-failed": 1, "cms-details-gcid": 1}
CYCLES = ("ConcurrentMarkSweep", "G1Old")
# JFR names a CMS cycle by what started it; the log prints each pause's own cause
CYCLE_CAUSES = {"CMS Concurrent Mark": {"CMS Initial Mark", "CMS Final Remark"}, "G1 Evacuation Pause": set()}


@dataclass(frozen=True)
class LogGc:
    gc_id: int
    start_s: float
    pause_ms: float
    causes: frozenset[str]


def load(case: str) -> jvmlab.gclog.GcLog:
    return jvmlab.gclog.load([HERE / f for f in MANIFEST[case]["files"]])


def truth(case: str) -> dict:
    return json.loads((HERE / f"{case}.truth.json").read_text())


def log_gcs(events: pl.DataFrame) -> list[LogGc]:
    pauses = (
        events.filter(pl.col("category") == "pause")
        .group_by("gc_id")
        .agg(pl.col("uptime_s").min(), pl.col("pause_ms").sum(), pl.col("cause").cast(pl.String).drop_nulls())
        .sort("uptime_s")
    )
    return [
        LogGc(r["gc_id"], r["uptime_s"], r["pause_ms"], frozenset(r["cause"]))
        for r in pauses.iter_rows(named=True)
    ]


def offset_s(gcs: list[LogGc], collections: list[dict]) -> float:
    """The log's uptime minus JFR's start: the difference most pairs of starts share."""
    candidates = [g.start_s - c["start_s"] for g in gcs[:8] for c in collections]

    def pairs(off: float) -> int:
        starts = [g.start_s for g in gcs]
        return sum(any(abs(s - c["start_s"] - off) <= MATCH_S for s in starts) for c in collections)

    return max(candidates, key=pairs)


def agrees(c: dict, g: LogGc) -> bool:
    diff = g.pause_ms - c["sum_of_pauses_ms"]
    if c["name"] in CYCLES:
        return -CMS_REMARK_MS <= diff <= PAUSE_MS
    return abs(diff) <= max(PAUSE_MS, PAUSE_SHARE * c["sum_of_pauses_ms"])


def cause_agrees(c: dict, g: LogGc) -> bool:
    if not g.causes:  # -XX:-PrintGCCause, or G1's -verbose:gc
        return True
    return g.causes <= {c["cause"]} | CYCLE_CAUSES.get(c["cause"], set())


@pytest.mark.parametrize("case", sorted(MANIFEST))
def test_every_line_is_known_and_the_collector_named(case):
    log = load(case)
    assert log.diagnostics["lines_unknown"] == 0, log.diagnostics["unknown_samples"]
    assert log.format["generation"] == "legacy"
    assert log.format["collector"] == COLLECTORS[case.split("-")[0]]


@pytest.mark.parametrize("case", sorted(MANIFEST))
def test_pauses_agree_with_jfr(case):
    collections = truth(case)["collections"]
    cycles = {c["gc_id"]: c for c in collections if c["name"] in CYCLES}
    all_gcs = log_gcs(load(case).events)
    # concurrent cycles: by id (the log's ids of their pauses are the JVM's, printed or not: measured)
    cycle_gcs = [g for g in all_gcs if g.gc_id in cycles]
    assert all(agrees(cycles[g.gc_id], g) and cause_agrees(cycles[g.gc_id], g) for g in cycle_gcs)
    # stop-the-world collections: by start time
    gcs = [g for g in all_gcs if g.gc_id not in cycles]
    stw = [c for c in collections if c["gc_id"] not in cycles]
    off = offset_s(gcs, stw)
    assert 0.0 <= off <= 0.3, f"log uptime - JFR start = {off:.3f} s"
    inside = [c for c in stw if gcs[0].start_s - MATCH_S <= c["start_s"] + off <= gcs[-1].start_s + MATCH_S]
    matched, agreeing, wrong_cause = 0, 0, []
    for c in inside:
        near = [g for g in gcs if abs(g.start_s - c["start_s"] - off) <= MATCH_S]
        if not near:
            continue
        g = min(near, key=lambda g: abs(g.pause_ms - c["sum_of_pauses_ms"]))
        matched += 1
        agreeing += agrees(c, g)
        if not cause_agrees(c, g):
            wrong_cause.append((c["gc_id"], c["cause"], sorted(g.causes)))
    assert len(inside) >= 5 and matched == len(inside), f"{matched} of {len(inside)} JFR collections found"
    allowed = max(1, round((1 - MIN_AGREEMENT) * len(inside)))
    assert agreeing >= len(inside) - allowed, f"{agreeing} of {len(inside)} pause sums agree"
    assert not wrong_cause
    # the log holds hardly a collection JFR does not know, between JFR's first and last (KNOWN_EXTRA)
    first = stw[0]["start_s"] + off - MATCH_S
    last = stw[-1]["start_s"] + off + MATCH_S
    extra = len([g for g in gcs if first <= g.start_s <= last]) - len(inside)
    assert 0 <= extra <= KNOWN_EXTRA.get(case, 0)


def test_logs_with_printed_ids_agree_id_by_id():
    for case in ("cms-details-gcid", "cms-promotion-failed"):
        gcs = {g.gc_id: g for g in log_gcs(load(case).events)}
        collections = truth(case)["collections"]
        missing = [c["gc_id"] for c in collections if c["gc_id"] not in gcs]
        assert not missing, f"{case}: JFR ids {missing} not in the log"
        good = sum(agrees(c, gcs[c["gc_id"]]) for c in collections)
        assert good >= MIN_AGREEMENT * len(collections), f"{case}: {good} of {len(collections)}"


# cms-details-gcid: JFR has a jdk.PromotionFailed with gcId 14 (a CMS cycle) while the log prints no
# "(promotion failed)" anywhere (ParNew #17 completed, #18 was a full collection after a young one not
# attempted): JFR's event is not a young collection of the log.
PROMOTION_FAILED_NOT_LOGGED = {"cms-details-gcid": {14}}


def test_promotion_failures_and_concurrent_mode_failures_are_the_jvms():
    for case in sorted(MANIFEST):
        t = truth(case)
        events = load(case).events
        phases = events.filter(pl.col("category") == "pause").get_column("phase").cast(pl.String)
        first = min(c["gc_id"] for c in t["collections"])
        in_jfr = events.filter(
            pl.col("gc_id") >= first, pl.col("gc_id") <= max(c["gc_id"] for c in t["collections"])
        )
        in_jfr_phases = in_jfr.filter(pl.col("category") == "pause").get_column("phase").cast(pl.String)
        failed = set(t["promotion_failed"])  # JFR writes one event per worker that failed
        if case != "cms-details-gcid":  # see PROMOTION_FAILED_NOT_LOGGED
            assert in_jfr_phases.str.contains("promotion failed").sum() == len(failed), case
        if case == "cms-promotion-failed":  # ids printed: the failures are the very collections
            young = in_jfr.filter(pl.col("phase").cast(pl.String).str.contains("promotion failed"))
            assert set(young.get_column("gc_id").to_list()) == failed
            # JFR gives a concurrent mode failure the id of the CMS cycle it ended; the log, the full GC
            cmf = in_jfr.filter(pl.col("phase").cast(pl.String).str.contains("concurrent mode failure"))
            assert len(cmf) == len(set(t["concurrent_mode_failure"])), case
        elif not case.startswith("cms"):
            assert not phases.str.contains("concurrent mode failure").any()


def test_a_promotion_failure_on_jdk8_is_a_young_pause_and_a_full_collection():
    t = truth("cms-promotion-failed")
    jfr = {c["gc_id"]: c for c in t["collections"]}
    events = load("cms-promotion-failed").events.filter(pl.col("category") == "pause")
    young = events.filter(pl.col("phase").cast(pl.String) == "GC (promotion failed)")
    assert len(young) == len(set(t["promotion_failed"])) >= 3
    for row in young.iter_rows(named=True):
        assert jfr[row["gc_id"]]["name"] == "ParNew"
        assert row["kind"] == "young"
        full = events.filter(pl.col("gc_id") == row["gc_id"] + 1)
        assert full.get_column("kind").to_list() == ["full"]
        assert jfr[row["gc_id"] + 1]["name"] == "SerialOld"  # CMS's foreground full collection
        assert abs(row["pause_ms"] - jfr[row["gc_id"]]["sum_of_pauses_ms"]) <= PAUSE_MS
        # the full row keeps the rest of the record's pause: the full collection (JFR's SerialOld) and the
        # time between the two that neither JFR event covers (the log's stamps show it, to the ms)
        full_ms, old_s = full.get_column("pause_ms")[0], full.get_column("uptime_s")[0]
        gap_ms = (old_s - row["uptime_s"]) * 1000 - row["pause_ms"]
        assert (
            -PAUSE_MS
            <= full_ms - jfr[row["gc_id"] + 1]["sum_of_pauses_ms"]
            <= max(gap_ms, 0) + 1.0 + PAUSE_MS
        )
    assert statistics.mean(young.get_column("pause_ms")) < statistics.mean(
        events.filter(pl.col("kind") == "full").get_column("pause_ms")
    )
