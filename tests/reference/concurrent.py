"""Concurrent cycles: how long each concurrent collection took from start to end (wall time, the
application running alongside).

A GC id with rows of category "cycle" (G1 "Concurrent Mark Cycle", ZGC collections) contributes those rows'
`duration_ms`. A GC id with concurrent phases but no cycle row (CMS, Shenandoah, JDK 8 G1) contributes one
cycle whose duration is the span of its phases: max(start + duration) - min(start), pauses in between
included. Phases without a start time (logs without time stamps) give no span.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from jvmlab.metrics.concurrent import ABORT, FROM_CYCLE_ROWS, FROM_PHASES, CycleStats
from reference.selection import CONCURRENT, CYCLE, Events, EventSets


def phase_spans_ms(events: Events, exclude_ids: pl.Series) -> np.ndarray:
    """Per GC id without a cycle row, in order of first appearance: the span of its concurrent phases, in ms.
    (The order is fixed so that the sum of the durations rounds the same in every run.)"""
    sets = EventSets.of(events)
    phases = sets.rows(sets.of_category(CONCURRENT), "gc_id", "uptime_s", "duration_ms").filter(
        pl.col("gc_id").is_not_null()
        & ~pl.col("gc_id").is_in(exclude_ids.implode())
        & pl.col("uptime_s").is_not_null()
    )
    ends = pl.col("uptime_s") + pl.col("duration_ms").fill_null(0.0) / 1000.0
    spans = phases.group_by("gc_id", maintain_order=True).agg(
        ((ends.max() - pl.col("uptime_s").min()) * 1000.0).alias("span_ms")
    )
    return spans.get_column("span_ms").to_numpy().astype(np.float64)


def cycle_durations_ms(events: Events) -> tuple[np.ndarray, str | None]:
    """Durations of all concurrent cycles and a description of where they came from."""
    sets = EventSets.of(events)
    cycles = sets.rows(sets.of_category(CYCLE), "gc_id", "duration_ms")
    from_rows = cycles.get_column("duration_ms").drop_nulls().to_numpy().astype(np.float64)
    from_phases = phase_spans_ms(sets, cycles.get_column("gc_id").drop_nulls())
    sources = [s for s, d in ((FROM_CYCLE_ROWS, from_rows), (FROM_PHASES, from_phases)) if len(d)]
    return np.concatenate([from_rows, from_phases]), " + ".join(sources) or None


def cycle_stats(events: Events) -> CycleStats:
    durations, source = cycle_durations_ms(events)
    sets = EventSets.of(events)
    aborted = sets.count(sets.of_kind(ABORT))
    if len(durations) == 0:
        return CycleStats(count=0, total_ms=None, mean_ms=None, max_ms=None, source=None, aborted=aborted)
    return CycleStats(
        aborted=aborted,
        count=len(durations),
        total_ms=float(durations.sum()),
        mean_ms=float(durations.mean()),
        max_ms=float(durations.max()),
        source=source,
    )
