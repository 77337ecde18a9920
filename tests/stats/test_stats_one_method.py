"""One statistics: the same two samples get the same CI and the same verdict (significant or not,
and which way) whichever command judges them: `jvmlab compare` (compare_metrics), `jvmlab regress`'s
primary measure and its JFR event counts, `jvmlab verify`'s targeted measure, and `jvmlab profile diff`'s
frames (the many-at-once path of jvmlab.stats). Samples at the edge of alpha = 0.01 (p 0.0077 and 0.019)
and clearly apart or alike. Wherever shown, the CI excludes no change exactly when the verdict is
significant."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from jvmlab import stats
from jvmlab.experiment.analysis.comparison import Cell
from jvmlab.profile.diff import frame_changes
from jvmlab.profile.model import Profile
from jvmlab.regress.analysis import event_deltas, primary_change
from jvmlab.stats import DEFAULT_ALPHA, compare_metrics, estimate, mean_differences
from jvmlab.verify.outcome import measured

BASE = [100.0, 103.0, 97.0, 101.0, 99.0]
CASES = {
    "just significant": ([105.0, 108.0, 102.0, 106.0, 104.0], True),  # p = 0.0077
    "just not significant": ([104.0, 107.0, 101.0, 105.0, 103.5], False),  # p = 0.019
    "clearly better": ([120.0, 123.0, 118.0, 121.0, 119.0], True),
    "clearly worse": ([80.0, 83.0, 78.0, 81.0, 79.0], True),
    "the same": ([101.0, 98.0, 102.0, 100.0, 99.0], False),
}


def _cell(values: list[float]) -> Cell:
    return Cell(estimate(values), None, tuple(values))


@pytest.mark.parametrize("name", CASES)
def test_compare_regress_and_verify_judge_the_same_samples_alike(name):
    new, expected = CASES[name]
    compared = compare_metrics({"m": BASE}, {"m": new})["m"]
    comparison = SimpleNamespace(alpha=DEFAULT_ALPHA, measures={}, sequential=None)
    regressed = primary_change(comparison, _cell(BASE), _cell(new))  # type: ignore[arg-type]
    target = stats.tested_alone(compared, DEFAULT_ALPHA)  # verify's targeted measure
    verified = measured(comparison, "m", None, target)  # type: ignore[arg-type]
    assert compared.significant is expected
    assert regressed.significant is expected and verified.significant is expected
    ci = (compared.ci_low_percent, compared.ci_high_percent)
    assert (regressed.ci_low_percent, regressed.ci_high_percent) == ci
    assert (verified.ci_low_percent, verified.ci_high_percent) == ci
    assert regressed.percent == compared.percent
    assert (ci[0] > 0 or ci[1] < 0) is expected  # type: ignore[operator]
    # The path of many quantities at once (a profile's frames), here one: the same test and judgement
    many = mean_differences(np.array([BASE]), np.array([new]))[0]
    assert many.significant is expected and (many.difference > 0) == ((compared.percent or 0) > 0)
    assert many.ci_low is not None and many.ci_high is not None
    # the CI of a difference d and of a ratio d / mean(base) agree on excluding 0
    assert (many.ci_low > 0 or many.ci_high < 0) == (ci[0] > 0 or ci[1] < 0)  # type: ignore[operator]


def test_a_row_among_many_gets_the_test_it_gets_alone_and_the_ci_of_the_level_the_many_keep():
    rng = np.random.default_rng(4)
    base, new = rng.normal(1.0, 0.1, (40, 4)), rng.normal(1.05, 0.1, (40, 5))
    together = mean_differences(base, new)
    level = together[0].level
    assert level > 1 - DEFAULT_ALPHA  # 1 - alpha R / m: wider than a row's CI alone
    for i in (0, 17, 39):
        alone = mean_differences(base[i : i + 1], new[i : i + 1], alpha=1 - level)[0]
        assert alone.p_value == together[i].p_value
        assert (alone.ci_low, alone.ci_high) == pytest.approx((together[i].ci_low, together[i].ci_high))
        excludes = together[i].ci_low > 0 or together[i].ci_high < 0  # type: ignore[operator]
        assert excludes == together[i].significant


def _profiles(values: list[float]) -> list[Profile]:
    # frame A's share of each profile is value / 200 (B has the rest: the same test, mirrored)
    return [Profile("cpu", {("A",): round(v * 10), ("B",): 2000 - round(v * 10)}) for v in values]


@pytest.mark.parametrize("name", CASES)
def test_profile_diff_and_regress_events_judge_the_same_samples_alike(name):
    new, expected = CASES[name]
    frame = next(f for f in frame_changes(_profiles(BASE), _profiles(new)) if f.frame == "A")
    counts = event_deltas(
        [{"jdk.ClassLoad": v} for v in BASE], [{"jdk.ClassLoad": v} for v in new], DEFAULT_ALPHA
    )  # type: ignore[misc]
    compared = compare_metrics({"m": BASE}, {"m": new})["m"]
    assert frame.significant is expected and counts[0].change.significant is expected
    assert counts[0].change == compared  # one event type: exactly the change compare shows
    # A frame's share is value / 200 of its profile (B's the rest): the CI of the difference of shares,
    # scaled back, is the CI of the difference of the values tested with B's mirror image, up to rounding.
    mirrored = np.array([BASE, [200 - x for x in BASE]]), np.array([new, [200 - x for x in new]])
    many = mean_differences(*mirrored)[0]
    assert frame.ci_low is not None and frame.ci_high is not None and many.ci_low is not None
    scaled = (frame.ci_low * 200, frame.ci_high * 200)
    assert scaled == pytest.approx((many.ci_low, many.ci_high), abs=0.5)
