"""Per-minute rates: a mean over the run window and a peak over the busiest minute (docs/metrics.md).

mean per minute = count / run window (s) x 60.
peak per minute = the largest number of events that start within any 60-second interval [t_i, t_i + 60 s)
anchored at an event start t_i (the busiest of all 60 s windows is one of these). It needs a run window of at
least 60 s and is None otherwise.
The pauses of each kind of RATE_KINDS also have their pause time per minute: the same mean and peak, with
each pause weighed by its pause ms.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from jvmlab.metrics.native import NativeSummary
from jvmlab.metrics.windows import RunWindow

PEAK_WINDOW_S = 60.0
RATE_KINDS = ("young", "mixed", "full", "degenerated")
# Generational ZGC's collections, which have no young or full pauses: counted on their cycle rows.
CYCLE_RATE_KINDS = ("zgc-minor", "zgc-major")


class GcRate(BaseModel):
    """How many events of one kind, and how often per minute; for the pause kinds (RATE_KINDS) also their
    pause time: in all, and per minute (None for the cycle kinds and "all")."""

    model_config = ConfigDict(frozen=True)

    count: int
    mean_per_min: float | None
    peak_per_min: int | None
    pause_total_ms: float | None = None
    pause_ms_per_min_mean: float | None = None
    pause_ms_per_min_peak: float | None = None


def per_minute_mean(total: float, window: RunWindow) -> float | None:
    """total / run window x 60, or None without a run window."""
    duration = window.duration_s
    return None if duration is None else total / duration * 60.0


def has_full_minute(window: RunWindow) -> bool:
    duration = window.duration_s
    return duration is not None and duration >= PEAK_WINDOW_S


def rate_of(
    count: int, peak: float, window: RunWindow, pause_ms: tuple[float, float] | None = None
) -> GcRate:
    """The rate of `count` events with `peak` of them in the busiest minute; `pause_ms` = (total, most in a
    minute) of their pause time, for pauses."""
    full_minute = has_full_minute(window)
    total_ms, peak_ms = (None, None) if pause_ms is None else pause_ms
    return GcRate(
        count=count,
        mean_per_min=per_minute_mean(count, window),
        peak_per_min=int(peak) if full_minute else None,
        pause_total_ms=total_ms,
        pause_ms_per_min_mean=None if total_ms is None else per_minute_mean(total_ms, window),
        pause_ms_per_min_peak=peak_ms if full_minute else None,
    )


def gc_rates(native: NativeSummary, window: RunWindow) -> dict[str, GcRate]:
    """Rates of the pauses of each kind of RATE_KINDS, of the collections of CYCLE_RATE_KINDS, and of all
    collections (key "all": distinct GC ids, each at the earliest start of its rows)."""
    rates = {
        kind: rate_of(r["count"], r["peak_per_min"], window, pause_time_of(r))
        for kind, r in native["rates"].items()
    }
    gcs = native["gcs"]
    rates["all"] = rate_of(gcs["count"], gcs["peak_per_min"], window)
    return rates


def pause_time_of(rate: dict[str, float]) -> tuple[float, float] | None:
    """(total, peak per minute) of the pause ms of a native rate of pauses; None for a rate of cycles."""
    if "pause_total_ms" not in rate:
        return None
    return rate["pause_total_ms"], rate["pause_ms_peak_per_min"]


def gc_interval_mean_s(native: NativeSummary) -> float | None:
    """Mean time between consecutive collections: the mean gap between the first starts of distinct GC ids,
    (last start - first start) / (n - 1); gaps never span a restart of the JVM's clock. None for fewer than
    two time-stamped GCs."""
    gcs = native["gcs"]
    gaps = gcs["timed"] - gcs["runs"]
    return gcs["spanned_s"] / gaps if gaps >= 1 else None
