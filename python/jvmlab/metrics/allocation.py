"""Allocation rate and promotion rate, in MiB (2^20 bytes) per second (docs/metrics.md).

Allocation: between two consecutive heap figures the application allocated at least
heap_before(n+1) - heap_after(n). allocation rate = sum over n of max(0, heap_before(n+1) - heap_after(n))
/ (t(last) - t(first)), over the time-ordered rows (pauses, cycles, concurrent phases) that print both heap
before and after. A negative difference (memory freed concurrently, e.g. a CMS sweep) counts as 0.
Memory allocated while a concurrent cycle runs (ZGC, Shenandoah) is not seen: there the rate is a lower bound.

Promotion: per young GC, promoted = old_after - old_before where the log prints the old generation, else
(young_before - young_after) - (heap_before - heap_after) (what left young but did not leave the heap, as
GCViewer computes it). Negative values (e.g. G1 reclaiming humongous regions) count as 0. promotion rate =
sum over young GCs 2..n / (t(n) - t(1)): each GC's promotion is credited to the interval that ends with it.

When the JVM's clock restarts within the log (a restarted JVM appending to the same file), pairs and spans
are taken within each run, never across.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from jvmlab.metrics.native import NativeSummary

MIB = 1024 * 1024
PROMOTION_FROM_OLD = "old generation after - before"
PROMOTION_FROM_HEAP = "young freed - heap freed"
# In the order of the native summary's `promotion` list: the first that two young GCs print is used.
PROMOTION_SOURCES = (PROMOTION_FROM_OLD, PROMOTION_FROM_HEAP)


class AllocationFigures(BaseModel):
    model_config = ConfigDict(frozen=True)

    allocation_rate_mib_per_s: float | None
    allocated_bytes: int | None
    allocation_span_s: float | None
    promotion_rate_mib_per_s: float | None
    promoted_bytes: int | None
    promotion_span_s: float | None
    promotion_source: str | None


def allocation(native: NativeSummary) -> tuple[float | None, int | None, float | None]:
    """(rate MiB/s, allocated bytes, span s) from consecutive heap figures; Nones when not computable."""
    a = native["allocation"]
    if a["samples"] < 2:
        return None, None, None
    span = float(a["span_s"])
    if span <= 0:
        return None, a["allocated_bytes"], None
    return a["allocated_bytes"] / MIB / span, a["allocated_bytes"], span


def promotion(native: NativeSummary) -> tuple[float | None, int | None, float | None, str | None]:
    """(rate MiB/s, promoted bytes, span s, source) over young GCs 2..n."""
    for source, p in zip(PROMOTION_SOURCES, native["promotion"], strict=True):
        if p["young_gcs"] >= 2:
            span = float(p["span_s"])
            rate = p["promoted_bytes"] / MIB / span if span > 0 else None
            return rate, p["promoted_bytes"], span, source
    return None, None, None, None


def allocation_figures(native: NativeSummary) -> AllocationFigures:
    alloc_rate, allocated, alloc_span = allocation(native)
    promo_rate, promoted, promo_span, source = promotion(native)
    return AllocationFigures(
        allocation_rate_mib_per_s=alloc_rate,
        allocated_bytes=allocated,
        allocation_span_s=alloc_span,
        promotion_rate_mib_per_s=promo_rate,
        promoted_bytes=promoted,
        promotion_span_s=promo_span,
        promotion_source=source,
    )
