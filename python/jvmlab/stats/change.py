"""The change of a variant against a baseline, its CI, and whether it is more than noise: the one test
(Welch's t-test), the one multiple-comparison correction (Benjamini-Hochberg) and the one effect judgement
of jvmlab, for a metric's relative change (compare, gate, goals, regress, verify) and for the differences of
many shares at once (profile diff's frames). Definitions: docs/methodology.md#relative-change."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.stats

from jvmlab.errors import UsageError
from jvmlab.stats._sample import bootstrap_ci, bootstrap_cis, clean, is_constant
from jvmlab.stats.defaults import CONFIDENCE, DEFAULT_ALPHA, DEFAULT_SEED


@dataclass(frozen=True)
class Change:
    """Variant against baseline for one metric; None where a side has too few values."""

    percent: float | None  # (mean_variant / mean_baseline - 1) x 100; None if baseline mean is 0 or missing
    ci_low_percent: float | None  # bootstrap 95% CI of `percent`; None if either side has n < 2
    ci_high_percent: float | None
    p_value: float | None  # Welch's two-sided t-test; None if either side has n < 2
    q_value: float | None  # p adjusted for the metrics compared together (Benjamini-Hochberg)
    significant: bool | None  # see is_significant; None when there is no p-value


@dataclass(frozen=True)
class Difference:
    """mean(new) - mean(base) of one quantity among many compared together (a frame's share)."""

    difference: float
    ci_low: float | None  # bootstrap 95% CI of `difference`; None if either side has n < 2
    ci_high: float | None
    p_value: float | None  # Welch's two-sided t-test; None if either side has n < 2 or it is not tested
    q_value: float | None  # Benjamini-Hochberg across the quantities tested together
    significant: bool  # see is_significant; False when there is no p-value


def is_significant(q: float, ci: tuple[float | None, float | None], none: float, alpha: float) -> bool:
    """The one effect judgement: q < alpha, and the CI (where there is one) excludes `none`, the value of no
    change (0 for a change in percent or a difference). A verdict never contradicts the CI shown with it."""
    low, high = ci
    excludes = low is None or high is None or low > none or high < none
    return q < alpha and excludes


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """q-values of p-values tested together (Benjamini & Hochberg 1995): q_(i) = min over j >= i of
    p_(j) * m / j, for p sorted ascending."""
    if not p_values:
        return []
    return [float(q) for q in scipy.stats.false_discovery_control(list(p_values), method="bh")]


def tested_alone(change: Change, alpha: float = DEFAULT_ALPHA) -> Change:
    """`change` as one hypothesis named before the run (a regress primary measure, a verified flag's target
    measure), not one of many: its q-value is its p-value."""
    if change.p_value is None:
        return dataclasses.replace(change, q_value=None, significant=None)
    ci = (change.ci_low_percent, change.ci_high_percent)
    return dataclasses.replace(
        change, q_value=change.p_value, significant=is_significant(change.p_value, ci, 0.0, alpha)
    )


def relative_change(
    baseline: Sequence[float | None], values: Sequence[float | None], *, seed: int = DEFAULT_SEED
) -> Change:
    """Change of `values` against `baseline` (None and NaN dropped) for one metric on its own:
    q_value = p_value and significant means p < DEFAULT_ALPHA. Use compare_metrics for several metrics."""
    return _change(clean(baseline), clean(values), DEFAULT_ALPHA, seed)


def compare_metrics(
    baseline: Mapping[str, Sequence[float | None]],
    variant: Mapping[str, Sequence[float | None]],
    *,
    alpha: float = DEFAULT_ALPHA,
    seed: int = DEFAULT_SEED,
) -> dict[str, Change]:
    """A Change per metric present in both, in the baseline's order, with the p-values adjusted together
    (Benjamini-Hochberg) into q-values: significant means q < alpha."""
    check_alpha(alpha)
    names = [name for name in baseline if name in variant]
    changes = {name: _change(clean(baseline[name]), clean(variant[name]), alpha, seed) for name in names}
    tested = [name for name in names if changes[name].p_value is not None]
    if not tested:
        return changes
    q_values = benjamini_hochberg([changes[name].p_value for name in tested])  # type: ignore[misc]
    for name, q in zip(tested, q_values, strict=True):
        ch = changes[name]
        significant = is_significant(q, (ch.ci_low_percent, ch.ci_high_percent), 0.0, alpha)
        changes[name] = dataclasses.replace(ch, q_value=q, significant=significant)
    return changes


def mean_differences(
    base: np.ndarray,
    new: np.ndarray,
    *,
    alpha: float = DEFAULT_ALPHA,
    seed: int = DEFAULT_SEED,
    min_mean: float = 0.0,
) -> list[Difference]:
    """A Difference per row of `base` (rows x base repetitions) and `new` (rows x new repetitions): the
    difference of the means, its bootstrap CI (each row's the same as for that row alone), Welch's p and
    q-values adjusted across the rows together (Benjamini-Hochberg).

    Rows whose mean over both sides together is below `min_mean` are not tested (p and q None, never
    significant): independent filtering (Bourgon, Gentleman & Huber 2010). The pooled mean does not depend
    on which side a value came from, so the filter keeps the false discovery rate, and the thousands of
    frames too rare to matter no longer inflate the q-values of the ones that do."""
    check_alpha(alpha)
    base, new = np.asarray(base, dtype=float), np.asarray(new, dtype=float)
    diff = new.mean(axis=-1) - base.mean(axis=-1)
    rows = len(diff)
    if base.shape[-1] < 2 or new.shape[-1] < 2:
        return [Difference(float(d), None, None, None, None, False) for d in diff]
    tested = np.flatnonzero(np.concatenate([base, new], axis=-1).mean(axis=-1) >= min_mean)
    is_tested = set(tested.tolist())
    low, high = np.full(rows, np.nan), np.full(rows, np.nan)
    if tested.size:
        low[tested], high[tested] = bootstrap_cis(
            (base[tested], new[tested]), _difference, confidence=CONFIDENCE, seed=seed
        )
    p: list[float | None] = [None] * rows
    for i in tested:
        p[i] = _welch_p(base[i], new[i])
    q: list[float | None] = [None] * rows
    for i, qv in zip(tested, benjamini_hochberg([p[i] for i in tested]), strict=True):  # type: ignore[misc]
        q[i] = qv
    out = []
    for i in range(rows):
        if i in is_tested and is_constant(base[i]) and is_constant(new[i]):
            low[i] = high[i] = diff[i]
        lo, hi = (
            (float(low[i]), float(high[i])) if np.isfinite(low[i]) and np.isfinite(high[i]) else (None, None)
        )
        sig = q[i] is not None and is_significant(q[i], (lo, hi), 0.0, alpha)  # type: ignore[arg-type]
        out.append(Difference(float(diff[i]), lo, hi, p[i], q[i], sig))
    return out


def check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise UsageError(f"alpha must be between 0 and 1 (default {DEFAULT_ALPHA}), not {alpha}")


def _change(base: np.ndarray, var: np.ndarray, alpha: float, seed: int) -> Change:
    percent = _percent(base, var)
    low, high = _percent_ci(base, var, percent, seed)
    p = _welch_p(base, var)
    return Change(percent, low, high, p, p, None if p is None else is_significant(p, (low, high), 0.0, alpha))


def _percent(base: np.ndarray, var: np.ndarray) -> float | None:
    if base.size == 0 or var.size == 0 or float(np.mean(base)) == 0.0:
        return None
    return float(_ratio_percent(base, var))


def _percent_ci(
    base: np.ndarray, var: np.ndarray, percent: float | None, seed: int
) -> tuple[float | None, float | None]:
    if percent is None or base.size < 2 or var.size < 2:
        return None, None
    if is_constant(base) and is_constant(var):
        return percent, percent
    # Both samples resampled independently, each from itself (two-sample bootstrap, Efron & Tibshirani 1993).
    bounds = bootstrap_ci((base, var), _ratio_percent, confidence=CONFIDENCE, seed=seed)
    return bounds if bounds is not None else (None, None)


def _ratio_percent(base: np.ndarray, var: np.ndarray, axis: int = -1) -> np.ndarray:
    # (mean(variant) / mean(baseline) - 1) x 100
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.mean(var, axis=axis) / np.mean(base, axis=axis) - 1.0) * 100.0


def _difference(base: np.ndarray, new: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(new, axis=axis) - np.mean(base, axis=axis)


def _welch_p(base: np.ndarray, var: np.ndarray) -> float | None:
    if base.size < 2 or var.size < 2:
        return None
    if is_constant(base) and is_constant(var):
        return 1.0 if base[0] == var[0] else 0.0
    # Welch (1947): t = (m1 - m2) / sqrt(s1^2/n1 + s2^2/n2), Welch-Satterthwaite degrees of freedom.
    with warnings.catch_warnings():
        # Values equal to many digits (a peak RSS of the same pre-touched heap) make scipy warn of
        # precision loss in the variance; the test is still the right one to run on them.
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(scipy.stats.ttest_ind(base, var, equal_var=False).pvalue)
