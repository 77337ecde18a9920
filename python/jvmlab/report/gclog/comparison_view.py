"""The view model of `jvmlab gc compare`: rows of formatted values and changes, and one headline per later
log (the figures come from jvmlab.metrics.comparison)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from jvmlab.metrics.comparison import HEADLINE_KEYS, Comparison, FigureComparison
from jvmlab.metrics.summary import GcSummary
from jvmlab.report import units

Show = Callable[[float | None], str]


def _count(v: float | None) -> str:
    return units.count(None if v is None else int(v))


# How each figure of jvmlab.metrics.comparison.FIGURES is shown, by its key's unit suffix (first match).
SUFFIX_SHOW: tuple[tuple[str, Show], ...] = (
    ("_per_min", units.per_min),
    ("_mib_per_s", units.mib_per_s),
    ("_ms", units.ms),
    ("_s", units.seconds),
    ("_percent", units.percent),
    ("_bytes", units.size),
    ("_count", _count),
)


def show(key: str) -> Show:
    """The formatter of figure `key`: "young_gc_per_min" -> per minute, "pause_p99_ms" -> ms, ..."""
    for suffix, fn in SUFFIX_SHOW:
        if key.endswith(suffix):
            return fn
    raise KeyError(f"no unit known for figure {key!r}")


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
    fmt = show(fig.key)
    return CompareRow(
        label=fig.label,
        shown=tuple(fmt(v) for v in fig.values),
        changes=tuple(units.change(c) for c in fig.change_percent),
    )


def _has_data(fig: FigureComparison) -> bool:
    """Rows where every input is missing or 0 (e.g. mixed GCs of two Parallel runs) say nothing."""
    return any(v for v in fig.values)


def headline(comparison: Comparison, index: int) -> str:
    """ "canary vs control: Full GC -82%, mean pause -85%, ..." for the input at `index`."""
    parts = []
    for fig in comparison.figures:
        change = fig.change_percent[index]
        if fig.key in HEADLINE_KEYS and change is not None:
            parts.append(f"{fig.label} {units.change(change)}")
    base, this = comparison.labels[0], comparison.labels[index]
    return f"{this} vs {base}: " + (", ".join(parts) if parts else "no comparable figures")


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
