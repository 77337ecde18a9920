"""Per-minute rates: a mean over the run window and a peak over the busiest minute (docs/metrics.md).

mean per minute = count / run window (s) x 60.
peak per minute = the largest number of events that start within any 60-second interval [t_i, t_i + 60 s)
anchored at an event start t_i (the busiest of all 60 s windows is one of these). It needs a run window of at
least 60 s and is None otherwise.
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
    """How many events of one kind, and how often per minute."""

    model_config = ConfigDict(frozen=True)

    count: int
    mean_per_min: float | None
    peak_per_min: int | None


def per_minute_mean(total: float, window: RunWindow) -> float | None:
    """total / run window x 60, or None without a run window."""
    duration = window.duration_s
    return None if duration is None else total / duration * 60.0


def has_full_minute(window: RunWindow) -> bool:
    duration = window.duration_s
    return duration is not None and duration >= PEAK_WINDOW_S


def rate_of(count: int, peak: float, window: RunWindow) -> GcRate:
    return GcRate(
        count=count,
        mean_per_min=per_minute_mean(count, window),
        peak_per_min=int(peak) if has_full_minute(window) else None,
    )


def gc_rates(native: NativeSummary, window: RunWindow) -> dict[str, GcRate]:
    """Rates of the pauses of each kind of RATE_KINDS, of the collections of CYCLE_RATE_KINDS, and of all
    collections (key "all": distinct GC ids, each at the earliest start of its rows)."""
    rates = {kind: rate_of(r["count"], r["peak_per_min"], window) for kind, r in native["rates"].items()}
    gcs = native["gcs"]
    rates["all"] = rate_of(gcs["count"], gcs["peak_per_min"], window)
    return rates


def gc_interval_mean_s(native: NativeSummary) -> float | None:
    """Mean time between consecutive collections: the mean gap between the first starts of distinct GC ids,
    (last start - first start) / (n - 1); gaps never span a restart of the JVM's clock. None for fewer than
    two time-stamped GCs."""
    gcs = native["gcs"]
    gaps = gcs["timed"] - gcs["runs"]
    return gcs["spanned_s"] / gaps if gaps >= 1 else None
