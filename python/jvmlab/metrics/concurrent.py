"""Concurrent cycles: how long each concurrent collection took from start to end (wall time, the
application running alongside).

A GC id with rows of category "cycle" (G1 "Concurrent Mark Cycle", ZGC collections) contributes those rows'
`duration_ms`. A GC id with concurrent phases but no cycle row (CMS, Shenandoah, JDK 8 G1) contributes one
cycle whose duration is the span of its phases: max(start + duration) - min(start), pauses in between
included. Phases without a start time (logs without time stamps) give no span. `aborted` counts the G1
concurrent marks given up before their end (a full GC came first): rows of kind `concurrent-mark-abort`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from jvmlab.metrics.native import NativeSummary

FROM_CYCLE_ROWS = "cycle rows"
FROM_PHASES = "concurrent phases grouped by GC id"


class CycleStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    count: int
    total_ms: float | None
    mean_ms: float | None
    max_ms: float | None
    source: str | None
    aborted: int = 0


ABORT = "concurrent-mark-abort"


def cycle_stats(native: NativeSummary) -> CycleStats:
    parts = {FROM_CYCLE_ROWS: native["cycles"]["from_rows"], FROM_PHASES: native["cycles"]["from_phases"]}
    present = {name: part for name, part in parts.items() if part["count"]}
    count = sum(part["count"] for part in present.values())
    aborted = dict(native["kinds"]).get(ABORT, 0)
    if count == 0:
        return CycleStats(count=0, total_ms=None, mean_ms=None, max_ms=None, source=None, aborted=aborted)
    total = sum(part["total"] for part in present.values())
    return CycleStats(
        count=count,
        total_ms=total,
        mean_ms=total / count,
        max_ms=max(part["max"] for part in present.values()),
        source=" + ".join(present),
        aborted=aborted,
    )
