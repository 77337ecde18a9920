"""GC causes as the log prints them ("Allocation Failure", "Metadata GC Threshold", "System.gc()", ...)."""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from jvmlab.metrics.selection import pauses

NO_CAUSE = "(not printed)"


def count_by_cause(events: pl.DataFrame, kinds: Iterable[str]) -> dict[str, int]:
    """Pauses of the given kinds counted by cause, most frequent first (ties by name); a pause whose log line
    has no cause counts under NO_CAUSE."""
    rows = pauses(events, kinds).select(pl.col("cause").cast(pl.String).fill_null(NO_CAUSE))
    counts = rows.group_by("cause").len()
    ordered = sorted(counts.iter_rows(), key=lambda row: (-row[1], row[0]))
    return {cause: int(n) for cause, n in ordered}


def full_gc_causes(events: pl.DataFrame) -> dict[str, int]:
    """Full GCs (kind "full") by cause."""
    return count_by_cause(events, ["full"])
