"""Error rates of compare_metrics and relative_change on seeded simulated runs (quoted in methodology.md).

A/A: both sides drawn from the same distribution, so every significant result is a false alarm.
A/B: the variant is 10% higher, so every non-significant result is a miss.
Values are normal with a coefficient of variation of 3%, typical of a JVM benchmark on a quiet machine.
"""

from dataclasses import dataclass

import numpy as np
import pytest

from jvmlab.stats import compare_metrics, relative_change

CV = 0.03
METRICS = ("ops_per_s", "p50_ms", "p99_ms", "gc_pause_total_ms", "rss_bytes", "cpu_s")
MEANS = np.array([1000.0, 2.5, 40.0, 900.0, 1.2e9, 55.0])
# The first three metrics move together (correlation 0.8), like throughput and latency of one run.
CORRELATION = np.eye(len(METRICS))
CORRELATION[:3, :3] = 0.8
np.fill_diagonal(CORRELATION, 1.0)


def draw_metrics(rng: np.random.Generator, repetitions: int) -> dict[str, np.ndarray]:
    z = rng.multivariate_normal(np.zeros(len(METRICS)), CORRELATION, size=repetitions)
    values = MEANS * (1.0 + CV * z)
    return {name: values[:, i] for i, name in enumerate(METRICS)}


def aa_alarm_rate(runs: int, repetitions: int = 5, first_seed: int = 0) -> float:
    """Share of A/A runs in which compare_metrics calls any of the six metrics significant."""
    alarms = 0
    for run in range(runs):
        rng = np.random.default_rng(first_seed + run)
        changes = compare_metrics(draw_metrics(rng, repetitions), draw_metrics(rng, repetitions))
        alarms += any(change.significant for change in changes.values())
    return alarms / runs


def single_metric_alarm_rate(runs: int, repetitions: int = 5, first_seed: int = 0) -> float:
    alarms = 0
    for run in range(runs):
        rng = np.random.default_rng(first_seed + run)
        a, b = rng.normal(100.0, 100.0 * CV, repetitions), rng.normal(100.0, 100.0 * CV, repetitions)
        alarms += bool(relative_change(a, b).significant)
    return alarms / runs


@dataclass(frozen=True)
class Detection:
    detected: float  # significant, positive, CI above 0
    covered: float  # the CI contains the true +10%
    detected_and_covered: float


def ab_rates(runs: int, repetitions: int = 5, first_seed: int = 0) -> Detection:
    """A true +10% change: baseline mean 100, variant 110, each with a CV of 3%."""
    detected = covered = both = 0
    for run in range(runs):
        rng = np.random.default_rng(first_seed + run)
        base, variant = rng.normal(100.0, 3.0, repetitions), rng.normal(110.0, 3.3, repetitions)
        c = relative_change(base, variant)
        assert c.percent is not None and c.ci_low_percent is not None and c.ci_high_percent is not None
        hit = bool(c.significant) and c.percent > 0.0 and c.ci_low_percent > 0.0
        inside = c.ci_low_percent <= 10.0 <= c.ci_high_percent
        detected, covered, both = detected + hit, covered + inside, both + (hit and inside)
    return Detection(detected / runs, covered / runs, both / runs)


def test_aa_six_metrics_raise_no_false_alarm_in_95_percent_of_runs():
    rate = aa_alarm_rate(200)
    assert rate <= 0.05, f"A/A runs with a false alarm: {rate:.1%}"


def test_aa_single_metric_false_alarm_rate_is_near_alpha():
    rate = single_metric_alarm_rate(500)
    assert rate < 0.03, f"single-metric false alarms: {rate:.1%} (alpha 1%)"


@pytest.fixture(scope="module")
def ab5() -> Detection:
    return ab_rates(100, repetitions=5)


def test_ab_a_10_percent_change_is_detected_with_5_repetitions(ab5):
    # Welch's test of the log ratio at alpha 0.01 with 5 + 5 values and a 3% CV: power about 87 %; 90 %
    # needs 6 or more repetitions per side.
    assert ab5.detected >= 0.80, ab5


def test_ab_the_ci_covers_the_true_change_with_5_repetitions(ab5):
    # The CI is at 1 - alpha (99 %), from the t distribution: it covers the truth about 99 % of the time.
    assert ab5.covered >= 0.95, ab5
    assert ab5.detected_and_covered >= 0.75, ab5


def test_ab_7_repetitions_detect_a_10_percent_change_almost_always():
    rates = ab_rates(100, repetitions=7, first_seed=1000)
    assert rates.detected >= 0.95, rates
    assert rates.covered >= 0.95, rates
