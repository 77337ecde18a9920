"""Stop-the-world GC pauses (rows with category "pause"): count, total, mean, percentiles, max, and pause
time per minute. Safepoints are never counted here (see safepoints.py)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from pydantic import BaseModel, ConfigDict

from jvmlab.metrics.rates import has_full_minute, per_minute_mean, sliding_max
from jvmlab.metrics.selection import pauses
from jvmlab.metrics.windows import RunWindow

PERCENTILE_METHOD = "nearest-rank"
PERCENTILES = (50, 90, 95, 99)


class PauseStats(BaseModel):
    """Distribution of pause durations in milliseconds; None where there are no pauses."""

    model_config = ConfigDict(frozen=True)

    count: int
    total_ms: float
    mean_ms: float | None
    p50_ms: float | None
    p90_ms: float | None
    p95_ms: float | None
    p99_ms: float | None
    max_ms: float | None


class PauseTimePerMinute(BaseModel):
    model_config = ConfigDict(frozen=True)

    mean_ms: float | None
    peak_ms: float | None


def percentile_nearest_rank(values: np.ndarray, p: float) -> float:
    """Nearest-rank percentile: the smallest value with at least p % of the values <= it.

    value = sorted[ceil(p / 100 x n) - 1] (Hyndman & Fan 1996, definition 1; numpy method "inverted_cdf").
    Every result is a pause that happened, and "p99 = X" reads "99 % of pauses took at most X".
    """
    if len(values) == 0:
        raise ValueError("percentile of no values")
    ordered = np.sort(values)
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return float(ordered[rank - 1])


def pause_stats(events: pl.DataFrame) -> PauseStats:
    durations = pauses(events).get_column("pause_ms").drop_nulls().to_numpy().astype(np.float64)
    if len(durations) == 0:
        return PauseStats(
            count=0,
            total_ms=0.0,
            mean_ms=None,
            p50_ms=None,
            p90_ms=None,
            p95_ms=None,
            p99_ms=None,
            max_ms=None,
        )
    p = {q: percentile_nearest_rank(durations, q) for q in PERCENTILES}
    return PauseStats(
        count=len(durations),
        total_ms=float(durations.sum()),
        mean_ms=float(durations.mean()),
        p50_ms=p[50],
        p90_ms=p[90],
        p95_ms=p[95],
        p99_ms=p[99],
        max_ms=float(durations.max()),
    )


def pause_time_per_minute(events: pl.DataFrame, window: RunWindow) -> PauseTimePerMinute:
    """Pause ms per minute: mean = total pause ms / run window x 60; peak = the most pause ms starting in any
    60 s interval (rates.py), None for runs shorter than a minute."""
    rows = pauses(events).filter(pl.col("uptime_s").is_not_null() & pl.col("pause_ms").is_not_null())
    rows = rows.sort("uptime_s")
    total = float(pauses(events).get_column("pause_ms").sum() or 0.0)
    peak = None
    if has_full_minute(window):
        times = rows.get_column("uptime_s").to_numpy().astype(np.float64)
        peak = sliding_max(times, rows.get_column("pause_ms").to_numpy())
    return PauseTimePerMinute(mean_ms=per_minute_mean(total, window), peak_ms=peak)


def gc_overhead_percent(total_pause_ms: float, window: RunWindow) -> float | None:
    """GC overhead = total pause time / run window x 100 (None without a run window)."""
    duration = window.duration_s
    return None if duration is None else total_pause_ms / (duration * 1000.0) * 100.0
