"""Per-minute rates: a mean over the run window and a peak over the busiest minute.

mean per minute = count / run window (s) x 60.
peak per minute = the largest number of events (or the largest sum of a weight, e.g. pause ms) that start
within any 60-second interval of the run. It is found by a sweep over windows [t_i, t_i + 60 s) anchored at
each event start t_i: sliding any window right until its left edge meets an event never loses an event, so
the busiest window of all is one of these. An event counts in the window where it starts. The peak needs a
run window of at least 60 s (a shorter run has no full minute to compare with) and is None otherwise.

The pauses of each kind of RATE_KINDS also have their pause time per minute: mean = pause ms of the kind / run
window (s) x 60; peak = the most pause ms of the kind starting within any 60-second interval, the same sweep
with each pause weighed by its pause ms.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from jvmlab.metrics.rates import (
    CYCLE_RATE_KINDS,
    PEAK_WINDOW_S,
    RATE_KINDS,
    GcRate,
    has_full_minute,
    per_minute_mean,
)
from jvmlab.metrics.windows import RunWindow
from reference.selection import Events, EventSets, increasing, time_ordered

SWEEP_BLOCK = 1 << 12


def prefix_sums(weights: np.ndarray) -> np.ndarray:
    """[0, w0, w0 + w1, ...]: the sum of the first i weights at index i."""
    cumulative = np.empty(len(weights) + 1)
    cumulative[0] = 0.0
    np.cumsum(np.asarray(weights, dtype=np.float64), out=cumulative[1:])
    return cumulative


def sliding_max(
    times_s: np.ndarray, weights: np.ndarray | None = None, width_s: float = PEAK_WINDOW_S
) -> float:
    """Max over i of the sum of `weights` of events with start in [t_i, t_i + width_s); count when no weights.

    `times_s` must be sorted. Returns 0 for no events.
    """
    if len(times_s) == 0:
        return 0.0
    return sliding_max_of_sums(times_s, None if weights is None else prefix_sums(weights), width_s)


def sliding_max_of_sums(
    times_s: np.ndarray, cumulative: np.ndarray | None, width_s: float = PEAK_WINDOW_S
) -> float:
    """`sliding_max` with the weights given as their `prefix_sums` (None: count), for at least one event.

    Window [t_i, t_i + w) holds events i..e-1, e = the first index with t_e >= t_i + w (a binary search), and
    weighs cumulative[e] - cumulative[i]. Done in blocks of anchors: the temporaries stay small, and for w > 0
    the ends of a block's windows lie between its first anchor and the end of its last window, so each search
    runs over that short stretch only.
    """
    n = len(times_s)
    best = -np.inf
    for lo in range(0, n, SWEEP_BLOCK):
        hi = min(n, lo + SWEEP_BLOCK)
        first = lo if width_s > 0 else 0
        last = int(np.searchsorted(times_s, times_s[hi - 1] + width_s, side="left"))
        ends = first + np.searchsorted(times_s[first:last], times_s[lo:hi] + width_s, side="left")
        if cumulative is None:
            best = max(best, float(np.max(ends - np.arange(lo, hi))))
        else:
            best = max(best, float(np.max(cumulative[ends] - cumulative[lo:hi])))
    return best


def rate_of(
    times_s: np.ndarray, count: int, window: RunWindow, pause_ms: tuple[float, float] | None = None
) -> GcRate:
    """Rate of `count` events whose time-stamped starts are `times_s` (sorted); `pause_ms` = (total, peak
    per minute) of their pause time, for pauses."""
    full_minute = has_full_minute(window)
    total, peak = (None, None) if pause_ms is None else pause_ms
    return GcRate(
        count=count,
        mean_per_min=per_minute_mean(count, window),
        peak_per_min=int(sliding_max(times_s)) if full_minute else None,
        pause_total_ms=total,
        pause_ms_per_min_mean=None if total is None else per_minute_mean(total, window),
        pause_ms_per_min_peak=peak if full_minute else None,
    )


def pause_time(sets: EventSets, kind: str) -> tuple[float, float]:
    """(total, most within any 60 s interval) of the pause ms of the pauses of one kind that have it."""
    with_ms = sets.where(sets.pauses([kind]), pl.col("pause_ms").is_not_null())
    total = float(sets.values(with_ms, "pause_ms").sum())
    timed = sets.where(with_ms, pl.col("uptime_s").is_not_null())
    rows = time_ordered(sets.rows(timed, "uptime_s", "pause_ms"), stable=False)
    return total, sliding_max(rows.get_column("uptime_s").to_numpy(), rows.get_column("pause_ms").to_numpy())


def kind_rate(events: Events, kind: str, window: RunWindow) -> GcRate:
    """Rate of the pauses of one kind (`young`, `mixed`, `full`, `degenerated`), or of the cycle rows of one
    kind of CYCLE_RATE_KINDS (one row per collection)."""
    sets = EventSets.of(events)
    if kind in CYCLE_RATE_KINDS:
        rows = sets.where(sets.of_category("cycle"), pl.col("kind") == kind)
    else:
        rows = sets.pauses([kind])
    times = sets.values(sets.where(rows, pl.col("uptime_s").is_not_null()), "uptime_s")
    if not increasing(times, strictly=False):
        times.sort()
    pause_ms = None if kind in CYCLE_RATE_KINDS else pause_time(sets, kind)
    return rate_of(times, sets.count(rows), window, pause_ms)


def all_gc_rate(events: Events, window: RunWindow) -> GcRate:
    """Rate of collections: distinct GC ids, each at the earliest start of its rows."""
    starts = EventSets.of(events).gc_starts
    return rate_of(starts.sorted_times_s, starts.count, window)


def gc_rates(events: Events, window: RunWindow) -> dict[str, GcRate]:
    """Rates for each pause kind of RATE_KINDS, each cycle kind of CYCLE_RATE_KINDS, and all collections
    (key "all")."""
    sets = EventSets.of(events)
    rates = {kind: kind_rate(sets, kind, window) for kind in RATE_KINDS + CYCLE_RATE_KINDS}
    rates["all"] = all_gc_rate(sets, window)
    return rates


def gc_interval_mean_s(events: Events) -> float | None:
    """Mean time between consecutive collections: the mean of the gaps between the first start times of
    distinct GC ids, = (last start - first start) / (n - 1). None for fewer than two time-stamped GCs."""
    times = EventSets.of(events).gc_starts.sorted_times_s
    if len(times) < 2:
        return None
    return float((times[-1] - times[0]) / (len(times) - 1))
