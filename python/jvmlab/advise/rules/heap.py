"""Rules over heap sizes: occupancy after collections, live-set growth, the young generation's size and what
it promotes, heap resizing (knowledge rules 17, 18, 19)."""

from __future__ import annotations

import polars as pl

from jvmlab.advise import thresholds as t
from jvmlab.advise.facts import Facts
from jvmlab.advise.finding import Confidence, Severity
from jvmlab.advise.rules.base import (
    NO_HEAP_SIZES,
    Outcome,
    by_evidence,
    evidence,
    interval_text,
    make,
    mib,
    not_checked,
    not_enough,
    rule,
    size_flag,
)

OLD_KINDS = ("full", "mixed", "remark", "cleanup")


def old_collections(f: Facts) -> pl.DataFrame:
    """Collections after which the heap holds about the live set: full ones, or G1's mixed/remark; for ZGC
    and Shenandoah their cycles (heap after)."""

    def select() -> pl.DataFrame:
        kinds = [*OLD_KINDS, "zgc-collection", "zgc-major"]
        rows = f.events.filter(pl.col("kind").is_in(kinds) & pl.col("heap_after_bytes").is_not_null())
        full = rows.filter(pl.col("kind") == "full")
        return full if len(full) >= t.MIN_OLD_COLLECTIONS_FOR_OCCUPANCY else rows

    return f.memo("old-collections", select)


@rule("heap-occupancy-high", "The heap stays nearly full after collections that free the old generation")
def occupancy(f: Facts) -> Outcome:
    heap = f.max_heap_bytes
    old = old_collections(f)
    if heap is None or f.events.get_column("heap_after_bytes").null_count() == len(f.events):
        return not_checked("heap-occupancy-high", NO_HEAP_SIZES)
    short = not_enough(
        "heap-occupancy-high", len(old), t.MIN_OLD_COLLECTIONS_FOR_OCCUPANCY, "old collections"
    )
    if short:
        return short
    shares = old.get_column("heap_after_bytes") / heap
    high = old.filter(shares >= t.HEAP_OCCUPANCY_WARNING_SHARE)
    if len(high) < t.MIN_OLD_COLLECTIONS_FOR_OCCUPANCY:
        return None
    median = float(shares.median())  # type: ignore[arg-type]
    if median < t.HEAP_OCCUPANCY_WARNING_SHARE:
        return None
    live = float(old.get_column("heap_after_bytes").median())  # type: ignore[arg-type]
    severity = Severity.CRITICAL if median >= t.HEAP_OCCUPANCY_CRITICAL_SHARE else Severity.WARNING
    return make(
        "heap-occupancy-high",
        by_evidence(severity, len(old), t.MIN_OLD_COLLECTIONS_FOR_OCCUPANCY),
        f"after old collections the heap is {median:.0%} full (median of {len(old)})",
        "What survives a full collection is the live set; with little room above it, collections come back "
        "to back, each frees little, and an OutOfMemoryError is near.",
        evidence(
            high,
            [],
            median_share_after_old_gc=median,
            live_set_bytes=live,
            max_heap_bytes=heap,
            old_collections=len(old),
        ),
        add=[f"-Xmx{size_flag(live * 3)}"],
        action=f"Size the heap at about three times the live set ({mib(live)}), the usual rule for "
        "collectors to work efficiently; if the live set should not be this large, find what holds it "
        "(heap dump).",
        effect=("gc_overhead_percent", "decrease", "collections free more and come less often"),
        confidence=Confidence.MEDIUM,
    )


