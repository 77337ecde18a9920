"""Repetitions until decided (jvmlab.stats.sequential): the error rates over repeated looks, checked by a
short simulation (bench/verdicts.py runs the long one), and the plan's own arithmetic."""

from __future__ import annotations

import numpy as np
import pytest

from jvmlab.errors import UsageError
from jvmlab.stats.sequential import SequentialPlan, run_until_decided
from jvmlab.stats.verdict import DECREASED, EQUIVALENT, INCREASED

PLAN = SequentialPlan(alpha=0.05, threshold_percent=5.0, min_repetitions=3, max_repetitions=20)


def _outcomes(effect: float, noise: float, runs: int, seed: int) -> tuple[dict[str, float], float]:
    rng = np.random.default_rng(seed)
    found: dict[str, int] = {}
    used = []
    for _ in range(runs):
        base, new = rng.normal(100, noise, 20), rng.normal(100 * (1 + effect), noise * (1 + effect), 20)
        v, n = run_until_decided(PLAN, base, new)
        found[v.outcome] = found.get(v.outcome, 0) + 1
        used.append(n)
    return {k: c / runs for k, c in found.items()}, float(np.mean(used))


def test_no_change_is_rarely_called_a_change_and_mostly_shown_equivalent_at_low_noise():
    rates, mean_n = _outcomes(0.0, 3.0, 400, seed=1)
    assert rates.get(INCREASED, 0) + rates.get(DECREASED, 0) <= PLAN.alpha
    assert rates.get(EQUIVALENT, 0) >= 0.9 and mean_n < 16


def test_a_ten_percent_change_is_found_the_right_way_and_early():
    rates, mean_n = _outcomes(-0.10, 3.0, 400, seed=2)
    assert rates.get(DECREASED, 0) >= 0.95 and mean_n < 10
    rates, _ = _outcomes(0.10, 5.0, 400, seed=3)
    assert rates.get(INCREASED, 0) >= 0.9


def test_the_looks_spend_alpha_and_the_plan_says_what_its_budget_can_see():
    assert sum(PLAN.levels.values()) == pytest.approx(0.05)
    assert PLAN.level_at(2) == PLAN.levels[3] and PLAN.level_at(99) == PLAN.levels[20]
    assert PLAN.detectable_percent(3.0) < PLAN.detectable_percent(6.0) < 10.0
    assert 3.0 < PLAN.equivalence_noise_percent() < 4.0  # bench/verdicts.py: 98 % at 3 %, 29 % at 5 %
    with pytest.raises(UsageError, match="at least 2 values"):
        SequentialPlan(0.05, 5.0, min_repetitions=1)
