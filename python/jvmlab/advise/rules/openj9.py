"""Rules for OpenJ9 / IBM J9 logs (docs/advise.md#openj9): global collections that the policy
should have avoided, a concurrent mark that started too late, scavenges that percolated to a global
collection, and the GC policy for the goal. The flags are OpenJ9's own (`-Xgcpolicy`, `-Xconcurrentslack`,
`-Xgc:concurrentScavenge`...), never HotSpot's."""

from __future__ import annotations

import polars as pl

from jvmlab.advise import thresholds as t
from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import (
    Outcome,
    by_evidence,
    evidence,
    excerpt_counts,
    is_openj9,
    make,
    mib,
    not_enough,
    rule,
    size_flag,
)
from jvmlab.advise.rules.causes import EXPLICIT_CAUSES
from jvmlab.jdk.collectors import OPENJ9_CONCURRENT_MARK, OPENJ9_UNKNOWN_POLICY

ALLOCATION_FAILURE = "Allocation Failure"
PERCOLATE = "scavenge + global"  # the parser's phase of a scavenge that percolated to a global collection
# The share of the pause time spent in global collections above which they dominate.
GLOBAL_SHARE = 0.5
# Young pauses worth concurrent scavenge (a latency workload): the p99 of scavenges above this.
SCAVENGE_P99_MS = 50.0
# An allocation this large that fails is a large object (OpenJ9 puts large objects in the tenure area's
# large object area, the LOA, when the small object area has no room).
LARGE_REQUEST_BYTES = 1 << 20
LOA_FULL = 0.9  # the LOA this full when a collection starts: too small for the large objects
LOA_MAX_SHARE = 0.5  # -Xloamaximum's default: the LOA's largest share of the tenure area
# A heap this large with long global pauses: balanced's incremental collections fit it better.
BALANCED_HEAP_BYTES = 8 << 30


def global_pauses(f: Facts) -> pl.DataFrame:
    """Global collections not asked for by System.gc() or a tool."""
    full = f.rows(category="pause", kind="full")
    return full.filter(pl.col("cause").is_null() | ~pl.col("cause").is_in(list(EXPLICIT_CAUSES)))


def too_few_collections(rule_id: str, f: Facts) -> Outcome:
    """A share of an OpenJ9 log's collections (percolated scavenges, global collections on allocation
    failure, the global share of pause time) needs MIN_COLLECTIONS_FOR_SHARE collections in the log: a
    fragment of two collections carries no share."""
    return not_enough(rule_id, collections(f), t.MIN_COLLECTIONS_FOR_SHARE)


def collections(f: Facts) -> int:
    """Distinct collections (GC ids) of the event table."""
    return int(f.events.get_column("gc_id").drop_nulls().n_unique())


def bigger_heap(f: Facts, factor: float = 1.5) -> list[str]:
    heap = f.max_heap_bytes
    return [f"-Xmx{size_flag(heap * factor)}"] if heap else []


@rule("openj9-concurrent-kickoff-late", "OpenJ9: the tenure area filled before the concurrent mark finished")
def kickoff_late(f: Facts) -> Outcome:
    if not is_openj9(f):
        return None
    marks = f.rows(category="concurrent").filter(
        pl.col("kind").cast(pl.String).str.starts_with("concurrent-mark")
    )
    unknown_policy = f.collector == OPENJ9_UNKNOWN_POLICY
    concurrent = f.collector in OPENJ9_CONCURRENT_MARK or (unknown_policy and not marks.is_empty())
    failed = global_pauses(f).filter(pl.col("cause") == ALLOCATION_FAILURE)
    if not concurrent or failed.is_empty():
        return None
    if short := too_few_collections("openj9-concurrent-kickoff-late", f):
        return short
    aborted = marks.filter(pl.col("kind") == "concurrent-mark-abort")
    heap = f.max_heap_bytes
    slack = [f"-Xconcurrentslack{size_flag(heap * 0.1)}"] if heap else []
    return make(
        "openj9-concurrent-kickoff-late",
        by_evidence(
            Severity.WARNING if len(failed) >= t.REPEATED else Severity.INFO,
            collections(f),
            t.MIN_COLLECTIONS_FOR_SHARE,
        ),
        f"{len(failed)} global collections on allocation failure"
        + (f", {len(aborted)} concurrent marks aborted" if len(aborted) else ""),
        "With a concurrent policy a global collection should end a concurrent mark started in time; one "
        "forced by an allocation failure means the tenure area filled first, and the whole heap was marked "
        "with the application stopped.",
        evidence(
            failed,
            excerpt_counts(failed, "cause"),
            global_collections=len(failed),
            concurrent_marks=len(marks),
            aborted_marks=len(aborted),
            pause_total_ms=float(failed.get_column("pause_ms").sum()),
        ),
        add=slack,
        action="Start the concurrent mark earlier (-Xconcurrentslack keeps that much of the heap free), or "
        "let it mark faster (-Xconcurrentlevel above its default 8 taxes allocating threads more), or give "
        "the heap more room" + (f" (now {mib(heap)})." if heap else "."),
        effect=(
            "full_gc_count",
            "decrease",
            f"fewer than {len(failed)} global collections on allocation failure",
        ),
        confidence=Confidence.MEDIUM,
    )


