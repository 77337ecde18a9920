"""Rules over safepoints: threads slow to reach them, and stops that are not garbage collection (knowledge
rules 20, 21)."""

from __future__ import annotations

import polars as pl

from jvmlab.advise import thresholds as t
from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import (
    HOTSPOT,
    NO_SAFEPOINTS,
    Outcome,
    evidence,
    excerpt_counts,
    make,
    not_checked,
    rule,
)

# VM operations of the collectors (-Xlog:safepoint names them): G1*, Parallel*, GenCollect*, CMS_*, Z*,
# Shenandoah*, CollectFor*, GC_HeapInspection.
GC_OPERATION = r"^(G1|Parallel|GenCollect|CMS|Z[A-Z]|Shenandoah|CollectFor|GC_|Epsilon)"


def safepoint_rows(f: Facts) -> pl.DataFrame:
    return f.rows(category="safepoint")


@rule(
    "long-time-to-safepoint",
    "Threads slow to reach a safepoint: every other thread waits stopped",
    family=HOTSPOT,
)
def time_to_safepoint(f: Facts) -> Outcome:
    rows = safepoint_rows(f)
    ttsp = rows.get_column("ttsp_ms").drop_nulls()
    if ttsp.is_empty():
        return not_checked("long-time-to-safepoint", NO_SAFEPOINTS)
    longest = float(ttsp.max())  # type: ignore[arg-type]
    if longest < t.TTSP_INFO_MS:
        return None
    slow = rows.filter(pl.col("ttsp_ms") >= t.TTSP_INFO_MS)
    severity = Severity.WARNING if longest >= t.TTSP_WARNING_MS else Severity.INFO
    loops_off = f.flag_on("UseCountedLoopSafepoints") is False
    add = ["-XX:+UseCountedLoopSafepoints"] if loops_off else []
    if not loops_off and (f.jdk_major or 0) >= 9:
        add = ["-XX:+UnlockDiagnosticVMOptions", "-XX:+SafepointTimeout", "-XX:SafepointTimeoutDelay=50"]
    return make(
        "long-time-to-safepoint",
        severity,
        f"{len(slow)} safepoints took {t.TTSP_INFO_MS:.0f} ms or more to reach (longest {longest:.0f} ms)",
        "A stop waits for the last thread to reach a safepoint; meanwhile the threads already stopped do "
        "nothing. Long counted loops without safepoint polls, large array copies and page faults (swap, "
        "transparent huge page compaction) cause it.",
        evidence(
            slow,
            excerpt_counts(slow),
            slow_safepoints=len(slow),
            ttsp_max_ms=longest,
            ttsp_total_ms=float(ttsp.sum()),
        ),
        add=add,
        remove=[
            o.raw for o in f.options or () if o.name == "UseCountedLoopSafepoints" and o.value == "false"
        ],
        action=(
            "Counted loops were compiled without safepoint polls: turn the polls back on."
            if loops_off
            else "SafepointTimeout names the thread that is late (in the JVM's output) so "
            "the loop or copy can be found; a CPU that is short (steal, throttling) also delays it."
        ),
        effect=("pause_max_ms", "decrease", "shorter stops"),
        confidence=Confidence.HIGH if len(slow) >= 3 else Confidence.MEDIUM,
    )


@rule(
    "non-gc-safepoints",
    "Stops for VM operations other than GC: thread dumps, deoptimization, biased locks",
    family=HOTSPOT,
)
def non_gc(f: Facts) -> Outcome:
    rows = safepoint_rows(f)
    if rows.is_empty():
        return not_checked("non-gc-safepoints", NO_SAFEPOINTS)
    named = rows.filter(pl.col("phase").is_not_null())
    if named.is_empty():
        return not_checked("non-gc-safepoints", "the safepoint lines do not name their VM operation (JDK 8)")
    other = named.filter(~pl.col("phase").cast(pl.String).str.contains(GC_OPERATION))
    duration = f.duration_s
    if other.is_empty() or not duration:
        return None
    stopped_ms = float(other.get_column("duration_ms").sum())
    percent = 100 * stopped_ms / 1000 / duration
    if percent < t.NON_GC_SAFEPOINT_PERCENT:
        return None
    by_op = other.group_by("phase").agg(pl.col("duration_ms").sum()).sort("duration_ms", descending=True)
    top = [f"{op}: {ms:.0f} ms" for op, ms in by_op.rows()[:5]]
    biased = any("Bias" in str(op) for op, _ in by_op.rows())
    return make(
        "non-gc-safepoints",
        Severity.WARNING if percent >= 5 else Severity.INFO,
        f"stops for non-GC VM operations take {percent:.1f} % of the run",
        "These pauses stop every thread like a GC pause does but show in no GC figure.",
        evidence(other, top, stopped_ms=stopped_ms, stopped_percent=percent, operations=len(other)),
        add=["-XX:-UseBiasedLocking"] if biased and (f.jdk_major or 0) <= 14 else [],
        action="Look at the operations listed: thread dumps and heap dumps by monitoring tools, "
        "deoptimization, class redefinition by agents, biased-lock revocation (JDK 14 and older).",
        effect=("pause_total_ms", "decrease", "fewer non-GC stops"),
        confidence=Confidence.HIGH,
    )
