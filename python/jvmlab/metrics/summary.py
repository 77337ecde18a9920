"""`summarize(log)`: every figure of `jvmlab gc summary` as one immutable record (docs/metrics.md).

The figures come from the native summary (native/src/summary/), made in one pass over the rows: while
parsing, with no event table kept (`summarize_sources`, what the CLI uses: memory does not grow with the log),
or over the event table of a loaded log (`summarize`). Both give the same figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ConfigDict

from jvmlab import _native
from jvmlab.metrics import notes as notes_
from jvmlab.metrics.allocation import AllocationFigures, allocation_figures
from jvmlab.metrics.concurrent import CycleStats, cycle_stats
from jvmlab.metrics.heap import HeapFigures, heap_figures
from jvmlab.metrics.native import CODE_COLUMNS, FLOAT_COLUMNS, INT_COLUMNS, NativeSummary, bounds
from jvmlab.metrics.pauses import PERCENTILE_METHOD, gc_overhead_percent, pause_stats, pause_time_per_minute
from jvmlab.metrics.rates import GcRate, gc_interval_mean_s, gc_rates
from jvmlab.metrics.safepoints import SafepointStats, safepoint_stats
from jvmlab.metrics.windows import RunWindow, narrow, run_window

if TYPE_CHECKING:
    import numpy as np
    import polars as pl

    from jvmlab.gclog import GcLog
    from jvmlab.gclog.sources import Source

Window = tuple[float | None, float | None]
T = TypeVar("T")

SUMMARY_FORMAT_VERSION = 1


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


def log_format(fmt: dict[str, Any]) -> LogFormat:
    return LogFormat(
        generation=fmt.get("generation") or "unknown",
        collector=fmt.get("collector") or "unknown",
        decorators=list(fmt.get("decorators") or []),
        jdk_version=fmt.get("jdk_version"),
        region_size_bytes=fmt.get("region_size_bytes"),
    )


def window_of(fmt: dict[str, Any], window: Window | None) -> RunWindow:
    whole = run_window(fmt)
    return whole if window is None else narrow(whole, *window)


def summary_of(
    native: NativeSummary,
    *,
    name: str,
    fmt: dict[str, Any],
    diagnostics: dict[str, Any],
    window: Window | None = None,
) -> GcSummary:
    """The summary record from the native summary's parts, for a log with format `fmt`; `window` =
    (start_s, end_s) is the narrowed window the rows were kept by."""
    run = window_of(fmt, window)
    pauses = pause_stats(native)
    per_minute = pause_time_per_minute(native, run)
    notes = notes_.summary_notes(fmt, run, native["rows"])
    if native["pauses"]["rounded"]:
        notes.append(notes_.ROUNDED_PERCENTILES)
    return GcSummary(
        name=name,
        format=log_format(fmt),
        window=run,
        gc_count=native["gcs"]["count"],
        gc_ids=str(fmt.get("gc_ids") or "none"),
        counts_by_kind=dict(native["kinds"]),
        pause_count=pauses.count,
        pause_total_ms=pauses.total_ms,
        pause_mean_ms=pauses.mean_ms,
        pause_p50_ms=pauses.p50_ms,
        pause_p90_ms=pauses.p90_ms,
        pause_p95_ms=pauses.p95_ms,
        pause_p99_ms=pauses.p99_ms,
        pause_max_ms=pauses.max_ms,
        rates=gc_rates(native, run),
        pause_time_per_min_mean_ms=per_minute.mean_ms,
        pause_time_per_min_peak_ms=per_minute.peak_ms,
        gc_overhead_percent=gc_overhead_percent(pauses.total_ms, run),
        gc_interval_mean_s=gc_interval_mean_s(native),
        allocation=allocation_figures(native),
        heap=heap_figures(native),
        full_gc_causes=dict(native["full_gc_causes"]),
        concurrent_cycles=cycle_stats(native),
        safepoints=safepoint_stats(native, run),
        notes=notes,
        diagnostics=dict(diagnostics),
    )


def native_columns(events: pl.DataFrame) -> tuple[dict[str, np.ndarray], dict[str, list[str]]]:
    """The columns the native summary reads, in the parser's encoding (NaN and i64::MIN for null,
    categorical codes counting from 1 into a list of values)."""
    import numpy as np
    import polars as pl

    columns: dict[str, np.ndarray] = {}
    categories: dict[str, list[str]] = {}
    for name in FLOAT_COLUMNS:
        columns[name] = events.get_column(name).cast(pl.Float64).fill_null(np.nan).to_numpy()
    for name in INT_COLUMNS:
        columns[name] = events.get_column(name).cast(pl.Int64).fill_null(np.iinfo(np.int64).min).to_numpy()
    for name in CODE_COLUMNS:
        strings = events.get_column(name).cast(pl.String)
        values = strings.drop_nulls().unique(maintain_order=True).to_list()
        codes = strings.cast(pl.Enum(values)).to_physical().cast(pl.UInt32) + 1
        columns[name], categories[name] = codes.fill_null(0).to_numpy(), values
    return columns, categories


def summarize(log: GcLog, *, window: Window | None = None) -> GcSummary:
    """Every summary figure of a loaded log; `window` = (start_s, end_s) keeps the events that start inside
    it (None: no bound) and narrows the run window to it."""
    window_of(log.format, window)  # a window outside the log is a usage error before any work
    columns, categories = native_columns(log.events)
    native = _native.summarize_table(columns, categories, bounds(*window) if window else None)
    return summary_of(native, name=log.name, fmt=log.format, diagnostics=log.diagnostics, window=window)


def load_summarized(
    path_or_paths: str | Path | Iterable[str | Path],
    *,
    strict: bool = False,
    label: str = "",
    meanwhile: Callable[[], object] | None = None,
) -> tuple[GcLog, GcSummary]:
    """One GC log's event table and its summary from a single parse: the summary reads the parser's
    columns before they become the table (what `jvmlab advise` and reports need both of). `meanwhile`
    runs while the native parse does (it releases the GIL)."""
    from jvmlab.gclog import one_log
    from jvmlab.gclog.log import parse_with

    def native_summary(raw: dict[str, Any]) -> NativeSummary:
        names = FLOAT_COLUMNS + INT_COLUMNS + CODE_COLUMNS
        columns = {name: raw["columns"][name] for name in names}
        categories = {name: raw["categories"][name] for name in CODE_COLUMNS}
        return _native.summarize_table(columns, categories, None)

    log, native = parse_with(
        one_log(path_or_paths), native_summary, strict=strict, label=label, meanwhile=meanwhile
    )
    return log, summary_of(native, name=log.name, fmt=log.format, diagnostics=log.diagnostics)


def summarize_sources(
    sources: list[Source], *, window: Window | None = None, strict: bool = False, label: str = ""
) -> GcSummary:
    """The summary of one log (a file or a rotated set) made while parsing it, with no event table kept:
    memory does not grow with the size of the log."""
    from jvmlab.gclog.log import stream_summary

    name, native, diagnostics, fmt = stream_summary(
        sources, window=bounds(*window) if window else None, strict=strict, label=label
    )
    return summary_of(native, name=name, fmt=fmt, diagnostics=diagnostics, window=window)


def summarize_path(
    path_or_paths: str | Path | Iterable[str | Path],
    *,
    strict: bool = False,
    window: Window | None = None,
    label: str = "",
) -> GcSummary:
    """The summary of one GC log (a file, a zip, a folder or the files of a rotated set: `gclog.one_log`),
    made while parsing: no event table is kept, so memory does not grow with the log. Same figures as
    `summarize(gclog.load(...))`."""
    from jvmlab.gclog import one_log

    return summarize_sources(one_log(path_or_paths), window=window, strict=strict, label=label)


def summarize_paths(
    paths: Iterable[str | Path],
    *,
    strict: bool = False,
    window: Window | None = None,
    threads: int | None = None,
) -> list[GcSummary]:
    """One summary per input, made while parsing; files of one rotated set make one log. The logs are
    parsed `threads` at a time (see `summarize_each`)."""
    from jvmlab.gclog.sources import resolve

    groups = resolve([str(p) for p in paths])
    return _each(lambda g: summarize_sources(g, window=window, strict=strict), groups, threads)


def summarize_each(
    logs: Sequence[str | Path | Sequence[str | Path]], *, strict: bool = False, threads: int | None = None
) -> list[GcSummary]:
    """`summarize_path` of each of `logs` (each a file, a zip, a folder or a rotated set), `threads` at a time
    (default: one per core; the native parse releases the GIL): the summaries in the order of `logs`, and
    the error of the first log, in that order, that fails."""
    return _each(lambda log: summarize_path(log, strict=strict), logs, threads)


def _each(
    summarize_one: Callable[[T], GcSummary], items: Sequence[T], threads: int | None
) -> list[GcSummary]:
    """summarize_one of each item, `threads` at a time (default: one per core), in the items' order."""
    if len(items) <= 1 or threads == 1:
        return [summarize_one(item) for item in items]
    from jvmlab.host import usable_cpus  # with the container package: 27 ms, only for several logs

    workers = min(len(items), threads or usable_cpus())
    if workers <= 1:
        return [summarize_one(item) for item in items]
    with ThreadPoolExecutor(workers, thread_name_prefix="gclog") as pool:
        return list(pool.map(summarize_one, items))
