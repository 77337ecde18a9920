"""Measurement-quality warnings: each names the cause, the figure and the next step (pyperf's checks).
Rules and thresholds: docs/methodology.md#quality-warnings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.stats

from jvmlab.stats.estimate import coefficient_of_variation_percent

DRIFT_MAX_P = 0.01  # a trend this unlikely under "no trend" ...
DRIFT_MIN_RHO = 0.5  # ... and strong, not a faint trend that many trials make significant
DRIFT_MIN_POINTS = 6  # fewer trials give no usable rank correlation
FIRST_MIN_PERCENT = 5.0  # the first repetition is flagged when worse by more than this ...
FIRST_SPREADS = 3.0  # ... and by more than 3 robust standard deviations of the others
# A JVM reading its own files from a cold page cache faults too: a first guess, to check against real runs.
MAJOR_FAULTS_LIMIT = 1000
MAD_TO_SIGMA = 1.4826  # sigma = 1.4826 MAD for normal data


@dataclass(frozen=True)
class Observation:
    """One trial's value of the main metric."""

    variant: str
    repetition: int  # 0-based repetition index within the variant
    order: int  # position in the run order (0-based, across all variants)
    value: float | None
    swap_used_bytes: int | None = None  # peak swap used by the trial's processes, when known
    major_faults: int | None = None


@dataclass(frozen=True)
class QualityWarning:
    """code: "few-repetitions", "high-variation", "drift", "slow-first-repetition" or "swapping"."""

    code: str
    variant: str | None  # None for a warning about the whole run
    message: str  # one sentence: the figure, then the next step


def quality_warnings(
    observations: Sequence[Observation],
    *,
    metric: str,
    higher_is_better: bool = True,
    min_repetitions: int = 3,
    max_cv_percent: float = 5.0,
) -> list[QualityWarning]:
    """Warnings about the trials of one run, in the order of the codes above, then of the variants."""
    by_variant = _values_by_variant(observations)
    found = _few_repetitions(by_variant, min_repetitions)
    found += [w for name, vs in by_variant.items() if (w := _high_variation(name, vs, max_cv_percent))]
    found += _drift(observations, by_variant, metric)
    found += [w for name in by_variant if (w := _slow_first(observations, name, metric, higher_is_better))]
    found += [w for name in by_variant if (w := _swapping(observations, name))]
    return found


def _value(obs: Observation) -> float | None:
    """The trial's value, None when missing or NaN."""
    return None if obs.value is None or math.isnan(obs.value) else float(obs.value)


def _values_by_variant(observations: Sequence[Observation]) -> dict[str, list[float]]:
    by_variant: dict[str, list[float]] = {}
    for obs in observations:
        values = by_variant.setdefault(obs.variant, [])
        if (value := _value(obs)) is not None:
            values.append(value)
    return by_variant


def _few_repetitions(by_variant: dict[str, list[float]], min_repetitions: int) -> list[QualityWarning]:
    few = {name: len(values) for name, values in by_variant.items() if len(values) < min_repetitions}
    if not few:
        return []
    listed = ", ".join(f"{name} ({n})" for name, n in few.items())
    message = (
        f"fewer than {min_repetitions} repetitions with a value for {listed}: the CIs are wide or missing;"
        f" add repetitions (repetitions = {max(min_repetitions, 5)})"
    )
    return [QualityWarning("few-repetitions", None, message)]


def _high_variation(name: str, values: list[float], max_cv_percent: float) -> QualityWarning | None:
    cv = coefficient_of_variation_percent(values)
    if cv is None or cv <= max_cv_percent:
        return None
    message = (
        f"{name}: coefficient of variation {cv:.1f}% over {len(values)} repetitions: add repetitions"
        f" (repetitions = {max(10, 2 * len(values))}) or pin the JVM to CPUs (cpus = [...]) on a quiet"
        f" machine"
    )
    return QualityWarning("high-variation", name, message)


def _drift(
    observations: Sequence[Observation], by_variant: dict[str, list[float]], metric: str
) -> list[QualityWarning]:
    medians = {name: float(np.median(values)) for name, values in by_variant.items() if values}
    points = sorted(
        (obs.order, value / medians[obs.variant])  # each value relative to its variant's median
        for obs in observations
        if (value := _value(obs)) is not None and medians.get(obs.variant)
    )
    if len(points) < DRIFT_MIN_POINTS:
        return []
    orders, relative = np.array([p[0] for p in points]), np.array([p[1] for p in points])
    if np.all(relative == relative[0]):
        return []
    # Spearman's rank correlation of value against run order, p from its t approximation (n - 2 df).
    rho, p = scipy.stats.spearmanr(orders, relative)
    if not (p < DRIFT_MAX_P and abs(rho) >= DRIFT_MIN_RHO):
        return []
    third = len(relative) // 3
    early, late = float(np.mean(relative[:third])), float(np.mean(relative[-third:]))
    if early == 0.0:
        return []
    percent = (late / early - 1.0) * 100.0  # mean relative value, last third of the run against the first
    message = (
        f"{metric} moved {percent:+.1f}% from the first to the last third of the run (Spearman rho {rho:.2f},"
        f" p {p:.1g}): the machine changed during the run (heat, other load, memory); check it, keep"
        f' order = "interleaved" and run again'
    )
    return [QualityWarning("drift", None, message)]


def _slow_first(
    observations: Sequence[Observation], name: str, metric: str, higher_is_better: bool
) -> QualityWarning | None:
    mine = [(o.repetition, v) for o in observations if o.variant == name and (v := _value(o)) is not None]
    first = [value for repetition, value in mine if repetition == 0]
    others = np.array([value for repetition, value in mine if repetition != 0])
    if not first or others.size < 2:
        return None
    median = float(np.median(others))
    if median == 0.0:
        return None
    # Worse by more than max(5%, 3 x the others' robust sd), with sd = 1.4826 MAD, as a share of the median.
    spread = MAD_TO_SIGMA * float(np.median(np.abs(others - median))) / abs(median) * 100.0
    worse = (median - first[0]) / abs(median) * 100.0 * (1.0 if higher_is_better else -1.0)
    if worse <= max(FIRST_MIN_PERCENT, FIRST_SPREADS * spread):
        return None
    message = (
        f"{name}: the first repetition is {worse:.1f}% worse than the median of the other {others.size}"
        f" ({metric} {first[0]:.4g} against {median:.4g}): something was cold (page cache, CPU clock, disk);"
        f" run an unmeasured trial first or raise warmup_s"
    )
    return QualityWarning("slow-first-repetition", name, message)


def _swapping(observations: Sequence[Observation], name: str) -> QualityWarning | None:
    mine = [obs for obs in observations if obs.variant == name]
    swapped = [obs for obs in mine if _swapped(obs)]
    if not swapped:
        return None
    swap_bytes = max(obs.swap_used_bytes or 0 for obs in swapped)
    faults = max(obs.major_faults or 0 for obs in swapped)
    figures = [f"up to {swap_bytes / 2**20:.0f} MiB of swap"] if swap_bytes > 0 else []
    figures += [f"up to {faults} major page faults"] if faults > MAJOR_FAULTS_LIMIT else []
    message = (
        f"{name}: {len(swapped)} of {len(mine)} trials swapped ({', '.join(figures)}): the machine was"
        f" swapping: results are unreliable; free memory or reduce the heap"
    )
    return QualityWarning("swapping", name, message)


def _swapped(obs: Observation) -> bool:
    return (obs.swap_used_bytes or 0) > 0 or (obs.major_faults or 0) > MAJOR_FAULTS_LIMIT
