"""Rules for collections that failed their design and fell back to something worse: evacuation failures,
full collections of the concurrent collectors, concurrent mode failures, promotion failures, allocation
stalls, degenerated cycles (knowledge rules 4, 5, 10, 12, 13, 15, 16)."""

from __future__ import annotations

import polars as pl

from jvmlab.advise import thresholds as t
from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import (
    HOTSPOT,
    Outcome,
    evidence,
    excerpt_counts,
    make,
    mib,
    phase_contains,
    rule,
    size_flag,
    with_cause,
)
from jvmlab.advise.rules.causes import EXPLICIT_CAUSES, LAST_DITCH_CAUSES, METADATA_CAUSES
from jvmlab.jdk.collectors import collector

ZGC = collector("ZGC")

# Full collections another rule explains by their cause.
EXPLAINED_CAUSES = EXPLICIT_CAUSES + METADATA_CAUSES + LAST_DITCH_CAUSES + ("GCLocker Initiated GC",)
EVACUATION_FAILURE = ("to-space exhausted", "to-space overflow", "Evacuation Failure")


def unexplained_full(f: Facts) -> pl.DataFrame:
    full = f.rows(category="pause", kind="full")
    return full.filter(pl.col("cause").is_null() | ~pl.col("cause").is_in(list(EXPLAINED_CAUSES)))


def bigger_heap(f: Facts, factor: float = 1.5) -> list[str]:
    heap = f.max_heap_bytes
    return [f"-Xmx{size_flag(heap * factor)}"] if heap else []


def heap_note(f: Facts) -> str:
    live = f.summary.heap.live_set_estimate_bytes
    heap = f.max_heap_bytes
    return f" (live set about {mib(live)} of a {mib(heap)} heap)" if live and heap else ""


@rule("g1-evacuation-failure", "G1 ran out of space to copy surviving objects (to-space exhausted)")
def evacuation_failure(f: Facts) -> Outcome:
    if f.collector != "G1":
        return None
    rows = phase_contains(f, *EVACUATION_FAILURE)
    if rows.is_empty():
        return None
    full_after = unexplained_full(f)
    severity = Severity.CRITICAL if len(full_after) >= t.REPEATED else Severity.WARNING
    return make(
        "g1-evacuation-failure",
        severity,
        f"{len(rows)} evacuation failures"
        + (f", {len(full_after)} full collections" if len(full_after) else ""),
        "Surviving objects found no free region during a young or mixed collection: the pause grows by the "
        "work of undoing the copy, and a full collection often follows.",
        evidence(
            rows,
            excerpt_counts(rows),
            evacuation_failures=len(rows),
            full_collections=len(full_after),
            pause_max_ms=float(rows.get_column("pause_ms").max() or 0),  # type: ignore[arg-type]
        ),
        add=bigger_heap(f) + ["-XX:G1ReservePercent=15"],
        action="Give G1 more headroom: a larger heap"
        + heap_note(f)
        + " and a larger reserve of free regions; "
        "cut humongous allocations if those rules fire too.",
        effect=("pause_max_ms", "decrease", "no evacuation failures and the long pauses they cause"),
        confidence=Confidence.HIGH,
    )


@rule("g1-full-gc", "G1 fell back to full collections: mixed collections could not keep up")
def g1_full(f: Facts) -> Outcome:
    if f.collector != "G1":
        return None
    rows = unexplained_full(f)
    if rows.is_empty():
        return None
    severity = Severity.CRITICAL if len(rows) >= t.REPEATED else Severity.WARNING
    occupancy_high = heap_occupancy(f)
    add = bigger_heap(f) if occupancy_high is None or occupancy_high >= t.HEAP_OCCUPANCY_WARNING_SHARE else []
    if not add:
        add = ["-XX:InitiatingHeapOccupancyPercent=35"]
    return make(
        "g1-full-gc",
        severity,
        f"{len(rows)} G1 full collections",
        "A G1 full collection compacts the whole heap with the application stopped: the long pause G1 exists "
        "to avoid. It means the old generation filled before concurrent marking and mixed collections "
        "freed it.",
        evidence(
            rows,
            excerpt_counts(rows, "cause"),
            full_collections=len(rows),
            pause_total_ms=float(rows.get_column("pause_ms").sum()),
            heap_after_full_share_of_max=occupancy_high,
        ),
        add=add,
        action="More heap" + heap_note(f) + " when the live set fills it; else start marking earlier "
        "(a lower InitiatingHeapOccupancyPercent) and check humongous allocations.",
        effect=("full_gc_count", "decrease", f"the {len(rows)} full collections go away"),
        confidence=Confidence.HIGH,
    )


