"""The event table as a polars DataFrame, from the native parser's columns (docs/event-table.md)."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

_NULL_I64 = np.iinfo(np.int64).min
CATEGORICAL = ("collector", "category", "kind", "phase", "cause")
COLUMN_ORDER = (
    "uptime_s", "wall_time", "gc_id", "collector", "category", "kind", "phase", "cause", "pause_ms",
    "duration_ms", "ttsp_ms", "user_ms", "sys_ms", "real_ms", "heap_before_bytes", "heap_after_bytes",
    "heap_capacity_bytes", "young_before_bytes", "young_after_bytes", "young_capacity_bytes",
    "old_before_bytes", "old_after_bytes", "old_capacity_bytes", "metaspace_before_bytes",
    "metaspace_after_bytes", "metaspace_capacity_bytes", "loa_before_bytes", "loa_after_bytes",
    "loa_capacity_bytes", "request_bytes", "source",
)  # fmt: skip


def _categorical(codes: np.ndarray, values: list[str]) -> pl.Series:
    """Code 0 is null; code k is values[k - 1]. Gathers from the k + 1 categories, so no string is built per
    row: the result's only copy is its u32 category ids."""
    lookup = pl.Series([None, *values], dtype=pl.String).cast(pl.Categorical)
    return lookup.gather(pl.Series(codes, dtype=pl.UInt32))


def _nulls(name: str, arr: np.ndarray) -> tuple[np.ndarray, pl.DataType] | None:
    """(null mask, polars type) of a column with nulls in the native encoding; None for one without."""
    if name in CATEGORICAL:
        return arr == 0, pl.Categorical()
    if name == "wall_ms":
        return arr == _NULL_I64, pl.Datetime("ms", "UTC")
    if arr.dtype == np.float64:
        return np.isnan(arr), pl.Float64()
    if arr.dtype == np.int64:
        return arr == _NULL_I64, pl.Int64()
    return None


def _column(name: str, arr: np.ndarray, categories: dict[str, list[str]]) -> pl.Series:
    """One column with at least one value. Values are shared with `arr` where polars allows (no nulls, or
    floats); otherwise the copy that setting nulls makes is the only one."""
    nullable = _nulls(name, arr)
    if nullable is None:
        return pl.Series(name, arr)
    nulls, dtype = nullable
    if name in CATEGORICAL:
        return _categorical(arr, categories[name]).alias(name)
    if dtype == pl.Float64:
        return pl.Series(name, arr, nan_to_null=True)  # shares arr's values, adds a validity mask
    series = pl.Series(name, arr)
    return (series.set(pl.Series(nulls), None) if nulls.any() else series).cast(dtype)


def _without_values(cols: dict[str, np.ndarray]) -> dict[str, pl.DataType]:
    """The columns that are null in every row, with their polars types."""
    empty = {}
    for name, arr in cols.items():
        nullable = _nulls(name, arr)
        if nullable is not None and len(arr) and nullable[0].all():
            empty[name] = nullable[1]
    return empty


def to_frame(raw: dict[str, Any]) -> pl.DataFrame:
    """Builds the polars event table from the native module's columns.

    Consumes `raw["columns"]`: each array is dropped as soon as its Series exists, so the native arrays and
    the copies some conversions make never coexist in full. Columns without a value are dropped first and
    become null Series whose buffers are never written (no resident memory): that makes room for polars'
    own start-up (about 20 MB) and the copies. Categoricals go last, for the same reason.
    """
    cols, cats = raw["columns"], raw["categories"]
    rows = len(next(iter(cols.values()), ()))
    empty = _without_values(cols)
    for name in empty:
        del cols[name]
    data = {name: pl.Series(name, dtype=dtype).clear(rows) for name, dtype in empty.items()}
    for name in sorted(cols, key=lambda name: name in CATEGORICAL):
        data[name] = _column(name, cols.pop(name), cats)
    data["wall_time"] = data.pop("wall_ms")
    return pl.DataFrame([data.pop(c).alias(c) for c in COLUMN_ORDER])
