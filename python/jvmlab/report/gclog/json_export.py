"""JSON documents of `jvmlab gc summary --json` and `jvmlab gc compare --json` (docs/gc-summary-json.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from jvmlab.metrics.comparison import Comparison
from jvmlab.metrics.summary import GcSummary

JSON_FORMAT_VERSION = 1
TOOL = "jvmlab"


def _header() -> dict[str, Any]:
    from jvmlab import __version__

    return {"format_version": JSON_FORMAT_VERSION, "tool": TOOL, "tool_version": __version__}


def input_document(summary: GcSummary) -> dict[str, Any]:
    """One input: every field of GcSummary, JSON types (null for figures that cannot be computed)."""
    return summary.model_dump(mode="json")


def summary_document(summaries: Sequence[GcSummary]) -> dict[str, Any]:
    return {**_header(), "inputs": [input_document(s) for s in summaries]}


def compare_document(comparison: Comparison, summaries: Sequence[GcSummary]) -> dict[str, Any]:
    inputs = [
        {"label": label, **input_document(s)} for label, s in zip(comparison.labels, summaries, strict=True)
    ]
    return {
        **_header(),
        "baseline": comparison.labels[0],
        "inputs": inputs,
        "figures": [f.model_dump(mode="json") for f in comparison.figures],
        "warnings": comparison.warnings,
    }


def to_json(document: dict[str, Any]) -> str:
    """Indented JSON; NaN and infinities are never written (the summary uses null instead)."""
    return json.dumps(document, indent=2, allow_nan=False, ensure_ascii=False)
