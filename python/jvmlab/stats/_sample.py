"""Samples as the statistics take them: None and NaN dropped, the rest as a float array."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence

import numpy as np

from jvmlab.stats.defaults import N_RESAMPLES

# Cells (columns x resamples x values) a batched bootstrap holds at once: about 32 MB of floats.
_CELLS_PER_CHUNK = 4_000_000


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
    low, high = bootstrap_cis(
        tuple(s[np.newaxis, :] for s in samples), statistic, confidence=confidence, seed=seed
    )
    if math.isfinite(low[0]) and math.isfinite(high[0]):
        return float(low[0]), float(high[0])
    return None


def bootstrap_cis(
    samples: tuple[np.ndarray, ...],
    statistic: Callable[..., np.ndarray],
    *,
    confidence: float,
    seed: int,
) -> tuple[np.ndarray, np.ndarray]:
    """bootstrap_ci of each row of `samples` (each of shape (rows, values)): NaN bounds where neither BCa
    nor percentile gives finite ones. A row's CI is the one bootstrap_ci gives for that row alone (the
    resampled indices depend on the seed and the sample sizes only), so many frames or event types are
    judged exactly as one metric is."""
    import scipy.stats  # here, not at the top: an estimate's callers that never bootstrap skip its import

    rows = samples[0].shape[0]
    low, high = np.full(rows, np.nan), np.full(rows, np.nan)
    chunk = max(1, _CELLS_PER_CHUNK // (N_RESAMPLES * sum(s.shape[-1] for s in samples)))
    for start in range(0, rows, chunk):
        part = tuple(s[start : start + chunk] for s in samples)
        lo, hi = low[start : start + chunk], high[start : start + chunk]
        for method in ("BCa", "percentile"):
            todo = ~(np.isfinite(lo) & np.isfinite(hi))
            if not todo.any():
                break
            with warnings.catch_warnings():
                # Degenerate samples make scipy warn before returning NaN, which is handled here.
                warnings.simplefilter("ignore")
                result = scipy.stats.bootstrap(
                    tuple(s[todo] for s in part),
                    statistic,
                    n_resamples=N_RESAMPLES,
                    vectorized=True,
                    axis=-1,
                    confidence_level=confidence,
                    method=method,
                    # random_state, not rng: the keyword every scipy >= 1.11 accepts.
                    random_state=np.random.default_rng(seed),
                )
            lo[todo], hi[todo] = result.confidence_interval
    return low, high
