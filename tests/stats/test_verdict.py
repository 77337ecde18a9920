"""The one statistic of a verdict (jvmlab.stats.change, .verdict): the CI and the p-value come from one model
and never disagree; three outcomes read from the CI alone; the spending of alpha over repeated looks."""

from __future__ import annotations

import numpy as np
import pytest

from jvmlab.stats.change import Change, relative_change
from jvmlab.stats.sequential import SequentialPlan
from jvmlab.stats.verdict import (
    BETTER,
    CONFIRMED,
    DECREASED,
    EQUIVALENT,
    HARMFUL,
    INCONCLUSIVE,
    INCREASED,
    MIN_LOOK_LEVEL,
    NO_EFFECT,
    WORSE,
    directed,
    flag_verdict,
    judge,
    repetitions_to_decide,
    spent_alpha,
    verdict,
)


def ratio_change(baseline, variant, *, level):
    return relative_change(baseline, variant, alpha=1.0 - level)


def test_the_ci_excludes_no_change_exactly_when_p_is_below_its_level():
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(2000):
        n_b, n_v = rng.integers(2, 12, size=2)
        b = rng.normal(100, rng.uniform(1, 20), n_b)
        v = rng.normal(100 * rng.uniform(0.85, 1.15), rng.uniform(1, 20), n_v)
        level = float(rng.choice([0.9, 0.95, 0.99, 0.999]))
        c = ratio_change(b, v, level=level)
        assert c.p_value is not None and c.ci_low_percent is not None and c.ci_high_percent is not None
        excludes = c.ci_low_percent > 0 or c.ci_high_percent < 0
        if abs(c.p_value - (1 - level)) > 1e-9:  # on the boundary itself either reading is right
            assert excludes == (c.p_value < 1 - level), (c, b, v)
            checked += 1
        assert c.ci_low_percent <= c.percent <= c.ci_high_percent
    assert checked > 1900


def test_the_estimate_is_the_ratio_of_the_means_and_the_ci_covers_it_at_its_level():
    # 20,000 A/B pairs of 5 values with a true +10 %, CV 5 %: the 95 % CI covers +10 % about 95 % of the time
    rng = np.random.default_rng(3)
    b = rng.normal(100, 5, (20000, 5))
    v = rng.normal(110, 5.5, (20000, 5))
    covered = 0
    for i in range(0, 20000, 10):
        c = ratio_change(b[i], v[i], level=0.95)
        assert c.percent == pytest.approx((v[i].mean() / b[i].mean() - 1) * 100)
        covered += c.ci_low_percent <= 10.0 <= c.ci_high_percent  # type: ignore[operator]
    assert 0.93 <= covered / 2000 <= 0.97


def test_too_few_values_or_no_positive_mean_give_no_interval():
    assert ratio_change([100.0], [110.0, 111.0], level=0.95).ci_low_percent is None
    assert ratio_change([], [1.0], level=0.95).percent is None
    assert ratio_change([0.0, 0.0], [1.0, 2.0], level=0.95).percent is None
    assert judge(ratio_change([100.0], [120.0], level=0.95), 5.0).outcome == INCONCLUSIVE


def test_constant_sides_are_an_exact_change():
    c = ratio_change([10.0, 10.0, 10.0], [12.0, 12.0], level=0.99)
    assert (c.ci_low_percent, c.ci_high_percent, c.p_value) == (pytest.approx(20.0), pytest.approx(20.0), 0.0)
    assert judge(c, 5.0).outcome == INCREASED
    same = ratio_change([10.0, 10.0], [10.0, 10.0], level=0.99)
    assert same.p_value == 1.0 and judge(same, 5.0).outcome == EQUIVALENT


def _change(percent: float, low: float, high: float) -> Change:
    return Change(percent, low, high, 0.95, 0.5, 0.5, False, 100.0, 100.0 + percent, 1.0, 1.0, 8.0, 5, 5)


