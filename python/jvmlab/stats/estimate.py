"""The estimate of one figure over repetitions: mean, median, spread and a bootstrap CI of the mean.
Definitions: docs/methodology.md#estimates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from jvmlab.errors import UsageError
from jvmlab.stats._sample import bootstrap_ci, bootstrap_cis, clean, is_constant
from jvmlab.stats.defaults import CONFIDENCE as DEFAULT_CONFIDENCE
from jvmlab.stats.defaults import DEFAULT_SEED


@dataclass(frozen=True)
class Estimate:
    """A figure over n repetitions; None where n is too small for it (never NaN)."""

    n: int
    mean: float | None
    median: float | None
    stdev: float | None  # sample stdev (ddof=1); None for n < 2
    cv_percent: float | None  # stdev / |mean| x 100; None when n < 2 or mean == 0
    ci_low: float | None  # bootstrap CI of the mean; None for n < 2
    ci_high: float | None
    confidence: float = DEFAULT_CONFIDENCE


def estimate(
    values: Sequence[float | None], *, confidence: float = DEFAULT_CONFIDENCE, seed: int = DEFAULT_SEED
) -> Estimate:
    """Estimate of `values` (None and NaN dropped; `n` counts the rest). The CI is the bootstrap CI of the
    mean (BCa, percentile when BCa is undefined), the same for the same `seed`; equal values give [v, v]."""
    check_confidence(confidence)
    sample = clean(values)
    ci = _mean_ci(sample, confidence, seed) if sample.size > 1 else None
    return _estimate(sample, confidence, ci)


def estimates(
    samples: Sequence[Sequence[float | None]],
    *,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = DEFAULT_SEED,
) -> list[Estimate]:
    """estimate() of each of `samples`, the same figures, with the bootstrap CIs of samples of one size
    drawn together (the resampled indices depend on the seed and the size only): a table of many measures
    over the same trials pays the resampling once per size instead of once per measure."""
    check_confidence(confidence)
    cleaned = [clean(values) for values in samples]
    by_size: dict[int, list[int]] = {}
    for i, sample in enumerate(cleaned):
        if sample.size > 1 and not is_constant(sample):
            by_size.setdefault(int(sample.size), []).append(i)
    bounds: dict[int, tuple[float | None, float | None]] = {}
    for rows in by_size.values():
        low, high = bootstrap_cis(
            (np.stack([cleaned[i] for i in rows]),), _mean, confidence=confidence, seed=seed
        )
        for i, lo, hi in zip(rows, low.tolist(), high.tolist(), strict=True):
            finite = np.isfinite(lo) and np.isfinite(hi)
            bounds[i] = (lo, hi) if finite else (None, None)
    return [_estimate(sample, confidence, bounds.get(i)) for i, sample in enumerate(cleaned)]


def _estimate(
    sample: np.ndarray, confidence: float, ci: tuple[float | None, float | None] | None
) -> Estimate:
    n = int(sample.size)
    if n == 0:
        return Estimate(0, None, None, None, None, None, None, confidence)
    mean = float(np.mean(sample))
    median = float(np.median(sample))
    if n == 1:
        return Estimate(1, mean, median, None, None, None, None, confidence)
    low, high = ci if ci is not None else (float(sample[0]), float(sample[0]))  # a constant sample
    stdev = float(np.std(sample, ddof=1))  # s = sqrt(sum((x - mean)^2) / (n - 1))
    return Estimate(n, mean, median, stdev, coefficient_of_variation_percent(sample), low, high, confidence)


def coefficient_of_variation_percent(values: Sequence[float | None] | np.ndarray) -> float | None:
    """CV = s / |mean| x 100 with s the sample stdev (ddof=1); None for fewer than 2 values or a zero mean."""
    sample = clean(list(values))
    if sample.size < 2 or float(np.mean(sample)) == 0.0:
        return None
    return float(np.std(sample, ddof=1) / abs(np.mean(sample)) * 100.0)


def check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise UsageError(f"confidence must be between 0 and 1 (0.95 for a 95% CI), not {confidence}")


def _mean_ci(sample: np.ndarray, confidence: float, seed: int) -> tuple[float | None, float | None]:
    if is_constant(sample):
        return float(sample[0]), float(sample[0])
    bounds = bootstrap_ci((sample,), _mean, confidence=confidence, seed=seed)
    return bounds if bounds is not None else (None, None)


def _mean(sample: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(sample, axis=axis)
