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

import numpy as np
import polars as pl
from pydantic import BaseModel, ConfigDict

from jvmlab.metrics.selection import gc_rows, pauses

MIB = 1024 * 1024
PROMOTION_FROM_OLD = "old generation after - before"
PROMOTION_FROM_HEAP = "young freed - heap freed"


class AllocationFigures(BaseModel):
    model_config = ConfigDict(frozen=True)

    allocation_rate_mib_per_s: float | None
    allocated_bytes: int | None
    allocation_span_s: float | None
    promotion_rate_mib_per_s: float | None
    promoted_bytes: int | None
    promotion_span_s: float | None
    promotion_source: str | None


def heap_samples(events: pl.DataFrame) -> pl.DataFrame:
    """Time-ordered rows with a start time and both heap before and after."""
    rows = gc_rows(events).filter(
        pl.col("uptime_s").is_not_null()
        & pl.col("heap_before_bytes").is_not_null()
        & pl.col("heap_after_bytes").is_not_null()
    )
    return rows.sort("uptime_s", maintain_order=True)


def allocation(events: pl.DataFrame) -> tuple[float | None, int | None, float | None]:
    """(rate MiB/s, allocated bytes, span s) from consecutive heap figures; Nones when not computable."""
    rows = heap_samples(events)
    if rows.height < 2:
        return None, None, None
    before = rows.get_column("heap_before_bytes").to_numpy()[1:].astype(np.int64)
    after = rows.get_column("heap_after_bytes").to_numpy()[:-1].astype(np.int64)
    allocated = int(np.clip(before - after, 0, None).sum())
    times = rows.get_column("uptime_s").to_numpy()
    span = float(times[-1] - times[0])
    if span <= 0:
        return None, allocated, None
    return allocated / MIB / span, allocated, span


def promoted_per_young_gc(events: pl.DataFrame) -> tuple[pl.DataFrame, str | None]:
    """Young GCs with `uptime_s` and `promoted_bytes` (clipped at 0), time-ordered, and the source used."""
    young = pauses(events, ["young"]).filter(pl.col("uptime_s").is_not_null()).sort("uptime_s")
    from_old = pl.col("old_after_bytes") - pl.col("old_before_bytes")
    freed_young = pl.col("young_before_bytes") - pl.col("young_after_bytes")
    from_heap = freed_young - (pl.col("heap_before_bytes") - pl.col("heap_after_bytes"))
    for source, expr in ((PROMOTION_FROM_OLD, from_old), (PROMOTION_FROM_HEAP, from_heap)):
        rows = young.select("uptime_s", expr.clip(lower_bound=0).alias("promoted_bytes")).drop_nulls()
        if rows.height >= 2:
            return rows, source
    return young.select("uptime_s", pl.lit(0, pl.Int64).alias("promoted_bytes")).clear(), None


def promotion(events: pl.DataFrame) -> tuple[float | None, int | None, float | None, str | None]:
    """(rate MiB/s, promoted bytes, span s, source) over young GCs 2..n."""
    rows, source = promoted_per_young_gc(events)
    if source is None:
        return None, None, None, None
    times = rows.get_column("uptime_s").to_numpy()
    promoted = int(rows.get_column("promoted_bytes").to_numpy()[1:].sum())
    span = float(times[-1] - times[0])
    rate = promoted / MIB / span if span > 0 else None
    return rate, promoted, span, source


def allocation_figures(events: pl.DataFrame) -> AllocationFigures:
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
