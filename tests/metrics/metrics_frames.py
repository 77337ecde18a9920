"""Synthetic event tables with the columns of docs/event-table.md, for metrics tests with known answers."""

from __future__ import annotations

from typing import Any

import polars as pl

from jvmlab.gclog import GcLog, Source

SCHEMA: dict[str, Any] = {
    "uptime_s": pl.Float64,
    "wall_time": pl.Datetime("ms", "UTC"),
    "gc_id": pl.Int64,
    "collector": pl.Categorical,
    "category": pl.Categorical,
    "kind": pl.Categorical,
    "phase": pl.Categorical,
    "cause": pl.Categorical,
    "pause_ms": pl.Float64,
    "duration_ms": pl.Float64,
    "ttsp_ms": pl.Float64,
    **{
        f"{space}_{what}_bytes": pl.Int64
        for space in ("heap", "young", "old", "metaspace")
        for what in ("before", "after", "capacity")
    },
    "source": pl.Int32,
}


def frame(*rows: dict[str, Any]) -> pl.DataFrame:
    """An event table from rows; missing columns are null (pause_ms 0 outside pauses, as the parser does)."""
    full = [{**{name: None for name in SCHEMA}, "pause_ms": 0.0, "source": 0, **row} for row in rows]
    return pl.DataFrame(full, schema=SCHEMA)


def pause(t: float, gc_id: int, kind: str, ms: float, **extra: Any) -> dict[str, Any]:
    return {
        "uptime_s": t,
        "gc_id": gc_id,
        "category": "pause",
        "kind": kind,
        "pause_ms": ms,
        "duration_ms": ms,
    } | extra


def concurrent(t: float, gc_id: int, kind: str, ms: float, **extra: Any) -> dict[str, Any]:
    return {"uptime_s": t, "gc_id": gc_id, "category": "concurrent", "kind": kind, "duration_ms": ms} | extra


def cycle(t: float, gc_id: int, kind: str, ms: float, **extra: Any) -> dict[str, Any]:
    return {"uptime_s": t, "gc_id": gc_id, "category": "cycle", "kind": kind, "duration_ms": ms} | extra


def safepoint(t: float, ms: float, ttsp_ms: float | None = None) -> dict[str, Any]:
    return {
        "uptime_s": t,
        "category": "safepoint",
        "kind": "safepoint",
        "duration_ms": ms,
        "ttsp_ms": ttsp_ms,
    }


def log_of(events: pl.DataFrame, **fmt: Any) -> GcLog:
    """A GcLog around a synthetic table; `fmt` overrides the format (default: JVM start seen, 0..last)."""
    times = events.get_column("uptime_s").drop_nulls()
    last = float(times.max()) if len(times) else None  # type: ignore[arg-type]
    base = {
        "generation": "unified",
        "collector": "G1",
        "decorators": ["uptime", "level", "tags"],
        "jdk_version": "21.0.1",
        "region_size_bytes": None,
        "first_time_s": float(times.min()) if len(times) else None,  # type: ignore[arg-type]
        "last_time_s": last,
        "jvm_start_seen": True,
        "uptime_from_wall_clock": False,
        "gc_ids": "log",
    }
    diagnostics = {
        "lines_total": events.height,
        "lines_matched": events.height,
        "lines_ignored": 0,
        "lines_unknown": 0,
        "lines_unknown_gc": 0,
        "unknown_samples": [],
        "time_backwards": 0,
        "time_backwards_samples": [],
        "warnings": [],
        "bytes_read": 0,
        "truncated": False,
    }
    return GcLog((Source("synthetic.log"),), events, diagnostics, base | fmt)
