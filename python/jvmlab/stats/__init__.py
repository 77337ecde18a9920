"""Statistics over repetitions and time series: estimates, changes between variants, warm-up and steady
state, measurement-quality warnings. One concept per module; methods: docs/methodology.md."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jvmlab.lazy import exports

# Imported at once: the defaults (what an experiment's spec reads) and the estimates (a lazy `estimate`
# would be shadowed by its own module, once imported); the rest on first use (_HOMES).
from jvmlab.stats.defaults import (
    CONFIDENCE,
    DEFAULT_ALPHA,
    DEFAULT_SEED,
    DEFAULT_THRESHOLD_PERCENT,
    N_RESAMPLES,
)
from jvmlab.stats.estimate import Estimate, coefficient_of_variation_percent, estimate, estimates

if TYPE_CHECKING:
    from jvmlab.stats.change import (
        Change,
        Difference,
        benjamini_hochberg,
        compare_metrics,
        confidence_text,
        false_coverage_level,
        mean_differences,
        relative_change,
        tested_alone,
    )
    from jvmlab.stats.quality import Observation, QualityWarning, quality_warnings
    from jvmlab.stats.sequential import SequentialPlan
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
    from jvmlab.stats.verdict import (
        BETTER,
        CONFIRMED,
        DECREASED,
        EQUIVALENT,
        HARMFUL,
        INCONCLUSIVE,
        INCREASED,
        NO_EFFECT,
        WORSE,
        Verdict,
        directed,
        flag_verdict,
        judge,
        repetitions_to_decide,
    )

# The modules behind the names, imported on first use: the defaults above (what an experiment's spec
# reads) do not bring scipy (0.9 CPU-s) into every jvmlab process, a trial's worker or `advise --pid`.
_HOMES = {
    name: home
    for home, names in {
        "change": "Change Difference benjamini_hochberg compare_metrics confidence_text false_coverage_level "
        "mean_differences relative_change tested_alone",
        "quality": "Observation QualityWarning quality_warnings",
        "sequential": "SequentialPlan",
        "steady": "CLASSIFICATIONS FLAT NO_STEADY_STATE SLOWDOWN WARMUP Segment SteadyState consistency "
        "steady_state",
        "verdict": "BETTER CONFIRMED DECREASED EQUIVALENT HARMFUL INCONCLUSIVE INCREASED NO_EFFECT WORSE "
        "Verdict directed flag_verdict judge repetitions_to_decide",
    }.items()
    for name in names.split()
}


__getattr__ = exports(__name__, _HOMES)


__all__ = [
    "BETTER",
    "CONFIRMED",
    "DECREASED",
    "DEFAULT_THRESHOLD_PERCENT",
    "EQUIVALENT",
    "HARMFUL",
    "INCONCLUSIVE",
    "INCREASED",
    "NO_EFFECT",
    "WORSE",
    "Verdict",
    "confidence_text",
    "directed",
    "false_coverage_level",
    "flag_verdict",
    "judge",
    "repetitions_to_decide",
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
    "SequentialPlan",
    "SteadyState",
    "benjamini_hochberg",
    "coefficient_of_variation_percent",
    "compare_metrics",
    "consistency",
    "estimate",
    "estimates",
    "mean_differences",
    "quality_warnings",
    "relative_change",
    "steady_state",
    "tested_alone",
]
