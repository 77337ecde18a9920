"""The event table written as CSV or Parquet for other tools (columns: docs/event-table.md).

Categorical columns are written as plain strings, wall-clock times as ISO 8601 UTC
("2024-05-01T12:00:00.123Z").
"""

from __future__ import annotations

import io
from typing import IO

import polars as pl

from jvmlab.errors import InputError

WALL_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S%.3fZ"
CSV_FLOAT_DECIMALS = 9  # drops binary noise (10.654800000000002) and keeps every digit a log prints
FORMATS = ("csv", "parquet")


def portable(events: pl.DataFrame) -> pl.DataFrame:
    """Categoricals as strings, so that any reader gets the names and not dictionary codes."""
    return events.with_columns(pl.col(pl.Categorical).cast(pl.String))


def for_csv(events: pl.DataFrame) -> pl.DataFrame:
    return portable(events).with_columns(pl.col(pl.Float64).round(CSV_FLOAT_DECIMALS))


def write_events(events: pl.DataFrame, fmt: str, stream: IO[bytes]) -> None:
    """Writes the table as `fmt` ("csv" or "parquet") to a binary stream."""
    if fmt == "csv":
        for_csv(events).write_csv(stream, datetime_format=WALL_TIME_FORMAT)
    elif fmt == "parquet":
        portable(events).write_parquet(stream)
    else:
        raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")


def events_bytes(events: pl.DataFrame, fmt: str) -> bytes:
    """The table as `fmt`, in memory (for stdout, where a closed pipe must surface as BrokenPipeError)."""
    buffer = io.BytesIO()
    write_events(events, fmt, buffer)
    return buffer.getvalue()


def write_events_file(events: pl.DataFrame, fmt: str, path: str) -> None:
    """Writes the table to a file; a file that cannot be written raises InputError naming it."""
    try:
        with open(path, "wb") as stream:
            write_events(events, fmt, stream)
    except OSError as e:
        raise InputError(path, f"cannot write: {e.strerror or e}") from None
