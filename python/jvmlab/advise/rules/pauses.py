"""Rules over pause times: overhead, single long pauses, G1's pause goal, a throughput collector under a
latency load (knowledge rules 8, 9)."""

from __future__ import annotations

import polars as pl

from jvmlab.advise import thresholds as t
from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import (
    HOTSPOT,
    NO_TIME,
    Outcome,
    by_evidence,
    evidence,
    excerpt_counts,
    make,
    not_checked,
    not_enough,
    rule,
    too_short,
)
from jvmlab.advise.rules.failures import bigger_heap
from jvmlab.jdk.collectors import COLLECTORS, collector

G1 = collector("G1")
# The collectors that stop the application for every collection and for the whole old generation.
THROUGHPUT = tuple(c for c in COLLECTORS if c.reclaims and not c.concurrent)
THROUGHPUT_COLLECTORS = tuple(c.name for c in THROUGHPUT)


@rule("gc-overhead-high", "A large share of wall time spent in GC pauses")
def gc_overhead(f: Facts) -> Outcome:
    overhead = f.summary.gc_overhead_percent
    if overhead is None:
        return not_checked("gc-overhead-high", NO_TIME)
    if overhead < t.GC_OVERHEAD_INFO_PERCENT:
        return None
    short = not_enough("gc-overhead-high", f.summary.pause_count, t.MIN_OVERHEAD_PAUSES, "pauses")
    short = short or too_short("gc-overhead-high", f, t.MIN_OVERHEAD_WINDOW_S)
    if short:
        return short
    severity = (
        Severity.CRITICAL
        if overhead >= t.GC_OVERHEAD_CRITICAL_PERCENT
        else Severity.WARNING
        if overhead >= t.GC_OVERHEAD_WARNING_PERCENT
        else Severity.INFO
    )
    severity = by_evidence(severity, f.summary.pause_count, t.MIN_OVERHEAD_PAUSES)
    pauses = f.rows(category="pause")
    by_kind = pauses.group_by("kind").agg(pl.col("pause_ms").sum()).sort("pause_ms", descending=True)
    top_kind, top_ms = by_kind.row(0) if not by_kind.is_empty() else (None, 0.0)
    young_dominates = top_kind in ("young", "mixed")
    return make(
        "gc-overhead-high",
        severity,
        f"GC pauses take {overhead:.1f} % of the run",
        "Time the application is stopped is time it does no work: throughput drops by this share and "
        "requests queue behind the pauses.",
        evidence(
            pauses,
            [f"{k}: {ms:.0f} ms" for k, ms in by_kind.rows()[:4]],
            gc_overhead_percent=overhead,
            pause_total_ms=f.summary.pause_total_ms,
            duration_s=f.duration_s,
            allocation_rate_mib_per_s=f.summary.allocation.allocation_rate_mib_per_s,
        ),
        add=[] if young_dominates else bigger_heap(f),
        action="Most pause time is in "
        + str(top_kind)
        + " collections: "
        + (
            "a larger young generation or a lower allocation rate (an allocation profile names the sites) "
            "helps."
            if young_dominates
            else "the old generation is short of room: a larger heap, or find what fills it."
        ),
        effect=("gc_overhead_percent", "decrease", f"below {t.GC_OVERHEAD_INFO_PERCENT:.0f} %"),
        confidence=Confidence.HIGH if len(pauses) >= 20 else Confidence.MEDIUM,
    )


@rule("long-gc-pause", "Single pauses of a second or more")
def long_pause(f: Facts) -> Outcome:
    longest = f.summary.pause_max_ms
    if longest is None or longest < t.LONG_PAUSE_WARNING_MS:
        return None
    rows = f.rows(category="pause").filter(pl.col("pause_ms") >= t.LONG_PAUSE_WARNING_MS)
    severity = Severity.CRITICAL if longest >= t.LONG_PAUSE_CRITICAL_MS else Severity.WARNING
    throughput = f.collector in THROUGHPUT_COLLECTORS
    return make(
        "long-gc-pause",
        severity,
        f"{len(rows)} pauses of 1 s or more (longest {longest / 1000:.1f} s)",
        "For that long the application answers nothing: timeouts, failed health checks, lost sessions.",
        evidence(rows, excerpt_counts(rows, "kind"), long_pauses=len(rows), pause_max_ms=longest),
        add=[G1.option] if throughput else [],
        remove=[c.option for c in THROUGHPUT if f.given(c.flag) == "true"],
        action="See the rules on full collections above for why they happen. "
        + (
            "G1 bounds pauses by collecting the old generation incrementally."
            if throughput
            else "Check the kinds of the long pauses: full collections point to heap room, long young "
            "pauses to a large young generation or reference processing."
        ),
        effect=("pause_max_ms", "decrease", "no pause of a second or more"),
        confidence=Confidence.HIGH,
    )


