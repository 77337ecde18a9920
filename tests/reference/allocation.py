"""Allocation rate and promotion rate, in MiB (2^20 bytes) per second.

Allocation: between two consecutive heap figures the application allocated at least
heap_before(n+1) - heap_after(n). allocation rate = sum over n of max(0, heap_before(n+1) - heap_after(n))
/ (t(last) - t(first)), over the time-ordered rows (pauses, cycles, concurrent phases) that print both heap
before and after. A negative difference (memory freed concurrently, e.g. a CMS sweep) counts as 0.
Memory allocated while a concurrent cycle runs (ZGC, Shenandoah) is not seen: there the rate is a lower bound.

Promotion: per young GC, promoted = old_after - old_before where the log prints the old generation, else
(young_before - young_after) - (heap_before - heap_after) (what left young but did not leave the heap, as
GCViewer computes it). Negative values (e.g. G1 reclaiming humongous regions) count as 0. promotion rate =
sum over young GCs 2..n / (t(n) - t(1)): each GC's promotion is credited to the interval that ends with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from jvmlab.metrics.allocation import MIB, PROMOTION_FROM_HEAP, PROMOTION_FROM_OLD, AllocationFigures
from reference.selection import Events, EventSets, increasing, time_ordered, without_nulls

HEAP_SAMPLE = ("uptime_s", "heap_before_bytes", "heap_after_bytes")


def complete_heap_samples(sets: EventSets) -> pl.Series | None:
    """Mask of the rows that belong to a collection and have a start time and both heap before and after."""
    return sets.where(sets.gc_rows, pl.all_horizontal(pl.col(c).is_not_null() for c in HEAP_SAMPLE))


def heap_samples(events: Events) -> pl.DataFrame:
    """Time-ordered rows with a start time and both heap before and after."""
    sets = EventSets.of(events)
    return time_ordered(sets.rows(complete_heap_samples(sets), *HEAP_SAMPLE), stable=True)


def allocated_bytes(before: np.ndarray, after: np.ndarray) -> int:
    """Sum over n of max(0, before[n + 1] - after[n])."""
    growth = np.subtract(before[1:], after[:-1], dtype=np.int64)
    return int(np.clip(growth, 0, None, out=growth).sum())


def sweep_in_table_order(sets: EventSets) -> tuple[int, int, float, float] | None:
    """(allocated bytes, samples, first and last start) over the heap samples in table order, a block at a
    time; None when a start is earlier than the one before (the samples must then be sorted first)."""
    allocated, count, first, last, last_after = 0, 0, 0.0, -np.inf, None
    for block in sets.blocks(complete_heap_samples(sets), *HEAP_SAMPLE):
        times, before, after = (block.get_column(c).to_numpy() for c in HEAP_SAMPLE)
        if len(times) == 0:
            continue
        if times[0] < last or not increasing(times, strictly=False):
            return None
        if last_after is not None:
            allocated += max(0, int(before[0]) - last_after)
        allocated += allocated_bytes(before, after)
        first = float(times[0]) if count == 0 else first
        last, last_after, count = float(times[-1]), int(after[-1]), count + len(times)
    return allocated, count, first, last


def allocation(events: Events) -> tuple[float | None, int | None, float | None]:
    """(rate MiB/s, allocated bytes, span s) from consecutive heap figures; Nones when not computable."""
    sets = EventSets.of(events)
    swept = sweep_in_table_order(sets)
    if swept is None:
        rows = heap_samples(sets)
        times, before, after = (rows.get_column(c).to_numpy() for c in HEAP_SAMPLE)
        ends = (float(times[0]), float(times[-1])) if len(times) else (0.0, 0.0)
        swept = (allocated_bytes(before, after), rows.height, *ends)
    allocated, count, first, last = swept
    if count < 2:
        return None, None, None
    span = float(last - first)
    if span <= 0:
        return None, allocated, None
    return allocated / MIB / span, allocated, span


@dataclass(frozen=True)
class PromotionSource:
    name: str
    promoted: pl.Expr  # bytes, clipped at 0
    columns: tuple[str, ...]  # what it reads


PROMOTION_SOURCES = (
    PromotionSource(
        PROMOTION_FROM_OLD,
        (pl.col("old_after_bytes") - pl.col("old_before_bytes")).clip(lower_bound=0),
        ("old_after_bytes", "old_before_bytes"),
    ),
    PromotionSource(
        PROMOTION_FROM_HEAP,
        (
            (pl.col("young_before_bytes") - pl.col("young_after_bytes"))
            - (pl.col("heap_before_bytes") - pl.col("heap_after_bytes"))
        ).clip(lower_bound=0),
        ("young_before_bytes", "young_after_bytes", "heap_before_bytes", "heap_after_bytes"),
    ),
)


@dataclass(frozen=True)
class YoungGcs:
    """The time-stamped young GCs that print the columns of `source`, and whether all time-stamped young GCs
    start in strictly increasing order (then table order is time order and no sort is needed)."""

    source: PromotionSource
    printed: pl.Series | None
    young: pl.Series | None
    in_order: bool


def young_gcs(sets: EventSets) -> YoungGcs | None:
    """The first source of PROMOTION_SOURCES that two young GCs print; None when there is none."""
    young = sets.where(sets.pauses(["young"]), pl.col("uptime_s").is_not_null())
    in_order = increasing(sets.values(young, "uptime_s"), strictly=True)
    for source in PROMOTION_SOURCES:
        printed = sets.where(young, pl.all_horizontal(pl.col(c).is_not_null() for c in source.columns))
        if sets.count(printed) >= 2:
            return YoungGcs(source, printed, young, in_order)
    return None


def promoted_per_young_gc(events: Events) -> tuple[pl.DataFrame, str | None]:
    """Young GCs with `uptime_s` and `promoted_bytes` (clipped at 0), time-ordered, and the source used."""
    sets = EventSets.of(events)
    gcs = young_gcs(sets)
    if gcs is None:
        return pl.DataFrame(schema={"uptime_s": pl.Float64, "promoted_bytes": pl.Int64}), None
    columns = (pl.col("uptime_s"), gcs.source.promoted.alias("promoted_bytes"))
    if gcs.in_order:
        return sets.derived(gcs.printed, *columns), gcs.source.name
    # Sorted as all young GCs (ties keep the order that sort gives them), then those without a value dropped.
    return without_nulls(sets.derived(gcs.young, *columns).sort("uptime_s")), gcs.source.name


def promotion_sweep(sets: EventSets, gcs: YoungGcs) -> tuple[int, float, float]:
    """(promoted bytes over young GCs 2..n, first and last start) of young GCs in table order, a block at a
    time."""
    total, first_promoted, first, last = 0, None, 0.0, 0.0
    for block in sets.blocks(gcs.printed, "uptime_s", *gcs.source.columns):
        if block.height == 0:
            continue
        promoted = block.select(gcs.source.promoted).to_series()
        total += int(promoted.sum())
        if first_promoted is None:
            first_promoted, first = int(promoted[0]), float(block.get_column("uptime_s")[0])
        last = float(block.get_column("uptime_s")[-1])
    return total - (first_promoted or 0), first, last


def promotion(events: Events) -> tuple[float | None, int | None, float | None, str | None]:
    """(rate MiB/s, promoted bytes, span s, source) over young GCs 2..n."""
    sets = EventSets.of(events)
    gcs = young_gcs(sets)
    if gcs is None:
        return None, None, None, None
    if gcs.in_order:
        promoted, first, last = promotion_sweep(sets, gcs)
    else:
        rows, _ = promoted_per_young_gc(sets)
        times = rows.get_column("uptime_s")
        promoted, first, last = int(rows.get_column("promoted_bytes").slice(1).sum()), times[0], times[-1]
    span = float(last - first)
    rate = promoted / MIB / span if span > 0 else None
    return rate, promoted, span, gcs.source.name


def allocation_figures(events: Events) -> AllocationFigures:
    alloc_rate, allocated, alloc_span = allocation(events)
    promo_rate, promoted, promo_span, source = promotion(events)
    return AllocationFigures(
        allocation_rate_mib_per_s=alloc_rate,
        allocated_bytes=allocated,
        allocation_span_s=alloc_span,
        promotion_rate_mib_per_s=promo_rate,
        promoted_bytes=promoted,
        promotion_span_s=promo_span,
        promotion_source=source,
    )
