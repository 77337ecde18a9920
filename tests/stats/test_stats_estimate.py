"""estimate(): mean, median, stdev, CV and the bootstrap CI of the mean over repetitions."""

import dataclasses
import math

import numpy as np
import pytest

from jvmlab.errors import JvmLabError
from jvmlab.stats import Estimate, coefficient_of_variation_percent, estimate, estimates


def test_known_values():
    e = estimate([1.0, 2.0, 3.0, 4.0, 5.0])
    assert (e.n, e.mean, e.median) == (5, 3.0, 3.0)
    assert e.stdev == pytest.approx(math.sqrt(2.5))
    assert e.cv_percent == pytest.approx(math.sqrt(2.5) / 3.0 * 100.0)
    assert e.ci_low is not None and e.ci_high is not None
    assert 1.0 <= e.ci_low < 3.0 < e.ci_high <= 5.0
    assert e.confidence == 0.95


def test_the_median_is_not_the_mean():
    e = estimate([1.0, 2.0, 9.0])
    assert (e.mean, e.median) == (4.0, 2.0)


def test_no_values():
    assert estimate([]) == Estimate(0, None, None, None, None, None, None)


def test_one_value_has_no_spread_and_no_ci():
    assert estimate([4.5]) == Estimate(1, 4.5, 4.5, None, None, None, None)


def test_two_values_have_a_ci_within_their_range():
    e = estimate([10.0, 12.0])
    assert (e.n, e.mean, e.stdev) == (2, 11.0, pytest.approx(math.sqrt(2.0)))
    assert e.ci_low is not None and e.ci_high is not None
    assert 10.0 <= e.ci_low <= 11.0 <= e.ci_high <= 12.0


def test_equal_values_have_a_zero_width_ci():
    e = estimate([7.0, 7.0, 7.0, 7.0])
    assert (e.stdev, e.cv_percent, e.ci_low, e.ci_high) == (0.0, 0.0, 7.0, 7.0)


def test_a_zero_mean_has_no_cv():
    assert estimate([0.0, 0.0]).cv_percent is None
    assert estimate([-1.0, 1.0]).cv_percent is None
    assert coefficient_of_variation_percent([-1.0, 1.0]) is None


def test_cv_uses_the_absolute_mean():
    assert estimate([-9.0, -11.0]).cv_percent == pytest.approx(math.sqrt(2.0) / 10.0 * 100.0)


def test_none_and_nan_are_dropped():
    e = estimate([1.0, None, float("nan"), 3.0])
    assert (e.n, e.mean, e.median) == (2, 2.0, 2.0)
    assert estimate([None, float("nan")]).n == 0


def test_the_same_seed_gives_the_same_ci():
    values = [101.0, 97.5, 103.2, 99.9, 100.4, 98.1]
    assert estimate(values, seed=3) == estimate(values, seed=3)
    assert estimate(values, seed=3).ci_low != estimate(values, seed=4).ci_low


def test_a_higher_confidence_gives_a_wider_ci():
    values = [101.0, 97.5, 103.2, 99.9, 100.4, 98.1]
    narrow, wide = estimate(values, confidence=0.8), estimate(values, confidence=0.99)
    assert narrow.confidence == 0.8
    assert wide.ci_low < narrow.ci_low < narrow.ci_high < wide.ci_high  # type: ignore[operator]


@pytest.mark.parametrize("confidence", [0.0, 1.0, 95.0, -0.5])
def test_a_confidence_outside_0_1_is_refused(confidence):
    with pytest.raises(JvmLabError, match="confidence must be between 0 and 1"):
        estimate([1.0, 2.0], confidence=confidence)


def test_estimates_are_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        estimate([1.0, 2.0]).mean = 3.0  # type: ignore[misc]


def test_estimates_of_many_samples_are_each_samples_estimate():
    rng = np.random.default_rng(3)
    samples = [
        list(rng.normal(100.0, 5.0, 5)),
        list(rng.normal(7.0, 1.0, 5)),  # the same size: its CI drawn beside the first's
        [1.0, None, 2.0, float("nan"), 4.0],
        [3.0, 3.0, 3.0],
        [2.5],
        [],
        [None],
        list(rng.lognormal(0.0, 1.0, 12)),
    ]
    assert estimates(samples) == [estimate(s) for s in samples]
    assert estimates(samples, confidence=0.9, seed=11) == [
        estimate(s, confidence=0.9, seed=11) for s in samples
    ]
