"""`GcLog`: the event table of one log (one file or a rotated set), its diagnostics and format."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from jvmlab import _native
from jvmlab.errors import InputError, StrictModeError
from jvmlab.gclog import sniff
from jvmlab.gclog.sources import Source

if TYPE_CHECKING:
    from jvmlab.metrics.summary import GcSummary

_NULL_I64 = np.iinfo(np.int64).min
CATEGORICAL = ("collector", "category", "kind", "phase", "cause")
COLUMN_ORDER = (
    "uptime_s", "wall_time", "gc_id", "collector", "category", "kind", "phase", "cause", "pause_ms",
    "duration_ms", "ttsp_ms", "heap_before_bytes", "heap_after_bytes", "heap_capacity_bytes",
    "young_before_bytes", "young_after_bytes", "young_capacity_bytes", "old_before_bytes",
    "old_after_bytes", "old_capacity_bytes", "metaspace_before_bytes", "metaspace_after_bytes",
    "metaspace_capacity_bytes", "source",
)  # fmt: skip


@dataclass(frozen=True)
class GcLog:
    """A parsed GC log. `events` is documented in docs/event-table.md."""

    sources: tuple[Source, ...]
    events: pl.DataFrame
    diagnostics: dict[str, Any]
    format: dict[str, Any]
    label: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.label or str(self.sources[0])

    def summary(self, **kwargs: Any) -> GcSummary:
        from jvmlab.metrics.summary import summarize

        return summarize(self, **kwargs)


def _categorical(codes: np.ndarray, values: list[str]) -> pl.Series:
    """Code 0 is null; code k is values[k - 1]. Gathers from the k + 1 categories, so no string is built per
    row: the result's only copy is its u32 category ids."""
    lookup = pl.Series([None, *values], dtype=pl.String).cast(pl.Categorical)
    return lookup.gather(pl.Series(codes, dtype=pl.UInt32))


def _int64(name: str, arr: np.ndarray) -> pl.Series:
    """The sentinel (minimum int64) as null. Without one the Series shares `arr`'s memory; with one, a numpy
    mask (1 byte a row) marks the rows and `set` makes the one copy that cannot be avoided."""
    series = pl.Series(name, arr)
    nulls = arr == _NULL_I64
    return series.set(pl.Series(nulls), None) if nulls.any() else series


def _column(name: str, arr: np.ndarray, categories: dict[str, list[str]]) -> pl.Series:
    if name in CATEGORICAL:
        return _categorical(arr, categories[name])
    if name == "wall_ms":
        return _int64(name, arr).cast(pl.Datetime("ms", "UTC"))
    if arr.dtype == np.float64:
        return pl.Series(name, arr, nan_to_null=True)  # shares arr's values, adds a validity mask
    if arr.dtype == np.int64:
        return _int64(name, arr)
    return pl.Series(name, arr)


def to_frame(raw: dict[str, Any]) -> pl.DataFrame:
    """Builds the polars event table from the native module's columns.

    Consumes `raw["columns"]`: each array is popped as soon as its Series exists, so the native arrays and
    the copies some conversions make never coexist in full (peak: the table plus one column).
    """
    cols, cats = raw["columns"], raw["categories"]
    data: dict[str, pl.Series] = {}
    for name in list(cols):
        series = _column(name, cols.pop(name), cats)
        data["wall_time" if name == "wall_ms" else name] = series
    return pl.DataFrame([data.pop(c).alias(c) for c in COLUMN_ORDER])


def parse(sources: list[Source], *, strict: bool = False, label: str = "") -> GcLog:
    """Parses one log (a file or a rotated set) into a GcLog."""
    for src in sources:
        sniff.check(src)
    try:
        raw = _native.parse_logs([(s.path, s.entry) for s in sources])
    except OSError as e:
        raise InputError(str(sources[0]), str(e).split(": ", 1)[-1]) from None
    diag, fmt = raw["diagnostics"], raw["format"]
    name = str(sources[0]) if len(sources) == 1 else f"{sources[0]} (+{len(sources) - 1} rotated)"
    if fmt["generation"] == "unknown" and len(raw["columns"]["uptime_s"]) == 0:
        raise InputError(
            name,
            "no GC log lines found (expected JDK 9+ -Xlog:gc output or JDK 8 -XX:+PrintGCDetails output)",
        )
    if strict and diag["lines_unknown"]:
        sample = diag["unknown_samples"][0] if diag["unknown_samples"] else ""
        raise StrictModeError(f"{name}: {diag['lines_unknown']} unknown lines (--strict), first: {sample!r}")
    return GcLog(tuple(sources), to_frame(raw), diag, fmt, label=label or name)
