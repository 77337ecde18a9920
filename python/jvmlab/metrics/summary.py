"""`summarize(log)`: every figure of `jvmlab gc summary` as one immutable record (docs/metrics.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import polars as pl
from pydantic import BaseModel, ConfigDict

from jvmlab.metrics import notes as notes_
from jvmlab.metrics.allocation import AllocationFigures, allocation_figures
from jvmlab.metrics.causes import full_gc_causes
from jvmlab.metrics.concurrent import CycleStats, cycle_stats
from jvmlab.metrics.heap import HeapFigures, heap_figures
from jvmlab.metrics.pauses import (
    PERCENTILE_METHOD,
    gc_overhead_percent,
    pause_stats,
    pause_time_per_minute,
)
from jvmlab.metrics.rates import GcRate, gc_interval_mean_s, gc_rates
from jvmlab.metrics.safepoints import SafepointStats, safepoint_stats
from jvmlab.metrics.selection import Events, EventSets
from jvmlab.metrics.windows import RunWindow, narrow, run_window, within

if TYPE_CHECKING:
    from jvmlab.gclog import GcLog

SUMMARY_FORMAT_VERSION = 1
# The columns any figure reads: the summary never touches the others.
SUMMARY_COLUMNS = (
    "uptime_s", "gc_id", "category", "kind", "cause", "pause_ms", "duration_ms", "ttsp_ms",
    "heap_before_bytes", "heap_after_bytes", "heap_capacity_bytes", "young_before_bytes", "young_after_bytes",
    "old_before_bytes", "old_after_bytes", "metaspace_before_bytes", "metaspace_after_bytes",
    "metaspace_capacity_bytes",
)  # fmt: skip


class LogFormat(BaseModel):
    model_config = ConfigDict(frozen=True)

    generation: str
    collector: str
    decorators: list[str]
    jdk_version: str | None
    region_size_bytes: int | None


class GcSummary(BaseModel):
    """The summary of one GC log. Times in the unit their name says; sizes in bytes; rates per minute."""

    model_config = ConfigDict(frozen=True)

    format_version: int = SUMMARY_FORMAT_VERSION
    name: str
    format: LogFormat
    window: RunWindow
    gc_count: int
    gc_ids: str
    counts_by_kind: dict[str, int]
    pause_count: int
    pause_total_ms: float
    pause_mean_ms: float | None
    pause_p50_ms: float | None
    pause_p90_ms: float | None
    pause_p95_ms: float | None
    pause_p99_ms: float | None
    pause_max_ms: float | None
    pause_percentile_method: str = PERCENTILE_METHOD
    rates: dict[str, GcRate]
    pause_time_per_min_mean_ms: float | None
    pause_time_per_min_peak_ms: float | None
    gc_overhead_percent: float | None
    gc_interval_mean_s: float | None
    allocation: AllocationFigures
    heap: HeapFigures
    full_gc_causes: dict[str, int]
    concurrent_cycles: CycleStats
    safepoints: SafepointStats
    notes: list[str]
    diagnostics: dict[str, Any]


def counts_by_kind(events: Events) -> dict[str, int]:
    """Rows per kind (all categories), most frequent first. Counted kind by kind with a comparison each (a
    bit mask): a group-by would set up hash tables as large as the table."""
    sets = EventSets.of(events)
    kinds = sets.column(sets.all_rows, "kind")
    counts = [(k, int((kinds == k).sum())) for k in kinds.unique().drop_nulls().cast(pl.String)]
    return dict(sorted(counts, key=lambda row: (-row[1], row[0])))


def log_format(fmt: dict[str, Any]) -> LogFormat:
    return LogFormat(
        generation=fmt.get("generation") or "unknown",
        collector=fmt.get("collector") or "unknown",
        decorators=list(fmt.get("decorators") or []),
        jdk_version=fmt.get("jdk_version"),
        region_size_bytes=fmt.get("region_size_bytes"),
    )


def window_of(log: GcLog, window: tuple[float | None, float | None] | None) -> RunWindow:
    whole = run_window(log.format)
    return whole if window is None else narrow(whole, *window)


def summarize(log: GcLog, *, window: tuple[float | None, float | None] | None = None) -> GcSummary:
    """Every summary figure of `log`; `window` = (start_s, end_s) narrows the run window (None: no bound).

    One `EventSets` over the columns the figures read is shared by every metric, so each row selection and the
    GC ids' first starts are computed once; a narrowed window is a row mask, not a copy of the table."""
    run = window_of(log, window)
    events = EventSets(log.events.select(SUMMARY_COLUMNS), within(run))
    pauses = pause_stats(events)
    per_minute = pause_time_per_minute(events, run)
    return GcSummary(
        name=log.name,
        format=log_format(log.format),
        window=run,
        gc_count=events.gc_starts.count,
        gc_ids=str(log.format.get("gc_ids") or "none"),
        counts_by_kind=counts_by_kind(events),
        pause_count=pauses.count,
        pause_total_ms=pauses.total_ms,
        pause_mean_ms=pauses.mean_ms,
        pause_p50_ms=pauses.p50_ms,
        pause_p90_ms=pauses.p90_ms,
        pause_p95_ms=pauses.p95_ms,
        pause_p99_ms=pauses.p99_ms,
        pause_max_ms=pauses.max_ms,
        rates=gc_rates(events, run),
        pause_time_per_min_mean_ms=per_minute.mean_ms,
        pause_time_per_min_peak_ms=per_minute.peak_ms,
        gc_overhead_percent=gc_overhead_percent(pauses.total_ms, run),
        gc_interval_mean_s=gc_interval_mean_s(events),
        allocation=allocation_figures(events),
        heap=heap_figures(events),
        full_gc_causes=full_gc_causes(events),
        concurrent_cycles=cycle_stats(events),
        safepoints=safepoint_stats(events, run),
        notes=notes_.summary_notes(log.format, run, events.height),
        diagnostics=dict(log.diagnostics),
    )