def heap_occupancy(f: Facts) -> float | None:
    """Highest heap use after full collections as a share of the maximum heap."""
    after = f.summary.heap.after_full_gc.max_bytes
    heap = f.max_heap_bytes
    return after / heap if after and heap else None


@rule("old-gen-full-gc", "Parallel/Serial full collections: the old generation fills up", family=HOTSPOT)
def old_gen_full(f: Facts) -> Outcome:
    if f.collector not in ("Parallel", "Serial"):
        return None
    rows = unexplained_full(f)
    if len(rows) < t.REPEATED:
        return None
    per_min = f.summary.rates["full"].mean_per_min if "full" in f.summary.rates else None
    return make(
        "old-gen-full-gc",
        Severity.WARNING,
        f"{len(rows)} full collections of the old generation",
        "On the throughput collectors a full collection is the only way to free the old generation; each "
        "stops the application for the whole heap. Repeated ones mean the old generation is too small for "
        "what gets promoted, or a leak.",
        evidence(
            rows,
            excerpt_counts(rows, "cause"),
            full_collections=len(rows),
            full_per_min=per_min,
            pause_total_ms=float(rows.get_column("pause_ms").sum()),
        ),
        add=bigger_heap(f),
        action="A larger heap" + heap_note(f) + "; if the live set keeps growing, it is a leak (see "
        "live-set-growth). For latency-sensitive services consider G1 (-XX:+UseG1GC).",
        effect=("full_gc_count", "decrease", "fewer full collections"),
        confidence=Confidence.MEDIUM,
    )


@rule("cms-concurrent-mode-failure", "CMS lost the race: the old generation filled during a concurrent cycle")
def concurrent_mode_failure(f: Facts) -> Outcome:
    # "concurrent mode interrupted" is a System.gc() arriving during a cycle: explicit-gc's finding, not a
    # lost race
    rows = failures = phase_contains(f, "concurrent mode failure")
    if rows.is_empty():
        return None
    severity = Severity.CRITICAL if len(failures) >= t.REPEATED else Severity.WARNING
    major = f.jdk_major or 8
    return make(
        "cms-concurrent-mode-failure",
        severity,
        f"{len(failures)} CMS concurrent mode failures",
        "The old generation filled before the concurrent cycle finished, so CMS stopped everything for a "
        "single-threaded full collection. CMS is deprecated in JDK 9 and removed in 14.",
        evidence(
            rows,
            excerpt_counts(rows),
            concurrent_mode_failures=len(failures),
            pause_total_ms=float(rows.get_column("pause_ms").sum()),
        ),
        add=["-XX:CMSInitiatingOccupancyFraction=60", "-XX:+UseCMSInitiatingOccupancyOnly"] + bigger_heap(f),
        action="Start CMS cycles earlier and give the old generation room; better, move to G1 "
        "(-XX:+UseG1GC" + (", the default since JDK 9" if major >= 9 else "") + ").",
        effect=("full_gc_count", "decrease", "no concurrent mode failures"),
        confidence=Confidence.HIGH,
    )


