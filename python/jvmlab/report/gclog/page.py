"""The GC report page (jvmlab.report.html) of one or several GC logs, e.g. brought from production.

For each log: an overview (the figures of `jvmlab gc summary`, laid out by summary_view), charts from its
event table (charts) and what the parser saw. For several logs the page starts with their figures side by
side (jvmlab.metrics.comparison), the first log being the baseline. Logs come parsed and summarised: this
module only lays them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from jvmlab.advise.engine import Advice
from jvmlab.gclog import GcLog
from jvmlab.metrics.comparison import Comparison, compare
from jvmlab.metrics.summary import GcSummary, Window
from jvmlab.report import units
from jvmlab.report.advice.html import findings_section
from jvmlab.report.gclog import charts
from jvmlab.report.gclog.comparison_view import compare_view
from jvmlab.report.gclog.summary_view import SummaryView, summary_view
from jvmlab.report.html.page import (
    Block,
    Cell,
    Chart,
    Column,
    KeyValues,
    Page,
    Preformatted,
    Section,
    Table,
    Text,
)

# Figures where a lower value is better, and the change that gets a colour in the side-by-side table.
LOWER_IS_BETTER = frozenset(
    {
        "full_gc_count",
        "full_gc_per_min",
        "pause_total_ms",
        "pause_mean_ms",
        "pause_p50_ms",
        "pause_p90_ms",
        "pause_p99_ms",
        "pause_max_ms",
        "pause_time_per_min_mean_ms",
        "gc_overhead_percent",
        "safepoint_total_ms",
    }
)
COLOURED_CHANGE_PERCENT = 5.0


@dataclass(frozen=True)
class LabelledLog:
    """One log of the report, its label, and its summary (of the report's window, if any)."""

    label: str
    log: GcLog
    summary: GcSummary
    advice: Advice | None = None


def windowed(events: pl.DataFrame, window: Window | None) -> pl.DataFrame:
    """The rows a summary with this window counts: those starting within [start_s, end_s]."""
    if window is None:
        return events
    start, end = window
    keep = pl.col("uptime_s").is_not_null()
    if start is not None:
        keep &= pl.col("uptime_s") >= start
    if end is not None:
        keep &= pl.col("uptime_s") <= end
    return events.filter(keep)


def overview_blocks(s: GcSummary, view: SummaryView) -> list[Block]:
    facts = [("log", s.name), ("format", view.format_line), ("run window", view.window_line)]
    ids = " (ids assigned by jvmlab: the log has none)" if s.gc_ids == "assigned" else ""
    facts.append(("collections", f"{s.gc_count:,} GCs{ids}, {s.pause_count:,} pauses"))
    if view.other_kinds_line:
        facts.append(("other events", view.other_kinds_line.removeprefix("other events: ")))
    rates = Table(
        (
            Column("collections"),
            Column("count", True),
            Column("mean", True),
            Column("peak (busiest minute)", True),
        ),
        tuple((Cell(r.label), Cell(r.count), Cell(r.mean), Cell(r.peak)) for r in view.rate_rows),
        caption="Collections per minute",
        notes=("Peak: the most collections starting within any 60 s (none for runs shorter than a minute).",),
    )
    blocks: list[Block] = [KeyValues(tuple(facts)), rates]
    blocks += [KeyValues(section.rows, caption=section.title) for section in view.sections]
    if view.warnings:
        blocks.append(Text(tuple(f"Warning: {w}" for w in view.warnings), tone="warning"))
    if view.notes:
        blocks.append(Text(tuple(view.notes), tone="note"))
    return blocks


def diagnostics_blocks(d: Mapping[str, Any]) -> list[Block]:
    """Counts of lines matched, ignored and unknown, with the samples the parser kept (log text, shown as
    written and escaped by the template)."""
    rows = (
        ("lines", f"{d.get('lines_total', 0):,}"),
        ("matched (made or completed an event)", f"{d.get('lines_matched', 0):,}"),
        ("ignored (known, no event)", f"{d.get('lines_ignored', 0):,}"),
        ("unknown", f"{d.get('lines_unknown', 0):,}"),
        ("unknown that look like GC data", f"{d.get('lines_unknown_gc', 0):,}"),
        ("time going backwards", units.plural(int(d.get("time_backwards", 0)), "time")),
    )
    blocks: list[Block] = [KeyValues(rows)]
    if d.get("unknown_samples"):
        samples = tuple(str(line).rstrip("\n") for line in d["unknown_samples"])
        blocks.append(Preformatted(samples, caption="Unknown lines (samples)"))
    if d.get("time_backwards_samples"):
        samples = tuple(str(line).rstrip("\n") for line in d["time_backwards_samples"])
        blocks.append(Preformatted(samples, caption="Time going backwards (samples)"))
    if d.get("warnings"):
        blocks.append(Text(tuple(f"Parser: {w}" for w in d["warnings"]), tone="warning"))
    return blocks


def _charts(*made: Chart | None) -> list[Block]:
    return [c for c in made if c is not None]


def chart_sections(events: pl.DataFrame, s: GcSummary, prefix: str) -> list[Section]:
    """Pauses, collections over time, heap and metaspace; time charts only when the log has time stamps."""
    w = s.window
    timed = w.start_s is not None and w.end_s is not None and w.end_s > w.start_s
    pause_blocks: list[Block] = []
    gc_blocks: list[Block] = []
    memory_blocks: list[Block] = []
    if timed:
        buckets = charts.buckets_for(w.start_s, w.end_s)  # type: ignore[arg-type]
        axis = charts.time_axis(buckets.origin_s, buckets.end_s)
        pause_blocks += _charts(
            charts.pause_scatter(events, axis, f"{prefix}pause-scatter"),
            charts.pause_histogram(events, f"{prefix}pause-histogram"),
            charts.pause_time_per_bucket(events, buckets, axis, f"{prefix}pause-time"),
        )
        gc_blocks += _charts(charts.gcs_per_bucket(events, buckets, axis, f"{prefix}gc-rate"))
        memory_blocks += _charts(
            charts.heap_chart(events, axis, f"{prefix}heap"),
            charts.metaspace_chart(events, axis, f"{prefix}metaspace"),
        )
    else:
        pause_blocks += _charts(charts.pause_histogram(events, f"{prefix}pause-histogram"))
        note = Text(("The log has no time stamps: there are no charts over time.",), tone="note")
        gc_blocks.append(note)
        memory_blocks.append(note)
    pause_blocks = pause_blocks or [Text(("No stop-the-world GC pauses in the log.",))]
    gc_blocks = gc_blocks or [Text(("No collections in the log.",))]
    memory_blocks = memory_blocks or [Text(("The log prints no heap sizes.",))]
    return [
        Section(f"{prefix}pauses", "Pauses", tuple(pause_blocks)),
        Section(f"{prefix}collections", "Collections over time", tuple(gc_blocks)),
        Section(f"{prefix}memory", "Heap and metaspace", tuple(memory_blocks)),
    ]


def log_sections(item: LabelledLog, summary: GcSummary, window: Window | None, prefix: str) -> list[Section]:
    events = windowed(item.log.events, window)
    view = summary_view(summary)
    findings = [findings_section(item.advice, prefix)] if item.advice is not None else []
    return [
        Section(f"{prefix}overview", "Overview", tuple(overview_blocks(summary, view))),
        *findings,
        *chart_sections(events, summary, prefix),
        Section(f"{prefix}diagnostics", "Parse diagnostics", tuple(diagnostics_blocks(item.log.diagnostics))),
    ]


def _change_cell(key: str, text: str, change: float | None) -> Cell:
    if key not in LOWER_IS_BETTER or change is None or abs(change) < COLOURED_CHANGE_PERCENT:
        return Cell(text)
    return Cell(text, "better" if change < 0 else "worse")


def comparison_table(comparison: Comparison, summaries: Sequence[GcSummary]) -> Table:
    """Figures side by side, each later log with its change against the first."""
    view = compare_view(comparison, summaries)
    labels = view.labels
    columns = [Column("figure")] + [Column(labels[0], True)]
    for label in labels[1:]:
        columns += [Column(label, True), Column(f"{label} vs {labels[0]}", True)]
    by_label = {f.label: f for f in comparison.figures}
    rows = []
    for row in view.rows:
        figure = by_label[row.label]
        cells = [Cell(row.label), Cell(row.shown[0])]
        for i in range(1, len(labels)):
            cells += [Cell(row.shown[i]), _change_cell(figure.key, row.changes[i], figure.change_percent[i])]
        rows.append(tuple(cells))
    notes = (
        f"Change = (value - {labels[0]}) / {labels[0]} x 100. Green / red: {COLOURED_CHANGE_PERCENT:g} % or "
        "more lower / higher, for figures where lower is better. One log each: no statistical test.",
    )
    return Table(tuple(columns), tuple(rows), caption="Figures side by side", notes=notes)


def comparison_section(items: Sequence[LabelledLog], summaries: Sequence[GcSummary]) -> Section:
    labels = [item.label for item in items]
    comparison = compare(summaries, labels)
    view = compare_view(comparison, summaries)
    blocks: list[Block] = [
        KeyValues(tuple((label, s.name) for label, s in zip(labels, summaries, strict=True)), caption="Logs"),
        comparison_table(comparison, summaries),
        Text(view.headlines),
    ]
    if view.warnings:
        blocks.append(Text(tuple(f"Warning: {w}" for w in view.warnings), tone="warning"))
    return Section("side-by-side", "Side by side", tuple(blocks))


def _subtitle(items: Sequence[LabelledLog], summaries: Sequence[GcSummary], window: Window | None) -> str:
    if len(items) == 1:
        f = summaries[0].format
        parts = [summaries[0].name, f.collector, f"JDK {f.jdk_version}" if f.jdk_version else f.generation]
    else:
        parts = [f"{len(items)} logs", f"baseline {items[0].label}"]
    if window is not None:
        start, end = window
        start_text = "the start" if start is None else f"{start:g} s"
        end_text = "the end" if end is None else f"{end:g} s"
        parts.append(f"events from {start_text} to {end_text}")
    return " · ".join(parts)


def gc_report_page(
    items: Sequence[LabelledLog], *, window: Window | None = None, generated_at: str = ""
) -> Page:
    """The report of `items` (at least one); `window` = (start_s, end_s) keeps the events that start in it,
    as `jvmlab gc summary --start-s/--end-s` does: the items' summaries must be of the same window."""
    from jvmlab import __version__

    if not items:
        raise ValueError("a GC report needs at least one log")
    summaries = [item.summary for item in items]
    if len(items) == 1:
        sections = log_sections(items[0], summaries[0], window, "")
        title = f"GC report: {items[0].label}"
    else:
        sections = [comparison_section(items, summaries)]
        for i, (item, summary) in enumerate(zip(items, summaries, strict=True), start=1):
            children = tuple(log_sections(item, summary, window, f"log{i}-"))
            sections.append(Section(f"log{i}", f"{item.label}", children=children))
        title = "GC report: " + ", ".join(item.label for item in items)
    return Page(
        title=title,
        subtitle=_subtitle(items, summaries, window),
        sections=tuple(sections),
        generated_by=f"jvmlab {__version__}",
        generated_at=generated_at,
    )
