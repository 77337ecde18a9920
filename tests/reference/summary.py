"""`summarize_reference(log)`: the GcSummary of a loaded log, every figure computed by the reference
modules over the whole event table."""

from __future__ import annotations

import polars as pl

from jvmlab.gclog import GcLog
from jvmlab.metrics import notes as notes_
from jvmlab.metrics.pauses import gc_overhead_percent
from jvmlab.metrics.summary import GcSummary, Window, log_format, window_of
from reference.allocation import allocation_figures
from reference.causes import full_gc_causes
from reference.concurrent import cycle_stats
from reference.heap import heap_figures
from reference.pauses import pause_stats, pause_time_per_minute
from reference.rates import gc_interval_mean_s, gc_rates
from reference.safepoints import safepoint_stats
from reference.selection import Events, EventSets, within


def counts_by_kind(events: Events) -> dict[str, int]:
    """Rows per kind (all categories), most frequent first."""
    sets = EventSets.of(events)
    kinds = sets.column(sets.all_rows, "kind")
    counts = [(k, int((kinds == k).sum())) for k in kinds.unique().drop_nulls().cast(pl.String)]
    return dict(sorted(counts, key=lambda row: (-row[1], row[0])))


def summarize_reference(log: GcLog, *, window: Window | None = None) -> GcSummary:
    run = window_of(log.format, window)
    events = EventSets(log.events, within(run))
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
