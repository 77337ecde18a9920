"""Per-minute rates: a mean over the run window and a peak over the busiest minute.

mean per minute = count / run window (s) x 60.
peak per minute = the largest number of events (or the largest sum of a weight, e.g. pause ms) that start
within any 60-second interval of the run. It is found by a sweep over windows [t_i, t_i + 60 s) anchored at
each event start t_i: sliding any window right until its left edge meets an event never loses an event, so
the busiest window of all is one of these. An event counts in the window where it starts. The peak needs a
run window of at least 60 s (a shorter run has no full minute to compare with) and is None otherwise.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from pydantic import BaseModel, ConfigDict

from jvmlab.metrics.selection import gc_first_starts, pauses, start_times_s
from jvmlab.metrics.windows import RunWindow

PEAK_WINDOW_S = 60.0
RATE_KINDS = ("young", "mixed", "full", "degenerated")


class GcRate(BaseModel):
    """How many events of one kind, and how often per minute."""

    model_config = ConfigDict(frozen=True)

    count: int
    mean_per_min: float | None
    peak_per_min: int | None


def sliding_max(
    times_s: np.ndarray, weights: np.ndarray | None = None, width_s: float = PEAK_WINDOW_S
) -> float:
    """Max over i of the sum of `weights` of events with start in [t_i, t_i + width_s); count when no weights.

    `times_s` must be sorted. Returns 0 for no events.
    """
    if len(times_s) == 0:
        return 0.0
    w = np.ones(len(times_s)) if weights is None else np.asarray(weights, dtype=np.float64)
    cumulative = np.concatenate(([0.0], np.cumsum(w)))
    ends = np.searchsorted(times_s, times_s + width_s, side="left")
    return float(np.max(cumulative[ends] - cumulative[np.arange(len(times_s))]))


def per_minute_mean(total: float, window: RunWindow) -> float | None:
    """total / run window x 60, or None without a run window."""
    duration = window.duration_s
    return None if duration is None else total / duration * 60.0


def has_full_minute(window: RunWindow) -> bool:
    duration = window.duration_s
    return duration is not None and duration >= PEAK_WINDOW_S


def rate_of(times_s: np.ndarray, count: int, window: RunWindow) -> GcRate:
    """Rate of `count` events whose time-stamped starts are `times_s` (sorted)."""
    peak = int(sliding_max(times_s)) if has_full_minute(window) else None
    return GcRate(count=count, mean_per_min=per_minute_mean(count, window), peak_per_min=peak)


def kind_rate(events: pl.DataFrame, kind: str, window: RunWindow) -> GcRate:
    """Rate of the pauses of one kind (`young`, `mixed`, `full`, `degenerated`)."""
    rows = pauses(events, [kind])
    return rate_of(start_times_s(rows), rows.height, window)


def all_gc_rate(events: pl.DataFrame, window: RunWindow) -> GcRate:
    """Rate of collections: distinct GC ids, each at the earliest start of its rows."""
    starts = gc_first_starts(events)
    times = np.sort(starts.get_column("start_s").drop_nulls().to_numpy().astype(np.float64))
    return rate_of(times, starts.height, window)


def gc_rates(events: pl.DataFrame, window: RunWindow) -> dict[str, GcRate]:
    """Rates for each pause kind of RATE_KINDS and for all collections (key "all")."""
    rates = {kind: kind_rate(events, kind, window) for kind in RATE_KINDS}
    rates["all"] = all_gc_rate(events, window)
    return rates


def gc_interval_mean_s(events: pl.DataFrame) -> float | None:
    """Mean time between consecutive collections: the mean of the gaps between the first start times of
    distinct GC ids, = (last start - first start) / (n - 1). None for fewer than two time-stamped GCs."""
    times = gc_first_starts(events).get_column("start_s").drop_nulls().to_numpy()
    if len(times) < 2:
        return None
    return float((times.max() - times.min()) / (len(times) - 1))
