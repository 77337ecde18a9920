"""Stop-the-world GC pauses (rows with category "pause"): count, total, mean, percentiles, max, and pause
time per minute. Safepoints are never counted here (see safepoints.py)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from jvmlab.metrics.pauses import NO_PAUSES, PauseStats, PauseTimePerMinute
from jvmlab.metrics.rates import has_full_minute, per_minute_mean
from jvmlab.metrics.windows import RunWindow
from reference.rates import sliding_max, sliding_max_of_sums
from reference.selection import Events, EventSets, increasing, time_ordered

PERCENTILES = (50, 90, 95, 99)


def percentile_nearest_rank(values: np.ndarray, p: float) -> float:
    """Nearest-rank percentile: the smallest value with at least p % of the values <= it.

    value = sorted[ceil(p / 100 x n) - 1] (Hyndman & Fan 1996, definition 1; numpy method "inverted_cdf").
    Every result is a pause that happened, and "p99 = X" reads "99 % of pauses took at most X".
    """
    if len(values) == 0:
        raise ValueError("percentile of no values")
    return nearest_rank(np.sort(values), p)


def nearest_rank(ordered: np.ndarray, p: float) -> float:
    """`percentile_nearest_rank` of values already sorted ascending (sort once, take every percentile)."""
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return float(ordered[rank - 1])


def pause_stats(events: Events) -> PauseStats:
    sets = EventSets.of(events)
    durations = sets.values(sets.where(sets.pauses(), pl.col("pause_ms").is_not_null()), "pause_ms")
    if len(durations) == 0:
        return NO_PAUSES
    total, mean = float(durations.sum()), float(durations.mean())  # numpy's pairwise sum, in table order
    durations.sort()  # in place: our own copy
    p = {q: nearest_rank(durations, q) for q in PERCENTILES}
    return PauseStats(
        count=len(durations),
        total_ms=total,
        mean_ms=mean,
        p50_ms=p[50],
        p90_ms=p[90],
        p95_ms=p[95],
        p99_ms=p[99],
        max_ms=float(durations[-1]),
    )


def pause_time_per_minute(events: Events, window: RunWindow) -> PauseTimePerMinute:
    """Pause ms per minute: mean = total pause ms / run window x 60; peak = the most pause ms starting in any
    60 s interval (rates.py), None for runs shorter than a minute."""
    sets = EventSets.of(events)
    total = polars_pause_total_ms(sets)
    peak = peak_pause_ms(sets) if has_full_minute(window) else None
    return PauseTimePerMinute(mean_ms=per_minute_mean(total, window), peak_ms=peak)


def polars_pause_total_ms(sets: EventSets) -> float:
    """pause_ms summed by polars (which rounds unlike numpy's pairwise sum of `pause_total_ms`), read from a
    numpy copy when no pause lacks it, so that polars allocates nothing."""
    pauses = sets.pauses()
    with_ms = sets.where(pauses, pl.col("pause_ms").is_not_null())
    if sets.count(with_ms) == sets.count(pauses):
        return float(pl.Series(sets.values(with_ms, "pause_ms")).sum())
    return float(sets.column(pauses, "pause_ms").sum() or 0.0)


def peak_pause_ms(sets: EventSets) -> float:
    """The most pause ms starting within any 60 s interval. When the pauses' starts increase strictly, table
    order is time order: the prefix sums are made in place, with no sorted copy of the pauses."""
    timed = sets.where(sets.pauses(), pl.col("uptime_s").is_not_null() & pl.col("pause_ms").is_not_null())
    times = sets.values(timed, "uptime_s")
    if len(times) == 0:
        return 0.0
    if increasing(times, strictly=True):
        cumulative = np.empty(len(times) + 1)
        cumulative[0] = 0.0
        sets.values(timed, "pause_ms", out=cumulative[1:])
        np.cumsum(cumulative[1:], out=cumulative[1:])
        return sliding_max_of_sums(times, cumulative)
    del times
    rows = time_ordered(sets.rows(timed, "uptime_s", "pause_ms"), stable=False)
    return sliding_max(rows.get_column("uptime_s").to_numpy(), rows.get_column("pause_ms").to_numpy())