@rule("openj9-scavenge-percolate", "OpenJ9: scavenges that percolated to a global collection")
def scavenge_percolate(f: Facts) -> Outcome:
    if not is_openj9(f):
        return None
    pauses = f.rows(category="pause")
    rows = pauses.filter(pl.col("phase").cast(pl.String).str.contains(PERCOLATE, literal=True))
    if rows.is_empty():
        return None
    if short := too_few_collections("openj9-scavenge-percolate", f):
        return short
    return make(
        "openj9-scavenge-percolate",
        by_evidence(
            Severity.WARNING if len(rows) >= t.REPEATED else Severity.INFO,
            collections(f),
            t.MIN_COLLECTIONS_FOR_SHARE,
        ),
        f"{len(rows)} scavenges percolated to global collections",
        "A scavenge that cannot finish (the tenure area has no room for what it promotes) is followed by a "
        "global collection in the same pause: a young pause grows into a full one.",
        evidence(
            rows,
            excerpt_counts(rows),
            percolated=len(rows),
            pause_max_ms=float(rows.get_column("pause_ms").max() or 0),  # type: ignore[arg-type]
        ),
        add=bigger_heap(f),
        action="Give the tenure area room for what scavenges promote: a larger heap, or a smaller nursery "
        "(-Xmn) if the live set is small.",
        effect=("full_gc_count", "decrease", "no percolated scavenges"),
        confidence=Confidence.HIGH,
    )


@rule("openj9-excessive-global-gc", "OpenJ9: global collections take most of the pause time")
def excessive_global(f: Facts) -> Outcome:
    if not is_openj9(f) or f.collector == "metronome":
        return None
    rows = global_pauses(f)
    pauses = f.rows(category="pause")
    total = float(pauses.get_column("pause_ms").sum()) if not pauses.is_empty() else 0.0
    spent = float(rows.get_column("pause_ms").sum()) if not rows.is_empty() else 0.0
    if len(rows) < t.REPEATED or total <= 0 or spent / total < GLOBAL_SHARE:
        return None
    if short := too_few_collections("openj9-excessive-global-gc", f):
        return short
    return make(
        "openj9-excessive-global-gc",
        by_evidence(Severity.WARNING, collections(f), t.MIN_COLLECTIONS_FOR_SHARE),
        f"{len(rows)} global collections, {spent / total:.0%} of the pause time",
        "Global collections stop the application for the whole heap; when they dominate, the heap is too "
        "small for the live set or the policy does not fit the allocation pattern.",
        evidence(
            rows,
            excerpt_counts(rows, "cause"),
            global_collections=len(rows),
            pause_ms=spent,
            share=spent / total,
        ),
        add=bigger_heap(f),
        action="A larger heap"
        + (f" than {mib(f.max_heap_bytes)}" if f.max_heap_bytes else "")
        + "; if the live set keeps growing, look for a leak (a heap dump: -Xdump:heap).",
        effect=("pause_total_ms", "decrease", "less pause time in global collections"),
        confidence=Confidence.MEDIUM,
    )


