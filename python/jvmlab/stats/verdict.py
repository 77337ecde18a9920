"""The verdict on a change: one statistic, three outcomes.

The change of a measure from a baseline to a variant is the ratio of their means, with its CI and p-value
from one model (stats.change): they never disagree. Against a threshold T (percent), the outcome is one of
three:
- changed (`increased` or `decreased`): the CI excludes 0 % and the estimate is beyond T;
- `equivalent`: the whole CI lies within +-T (two one-sided tests, Schuirmann 1987, read from the same CI:
  conservative, as that CI is the 1 - alpha one rather than 1 - 2 alpha);
- `inconclusive`: neither; more repetitions would decide it (`repetitions_to_decide`).

Definitions and the simulations behind the defaults: docs/methodology.md#verdicts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import scipy.stats

from jvmlab.stats.change import Change, relative_change

INCREASED, DECREASED, EQUIVALENT, INCONCLUSIVE = "increased", "decreased", "equivalent", "inconclusive"
OUTCOMES = (INCREASED, DECREASED, EQUIVALENT, INCONCLUSIVE)


@dataclass(frozen=True)
class Verdict:
    change: Change
    threshold_percent: float
    outcome: str  # one of OUTCOMES

    @property
    def decided(self) -> bool:
        return self.outcome != INCONCLUSIVE


def judge(change: Change, threshold_percent: float) -> Verdict:
    """The outcome of `change` against +-`threshold_percent`, read from its CI alone."""
    low, high, percent = change.ci_low_percent, change.ci_high_percent, change.percent
    outcome = INCONCLUSIVE
    if low is not None and high is not None and percent is not None:
        if low > 0.0 and percent > threshold_percent:
            outcome = INCREASED
        elif high < 0.0 and percent < -threshold_percent:
            outcome = DECREASED
        elif -threshold_percent < low and high < threshold_percent:
            outcome = EQUIVALENT
    return Verdict(change, threshold_percent, outcome)


def verdict(
    baseline: Sequence[float | None],
    variant: Sequence[float | None],
    *,
    threshold_percent: float,
    alpha: float,
) -> Verdict:
    """judge(relative_change(...)): one measure on its own, its CI at 1 - alpha."""
    return judge(relative_change(baseline, variant, alpha=alpha), threshold_percent)


def repetitions_to_decide(v: Verdict) -> int | None:
    """About how many values a side would decide an inconclusive verdict at this noise and the CI's level
    (the standard error shrinking as 1 / sqrt(n)): to tell the estimate from 0 % when it lies beyond the
    threshold, else to fit the CI within +-T. 0 when decided; None when there is nothing to extrapolate
    from (fewer than 2 values a side, or an estimate on the threshold itself)."""
    c = v.change
    se = c.relative_se
    if se is None or c.percent is None:
        return None
    if v.decided:
        return 0
    est, bound = abs(c.percent) / 100.0, v.threshold_percent / 100.0
    gap = est if abs(c.percent) > v.threshold_percent else bound - est
    if gap <= 0:
        return None
    n_now = min(c.n_baseline, c.n_variant)
    z = float(scipy.stats.norm.ppf(0.5 + c.level / 2.0))
    return max(n_now + 1, math.ceil(n_now * (z * se / gap) ** 2))


# The smallest level a look tests at: a CI at 1 - 1e-9 still exists in floating point (1 - 1e-16 does not).
MIN_LOOK_LEVEL = 1e-9


def spent_alpha(alpha: float, information: Sequence[float]) -> list[float]:
    """The level to test at, at each of several looks at accumulating data (information fractions in
    (0, 1], increasing; 1 at the planned maximum), so that the chance of any false verdict over all the
    looks stays under `alpha`: the increments of Lan & DeMets' O'Brien-Fleming-like spending function
    alpha(t) = 2 - 2 Phi(z_{alpha/2} / sqrt(t)), each used as its look's level (the union bound makes their
    sum, alpha, a bound on the overall error). Early looks get tiny levels, the last nearly all of alpha.
    A level is never below MIN_LOOK_LEVEL (early looks of a long budget would round to 0, where no CI
    exists): that adds at most MIN_LOOK_LEVEL per look to the bound, nothing beside alpha."""
    z = float(scipy.stats.norm.isf(alpha / 2.0))
    spent = [float(2.0 * scipy.stats.norm.sf(z / math.sqrt(t))) for t in information]
    out, before = [], 0.0
    for s in spent:
        out.append(max(s - before, MIN_LOOK_LEVEL))
        before = max(before, s)
    return out


BETTER, WORSE = "better", "worse"


def directed(outcome: str, higher_is_better: bool | None) -> str:
    """The outcome in the measure's terms: an increase or decrease as `better` or `worse` when the measure
    has a better direction; equivalent and inconclusive as they are."""
    if higher_is_better is None or outcome not in (INCREASED, DECREASED):
        return outcome
    return BETTER if (outcome == INCREASED) == higher_is_better else WORSE


CONFIRMED, HARMFUL, NO_EFFECT = "confirmed", "harmful", "no effect"
FLAG_VERDICTS = (CONFIRMED, HARMFUL, NO_EFFECT, INCONCLUSIVE)


def flag_verdict(targets: Sequence[str], guards: Sequence[str] = ()) -> str:
    """What a tried flag did, from the directed outcomes of the measures it aims at (`targets`) and of the
    measures it must not hurt (`guards`): harmful when any of them got worse, confirmed when every target
    got better, no effect when every target is equivalent, else inconclusive (more repetitions decide)."""
    if WORSE in targets or WORSE in guards:
        return HARMFUL
    if targets and all(t == BETTER for t in targets):
        return CONFIRMED
    if targets and all(t == EQUIVALENT for t in targets):
        return NO_EFFECT
    return INCONCLUSIVE
