"""quality_warnings(): each rule fires on a constructed run and stays quiet on a clean one."""

import numpy as np
import pytest

from jvmlab.stats import Observation, QualityWarning, quality_warnings

VARIANTS = ("jdk17/default", "jdk21/default", "jdk21/zgc")


def run(
    repetitions: int = 10,
    cv_percent: float = 1.0,
    seed: int = 0,
    means: tuple[float, ...] = (100.0, 110.0, 95.0),
) -> list[Observation]:
    """A clean interleaved run: each round runs every variant once, values normal around each mean."""
    rng = np.random.default_rng(seed)
    observations = []
    for rep in range(repetitions):
        for i, (variant, mean) in enumerate(zip(VARIANTS, means, strict=True)):
            value = float(rng.normal(mean, mean * cv_percent / 100.0))
            observations.append(Observation(variant, rep, rep * len(VARIANTS) + i, value))
    return observations


def codes(warnings: list[QualityWarning]) -> list[tuple[str, str | None]]:
    return [(w.code, w.variant) for w in warnings]


def replace_value(observations, variant, repetition, **changes):
    return [
        Observation(**{**o.__dict__, **changes}) if (o.variant, o.repetition) == (variant, repetition) else o
        for o in observations
    ]


@pytest.mark.parametrize("seed", range(5))
def test_a_clean_run_has_no_warning(seed):
    assert quality_warnings(run(seed=seed), metric="ops_per_s") == []


def test_no_observations_no_warning():
    assert quality_warnings([], metric="ops_per_s") == []


def test_few_repetitions_warns_once_listing_the_variants():
    observations = [o for o in run() if o.repetition < 2 or o.variant == "jdk21/zgc"]
    observations = [*observations, Observation("jdk8/cms", 0, 99, None)]
    warnings = quality_warnings(observations, metric="ops_per_s")
    assert codes(warnings) == [("few-repetitions", None)]
    message = warnings[0].message
    assert "jdk17/default (2), jdk21/default (2), jdk8/cms (0)" in message and "zgc" not in message
    assert "add repetitions (repetitions = 5)" in message


def test_high_variation_names_the_cv_and_the_next_step():
    rng = np.random.default_rng(1)
    values = [100.0 * (1 + 0.12 * z) for z in rng.standard_normal(8)]
    cv = np.std(values, ddof=1) / abs(np.mean(values)) * 100
    observations = [o for o in run(repetitions=8) if o.variant != "jdk21/zgc"]
    observations = [
        Observation(o.variant, o.repetition, o.order, values[o.repetition])
        if o.variant == "jdk21/default"
        else o
        for o in observations
    ]
    warnings = quality_warnings(observations, metric="ops_per_s")
    assert codes(warnings) == [("high-variation", "jdk21/default")]
    assert warnings[0].message.startswith(
        f"jdk21/default: coefficient of variation {cv:.1f}% over 8 repetitions"
    )
    assert "repetitions = 16" in warnings[0].message and "cpus = " in warnings[0].message
    assert quality_warnings(observations, metric="ops_per_s", max_cv_percent=50.0) == []


def test_drift_across_the_run_is_found_through_the_variants():
    observations = run(repetitions=8)
    last = max(o.order for o in observations)
    drifting = [
        Observation(o.variant, o.repetition, o.order, o.value * (1 - 0.10 * o.order / last))
        for o in observations
    ]
    warnings = quality_warnings(drifting, metric="ops_per_s")
    assert codes(warnings) == [("drift", None)]
    message = warnings[0].message
    assert message.startswith("ops_per_s moved -")
    percent = float(message.split("moved ")[1].split("%")[0])
    assert -10.0 < percent < -5.0  # thirds' means: about -6.7% of a 10% linear fall
    assert 'order = "interleaved"' in message


def test_a_slow_first_repetition_is_flagged_for_its_variant_only():
    observations = replace_value(run(), "jdk21/zgc", 0, value=88.0)  # others around 95 +- 1%
    warnings = quality_warnings(observations, metric="ops_per_s")
    assert codes(warnings) == [("slow-first-repetition", "jdk21/zgc")]
    assert warnings[0].message.startswith("jdk21/zgc: the first repetition is 7.")
    assert "than the median of the other 9 (ops_per_s 88 against 9" in warnings[0].message


def test_a_fast_first_repetition_is_not_slow():
    observations = replace_value(run(), "jdk21/zgc", 0, value=110.0)
    assert "slow-first-repetition" not in [w.code for w in quality_warnings(observations, metric="ops_per_s")]


def test_for_lower_is_better_a_high_first_repetition_is_slow():
    observations = replace_value(run(), "jdk17/default", 0, value=110.0)
    lower = quality_warnings(observations, metric="p99_ms", higher_is_better=False)
    assert codes(lower) == [("slow-first-repetition", "jdk17/default")]
    assert "slow-first-repetition" not in [w.code for w in quality_warnings(observations, metric="ops_per_s")]


def test_a_first_repetition_is_judged_against_the_spread_of_the_others():
    # Others: median 100, MAD 6, robust sd 1.4826 x 6 = 8.9%: the bar is 3 x 8.9% = 26.7% worse, not 5%.
    others = [100.0, 90.0, 106.0, 98.0, 110.0, 94.0, 102.0]  # in no order: no drift

    def first_warned(first: float) -> bool:
        observations = [Observation("a", rep, rep, v) for rep, v in enumerate([first, *others])]
        found = quality_warnings(observations, metric="ops_per_s", max_cv_percent=50.0)
        return [w.code for w in found] == ["slow-first-repetition"]

    assert not first_warned(88.0)
    assert not first_warned(74.0)
    assert first_warned(72.0)


def test_swapping_names_the_trial_count():
    observations = replace_value(run(), "jdk21/zgc", 3, swap_used_bytes=512 * 2**20)
    observations = replace_value(observations, "jdk21/zgc", 5, swap_used_bytes=0, major_faults=25_000)
    observations = replace_value(observations, "jdk17/default", 5, swap_used_bytes=0, major_faults=120)
    warnings = quality_warnings(observations, metric="ops_per_s")
    assert codes(warnings) == [("swapping", "jdk21/zgc")]
    assert warnings[0].message == (
        "jdk21/zgc: 2 of 10 trials swapped (up to 512 MiB of swap, up to 25000 major page faults):"
        " the machine was swapping: results are unreliable; free memory or reduce the heap"
    )


def test_major_faults_alone_are_swapping():
    observations = replace_value(run(), "jdk17/default", 2, major_faults=5000)
    warnings = quality_warnings(observations, metric="ops_per_s")
    assert codes(warnings) == [("swapping", "jdk17/default")]
    assert "1 of 10 trials swapped (up to 5000 major page faults)" in warnings[0].message


def test_missing_values_are_left_out():
    observations = [
        *run(),
        Observation("jdk21/zgc", 10, 30, None),
        Observation("jdk21/zgc", 11, 31, float("nan")),
    ]
    assert quality_warnings(observations, metric="ops_per_s") == []
