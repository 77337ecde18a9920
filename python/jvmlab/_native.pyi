"""Type stub of the private Rust module `jvmlab._native` (checked by tests/test_native_stub.py)."""

from typing import Any

def parse_logs(sources: list[tuple[str, str | None]]) -> dict[str, Any]:
    """Parse GC log sources (path, zip entry or None), in order, as one log.

    Returns {"columns": {name: numpy array}, "categories": {column: [values]},
    "diagnostics": {...}, "format": {...}}. Categorical columns hold codes, 0 meaning null and
    code k meaning categories[column][k - 1]. Nullable integers use the minimum int64, floats NaN.
    Raises OSError naming the file when it cannot be read.
    """

def summarize_logs(
    sources: list[tuple[str, str | None]],
    window: tuple[float, float] | None = None,
    keep_rows: int | None = None,
    batch_rows: int | None = None,
) -> dict[str, Any]:
    """Parse GC log sources as one log into the summary's figures, keeping no event table.

    Returns {"summary": {...}, "events": rows parsed, "late_updates": changes to rows already summarized,
    "diagnostics": {...}, "format": {...}}. `window` = (start_s, end_s) keeps only rows that start within
    it. `keep_rows` rows are held back for details printed after their event, and rows are summarized
    `batch_rows` at a time. Raises OSError naming the file when it cannot be read.
    """

def summarize_table(
    columns: dict[str, Any], categories: dict[str, list[str]], window: tuple[float, float] | None = None
) -> dict[str, Any]:
    """The summary's figures of an event table, given as numpy columns in the encoding of parse_logs
    (uptime_s, gc_id, category, kind, cause, pause_ms, duration_ms, ttsp_ms and the 12 size columns).
    Raises ValueError for a missing column or columns of different lengths."""

def build_info() -> dict[str, str]:
    """Version and build profile of the native module."""
