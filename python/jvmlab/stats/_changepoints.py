"""Changepoints in the mean of a series: PELT (Killick, Fearnhead & Eckley 2012) with the L2 cost, and
Barrett et al.'s (OOPSLA 2017) penalty of 15 log n on the series scaled to unit noise.

PELT is ruptures' `Pelt(model="l2", jump=1)` step for step, with each step's candidates costed at once from
prefix sums (numpy) instead of a Python call per candidate: the same breakpoints (the same sums in the same
order, the same first minimum; tests/stats/test_changepoints.py checks it against ruptures), faster by
how many candidates a step has: 0.5 ms instead of 1.2 ms at 60 points, 6 ms instead of 119 ms at 600,
28 ms instead of 1.7 s at 2,000."""

from __future__ import annotations

import math

import numpy as np

MIN_SEGMENT_POINTS = 5  # PELT's min_size: a segment of fewer points has no usable mean
PENALTY_PER_LOG_N = 15.0  # Barrett et al.: penalty 15 log n per changepoint
MAD_TO_SIGMA = 1.4826  # sigma = 1.4826 MAD for normal data


def segment_ends(y: np.ndarray) -> list[int]:
    """End (exclusive) of each segment of constant mean, the last being len(y). A series shorter than
    2 x MIN_SEGMENT_POINTS, or without noise, is one segment."""
    sigma = noise_sigma(y)
    if y.size < 2 * MIN_SEGMENT_POINTS or sigma == 0.0:
        return [int(y.size)]
    scaled = (y - np.median(y)) / sigma  # unit noise variance, so that the penalty does not depend on units
    return pelt_l2(scaled, PENALTY_PER_LOG_N * math.log(y.size), MIN_SEGMENT_POINTS)


def noise_sigma(y: np.ndarray) -> float:
    """The point-to-point noise, robust to level shifts and ramps: successive differences have variance
    2 sigma^2, so sigma = 1.4826 MAD(diff(y)) / sqrt(2); the plain stdev of the differences / sqrt(2) when
    most differences are equal (MAD 0)."""
    diffs = np.diff(y)
    if diffs.size == 0:
        return 0.0
    mad = float(np.median(np.abs(diffs - np.median(diffs))))
    spread = MAD_TO_SIGMA * mad if mad > 0.0 else float(np.std(diffs))
    return spread / math.sqrt(2.0)


def pelt_l2(y: np.ndarray, penalty: float, min_size: int) -> list[int]:
    """The ends of the segments that minimise the sum of their L2 costs (sum of (y - segment mean)^2) plus
    `penalty` per segment, each segment at least `min_size` points; len(y) >= 2 x min_size."""
    n = int(y.size)
    sums = np.concatenate([[0.0], np.cumsum(y)])
    squares = np.concatenate([[0.0], np.cumsum(y * y)])
    best = np.zeros(n + 1)  # best[t]: the optimal penalised cost of y[:t]
    previous = np.zeros(n + 1, dtype=np.intp)  # the start of the last segment of that optimum
    kept = np.zeros(n + 1, dtype=np.intp)  # kept[:count]: the starts of a last segment not yet pruned
    count = 0
    for end in [*range(min_size, n), n]:
        start = end - min_size
        if start == 0 or start >= min_size:  # a start with an optimum of its own (ruptures skips others)
            kept[count] = start
            count += 1
        starts = kept[:count]
        total = sums[end] - sums[starts]
        # ruptures' order of operations: a partition's sum is its start's sum plus (this cost + penalty)
        cost = squares[end] - squares[starts] - total * total / (end - starts)
        totals = best[starts] + (cost + penalty)
        winner = int(totals.argmin())  # the first minimum, as min() over ruptures' candidates
        best[end], previous[end] = totals[winner], starts[winner]
        keep = totals <= totals[winner] + penalty
        count = int(np.count_nonzero(keep))
        kept[:count] = starts[keep]
    ends = [n]
    while (start := int(previous[ends[-1]])) > 0:
        ends.append(start)
    return ends[::-1]
