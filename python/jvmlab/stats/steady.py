"""Warm-up and steady state of a time series, after Barrett, Bolz-Tilbrook, Bolz, Kirilichev and Tratt,
"Virtual Machine Warmup Blows Hot and Cold" (OOPSLA 2017). Method: docs/methodology.md#steady-state."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from jvmlab.errors import UsageError
from jvmlab.stats._changepoints import MIN_SEGMENT_POINTS, segment_ends

FLAT, WARMUP, SLOWDOWN, NO_STEADY_STATE = "flat", "warm-up", "slowdown", "no steady state"
CLASSIFICATIONS = (FLAT, WARMUP, SLOWDOWN, NO_STEADY_STATE)
# A series of fewer readings holds no changepoint: it is reported flat, as one segment.
SHORTEST_SERIES = 2 * MIN_SEGMENT_POINTS

EQUIVALENT_RELATIVE = 0.01  # segment means within 1% of each other are the same performance
EQUIVALENT_STANDARD_ERRORS = 2.0  # ... or within 2 standard errors of the noisier segment's mean


@dataclass(frozen=True)
class Segment:
    """Consecutive points with the same mean: times of the first and last point, their mean and count."""

    start_s: float
    end_s: float
    mean: float
    n: int


@dataclass(frozen=True)
class SteadyState:
    """The class of a series (FLAT, WARMUP, SLOWDOWN, NO_STEADY_STATE) and its segments."""

    classification: str
    segments: tuple[Segment, ...]  # after merging equivalent neighbours
    steady_start_s: float | None  # start of the last segment when steady; None for no steady state
    time_to_steady_s: float | None  # steady_start_s - first time (0.0 for flat)
    early_mean: float | None  # mean before the steady state (None for flat and no steady state)
    steady_mean: float | None  # mean of the last segment (None for no steady state)


@dataclass(frozen=True)
class _Span:
    """Points [start, stop) of the series."""

    start: int
    stop: int


def steady_state(
    times_s: Sequence[float],
    values: Sequence[float],
    *,
    higher_is_better: bool = True,
    steady_fraction: float = 0.25,
) -> SteadyState:
    """Classify `values` (at increasing `times_s`): PELT changepoints, equivalent neighbours merged, then
    flat (one segment), no steady state (the last segment holds less than `steady_fraction` of the
    points), slowdown (an earlier segment is better than the last) or warm-up. A series of fewer than 10
    points (2 x the minimum segment of 5) has no changepoint to find: it is reported flat, as one segment."""
    t, y = _validated(times_s, values, steady_fraction)
    sums = _Sums(y)
    spans = _merged(sums, _changepoint_spans(y))
    segments = tuple(_segment(t, y, span) for span in spans)
    if len(spans) == 1:
        return SteadyState(FLAT, segments, float(t[0]), 0.0, None, segments[0].mean)
    last = spans[-1]
    if last.stop - last.start < steady_fraction * y.size:
        return SteadyState(NO_STEADY_STATE, segments, None, None, None, None)
    earlier_better = any(sums.better(span, last, higher_is_better) for span in spans[:-1])
    start_s = float(t[last.start])
    early_mean = float(np.mean(y[: last.start]))
    return SteadyState(
        SLOWDOWN if earlier_better else WARMUP,
        segments,
        start_s,
        start_s - float(t[0]),
        early_mean,
        segments[-1].mean,
    )


def consistency(classifications: Sequence[str]) -> bool:
    """True when every repetition got the same class (Barrett et al.'s "consistent"); True for none."""
    unknown = sorted(set(classifications) - set(CLASSIFICATIONS))
    if unknown:
        raise UsageError(f"unknown steady-state class {unknown[0]!r}: expected one of {CLASSIFICATIONS}")
    return len(set(classifications)) <= 1


def _validated(
    times_s: Sequence[float], values: Sequence[float], steady_fraction: float
) -> tuple[np.ndarray, np.ndarray]:
    t, y = np.asarray(times_s, dtype=float), np.asarray(values, dtype=float)
    if t.ndim != 1 or t.shape != y.shape:
        raise UsageError(f"steady state needs one time per value: {t.size} times for {y.size} values")
    if y.size == 0:
        raise UsageError("steady state of an empty series: give at least one value")
    if not (np.all(np.isfinite(t)) and np.all(np.isfinite(y))):
        raise UsageError("steady state needs finite times and values: drop the missing readings first")
    if np.any(np.diff(t) <= 0):
        i = int(np.argmax(np.diff(t) <= 0)) + 1
        raise UsageError(f"times must increase: times_s[{i}] = {t[i]} after {t[i - 1]}")
    if not 0.0 < steady_fraction < 1.0:
        raise UsageError(f"steady_fraction must be between 0 and 1 (default 0.25), not {steady_fraction}")
    return t, y


def _changepoint_spans(y: np.ndarray) -> list[_Span]:
    ends = segment_ends(y)
    return [_Span(start, stop) for start, stop in zip([0, *ends[:-1]], ends, strict=True)]


def _merged(sums: _Sums, spans: list[_Span]) -> list[_Span]:
    """Merge the closest pair of equivalent neighbours until no neighbours are equivalent."""
    spans = list(spans)
    while True:
        pairs = [i for i in range(len(spans) - 1) if sums.equivalent(spans[i], spans[i + 1])]
        if not pairs:
            return spans
        i = min(pairs, key=lambda j: abs(sums.mean(spans[j]) - sums.mean(spans[j + 1])))
        spans[i : i + 2] = [_Span(spans[i].start, spans[i + 1].stop)]


class _Sums:
    """Mean and standard error of any span in O(1), from prefix sums of the series centred on its mean (so
    that sum(y^2) - (sum y)^2 / n keeps its precision whatever the series' level): a report of 500 trials
    classifies 500 series, mostly of a few dozen points, where numpy's per-call cost dominated."""

    def __init__(self, y: np.ndarray) -> None:
        self._centre = float(np.mean(y)) if y.size else 0.0
        centred = y - self._centre
        self._sums = [0.0, *np.cumsum(centred).tolist()]
        self._squares = [0.0, *np.cumsum(centred * centred).tolist()]

    def mean(self, span: _Span) -> float:
        return self._centre + (self._sums[span.stop] - self._sums[span.start]) / (span.stop - span.start)

    def se(self, span: _Span) -> float:
        n = span.stop - span.start
        if n < 2:
            return 0.0
        total = self._sums[span.stop] - self._sums[span.start]
        squares = self._squares[span.stop] - self._squares[span.start] - total * total / n
        return math.sqrt(max(squares, 0.0) / (n - 1) / n)

    def equivalent(self, a: _Span, b: _Span) -> bool:
        # |mean_a - mean_b| <= max(1% of the larger |mean|, 2 x the larger standard error s / sqrt(n))
        mean_a, mean_b = self.mean(a), self.mean(b)
        relative = EQUIVALENT_RELATIVE * max(abs(mean_a), abs(mean_b))
        tolerance = max(relative, EQUIVALENT_STANDARD_ERRORS * max(self.se(a), self.se(b)))
        return abs(mean_a - mean_b) <= tolerance

    def better(self, a: _Span, b: _Span, higher_is_better: bool) -> bool:
        """Segment a performs better than b, by more than the equivalence tolerance."""
        if self.equivalent(a, b):
            return False
        return (self.mean(a) > self.mean(b)) == higher_is_better


def _mean(y: np.ndarray, span: _Span) -> float:
    return float(np.mean(y[span.start : span.stop]))


def _segment(t: np.ndarray, y: np.ndarray, span: _Span) -> Segment:
    return Segment(float(t[span.start]), float(t[span.stop - 1]), _mean(y, span), span.stop - span.start)
