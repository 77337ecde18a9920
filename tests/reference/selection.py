"""Row selections over the event table (docs/event-table.md) shared by the metrics.

Every metric takes `Events`: an event table, or an `EventSets` around one. `summarize` builds one `EventSets`
and passes it to every metric, so what several figures share (row masks, the first start of each GC id) is
computed once. Metrics take only the columns they need, filtered with a mask, never a copy of the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TypeAlias

import numpy as np
import polars as pl

from jvmlab.metrics.windows import RunWindow

PAUSE = "pause"
CONCURRENT = "concurrent"
CYCLE = "cycle"
SAFEPOINT = "safepoint"
BLOCK_ROWS = 1 << 15


@dataclass(frozen=True)
class GcStarts:
    """How many distinct GC ids, and the earliest start (uptime s) of each that has one, ascending."""

    count: int
    sorted_times_s: np.ndarray


def first_starts(ids: np.ndarray, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct ids ascending, the smallest of `times` of each; NaN where all are NaN) of rows (id, time)."""
    dense = _first_starts_by_id(ids, times)
    if dense is None:
        return _first_starts_by_sorting(ids, times)
    lowest, seen, starts = dense
    present = np.flatnonzero(seen)
    return present + lowest, starts[present]


def _first_starts_by_id(ids: np.ndarray, times: np.ndarray) -> tuple[int, np.ndarray, np.ndarray] | None:
    """(lowest id, seen, starts) indexed by id - lowest; None when the ids are too sparse for that. Ids in
    order of appearance are about 0..n, so this takes an array of n rather than a sort of the rows."""
    if len(ids) == 0:
        return None
    lowest, highest = int(ids.min()), int(ids.max())
    if highest - lowest >= 2 * len(ids) + 1024:
        return None
    index = ids if lowest == 0 else ids - lowest
    seen = np.zeros(highest - lowest + 1, dtype=bool)
    seen[index] = True
    starts = np.full(highest - lowest + 1, np.nan)
    np.fmin.at(starts, index, times)  # fmin skips NaN: NaN stays only where every time is NaN
    return lowest, seen, starts


