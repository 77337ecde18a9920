"""The charts of the GC report, from one log's event table (docs/event-table.md).

Everything is computed on columns (polars, numpy): a log of millions of events never becomes Python
objects; only the thinned points of each trace (jvmlab.report.html.charts) and the per-bucket bars do.

- Time is JVM uptime, at the start of each event. Heap "after" values are placed at the event's end
  (start + duration), so the heap line rises between GCs and drops across each.
- Bars count per time bucket: one minute when the run window holds 10 to 720 minutes; shorter or longer
  windows get the nearest width from BUCKET_WIDTHS_S that gives 10 to 720 buckets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from jvmlab.report import units
from jvmlab.report.html.charts import (
    MAX_POINTS,
    Figure,
    Sample,
    Series,
    bar_chart,
    histogram_chart,
    is_thinned,
    line_chart,
    scatter_chart,
)
from jvmlab.report.html.page import Chart

KIND_COLORS = {
    "young": "#4c78a8",
    "mixed": "#f58518",
    "full": "#e45756",
    "degenerated": "#b279a2",
    "initial-mark": "#eeca3b",
    "remark": "#72b7b2",
    "cleanup": "#54a24b",
    "relocate-start": "#9d755d",
    "init-update-refs": "#bab0ac",
    "final-update-refs": "#ff9da6",
    "final-roots": "#9c9ede",
    "final-evac": "#d6616b",
    "pause-other": "#79706e",
}
KIND_ORDER = tuple(KIND_COLORS)
# Each collection (GC id) is drawn as its most important kind, in this order.
COLLECTION_CLASSES = (
    ("full", "full", "#e45756"),
    ("degenerated", "degenerated", "#b279a2"),
    ("mixed", "mixed", "#f58518"),
    ("young", "young", "#4c78a8"),
    ("zgc-major", "ZGC major", "#e45756"),
    ("zgc-minor", "ZGC minor", "#4c78a8"),
    ("zgc-collection", "ZGC collection", "#f58518"),
    ("cycle", "concurrent cycle", "#72b7b2"),
    ("other", "other", "#79706e"),
)
CYCLE_PAUSES = (
    "concurrent-cycle",
    "initial-mark",
    "remark",
    "cleanup",
    "relocate-start",
    "init-update-refs",
    "final-update-refs",
    "final-roots",
    "final-evac",
)
BUCKET_WIDTHS_S = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400)
MIN_BUCKETS, MAX_BUCKETS = 10, 720
BAR_FILL = 0.9  # a bar covers 90 % of its bucket
LOG_SCALE_RATIO = 50  # pause scatter on a log axis when the longest pause exceeds 50 x the median


@dataclass(frozen=True)
class TimeAxis:
    """Uptime shown in s, min or h, by the length of the run window; every time chart of a log spans the
    whole run window, so that charts above one another line up."""

    divisor: float
    title: str
    start_s: float
    end_s: float

    def of(self, seconds: np.ndarray) -> np.ndarray:
        return seconds / self.divisor

    def apply(self, figure: Figure) -> Figure:
        figure["layout"]["xaxis"]["range"] = [self.start_s / self.divisor, self.end_s / self.divisor]
        return figure


def time_axis(start_s: float, end_s: float) -> TimeAxis:
    d = end_s - start_s
    if d < 1200:
        return TimeAxis(1.0, "uptime (s)", start_s, end_s)
    if d < 2 * 86400:
        return TimeAxis(60.0, "uptime (min)", start_s, end_s)
    return TimeAxis(3600.0, "uptime (h)", start_s, end_s)


@dataclass(frozen=True)
class Buckets:
    """Time buckets [origin + i x width, origin + (i + 1) x width) covering the run window."""

    origin_s: float
    width_s: float
    count: int

    @property
    def label(self) -> str:
        """ "minute", "10 s", "5 min", "1 h"."""
        w = self.width_s
        if w == 60:
            return "minute"
        if w < 60:
            return f"{w:g} s"
        return f"{w / 60:g} min" if w < 3600 else f"{w / 3600:g} h"

    def index(self, uptime_s: pl.Expr) -> pl.Expr:
        i = ((uptime_s - self.origin_s) / self.width_s).floor().cast(pl.Int64)
        return i.clip(0, self.count - 1)

    @property
    def end_s(self) -> float:
        return self.origin_s + self.count * self.width_s

    def centers(self, index: np.ndarray, axis: TimeAxis) -> np.ndarray:
        return axis.of(self.origin_s + (index + 0.5) * self.width_s)

    def bar_width(self, axis: TimeAxis) -> float:
        return BAR_FILL * self.width_s / axis.divisor


def bucket_width_s(duration_s: float) -> float:
    """60 s when that gives MIN_BUCKETS..MAX_BUCKETS buckets, else the width of BUCKET_WIDTHS_S nearest to a
    minute that does (the first or last width when none does)."""
    fits = [w for w in BUCKET_WIDTHS_S if MIN_BUCKETS <= duration_s / w <= MAX_BUCKETS]
    if fits:
        return float(min(fits, key=lambda w: abs(math.log(w / 60))))
    return float(BUCKET_WIDTHS_S[0] if duration_s / BUCKET_WIDTHS_S[0] < MIN_BUCKETS else BUCKET_WIDTHS_S[-1])


def buckets_for(start_s: float, end_s: float) -> Buckets:
    width = bucket_width_s(end_s - start_s)
    return Buckets(start_s, width, max(1, math.ceil((end_s - start_s) / width)))


def _kind_order(kinds: Sequence[str]) -> list[str]:
    known = [k for k in KIND_ORDER if k in kinds]
    return known + sorted(k for k in kinds if k not in KIND_ORDER)


def _timed(events: pl.DataFrame) -> pl.DataFrame:
    return events.filter(pl.col("uptime_s").is_not_null())


def pauses(events: pl.DataFrame) -> pl.DataFrame:
    """The time-stamped pause rows, with `kind` as a string, in time order."""
    return (
        _timed(events)
        .filter(pl.col("category") == "pause")
        .with_columns(pl.col("kind").cast(pl.String))
        .sort("uptime_s", maintain_order=True)
    )


def _thinned_note(series: Sequence[Series]) -> str:
    if not is_thinned(series):
        return ""
    return (
        f" Traces with more than {MAX_POINTS:,} points are thinned: of each run of consecutive points the "
        "first, the lowest and the highest are drawn, so every peak is shown."
    )


def pause_scatter(events: pl.DataFrame, axis: TimeAxis, id: str) -> Chart | None:
    """Each stop-the-world pause at its start time, one trace per kind; hover shows its phase and cause."""
    rows = pauses(events)
    if rows.is_empty():
        return None
    hover = pl.concat_str(
        [pl.col("phase").cast(pl.String), pl.lit(" · "), pl.col("cause").cast(pl.String)], ignore_nulls=True
    ).fill_null("")
    series = []
    for kind in _kind_order(rows.get_column("kind").unique().to_list()):
        part = rows.filter(pl.col("kind") == kind)
        series.append(
            Series(
                kind,
                axis.of(part.get_column("uptime_s").to_numpy()),
                part.get_column("pause_ms").to_numpy(),
                color=KIND_COLORS.get(kind),
                text=part.select(hover).to_series(),
            )
        )
    ms = rows.get_column("pause_ms")
    median = ms.median()
    log_y = bool(median and median > 0 and (ms.max() or 0) > LOG_SCALE_RATIO * median)  # type: ignore[operator]
    y_title = "pause (ms, log scale)" if log_y else "pause (ms)"
    figure = axis.apply(scatter_chart(series, axis.title, y_title, y_log=log_y))
    caption = f"One point per pause ({rows.height:,} pauses)." + _thinned_note(series)
    return Chart(id, "Pauses over time", figure, caption)


def pause_histogram(events: pl.DataFrame, id: str) -> Chart | None:
    """How many pauses fall in each duration bin (1-2-5 bins: three per decade), stacked by kind."""
    rows = pauses(events)
    if rows.is_empty():
        return None
    samples = [
        Sample(
            kind, rows.filter(pl.col("kind") == kind).get_column("pause_ms").to_numpy(), KIND_COLORS.get(kind)
        )
        for kind in _kind_order(rows.get_column("kind").unique().to_list())
    ]
    figure = histogram_chart(samples, "pause (ms), bins on a 1-2-5 scale", "pauses")
    caption = "Bins widen tenfold every three bins, so short and long pauses both show."
    return Chart(id, "Pause durations", figure, caption)


def collections(events: pl.DataFrame) -> pl.DataFrame:
    """One row per collection (distinct GC id, safepoints excluded): its first start and its class, the
    most important kind among its rows (COLLECTION_CLASSES)."""
    rank = {key: i for i, (key, _, _) in enumerate(COLLECTION_CLASSES)}
    kind = pl.col("kind").cast(pl.String)
    key = (
        pl.when(kind.is_in(list(rank)))
        .then(kind)
        .when(kind.is_in(list(CYCLE_PAUSES)) | kind.str.starts_with("concurrent-"))
        .then(pl.lit("cycle"))
        .otherwise(pl.lit("other"))
    )
    return (
        _timed(events)
        .filter((pl.col("category") != "safepoint") & pl.col("gc_id").is_not_null())
        .select("gc_id", "uptime_s", key.replace_strict(rank, return_dtype=pl.Int32).alias("rank"))
        .group_by("gc_id")
        .agg(pl.col("uptime_s").min(), pl.col("rank").min())
    )


def gcs_per_bucket(events: pl.DataFrame, buckets: Buckets, axis: TimeAxis, id: str) -> Chart | None:
    """Collections starting in each time bucket, stacked by class (young, mixed, full, ...)."""
    gcs = collections(events)
    if gcs.is_empty():
        return None
    counts = gcs.group_by("rank", buckets.index(pl.col("uptime_s")).alias("bucket")).len().sort("bucket")
    series = []
    for rank, (_, label, color) in enumerate(COLLECTION_CLASSES):
        part = counts.filter(pl.col("rank") == rank)
        if not part.is_empty():
            x = buckets.centers(part.get_column("bucket").to_numpy(), axis)
            series.append(Series(label, x, part.get_column("len").to_numpy(), color=color))
    per = buckets.label
    figure = axis.apply(bar_chart(series, axis.title, f"GCs per {per}", bar_width=buckets.bar_width(axis)))
    caption = (
        f"Collections (distinct GC ids, {gcs.height:,} in all) by the {per} they start in; a collection "
        "counts as its most important kind (a young GC that turns into a full GC counts as full)."
    )
    return Chart(id, f"GCs per {per} by kind", figure, caption)


def pause_time_per_bucket(events: pl.DataFrame, buckets: Buckets, axis: TimeAxis, id: str) -> Chart | None:
    """Milliseconds of stop-the-world pause starting in each time bucket, stacked by pause kind."""
    rows = pauses(events)
    if rows.is_empty():
        return None
    sums = rows.group_by("kind", buckets.index(pl.col("uptime_s")).alias("bucket")).agg(
        pl.col("pause_ms").sum()
    )
    series = []
    for kind in _kind_order(sums.get_column("kind").unique().to_list()):
        part = sums.filter(pl.col("kind") == kind).sort("bucket")
        x = buckets.centers(part.get_column("bucket").to_numpy(), axis)
        series.append(Series(kind, x, part.get_column("pause_ms").to_numpy(), color=KIND_COLORS.get(kind)))
    per = buckets.label
    y_title = f"pause time (ms per {per})"
    figure = axis.apply(bar_chart(series, axis.title, y_title, bar_width=buckets.bar_width(axis)))
    percent = f"{buckets.width_s * 10:g} ms per {per} is 1 % of the time."
    return Chart(
        id, f"Pause time per {per}", figure, f"Stop-the-world time by the {per} pauses start in; {percent}"
    )


@dataclass(frozen=True)
class SizeUnit:
    divisor: float
    name: str


def size_unit(max_bytes: float) -> SizeUnit:
    """GiB from 10 GiB, KiB below 10 MiB, else MiB (as units.size, with KiB for small metaspaces)."""
    if max_bytes >= 10 * units.GIB:
        return SizeUnit(units.GIB, "GiB")
    return SizeUnit(units.MIB, "MiB") if max_bytes >= 10 * units.MIB else SizeUnit(units.KIB, "KiB")


def _memory_rows(events: pl.DataFrame, after: str) -> pl.DataFrame:
    """Rows with a size after the event, with `end_s` = start + duration."""
    end = pl.col("uptime_s") + pl.col("duration_ms").fill_null(0.0) / 1000.0
    return (
        _timed(events).filter(pl.col(after).is_not_null()).with_columns(end.alias("end_s")).sort("uptime_s")
    )


def _column_max(rows: pl.DataFrame, names: Sequence[str]) -> float:
    values = [rows.get_column(n).max() for n in names]
    return float(max((v for v in values if v is not None), default=0))  # type: ignore[arg-type]


def sawtooth(rows: pl.DataFrame, before: str, after: str) -> tuple[np.ndarray, np.ndarray]:
    """(time, size) of the used line: the size before each event at its start and after it at its end,
    in time order."""
    has_before = rows.get_column(before).is_not_null().to_numpy()
    start = rows.get_column("uptime_s").to_numpy()[has_before]
    sizes_before = rows.get_column(before).to_numpy()[has_before]
    x = np.concatenate([start, rows.get_column("end_s").to_numpy()])
    y = np.concatenate([sizes_before, rows.get_column(after).to_numpy()]).astype(float)
    order = np.argsort(x, kind="stable")
    return x[order], y[order]


def _line(rows: pl.DataFrame, column: str, x_column: str) -> tuple[np.ndarray, np.ndarray]:
    part = rows.filter(pl.col(column).is_not_null())
    return part.get_column(x_column).to_numpy(), part.get_column(column).to_numpy().astype(float)


def heap_chart(events: pl.DataFrame, axis: TimeAxis, id: str) -> Chart | None:
    """Heap used before/after each GC (a saw-tooth), the heap's capacity, old generation after GC and
    (hidden until clicked) young generation before GC, where the log prints them."""
    rows = _memory_rows(events, "heap_after_bytes")
    if rows.is_empty():
        return None
    unit = size_unit(_column_max(rows, ("heap_before_bytes", "heap_capacity_bytes")))
    x, y = sawtooth(rows, "heap_before_bytes", "heap_after_bytes")
    series = [Series("heap used (before → after GC)", axis.of(x), y / unit.divisor, color="#4c78a8")]
    for column, name, color, x_column, shape, visible in (
        ("heap_capacity_bytes", "heap capacity", "#59636e", "end_s", "hv", True),
        ("old_after_bytes", "old gen after GC", "#e45756", "end_s", "linear", True),
        ("young_before_bytes", "young gen before GC", "#54a24b", "uptime_s", "linear", False),
    ):
        lx, ly = _line(rows, column, x_column)
        if len(lx):
            dash = "dot" if column == "heap_capacity_bytes" else "solid"
            series.append(
                Series(name, axis.of(lx), ly / unit.divisor, color, shape=shape, dash=dash, visible=visible)
            )
    figure = axis.apply(line_chart(series, axis.title, f"heap ({unit.name})"))
    caption = (
        "Used heap at the start of each GC and at its end; capacity as printed; old generation after GC "
        "shows what survives (its floor after full GCs approximates the live set)."
    ) + _thinned_note(series)
    return Chart(id, "Heap", figure, caption)


def metaspace_chart(events: pl.DataFrame, axis: TimeAxis, id: str) -> Chart | None:
    """Metaspace (PermGen before JDK 8) used after GC and its capacity, where the log prints them."""
    rows = _memory_rows(events, "metaspace_after_bytes")
    if rows.is_empty():
        return None
    unit = size_unit(_column_max(rows, ("metaspace_after_bytes", "metaspace_capacity_bytes")))
    x, y = _line(rows, "metaspace_after_bytes", "end_s")
    series = [Series("metaspace used after GC", axis.of(x), y / unit.divisor, "#b279a2")]
    cx, cy = _line(rows, "metaspace_capacity_bytes", "end_s")
    if len(cx):
        series.append(
            Series("metaspace capacity", axis.of(cx), cy / unit.divisor, "#59636e", shape="hv", dash="dot")
        )
    figure = axis.apply(line_chart(series, axis.title, f"metaspace ({unit.name})"))
    caption = (
        "Capacity is what the log prints: committed on JDK 17 and later, reserved before."
        + _thinned_note(series)
    )
    return Chart(id, "Metaspace", figure, caption)
