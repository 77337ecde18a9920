"""The view model of `jvmlab gc compare`: rows of formatted values and changes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jvmlab.metrics.summary import GcSummary
from jvmlab.report import units
from jvmlab.report.compare import BY_KEY, Comparison, FigureComparison, headline


@dataclass(frozen=True)
class CompareRow:
    label: str
    shown: tuple[str, ...]
    changes: tuple[str, ...]


@dataclass(frozen=True)
class CompareView:
    labels: tuple[str, ...]
    headlines: tuple[str, ...]
    rows: tuple[CompareRow, ...]
    inputs: tuple[str, ...]
    warnings: tuple[str, ...]


def _row(fig: FigureComparison) -> CompareRow:
    show = BY_KEY[fig.key].show
    return CompareRow(
        label=fig.label,
        shown=tuple(show(v) for v in fig.values),
        changes=tuple(units.change(c) for c in fig.change_percent),
    )


def _has_data(fig: FigureComparison) -> bool:
    """Rows where every input is missing or 0 (e.g. mixed GCs of two Parallel runs) say nothing."""
    return any(v for v in fig.values)


def compare_view(comparison: Comparison, summaries: Sequence[GcSummary]) -> CompareView:
    rows = tuple(_row(f) for f in comparison.figures if _has_data(f))
    labels = tuple(comparison.labels)
    return CompareView(
        labels=labels,
        headlines=tuple(headline(comparison, i) for i in range(1, len(labels))),
        rows=rows,
        inputs=tuple(f"{label}: {s.name}" for label, s in zip(labels, summaries, strict=True)),
        warnings=tuple(comparison.warnings),
    )
