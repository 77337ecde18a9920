"""Statistics over repetitions and time series: estimates, changes between variants, warm-up and steady
state, measurement-quality warnings. One concept per module; methods: docs/methodology.md."""

from jvmlab.stats.change import DEFAULT_ALPHA, Change, compare_metrics, relative_change
from jvmlab.stats.estimate import Estimate, coefficient_of_variation_percent, estimate
from jvmlab.stats.quality import Observation, QualityWarning, quality_warnings
from jvmlab.stats.steady import (
    CLASSIFICATIONS,
    FLAT,
    NO_STEADY_STATE,
    SLOWDOWN,
    WARMUP,
    Segment,
    SteadyState,
    consistency,
    steady_state,
)

__all__ = [
    "CLASSIFICATIONS",
    "DEFAULT_ALPHA",
    "FLAT",
    "NO_STEADY_STATE",
    "SLOWDOWN",
    "WARMUP",
    "Change",
    "Estimate",
    "Observation",
    "QualityWarning",
    "Segment",
    "SteadyState",
    "coefficient_of_variation_percent",
    "compare_metrics",
    "consistency",
    "estimate",
    "quality_warnings",
    "relative_change",
    "steady_state",
]
