"""Changepoints in the mean of a series: PELT (Killick, Fearnhead & Eckley 2012) from ruptures, with
Barrett et al.'s (OOPSLA 2017) penalty of 15 log n on the series scaled to unit noise."""

from __future__ import annotations

import math

import numpy as np
import ruptures
from ruptures.base import BaseCost

MIN_SEGMENT_POINTS = 5  # PELT's min_size: a segment of fewer points has no usable mean
PENALTY_PER_LOG_N = 15.0  # Barrett et al.: penalty 15 log n per changepoint
MAD_TO_SIGMA = 1.4826  # sigma = 1.4826 MAD for normal data


def segment_ends(y: np.ndarray) -> list[int]:
    """End (exclusive) of each segment of constant mean, the last being len(y). A series shorter than
    2 x MIN_SEGMENT_POINTS, or without noise, is one segment. PELT here costs O(n^2) in the worst case:
    about 0.1 s for 600 points and 1 s for 2,000."""
    sigma = noise_sigma(y)
    if y.size < 2 * MIN_SEGMENT_POINTS or sigma == 0.0:
        return [int(y.size)]
    scaled = (y - np.median(y)) / sigma  # unit noise variance, so that the penalty does not depend on units
    algo = ruptures.Pelt(custom_cost=_PrefixSumL2(), min_size=MIN_SEGMENT_POINTS, jump=1)
    return [int(end) for end in algo.fit(scaled).predict(pen=PENALTY_PER_LOG_N * math.log(y.size))]


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


class _PrefixSumL2(BaseCost):  # type: ignore[misc]
    """ruptures' "l2" cost, sum over the segment of (y - its mean)^2, from prefix sums in O(1) per
    segment instead of O(length): sum(y^2) - (sum y)^2 / n. Same segmentation, 15x faster at 600 points."""

    model = "l2-prefix-sums"
    min_size = 1

    def fit(self, signal: np.ndarray) -> _PrefixSumL2:
        y = np.asarray(signal, dtype=float).reshape(-1)
        self.signal = y.reshape(-1, 1)  # ruptures reads the length from here
        self._sums = np.concatenate([[0.0], np.cumsum(y)]).tolist()
        self._squares = np.concatenate([[0.0], np.cumsum(y * y)]).tolist()
        return self

    def error(self, start: int, end: int) -> float:
        total = self._sums[end] - self._sums[start]
        return float(self._squares[end] - self._squares[start] - total * total / (end - start))
