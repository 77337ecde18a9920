"""Safepoints (rows with category "safepoint": JDK 9+ `safepoint` lines, JDK 8
-XX:+PrintGCApplicationStoppedTime). Kept apart from GC pauses and never added to them: a GC pause runs
inside a safepoint, so safepoint time includes GC pause time and adding the two would count it twice."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from jvmlab.metrics.native import NativeSummary
from jvmlab.metrics.windows import RunWindow


class SafepointStats(BaseModel):
    """Total time (`duration_ms`: reaching the safepoint + the operation) and time to safepoint (TTSP)."""

    model_config = ConfigDict(frozen=True)

    count: int
    total_ms: float
    max_ms: float | None
    ttsp_total_ms: float | None
    ttsp_max_ms: float | None
    time_percent: float | None


def safepoint_stats(native: NativeSummary, window: RunWindow) -> SafepointStats:
    """Count, total and max safepoint time; TTSP where the log prints it; time as % of the run window."""
    s = native["safepoints"]
    time, ttsp = s["time"], s["ttsp"]
    total = time["total"] if time["count"] else None
    duration = window.duration_s
    percent = None if duration is None or total is None else total / (duration * 1000.0) * 100.0
    return SafepointStats(
        count=s["count"],
        total_ms=total or 0.0,
        max_ms=time["max"],
        ttsp_total_ms=ttsp["total"] if ttsp["count"] else None,
        ttsp_max_ms=ttsp["max"],
        time_percent=percent,
    )
