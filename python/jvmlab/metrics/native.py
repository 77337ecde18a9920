"""The native summary (native/src/summary/): every figure's raw parts, computed in one pass over the rows
as the parser makes them (`jvmlab._native.summarize_logs`) or over an event table
(`jvmlab._native.summarize_table`). The other modules of this package give them shape and units."""

from __future__ import annotations

import math
from typing import Any, TypeAlias

NativeSummary: TypeAlias = dict[str, Any]
# The columns the summary reads, in the encoding of `_native.parse_logs`.
FLOAT_COLUMNS = ("uptime_s", "pause_ms", "duration_ms", "ttsp_ms")
CODE_COLUMNS = ("category", "kind", "cause")
INT_COLUMNS = (
    "gc_id", "heap_before_bytes", "heap_after_bytes", "heap_capacity_bytes", "young_before_bytes",
    "young_after_bytes", "young_capacity_bytes", "old_before_bytes", "old_after_bytes", "old_capacity_bytes",
    "metaspace_before_bytes", "metaspace_after_bytes", "metaspace_capacity_bytes",
)  # fmt: skip


def bounds(start_s: float | None, end_s: float | None) -> tuple[float, float] | None:
    """Rows kept by a window: those that start within [start_s, end_s] (None: no bound); None for all."""
    if start_s is None and end_s is None:
        return None
    return (-math.inf if start_s is None else start_s, math.inf if end_s is None else end_s)
