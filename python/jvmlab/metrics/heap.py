"""Heap and metaspace occupancy: peaks, heap after full / mixed GCs and after concurrent cycles, and the
live-set estimate.

The live set (memory still reachable) is best seen right after a collection of the whole heap. The estimate
is the mean heap after, taken from the first of these sources that the log has:
  1. full GCs (kind "full"): the whole heap was collected; GCViewer's "Avg after full GC";
  2. G1 mixed GCs (kind "mixed"): old regions with the most garbage were collected; an upper bound;
  3. ends of concurrent cycles: ZGC collections (kinds "zgc-collection", "zgc-major"), Shenandoah
     "concurrent-cleanup", G1 "cleanup" pauses: include objects allocated during the cycle; an upper bound.
Young-only collections are never used: their heap after still holds old-generation garbage.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from jvmlab.metrics.native import NativeSummary

# In the order of the native summary's `heap_after` list (native/src/summary/mod.rs, HEAP_AFTER_GROUPS).
LIVE_SET_SOURCES = ("full GCs", "mixed GCs", "concurrent cycle ends")


class SizeStats(BaseModel):
    """Heap after a set of collections, in bytes; `last_bytes` is the last in time order."""

    model_config = ConfigDict(frozen=True)

    count: int
    mean_bytes: float | None
    max_bytes: int | None
    last_bytes: int | None


class HeapFigures(BaseModel):
    model_config = ConfigDict(frozen=True)

    heap_used_max_bytes: int | None
    heap_capacity_max_bytes: int | None
    after_full_gc: SizeStats
    after_mixed_gc: SizeStats
    after_concurrent_cycle: SizeStats
    live_set_estimate_bytes: float | None
    live_set_source: str | None
    metaspace_used_max_bytes: int | None
    metaspace_capacity_max_bytes: int | None


def size_stats(part: dict[str, Any]) -> SizeStats:
    count = part["count"]
    mean = part["sum"] / count if count else None
    return SizeStats(count=count, mean_bytes=mean, max_bytes=part["max"], last_bytes=part["last"])


def _larger(*values: int | None) -> int | None:
    present = [v for v in values if v is not None]
    return max(present) if present else None


def heap_figures(native: NativeSummary) -> HeapFigures:
    top = native["maxima"]
    stats = dict(zip(LIVE_SET_SOURCES, (size_stats(p) for p in native["heap_after"]), strict=True))
    source = next((name for name, s in stats.items() if s.count), None)
    return HeapFigures(
        heap_used_max_bytes=_larger(top["heap_before_bytes"], top["heap_after_bytes"]),
        heap_capacity_max_bytes=top["heap_capacity_bytes"],
        after_full_gc=stats["full GCs"],
        after_mixed_gc=stats["mixed GCs"],
        after_concurrent_cycle=stats["concurrent cycle ends"],
        live_set_estimate_bytes=None if source is None else stats[source].mean_bytes,
        live_set_source=source,
        metaspace_used_max_bytes=_larger(top["metaspace_before_bytes"], top["metaspace_after_bytes"]),
        metaspace_capacity_max_bytes=top["metaspace_capacity_bytes"],
    )
