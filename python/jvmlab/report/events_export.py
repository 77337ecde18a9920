"""The event table written as CSV or Parquet for other tools (columns: docs/event-table.md).

Categorical columns are written as plain strings, wall-clock times as ISO 8601 UTC ("2024-05-01T12:00:00.123Z").
"""

from __future__ import annotations

from typing import IO

import polars as pl

from jvmlab.errors import InputError

WALL_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S%.3fZ"
CSV_FLOAT_DECIMALS = 9  # drops binary noise (10.654800000000002) and keeps every digit a log prints


def portable(events: pl.DataFrame) -> pl.DataFrame:
    """Categoricals as strings, so that any reader gets the names and not dictionary codes."""
    return events.with_columns(pl.col(pl.Categorical).cast(pl.String))


def for_csv(events: pl.DataFrame) -> pl.DataFrame:
    return portable(events).with_columns(pl.col(pl.Float64).round(CSV_FLOAT_DECIMALS))


def write_csv(events: pl.DataFrame, target: str | IO[bytes], name: str) -> None:
    """Writes CSV to a path or a binary stream; `name` is how the target is named in errors."""
    try:
        for_csv(events).write_csv(target, datetime_format=WALL_TIME_FORMAT)
    except OSError as e:
        raise InputError(name, f"cannot write: {e.strerror or e}") from None


def write_parquet(events: pl.DataFrame, target: str | IO[bytes], name: str) -> None:
    try:
        portable(events).write_parquet(target)
    except OSError as e:
        raise InputError(name, f"cannot write: {e.strerror or e}") from None
