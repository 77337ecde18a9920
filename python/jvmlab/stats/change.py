"""The relative change of a variant against a baseline, its CI, and whether it is more than noise.
Definitions: docs/methodology.md#relative-change."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.stats

from jvmlab.errors import UsageError
from jvmlab.stats._sample import bootstrap_ci, clean, is_constant

# Compared runs report several metrics at once and Benjamini-Hochberg keeps the chance of any false alarm,
# when nothing changed at all, at about alpha. At 0.05 an A/A run (the same thing twice) would raise an
# alarm in about 1 run in 20; at 0.01, in about 1 in 100 (docs/methodology.md#the-default-alpha).
DEFAULT_ALPHA = 0.01
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Change:
    """Variant against baseline for one metric; None where a side has too few values."""

    percent: float | None  # (mean_variant / mean_baseline - 1) x 100; None if baseline mean is 0 or missing
    ci_low_percent: float | None  # bootstrap 95% CI of `percent`; None if either side has n < 2
    ci_high_percent: float | None
    p_value: float | None  # Welch's two-sided t-test; None if either side has n < 2
    q_value: float | None  # p adjusted for the metrics compared together (Benjamini-Hochberg)
    significant: bool | None  # q_value < alpha; None when there is no p-value


def relative_change(
    baseline: Sequence[float | None], values: Sequence[float | None], *, seed: int = 0
) -> Change:
    """Change of `values` against `baseline` (None and NaN dropped) for one metric on its own:
    q_value = p_value and significant means p < DEFAULT_ALPHA. Use compare_metrics for several metrics."""
    return _change(clean(baseline), clean(values), DEFAULT_ALPHA, seed)


def compare_metrics(
    baseline: Mapping[str, Sequence[float | None]],
    variant: Mapping[str, Sequence[float | None]],
    *,
    alpha: float = DEFAULT_ALPHA,
    seed: int = 0,
) -> dict[str, Change]:
    """A Change per metric present in both, in the baseline's order, with the p-values adjusted together
    (Benjamini-Hochberg) into q-values: significant means q < alpha."""
    if not 0.0 < alpha < 1.0:
        raise UsageError(f"alpha must be between 0 and 1 (default {DEFAULT_ALPHA}), not {alpha}")
    names = [name for name in baseline if name in variant]
    changes = {name: _change(clean(baseline[name]), clean(variant[name]), alpha, seed) for name in names}
    tested = [name for name in names if changes[name].p_value is not None]
    if not tested:
        return changes
    # Benjamini & Hochberg (1995): q_(i) = min over j >= i of p_(j) * m / j, for p sorted ascending.
    q_values = scipy.stats.false_discovery_control([changes[name].p_value for name in tested], method="bh")
    for name, q in zip(tested, q_values, strict=True):
        changes[name] = dataclasses.replace(changes[name], q_value=float(q), significant=bool(q < alpha))
    return changes


def _change(base: np.ndarray, var: np.ndarray, alpha: float, seed: int) -> Change:
    percent = _percent(base, var)
    low, high = _percent_ci(base, var, percent, seed)
    p = _welch_p(base, var)
    return Change(percent, low, high, p, p, None if p is None else p < alpha)


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