@pytest.mark.parametrize(
    ("percent", "low", "high", "outcome"),
    [
        (-20.0, -30.0, -10.0, DECREASED),  # the whole CI below 0 and beyond the threshold
        (-8.0, -14.0, -2.0, DECREASED),  # significant; the estimate beyond 5 %, the CI crossing it
        (12.0, 1.0, 25.0, INCREASED),
        (1.0, -2.0, 4.0, EQUIVALENT),  # the whole CI within +-5 %
        (3.0, 1.0, 4.5, EQUIVALENT),  # significant but smaller than anyone cares about
        (3.0, 1.0, 7.0, INCONCLUSIVE),  # significant, within the threshold, the CI crossing it
        (-8.0, -20.0, 3.0, INCONCLUSIVE),  # large but not told from 0
        (0.0, -6.0, 6.0, INCONCLUSIVE),  # nothing seen, but a 6 % change not ruled out
    ],
)
def test_three_outcomes_read_from_the_ci(percent, low, high, outcome):
    assert judge(_change(percent, low, high), 5.0).outcome == outcome


def test_no_green_verdict_while_the_ci_crosses_the_threshold():
    rng = np.random.default_rng(11)
    for _ in range(3000):
        b, v = rng.normal(100, 4, 4), rng.normal(100 * rng.uniform(0.9, 1.1), 4, 4)
        found = verdict(b, v, threshold_percent=5.0, alpha=0.05)
        c = found.change
        if found.outcome == EQUIVALENT:
            assert c.ci_low_percent > -5.0 and c.ci_high_percent < 5.0  # type: ignore[operator]


def test_alpha_spent_over_looks_sums_to_alpha_and_favours_the_last():
    levels = spent_alpha(0.05, [n / 10 for n in range(3, 11)])
    assert sum(levels) == pytest.approx(0.05)
    assert all(a > 0 for a in levels) and levels[0] < 1e-3 < levels[-1]
    assert spent_alpha(0.01, [1.0]) == [pytest.approx(0.01)]


def test_a_long_budget_leaves_every_early_look_a_level_and_its_ci():
    # 3 of 40: the O'Brien-Fleming spending there is ~1e-21, which 1 - alpha cannot hold
    levels = spent_alpha(0.01, [n / 40 for n in range(3, 41)])
    assert min(levels) == MIN_LOOK_LEVEL and sum(levels) < 0.01 + 40 * MIN_LOOK_LEVEL
    plan = SequentialPlan(0.01, 5.0, 3, 40)
    found = plan.look([100.0, 101.0, 99.0], [80.0, 81.0, 79.0])
    assert (
        found.change.ci_low_percent is not None
        and found.change.ci_low_percent < -20 < found.change.ci_high_percent
    )


def test_the_repetitions_to_decide_an_inconclusive_change_do_decide_it():
    # A true +12 % at CV 6 %: from 3 values a side it is rarely decided; at the number suggested, it mostly is
    # (an extrapolation from 3 noisy values: not always).
    rng = np.random.default_rng(5)
    undecided = decided = 0
    for _ in range(300):
        b, v = rng.normal(100, 6, 60), rng.normal(112, 6.7, 60)
        first = verdict(b[:3], v[:3], threshold_percent=5.0, alpha=0.05)
        if first.decided:
            continue
        need = repetitions_to_decide(first)
        if need is None:
            continue
        assert need > 3
        undecided += 1
        n = min(need, 60)
        decided += verdict(b[:n], v[:n], threshold_percent=5.0, alpha=0.05).outcome == INCREASED
    assert undecided > 100 and decided / undecided >= 0.6, (decided, undecided)


def test_outcomes_in_a_measures_terms():
    assert directed(INCREASED, True) == BETTER and directed(INCREASED, False) == WORSE
    assert directed(DECREASED, False) == BETTER and directed(DECREASED, None) == DECREASED
    assert directed(EQUIVALENT, True) == EQUIVALENT and directed(INCONCLUSIVE, False) == INCONCLUSIVE


@pytest.mark.parametrize(
    ("targets", "guards", "expected"),
    [
        ([BETTER], [EQUIVALENT, BETTER], CONFIRMED),
        ([BETTER], [WORSE], HARMFUL),  # a guard got worse: whatever the target did
        ([WORSE], [], HARMFUL),
        ([EQUIVALENT], [INCONCLUSIVE], NO_EFFECT),
        ([BETTER, INCONCLUSIVE], [], INCONCLUSIVE),  # not every target decided
        ([INCONCLUSIVE], [], INCONCLUSIVE),
        ([], [], INCONCLUSIVE),
    ],
)
def test_a_flags_verdict(targets, guards, expected):
    assert flag_verdict(targets, guards) == expected
