"""Metrics: pure functions over the GC event table (docs/event-table.md), one concept per module.
Definitions of every figure: docs/metrics.md."""

from jvmlab.metrics.summary import (
    SUMMARY_FORMAT_VERSION,
    GcSummary,
    load_summarized,
    summarize,
    summarize_each,
    summarize_path,
    summarize_paths,
)

__all__ = [
    "SUMMARY_FORMAT_VERSION",
    "GcSummary",
    "load_summarized",
    "summarize",
    "summarize_each",
    "summarize_path",
    "summarize_paths",
]