@rule("openj9-gcpolicy-for-goal", "OpenJ9: the GC policy does not fit the pause goal")
def policy_for_goal(f: Facts) -> Outcome:
    if not is_openj9(f):
        return None
    pauses = f.rows(category="pause")
    if pauses.is_empty():
        return None
    latency = f.workload_kind == "latency"
    full = global_pauses(f)
    longest_full = float(full.get_column("pause_ms").max() or 0) if not full.is_empty() else 0.0  # type: ignore[arg-type]
    scavenges = pauses.filter(pl.col("kind") == "young")
    p99_young = float(scavenges.get_column("pause_ms").quantile(0.99) or 0) if len(scavenges) else 0.0
    if f.collector == "optthruput" and (latency or longest_full >= t.LONG_PAUSE_WARNING_MS):
        add, why = (
            ["-Xgcpolicy:gencon"],
            (
                "optthruput stops the application for every collection of the whole heap; gencon collects "
                "the nursery alone and marks the tenure area concurrently"
            ),
        )
    elif (
        f.collector == "gencon"
        and (f.max_heap_bytes or 0) >= BALANCED_HEAP_BYTES
        and (longest_full >= t.LONG_PAUSE_WARNING_MS)
    ):
        add, why = (
            ["-Xgcpolicy:balanced"],
            (
                f"global collections of a {mib(f.max_heap_bytes)} heap stop for seconds; balanced collects "
                "regions incrementally and marks the heap in increments"
            ),
        )
    elif f.collector == "gencon" and latency and p99_young >= SCAVENGE_P99_MS:
        add, why = (
            ["-Xgc:concurrentScavenge"],
            (
                f"scavenges stop the application for {p99_young:.0f} ms (p99) under a latency goal; "
                "concurrent scavenge moves most of their copying out of the pause"
            ),
        )
    elif f.collector == "optavgpause" and (latency or longest_full >= t.LONG_PAUSE_WARNING_MS):
        add, why = (
            ["-Xgcpolicy:gencon"],
            (
                "optavgpause has no nursery: every collection is of the whole heap, however short-lived the "
                "garbage; gencon reclaims it in the nursery and marks the tenure area concurrently as well"
            ),
        )
    elif f.collector == "balanced" and not latency and 0 < (f.max_heap_bytes or 0) < BALANCED_HEAP_BYTES // 2:
        add, why = (
            ["-Xgcpolicy:gencon"],
            (
                f"balanced's regions and incremental marking pay off on large heaps; on a "
                f"{mib(f.max_heap_bytes)} heap with a throughput goal gencon's nursery does the same work "
                "with less bookkeeping"
            ),
        )
    elif f.collector == "metronome" and not latency:
        add, why = (
            ["-Xgcpolicy:gencon"],
            (
                "metronome gives up throughput for its fixed pause quanta (a real-time policy); with a "
                "throughput goal gencon collects the same garbage in fewer, shorter-lived pauses"
            ),
        )
    else:
        return None
    return make(
        "openj9-gcpolicy-for-goal",
        Severity.WARNING,
        f"-Xgcpolicy:{f.collector} for this goal: try {add[0]}",
        why + ".",
        evidence(
            pauses,
            excerpt_counts(pauses, "kind"),
            policy=f.collector,
            longest_global_ms=longest_full,
            scavenge_p99_ms=p99_young,
            latency_goal=latency,
        ),
        add=add,
        action="Run both policies as variants of one experiment (jvmlab advise --verify) and compare the "
        "pause percentiles and the throughput: a policy change moves both.",
        effect=("pause_p99_ms", "decrease", "shorter pauses under the new policy"),
        confidence=Confidence.LOW,
    )


@rule(
    "openj9-large-objects-loa", "OpenJ9: collections forced by large allocations, or a full large object area"
)
def large_objects(f: Facts) -> Outcome:
    if not is_openj9(f) or "request_bytes" not in f.events.columns:
        return None
    pauses = f.rows(category="pause")
    large = pauses.filter(pl.col("request_bytes") >= LARGE_REQUEST_BYTES)
    full_loa = pauses.filter(
        pl.col("loa_capacity_bytes").is_not_null()
        & (pl.col("loa_capacity_bytes") > 0)
        & (pl.col("loa_before_bytes") >= pl.col("loa_capacity_bytes") * LOA_FULL)
    )
    rows = pl.concat([large, full_loa]).unique(subset=["gc_id", "uptime_s"], maintain_order=True)
    if rows.is_empty():
        return None
    share = (
        rows.select((pl.col("loa_capacity_bytes") / pl.col("old_capacity_bytes")).drop_nulls().max()).item()
        if "old_capacity_bytes" in rows.columns
        else None
    )
    add = []
    if share is not None and share < LOA_MAX_SHARE:
        add = [f"-Xloainitial{min(LOA_MAX_SHARE, round(2 * share, 2)):g}"]
    biggest = int(large.get_column("request_bytes").max() or 0) if not large.is_empty() else None  # type: ignore[arg-type]
    return make(
        "openj9-large-objects-loa",
        Severity.WARNING if len(rows) >= t.REPEATED else Severity.INFO,
        f"{len(rows)} collections for large objects"
        + (f" (largest request {mib(biggest)})" if biggest else "")
        + (
            f", {len(full_loa)} with the large object area {LOA_FULL:.0%} full or more"
            if len(full_loa)
            else ""
        ),
        "Objects too large for the small object area go to the large object area of the tenure space; when "
        "an allocation that size fails, or that area is full, the JVM collects the whole heap to place one "
        "object.",
        evidence(
            rows,
            excerpt_counts(rows, "cause"),
            collections=len(rows),
            large_requests=len(large),
            loa_full=len(full_loa),
            largest_request_bytes=biggest,
            loa_share_of_tenure=share,
        ),
        add=add,
        action="Give the large object area a larger share of the tenure space (-Xloainitial, up to "
        "-Xloamaximum, default 0.5), or allocate fewer large arrays (reuse buffers, stream large payloads).",
        effect=("full_gc_count", "decrease", "fewer collections for large allocations"),
        confidence=Confidence.MEDIUM,
    )
