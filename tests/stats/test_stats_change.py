"""relative_change() and compare_metrics(): percent, its p-value (Welch's test) and its CI (Fieller's
interval of the ratio from the same statistic), Benjamini-Hochberg q-values and the CIs at the
false-coverage level they keep."""

import dataclasses
import math
import warnings

import numpy as np
import pytest
import scipy.stats

from jvmlab import stats
from jvmlab.errors import JvmLabError
from jvmlab.stats import DEFAULT_ALPHA, compare_metrics, false_coverage_level, relative_change

BASE = [100.0, 102.0, 98.0, 101.0, 99.0]
PLUS_10 = [110.0, 112.2, 107.8, 111.1, 108.9]


def test_default_alpha_is_one_percent():
    assert DEFAULT_ALPHA == 0.01


def test_percent_is_the_ratio_of_means():
    c = relative_change(BASE, PLUS_10)
    assert c.percent == pytest.approx(10.0)
    assert c.ci_low_percent is not None and c.ci_high_percent is not None
    assert 0.0 < c.ci_low_percent < 10.0 < c.ci_high_percent
    assert c.significant is True and c.q_value == c.p_value and c.level == 1 - DEFAULT_ALPHA


def test_p_is_welchs_test_and_the_ci_fiellers_interval_of_the_same_statistic():
    a, b = [10.0, 11.0, 12.0, 13.0], [12.0, 15.0, 18.0]
    # Welch (1947) by hand: t = (m2 - m1) / sqrt(v1 + v2), v = s^2 / n, Welch-Satterthwaite df.
    v1, v2 = (sum((x - 11.5) ** 2 for x in a) / 3.0) / 4.0, (sum((x - 15.0) ** 2 for x in b) / 2.0) / 3.0
    t = (15.0 - 11.5) / math.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / (v1**2 / 3.0 + v2**2 / 2.0)
    c = relative_change(a, b, alpha=0.05)
    assert c.p_value == pytest.approx(2.0 * scipy.stats.t.sf(t, df))
    # Fieller: the ratios r with (15 - 11.5 r)^2 <= q^2 (v2 + r^2 v1), q the t quantile; equal at the ends
    q = scipy.stats.t.ppf(0.975, df)
    for end in (c.ci_low_percent, c.ci_high_percent):
        r = 1 + end / 100  # type: ignore[operator]
        assert (15.0 - 11.5 * r) ** 2 == pytest.approx(q**2 * (v2 + r**2 * v1))


def test_the_ci_excludes_no_change_exactly_when_the_verdict_is_significant():
    rng = np.random.default_rng(11)
    for _ in range(300):
        m = int(rng.integers(1, 6))
        base = {f"m{i}": rng.normal(100, rng.uniform(1, 15), int(rng.integers(2, 8))) for i in range(m)}
        new = {
            k: rng.normal(100 * rng.uniform(0.8, 1.2), rng.uniform(1, 15), int(rng.integers(2, 8)))
            for k in base
        }
        alpha = float(rng.choice([0.01, 0.05]))
        for c in [
            *compare_metrics(base, new, alpha=alpha).values(),
            stats.tested_alone(relative_change(base["m0"], new["m0"]), alpha),
        ]:
            assert c.ci_low_percent is not None and c.ci_high_percent is not None
            excludes = c.ci_low_percent > 0 or c.ci_high_percent < 0
            assert excludes == c.significant or abs(c.q_value - alpha) < 1e-6, c  # type: ignore[operator]


def test_counts_near_or_at_zero_need_no_special_case():
    gone = relative_change([900.0, 950.0, 800.0], [0.0, 0.0, 0.0], alpha=0.05)
    assert gone.percent == -100.0 and gone.significant is True
    assert gone.p_value == pytest.approx(scipy.stats.ttest_1samp([900.0, 950.0, 800.0], 0.0).pvalue)
    # Full collections 2-3 a trial, then 0 or 1: a ratio cannot fall below 0, so the CI stops at -100 %
    fewer = relative_change([2.0, 3.0, 3.0, 2.0, 3.0], [0.0, 0.0, 1.0, 0.0, 0.0])
    assert fewer.significant is True and fewer.ci_low_percent == -100.0 and fewer.ci_high_percent < -50  # type: ignore[operator]
    # A baseline not told from 0: the CI is the half-line that holds the estimate
    grown = relative_change([0.0, 0.0, 1.0], [50.0, 60.0, 55.0])
    assert grown.significant is True and grown.ci_low_percent > 0 and grown.ci_high_percent == math.inf  # type: ignore[operator]


def test_a_negative_change():
    c = relative_change(PLUS_10, BASE)
    assert c.percent == pytest.approx(100.0 / 110.0 * 100.0 - 100.0)
    assert c.ci_high_percent is not None and c.ci_high_percent < 0.0


