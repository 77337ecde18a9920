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

import numpy as np

from jvmlab.metrics.heap import HeapFigures, SizeStats, _larger
from reference.selection import Events, EventSets

CYCLE_END_KINDS = ("zgc-collection", "zgc-major", "concurrent-cleanup", "cleanup")
LIVE_SET_SOURCES = (
    ("full GCs", ("full",)),
    ("mixed GCs", ("mixed",)),
    ("concurrent cycle ends", CYCLE_END_KINDS),
)


def heap_after(events: Events, kinds: tuple[str, ...]) -> SizeStats:
    """Heap after the rows of the given kinds (any category), in time order."""
    sets = EventSets.of(events)
    rows = sets.rows(sets.gc_rows_of_kinds(kinds), "uptime_s", "heap_after_bytes").drop_nulls(
        "heap_after_bytes"
    )
    values = (
        rows.sort("uptime_s", nulls_last=True, maintain_order=True).get_column("heap_after_bytes").to_numpy()
    )
    if len(values) == 0:
        return SizeStats(count=0, mean_bytes=None, max_bytes=None, last_bytes=None)
    values = values.astype(np.int64)
    return SizeStats(
        count=len(values),
        mean_bytes=float(values.mean()),
        max_bytes=int(values.max()),
        last_bytes=int(values[-1]),
    )


def live_set(stats: dict[str, SizeStats]) -> tuple[float | None, str | None]:
    """(estimate bytes, source) from the first source of LIVE_SET_SOURCES with data."""
    for source, _ in LIVE_SET_SOURCES:
        if stats[source].count:
            return stats[source].mean_bytes, source
    return None, None


MAXIMA = (
    "heap_before_bytes",
    "heap_after_bytes",
    "heap_capacity_bytes",
    "metaspace_before_bytes",
    "metaspace_after_bytes",
    "metaspace_capacity_bytes",
)


def heap_figures(events: Events) -> HeapFigures:
    sets = EventSets.of(events)
    top = sets.maxima(sets.gc_rows, MAXIMA)
    stats = {source: heap_after(sets, kinds) for source, kinds in LIVE_SET_SOURCES}
    estimate, source = live_set(stats)
    return HeapFigures(
        heap_used_max_bytes=_larger(top["heap_before_bytes"], top["heap_after_bytes"]),
        heap_capacity_max_bytes=top["heap_capacity_bytes"],
        after_full_gc=stats["full GCs"],
        after_mixed_gc=stats["mixed GCs"],
        after_concurrent_cycle=stats["concurrent cycle ends"],
        live_set_estimate_bytes=estimate,
        live_set_source=source,
        metaspace_used_max_bytes=_larger(top["metaspace_before_bytes"], top["metaspace_after_bytes"]),
        metaspace_capacity_max_bytes=top["metaspace_capacity_bytes"],
    )