@rule("pause-target-missed", "G1 pauses over the pause-time goal (MaxGCPauseMillis)", family=HOTSPOT)
def pause_target(f: Facts) -> Outcome:
    if f.collector != "G1":
        return None
    given = f.flag("MaxGCPauseMillis")
    goal = float(given) if given else t.G1_DEFAULT_PAUSE_GOAL_MS
    # the columns the rule and its evidence read: a filter copies every column it is given
    pauses = f.events.select("gc_id", "uptime_s", "category", "kind", "pause_ms").filter(
        (pl.col("category") == "pause") & pl.col("kind").is_in(["young", "mixed"])
    )
    short = not_enough("pause-target-missed", len(pauses), t.MIN_PAUSES_FOR_GOAL, "young/mixed pauses")
    if short:
        return short
    over = pauses.filter(pl.col("pause_ms") > goal)
    share = len(over) / len(pauses)
    if share <= t.PAUSE_GOAL_MISSED_SHARE:
        return None
    pinned = [o for o in ("NewSize", "MaxNewSize", "NewRatio") if f.given(o) is not None]
    remove = [o.raw for o in f.options or () if o.name in pinned]
    return make(
        "pause-target-missed",
        by_evidence(Severity.WARNING, len(pauses), t.MIN_PAUSES_FOR_GOAL),
        f"{share:.0%} of young/mixed pauses over the {goal:.0f} ms goal",
        "G1 sizes the young generation to meet MaxGCPauseMillis; missing it often means it cannot: a "
        "pinned young generation, too few GC threads, or too much surviving per collection.",
        evidence(
            over,
            excerpt_counts(over, "kind"),
            pauses_over_goal=len(over),
            share=share,
            goal_ms=goal,
            goal_source="MaxGCPauseMillis" if given else "G1 default",
        ),
        remove=remove,
        action=(
            "The young generation is pinned (" + ", ".join(pinned) + "): remove it so G1 can size it "
            "for the goal."
            if pinned
            else "Check the young pauses' phases (-Xlog:gc+phases=debug) and "
            "ParallelGCThreads; for goals under 10 ms consider ZGC."
        ),
        effect=("pause_p99_ms", "decrease", f"pauses back under {goal:.0f} ms"),
        confidence=Confidence.MEDIUM,
    )


@rule(
    "throughput-collector-latency",
    "Parallel or Serial GC where pauses matter (a latency-sensitive service)",
    family=HOTSPOT,
)
def throughput_collector(f: Facts) -> Outcome:
    if f.collector not in THROUGHPUT_COLLECTORS:
        return None
    p99 = f.summary.pause_p99_ms
    latency_load = f.workload_kind == "latency"
    if p99 is None or (p99 < t.LATENCY_PAUSE_P99_MS and not latency_load):
        return None
    if latency_load and p99 < t.LATENCY_PAUSE_P99_MS / 10:
        return None
    default_choice = f.options is not None and all(f.given(n) is None for c in THROUGHPUT for n in c.flags)
    pauses = f.rows(category="pause")
    return make(
        "throughput-collector-latency",
        Severity.WARNING if latency_load else Severity.INFO,
        f"{f.collector} GC with pauses of {p99:.0f} ms at p99"
        + (" under a latency load" if latency_load else ""),
        f"{f.collector} stops the application for every collection and for the whole old generation; it "
        "maximises throughput, not response time. Requests that arrive during a pause wait for all of it."
        + (" It was chosen by default (JDK 8's default collector), not by choice." if default_choice else ""),
        evidence(
            pauses, excerpt_counts(pauses, "kind"), pause_p99_ms=p99, pause_max_ms=f.summary.pause_max_ms
        ),
        add=[G1.option],
        remove=[o.raw for o in f.options or () if any(o.name in c.flags for c in THROUGHPUT)],
        action="G1 (or ZGC for sub-millisecond goals) keeps pauses short at some throughput cost; measure "
        "both at the service's load levels.",
        effect=("latency_p99_ms", "decrease", "shorter pauses, so a lower latency tail"),
        confidence=Confidence.MEDIUM if latency_load else Confidence.LOW,
    )


