"""The change of a variant against a baseline: one model for its estimate, its CI and its p-value, and the one
multiple-comparison correction of jvmlab (Benjamini-Hochberg), for a metric's relative change (compare,
gate, goals, regress, verify, tune) and for the differences of many shares at once (profile diff's frames).

A relative change is the ratio of the means, rho = mean_v / mean_b. Its test and its CI come from one
statistic, so they never disagree: Welch's t = (mean_v - rho mean_b) / sqrt(V_v + rho^2 V_b) (V a side's
s^2 / n) with the Welch-Satterthwaite degrees of freedom of the difference. Its p-value at rho = 1 is
Welch's test of the difference of the means; its CI is every rho the test does not reject, Fieller's
interval (Fieller 1954). The CI excludes 0 % exactly when p < 1 - level; a count that fell to 0 and a
baseline near 0 need no special case (a baseline not told from 0 gives an unbounded CI). On its own the CI
is at 1 - alpha. Tested together, the p-values become Benjamini-Hochberg q-values and every CI widens to
the false-coverage level 1 - alpha R / m (Benjamini & Yekutieli 2005; R of the m tested significant): a
CI excludes 0 % exactly when its q < alpha. Definitions: docs/methodology.md#relative-change.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.stats

from jvmlab.errors import UsageError
from jvmlab.stats._sample import clean
from jvmlab.stats.defaults import DEFAULT_ALPHA


@dataclass(frozen=True)
class Change:
    """Variant against baseline for one metric; None where a side has too few values."""

    percent: float | None  # (mean_variant / mean_baseline - 1) x 100; None if baseline mean is 0 or missing
    ci_low_percent: (
        float | None
    )  # the CI of `percent` at `level` (+-inf: unbounded); None if a side has n < 2
    ci_high_percent: float | None
    level: float  # the CI's confidence level: 1 - alpha alone, the false-coverage level among several
    p_value: float | None  # Welch's two-sided test of "no change"; None if either side has n < 2
    q_value: float | None  # p adjusted for the metrics compared together (Benjamini-Hochberg)
    significant: bool | None  # q < alpha, which is the CI excluding 0 %; None when there is no p-value
    # The statistic behind the CI, to draw it at another level: each side's mean and its variance
    # (s^2 / n), and the Welch-Satterthwaite degrees of freedom.
    baseline_mean: float | None = None
    variant_mean: float | None = None
    baseline_var: float | None = None
    variant_var: float | None = None
    df: float | None = None
    n_baseline: int = 0  # values used on each side
    n_variant: int = 0
    nonnegative: bool = False  # no value below 0 on either side: the ratio cannot fall below -100 %

    @property
    def relative_se(self) -> float | None:
        """The standard error of the change as a share of the baseline's mean (the delta method's)."""
        if None in (self.baseline_mean, self.variant_mean, self.baseline_var, self.variant_var):
            return None
        mb, mv = self.baseline_mean, self.variant_mean
        assert (
            mb is not None
            and mv is not None
            and self.baseline_var is not None
            and self.variant_var is not None
        )
        if mb == 0.0:
            return None
        rho = mv / mb
        return math.sqrt(self.variant_var + rho * rho * self.baseline_var) / abs(mb)

    def ci_text(self) -> str:
        """'99% CI [+1.2%, +8.0%]', or "" without a CI."""
        if self.ci_low_percent is None or self.ci_high_percent is None:
            return ""
        return f"{confidence_text(self.level)} CI [{self.ci_low_percent:+.1f}%, {self.ci_high_percent:+.1f}%]"

    def at_level(self, level: float) -> Change:
        """The same change with its CI drawn at `level`."""
        low, high = _bounds(self, level)
        return dataclasses.replace(self, ci_low_percent=low, ci_high_percent=high, level=level)


@dataclass(frozen=True)
class Difference:
    """mean(new) - mean(base) of one quantity among many compared together (a frame's share)."""

    difference: float
    ci_low: float | None  # Welch's CI of `difference` at `level`; None if either side has n < 2
    ci_high: float | None
    level: float
    p_value: float | None  # Welch's two-sided t-test; None if either side has n < 2 or it is not tested
    q_value: float | None  # Benjamini-Hochberg across the quantities tested together
    significant: bool  # q < alpha, which is the CI excluding 0; False when there is no p-value


def confidence_text(level: float) -> str:
    """A CI's level as shown beside it: 0.99 -> "99%", 0.9983 -> "99.83%"."""
    return f"{level * 100:.4g}%"


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """q-values of p-values tested together (Benjamini & Hochberg 1995): q_(i) = min over j >= i of
    p_(j) * m / j, for p sorted ascending."""
    if not p_values:
        return []
    return [float(q) for q in scipy.stats.false_discovery_control(list(p_values), method="bh")]


def false_coverage_level(q_values: Sequence[float], alpha: float) -> float:
    """The confidence level of the CIs shown with q-values: 1 - alpha R / m, R of the m significant (at
    least 1), so that a CI excludes no change exactly when its q-value is below alpha (Benjamini &
    Yekutieli 2005: the intervals of the selected keep their false coverage under alpha)."""
    m = len(q_values)
    if m == 0:
        return 1.0 - alpha
    selected = sum(q < alpha for q in q_values)
    return 1.0 - alpha * max(selected, 1) / m


def relative_change(
    baseline: Sequence[float | None], variant: Sequence[float | None], *, alpha: float = DEFAULT_ALPHA
) -> Change:
    """Change of `variant` against `baseline` (None and NaN dropped) for one metric on its own: its CI at
    1 - alpha, q_value = p_value, significant when p < alpha. Use compare_metrics for several metrics."""
    check_alpha(alpha)
    b, v = clean(baseline), clean(variant)
    level = 1.0 - alpha
    nb, nv = int(b.size), int(v.size)
    if b.size == 0 or v.size == 0:
        return Change(None, None, None, level, None, None, None, n_baseline=nb, n_variant=nv)
    mb, mv = float(b.mean()), float(v.mean())
    percent = None if mb == 0.0 else (mv / mb - 1.0) * 100.0
    sides = {"baseline_mean": mb, "variant_mean": mv, "n_baseline": nb, "n_variant": nv}
    if percent is None or b.size < 2 or v.size < 2:
        return Change(percent, None, None, level, None, None, None, **sides)  # type: ignore[arg-type]
    vb, vv = _variance(b) / b.size, _variance(v) / v.size
    se2 = vb + vv
    if se2 == 0.0:  # both sides constant: the change is exact
        p, df = (1.0 if mv == mb else 0.0), math.inf
    else:
        # Welch (1947): t = (mv - mb) / sqrt(vb + vv), Welch-Satterthwaite degrees of freedom
        df = se2 * se2 / (vb * vb / (b.size - 1) + vv * vv / (v.size - 1))
        p = float(2.0 * scipy.stats.t.sf(abs(mv - mb) / math.sqrt(se2), df))
    nonnegative = bool((b >= 0).all() and (v >= 0).all())
    change = Change(percent, None, None, level, p, p, p < alpha, mb, mv, vb, vv, df, nb, nv, nonnegative)
    return change.at_level(level)


def tested_alone(change: Change, alpha: float = DEFAULT_ALPHA) -> Change:
    """`change` as one hypothesis named before the run (a regress primary measure, a verified flag's target
    measure), not one of many: its q-value is its p-value and its CI is at 1 - alpha."""
    if change.p_value is None:
        return dataclasses.replace(change.at_level(1.0 - alpha), q_value=None, significant=None)
    return dataclasses.replace(
        change.at_level(1.0 - alpha), q_value=change.p_value, significant=change.p_value < alpha
    )


def compare_metrics(
    baseline: Mapping[str, Sequence[float | None]],
    variant: Mapping[str, Sequence[float | None]],
    *,
    alpha: float = DEFAULT_ALPHA,
) -> dict[str, Change]:
    """A Change per metric present in both, in the baseline's order, with the p-values adjusted together
    (Benjamini-Hochberg) into q-values and the CIs at their false-coverage level: significant means
    q < alpha, and then the CI excludes 0 %."""
    check_alpha(alpha)
    names = [name for name in baseline if name in variant]
    changes = {name: relative_change(baseline[name], variant[name], alpha=alpha) for name in names}
    tested = [name for name in names if changes[name].p_value is not None]
    q_values = benjamini_hochberg([changes[name].p_value for name in tested])  # type: ignore[misc]
    level = false_coverage_level(q_values, alpha)
    for name in names:
        changes[name] = changes[name].at_level(level)
    for name, q in zip(tested, q_values, strict=True):
        changes[name] = dataclasses.replace(changes[name], q_value=q, significant=q < alpha)
    return changes


def mean_differences(
    base: np.ndarray,
    new: np.ndarray,
    *,
    alpha: float = DEFAULT_ALPHA,
    min_mean: float = 0.0,
) -> list[Difference]:
    """A Difference per row of `base` (rows x base repetitions) and `new` (rows x new repetitions): the
    difference of the means, Welch's p, q-values adjusted across the rows together (Benjamini-Hochberg)
    and Welch's CI at the false-coverage level of those q-values.

    Rows whose mean over both sides together is below `min_mean` are not tested (p and q None, never
    significant): independent filtering (Bourgon, Gentleman & Huber 2010). The pooled mean does not depend
    on which side a value came from, so the filter keeps the false discovery rate, and the thousands of
    frames too rare to matter no longer inflate the q-values of the ones that do."""
    check_alpha(alpha)
    base, new = np.asarray(base, dtype=float), np.asarray(new, dtype=float)
    diff = new.mean(axis=-1) - base.mean(axis=-1)
    rows = len(diff)
    if base.shape[-1] < 2 or new.shape[-1] < 2:
        return [Difference(float(d), None, None, 1.0 - alpha, None, None, False) for d in diff]
    tested = np.flatnonzero(np.concatenate([base, new], axis=-1).mean(axis=-1) >= min_mean)
    with np.errstate(divide="ignore", invalid="ignore"):
        vb, vv = base.var(axis=-1, ddof=1) / base.shape[-1], new.var(axis=-1, ddof=1) / new.shape[-1]
        se2 = vb + vv
        df = se2 * se2 / (vb * vb / (base.shape[-1] - 1) + vv * vv / (new.shape[-1] - 1))
        t = np.abs(diff) / np.sqrt(se2)
    noisy = se2 > 0  # else both sides constant: the difference is exact
    p = np.where(noisy, 2.0 * scipy.stats.t.sf(t, np.where(noisy, df, 1.0)), np.where(diff == 0, 1.0, 0.0))
    q = benjamini_hochberg([float(p[i]) for i in tested])
    level = false_coverage_level(q, alpha)
    with np.errstate(invalid="ignore"):
        half = np.where(noisy, scipy.stats.t.ppf(0.5 + level / 2.0, np.where(noisy, df, 1.0)), 0.0)
    half = half * np.sqrt(se2)
    q_of = dict(zip(tested.tolist(), q, strict=True))
    out = []
    for i in range(rows):
        qi = q_of.get(i)
        low, high = (float(diff[i] - half[i]), float(diff[i] + half[i])) if qi is not None else (None, None)
        out.append(
            Difference(
                float(diff[i]),
                low,
                high,
                level,
                float(p[i]) if qi is not None else None,
                qi,
                qi is not None and qi < alpha,
            )
        )
    return out


def check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise UsageError(f"alpha must be between 0 and 1 (default {DEFAULT_ALPHA}), not {alpha}")


def _variance(x: np.ndarray) -> float:
    with warnings.catch_warnings():
        # Values equal to many digits (a peak RSS of the same pre-touched heap) may lose precision in the
        # variance; it is still the right one.
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(x.var(ddof=1))


def _bounds(c: Change, level: float) -> tuple[float | None, float | None]:
    """Fieller's CI of `c.percent` at `level`: every ratio rho that Welch's statistic does not reject,
    (mv - rho mb)^2 <= t^2 (vv + rho^2 vb): between the roots of a rho^2 - 2 mv mb rho + (mv^2 - t^2 vv)
    when a = mb^2 - t^2 vb > 0. When a <= 0 (the baseline's mean is not told from 0 at this level) the set
    is unbounded: the half-line that holds the estimate, or every ratio."""
    if c.percent is None or c.df is None:
        return None, None
    mb, mv, vb, vv = c.baseline_mean, c.variant_mean, c.baseline_var, c.variant_var
    if mb is None or mv is None or vb is None or vv is None:
        return None, None
    if vb == 0.0 and vv == 0.0:
        return c.percent, c.percent
    t2 = float(scipy.stats.t.ppf(0.5 + level / 2.0, c.df)) ** 2
    a = mb * mb - t2 * vb
    d = (mv * mb) ** 2 - a * (mv * mv - t2 * vv)
    if a > 0.0:
        root = math.sqrt(max(d, 0.0))
        low, high = (mv * mb - root) / a, (mv * mb + root) / a
    elif a == 0.0 or d <= 0.0:
        low, high = -math.inf, math.inf
    else:
        r1, r2 = sorted(((mv * mb - math.sqrt(d)) / a, (mv * mb + math.sqrt(d)) / a))
        low, high = (-math.inf, r1) if mv / mb <= r1 else (r2, math.inf)
    if c.nonnegative:  # ratios below 0 are impossible: the CI keeps its coverage and its verdict
        low = max(low, 0.0)
    return (low - 1.0) * 100.0, (high - 1.0) * 100.0
