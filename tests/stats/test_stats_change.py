"""relative_change() and compare_metrics(): percent, its CI, Welch's p and Benjamini-Hochberg q-values."""

import dataclasses
import math
import warnings

import pytest
import scipy.stats

from jvmlab.errors import JvmLabError
from jvmlab.stats import DEFAULT_ALPHA, Change, compare_metrics, relative_change

BASE = [100.0, 102.0, 98.0, 101.0, 99.0]
PLUS_10 = [110.0, 112.2, 107.8, 111.1, 108.9]


def test_default_alpha_is_one_percent():
    assert DEFAULT_ALPHA == 0.01


def test_percent_is_the_ratio_of_means():
    c = relative_change(BASE, PLUS_10)
    assert c.percent == pytest.approx(10.0)
    assert c.ci_low_percent is not None and c.ci_high_percent is not None
    assert 0.0 < c.ci_low_percent < 10.0 < c.ci_high_percent
    assert c.significant is True and c.q_value == c.p_value


def test_p_is_welchs_two_sided_t_test():
    a, b = [10.0, 11.0, 12.0, 13.0], [12.0, 15.0, 18.0]
    # Welch (1947) by hand: t = (m1 - m2) / sqrt(v1/n1 + v2/n2), Welch-Satterthwaite df.
    v1, v2 = sum((x - 11.5) ** 2 for x in a) / 3.0, sum((x - 15.0) ** 2 for x in b) / 2.0
    se1, se2 = v1 / 4.0, v2 / 3.0
    t = (11.5 - 15.0) / math.sqrt(se1 + se2)
    df = (se1 + se2) ** 2 / (se1**2 / 3.0 + se2**2 / 2.0)
    assert relative_change(a, b).p_value == pytest.approx(2.0 * scipy.stats.t.sf(abs(t), df))


def test_a_negative_change():
    c = relative_change(PLUS_10, BASE)
    assert c.percent == pytest.approx(100.0 / 110.0 * 100.0 - 100.0)
    assert c.ci_high_percent is not None and c.ci_high_percent < 0.0


def test_equal_constant_sides_are_no_change():
    c = relative_change([5.0, 5.0, 5.0], [5.0, 5.0])
    assert c == Change(0.0, 0.0, 0.0, 1.0, 1.0, False)


def test_different_constant_sides_are_a_certain_change():
    c = relative_change([4.0, 4.0], [5.0, 5.0, 5.0])
    assert c == Change(25.0, 25.0, 25.0, 0.0, 0.0, True)


def test_a_side_with_one_value_has_a_percent_but_no_ci_and_no_p():
    c = relative_change([100.0], PLUS_10)
    assert c.percent == pytest.approx(10.0)
    assert (c.ci_low_percent, c.ci_high_percent, c.p_value, c.q_value, c.significant) == (None,) * 5


def test_a_zero_or_missing_baseline_has_no_percent():
    zero = relative_change([0.0, 0.0, 0.0], [1.0, 2.0, 3.0])
    assert (zero.percent, zero.ci_low_percent, zero.ci_high_percent) == (None, None, None)
    assert zero.p_value is not None
    assert relative_change([], [1.0, 2.0]) == Change(None, None, None, None, None, None)
    assert relative_change([None, float("nan"), 1.0, 2.0], []).percent is None


def test_none_and_nan_are_dropped():
    assert relative_change([None, *BASE, float("nan")], PLUS_10) == relative_change(BASE, PLUS_10)


def test_the_same_seed_gives_the_same_ci():
    assert relative_change(BASE, PLUS_10, seed=7) == relative_change(BASE, PLUS_10, seed=7)


def test_compare_keeps_the_metrics_of_both_in_the_baselines_order():
    changes = compare_metrics({"b": BASE, "a": BASE, "only_base": BASE}, {"a": PLUS_10, "b": BASE, "x": BASE})
    assert list(changes) == ["b", "a"]


def test_compare_adjusts_p_values_with_benjamini_hochberg():
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
