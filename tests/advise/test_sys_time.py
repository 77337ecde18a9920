"""`gc-sys-time-high`: pauses that spend more CPU time in the kernel than in the collector (the CPU times of
the event table, docs/event-table.md). On an excerpt of a production log where most pauses show it
(production/README.md), and on real logs where it must not fire."""

from __future__ import annotations

from pathlib import Path

import polars as pl

import jvmlab
from jvmlab.advise import Severity, advise_log
from jvmlab.advise import thresholds as t

HERE = Path(__file__).parent
PRODUCTION = HERE / "production"
SYS_OVER_USER = PRODUCTION / "parallel-sys-over-user-jdk8.log"


def test_the_event_table_keeps_the_times_of_each_pause():
    # lines 237-243: `118.526: [GC (Allocation Failure) ...` to `[Times: user=0.91 sys=3.08, real=0.28 secs]`
    pauses = jvmlab.gclog.load(SYS_OVER_USER).events.filter(pl.col("category") == "pause")
    row = pauses.filter(pl.col("uptime_s") == 118.526).row(0, named=True)
    assert (row["user_ms"], row["sys_ms"], row["real_ms"]) == (910.0, 3080.0, 280.0)
    assert pauses.get_column("user_ms").null_count() == 0 and len(pauses) == 15


def test_sys_above_user_in_most_pauses_of_a_production_log():
    # A JDK 8 Parallel JVM on a 32 GB machine (gctoolkit-testdata icap.log): 8 of its 15 young pauses spent
    # more CPU time in the kernel than in the collector, up to sys 3.08 s against user 0.91 s.
    advice = advise_log(SYS_OVER_USER)
    found = {f.id: f for f in advice.findings}["gc-sys-time-high"]
    figures = found.evidence.figures
    assert (figures["pauses_judged"], figures["pauses_sys_over_user"]) == (15, 8)
    assert (figures["worst_user_ms"], figures["worst_sys_ms"], figures["worst_real_ms"]) == (910, 3080, 280)
    assert found.evidence.gc_ids[0] == figures["worst_gc_id"] == 1
    assert found.evidence.excerpts == ["GC id 1 at 118.526 s: user=0.91 sys=3.08, real=0.28 secs"]
    # 15 judged pauses are under three times the minimum of 10: one step less than a warning
    assert found.severity is Severity.INFO
    action = found.recommendation.action
    for check in ("vmstat", "/sys/kernel/mm/transparent_hugepage/defrag", "-XX:+AlwaysPreTouch",
                  "-XX:ParallelGCThreads", "-Xlog:async"):  # fmt: skip
        assert check in action, check
    assert "swapped" in found.why and "transparent huge pages" in found.why


def test_a_few_pauses_with_sys_above_user_are_no_pattern():
    # A JDK 21 Parallel log (logs/MANIFEST.toml): 1 of its 23 pauses with 50 ms or more of CPU time shows sys
    # above user (GC(4)'s full collection, `User=0.04s Sys=0.06s Real=0.05s`), under a tenth of them.
    log = HERE / "logs" / "heap-too-small-parallel-jdk21.log"
    pauses = jvmlab.gclog.load(log).events.filter(pl.col("category") == "pause")
    judged = pauses.filter(pl.col("user_ms") + pl.col("sys_ms") >= t.SYS_TIME_JUDGED_CPU_MS)
    over = judged.filter(pl.col("sys_ms") > pl.col("user_ms") + t.SYS_TIME_TICK_MS)
    assert (len(judged), len(over)) == (23, 1)
    advice = advise_log(log)
    assert "gc-sys-time-high" not in {f.id for f in advice.findings}
    assert "gc-sys-time-high" not in {n.id for n in advice.not_checked}
    # nor on a CMS production file whose 32 judged pauses all spent more in the collector
    assert "gc-sys-time-high" not in {
        f.id for f in advise_log(PRODUCTION / "cms-rotated-part1-jdk8.log").findings
    }


def test_not_enough_evidence_and_no_times():
    reasons = {n.id: n.reason for n in advise_log(PRODUCTION / "cms-parnew-fls-jdk8.log").not_checked}
    assert reasons["gc-sys-time-high"] == (
        "not enough evidence (1 pauses with 50 ms or more of CPU time; the rule needs 10)"
    )
    # JDK 8 without -XX:+PrintGCDetails prints no `[Times: ...]`; ZGC prints no gc,cpu lines
    for log in (
        HERE.parent / "gclog" / "jdk8" / "parallel-verbose.log",
        HERE / "logs" / "healthy-zgc-jdk25.log",
    ):
        reasons = {n.id: n.reason for n in advise_log(log).not_checked}
        assert reasons["gc-sys-time-high"].startswith("the log prints no CPU times of pauses"), log