@rule("promotion-failed", "A young collection could not promote survivors into the old generation")
def promotion_failed(f: Facts) -> Outcome:
    rows = phase_contains(f, "promotion failed")
    if rows.is_empty():
        return None
    # The full collection each failure fell back to: the row of the next GC id (JDK 8 logs print it inside
    # the young record, JDK 9-13 before it; the parser makes it a row of its own either way).
    ids = rows.get_column("gc_id").drop_nulls() + 1
    fallback = f.rows(category="pause", kind="full").filter(pl.col("gc_id").is_in(ids.implode()))
    fallback_ms = float(fallback.get_column("pause_ms").sum()) if not fallback.is_empty() else 0.0
    longest = float(fallback.get_column("pause_ms").max() or 0.0) if not fallback.is_empty() else 0.0  # type: ignore[arg-type]
    return make(
        "promotion-failed",
        Severity.CRITICAL if longest >= t.LONG_PAUSE_CRITICAL_MS else Severity.WARNING,
        f"{len(rows)} promotion failures"
        + (
            f", {len(fallback)} ending in a full collection (longest {longest / 1000:.1f} s)"
            if len(fallback)
            else ""
        ),
        "The old generation had no room (or no contiguous room: fragmentation) for the objects a young "
        "collection promoted, so the young collection turned into a full, single-threaded one on CMS and "
        "Serial: the longest pauses of such logs.",
        evidence(
            rows,
            excerpt_counts(rows),
            promotion_failures=len(rows),
            young_pause_total_ms=float(rows.get_column("pause_ms").sum()),
            fallback_full_collections=len(fallback),
            fallback_pause_total_ms=fallback_ms,
            fallback_pause_max_ms=longest,
        ),
        add=bigger_heap(f),
        action="More old-generation headroom; let objects age in the survivor spaces (no low "
        "MaxTenuringThreshold); CMS users: move to G1.",
        effect=("full_gc_count", "decrease", "no promotion failures"),
        confidence=Confidence.HIGH,
    )


@rule("zgc-allocation-stall", "ZGC stalled application threads: the heap ran out during a collection")
def allocation_stall(f: Facts) -> Outcome:
    if f.collector != "ZGC":
        return None
    rows = with_cause(f, "Allocation Stall")
    if rows.is_empty():
        return None
    add = bigger_heap(f)
    generational = ZGC.opt_in("generational", f.jdk_major) if f.jdk_major is not None else None
    if generational is not None and f.flag_on(ZGC.mode_flag or "") is not True:
        add.append(generational)  # JDK 21-22, where it is opt-in: it keeps up with allocation better
    return make(
        "zgc-allocation-stall",
        Severity.WARNING,
        f"{len(rows)} ZGC collections for allocation stalls",
        "Threads that allocate wait until the collection frees memory: the latency ZGC was chosen to "
        "avoid. The heap has too little headroom for the allocation rate.",
        evidence(
            rows,
            excerpt_counts(rows),
            collections=len(rows),
            allocation_rate_mib_per_s=f.summary.allocation.allocation_rate_mib_per_s,
        ),
        add=add,
        action="ZGC needs headroom: a larger -Xmx"
        + heap_note(f)
        + ", or more -XX:ConcGCThreads"
        + ("; on JDK 21 the generational mode collects young objects cheaper" if f.jdk_major == 21 else "")
        + ".",
        effect=("latency_p99_ms", "decrease", "no allocation stalls"),
        confidence=Confidence.HIGH,
    )


@rule("shenandoah-degenerated-gc", "Shenandoah fell back to stop-the-world (degenerated or full) collections")
def degenerated(f: Facts) -> Outcome:
    if f.collector != "Shenandoah":
        return None
    degen = f.rows(category="pause", kind="degenerated")
    full = f.rows(category="pause", kind="full")
    rows = pl.concat([degen, full])
    if rows.is_empty():
        return None
    severity = Severity.CRITICAL if len(full) >= t.REPEATED else Severity.WARNING
    return make(
        "shenandoah-degenerated-gc",
        severity,
        f"{len(degen)} degenerated and {len(full)} full Shenandoah collections",
        "The concurrent cycle could not keep pace with allocation, so Shenandoah finished it with the "
        "application stopped (degenerated), or collected the whole heap stopped (full).",
        evidence(
            rows,
            excerpt_counts(rows),
            degenerated=len(degen),
            full_collections=len(full),
            pause_total_ms=float(rows.get_column("pause_ms").sum()),
        ),
        add=bigger_heap(f),
        action="More heap headroom" + heap_note(f) + ", more -XX:ConcGCThreads, or a lower allocation rate.",
        effect=("pause_max_ms", "decrease", "no degenerated cycles"),
        confidence=Confidence.HIGH,
    )
