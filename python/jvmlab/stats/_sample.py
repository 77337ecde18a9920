"""Samples as the statistics take them: None and NaN dropped, the rest as a float array."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence

import numpy as np
import scipy.stats

# Resamples per bootstrap: the Monte Carlo error of a 95% bound is then well under 1% of the CI's width.
N_RESAMPLES = 9999


def clean(values: Sequence[float | None]) -> np.ndarray:
    """The values that are numbers: None and NaN are dropped (a missing reading is not a zero)."""
    kept = [float(v) for v in values if v is not None and not math.isnan(v)]
    return np.asarray(kept, dtype=float)


def is_constant(sample: np.ndarray) -> bool:
    return bool(sample.size > 0 and np.all(sample == sample[0]))


def bootstrap_ci(
    samples: tuple[np.ndarray, ...],
    statistic: Callable[..., np.ndarray],
    *,
    confidence: float,
    seed: int,
) -> tuple[float, float] | None:
    """Bootstrap CI of `statistic` over independently resampled `samples`: BCa (Efron 1987), percentile
    when BCa is undefined (a degenerate jackknife gives NaN). None when neither gives finite bounds."""
    for method in ("BCa", "percentile"):
        with warnings.catch_warnings():
            # Degenerate samples make scipy warn before returning NaN, which is handled just below.
            warnings.simplefilter("ignore")
            result = scipy.stats.bootstrap(
                samples,
                statistic,
                n_resamples=N_RESAMPLES,
                vectorized=True,
                axis=-1,
                confidence_level=confidence,
                method=method,
                # random_state, not rng: the keyword every scipy >= 1.11 accepts.
                random_state=np.random.default_rng(seed),
            )
        low, high = result.confidence_interval
        if math.isfinite(low) and math.isfinite(high):
            return float(low), float(high)
    return None
