"""Shared selections (EventSets): the shortcuts taken for time-ordered logs, the block-wise sweeps and the
narrowed-window mask give exactly the figures of the plain definitions (sort, then compute, on a copy)."""

import numpy as np
import polars as pl
import pytest
from metrics_frames import concurrent, cycle, frame, pause, safepoint
from reference import allocation, pauses, rates, selection
from reference.allocation import allocation_figures
from reference.causes import full_gc_causes
from reference.concurrent import cycle_stats
from reference.heap import heap_figures
from reference.pauses import pause_stats, pause_time_per_minute
from reference.rates import gc_interval_mean_s, gc_rates, sliding_max
from reference.safepoints import safepoint_stats
from reference.selection import EventSets, events_in, first_starts, gc_first_starts, within
from reference.summary import counts_by_kind

from jvmlab.metrics.windows import RunWindow, narrow

MIB = 1024 * 1024
WHOLE = RunWindow(start_s=0.0, end_s=400.0, from_jvm_start=True)


def random_events(seed: int, *, time_ordered: bool, ties: bool = True) -> pl.DataFrame:
    """A table with every category, missing times and heap figures, GC ids out of order (sparse for odd
    seeds), and (`ties`) events that start at the same time."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(300):
        t = float(rng.uniform(0, 400))
        t = round(t) if ties and rng.random() < 0.3 else t
        t = None if rng.random() < 0.03 else t
        gc_id = int(rng.integers(0, 120))
        heap = {}
        if rng.random() < 0.9:
            before = int(rng.integers(50, 200)) * MIB
            heap = {"heap_before_bytes": before, "heap_after_bytes": before - int(rng.integers(0, 50)) * MIB}
            heap |= {"young_before_bytes": 40 * MIB, "young_after_bytes": int(rng.integers(0, 10)) * MIB}
        roll = rng.random()
        if roll < 0.6:
            kind = str(rng.choice(["young", "young", "mixed", "full", "remark", "degenerated"]))
            rows.append(
                pause(t, gc_id, kind, float(rng.uniform(0.1, 90)), cause="Allocation Failure", **heap)
            )
        elif roll < 0.8:
            rows.append(concurrent(t, gc_id, "concurrent-mark", float(rng.uniform(1, 500)), **heap))
        elif roll < 0.9:
            rows.append(cycle(t, gc_id, "concurrent-cycle", float(rng.uniform(1, 900))))
        else:
            rows.append(safepoint(t, float(rng.uniform(0.01, 5)), float(rng.uniform(0, 1))))
        if seed % 2 and i % 50 == 0:
            rows.append(pause(float(rng.uniform(0, 400)), 10**6 + i, "young", 1.0, **heap))  # sparse ids
    events = frame(*rows)
    return events.sort("uptime_s", nulls_last=True, maintain_order=True) if time_ordered else events


def figures(events: pl.DataFrame | EventSets, window: RunWindow = WHOLE) -> dict[str, object]:
    return {
        "pauses": pause_stats(events),
        "per_minute": pause_time_per_minute(events, window),
        "rates": gc_rates(events, window),
        "interval": gc_interval_mean_s(events),
        "allocation": allocation_figures(events),
        "heap": heap_figures(events),
        "causes": full_gc_causes(events),
        "cycles": cycle_stats(events),
        "safepoints": safepoint_stats(events, window),
        "kinds": counts_by_kind(events),
    }


def without_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every 'already in time order' check fails, GC ids are never dense, blocks are 7 rows."""
    for module in (selection, pauses, rates, allocation):
        monkeypatch.setattr(module, "increasing", lambda times, strictly: False)
    monkeypatch.setattr(selection, "_first_starts_by_id", lambda ids, times: None)
    monkeypatch.setattr(selection, "BLOCK_ROWS", 7)
    monkeypatch.setattr(rates, "SWEEP_BLOCK", 5)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("time_ordered", "ties"), [(True, False), (True, True), (False, True)])
def test_shortcuts_and_blocks_give_the_figures_of_sorting(monkeypatch, seed, time_ordered, ties):
    events = random_events(seed, time_ordered=time_ordered, ties=ties)
    fast = figures(EventSets(events))
    without_shortcuts(monkeypatch)
    assert figures(EventSets(events)) == fast


@pytest.mark.parametrize("seed", range(4))
def test_a_window_mask_gives_the_figures_of_the_filtered_table(seed):
    events = random_events(seed, time_ordered=seed % 2 == 0)
    window = narrow(WHOLE, 50.0, 300.0)
    assert figures(EventSets(events, within(window)), window) == figures(events_in(events, window), window)


@pytest.mark.parametrize("seed", range(5))
def test_first_starts_by_id_and_by_sorting_agree(seed):
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, 500, 2000)
    times = rng.uniform(0, 100, 2000)
    times[rng.random(2000) < 0.2] = np.nan
    by_id = first_starts(ids, times)
    by_sorting = selection._first_starts_by_sorting(ids, times)
    np.testing.assert_array_equal(by_id[0], by_sorting[0])
    np.testing.assert_array_equal(by_id[1], by_sorting[1])  # NaN where a GC id has no time


def test_gc_first_starts_with_sparse_ids_and_ids_without_a_time():
    events = frame(
        pause(5.0, 10**12, "young", 1.0), pause(None, 7, "young", 1.0), pause(2.0, 3, "young", 1.0)
    )
    starts = gc_first_starts(events)
    assert starts.get_column("gc_id").to_list() == [3, 10**12, 7]
    assert starts.get_column("start_s").to_list() == [2.0, 5.0, None]


@pytest.mark.parametrize("seed", range(3))
def test_sliding_max_in_blocks_equals_one_search(seed):
    rng = np.random.default_rng(seed)
    times = np.sort(np.round(rng.uniform(0, 3000, 20_000), 1))  # many ties
    weights = rng.uniform(0, 50, len(times))
    ends = np.searchsorted(times, times + 60.0)
    cumulative = np.concatenate(([0.0], np.cumsum(weights)))
    assert sliding_max(times) == float(np.max(ends - np.arange(len(times))))
    assert sliding_max(times, weights) == float(np.max(cumulative[ends] - cumulative[:-1]))
