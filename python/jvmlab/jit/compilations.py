"""The compilation table: one row per compilation (or OSR compilation) with what became of it: made not
entrant (and why, where the JDK says: JDK 25 prints reasons, LogCompilation has them), a zombie."""

from __future__ import annotations

import polars as pl

from jvmlab.jit.log import CompileLog

COLUMNS = (
    "uptime_s", "compile_id", "level", "compiler", "method", "osr", "bytecode_bytes", "native_bytes",
    "compile_ms", "not_entrant_s", "not_entrant_reason",
)  # fmt: skip
ORDERS = ("time", "compile_ms", "native_bytes", "bytecode_bytes")


def compilation_table(log: CompileLog, *, order: str = "time") -> pl.DataFrame:
    """Every compilation of the log with its fate, ordered by `order` (time, or largest compile_ms,
    native_bytes or bytecode_bytes first)."""
    ev = log.events
    compiles = ev.filter(pl.col("kind").is_in(("compile", "osr"))).with_columns(osr=pl.col("kind") == "osr")
    fates = (
        ev.filter((pl.col("kind") == "not_entrant") & pl.col("compile_id").is_not_null())
        .group_by("compile_id")
        .agg(not_entrant_s=pl.col("uptime_s").min(), not_entrant_reason=pl.col("reason").first())
    )
    table = compiles.join(fates, on="compile_id", how="left").select(COLUMNS)
    if order == "time":
        return table.sort("uptime_s", nulls_last=True)
    return table.sort(order, descending=True, nulls_last=True)
