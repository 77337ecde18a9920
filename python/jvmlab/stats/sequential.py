"""Repetitions until decided: a comparison looks at its verdict after every interleaved round, from
`min_repetitions` values a side to `max_repetitions`, and stops at the first look where the verdict is
decided (changed or equivalent). Each look tests at its share of alpha (stats.verdict.spent_alpha over the
planned looks), so the chance of a false verdict over all the looks stays under alpha.

The plan also says, before anything runs, the smallest change its budget can tell from no change at a given
noise, and the noise at which it could still show equivalence within the threshold.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import scipy.stats

from jvmlab.errors import UsageError
from jvmlab.stats.change import relative_change
from jvmlab.stats.defaults import AUTO_FIRST_LOOK, DEFAULT_MAX_REPETITIONS
from jvmlab.stats.verdict import Verdict, judge, spent_alpha


@dataclass(frozen=True)
class SequentialPlan:
    alpha: float
    threshold_percent: float
    min_repetitions: int = AUTO_FIRST_LOOK
    max_repetitions: int = DEFAULT_MAX_REPETITIONS

    def __post_init__(self) -> None:
        if not 2 <= self.min_repetitions <= self.max_repetitions:
            raise UsageError(
                f"repetitions: the first look needs at least 2 values a side and at most max_repetitions "
                f"({self.max_repetitions}), not {self.min_repetitions}"
            )

    @cached_property
    def levels(self) -> dict[int, float]:
        """Values a side at each look -> the share of alpha it tests at."""
        looks = range(self.min_repetitions, self.max_repetitions + 1)
        spent = spent_alpha(self.alpha, [n / self.max_repetitions for n in looks])
        return dict(zip(looks, spent, strict=True))

    def level_at(self, n: int) -> float:
        """The share of alpha of a look at `n` values a side (the last look's beyond the budget)."""
        return self.levels[min(max(n, self.min_repetitions), self.max_repetitions)]

    def look(self, baseline: Sequence[float | None], variant: Sequence[float | None]) -> Verdict:
        """The verdict at this look: its CI at 1 - the look's share of alpha."""
        n = min(len(baseline), len(variant))
        return judge(relative_change(baseline, variant, alpha=self.level_at(n)), self.threshold_percent)

    def detectable_percent(self, noise_percent: float) -> float:
        """The change (percent) that the last look detects with 90 % power at this coefficient of variation
        of single runs: z_(1 - a/2) + z_0.9 standard errors of the change at max_repetitions a side."""
        se = math.sqrt(2.0 / self.max_repetitions) * noise_percent / 100.0
        z = scipy.stats.norm.ppf(1.0 - self.level_at(self.max_repetitions) / 2.0) + scipy.stats.norm.ppf(0.9)
        return math.expm1(z * se) * 100.0

    def equivalence_noise_percent(self) -> float:
        """The largest coefficient of variation at which no change is shown equivalent within the threshold
        at the last look, 90 % of the time."""
        z = scipy.stats.norm.ppf(1.0 - self.level_at(self.max_repetitions) / 2.0) + scipy.stats.norm.ppf(0.95)
        return (
            math.log1p(self.threshold_percent / 100.0) / (z * math.sqrt(2.0 / self.max_repetitions)) * 100.0
        )


def run_until_decided(
    plan: SequentialPlan, baseline: Sequence[float], variant: Sequence[float]
) -> tuple[Verdict, int]:
    """The verdict the plan reaches on values that arrive in this order (one round adds one value a side),
    and the values a side it took: the simulation of docs/methodology.md#verdicts and bench/verdicts.py."""
    last = plan.max_repetitions
    for n in range(plan.min_repetitions, last + 1):
        found = plan.look(baseline[:n], variant[:n])
        if found.decided or n == last:
            return found, n
    raise AssertionError("unreachable: the last look returns")
