"""Per-variant figures of a stored experiment: the workload metric (mean, early vs late), time, GC summary
figures and peak RSS, each the mean over the variant's successful trials (with the spread where there are
several). Statistics with confidence intervals and significance come with `jvmlab compare`."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jvmlab.experiment.store import OK, TrialRow


@dataclass(frozen=True)
class Figure:
    """The mean of one figure over trials, its standard deviation (None for one trial), and how many."""

    mean: float | None
    stdev: float | None
    n: int

    @staticmethod
    def of(values: Sequence[float | None]) -> Figure:
        present = [float(v) for v in values if v is not None]
        if not present:
            return Figure(None, None, 0)
        spread = statistics.stdev(present) if len(present) > 1 else None
        return Figure(statistics.fmean(present), spread, len(present))


@dataclass(frozen=True)
class VariantResult:
    variant: str
    jdk: str
    flag_set: str
    trials: int
    ok: int
    states: dict[str, int]
    reasons: list[str]
    figures: dict[str, Figure] = field(default_factory=dict)


def _get(d: dict[str, Any] | None, *path: str) -> Any:
    for key in path:
        if not isinstance(d, dict):
            return None
        d = d.get(key)
    return d


# name -> how to read it from a trial
FIGURES: dict[str, Callable[[TrialRow], float | None]] = {
    "elapsed_s": lambda t: t.elapsed_s,
    "metric_mean": lambda t: _get(t.metric, "mean"),
    "metric_early": lambda t: _get(t.metric, "early_mean"),
    "metric_late": lambda t: _get(t.metric, "late_mean"),
    "gc_count": lambda t: _get(t.gc, "gc_count"),
    "young_per_min": lambda t: _get(t.gc, "rates", "young", "mean_per_min"),
    "full_gc_count": lambda t: _get(t.gc, "rates", "full", "count"),
    "pause_total_ms": lambda t: _get(t.gc, "pause_total_ms"),
    "pause_p99_ms": lambda t: _get(t.gc, "pause_p99_ms"),
    "pause_max_ms": lambda t: _get(t.gc, "pause_max_ms"),
    "gc_interval_s": lambda t: _get(t.gc, "gc_interval_mean_s"),
    "gc_overhead_percent": lambda t: _get(t.gc, "gc_overhead_percent"),
    "allocation_mib_s": lambda t: _get(t.gc, "allocation", "allocation_rate_mib_per_s"),
    "rss_peak_bytes": lambda t: _get(t.process, "rss_peak_bytes"),
    "cpu_s": lambda t: _cpu(t),
}


def _cpu(t: TrialRow) -> float | None:
    user, system = _get(t.process, "cpu_user_s"), _get(t.process, "cpu_system_s")
    return None if user is None or system is None else user + system


def variant_results(trials: Sequence[TrialRow]) -> list[VariantResult]:
    """One result per variant, by JDK, then flag set."""
    by_variant: dict[str, list[TrialRow]] = {}
    for t in sorted(trials, key=lambda t: (t.jdk, t.flag_set, t.position)):
        by_variant.setdefault(t.variant, []).append(t)
    out = []
    for variant, rows in by_variant.items():
        ok = [t for t in rows if t.state == OK]
        states: dict[str, int] = {}
        for t in rows:
            states[t.state] = states.get(t.state, 0) + 1
        reasons = sorted({t.reason for t in rows if t.state != OK and t.reason})
        figures = {name: Figure.of([read(t) for t in ok]) for name, read in FIGURES.items()}
        out.append(
            VariantResult(
                variant, rows[0].jdk, rows[0].flag_set, len(rows), len(ok), states, reasons, figures
            )
        )
    return out