SYS_TIME_MISSING = (
    "the log prints no CPU times of pauses (JDK 8: -XX:+PrintGCDetails prints `[Times: ...]`; JDK 9+: "
    "-Xlog:gc+cpu, part of -Xlog:gc*; ZGC and Shenandoah print none)"
)


@rule(
    "gc-sys-time-high",
    "Pauses that spend more CPU time in the kernel than in the collector (sys above user)",
    family=HOTSPOT,
)
def sys_time_high(f: Facts) -> Outcome:
    timed = f.rows(category="pause").filter(pl.col("user_ms").is_not_null() & pl.col("sys_ms").is_not_null())
    if timed.is_empty():
        return not_checked("gc-sys-time-high", SYS_TIME_MISSING)
    judged = timed.filter(pl.col("user_ms") + pl.col("sys_ms") >= t.SYS_TIME_JUDGED_CPU_MS)
    short = not_enough(
        "gc-sys-time-high",
        len(judged),
        t.MIN_COLLECTIONS_FOR_SHARE,
        f"pauses with {t.SYS_TIME_JUDGED_CPU_MS:.0f} ms or more of CPU time",
    )
    if short:
        return short
    over = judged.filter(pl.col("sys_ms") > pl.col("user_ms") + t.SYS_TIME_TICK_MS)
    share = len(over) / len(judged)
    if share < t.SYS_OVER_USER_SHARE:
        return None
    over = over.sort(pl.col("sys_ms") - pl.col("user_ms"), descending=True, maintain_order=True)
    worst = over.row(0, named=True)
    at = "" if worst["uptime_s"] is None else f" at {worst['uptime_s']:.3f} s"
    user_s, sys_s, real_s = (worst[c] / 1000 for c in ("user_ms", "sys_ms", "real_ms"))
    return make(
        "gc-sys-time-high",
        by_evidence(Severity.WARNING, len(judged), t.MIN_COLLECTIONS_FOR_SHARE),
        f"{len(over)} of {len(judged)} pauses spent more CPU time in the kernel than in the collector "
        f"(worst: sys {sys_s:.2f} s, user {user_s:.2f} s)",
        "A collection is CPU work in user mode: copying and marking objects. A pause whose system time "
        "exceeds its user time waited for the operating system instead: the heap's pages swapped out and "
        "read back, the kernel compacting memory for transparent huge pages on a page fault (THP defrag), "
        "pages of the heap touched for the first time, writes of the GC log to a slow or remote disk, or "
        "more GC threads than the CPUs the JVM may use. The pauses last longer than the collection needs, "
        "and sizing the heap or the generations does not shorten them.",
        evidence(
            over,
            [f"GC id {worst['gc_id']}{at}: user={user_s:.2f} sys={sys_s:.2f}, real={real_s:.2f} secs"],
            pauses_judged=len(judged),
            pauses_sys_over_user=len(over),
            share=share,
            worst_gc_id=worst["gc_id"],
            worst_user_ms=worst["user_ms"],
            worst_sys_ms=worst["sys_ms"],
            worst_real_ms=worst["real_ms"],
            judged_from_cpu_ms=t.SYS_TIME_JUDGED_CPU_MS,
        ),
        action="Check the machine while it collects: `vmstat 1` (si/so above 0: the JVM swaps; give it "
        "memory or a smaller heap, and -XX:+AlwaysPreTouch commits the heap at start instead of on first "
        "touch); `cat /sys/kernel/mm/transparent_hugepage/defrag` (`always` makes page faults compact "
        "memory: `madvise` or `defer` avoids the stall); the disk the GC log is written to (a local disk; "
        "JDK 17+ writes it off the pause with -Xlog:async); and -XX:ParallelGCThreads against the CPUs the "
        "JVM may use (its container's limit): fewer GC threads when they outnumber them.",
        effect=("pause_p99_ms", "decrease", "pauses with system time below user time"),
        confidence=Confidence.MEDIUM,
    )