def _first_starts_by_sorting(ids: np.ndarray, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(ids, kind="stable")
    ids, times = ids[order], times[order]
    del order
    new_id = np.empty(len(ids), dtype=bool)
    new_id[:1] = True
    np.not_equal(ids[1:], ids[:-1], out=new_id[1:])
    first = np.flatnonzero(new_id)
    del new_id
    starts = np.fmin.reduceat(times, first) if len(first) else np.empty(0)
    return ids[first], starts.astype(np.float64, copy=False)


class EventSets:
    """An event table, optionally restricted to the rows of `within`, and its row selections, each computed
    on first use and then kept. Masks are boolean Series over the whole table (null never selects)."""

    def __init__(self, events: pl.DataFrame, within: pl.Expr | None = None) -> None:
        self.events = events
        self._within = None if within is None else self._evaluate(within)
        self._masks: dict[tuple[str, ...], pl.Series | None] = {}

    @staticmethod
    def of(events: Events) -> EventSets:
        return events if isinstance(events, EventSets) else EventSets(events)

    def _evaluate(self, predicate: pl.Expr) -> pl.Series:
        return self.events.select(predicate.fill_null(False)).to_series()

    def _restricted(self, key: tuple[str, ...], predicate: pl.Expr) -> pl.Series | None:
        """The cached mask of `predicate` and `within`; None when it selects every row (no filter needed)."""
        if key not in self._masks:
            mask = self._evaluate(predicate)
            mask = mask if self._within is None else mask & self._within
            self._masks[key] = None if mask.all() else mask
        return self._masks[key]

    @property
    def all_rows(self) -> pl.Series | None:
        return self._within

    @property
    def height(self) -> int:
        return self.events.height if self._within is None else int(self._within.sum())

    def of_category(self, category: str) -> pl.Series | None:
        return self._restricted(("category", category), pl.col("category") == category)

    def of_kind(self, kind: str) -> pl.Series | None:
        return self._restricted(("kind", kind), pl.col("kind") == kind)

    def pauses(self, kinds: Iterable[str] | None = None) -> pl.Series | None:
        """Stop-the-world GC pauses (category "pause"), optionally only of the given kinds."""
        if kinds is None:
            return self.of_category(PAUSE)
        kinds = tuple(kinds)
        predicate = (pl.col("category") == PAUSE) & pl.col("kind").is_in(list(kinds))
        return self._restricted(("pauses", *kinds), predicate)

    @property
    def gc_rows(self) -> pl.Series | None:
        """Every row that belongs to a collection: all but safepoints."""
        return self._restricted(("gc",), pl.col("category") != SAFEPOINT)

    def gc_rows_of_kinds(self, kinds: Iterable[str]) -> pl.Series | None:
        kinds = tuple(kinds)
        predicate = (pl.col("category") != SAFEPOINT) & pl.col("kind").is_in(list(kinds))
        return self._restricted(("gc-kinds", *kinds), predicate)

    def where(self, mask: pl.Series | None, predicate: pl.Expr) -> pl.Series | None:
        """The rows of `mask` (None: every row) for which `predicate` holds, as a mask (not kept)."""
        selected = self._evaluate(predicate)
        selected = selected if mask is None else mask & selected
        return None if selected.all() else selected

    def count(self, mask: pl.Series | None) -> int:
        return self.height if mask is None else int(mask.sum())

    def rows(self, mask: pl.Series | None, *columns: str) -> pl.DataFrame:
        """The given columns of the rows of `mask` (None: every row), in table order."""
        frame = self.events.select(columns)
        return frame if mask is None else frame.filter(mask)

    def blocks(self, mask: pl.Series | None, *columns: str) -> Iterator[pl.DataFrame]:
        """The given columns of the rows of `mask`, one block of the table at a time, in table order: for
        figures that can be summed up as they go, with no temporary as long as the table."""
        frame = self.events.select(columns)
        for start in range(0, frame.height, BLOCK_ROWS):
            block = frame.slice(start, BLOCK_ROWS)
            yield block if mask is None else block.filter(mask.slice(start, BLOCK_ROWS))

    def derived(self, mask: pl.Series | None, *exprs: pl.Expr) -> pl.DataFrame:
        """Expressions over the rows of `mask`, evaluated a block at a time after filtering (a chunk per
        block), so no temporary is as long as the table."""
        names = sorted({name for expr in exprs for name in expr.meta.root_names()})
        pieces = [block.select(exprs) for block in self.blocks(mask, *names)]
        return pl.concat(pieces, rechunk=False) if pieces else self.events.clear().select(exprs)

    def values(self, mask: pl.Series | None, name: str, out: np.ndarray | None = None) -> np.ndarray:
        """A float column at the rows of `mask` (which must all have a value), as a new numpy array (`out`
        when given). Read in place from the column and copied a block at a time: the result is the only
        allocation as long as the rows."""
        column = self.events.get_column(name).to_numpy()  # a view when the column has no null
        selected = None if mask is None else mask.to_numpy()
        out = np.empty(self.count(mask)) if out is None else out
        filled = 0
        for start in range(0, len(column), BLOCK_ROWS):
            block = column[start : start + BLOCK_ROWS]
            if selected is not None:
                block = block[selected[start : start + BLOCK_ROWS]]
            out[filled : filled + len(block)] = block
            filled += len(block)
        return out

    def column(self, mask: pl.Series | None, name: str) -> pl.Series:
        """One column of the rows of `mask`, in one chunk: a one-column frame's filter may split it in
        parallel pieces, and polars' float sum over pieces rounds differently."""
        series = self.events.get_column(name)
        return series if mask is None else series.filter(mask).rechunk()

    def maxima(self, mask: pl.Series | None, columns: Iterable[str]) -> dict[str, int | None]:
        """The largest value of each integer column over the rows of `mask`, one column filtered at a time."""
        selected = [pl.col(c) if mask is None else pl.col(c).filter(pl.lit(mask)) for c in columns]
        row = self.events.select([s.max() for s in selected]).row(0, named=True)
        return {c: None if v is None else int(v) for c, v in row.items()}

    def gc_id_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """(gc_id, uptime_s, null as NaN) of the rows of `gc_rows` with a GC id."""
        rows = self.rows(self.gc_rows, "gc_id", "uptime_s")
        if rows.get_column("gc_id").null_count():
            rows = rows.filter(pl.col("gc_id").is_not_null())
        return rows.get_column("gc_id").to_numpy(), rows.get_column("uptime_s").to_numpy()

    @cached_property
    def gc_starts(self) -> GcStarts:
        """Distinct non-null GC ids over the rows of `gc_rows`, and their first starts."""
        ids, times = self.gc_id_rows()
        dense = _first_starts_by_id(ids, times)
        if dense is None:
            ids, starts = _first_starts_by_sorting(ids, times)
            count = len(ids)
        else:
            _, seen, starts = dense  # NaN where not seen
            count = int(seen.sum())
        existing = len(starts) - int(np.count_nonzero(np.isnan(starts)))
        starts.sort()  # in place, NaN last: the times that exist come first
        return GcStarts(count=count, sorted_times_s=starts[:existing])


Events: TypeAlias = pl.DataFrame | EventSets


def without_nulls(rows: pl.DataFrame) -> pl.DataFrame:
    """`rows` without the rows that have a null; no copy when there is none."""
    return rows.drop_nulls() if any(rows.null_count().row(0)) else rows


def increasing(times: np.ndarray, *, strictly: bool) -> bool:
    return bool((times[1:] > times[:-1] if strictly else times[1:] >= times[:-1]).all())


def time_ordered(rows: pl.DataFrame, *, stable: bool) -> pl.DataFrame:
    """`rows` (without null `uptime_s`) sorted by `uptime_s`, stable or not as asked. No sort runs when the
    times already increase (strictly, for an unstable sort): the order is then the only one either sort gives.
    """
    if increasing(rows.get_column("uptime_s").to_numpy(), strictly=not stable):
        return rows
    return rows.sort("uptime_s", maintain_order=stable)


def gc_first_starts(events: Events) -> pl.DataFrame:
    """One row per distinct GC id: `gc_id` and `start_s`, the earliest start of any of its rows, time-ordered.

    A GC id without any time-stamped row has `start_s` null and sorts last; equal starts sort by GC id.
    """
    ids, starts = first_starts(*EventSets.of(events).gc_id_rows())
    order = np.argsort(starts, kind="stable")  # NaN sorts last
    return pl.DataFrame(
        [
            pl.Series("gc_id", ids[order], dtype=pl.Int64),
            pl.Series("start_s", starts[order], dtype=pl.Float64, nan_to_null=True),
        ]
    )


def within(window: RunWindow) -> pl.Expr | None:
    """Rows that start inside a narrowed window (a null start is outside); None for the whole log."""
    if not window.narrowed:
        return None
    return pl.col("uptime_s").is_between(window.start_s, window.end_s, closed="both")


def events_in(events: pl.DataFrame, window: RunWindow) -> pl.DataFrame:
    """Events that start inside a narrowed window; all events when the window is the whole log."""
    predicate = within(window)
    return events if predicate is None else events.filter(predicate)
