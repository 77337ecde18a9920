"""GC causes as the log prints them ("Allocation Failure", "Metadata GC Threshold", "System.gc()", ...)."""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from reference.selection import Events, EventSets

NO_CAUSE = "(not printed)"


def count_by_cause(events: Events, kinds: Iterable[str]) -> dict[str, int]:
    """Pauses of the given kinds counted by cause, most frequent first (ties by name); a pause whose log line
    has no cause counts under NO_CAUSE."""
    sets = EventSets.of(events)
    counts = sets.rows(sets.pauses(kinds), "cause").group_by("cause").len()  # grouped as categories
    counts = counts.select(pl.col("cause").cast(pl.String).fill_null(NO_CAUSE), "len")
    ordered = sorted(counts.iter_rows(), key=lambda row: (-row[1], row[0]))
    return {cause: int(n) for cause, n in ordered}


def full_gc_causes(events: Events) -> dict[str, int]:
    """Full GCs (kind "full") by cause."""
    return count_by_cause(events, ["full"])
