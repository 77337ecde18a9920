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
    """Code 0 is null; code k is values[k - 1]."""
    index = pl.Series(codes.astype(np.int64) - 1)
    index = index.set(index < 0, None)
    return pl.Series(values, dtype=pl.String).gather(index).cast(pl.Categorical)


def to_frame(raw: dict[str, Any]) -> pl.DataFrame:
    """Builds the polars event table from the native module's columns."""
    cols = raw["columns"]
    cats = raw["categories"]
    data: dict[str, pl.Series] = {}
    for name, arr in cols.items():
        if name in CATEGORICAL:
            data[name] = _categorical(arr, cats[name]).alias(name)
        elif name == "wall_ms":
            s = pl.Series("wall_time", arr)
            data["wall_time"] = s.set(s == _NULL_I64, None).cast(pl.Datetime("ms", "UTC"))
        elif arr.dtype == np.float64:
            data[name] = pl.Series(name, arr, nan_to_null=True)
        elif arr.dtype == np.int64:
            s = pl.Series(name, arr)
            data[name] = s.set(s == _NULL_I64, None) if (arr == _NULL_I64).any() else s
        else:
            data[name] = pl.Series(name, arr)
    return pl.DataFrame([data[c].alias(c) for c in COLUMN_ORDER])


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
