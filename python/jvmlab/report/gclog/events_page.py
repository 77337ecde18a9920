"""One page of a GC log's event table (`jvmlab serve`): its rows from an offset, the columns a reader scans
first, and links to the pages before and after (the whole table: `jvmlab gc events`, or the server's CSV)."""

from __future__ import annotations

import polars as pl

from jvmlab.report.html.page import Cell, Column, Links, Page, Section, Table, Text

MIB = 1024 * 1024
COLUMNS = (
    ("uptime_s", "uptime s", "seconds"),
    ("gc_id", "GC", "int"),
    ("category", "category", "text"),
    ("kind", "kind", "text"),
    ("phase", "phase", "text"),
    ("cause", "cause", "text"),
    ("pause_ms", "pause ms", "ms"),
    ("duration_ms", "duration ms", "ms"),
    ("heap_before_bytes", "heap before MiB", "mib"),
    ("heap_after_bytes", "heap after MiB", "mib"),
    ("heap_capacity_bytes", "heap MiB", "mib"),
)


def _text(value: object, kind: str) -> str:
    if value is None:
        return ""
    if kind == "seconds":
        return f"{float(value):,.3f}"  # type: ignore[arg-type]
    if kind == "ms":
        return f"{float(value):,.3f}"  # type: ignore[arg-type]
    if kind == "mib":
        return f"{float(value) / MIB:,.1f}"  # type: ignore[arg-type]
    return str(value)


def events_page(
    label: str,
    events: pl.DataFrame,
    *,
    offset: int,
    limit: int,
    href: str,
    csv_href: str,
    generated_at: str = "",
) -> Page:
    """Rows offset..offset+limit of `events`; `href` is the page's own address (offset and limit are added
    to it), `csv_href` the whole table's."""
    from jvmlab import __version__

    total = events.height
    shown = [(name, title, kind) for name, title, kind in COLUMNS if name in events.columns]
    rows = events.slice(offset, limit).select([name for name, _, _ in shown]).rows()
    table = Table(
        tuple(Column(title, numeric=kind != "text") for _, title, kind in shown),
        tuple(
            tuple(Cell(_text(v, kind)) for v, (_, _, kind) in zip(row, shown, strict=True)) for row in rows
        ),
        caption=f"events {offset + 1:,}-{offset + len(rows):,} of {total:,}"
        if rows
        else f"no events here ({total:,} in all)",
    )
    links = []
    if offset > 0:
        links.append(("previous page", f"{href}?offset={max(0, offset - limit)}&limit={limit}"))
    if offset + limit < total:
        links.append(("next page", f"{href}?offset={offset + limit}&limit={limit}"))
    links.append(("the whole table (CSV)", csv_href))
    return Page(
        title=f"GC events: {label}",
        subtitle=f"{total:,} events: pauses, concurrent phases, safepoints",
        sections=(
            Section(
                "events",
                "Events",
                (
                    Text(
                        ("One row per pause, concurrent phase or safepoint, as the log printed it.",),
                        tone="note",
                    ),
                    table,
                    Links(tuple(links)),
                ),
            ),
        ),
        generated_by=f"jvmlab {__version__}",
        generated_at=generated_at,
    )
