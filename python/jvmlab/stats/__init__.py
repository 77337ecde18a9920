"""Statistics over repetitions and time series: estimates, changes between variants, warm-up and steady
state, measurement-quality warnings. One concept per module; methods: docs/methodology.md."""

from jvmlab.stats.change import (
    Change,
    Difference,
    benjamini_hochberg,
    compare_metrics,
    is_significant,
    mean_differences,
    relative_change,
    tested_alone,
)
from jvmlab.stats.defaults import CONFIDENCE, DEFAULT_ALPHA, DEFAULT_SEED, N_RESAMPLES
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
    "CONFIDENCE",
    "DEFAULT_ALPHA",
    "DEFAULT_SEED",
    "FLAT",
    "N_RESAMPLES",
    "NO_STEADY_STATE",
    "SLOWDOWN",
    "WARMUP",
    "Change",
    "Difference",
    "Estimate",
    "Observation",
    "QualityWarning",
    "Segment",
    "SteadyState",
    "benjamini_hochberg",
    "coefficient_of_variation_percent",
    "compare_metrics",
    "consistency",
    "estimate",
    "is_significant",
    "mean_differences",
    "quality_warnings",
    "relative_change",
    "steady_state",
    "tested_alone",
]