def test_equal_constant_sides_are_no_change():
    c = relative_change([5.0, 5.0, 5.0], [5.0, 5.0])
    assert (c.percent, c.ci_low_percent, c.ci_high_percent, c.p_value, c.significant) == (
        0.0,
        0.0,
        0.0,
        1.0,
        False,
    )


def test_different_constant_sides_are_a_certain_change():
    c = relative_change([4.0, 4.0], [5.0, 5.0, 5.0])
    assert (c.percent, c.ci_low_percent, c.ci_high_percent, c.p_value, c.significant) == (
        25.0,
        25.0,
        25.0,
        0.0,
        True,
    )


def test_a_side_with_one_value_has_a_percent_but_no_ci_and_no_p():
    c = relative_change([100.0], PLUS_10)
    assert c.percent == pytest.approx(10.0)
    assert (c.ci_low_percent, c.ci_high_percent, c.p_value, c.q_value, c.significant) == (None,) * 5


def test_a_zero_or_missing_baseline_has_no_percent():
    zero = relative_change([0.0, 0.0, 0.0], [1.0, 2.0, 3.0])
    assert (zero.percent, zero.ci_low_percent, zero.ci_high_percent, zero.p_value) == (None,) * 4
    empty = relative_change([], [1.0, 2.0])
    assert (empty.percent, empty.p_value, empty.significant, empty.n_baseline, empty.n_variant) == (
        None,
        None,
        None,
        0,
        2,
    )
    assert relative_change([None, float("nan"), 1.0, 2.0], []).percent is None


def test_none_and_nan_are_dropped():
    assert relative_change([None, *BASE, float("nan")], PLUS_10) == relative_change(BASE, PLUS_10)


def test_compare_keeps_the_metrics_of_both_in_the_baselines_order():
    changes = compare_metrics({"b": BASE, "a": BASE, "only_base": BASE}, {"a": PLUS_10, "b": BASE, "x": BASE})
    assert list(changes) == ["b", "a"]


def test_compare_adjusts_p_values_with_benjamini_hochberg_and_widens_the_cis_to_match():
    base = {"same": BASE, "shifted": BASE, "slightly": BASE, "single": BASE}
    variant = {
        "same": [99.0, 101.0, 100.5, 98.5, 100.0],
        "shifted": PLUS_10,
        "slightly": [103.0, 101.0, 104.0],
    }
    variant["single"] = [100.0]
    changes = compare_metrics(base, variant, alpha=0.05)
    tested = ["same", "shifted", "slightly"]  # "single" has no p-value and does not count in m
    p = [changes[name].p_value for name in tested]
    order = sorted(range(3), key=lambda i: p[i])  # q_(i) = min over j >= i of p_(j) m / j
    q_sorted = [min(p[order[j]] * 3 / (j + 1) for j in range(i, 3)) for i in range(3)]  # type: ignore[operator]
    for rank, i in enumerate(order):
        assert changes[tested[i]].q_value == pytest.approx(min(1.0, q_sorted[rank]))
        assert changes[tested[i]].significant is (changes[tested[i]].q_value < 0.05)  # type: ignore[operator]
    assert changes["shifted"].significant is True and changes["same"].significant is False
    assert (changes["single"].q_value, changes["single"].significant) == (None, None)
    # R of the m = 3 significant: every CI at 1 - 0.05 R / 3, wider than the CI of a measure alone
    r = sum(bool(changes[n].significant) for n in tested)
    assert changes["same"].level == pytest.approx(1 - 0.05 * max(r, 1) / 3)
    alone = relative_change(BASE, PLUS_10, alpha=0.05)
    assert changes["shifted"].ci_low_percent < alone.ci_low_percent  # type: ignore[operator]


def test_the_false_coverage_level():
    assert false_coverage_level([0.001, 0.2, 0.5, 0.9], 0.01) == pytest.approx(1 - 0.01 / 4)
    assert false_coverage_level([0.001, 0.002, 0.5, 0.9], 0.01) == pytest.approx(1 - 0.01 * 2 / 4)
    assert false_coverage_level([], 0.05) == pytest.approx(0.95)


def test_compare_with_nothing_testable():
    assert compare_metrics({"a": [1.0]}, {"a": [2.0]}) == {"a": relative_change([1.0], [2.0])}
    assert compare_metrics({}, {"a": [2.0]}) == {}


@pytest.mark.parametrize("alpha", [0.0, 1.0, 5.0])
def test_an_alpha_outside_0_1_is_refused(alpha):
    with pytest.raises(JvmLabError, match="alpha must be between 0 and 1"):
        compare_metrics({"a": BASE}, {"a": BASE}, alpha=alpha)


def test_changes_are_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        relative_change(BASE, PLUS_10).percent = 0.0  # type: ignore[misc]


def test_values_equal_to_many_digits_give_no_warning():
    """A pre-touched heap's peak RSS is the same to 7 digits in every run: no scipy warning reaches users."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        change = relative_change([1098.0001, 1098.0002, 1098.0001], [1098.0, 1098.0001, 1098.0002])
    assert change.p_value is not None and change.significant is False
