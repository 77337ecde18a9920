"""Comparing GC summaries (`jvmlab gc compare`): each figure side by side with its relative change against
the first input.

change % = (value - baseline) / baseline x 100. No change is given when either value is missing, or when
the baseline is 0 and the value is not (an increase from nothing has no ratio).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from jvmlab.metrics.summary import GcSummary

Getter = Callable[[GcSummary], float | None]


@dataclass(frozen=True)
class Figure:
    key: str
    label: str
    value: Getter


FIGURES: tuple[Figure, ...] = (
    Figure("run_duration_s", "run window", lambda s: s.window.duration_s),
    Figure("gc_count", "GCs", lambda s: s.gc_count),
    Figure("young_gc_count", "Young GC", lambda s: s.rates["young"].count),
    Figure("mixed_gc_count", "Mixed GC", lambda s: s.rates["mixed"].count),
    Figure("full_gc_count", "Full GC", lambda s: s.rates["full"].count),
    Figure("young_gc_per_min", "Young GC per minute", lambda s: s.rates["young"].mean_per_min),
    Figure("full_gc_per_min", "Full GC per minute", lambda s: s.rates["full"].mean_per_min),
    Figure("gc_per_min", "GCs per minute", lambda s: s.rates["all"].mean_per_min),
    Figure("pause_count", "pauses", lambda s: s.pause_count),
    Figure("pause_total_ms", "pause time", lambda s: s.pause_total_ms),
    Figure("pause_mean_ms", "mean pause", lambda s: s.pause_mean_ms),
    Figure("pause_p50_ms", "p50 pause", lambda s: s.pause_p50_ms),
    Figure("pause_p90_ms", "p90 pause", lambda s: s.pause_p90_ms),
    Figure("pause_p99_ms", "p99 pause", lambda s: s.pause_p99_ms),
    Figure("pause_max_ms", "max pause", lambda s: s.pause_max_ms),
    Figure("pause_time_per_min_mean_ms", "pause time per minute", lambda s: s.pause_time_per_min_mean_ms),
    Figure("gc_overhead_percent", "GC overhead", lambda s: s.gc_overhead_percent),
    Figure("gc_interval_mean_s", "mean interval between GCs", lambda s: s.gc_interval_mean_s),
    Figure("allocation_rate_mib_per_s", "allocation rate", lambda s: s.allocation.allocation_rate_mib_per_s),
    Figure("promotion_rate_mib_per_s", "promotion rate", lambda s: s.allocation.promotion_rate_mib_per_s),
    Figure("live_set_estimate_bytes", "live set estimate", lambda s: s.heap.live_set_estimate_bytes),
    Figure("heap_used_max_bytes", "heap used peak", lambda s: s.heap.heap_used_max_bytes),
    Figure("metaspace_used_max_bytes", "metaspace peak", lambda s: s.heap.metaspace_used_max_bytes),
    Figure("concurrent_cycle_mean_ms", "mean concurrent cycle", lambda s: s.concurrent_cycles.mean_ms),
    Figure("safepoint_total_ms", "safepoint time", lambda s: s.safepoints.total_ms),
)
HEADLINE_KEYS = (
    "full_gc_count",
    "gc_count",
    "pause_mean_ms",
    "pause_p99_ms",
    "pause_max_ms",
    "gc_overhead_percent",
)


class FigureComparison(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str
    label: str
    values: list[float | None]
    change_percent: list[float | None]


class Comparison(BaseModel):
    model_config = ConfigDict(frozen=True)

    labels: list[str]
    figures: list[FigureComparison]
    warnings: list[str]


def percent_change(baseline: float | None, value: float | None) -> float | None:
    if baseline is None or value is None:
        return None
    if baseline == 0:
        return 0.0 if value == 0 else None
    return (value - baseline) / abs(baseline) * 100.0


def compare_figure(figure: Figure, summaries: Sequence[GcSummary]) -> FigureComparison:
    values = [figure.value(s) for s in summaries]
    values = [None if v is None else float(v) for v in values]
    changes = [None] + [percent_change(values[0], v) for v in values[1:]]
    return FigureComparison(key=figure.key, label=figure.label, values=values, change_percent=changes)


def differences(summaries: Sequence[GcSummary], labels: Sequence[str]) -> list[str]:
    """Warnings when the inputs differ in what matters for a fair comparison."""
    out = []
    for what, get in (
        ("collectors", lambda s: s.format.collector),
        ("JDK versions", lambda s: s.format.jdk_version),
    ):
        seen = [get(s) for s in summaries]
        if len(set(seen)) > 1:
            pairs = ", ".join(f"{label}: {v or 'not shown'}" for label, v in zip(labels, seen, strict=True))
            out.append(f"the inputs use different {what} ({pairs}): differences may come from that")
    durations = [s.window.duration_s for s in summaries]
    if any(d is None for d in durations):
        out.append("an input has no run window (no time stamps): compare counts and pause figures only")
    elif max(durations) > 1.5 * min(durations):  # type: ignore[type-var, operator]
        out.append("run windows differ by more than 50 %: compare rates per minute and overhead, not counts")
    return out


def compare(summaries: Sequence[GcSummary], labels: Sequence[str]) -> Comparison:
    """Every figure of FIGURES for each summary, with the change against the first."""
    if len(summaries) != len(labels):
        raise ValueError("one label per summary")
    figures = [compare_figure(f, summaries) for f in FIGURES]
    return Comparison(labels=list(labels), figures=figures, warnings=differences(summaries, labels))
