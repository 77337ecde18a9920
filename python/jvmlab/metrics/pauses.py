"""Stop-the-world GC pauses (rows with category "pause"): count, total, mean, nearest-rank percentiles, max,
pause time per minute and GC overhead (docs/metrics.md). Safepoints are never counted here."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from jvmlab.metrics.native import NativeSummary
from jvmlab.metrics.rates import has_full_minute, per_minute_mean
from jvmlab.metrics.windows import RunWindow

PERCENTILE_METHOD = "nearest-rank"


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


NO_PAUSES = PauseStats(
    count=0, total_ms=0.0, mean_ms=None, p50_ms=None, p90_ms=None, p95_ms=None, p99_ms=None, max_ms=None
)


def pause_stats(native: NativeSummary) -> PauseStats:
    """Percentiles by nearest rank: the value at rank ceil(p / 100 x n) of the sorted pauses, always a pause
    that happened ("99 % of pauses took at most X")."""
    pauses = native["pauses"]
    count = pauses["count"]
    if count == 0:
        return NO_PAUSES
    p50, p90, p95, p99 = pauses["percentiles"]
    return PauseStats(
        count=count,
        total_ms=pauses["total"],
        mean_ms=pauses["total"] / count,
        p50_ms=p50,
        p90_ms=p90,
        p95_ms=p95,
        p99_ms=p99,
        max_ms=pauses["max"],
    )


def pause_time_per_minute(native: NativeSummary, window: RunWindow) -> PauseTimePerMinute:
    """Mean = total pause ms / run window x 60; peak = the most pause ms starting in any 60 s interval,
    None for runs shorter than a minute."""
    pauses = native["pauses"]
    peak = pauses["peak_per_min"] if has_full_minute(window) else None
    return PauseTimePerMinute(mean_ms=per_minute_mean(pauses["total"], window), peak_ms=peak)


def gc_overhead_percent(total_pause_ms: float, window: RunWindow) -> float | None:
    """GC overhead = total pause time / run window x 100 (None without a run window)."""
    duration = window.duration_s
    return None if duration is None else total_pause_ms / (duration * 1000.0) * 100.0
