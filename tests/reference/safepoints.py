"""Safepoints (rows with category "safepoint": JDK 9+ `safepoint` lines, JDK 8
-XX:+PrintGCApplicationStoppedTime). Kept apart from GC pauses and never added to them: a GC pause runs
inside a safepoint, so safepoint time includes GC pause time and adding the two would count it twice."""

from __future__ import annotations

import numpy as np

from jvmlab.metrics.safepoints import SafepointStats
from jvmlab.metrics.windows import RunWindow
from reference.selection import SAFEPOINT, Events, EventSets


def _sum_max(values: np.ndarray) -> tuple[float | None, float | None]:
    return (float(values.sum()), float(values.max())) if len(values) else (None, None)


def safepoint_stats(events: Events, window: RunWindow) -> SafepointStats:
    """Count, total and max safepoint time; TTSP where the log prints it; time as % of the run window."""
    sets = EventSets.of(events)
    rows = sets.rows(sets.of_category(SAFEPOINT), "duration_ms", "ttsp_ms")
    total, longest = _sum_max(rows.get_column("duration_ms").drop_nulls().to_numpy().astype(np.float64))
    ttsp_total, ttsp_max = _sum_max(rows.get_column("ttsp_ms").drop_nulls().to_numpy().astype(np.float64))
    duration = window.duration_s
    percent = None if duration is None or total is None else total / (duration * 1000.0) * 100.0
    return SafepointStats(
        count=rows.height,
        total_ms=total or 0.0,
        max_ms=longest,
        ttsp_total_ms=ttsp_total,
        ttsp_max_ms=ttsp_max,
        time_percent=percent,
    )
