"""The verdict on a change: one statistic, three outcomes.

The change of a measure from a baseline to a variant is the ratio of their means. Its estimate, its CI and
its p-value come from one model, so that they never disagree: the log of the ratio of the means, whose
standard error is the delta method's (each side's log mean has variance s^2 / (n mean^2)) with Welch-
Satterthwaite degrees of freedom. The CI at level 1 - alpha excludes 0 % exactly when p < alpha.

Against a threshold T (percent), the outcome is one of three:
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

import numpy as np
import scipy.stats

from jvmlab.stats._sample import clean

INCREASED, DECREASED, EQUIVALENT, INCONCLUSIVE = "increased", "decreased", "equivalent", "inconclusive"
OUTCOMES = (INCREASED, DECREASED, EQUIVALENT, INCONCLUSIVE)


@dataclass(frozen=True)
class RatioChange:
    """The change of the mean from baseline to variant, in percent, with its CI and p from one model."""

    percent: float | None  # (mean_variant / mean_baseline - 1) x 100
    ci_low_percent: float | None  # at `level`; None with fewer than 2 values a side or a non-positive mean
    ci_high_percent: float | None
    p_value: float | None  # two-sided, of "no change"; < 1 - level exactly when the CI excludes 0 %
    level: float  # the CI's confidence level
    df: float | None  # Welch-Satterthwaite degrees of freedom
    log_se: float | None  # standard error of log(ratio): the noise that decides how fast a verdict comes
    n_baseline: int = 0  # values used on each side
    n_variant: int = 0


@dataclass(frozen=True)
class Verdict:
    change: RatioChange
    threshold_percent: float
    outcome: str  # one of OUTCOMES

    @property
    def decided(self) -> bool:
        return self.outcome != INCONCLUSIVE


def ratio_change(
    baseline: Sequence[float | None], variant: Sequence[float | None], *, level: float
) -> RatioChange:
    """The change of `variant`'s mean against `baseline`'s (None and NaN dropped), its CI at `level` and
    its p-value, from the log of the ratio of the means."""
    b, v = clean(baseline), clean(variant)
    sizes = {"n_baseline": int(b.size), "n_variant": int(v.size)}
    if b.size == 0 or v.size == 0:
        return RatioChange(None, None, None, None, level, None, None, **sizes)
    mb, mv = float(b.mean()), float(v.mean())
    percent = None if mb == 0 else (mv / mb - 1.0) * 100.0
    if b.size < 2 or v.size < 2 or mb <= 0 or mv <= 0:
        return RatioChange(percent, None, None, None, level, None, None, **sizes)
    # Var(log mean) by the delta method: Var(mean) / mean^2 = s^2 / (n mean^2).
    vb, vv = float(b.var(ddof=1)) / (b.size * mb * mb), float(v.var(ddof=1)) / (v.size * mv * mv)
    se2 = vb + vv
    log_ratio = math.log(mv / mb)
    if se2 == 0.0:  # both sides constant: the change is exact
        p = 1.0 if log_ratio == 0.0 else 0.0
        return RatioChange(percent, percent, percent, p, level, math.inf, 0.0, **sizes)
    df = se2 * se2 / (vb * vb / (b.size - 1) + vv * vv / (v.size - 1))
    se = math.sqrt(se2)
    t = float(scipy.stats.t.ppf(0.5 + level / 2.0, df))
    p = float(2.0 * scipy.stats.t.sf(abs(log_ratio) / se, df))
    low, high = _percent_of_log(log_ratio - t * se), _percent_of_log(log_ratio + t * se)
    return RatioChange(percent, low, high, p, level, df, se, **sizes)


def _percent_of_log(x: float) -> float:
    # exp(x) - 1 in percent; an interval wide enough to overflow (a tiny level on few values) is unbounded
    return math.expm1(x) * 100.0 if x < 700.0 else math.inf


def judge(change: RatioChange, threshold_percent: float) -> Verdict:
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
    """judge(ratio_change(...)) with the CI at 1 - alpha."""
    return judge(ratio_change(baseline, variant, level=1.0 - alpha), threshold_percent)


def repetitions_to_decide(v: Verdict, alpha: float) -> int | None:
    """About how many values a side would decide an inconclusive verdict at this noise (the standard error
    shrinking as 1 / sqrt(n)): to tell the estimate from 0 % when it lies beyond the threshold, else to
    fit the CI within +-T. None when there is nothing to extrapolate from (fewer than 2 values a side, or
    an estimate on the threshold itself)."""
    c = v.change
    if c.log_se is None or c.percent is None or c.df is None:
        return None
    if v.decided:
        return 0
    n_now = min(c.n_baseline, c.n_variant)
    z = float(scipy.stats.norm.ppf(1.0 - alpha / 2.0))
    est = abs(math.log1p(c.percent / 100.0))
    bound = math.log1p(v.threshold_percent / 100.0)
    gap = est if abs(c.percent) > v.threshold_percent else bound - est
    if gap <= 0:
        return None
    return max(n_now + 1, math.ceil(n_now * (z * c.log_se / gap) ** 2))


def spent_alpha(alpha: float, information: Sequence[float]) -> list[float]:
    """The level to test at, at each of several looks at accumulating data (information fractions in
    (0, 1], increasing; 1 at the planned maximum), so that the chance of any false verdict over all the
    looks stays under `alpha`: the increments of Lan & DeMets' O'Brien-Fleming-like spending function
    alpha(t) = 2 - 2 Phi(z_{alpha/2} / sqrt(t)), each used as its look's level (the union bound makes their
    sum, alpha, a bound on the overall error). Early looks get tiny levels, the last nearly all of alpha."""
    z = float(scipy.stats.norm.ppf(1.0 - alpha / 2.0))
    spent = [float(2.0 - 2.0 * scipy.stats.norm.cdf(z / math.sqrt(t))) for t in information]
    out, before = [], 0.0
    for s in spent:
        out.append(max(s - before, 0.0))
        before = max(before, s)
    return out


def noise_percent(values: Sequence[float | None]) -> float | None:
    """The coefficient of variation of repeated runs, in percent: the noise a verdict has to see through."""
    x = clean(values)
    if x.size < 2 or float(x.mean()) == 0.0:
        return None
    return float(np.std(x, ddof=1) / abs(x.mean()) * 100.0)
