"""Row selections over the event table (docs/event-table.md) shared by the metrics."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import polars as pl

PAUSE = "pause"
CONCURRENT = "concurrent"
CYCLE = "cycle"
SAFEPOINT = "safepoint"


def of_category(events: pl.DataFrame, category: str) -> pl.DataFrame:
    return events.filter(pl.col("category") == category)


def pauses(events: pl.DataFrame, kinds: Iterable[str] | None = None) -> pl.DataFrame:
    """Stop-the-world GC pauses (category "pause"), optionally only of the given kinds."""
    rows = of_category(events, PAUSE)
    return rows if kinds is None else rows.filter(pl.col("kind").is_in(list(kinds)))


def gc_rows(events: pl.DataFrame) -> pl.DataFrame:
    """Every row that belongs to a collection: all but safepoints."""
    return events.filter(pl.col("category") != SAFEPOINT)


def start_times_s(rows: pl.DataFrame) -> np.ndarray:
    """Sorted start times (uptime seconds) of the rows that have one."""
    times = rows.get_column("uptime_s").drop_nulls().to_numpy()
    return np.sort(times.astype(np.float64))


def gc_first_starts(events: pl.DataFrame) -> pl.DataFrame:
    """One row per distinct GC id: `gc_id` and `start_s`, the earliest start of any of its rows, time-ordered.

    A GC id without any time-stamped row has `start_s` null and sorts last.
    """
    rows = gc_rows(events).filter(pl.col("gc_id").is_not_null())
    starts = rows.group_by("gc_id").agg(pl.col("uptime_s").min().alias("start_s"))
    return starts.sort(["start_s", "gc_id"], nulls_last=True)


def max_of(rows: pl.DataFrame, *columns: str) -> int | None:
    """The largest non-null value over the given integer columns, or None."""
    values = [rows.get_column(c).max() for c in columns]
    present = [int(v) for v in values if v is not None]  # type: ignore[arg-type]
    return max(present) if present else None