@rule("live-set-growth", "The live set grows through the run (a leak, or a cache without bound)")
def live_set_growth(f: Facts) -> Outcome:
    heap = f.max_heap_bytes
    old = old_collections(f).filter(pl.col("uptime_s").is_not_null())
    if heap is None:
        return not_checked("live-set-growth", NO_HEAP_SIZES)
    short = not_enough("live-set-growth", len(old), t.MIN_OLD_COLLECTIONS_FOR_TREND, "old collections")
    if short:
        return short
    third = max(len(old) // 3, 1)
    after = old.get_column("heap_after_bytes")
    first, last = float(after.head(third).median()), float(after.tail(third).median())  # type: ignore[arg-type]
    growth = (last - first) / heap
    if growth < t.LIVE_SET_GROWTH_SHARE:
        return None
    times = old.get_column("uptime_s")
    span_s = float(times.max()) - float(times.min())  # type: ignore[arg-type]
    rate = (last - first) / span_s * 60 if span_s > 0 else None
    return make(
        "live-set-growth",
        by_evidence(Severity.WARNING, len(old), t.MIN_OLD_COLLECTIONS_FOR_TREND),
        f"the live set grew from {mib(first)} to {mib(last)} ({growth:.0%} of the heap)",
        "Memory that survives full collections and keeps growing runs out eventually: more and longer "
        "collections first, then OutOfMemoryError. A bigger heap only delays it.",
        evidence(
            old,
            [],
            live_set_first_bytes=first,
            live_set_last_bytes=last,
            growth_share_of_heap=growth,
            growth_bytes_per_min=rate,
            old_collections=len(old),
        ),
        action="Take two heap dumps some minutes apart and compare the dominators (or a JFR recording with "
        "OldObjectSample and `jfr view memory-leaks-by-class`); if it is a cache, bound it.",
        confidence=Confidence.MEDIUM if len(old) >= 2 * t.MIN_OLD_COLLECTIONS_FOR_TREND else Confidence.LOW,
    )


def young_capacity(f: Facts) -> float | None:
    caps = f.events.get_column("young_capacity_bytes").drop_nulls()
    return float(caps.median()) if not caps.is_empty() else None  # type: ignore[arg-type]


def larger_young(f: Facts, current: float | None) -> tuple[list[str], list[str], str]:
    """(add, remove, action) to give the young generation more room on this collector."""
    pinned = [o.raw for o in f.options or () if o.name in ("NewSize", "MaxNewSize", "NewRatio")]
    heap = f.max_heap_bytes
    if f.collector == "G1":
        action = "G1 sizes the young generation itself: " + (
            "remove the pinned size so it can" if pinned else "give it a larger heap to size into"
        )
        return ([] if pinned else ([f"-Xmx{size_flag(heap * 1.5)}"] if heap else [])), pinned, action
    if current is None or heap is None:
        return [], [], "Enlarge the young generation (-Xmn) so objects die young."
    target = min(current * 4, heap / 2)
    return (
        [f"-Xmn{size_flag(target)}"],
        pinned,
        (
            f"The young generation is {mib(current)} of a {mib(heap)} heap: a larger one collects less often "
            "and lets medium-lived objects die before promotion."
        ),
    )


@rule("young-gc-frequent", "Young collections every second or two: a small young generation")
def young_frequent(f: Facts) -> Outcome:
    rate = f.summary.rates.get("young")
    if rate is None or rate.mean_per_min is None:
        return None
    short = not_enough("young-gc-frequent", rate.count, t.MIN_COLLECTIONS_FOR_SHARE, "young collections")
    if short:
        return short
    young_ms = rate.pause_total_ms or 0.0
    duration = f.duration_s or 0.0
    overhead = 100 * young_ms / 1000 / duration if duration else 0.0
    if rate.mean_per_min < t.YOUNG_GC_RATE_INFO_PER_MIN or overhead < t.YOUNG_GC_OVERHEAD_FLOOR_PERCENT:
        return None
    severity = Severity.WARNING if rate.mean_per_min >= t.YOUNG_GC_RATE_WARNING_PER_MIN else Severity.INFO
    severity = by_evidence(severity, rate.count, t.MIN_COLLECTIONS_FOR_SHARE)
    current = young_capacity(f)
    add, remove, action = larger_young(f, current)
    young = f.rows(category="pause", kind="young")
    return make(
        "young-gc-frequent",
        severity,
        f"{rate.mean_per_min:.0f} young collections a minute ({interval_text(rate.mean_per_min)})",
        "Each young collection is a pause and copies every live young object; when they come this often "
        "objects have no time to die, so more get copied and promoted.",
        evidence(
            young,
            [],
            young_gcs=rate.count,
            young_per_min=rate.mean_per_min,
            young_pause_percent=overhead,
            young_capacity_bytes=current,
            allocation_rate_mib_per_s=f.summary.allocation.allocation_rate_mib_per_s,
        ),
        add=add,
        remove=remove,
        action=action,
        effect=("young_gc_rate_per_min", "decrease", "fewer young collections"),
        confidence=Confidence.HIGH,
    )


@rule("premature-promotion", "Objects promoted to the old generation before they die")
def premature_promotion(f: Facts) -> Outcome:
    alloc = f.summary.allocation
    young = f.rows(category="pause", kind="young")
    if alloc.promotion_rate_mib_per_s is None or not alloc.allocation_rate_mib_per_s:
        return not_checked("premature-promotion", NO_HEAP_SIZES + " by generation")
    short = not_enough("premature-promotion", len(young), t.MIN_YOUNG_GCS_FOR_PROMOTION, "young collections")
    if short:
        return short
    share = alloc.promotion_rate_mib_per_s / alloc.allocation_rate_mib_per_s
    if share > 1:  # more promoted than allocated: the young figures do not add up (full GCs, CMS sweeps)
        return not_checked(
            "premature-promotion",
            f"the log's figures say {share:.0%} of what is allocated is promoted: no measurement to act on",
        )
    current = young_capacity(f)
    heap = f.max_heap_bytes
    small = current is not None and heap is not None and current < heap * t.SMALL_YOUNG_SHARE_OF_HEAP
    threshold = f.flag("MaxTenuringThreshold")
    low_threshold = (
        threshold is not None and f.given("MaxTenuringThreshold") is not None and int(threshold) < 15
    )
    if share < t.PREMATURE_PROMOTION_SHARE or not (small or low_threshold):
        return None
    add, remove, action = larger_young(f, current)
    if low_threshold:
        remove += [o.raw for o in f.options or () if o.name == "MaxTenuringThreshold"]
    return make(
        "premature-promotion",
        by_evidence(Severity.WARNING, len(young), t.MIN_YOUNG_GCS_FOR_PROMOTION),
        f"{share:.0%} of what is allocated is promoted to the old generation",
        "Objects that live a little longer than a young collection cycle get copied into the old "
        "generation, where only old or full collections free them: more old collections, longer ones.",
        evidence(
            young,
            [],
            promotion_rate_mib_per_s=alloc.promotion_rate_mib_per_s,
            allocation_rate_mib_per_s=alloc.allocation_rate_mib_per_s,
            promoted_share=share,
            young_capacity_bytes=current,
            max_heap_bytes=heap,
            max_tenuring_threshold=threshold,
        ),
        add=add,
        remove=remove,
        action=action,
        effect=("promotion_rate_mib_per_s", "decrease", "less promoted, fewer old collections"),
        confidence=Confidence.MEDIUM,
    )


@rule("heap-resizing", "The heap's capacity changes often: -Xms below -Xmx")
def heap_resizing(f: Facts) -> Outcome:
    caps = f.rows(category="pause").get_column("heap_capacity_bytes").drop_nulls()
    if caps.is_empty():
        return None
    changes = int((caps.diff().drop_nulls() != 0).sum())
    initial, maximum = f.flag_bytes("InitialHeapSize"), f.flag_bytes("MaxHeapSize")
    fixed = initial is not None and maximum is not None and initial == maximum
    if changes < 10 or fixed or f.collector in ("ZGC", "Shenandoah"):
        return None
    top = int(caps.max())  # type: ignore[arg-type]
    return make(
        "heap-resizing",
        Severity.INFO,
        f"the heap's capacity changed {changes} times",
        "Growing and shrinking the heap costs collections (full ones on Serial/Parallel) and makes pause and "
        "footprint figures move with it. Servers usually fix the heap's size.",
        evidence(
            None,
            [],
            capacity_changes=changes,
            capacity_min_bytes=int(caps.min()),  # type: ignore[arg-type]
            capacity_max_bytes=top,
        ),
        add=[f"-Xms{size_flag(maximum or top)}"] + ([] if maximum else [f"-Xmx{size_flag(top)}"]),
        action="Set -Xms equal to -Xmx so the heap is committed once.",
        effect=("gc_count", "decrease", "no resizing collections"),
        confidence=Confidence.LOW,
    )
