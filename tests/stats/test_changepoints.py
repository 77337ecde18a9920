"""jvmlab's PELT (stats/_changepoints.py) against ruptures' (the library it replaced for speed): the same
breakpoints on random series of every shape the steady-state classifier meets (noise, ramps, steps,
plateaus, ties from integer values, heavy tails) and at penalties from far below to far above jvmlab's."""

from __future__ import annotations

import math

import numpy as np
import pytest
import ruptures  # a dev dependency: the oracle
from ruptures.base import BaseCost

from jvmlab.stats._changepoints import MIN_SEGMENT_POINTS, pelt_l2


class PrefixSumL2(BaseCost):  # type: ignore[misc]
    """ruptures' L2 cost from prefix sums, as jvmlab computed it with ruptures' PELT: sum(y^2) -
    (sum y)^2 / n over the segment (ruptures' own "l2" rounds differently: near-ties can then differ)."""

    model = "l2-prefix-sums"
    min_size = 1

    def fit(self, signal: np.ndarray) -> PrefixSumL2:
        y = np.asarray(signal, dtype=float).reshape(-1)
        self.signal = y.reshape(-1, 1)
        self._sums = np.concatenate([[0.0], np.cumsum(y)]).tolist()
        self._squares = np.concatenate([[0.0], np.cumsum(y * y)]).tolist()
        return self

    def error(self, start: int, end: int) -> float:
        total = self._sums[end] - self._sums[start]
        return float(self._squares[end] - self._squares[start] - total * total / (end - start))


def _series(rng: np.random.Generator, shape: int, n: int) -> np.ndarray:
    if shape == 0:
        return rng.normal(0.0, 1.0, n)
    if shape == 1:  # a warm-up ramp, then a plateau
        return np.concatenate([np.linspace(-5.0, 5.0, n // 3), rng.normal(5.0, 1.0, n - n // 3)])
    if shape == 2:  # a step, integer readings
        return np.round(rng.normal(0.0, 1.0, n) + (np.arange(n) > n // 2) * 3.0)
    if shape == 3:  # three values only: many exact ties
        return rng.integers(0, 3, n).astype(float)
    if shape == 4:  # plateaus of 7 points
        return np.repeat(rng.normal(0.0, 5.0, n // 7 + 1), 7)[:n] + rng.normal(0.0, 0.5, n)
    return rng.standard_cauchy(n)


@pytest.mark.parametrize("shape", range(6))
def test_the_same_breakpoints_as_ruptures_pelt(shape):
    rng = np.random.default_rng(shape)
    for _ in range(60):
        n = int(rng.integers(2 * MIN_SEGMENT_POINTS, 160))
        y = _series(rng, shape, n)
        for penalty in (15.0 * math.log(n), 0.1, 2.0, 60.0):
            oracle = ruptures.Pelt(custom_cost=PrefixSumL2(), min_size=MIN_SEGMENT_POINTS, jump=1)
            expected = oracle.fit(y).predict(pen=penalty)
            assert pelt_l2(y, penalty, MIN_SEGMENT_POINTS) == expected, (shape, n, penalty, y.tolist())


def test_a_long_warm_up_series_as_ruptures_segments_it():
    rng = np.random.default_rng(11)
    y = np.concatenate([np.linspace(100.0, 300.0, 400), rng.normal(300.0, 4.0, 800)])
    penalty = 15.0 * math.log(y.size)
    oracle = ruptures.Pelt(custom_cost=PrefixSumL2(), min_size=MIN_SEGMENT_POINTS, jump=1)
    assert pelt_l2(y, penalty, MIN_SEGMENT_POINTS) == oracle.fit(y).predict(pen=penalty)
